"""Property: random GM overrides interleaved into random fights replay identically.

Hypothesis plays a random fight of an example of each rule set, and before some
decisions the GM makes a random override, chosen step by step through
``Encounter.override_options`` (any verb, target, gauge, amount, condition).  The saved
log must then load, verified against the rules and its recorded dice, to the same
events and the same state; and undoing every decision must bring back the start.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))

from override_helpers import same, start

from fracas.core.encounter import Encounter
from fracas.core.overrides import is_override
from fracas.core.policy import RandomPolicy
from fracas.core.rng import SeededRng
from fracas.scenario.logs import decisions, load_log

EXAMPLES = [("age_of_dragons", "aerial_2v2"), ("one_ring", "company_vs_orcs"),
            ("adnd", "bottleneck"), ("battlesystem", "dwarf_column_ambush")]


def random_override(enc: Encounter[Any], data: st.DataObject) -> None:
    """Choose an override step by step, every value drawn from what the step offers."""
    found = enc.override_options()
    while found.action is None:
        step = found.step
        assert step is not None
        if step.span is not None:
            value = data.draw(st.integers(step.span.low, step.span.high))
        else:
            value = data.draw(st.sampled_from(step.values))
        found = enc.override_options([*found.chosen, value])
    enc.apply(found.action)


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "example"), EXAMPLES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_random_overrides_replay_from_the_saved_log(ruleset: str, example: str,
                                                    data: st.DataObject, seed: int,
                                                    tmp_path: Path) -> None:
    enc = start(ruleset, example, seed)
    rng = SeededRng(seed)
    policy = RandomPolicy()
    for _ in range(40):
        if enc.is_over:
            break
        if data.draw(st.integers(0, 3)) == 0:
            random_override(enc, data)
        elif not enc.is_over:
            enc.apply(policy.choose(enc.request(rng)))
    event(f"overrides: {sum(is_override(e.action) for e in decisions(enc.log))}")
    path = tmp_path / f"{ruleset}.jsonl"
    enc.save(path)
    loaded = load_log(path).encounter
    assert loaded.log == enc.log
    assert same(enc, loaded.state, enc.state)
    while enc.can_undo:
        enc.undo()
    assert same(enc, enc.state, start(ruleset, example, seed).state)


@pytest.mark.parametrize(("ruleset", "example"), EXAMPLES)
def test_the_automatic_steps_change_nothing_after_an_override_at_a_decision(
        ruleset: str, example: str) -> None:
    """After an override the rule set's ``advance`` runs; at a decision it must add nothing.

    At every decision of a random fight the GM adjusts a gauge by nothing: exactly the
    decision and its event are logged, and the fight stands where it stood.
    """
    enc = start(ruleset, example, 3)
    rng = SeededRng(3)
    checked = 0
    while not enc.is_over and checked < 60:
        assert enc.ruleset.overrides is not None
        target = enc.override_options(["adjust"]).step
        assert target is not None
        name = target.values[0]
        what = enc.override_options(["adjust", name]).step
        assert what is not None
        key, actor = enc.ruleset.state_key(enc.state), enc.current_actor()
        events = enc.apply(enc.override_options(["adjust", name, what.values[0], 0]).action)
        assert len(events) == 2, events
        assert enc.ruleset.state_key(enc.state) == key and enc.current_actor() == actor
        enc.apply(RandomPolicy().choose(enc.request(rng)))
        checked += 1
    assert checked > 5
