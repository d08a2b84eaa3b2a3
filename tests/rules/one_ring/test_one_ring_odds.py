"""Exact odds of a One Ring test, checked against brute-force enumeration of every face."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from fracas.cli.app import app
from fracas.core.errors import ActionSyntaxError
from fracas.rules.one_ring import OneRing
from fracas.rules.one_ring.dice import feat_dice_count, feat_rank, keep_feat, read_test
from fracas.rules.one_ring.odds import degree


def brute_force(dice: int, tn: int, *, adversary: bool = False, favoured: bool = False,
                ill: bool = False, weary: bool = False, miserable: bool = False
                ) -> dict[int, Fraction]:
    """Enumerate every Feat and Success face combination and read each with read_test."""
    feats = feat_dice_count(favoured, ill)
    combos = list(itertools.product(range(1, 13), repeat=feats))
    rolls = list(itertools.product(range(1, 7), repeat=dice))
    total = len(combos) * len(rolls)
    out = dict.fromkeys(range(4), Fraction(0))
    for feat in combos:
        rank = keep_feat(tuple(feat_rank(f, adversary) for f in feat), favoured, ill)
        for faces in rolls:
            r = read_test(rank, faces, tn, weary=weary, miserable=miserable)
            out[degree(r.success, r.tengwars)] += Fraction(1, total)
    return out


@pytest.mark.parametrize(("question", "kwargs"), [
    ("0d vs 8", {"dice": 0, "tn": 8}),
    ("3d vs 14", {"dice": 3, "tn": 14}),
    ("hero 2d vs 12 favoured", {"dice": 2, "tn": 12, "favoured": True}),
    ("2d vs 16 ill-favoured", {"dice": 2, "tn": 16, "ill": True}),
    ("3d vs 14 weary", {"dice": 3, "tn": 14, "weary": True}),
    ("2d vs 12 miserable favoured", {"dice": 2, "tn": 12, "miserable": True, "favoured": True}),
    ("adversary 2d vs 15", {"dice": 2, "tn": 15, "adversary": True}),
    ("adversary 3d vs 18 ill-favoured weary",
     {"dice": 3, "tn": 18, "adversary": True, "ill": True, "weary": True}),
    ("1d vs 10 favoured ill-favoured", {"dice": 1, "tn": 10, "favoured": True, "ill": True}),
])
def test_odds_equal_brute_force_enumeration(question: str, kwargs: dict[str, int]) -> None:
    dice, tn = kwargs.pop("dice"), kwargs.pop("tn")
    assert OneRing().odds(question) == brute_force(dice, tn, **kwargs)  # type: ignore[arg-type]


def test_odds_sum_to_one_for_many_dice() -> None:
    result = OneRing().odds("8d vs 30 favoured")
    assert sum(result.values()) == 1
    assert set(result) == {0, 1, 2, 3}


def test_a_hero_always_succeeds_on_the_rune_so_no_tn_is_hopeless() -> None:
    assert OneRing().odds("0d vs 60")[1] == Fraction(1, 12)


@pytest.mark.parametrize(("question", "where"), [
    ("", "word 1"),
    ("three vs 14", "word 1"),
    ("3d versus 14", "word 2"),
    ("3d vs", "word 3"),
    ("3d vs 14 lucky", "word 4"),
    ("adversary 2d vs 12 miserable", "word 5"),
    ("99d vs 14", "word 1"),
])
def test_unreadable_questions_say_where(question: str, where: str) -> None:
    with pytest.raises(ActionSyntaxError, match=where):
        OneRing().odds(question)


def test_fracas_odds_answers_a_one_ring_question() -> None:
    result = CliRunner().invoke(app, ["odds", "one_ring: 3d vs 14 favoured", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data["exact"]) == {"0", "1", "2", "3"}
