"""A state's copy is equal and independent; a decision folds alike with or without its event.

The exact solver copies a state per chance outcome, and it and the simulator fold their
decisions with ``apply_decision`` (no event made)."""

from __future__ import annotations

import copy as stdcopy
import dataclasses
from pathlib import Path
from typing import Any

from fracas.core.encounter import Encounter
from fracas.core.events import DecisionMade
from fracas.core.policy import RandomPolicy, scenario_policies
from fracas.core.rng import SeededRng
from fracas.rules.age_of_dragons import fold
from fracas.rules.age_of_dragons.state import Turn
from fracas.scenario import load_scenario

GRAPPLE = Path(__file__).resolve().parents[3] / "examples" / "age_of_dragons" / \
    "grapple_brawl.yaml"


def _distinct(name: str, value: Any) -> Any:
    """A value for field ``name`` that no other field and no default holds.

    Parts copied by their own ``copy`` (a fighter, a turn) are kept: they are checked
    on their own."""
    if hasattr(value, "copy") and dataclasses.is_dataclass(value):
        return value
    if isinstance(value, dict):
        if any(dataclasses.is_dataclass(v) for v in value.values()):
            return value
        return {f"only {name}": object()}
    if isinstance(value, set):
        return {f"only {name}"}
    if isinstance(value, list):
        return [object()]
    if isinstance(value, tuple):
        return (object(),)
    if value is None:
        return None  # a part copied by its own ``copy`` (a turn), absent in this state
    return object()


def _assert_copy_keeps_every_field(original: Any) -> None:
    subject = stdcopy.copy(original)  # every slot, whatever ``copy()`` forgets
    for f in dataclasses.fields(subject):
        setattr(subject, f.name, _distinct(f.name, getattr(subject, f.name)))
    copied = subject.copy()
    kind = type(subject).__name__
    for f in dataclasses.fields(subject):
        assert hasattr(copied, f.name), f"{kind}.copy() leaves {f.name} unset"
        assert getattr(copied, f.name) == getattr(subject, f.name), \
            f"{kind}.copy() does not carry {f.name} over"


def test_a_copy_carries_every_field_over() -> None:
    """Field by field, on the states of a real fight, each field first set to a value of
    its own (so a field copied from the wrong one, or left at its default, shows).

    Checked once against a deliberately broken copy: with ``Fighter.copy`` no longer
    copying ``falling_rounds``, or ``Turn.copy`` passing ``0`` for ``rerolled_from``,
    this test fails naming the field."""
    scenario = load_scenario(GRAPPLE)
    ruleset = scenario.ruleset
    seen: dict[str, int] = {}
    for seed in range(3):
        enc = Encounter(ruleset, ruleset.initial_state(scenario.model), rng=SeededRng(seed))
        policies = scenario_policies(ruleset, enc.state)
        rng = SeededRng(seed).spawn("policy")
        while (actor := enc.current_actor()) is not None:
            state = enc.state
            parts = [*state.fighters.values(), state.turn, state.pending, state.spot_run,
                     state.closed_run, state]  # the parts first: a failure names its own
            for part in parts:
                if part is not None:
                    _assert_copy_keeps_every_field(part)
                    seen[type(part).__name__] = seen.get(type(part).__name__, 0) + 1
            enc.apply(policies(actor).choose(enc.request(rng)))
    assert set(seen) == {"AgeOfDragonsState", "Fighter", "Turn", "Pending", "SpotRun"}, seen


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
