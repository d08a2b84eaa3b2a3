"""The exact duel solver: dynamic programming over a fight's states, checked several ways."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fracas.core.encounter import Encounter
from fracas.core.rng import ScriptedRng
from fracas.odds import (
    DuelError,
    DuelLimits,
    StateSpaceTooLargeError,
    dice_outcomes,
    solve_duel,
)
from fracas.odds.duel import solve_from_state
from fracas.scenario import load_scenario, parse_scenario

DATA = Path(__file__).parent / "data"


def test_a_pool_branches_into_sorted_multisets_with_multinomial_weights() -> None:
    outcomes = dict(dice_outcomes(4, 6))
    counts = Counter(tuple(sorted(f)) for f in itertools.product(range(1, 7), repeat=4))
    assert len(outcomes) == len(counts) == math.comb(9, 5)
    for faces, ways in counts.items():
        assert outcomes[faces] == pytest.approx(ways / 6**4, rel=1e-12)
    assert len(dice_outcomes(9, 6)) == 2002
    assert sum(p for _, p in dice_outcomes(9, 6)) == pytest.approx(1.0, abs=1e-12)


def test_a_roll_with_too_many_outcomes_is_refused_with_a_clear_message() -> None:
    with pytest.raises(StateSpaceTooLargeError, match="40d20 has"):
        dice_outcomes(40, 20)


def test_first_blood_half_strikes_gives_the_first_striker_two_thirds() -> None:
    # Each turn the actor strikes (and kills) with chance 1/2, else waits: a loop.
    # P(first wins) = 1/2 + 1/4 P(first wins) = 2/3.
    odds = solve_duel(load_scenario(DATA / "first_blood.yaml"))
    assert odds.sides["red"] == pytest.approx(2 / 3, abs=1e-12)
    assert odds.sides["blue"] == pytest.approx(1 / 3, abs=1e-12)
    assert odds.draw == 0.0
    assert odds.unresolved < 1e-12


def test_a_fight_nobody_can_end_is_reported_as_never_ending() -> None:
    odds = solve_duel(load_scenario(DATA / "standoff.yaml"))
    assert odds.unresolved == pytest.approx(1.0)
    assert odds.sides == {"red": 0.0, "blue": 0.0}


@cache
def _red_wins(red: int, blue: int, red_to_move: bool) -> float:
    """An independent recursion for the toy brawl: 1d6 a strike, first foe standing."""
    total = 0.0
    for damage in range(1, 7):
        if red_to_move:
            total += 1.0 if blue - damage <= 0 else _red_wins(red, blue - damage, False)
        else:
            total += 0.0 if red - damage <= 0 else _red_wins(red - damage, blue, True)
    return total / 6


def test_toy_brawl_equals_an_independent_recursion() -> None:
    odds = solve_duel(load_scenario(DATA / "toy_brawl.yaml"))
    assert odds.sides["red"] == pytest.approx(_red_wins(12, 14, True), abs=1e-12)
    assert odds.sides["red"] + odds.sides["blue"] == pytest.approx(1.0, abs=1e-12)


def test_random_policies_and_round_limit_draws_are_solved_exactly() -> None:
    odds = solve_duel(load_scenario(DATA / "toy_random_duel.yaml"))
    assert 0.0 < odds.draw < 0.1
    assert odds.sides["red"] + odds.sides["blue"] + odds.draw == pytest.approx(1.0, abs=1e-12)


def test_solving_mid_fight_agrees_with_the_law_of_total_probability() -> None:
    scenario = load_scenario(DATA / "toy_brawl.yaml")
    ruleset = scenario.ruleset
    whole = solve_duel(scenario).sides["red"]
    parts = 0.0
    for damage in range(1, 7):
        enc = Encounter(ruleset, ruleset.initial_state(scenario.model))
        enc.apply(ruleset.parse_action("Ash strike target=Birch"), rng=ScriptedRng([damage]))
        parts += solve_from_state(ruleset, enc.state, started=True).sides["red"] / 6
    assert parts == pytest.approx(whole, abs=1e-12)


def test_too_many_states_stop_the_solver_with_advice() -> None:
    with pytest.raises(StateSpaceTooLargeError, match=r"more than 10 distinct states.*"
                       r"raise --max-states; at this pace the states found so far need at "
                       r"least [\d,]+ CPU s in all \(--max-seconds\).*simulate"):
        solve_duel(load_scenario(DATA / "toy_brawl.yaml"), limits=DuelLimits(max_states=10))
    with pytest.raises(StateSpaceTooLargeError, match="more than 50 resolutions"):
        solve_duel(load_scenario(DATA / "toy_brawl.yaml"), limits=DuelLimits(max_leaves=50))


@pytest.mark.parametrize(("policy", "message"), [("scripted", "follows a script")])
def test_policies_that_remember_the_fight_are_refused(policy: str, message: str) -> None:
    text = (DATA / "toy_brawl.yaml").read_text().replace("policy: strike", f"policy: {policy}")
    with pytest.raises(DuelError, match=message):
        solve_duel(parse_scenario(text, "brawl.yaml"))


def _red_wins_exploding(red: int, blue: int, red_to_move: bool) -> float:
    """Exploding d6 damage d: P(d = 6k + f) = 6**-(k+1) for f in 1..5, k >= 0.

    Twelve sixes in a row (damage above 72) fell anyone here: that tail counts whole.
    """

    @cache
    def win(red: int, blue: int, red_to_move: bool) -> float:
        total = 6.0**-12 if red_to_move else 0.0
        for k in range(12):
            for face in range(1, 6):
                p, damage = 6.0 ** -(k + 1), 6 * k + face
                if red_to_move:
                    total += p * (1.0 if blue <= damage else win(red, blue - damage, False))
                else:
                    total += p * (0.0 if red <= damage else win(red - damage, blue, True))
        return total

    return win(red, blue, red_to_move)


def test_exploding_dice_are_followed_until_the_path_is_vanishingly_unlikely() -> None:
    odds = solve_duel(load_scenario(DATA / "exploding_brawl.yaml"))
    assert 0.0 < odds.pruned < 1e-9
    assert odds.sides["red"] == pytest.approx(_red_wins_exploding(9, 10, True), abs=1e-9)
    total = odds.sides["red"] + odds.sides["blue"] + odds.pruned + odds.unresolved
    assert total == pytest.approx(1.0, abs=1e-12)


def test_the_solver_reports_progress_and_gives_up_after_its_time_limit() -> None:
    seen: list[tuple[int, int, int]] = []
    solve_duel(load_scenario(DATA / "toy_random_duel.yaml"),
               progress=lambda *counts: seen.append(counts))
    assert seen[-1][0] == seen[-1][1] > 100
    assert all(a[0] < b[0] and a[2] <= b[2] for a, b in itertools.pairwise(seen))
    with pytest.raises(StateSpaceTooLargeError, match=r"gave up after 0 CPU s"):
        solve_duel(load_scenario(DATA / "toy_brawl.yaml"), limits=DuelLimits(max_seconds=0))


@given(st.integers(0, 7), st.integers(2, 8))
def test_pool_outcomes_are_every_sorted_multiset_once_and_sum_to_one(
    count: int, sides: int
) -> None:
    outcomes = dice_outcomes(count, sides)
    faces = [f for f, _ in outcomes]
    assert len(faces) == len(set(faces)) == math.comb(count + sides - 1, sides - 1)
    assert all(list(f) == sorted(f) and len(f) == count for f in faces)
    assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
