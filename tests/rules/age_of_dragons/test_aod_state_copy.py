"""A state's copy is equal and independent; a decision folds alike with or without its event.

The exact solver copies a state per chance outcome, and it and the simulator fold their
decisions with ``apply_decision`` (no event made)."""

from __future__ import annotations

import copy as stdcopy
import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.core.encounter import Encounter
from fracas.core.events import DecisionMade
from fracas.core.policy import RandomPolicy, scenario_policies
from fracas.core.rng import SeededRng
from fracas.rules.age_of_dragons import fold
from fracas.rules.age_of_dragons.key import state_key
from fracas.rules.age_of_dragons.state import (
    MAULED,
    OK,
    RIPPED,
    AgeOfDragonsState,
    Fighter,
    Pending,
    Profile,
    Turn,
)
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


@pytest.mark.source  # sets fields to values of other types, which compiled classes refuse
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


def test_a_fighter_copy_fills_every_field() -> None:
    """A fighter made with every field off its default and unlike every other field is
    copied field by field, and the copy shares no mutable part.

    Checked once against a deliberately broken copy: with ``Fighter.copy`` no longer
    setting ``falling_rounds`` (its slot left empty) this test fails naming the field."""
    profile = Profile("Ember", "red", 9, 8, 7, 3, 20, True, "heuristic")
    values: dict[str, Any] = {
        "profile": profile, "pr": 11, "pd": 2, "altitude": 3, "resources": {"fire": 5},
        "dead": True, "stunned": True, "wing": MAULED, "tail": RIPPED,
        "limbs": [RIPPED, MAULED, OK, MAULED], "falling_rounds": 4, "fell_this_round": True,
        "chose_fall": True,
    }
    assert set(values) == {f.name for f in dataclasses.fields(Fighter)}, \
        "a new Fighter field: give it a value here"
    defaults = Fighter(profile, 0, 0, 0, {})
    for name, value in values.items():
        if name not in ("profile", "pr", "pd", "altitude", "resources"):
            assert value != getattr(defaults, name), f"{name} is at its default"
    fighter = Fighter(**values)
    copied = fighter.copy()
    for name, value in values.items():
        assert hasattr(copied, name), f"Fighter.copy() leaves {name} unset"
        assert getattr(copied, name) == value, f"Fighter.copy() does not carry {name} over"
    assert copied.limbs is not fighter.limbs and copied.resources is not fighter.resources


def test_the_slot_fillers_fill_every_slot() -> None:
    """``Turn.start`` and ``Pending.declared`` fill their slots by hand: they make what the
    constructors make, every slot set.

    Checked once against a deliberately broken filler: with ``Turn.start`` no longer
    setting ``rerolled_from`` this test fails on the empty slot."""
    assert Turn.start("Ember") == Turn("Ember")
    started = Turn.start("Ember")
    for f in dataclasses.fields(Turn):
        assert getattr(started, f.name) == getattr(Turn("Ember"), f.name), f.name
    args = ("Ember", "attack", ["Ash"], 5, 3, 6, 2, "bite", "head", "bow")
    assert [f.name for f in dataclasses.fields(Pending)] == \
        ["attacker", "kind", "defenders", "hits", "tn", "damage_bonus", "sixes", "style",
         "called", "weapon"], "a new Pending field: give it a value here"
    declared = Pending.declared(*args)
    for f, value in zip(dataclasses.fields(Pending), args, strict=True):
        assert getattr(declared, f.name) == value, f"Pending.declared drops {f.name}"


#: The fields ``state_key`` leaves out, and why: the rest of a fight does not hang on them.
_NOT_KEYED: dict[type, set[str]] = {
    Fighter: {"profile"},  # fixed for the fight
    Turn: {"rerolled_from",  # for the log only
           "hits"},  # worked out from the pool
    Pending: {"style", "weapon",  # the attack's numbers (tn, bonus) are worked out already
              "sixes"},  # read through the called shot's effect (test_odds_breath.py)
    AgeOfDragonsState: {
        "fighters", "turn", "pending",  # their own fields are checked one by one
        "landmarks", "tasks", "aggressor", "initiative_sphere", "ground", "max_rounds",
        "spot_consumes_dice", "search",  # the fixed set-up
        "round",  # the key leaves the round counter out (the round limit aside)
        "spot_run", "closed_run", "may_end",  # for the log, or a test whose answer is known
        "standing",  # a count of changes the heuristic keeps its foes' order by
        "foe_index",  # the heuristic's index of the foes, read from the fields keyed
    },
}


def _changed(value: Any) -> Any:
    """Another value of the same kind."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "-other"
    if isinstance(value, dict):
        if not value:
            return {"zz-other": 1}
        first = next(iter(value))
        return {**value, first: _changed(value[first])}
    if isinstance(value, set):
        return {*value, ("zz-a", "zz-b")}
    if isinstance(value, tuple):
        return (*value, "zz-other")
    if value is None:
        return (None, "other")
    raise AssertionError(f"no other value for {value!r}")


def _variants(state: AgeOfDragonsState) -> Iterator[tuple[str, AgeOfDragonsState]]:
    """Copies of ``state`` with one keyed field changed each, named."""
    for f in dataclasses.fields(AgeOfDragonsState):
        if f.name not in _NOT_KEYED[AgeOfDragonsState]:
            copy = state.copy()
            setattr(copy, f.name, _changed(getattr(copy, f.name)))
            yield f"state.{f.name}", copy
    for name in state.fighters:
        for f in dataclasses.fields(Fighter):
            if f.name in _NOT_KEYED[Fighter]:
                continue
            copy = state.copy()
            fighter = copy.fighters[name]
            value = getattr(fighter, f.name)
            setattr(fighter, f.name, [value[0] + 1, *value[1:]] if isinstance(value, list)
                    else _changed(value))
            yield f"Fighter.{f.name}", copy
    if state.turn is not None:
        # a die a spot can take (state_key leaves out the dice nothing can take or read)
        live = next((i for i, (face, gone) in enumerate(zip(state.turn.pool,
                     state.turn.expended, strict=True)) if face >= 3 and not gone), None)
        for f in dataclasses.fields(Turn):
            if f.name in _NOT_KEYED[Turn]:
                continue
            copy = state.copy()
            turn = copy.turn
            assert turn is not None
            value = getattr(turn, f.name)
            if isinstance(value, list):
                if live is None:
                    continue
                value = list(value)
                value[live] = not value[live] if isinstance(value[live], bool) else \
                    value[live] + 1
            else:
                value = _changed(value)
            setattr(turn, f.name, value)
            yield f"Turn.{f.name}", copy
    if state.pending is not None:
        for f in dataclasses.fields(Pending):
            if f.name in _NOT_KEYED[Pending]:
                continue
            copy = state.copy()
            value = getattr(copy.pending, f.name)
            setattr(copy.pending, f.name,
                    [*value, "zz-other"] if isinstance(value, list) else _changed(value))
            yield f"Pending.{f.name}", copy


@pytest.mark.source  # sets fields to values of other types, which compiled classes refuse
def test_the_state_key_reads_every_field_that_shapes_the_fight() -> None:
    """``state_key`` names the fields by hand: changing any field it does not leave out on
    purpose (``_NOT_KEYED``) changes the key, on states of a real fight with a turn in
    hand and with an attack pending.  A new field must be keyed or left out here.

    Checked once against a deliberately broken key: with ``falling_rounds`` dropped from
    a fighter's part of ``state_key`` this test fails naming ``Fighter.falling_rounds``."""
    for cls, names in _NOT_KEYED.items():
        assert names <= {f.name for f in dataclasses.fields(cls)}, cls
    scenario = load_scenario(GRAPPLE)
    ruleset = scenario.ruleset
    enc = Encounter(ruleset, ruleset.initial_state(scenario.model), rng=SeededRng(1))
    policies = scenario_policies(ruleset, enc.state)
    rng = SeededRng(1).spawn("policy")
    seen: set[str] = set()
    while (actor := enc.current_actor()) is not None and seen != {"turn", "pending"}:
        state = enc.state
        kind = "pending" if state.pending is not None else \
            "turn" if state.turn is not None and state.turn.step != "pool" else None
        if kind is not None and kind not in seen:
            seen.add(kind)
            key = state_key(state)
            for what, variant in _variants(state):
                assert state_key(variant) != key, f"state_key does not read {what}"
        enc.apply(policies(actor).choose(enc.request(rng)))
    assert seen == {"turn", "pending"}
