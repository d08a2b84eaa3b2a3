"""The AD&D core arithmetic and the underground modifiers, number by number."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from fracas.rules.adnd import rules


def test_to_hit_is_thac0_minus_armor_class() -> None:
    assert rules.hit_number(15, 5) == 10
    assert rules.hit_number(15, -2) == 17
    assert rules.hit_number(20, 10) == 10


def test_clinging_loses_shield_and_dexterity_armor_class() -> None:
    assert rules.effective_ac(2, 1, 2, clinging=True) == 5
    assert rules.effective_ac(2, 1, 2, clinging=False) == 2


def test_higher_gains_two_lower_loses_two() -> None:
    assert rules.height_modifier(30, 20) == 2
    assert rules.height_modifier(20, 30) == -2
    assert rules.height_modifier(20, 20) == 0


def test_climbing_check_minus_ten_when_blow_is_half_hit_points_rounded_up() -> None:
    # 15 hit points: half rounded up is 8.
    assert rules.climb_check_target(80, 8, 15) == 70
    assert rules.climb_check_target(80, 7, 15) == 80
    assert rules.climb_check_target(80, 5, 10) == 70
    assert rules.climb_check_target(80, 4, 10) == 80


def test_ledge_dexterity_gains_two_per_whole_foot_to_the_drop() -> None:
    assert rules.dex_check_target(12, 0, 0) == 12
    assert rules.dex_check_target(12, 2, 0) == 16
    assert rules.dex_check_target(12, 2.9, 0) == 16
    assert rules.dex_check_target(12, 1, -2) == 12


@pytest.mark.parametrize(("kind", "behind", "melee", "flanking", "expected"), [
    ("ledge", "wall", True, False, 2),
    ("ledge", "drop", True, False, -2),
    ("bridge", "open", True, False, 0),
    ("ledge", "wall", False, False, 2),
    ("bridge", "open", False, True, -2),
    ("ledge", "wall", False, True, 0),
])
def test_blow_pushes_toward_wall_or_drop(kind: str, behind: str, melee: bool, flanking: bool,
                                         expected: int) -> None:
    assert rules.push_modifier(kind, behind, melee, flanking) == expected


def test_grab_is_against_ac_ten_less_dexterity() -> None:
    assert rules.grab_number(15, 0) == 5
    assert rules.grab_number(15, 3) == 8


def test_creature_climbing_ratings_by_nature() -> None:
    assert 80 <= rules.nature_rating("natural_climber") <= 95
    assert rules.nature_rating("sure_footed") == 70
    assert rules.nature_rating("clumsy") == 0


def test_falling_damage_is_one_d6_per_ten_feet_at_most_twenty() -> None:
    assert rules.fall_dice(9) == 0
    assert rules.fall_dice(10) == 1
    assert rules.fall_dice(45) == 4
    assert rules.fall_dice(200) == 20
    assert rules.fall_dice(500) == 20


def test_water_bands_by_waist_and_chest() -> None:
    assert rules.water_band(2.9, 6) == 0
    assert rules.water_band(3.0, 6) == 1
    assert rules.water_band(4.5, 6) == 1
    assert rules.water_band(4.6, 6) == 2


def test_water_penalties_none_halved_full_and_none_for_the_at_home() -> None:
    assert [rules.water_penalty(b, False) for b in (0, 1, 2)] == [0, -2, -4]
    assert [rules.water_penalty(b, True) for b in (0, 1, 2)] == [0, 0, 0]


def test_breath_lasts_a_third_of_constitution_halved_when_exerting() -> None:
    assert rules.breath_free_rounds(12, False) == 4
    assert rules.breath_free_rounds(13, False) == 5
    assert rules.breath_free_rounds(13, True) == 3
    assert rules.breath_free_rounds(12, True) == 2


def test_constitution_checks_get_two_harder_each_time() -> None:
    assert [rules.con_check_target(14, k) for k in range(4)] == [14, 12, 10, 8]


def _brute_breath(con: int, free: int) -> dict[int, Fraction]:
    """Enumerate every sequence of d20 rolls long enough to exhaust the clock."""
    checks = (con + 1) // 2 + 1
    out: dict[int, Fraction] = {}
    for rolls in itertools.product(range(1, 21), repeat=min(checks, 3)):
        for k, roll in enumerate(rolls):
            if roll > con - 2 * k:
                weight = Fraction(1, 20 ** len(rolls))
                out[free + k + 1] = out.get(free + k + 1, Fraction(0)) + weight
                break
    return out


def test_breath_distribution_matches_enumeration_for_a_weak_constitution() -> None:
    # Constitution 3: checks at 3, 1, then -1 (certain failure): three rolls enumerate it all.
    exact = rules.breath_failure_distribution(3, exerting=True, took_breath=True)
    assert exact == _brute_breath(3, rules.breath_free_rounds(3, True))
    assert sum(exact.values()) == 1


def test_no_breath_starts_the_checks_at_once() -> None:
    exact = rules.breath_failure_distribution(12, exerting=True, took_breath=False)
    assert min(exact) == 1
    assert exact[1] == Fraction(8, 20)
    assert sum(exact.values()) == 1


@pytest.mark.parametrize(("count", "sides", "modifier", "amount"),
                         [(1, 8, 0, 2), (2, 4, 1, 8), (1, 4, -3, 1), (1, 4, -3, 2), (3, 6, 0, 19),
                          (2, 8, -2, 10)])
def test_damage_at_least_matches_enumeration(count: int, sides: int, modifier: int,
                                             amount: int) -> None:
    faces = list(itertools.product(range(1, sides + 1), repeat=count))
    hits = sum(max(1, sum(roll) + modifier) >= amount for roll in faces)
    assert rules.damage_at_least(count, sides, modifier, amount) == Fraction(hits, len(faces))
