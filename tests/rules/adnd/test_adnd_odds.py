"""Exact odds questions, checked against brute-force enumeration of the dice."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

import pytest

from fracas.core.errors import ActionSyntaxError
from fracas.rules.adnd import AdndUnderground

RS = AdndUnderground()


def _count(sides: int, ok: Callable[[int], bool]) -> Fraction:
    return Fraction(sum(1 for face in range(1, sides + 1) if ok(face)), sides)


def test_hit_odds_match_counting_d20_faces() -> None:
    for thac0, ac, mod in [(15, 5, 0), (15, 5, -2), (20, -5, 4), (10, 10, 0)]:
        needed = thac0 - ac - mod
        p = Fraction(sum(1 for face in range(1, 21) if face >= needed), 20)
        assert RS.odds(f"hit thac0={thac0} ac={ac} mod={mod}") == {1: p, 0: 1 - p}


def test_boulder_odds_are_against_ac_ten_and_minus_eight_when_dropped() -> None:
    assert RS.odds("boulder thac0=16")[1] == _count(20, lambda f: f - 8 >= 6)
    assert RS.odds("boulder thac0=16 hurl=yes")[1] == _count(20, lambda f: f >= 6)


def test_grab_odds_ignore_armor_but_not_dexterity() -> None:
    assert RS.odds("grab thac0=15 dexac=2")[1] == _count(20, lambda f: f >= 7)


def test_climber_hit_for_half_his_hit_points_with_rating_80_falls_30_percent() -> None:
    assert RS.odds("climb rating=80 damage=5 hp=10")[0] == Fraction(3, 10)
    assert RS.odds("climb rating=80 damage=4 hp=10")[0] == Fraction(2, 10)
    assert RS.odds("climb rating=80 hanging=yes")[0] == Fraction(4, 10)


def test_footing_odds_count_feet_and_push() -> None:
    assert RS.odds("footing dex=10 feet=2 push=-2")[1] == _count(20, lambda f: f <= 12)


def test_save_odds_with_the_climbers_penalty() -> None:
    assert RS.odds("save number=14 clinging=yes")[1] == _count(20, lambda f: f - 2 >= 14)


def test_damage_odds_floor_at_one() -> None:
    dist = RS.odds("damage dice=1d6 mod=-4")
    brute: dict[int, Fraction] = {}
    for f in range(1, 7):
        brute[max(1, f - 4)] = brute.get(max(1, f - 4), Fraction(0)) + Fraction(1, 6)
    assert dist == brute


def test_fall_odds_are_d6_per_ten_feet() -> None:
    dist = RS.odds("fall feet=25")
    brute: dict[int, Fraction] = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        brute[a + b] = brute.get(a + b, Fraction(0)) + Fraction(1, 36)
    assert dist == brute
    assert RS.odds("fall feet=5") == {0: Fraction(1)}


def test_breath_odds_sum_to_one_and_start_after_the_free_rounds() -> None:
    dist = RS.odds("breath con=12")
    assert min(dist) == 3
    assert sum(dist.values()) == 1


@pytest.mark.parametrize(("question", "where"), [
    ("", "column 1"),
    ("swim x=1", "column 1"),
    ("hit thac0=15", "missing ac"),
    ("hit thac0=fifteen ac=5", "column 11"),
    ("hit thac0=15 ac=5 colour=red", "column 19"),
    ("hit thac0=15 ac", "key=value"),
    ("boulder thac0=15 hurl=maybe", "yes or no"),
    ("damage dice=1q6", "bad dice"),
])
def test_bad_questions_say_where(question: str, where: str) -> None:
    with pytest.raises(ActionSyntaxError, match=where):
        RS.odds(question)
