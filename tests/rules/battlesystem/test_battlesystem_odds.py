"""Exact odds against brute-force enumeration, and the engine's dice against exact odds."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

from fracas.core.errors import ActionSyntaxError
from fracas.core.rng import SeededRng
from fracas.rules.battlesystem import Battlesystem
from fracas.rules.battlesystem.combat import melee_phase, morale_check
from fracas.rules.battlesystem.hazards import saves, stress_feature

RS = Battlesystem()


def _enumerate(sides: int, count: int, outcome) -> dict[int, Fraction]:
    tally: Counter[int] = Counter(outcome(faces) for faces in
                                  itertools.product(range(1, sides + 1), repeat=count))
    total = sides**count
    return {k: Fraction(v, total) for k, v in tally.items()}


def _nonzero(dist: dict[int, Fraction]) -> dict[int, Fraction]:
    return {k: v for k, v in dist.items() if v}


def test_attack_odds_match_enumeration() -> None:
    exact = RS.odds("attack figures=3 rating=7 damage=2")
    brute = _enumerate(10, 3, lambda f: 2 * sum(1 for x in f if x >= 7))
    assert _nonzero(exact) == brute


def test_save_odds_with_darkness_match_enumeration() -> None:
    exact = RS.odds("saves figures=3 need=14 blind=yes")
    brute = _enumerate(20, 3, lambda f: sum(1 for x in f if x - 4 >= 14))
    assert _nonzero(exact) == _nonzero(brute)


def test_morale_odds_match_enumeration() -> None:
    assert RS.odds("morale target=12") == _enumerate(20, 1, lambda f: int(f[0] <= 12))


def test_fragile_odds_double_for_heavy_units() -> None:
    brute = _enumerate(100, 1, lambda f: int(f[0] <= 26))
    assert RS.odds("fragile chance=13 heavy=yes") == brute
    assert RS.odds("fragile chance=13 heavy=yes explosive=yes")[1] == Fraction(52, 100)


@pytest.mark.parametrize(("question", "where"), [
    ("", "starts with"),
    ("volley figures=3", "word 1"),
    ("attack figures=three rating=7", "word 2"),
    ("attack figures=3 rating=11", "word 3"),
    ("attack figures=3 rating=1", "word 3"),  # a rolled 1 always misses: ratings run 2..10
    ("attack figures=3", "rating= is missing"),
    ("fragile chance=5 heavy=maybe", "word 3"),
    ("morale 12", "word 2"),
])
def test_bad_questions_say_where_they_go_wrong(question: str, where: str) -> None:
    with pytest.raises(ActionSyntaxError, match=where):
        RS.odds(question)


def _within_four_standard_errors(hits: int, n: int, p: Fraction) -> bool:
    se = math.sqrt(float(p) * (1 - float(p)) / n)
    return abs(hits / n - float(p)) <= 4 * se


def test_secret_fragile_checks_collapse_at_the_exact_rate(kit) -> None:
    rng = SeededRng(2024)
    p = RS.odds("fragile chance=13 heavy=yes")[1]
    n, collapsed = 3000, 0
    for _ in range(n):
        b = kit.battle([kit.area("a", features=[{"name": "f", "kind": "arch", "chance": 13}])],
                       [kit.unit("x", "red", "a", 1), kit.unit("y", "blue", "a", 1)])
        collapsed += stress_feature(b.state, "f", True, False, rng, b.emit)
    assert _within_four_standard_errors(collapsed, n, p)


def test_saving_throws_in_the_dark_follow_the_exact_odds(kit) -> None:
    rng = SeededRng(7)
    b = kit.battle([kit.area("a", lit=False)],
                   [kit.unit("x", "red", "a", 10, save=14), kit.unit("y", "blue", "a", 1)])
    p = RS.odds("saves figures=1 need=14 blind=yes")[1]
    n = 500
    total = sum(saves(b.state, b.unit("x"), rng, b.emit, "test") for _ in range(n))
    assert _within_four_standard_errors(total, 10 * n, p)


def test_morale_checks_pass_at_the_exact_rate(kit) -> None:
    rng = SeededRng(99)
    p = RS.odds("morale target=11")[1]
    n, passed = 2000, 0
    for _ in range(n):
        b = kit.battle([kit.area("a")], [kit.unit("x", "red", "a", 4, morale=11),
                                         kit.unit("y", "blue", "a", 1)])
        passed += morale_check(b.state, b.unit("x"), rng, b.emit)
    assert _within_four_standard_errors(passed, n, p)


def test_melee_hits_follow_the_exact_attack_odds(kit) -> None:
    # Each hit (2 dice) removes exactly one 2-Hit-Dice defender figure, so losses count hits.
    rng = SeededRng(5)
    exact = RS.odds("attack figures=4 rating=7 damage=1")
    mean = float(sum(k * p for k, p in exact.items()))
    var = float(sum((k - mean) ** 2 * p for k, p in exact.items()))
    n, total = 1500, 0
    for _ in range(n):
        b = kit.battle([kit.area("a")],
                       [kit.unit("men", "red", "a", 4, frontage=4, thac0=19, damage=2),
                        kit.unit("foe", "blue", "a", 40, frontage=4, ac=6, hd=2,
                                 creatures_per_figure=1)])
        melee_phase(b.state, rng, b.emit)
        total += 40 - b.unit("foe").figures
    assert abs(total / n - mean) <= 4 * (var / n) ** 0.5
