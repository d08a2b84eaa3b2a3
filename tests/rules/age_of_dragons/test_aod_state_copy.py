"""A state's copy (the solver makes one per chance outcome) is equal and independent."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from fracas.core.encounter import Encounter
from fracas.core.policy import scenario_policies
from fracas.core.rng import SeededRng
from fracas.rules.age_of_dragons.state import Fighter, Turn
from fracas.scenario import load_scenario

GRAPPLE = Path(__file__).resolve().parents[3] / "examples" / "age_of_dragons" / \
    "grapple_brawl.yaml"


def test_a_fighter_copy_fills_every_field() -> None:
    assert {f.name for f in dataclasses.fields(Fighter)} == set(Fighter.__slots__)


def test_copies_are_equal_and_share_nothing_that_changes() -> None:
    scenario = load_scenario(GRAPPLE)
    ruleset = scenario.ruleset
    enc = Encounter(ruleset, ruleset.initial_state(scenario.model), rng=SeededRng(4))
    policies = scenario_policies(ruleset, enc.state)
    rng = SeededRng(4).spawn("policy")
    copies = 0
    while enc.current_actor() is not None and copies < 200:
        state = enc.state
        copy = state.copy()
        assert copy == state
        for name, fighter in state.fighters.items():
            twin = copy.fighters[name]
            assert twin is not fighter and twin.limbs is not fighter.limbs
            assert twin.resources is not fighter.resources
        if state.turn is not None:
            assert isinstance(copy.turn, Turn) and copy.turn.pool is not state.turn.pool
        copies += 1
        actor = enc.current_actor()
        assert actor is not None
        enc.apply(policies(actor).choose(enc.request(rng)))
    assert copies > 10
