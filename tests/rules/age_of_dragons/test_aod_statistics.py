"""Monte Carlo play agrees with exact odds computed here from the rule text."""

from __future__ import annotations

import math
from functools import cache
from math import comb
from pathlib import Path

import pytest

from fracas.core.encounter import Encounter
from fracas.core.rng import SeededRng, derive_seed
from fracas.rules.age_of_dragons.policies import ClawAllPolicy
from fracas.scenario import load_scenario

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

POOL, PR = 9, 20
#: Chance of exactly h hits: every Soma die showing 4+ is expended on the claw.
HITS = [comb(POOL, h) / 2**POOL for h in range(POOL + 1)]


@cache
def mover_wins(mover_pr: int, other_pr: int) -> float:
    """Chance that the combatant about to act wins the claw duel (PD 0: damage = hits).

    With no hits the turn passes; two misses in a row return to the same state, so the
    pair W(m, o), W(o, m) is solved together:  x = a + p0 (1 - y),  y = b + p0 (1 - x).
    """
    p0 = HITS[0]

    def rest(m: int, o: int) -> float:  # the part of W(m, o) that does not loop back
        return sum(p * (1.0 if h >= o else 1.0 - mover_wins(o - h, m))
                   for h, p in enumerate(HITS) if h)

    a, b = rest(mover_pr, other_pr), rest(other_pr, mover_pr)
    return (a + p0 - p0 * b - p0 * p0) / (1 - p0 * p0)


@pytest.mark.slow
def test_claw_duel_first_mover_win_rate_matches_exact_odds() -> None:
    scenario = load_scenario(EXAMPLES / "age_of_dragons" / "claw_duel.yaml")
    ruleset = scenario.ruleset
    initial = ruleset.initial_state(scenario.model)
    policy = ClawAllPolicy()
    runs, wins = 20_000, 0
    for i in range(runs):
        enc = Encounter(ruleset, ruleset.clone_state(initial),
                        rng=SeededRng(derive_seed(2024, i)), keep_log=False)
        outcome = enc.play(lambda actor: policy, SeededRng(0))
        assert outcome is not None
        wins += outcome.winner == "red"
    exact = mover_wins(PR, PR)
    standard_error = math.sqrt(exact * (1 - exact) / runs)
    assert abs(wins / runs - exact) < 4 * standard_error, (wins / runs, exact)
    assert 0.6 < exact < 0.75  # striking first is a real edge in a race to 20


def test_exact_duel_odds_are_a_probability() -> None:
    # One point each: any hit wins; two blanks in a row come back to the same state.
    assert mover_wins(1, 1) == pytest.approx(1 / (1 + HITS[0]), rel=1e-12)
    assert 0 < mover_wins(1, 20) < 0.001
    assert mover_wins(20, 1) > 0.99
