"""Exact odds of single rolls equal brute-force enumeration of every face."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from math import comb

import pytest

from fracas.core.dice import roll
from fracas.core.errors import ActionSyntaxError, DiceSyntaxError
from fracas.core.rng import ScriptedRng
from fracas.odds import answer


def brute_force(expression: str, sides: list[int]) -> dict[int, Fraction]:
    """Roll ``expression`` on every sequence of faces and count the results."""
    counts: Counter[int] = Counter()
    for faces in itertools.product(*(range(1, s + 1) for s in sides)):
        rng = ScriptedRng(faces)
        counts[roll(expression, rng).total] += 1
        assert rng.remaining == 0
    total = sum(counts.values())
    return {k: Fraction(v, total) for k, v in sorted(counts.items())}


@pytest.mark.parametrize(("expression", "sides"), [
    ("3d6>=4", [6, 6, 6]),
    ("2d8+3", [8, 8]),
    ("1d20+5>=15", [20]),
    ("4d6kh3", [6, 6, 6, 6]),
    ("3d4kl2", [4, 4, 4]),
    ("2d6-1d4", [6, 6, 4]),
    ("(2d6)>=7", [6, 6]),
    ("5d6>=5", [6] * 5),
])
def test_dice_odds_equal_brute_force_enumeration(expression: str, sides: list[int]) -> None:
    result = answer(expression)
    assert result.distribution == brute_force(expression, sides)
    assert sum(result.distribution.values()) == 1


def test_nine_dice_counting_fours_and_up_is_binomial_with_half() -> None:
    result = answer("9d6>=4")
    assert result.distribution == {k: Fraction(comb(9, k), 512) for k in range(10)}
    assert result.mean == Fraction(9, 2)
    assert result.at_least()[9] == Fraction(1, 512)
    assert result.at_least()[0] == 1


def test_json_form_has_expression_distribution_and_mean() -> None:
    data = answer("1d20+5>=15").to_json()
    assert data["expression"] == "1d20+5>=15"
    assert data["distribution"] == {"0": 0.45, "1": 0.55}
    assert data["mean"] == 0.55
    assert data["exact"] == {"0": "9/20", "1": "11/20"}


def test_a_bad_expression_says_which_column() -> None:
    with pytest.raises(DiceSyntaxError, match="column 5"):
        answer("2d6+")


def test_rule_set_questions_go_to_that_rule_set() -> None:
    result = answer("toy_exact: strike")
    assert result.expression == "toy_exact: strike"
    assert result.mean == Fraction(7, 2)
    with pytest.raises(ActionSyntaxError, match="only answers 'strike'"):
        answer("toy_exact: bite")
    with pytest.raises(ActionSyntaxError, match="answers no odds questions"):
        answer("toy: strike")
    with pytest.raises(ActionSyntaxError, match="unknown rule set 'nosuch'"):
        answer("nosuch: strike")
    with pytest.raises(ActionSyntaxError, match="after the colon"):
        answer("toy_exact:")


def test_age_of_dragons_attack_odds_when_the_rule_set_is_installed() -> None:
    pytest.importorskip("fracas.rules.age_of_dragons")
    hits = answer("age_of_dragons: pool=9 measure=hits")
    assert hits.distribution == answer("9d6>=4").distribution


@pytest.mark.parametrize(("module", "question"), [
    ("age_of_dragons", "pool=9 pd=2 tn=3 bonus=6"),
    ("one_ring", "3d vs 14 favoured weary"),
    ("adnd", "hit thac0=15 ac=5 mod=-2"),
    ("battlesystem", "attack figures=4 rating=7 damage=2"),
])
def test_each_installed_rule_set_answers_its_own_question_through_fracas_odds(
    module: str, question: str, cli: Callable[[list[str]], tuple[int, str, str]]
) -> None:
    pytest.importorskip(f"fracas.rules.{module}")
    code, out, err = cli(["odds", f"{module}: {question}", "--json"])
    assert code == 0, err
    data = json.loads(out)
    assert data["expression"] == f"{module}: {question}"
    assert sum(data["distribution"].values()) == pytest.approx(1.0)
    exact = sum((Fraction(p) for p in data["exact"].values()), Fraction(0))
    assert exact == 1


def test_versus_names_its_outcomes_and_ties_stand_apart() -> None:
    result = answer("1d6 vs 1d6")
    assert result.labels == {1: "first 1d6 wins", 0: "tie", -1: "second 1d6 wins"}
    assert result.distribution[0] == Fraction(1, 6)
    assert result.at_least()[1] == Fraction(5, 12)  # the left roll wins outright
    assert result.at_least()[0] == Fraction(7, 12)  # wins or ties
    data = result.to_json()
    assert data["labels"] == {"1": "first 1d6 wins", "0": "tie", "-1": "second 1d6 wins"}
    assert answer("2d6 vs 1d6+3").labels[-1] == "1d6+3 wins"


def test_exploding_dice_report_the_cap_and_its_tail() -> None:
    data = answer("2d6!").to_json()
    assert data["explosion_cap"] == 10
    assert data["explosion_tail"] == pytest.approx(2 / 6**11)
    assert "explosion_tail" not in answer("2d6").to_json()


@pytest.mark.parametrize(("expression", "sides"), [
    ("4d4dl1", [4, 4, 4, 4]),
    ("3d4dh1", [4, 4, 4]),
    ("2d6ro1", [6, 6, 6, 6]),   # enough faces for both rerolls; unused ones are skipped
    ("1d8 vs 1d6+1", [8, 6]),
])
def test_modified_dice_odds_equal_brute_force_enumeration(expression: str,
                                                         sides: list[int]) -> None:
    counts: Counter[int] = Counter()
    for faces in itertools.product(*(range(1, s + 1) for s in sides)):
        counts[roll(expression, ScriptedRng(faces)).total] += 1
    total = sum(counts.values())
    assert answer(expression).distribution == {k: Fraction(v, total)
                                               for k, v in sorted(counts.items())}


def test_a_pool_comparison_no_die_can_meet_is_refused() -> None:
    with pytest.raises(DiceSyntaxError, match=r"write \(3d6\)>=10"):
        answer("3d6>=10")
    assert answer("(3d6)>=10").distribution[1] == Fraction(5, 8)
