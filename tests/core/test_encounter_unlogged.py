"""``Encounter.unlogged`` and ``Encounter.restart``: bulk play's encounters, the same as
``Encounter(..., keep_log=False, start=False)`` made afresh for each fight."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.core.encounter import Encounter
from fracas.core.policy import scenario_policies
from fracas.core.rng import SeededRng, fight_streams
from fracas.scenario import parse_scenario, start_encounter

TOY = """
ruleset: toy
fighters:
  - {name: a, side: red, hp: 6}
  - {name: b, side: blue, hp: 6}
"""


def _parts(enc: Encounter[Any]) -> dict[str, Any]:
    """Every attribute of ``enc`` but its state, which is told by the rule set's key."""
    parts = dict(vars(enc))
    parts["state"] = enc.ruleset.state_key(parts["state"])
    return parts


def test_unlogged_is_the_plain_encounter_that_keeps_no_log() -> None:
    enc = start_encounter(parse_scenario(TOY, "toy.yaml"), seed=1)
    initial = enc.initial_state
    dice = SeededRng(4)
    made = Encounter.unlogged(enc.ruleset, initial, dice)
    plain = Encounter(enc.ruleset, initial, rng=dice, keep_log=False, start=False)
    assert _parts(made) == _parts(plain)
    assert made.state is not initial  # its own copy


def test_restart_plays_each_fight_as_a_new_encounter_would() -> None:
    enc = start_encounter(parse_scenario(TOY, "toy.yaml"), seed=1)
    ruleset, initial = enc.ruleset, enc.initial_state
    again = Encounter.unlogged(ruleset, initial, SeededRng(0))
    for seed in range(6):
        dice, policy_rng = fight_streams(seed)
        fresh = Encounter(ruleset, initial, rng=dice, keep_log=False)
        expected = fresh.play(scenario_policies(ruleset, fresh.state), policy_rng)
        dice, policy_rng = fight_streams(seed)
        again.restart(initial, dice)
        assert again.state is not initial and not again._offered
        ruleset.advance(again.state, dice, again.emit)
        again.options()  # an answer kept for this fight's state, forgotten by the restart
        assert again._offered
        assert again.play(scenario_policies(ruleset, again.state), policy_rng) == expected
        assert ruleset.state_key(again.state) == ruleset.state_key(fresh.state)


def test_only_an_encounter_that_keeps_no_log_restarts() -> None:
    enc = start_encounter(parse_scenario(TOY, "toy.yaml"), seed=1)
    with pytest.raises(ValueError, match="keeps no log"):
        enc.restart(enc.initial_state, SeededRng(0))


@pytest.mark.parametrize("example", ["age_of_dragons/claw_duel", "adnd/wall_duel",
                                     "battlesystem/gas_on_the_wind", "one_ring/ambush"])
def test_steps_asked_after_play_without_a_log_are_the_new_state_s(example: str) -> None:
    # Without a log the state changes in place (the lean turns and the plain decision
    # step fold straight into it): the answers kept for the steps before must not be
    # handed out for the state after.
    from pathlib import Path

    from fracas.scenario import load_scenario

    path = Path(__file__).resolve().parents[2] / "examples" / f"{example}.yaml"
    scenario = load_scenario(path)
    enc = Encounter(scenario.ruleset, scenario.ruleset.initial_state(scenario.model),
                    rng=SeededRng(3), keep_log=False)
    policies = scenario_policies(enc.ruleset, enc.state)
    rng = SeededRng(3).spawn("policy")
    for _ in range(40):
        if enc.current_actor() is None:
            break
        enc.options()  # kept for this state
        enc.play(policies, rng, max_decisions=3)
        if enc.current_actor() is None:
            break
        fresh = Encounter(enc.ruleset, enc.ruleset.clone_state(enc.state), rng=SeededRng(0),
                          keep_log=False, start=False)
        assert enc.options() == fresh.options()
        assert list(enc.legal_actions()) == list(fresh.legal_actions())
