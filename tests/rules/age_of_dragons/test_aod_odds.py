"""The odds hook: exact attack distributions equal brute force over every face of small pools."""

from __future__ import annotations

import itertools
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from aod_helpers import RULESET

from fracas.core.errors import ActionSyntaxError

MEASURES = ("damage", "hits", "margin", "sixes")


def brute_force(pool: int, pd: int, tn: int, bonus: int, threshold: int,
                measure: str) -> dict[int, Fraction]:
    """Roll every face combination; the defender spends PD up to the hits it faces."""
    counts: Counter[int] = Counter()
    for faces in itertools.product(range(1, 7), repeat=pool):
        expended = [f for f in faces if f >= threshold]
        k = len(expended)
        n = k - min(pd, k) - tn
        hit = n >= 1
        value = {"hits": k, "margin": n, "damage": max(0, n + bonus) if hit else 0,
                 "sixes": expended.count(6) if hit else 0}[measure]
        counts[value] += 1
    total = 6 ** pool
    return {v: Fraction(c, total) for v, c in sorted(counts.items())}


CASES = [
    (0, 0, 0, 0, 4), (1, 0, 0, 0, 4), (3, 1, 0, 0, 4), (4, 0, 3, 6, 4), (4, 1, -3, -6, 4),
    (5, 2, 0, 0, 4), (5, 0, 3, 0, 4), (3, 0, 0, 2, 5), (4, 1, 0, 0, 3), (2, 0, 0, 0, 6),
]


@pytest.mark.parametrize("measure", MEASURES)
@pytest.mark.parametrize(("pool", "pd", "tn", "bonus", "threshold"), CASES)
def test_odds_match_brute_force_enumeration(pool: int, pd: int, tn: int, bonus: int,
                                            threshold: int, measure: str) -> None:
    question = f"pool={pool} pd={pd} tn={tn} bonus={bonus} threshold={threshold} " \
               f"measure={measure}"
    assert RULESET.odds(question) == brute_force(pool, pd, tn, bonus, threshold, measure)


def test_odds_default_to_damage_at_four_plus() -> None:
    assert RULESET.odds("pool=3 pd=1") == brute_force(3, 1, 0, 0, 4, "damage")


def test_odds_sum_to_one() -> None:
    assert sum(RULESET.odds("pool=9 pd=2 tn=3 bonus=6").values()) == 1


@pytest.mark.parametrize("question", [
    "", "pd=1", "pool=x", "pool=3 colour=red", "pool=3 measure=luck", "pool=3 threshold=7",
    "pool=3 pd=-1", "pool", "pool=61",
])
def test_bad_odds_questions_are_refused_with_a_syntax_error(question: str) -> None:
    with pytest.raises(ActionSyntaxError):
        RULESET.odds(question)
