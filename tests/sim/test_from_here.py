"""Win chance from here (:mod:`fracas.sim.from_here`): deterministic given its seed, the
exact answer inside the estimate's interval, human seats played by the default AI."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fracas.core.encounter import Encounter
from fracas.scenario import load_scenario, start_encounter
from fracas.scenario.seats import with_humans
from fracas.sim.fights import SimulationError
from fracas.sim.from_here import win_chance_from_here

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CLAW = EXAMPLES / "age_of_dragons" / "claw_duel.yaml"


def _played(enc: Encounter[Any], decisions: int) -> Encounter[Any]:
    for _ in range(decisions):
        chosen: list[Any] = []
        found = enc.options()
        while found.action is None:
            step = found.step
            assert step is not None
            chosen.append(step.default if step.default is not None else step.values[0])
            found = enc.options(chosen)
        enc.apply(found.action)
    return enc


def test_the_estimate_is_the_same_for_the_same_seed() -> None:
    enc = _played(start_encounter(load_scenario(CLAW), seed=1), 3)
    first = win_chance_from_here(enc, fights=60, seed=5, exact_states=0)
    again = win_chance_from_here(enc, fights=60, seed=5, exact_states=0)
    other = win_chance_from_here(enc, fights=60, seed=6, exact_states=0)
    assert first == again
    assert first.fights == 60 and not first.exact
    assert sum(s.wins for s in first.sides) + first.draws + first.unfinished == 60
    assert other.seed == 6 and other.fights == 60
    assert all("an estimate" in line for line in first.lines()[:2])


@pytest.mark.parametrize("decisions", [0, 3])
def test_the_exact_chance_lies_in_the_estimates_interval(decisions: int) -> None:
    enc = _played(start_encounter(load_scenario(CLAW), seed=1), decisions)
    found = win_chance_from_here(enc, fights=600, seed=11)
    assert found.exact, found.notes
    for side in found.sides:
        assert side.exact is not None
        assert side.low <= side.exact <= side.high, side
        assert "exactly" in side.words(found.fights)


def test_a_person_s_seat_is_played_by_the_default_ai_and_said_so() -> None:
    enc = _played(start_encounter(with_humans(load_scenario(CLAW), ["Ember"]), seed=1), 0)
    found = win_chance_from_here(enc, fights=20, seed=1, exact_states=0)
    assert any("Ember" in note and "default AI" in note for note in found.notes)
    assert found.fights == 20


def test_a_fight_too_large_for_the_budget_is_an_estimate_alone() -> None:
    enc = start_encounter(load_scenario(EXAMPLES / "one_ring" / "company_vs_orcs.yaml"), seed=1)
    found = win_chance_from_here(enc, fights=10, seed=1, exact_states=50, exact_leaves=500)
    assert not found.exact
    assert all(s.exact is None for s in found.sides)
    assert any("no exact answer" in note for note in found.notes)


def test_a_finished_fight_has_nothing_to_estimate() -> None:
    enc = start_encounter(load_scenario(CLAW), seed=1)
    enc.play(lambda actor: enc.ruleset.policy_for(enc.state, actor), enc.rng)
    assert enc.is_over
    with pytest.raises(SimulationError, match="over"):
        win_chance_from_here(enc, fights=5)
