"""The One Ring dice: Feat die faces, Success dice, favoured and ill-favoured, Weary, Miserable."""

from __future__ import annotations

import math

from fracas.core.events import DiceRolled, Event
from fracas.core.rng import ScriptedRng, SeededRng
from fracas.rules.one_ring.dice import (
    BAD,
    EYE_FACE,
    GOOD,
    RUNE_FACE,
    RollResult,
    feat_rank,
    net_dice,
    read_test,
    roll_test,
)
from fracas.rules.one_ring.odds import degree, parse_question, roll_odds


def _roll(faces: list[int], dice: int, tn: int, **kw: bool) -> tuple[RollResult, list[Event]]:
    events: list[Event] = []
    result = roll_test(ScriptedRng(faces), events.append, "Beren", "attack", dice, tn, **kw)
    return result, events


def test_hero_reads_the_rune_as_success_and_the_eye_as_zero() -> None:
    assert feat_rank(RUNE_FACE, adversary=False) == GOOD
    assert feat_rank(EYE_FACE, adversary=False) == BAD
    assert feat_rank(7, adversary=False) == 7


def test_adversary_reads_the_special_faces_the_other_way_round() -> None:
    assert feat_rank(EYE_FACE, adversary=True) == GOOD
    assert feat_rank(RUNE_FACE, adversary=True) == BAD


def test_total_meets_or_beats_the_tn_to_succeed() -> None:
    assert read_test(8, (3, 3), 14).success
    assert not read_test(8, (3, 2), 14).success
    assert read_test(8, (3, 2), 14).total == 13


def test_the_automatic_success_face_succeeds_whatever_the_total() -> None:
    result = read_test(GOOD, (1,), 30)
    assert result.success and result.total == 1


def test_the_zero_face_counts_nothing() -> None:
    result = read_test(BAD, (6, 6), 12)
    assert result.total == 12 and result.success


def test_tengwars_count_only_on_a_success() -> None:
    assert read_test(5, (6, 6, 1), 14).tengwars == 2
    assert read_test(1, (6, 1), 14).tengwars == 0


def test_weary_success_dice_showing_one_to_three_count_nothing() -> None:
    assert read_test(5, (1, 2, 3, 4), 0, weary=True).total == 9
    assert read_test(5, (1, 2, 3, 4), 0, weary=False).total == 15


def test_miserable_hero_fails_on_the_eye() -> None:
    assert not read_test(BAD, (6, 6, 6), 10, miserable=True).success
    assert read_test(BAD, (6, 6, 6), 10, miserable=False).success


def test_favoured_keeps_the_better_feat_die() -> None:
    result, events = _roll([3, 9, 4], 1, 13, favoured=True)
    assert isinstance(events[0], DiceRolled) and events[0].faces == (3, 9)
    assert result.total == 13


def test_ill_favoured_keeps_the_worse_feat_die() -> None:
    result, _ = _roll([3, 9, 4], 1, 13, ill_favoured=True)
    assert result.total == 7


def test_ill_favoured_hero_keeps_the_eye_over_a_number() -> None:
    result, _ = _roll([EYE_FACE, 9, 4], 1, 13, ill_favoured=True)
    assert result.rank == BAD


def test_favoured_adversary_prefers_the_eye() -> None:
    result, _ = _roll([10, EYE_FACE, 1], 1, 40, favoured=True, adversary=True)
    assert result.success


def test_favoured_and_ill_favoured_cancel_to_one_feat_die() -> None:
    _, events = _roll([3, 4], 1, 13, favoured=True, ill_favoured=True)
    assert isinstance(events[0], DiceRolled) and events[0].faces == (3,)


def test_every_die_is_recorded_before_use() -> None:
    _, events = _roll([12, 6, 1, 2], 3, 13)
    rolled = [(e.sides, e.faces) for e in events if isinstance(e, DiceRolled)]
    assert rolled == [(12, (12,)), (6, (6, 1, 2))]


def test_bonus_and_penalty_dice_net_out_never_below_zero() -> None:
    assert net_dice(2, 1, 1) == 2
    assert net_dice(2, 2, 0) == 4
    assert net_dice(1, 0, 3) == 0


def test_rolled_degrees_match_the_exact_odds_statistically() -> None:
    """4 000 seeded rolls of '2d vs 12 favoured weary' land within 4 standard errors."""
    question = parse_question("2d vs 12 favoured weary")
    exact = roll_odds(question)
    rng = SeededRng(20240601)
    n = 4000
    counts = dict.fromkeys(exact, 0)
    for _ in range(n):
        r = roll_test(rng, lambda e: None, "x", "t", 2, 12, favoured=True, weary=True)
        counts[degree(r.success, r.tengwars)] += 1
    for key, p in exact.items():
        se = math.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(counts[key] / n - float(p)) <= 4 * se + 1e-9, key
