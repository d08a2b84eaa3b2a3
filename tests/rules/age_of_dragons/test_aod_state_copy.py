"""A state's copy is equal and independent; a decision folds alike with or without its event.

The exact solver copies a state per chance outcome, and it and the simulator fold their
decisions with ``apply_decision`` (no event made)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from fracas.core.encounter import Encounter
from fracas.core.events import DecisionMade
from fracas.core.policy import RandomPolicy, scenario_policies
from fracas.core.rng import SeededRng
from fracas.rules.age_of_dragons import fold
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


def test_folding_a_decision_without_its_event_is_folding_the_event() -> None:
    """``apply_decision`` (a play without a log) changes a state as ``DecisionMade`` does."""
    for path in sorted(GRAPPLE.parent.glob("*.yaml")):
        scenario = load_scenario(path)
        ruleset = scenario.ruleset
        for seed in range(3):
            enc = Encounter(ruleset, ruleset.initial_state(scenario.model), rng=SeededRng(seed))
            rng = SeededRng(seed).spawn("policy")
            for _ in range(150):
                actor = enc.current_actor()
                if actor is None:
                    break
                action = RandomPolicy().choose(enc.request(rng))
                by_event, by_call = enc.state.copy(), enc.state.copy()
                ruleset.apply_event(by_event, DecisionMade(actor, action))
                fold.apply_decision(by_call, actor, action)
                assert by_call == by_event, f"{path.stem} seed {seed}: {action}"
                enc.apply(action)
