"""A rule set's ``apply_decision`` is the fold of ``DecisionMade``, for every rule set.

The play loop folds a decision with ``Ruleset.apply_decision`` (no event made) when no log
is kept; replay and a kept log fold the ``DecisionMade`` event.  The One Ring, AD&D and
BATTLESYSTEM write their own ``apply_decision``; here it is held to ``apply_event`` at every
decision of fights of every example, played by the scenario's policies and at random.
(Checked once on a broken copy: a BATTLESYSTEM ``apply_decision`` that did nothing failed.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.core.events import DecisionMade
from fracas.scenario import load_scenario
from fracas.testing.walk import decisions

ROOT = Path(__file__).resolve().parents[2] / "examples"
EXAMPLES = sorted(p for rs in ("one_ring", "adnd", "battlesystem")
                  for p in (ROOT / rs).glob("*.yaml"))


@pytest.mark.parametrize("random_play", [False, True], ids=["own policies", "random"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_apply_decision_is_the_fold_of_the_decision(path: Path, random_play: bool) -> None:
    scenario = load_scenario(path)
    ruleset = scenario.ruleset
    initial = ruleset.initial_state(scenario.model)
    checked = 0
    for seed in range(2):
        for here in decisions(ruleset, initial, seed, random_play=random_play):
            actor, action = here.actor, here.choose()
            quick, folded = ruleset.clone_state(here.state), ruleset.clone_state(here.state)
            ruleset.apply_decision(quick, actor, action)
            ruleset.apply_event(folded, DecisionMade(actor, action))
            assert quick == folded, f"{action}: apply_decision differs from the fold"
            checked += 1
    assert checked > 0
