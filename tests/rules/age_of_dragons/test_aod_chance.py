"""Statistical checks: seeded play of the chancy rules agrees with their exact odds.

Each test draws a few thousand fresh starts from one fixed seed (so it is deterministic)
and compares the observed rate with the exact value within four standard errors.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from aod_helpers import RULESET, dragon, scenario_state

from fracas.core.encounter import Encounter
from fracas.core.rng import SeededRng
from fracas.rules.age_of_dragons.state import AgeOfDragonsState

N = 4000


def at_least(successes: int, dice: int, p: Fraction = Fraction(1, 2)) -> Fraction:
    """Exact chance of ``successes`` or more among ``dice`` dice that each succeed with ``p``."""
    return sum((comb(dice, k) * p**k * (1 - p) ** (dice - k)
                for k in range(successes, dice + 1)), Fraction(0))


def within_four_standard_errors(hits: int, n: int, exact: Fraction) -> bool:
    p = float(exact)
    return abs(hits / n - p) <= 4 * math.sqrt(p * (1 - p) / n)


def starts(state: AgeOfDragonsState, seed: int, n: int = N) -> list[Encounter[AgeOfDragonsState]]:
    """``n`` encounters started from ``state``, with dice from one seeded stream."""
    rng = SeededRng(seed)
    return [Encounter(RULESET, state, rng=rng, keep_log=False) for _ in range(n)]


def test_a_stunned_dragon_loses_its_turn_one_time_in_three() -> None:
    state = scenario_state([dragon("A", "red"), dragon("B", "blue")])
    state.fighters["A"].stunned = True
    lost = sum(enc.current_actor() == "B" for enc in starts(state, 11))
    assert within_four_standard_errors(lost, N, Fraction(1, 3))


def test_a_death_check_at_minus_two_passes_with_two_fours_on_soma() -> None:
    state = scenario_state([dragon("A", "red", soma=4), dragon("C", "red"),
                            dragon("B", "blue")])
    state.fighters["A"].pr = -2
    survived = sum(not enc.state.fighters["A"].dead for enc in starts(state, 12))
    assert within_four_standard_errors(survived, N, at_least(2, 4))


def test_a_contested_initiative_roll_matches_its_exact_odds() -> None:
    # Soma 3 against Soma 2: the bigger pool goes first on more fours and on a tie.
    state = scenario_state([dragon("A", "red", soma=3), dragon("B", "blue", soma=2)],
                           aggressor=None)
    first = sum(enc.state.order[0] == "A" for enc in starts(state, 13))
    p_b = [comb(2, k) * Fraction(1, 4) for k in range(3)]  # B's fours: 0, 1, 2
    exact = sum((comb(3, a) * Fraction(1, 8) * sum(p_b[: min(a, 2) + 1]) for a in range(4)),
                Fraction(0))
    assert within_four_standard_errors(first, N, exact)


def test_a_forced_landing_after_two_rounds_on_bare_rock_averages_three_d6() -> None:
    state = scenario_state([dragon("A", "red", altitude="strafing_low", pr=100),
                            dragon("B", "blue")], ground="bare_rock")
    a = state.fighters["A"]
    a.chose_fall, a.falling_rounds = True, 1
    state.order, state.round, state.turn_index = ("A", "B"), 1, 2  # straight to the end phase
    damage = [100 - enc.state.fighters["A"].pr for enc in starts(state, 14)]
    assert min(damage) >= 3 and max(damage) <= 18
    mean, sd = 3 * 3.5, math.sqrt(3 * 35 / 12)
    assert abs(sum(damage) / N - mean) <= 4 * sd / math.sqrt(N)
