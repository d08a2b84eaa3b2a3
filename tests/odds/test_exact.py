"""The exact mode: the answer as fractions, checked against closed forms and the float mode."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from fracas.odds import solve_duel
from fracas.odds.exact import solve_by_rounds_exact, solve_graph_exact
from fracas.scenario import load_scenario

DATA = Path(__file__).parent / "data"


def test_a_loop_is_solved_to_the_exact_fraction() -> None:
    # Each turn the actor kills with chance 1/2, else waits: P(first) = 1/2 + 1/4 P(first).
    odds = solve_duel(load_scenario(DATA / "first_blood.yaml"), exact=True)
    assert odds.exact == {"red": Fraction(2, 3), "blue": Fraction(1, 3), None: Fraction(0)}
    assert odds.sides["red"] == float(Fraction(2, 3))


def test_a_fight_nobody_can_end_has_no_exact_chance_of_any_end() -> None:
    odds = solve_duel(load_scenario(DATA / "standoff.yaml"), exact=True)
    assert odds.exact is not None
    assert set(odds.exact.values()) == {Fraction(0)}
    assert odds.unresolved == pytest.approx(1.0)


def _claw_duel(soma: int, pr: int, rounds: int) -> tuple[Fraction, Fraction]:
    """(red wins, draw) of a claw duel, written from its rules (no engine): Ember opens
    each round, each mover rolls ``soma`` d6 and deals one damage a 4+, a dragon at 0 PR
    is out, a fight still on after ``rounds`` rounds is a draw."""
    hit = [Fraction(math.comb(soma, h), 2**soma) for h in range(soma + 1)]

    @cache
    def win(a: int, b: int, left: int, first: bool) -> tuple[Fraction, Fraction]:
        if left == 0:
            return Fraction(0), Fraction(1)
        wins, draws = Fraction(0), Fraction(0)
        for h, p in enumerate(hit):
            if h >= b:
                wins += p
                continue
            other_wins, other_draws = win(b - h, a, left if first else left - 1, not first)
            wins += p * (1 - other_wins - other_draws)
            draws += p * other_draws
        return wins, draws

    return win(pr, pr, rounds, True)


def test_the_small_claw_duel_is_exactly_the_fraction_its_rules_give() -> None:
    scenario = load_scenario(DATA / "claw_duel_small.yaml")
    limit = scenario.ruleset.round_limit(scenario.ruleset.initial_state(scenario.model))
    assert limit is not None
    red, draw = _claw_duel(4, 6, limit)
    odds = solve_duel(scenario, exact=True)
    assert odds.exact == {"red": red, "blue": 1 - red - draw, None: draw}
    # the float mode is the same sums rounded
    assert abs(odds.sides["red"] - float(red)) < 1e-12
    assert abs(solve_duel(scenario).sides["red"] - float(red)) < 1e-12


@pytest.mark.parametrize("name", ["claw_duel_tiny", "adnd_tiny", "toy_random_duel",
                                  "exploding_brawl", "first_blood"])
def test_the_exact_and_the_float_modes_agree_to_rounding(name: str) -> None:
    scenario = load_scenario(DATA / f"{name}.yaml")
    floats = solve_duel(scenario)
    exact = solve_duel(scenario, exact=True)
    assert exact.exact is not None
    assert sum(exact.exact.values()) + Fraction(exact.pruned) == pytest.approx(
        1 - floats.unresolved, abs=1e-12)
    for side, p in floats.sides.items():
        assert abs(float(exact.exact[side]) - p) < 1e-12, side
    assert abs(float(exact.exact[None]) - floats.draw) < 1e-12
    assert exact.states == floats.states and exact.leaves == floats.leaves
    assert "exact" in exact.to_json() and "exact" not in floats.to_json()


def test_a_cycle_is_eliminated_exactly_and_a_loop_nobody_leaves_is_worth_nothing() -> None:
    half = Fraction(1, 2)
    # 0 -> 1 or a win; 1 -> 0 or a loss; 2 <-> 3 forever, reached from 4 half the time
    edges = [{1: half, -1: half}, {0: half, -2: half}, {3: Fraction(1)}, {2: Fraction(1)},
             {2: half, 0: half}]
    assert solve_graph_exact(edges, 2, 0) == [Fraction(2, 3), Fraction(1, 3)]
    assert solve_graph_exact(edges, 2, 2) == [0, 0]
    assert solve_graph_exact(edges, 2, 4) == [Fraction(1, 3), Fraction(1, 6)]


def test_round_by_round_in_integers_gives_the_draws_of_the_limit_exactly() -> None:
    third = Fraction(1, 3)
    # one state, each round: a win with 1/3, else the next round (labels: win, draw)
    edges = [{(-1, 0): third, (0, 1): 2 * third}]
    for limit in range(1, 5):
        got = solve_by_rounds_exact(edges, [0], limit, 0, 0, 2, 1)
        assert got == [1 - (2 * third) ** (limit + 1), (2 * third) ** (limit + 1)]
