"""Chance in the duel solver: pools branch on the face classes a rule set tells apart.

The class outcomes are exact (Fractions) and agree with brute force; a rule set's classes
give the same odds as every face kept distinct; a partition that is not one is refused;
the claw duel is exact against an independent recursion and against the old solver.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fracas.core.encounter import Encounter
from fracas.core.events import DiceRolled
from fracas.core.rng import Rng, ScriptedRng, SeededRng, roll_pool
from fracas.core.ruleset import Action, Emit, find_ruleset, register_ruleset
from fracas.odds import DuelError, solve_duel
from fracas.odds.duel import pool_outcomes
from fracas.scenario import load_scenario, parse_scenario
from toy_ruleset import Strike, ToyState, TurnPassed, Wounded

DATA = Path(__file__).parent / "data"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: The claw duel's red win chance from the solver before this round (2,002 sorted faces
#: per 9d6 and re-running each decision; 111-173 s of CPU), printed with repr.
OLD_SOLVER_CLAW_DUEL = 0.6864735071075418


# -- the outcomes of a pool -------------------------------------------------------------
@st.composite
def _partitions(draw: st.DrawFn) -> tuple[int, tuple[tuple[int, ...], ...]]:
    sides = draw(st.integers(1, 7))
    labels = draw(st.lists(st.integers(0, 3), min_size=sides, max_size=sides))
    groups: dict[int, list[int]] = {}
    for face, label in enumerate(labels, start=1):
        groups.setdefault(label, []).append(face)
    return sides, tuple(tuple(g) for g in groups.values())


@given(st.integers(0, 5), _partitions())
def test_class_outcomes_are_the_brute_force_counts_exactly(
    count: int, partition: tuple[int, tuple[tuple[int, ...], ...]]
) -> None:
    sides, classes = partition
    lowest = {f: min(g) for g in classes for f in g}
    brute: Counter[tuple[int, ...]] = Counter(
        tuple(sorted(lowest[f] for f in faces))
        for faces in itertools.product(range(1, sides + 1), repeat=count))
    outcomes = dict(pool_outcomes(count, sides, classes))
    assert outcomes == {faces: Fraction(n, sides**count) for faces, n in brute.items()}
    assert sum(outcomes.values()) == 1


def test_nine_dice_read_as_three_classes_give_55_outcomes() -> None:
    assert len(pool_outcomes(9, 6, ((1, 2, 3), (4, 5), (6,)))) == 55 == math.comb(11, 2)
    assert len(pool_outcomes(9, 6, ((1, 2, 3), (4, 5, 6)))) == 10
    assert len(pool_outcomes(9, 6)) == 2002
    grouped = dict(pool_outcomes(9, 6, ((1, 2, 3), (4, 5), (6,))))
    three_sixes = grouped[(1,) * 4 + (4,) * 2 + (6,) * 3]
    assert three_sixes == Fraction(math.factorial(9), math.factorial(4) * 2 * 6) * \
        Fraction(3, 6) ** 4 * Fraction(2, 6) ** 2 * Fraction(1, 6) ** 3


# -- a rule set that names classes --------------------------------------------------------
ToyExact = type(find_ruleset("toy_exact"))  # registered by this folder's conftest


class PoolStrike(ToyExact):  # type: ignore[valid-type,misc]
    """A strike rolls 3d6 and wounds by the dice showing 4+ (so 1-3 and 4-6 are classes)."""

    name = "toy_pool"
    classes: ClassVar[Any] = ((1, 2, 3), (4, 5, 6))

    def resolve(self, state: ToyState, action: Action, rng: Rng, emit: Emit) -> None:
        if not isinstance(action, Strike):
            super().resolve(state, action, rng, emit)
            return
        faces = tuple(rng.dice(3, 6))
        emit(DiceRolled(action.actor, "damage", 6, faces))
        emit(Wounded(action.target, sum(1 for f in faces if f >= 4)))
        emit(TurnPassed())

    def face_classes(self, state: ToyState, count: int, sides: int,
                     ) -> Sequence[Sequence[int]] | None:
        return type(self).classes  # type: ignore[no-any-return]


register_ruleset(PoolStrike)
_POOL_DUEL = """ruleset: toy_pool
name: pool duel
fighters:
  - {name: Ash, side: red, hp: 4}
  - {name: Birch, side: blue, hp: 5}
max_rounds: 50
policy: strike
"""


def test_named_classes_give_the_odds_of_distinct_faces_with_fewer_resolutions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scenario = parse_scenario(_POOL_DUEL, "pool.yaml")
    grouped = solve_duel(scenario)
    monkeypatch.setattr(PoolStrike, "classes", None)
    distinct = solve_duel(scenario)
    assert grouped.sides["red"] == pytest.approx(distinct.sides["red"], abs=1e-12)
    assert grouped.draw == pytest.approx(distinct.draw, abs=1e-12)
    assert grouped.leaves < distinct.leaves


@pytest.mark.parametrize("classes", [((1, 2, 3), (4, 5)), ((1, 2, 3), (3, 4, 5, 6)),
                                     ((1, 2, 3, 4, 5, 6, 7),), ((1, 2, 3), (), (4, 5, 6))])
def test_classes_that_do_not_split_the_faces_are_refused(
    classes: Any, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(PoolStrike, "classes", classes)
    with pytest.raises(DuelError, match=r"toy_pool: face classes for a d6 must split"):
        solve_duel(parse_scenario(_POOL_DUEL, "pool.yaml"))


class NamedAtTheRoll(PoolStrike):
    """The same strike naming its classes where it rolls (``roll_pool``), not by the hook."""

    name = "toy_pool_named"
    classes: ClassVar[Any] = None

    def resolve(self, state: ToyState, action: Action, rng: Rng, emit: Emit) -> None:
        if not isinstance(action, Strike):
            super().resolve(state, action, rng, emit)
            return
        faces = tuple(roll_pool(rng, 3, 6, ((1, 2, 3), (4, 5, 6))))
        emit(DiceRolled(action.actor, "damage", 6, faces))
        emit(Wounded(action.target, sum(1 for f in faces if f >= 4)))
        emit(TurnPassed())


register_ruleset(NamedAtTheRoll)


def test_classes_named_at_the_roll_branch_like_the_hook_and_leave_streams_alone() -> None:
    by_hook = solve_duel(parse_scenario(_POOL_DUEL, "pool.yaml"))
    at_roll = solve_duel(parse_scenario(_POOL_DUEL.replace("toy_pool", "toy_pool_named"),
                                        "named.yaml"))
    assert at_roll.sides == by_hook.sides and at_roll.leaves == by_hook.leaves
    assert roll_pool(SeededRng(3), 5, 6, ((1, 2, 3), (4, 5, 6))) == SeededRng(3).dice(5, 6)
    assert roll_pool(ScriptedRng([1, 6, 2]), 3, 6, ((1, 2, 3), (4, 5, 6))) == [1, 6, 2]


# -- Age of Dragons -------------------------------------------------------------------------
def test_age_of_dragons_names_the_classes_of_each_roll() -> None:
    pytest.importorskip("fracas.rules.age_of_dragons")
    scenario = load_scenario(EXAMPLES / "age_of_dragons" / "claw_duel.yaml")
    rs = scenario.ruleset
    fresh = rs.initial_state(scenario.model)
    assert rs.face_classes(fresh, 9, 6) == ((1, 2, 3), (4, 5, 6))  # initiative counts 4+
    enc = Encounter(rs, fresh)  # at Ember's first pool
    assert rs.face_classes(enc.state, 9, 6) == ((1, 2, 3), (4, 5, 6))  # claw_all
    assert rs.face_classes(enc.state, 9, 8) is None
    text = (EXAMPLES / "age_of_dragons" / "claw_duel.yaml").read_text()
    heuristic = parse_scenario(text.replace("claw_all", "heuristic"), "h.yaml")
    enc = Encounter(rs, rs.initial_state(heuristic.model))
    assert rs.face_classes(enc.state, 9, 6) == ((1, 2), (3,), (4, 5), (6,))  # heuristic, in reach


@cache
def _claw_duel_red_wins(soma: int, red: int, blue: int) -> Fraction:
    """The claw duel by hand: each turn the mover claws with every 4+ of ``soma`` d6 for
    one damage a hit; a dragon at 0 PR or less is out.  ``win(a, b)``: the mover at PR
    ``a`` beats a foe at PR ``b``; a turn without hits hands the roll over (a loop of two,
    solved in closed form)."""
    p = [Fraction(math.comb(soma, h), 2**soma) for h in range(soma + 1)]

    @cache
    def win(a: int, b: int) -> Fraction:
        def hits(x: int, y: int) -> Fraction:
            return sum((p[h] * (1 if y <= h else 1 - win(y - h, x))
                        for h in range(1, soma + 1)), Fraction(0))

        c1, c2, p0 = hits(a, b), hits(b, a), p[0]
        return (p0 - p0 * p0 - p0 * c2 + c1) / (1 - p0 * p0)

    return win(red, blue)


def test_the_claw_duel_is_exact_against_a_recursion_and_the_old_solver() -> None:
    pytest.importorskip("fracas.rules.age_of_dragons")
    odds = solve_duel(load_scenario(EXAMPLES / "age_of_dragons" / "claw_duel.yaml"))
    exact = float(_claw_duel_red_wins(9, 20, 20))
    assert odds.sides["red"] == pytest.approx(exact, abs=1e-12)
    assert odds.sides["red"] == pytest.approx(OLD_SOLVER_CLAW_DUEL, abs=1e-12)
    assert odds.sides["blue"] == pytest.approx(1 - exact, abs=1e-12)
    assert odds.draw == 0.0
    assert odds.leaves <= 10 * odds.states + 1  # 1-3 / 4-6: ten outcomes per pool


def test_the_small_claw_duel_is_exact_against_the_recursion() -> None:
    pytest.importorskip("fracas.rules.age_of_dragons")
    odds = solve_duel(load_scenario(DATA / "claw_duel_small.yaml"))
    assert odds.sides["red"] == pytest.approx(float(_claw_duel_red_wins(4, 6, 6)), abs=1e-12)


def test_age_of_dragons_classes_for_the_heuristic_give_the_odds_of_distinct_faces(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The heuristic spots (3+ evade and aim, 4+/5+ altitude), claws and may call shots on
    # sixes: its pools are read as 1-2 / 3 / 4 / 5 / 6.
    pytest.importorskip("fracas.rules.age_of_dragons")
    from fracas.rules.age_of_dragons.ruleset import AgeOfDragons

    text = (DATA / "claw_duel_small.yaml").read_text().replace("claw_all", "heuristic")
    scenario = parse_scenario(text.replace("soma: 4", "soma: 3").replace("pr: 6", "pr: 3"),
                              "heuristic.yaml")
    grouped = solve_duel(scenario)
    monkeypatch.setattr(AgeOfDragons, "face_classes", lambda self, state, count, sides: None)
    distinct = solve_duel(scenario)
    assert grouped.sides["red"] == pytest.approx(distinct.sides["red"], abs=1e-12)
    assert grouped.draw == pytest.approx(distinct.draw, abs=1e-12)
    assert grouped.leaves < distinct.leaves


def test_a_walking_rng_replays_its_prefix_then_takes_each_first_outcome() -> None:
    from fractions import Fraction

    from fracas.odds.chance import Branch, ExactWalkingRng, WalkingRng

    rng = WalkingRng((3,), None, None, 1.0)
    assert rng.die(6) == 3  # replayed: no chance point
    assert rng.die(4) == 1 and rng.choice_index(3) == 0  # first outcomes, noted
    assert rng.chosen == [1, 0]
    assert [(before, len(outcomes), taken, what) for before, outcomes, taken, _, what
            in rng.points] == [(0, 4, 0, "a d4"), (1, 3, 0, "a random choice among 3")]
    assert rng.chance == pytest.approx(1 / 12)
    exact = ExactWalkingRng((), None, None, Fraction(1))
    exact.dice(2, 6)
    assert exact.chance == Fraction(1, 36)  # (1, 1): one ordering of 36
    # a path already too unlikely to follow branches instead (the solver prunes it)
    with pytest.raises(Branch):
        WalkingRng((), None, None, 1e-14).die(20)
