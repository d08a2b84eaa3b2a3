"""``fracas odds``: tables and JSON for dice, rule-set questions and duels; clean errors."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

Cli = Callable[[list[str]], tuple[int, str, str]]

DATA = Path(__file__).parent / "data"


def test_odds_prints_distribution_mean_and_at_least_table(cli: Cli) -> None:
    code, out, _ = cli(["odds", "9d6>=4"])
    assert code == 0
    assert "at least" in out
    assert "mean 4.5000" in out
    assert "24.61%" in out  # four or five successes: 126/512 each


def test_odds_json_has_expression_distribution_and_mean(cli: Cli) -> None:
    code, out, _ = cli(["odds", "4d6kh3", "--json"])
    assert code == 0
    data = json.loads(out)
    assert data["expression"] == "4d6kh3"
    assert data["mean"] == pytest.approx(15869 / 1296)
    assert sum(data["distribution"].values()) == pytest.approx(1.0)
    assert data["distribution"]["18"] == pytest.approx(21 / 1296)


def test_a_bad_expression_exits_2_with_the_column_and_no_traceback(cli: Cli) -> None:
    code, out, err = cli(["odds", "3d6>=x"])
    assert code == 2
    assert "column 6" in err
    assert "Traceback" not in err + out


def test_a_rule_set_question_is_answered_by_the_rule_set(cli: Cli) -> None:
    code, out, _ = cli(["odds", "toy_exact: strike", "--json"])
    assert code == 0
    assert json.loads(out)["mean"] == 3.5


def test_odds_duel_prints_exact_win_chances(cli: Cli) -> None:
    code, out, _ = cli(["odds", "duel", str(DATA / "first_blood.yaml"), "--json"])
    assert code == 0
    data = json.loads(out)
    assert data["sides"]["red"] == pytest.approx(2 / 3)
    assert data["states"] == 2
    code, out, _ = cli(["odds", "duel", str(DATA / "first_blood.yaml")])
    assert "66.666667%" in out


def test_odds_duel_beyond_the_state_limit_says_so(cli: Cli) -> None:
    code, _, err = cli(["odds", "duel", str(DATA / "toy_brawl.yaml"), "--max-states", "5"])
    assert code == 2
    assert "too large to solve exactly" in err
    assert "Traceback" not in err


def test_odds_duel_needs_exactly_one_scenario(cli: Cli) -> None:
    code, _, err = cli(["odds", "duel"])
    assert code == 2
    assert "fracas odds duel SCENARIO" in err
