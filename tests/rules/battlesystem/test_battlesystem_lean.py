"""The heuristic's lean decisions (``lean.heuristic_turns``) play the engine's fights exactly.

Where the play loop keeps no log and tells no listener it hands each decision to
:func:`fracas.rules.battlesystem.lean.heuristic_turns`, which takes the heuristic's
orders without a decision request.  These tests play every example, with the heuristic
alone and with some units (or the GM) on the random policy, both ways -- the engine
decision by decision (a listener keeps it off the lean path) and the lean way -- and
hold them to the same fights: the same final state, outcome, dice stream and number of
decisions, also when a decision limit cuts the fight short at any point.

A fight's opening, the decisions before its first die, is taken at once from a copy kept
by the first fight that played it (``lean._opening``); the fights above play it that way,
and the key it is kept by is held to change with every field of the state.

Checked once against deliberately broken copies, each failing here: the lean way without
the automatic phases after a decision (``advance``), the lean way counting one decision
too few per call, an opening taken whole past the decision limit, and a key without the
queue.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from fracas.core.encounter import Encounter
from fracas.core.loop import play
from fracas.core.policy import Policy, RandomPolicy, scenario_policies
from fracas.core.rng import SeededRng
from fracas.core.ruleset import GM
from fracas.rules.battlesystem import lean
from fracas.rules.battlesystem.state import Gas, Unit, clone, state_fields
from fracas.scenario import load_scenario

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" /
                   "battlesystem").glob("*.yaml"))


def _fight(start: tuple[Any, Any], seed: int, random_actors: frozenset[str], limit: int,
           lean_way: bool) -> tuple[Any, Any, Any, Any]:
    """One fight from ``start`` (a rule set and the initial state, shared by the fights of
    a scenario as the simulator shares it): its final state, outcome and dice."""
    ruleset, initial = start
    enc: Encounter[Any] = Encounter(ruleset, initial, rng=SeededRng(seed), keep_log=False)
    chosen = scenario_policies(ruleset, enc.state)
    chance = RandomPolicy()

    def pick(name: str) -> Policy:
        return chance if name in random_actors else chosen(name)

    listener = None if lean_way else (lambda _event, _state: None)
    outcome = play(enc, pick, SeededRng(seed).spawn("policy"), max_decisions=limit,
                   listener=listener)
    return enc.state, outcome, enc.rng._random.getstate(), len(enc.state.queue)  # type: ignore[attr-defined]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_lean_way_plays_the_engines_fights(path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = load_scenario(path)
    taken = [0]
    real = lean.heuristic_turns

    def counting(*args: Any) -> int:
        n = real(*args)
        taken[0] += n
        return n

    monkeypatch.setattr(type(scenario.ruleset), "lean_turns",
                        staticmethod(counting))
    rnd = random.Random(path.stem)
    start = (scenario.ruleset, scenario.ruleset.initial_state(scenario.model))
    actors = [*start[1].units, GM]
    for seed in range(12):
        random_actors = frozenset(a for a in actors if seed % 3 and rnd.random() < 0.3)
        limit = rnd.choice((1, 2, 5, 17, 40, 20_000, 20_000, 20_000))
        engine = _fight(start, seed, random_actors, limit, lean_way=False)
        before = taken[0]
        leaned = _fight(start, seed, random_actors, limit, lean_way=True)
        assert engine[0] == leaned[0], (seed, limit, random_actors)
        assert engine[1:] == leaned[1:], (seed, limit, random_actors)
        if not random_actors:
            assert taken[0] > before  # the lean way was taken
    assert taken[0] > 0
    # Every fight from here on takes its opening at once, whole or (past the decision
    # limit) not at all: cut short at every early point, each is the engine's fight.
    for limit in range(1, 31):
        engine = _fight(start, limit, frozenset(), limit, lean_way=False)
        leaned = _fight(start, limit, frozenset(), limit, lean_way=True)
        assert engine == leaned, limit


def _changed(value: Any) -> Any:
    """Another value of the same kind as ``value``."""
    if isinstance(value, bool) or value is None:
        return ("someone", "a reason") if value is None else not value
    if isinstance(value, (int, float)):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, (tuple, list)):
        return type(value)([*value, ("x", 1)])
    if isinstance(value, set):
        return value | {"x"}
    if isinstance(value, dict):  # one entry fewer, or (none to drop) one more
        return dict(list(value.items())[1:]) if value else {"x": "heuristic"}
    return dataclasses.replace(value)  # a frozen record: an equal one, another object


@pytest.mark.source  # sets fields to values of other types, which compiled classes refuse
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_an_openings_key_reads_every_field_of_the_state(path: Path) -> None:
    """Two states whose keys are equal are equal states: the key changes with every field
    (a unit's every field, its statistics by identity)."""
    scenario = load_scenario(path)
    state = scenario.ruleset.initial_state(scenario.model)
    assert set(lean.KEYED) == set(state_fields())
    key = lean._key(state)
    assert lean._key(clone(state)) == key
    for name in state_fields():
        other = clone(state)
        if name == "features" and not other.features:
            continue  # (each example with fragile formations changes them below)
        if name == "gases":
            other.gases = [Gas(0, "x", 1.0, 1, 1, False)]
        else:
            setattr(other, name, _changed(getattr(other, name)))
        assert lean._key(other) != key, name
    for feature in clone(state).features.values():
        for field in dataclasses.fields(feature):
            other = clone(state)
            setattr(other.features[feature.name], field.name,
                    _changed(getattr(feature, field.name)))
            assert lean._key(other) != key, field.name
    with_gas = clone(state)
    with_gas.gases = [Gas(0, "x", 1.0, 1, 1, False)]
    for field in dataclasses.fields(Gas):
        other = clone(with_gas)
        setattr(other.gases[0], field.name, _changed(getattr(other.gases[0], field.name)))
        assert lean._key(other) != lean._key(with_gas), field.name
    for field in dataclasses.fields(Unit):
        other = clone(state)
        unit = next(iter(other.units.values()))
        setattr(unit, field.name, _changed(getattr(unit, field.name)))
        assert lean._key(other) != key, field.name
