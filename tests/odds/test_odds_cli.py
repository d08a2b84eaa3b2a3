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


def test_a_pool_comparison_no_die_can_meet_shows_the_sum_spelling(cli: Cli) -> None:
    code, out, err = cli(["odds", "3d6>=10"])
    assert code == 2
    assert "column 4" in err and "(3d6)>=10" in err and "no die can" in err
    assert "Traceback" not in err + out
    code, out, _ = cli(["odds", "(3d6)>=10"])
    assert code == 0 and "62.5%" in out


def test_versus_table_names_the_winner_and_says_how_ties_count(cli: Cli) -> None:
    code, out, _ = cli(["odds", "1d20+4", "vs", "1d20+2"])
    assert code == 0
    assert "1d20+4 wins" in out and "tie" in out and "57.25%" in out
    assert "win or tie" in out


def test_exploding_dice_say_how_far_they_explode(cli: Cli) -> None:
    code, out, _ = cli(["odds", "10d10!>=8"])
    assert code == 0
    assert "explode at most 10 times" in out
    assert "not shown" in out  # the long tail is summarised, --json has every outcome


def test_odds_plot_draws_the_distribution(cli: Cli, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "odds.png"
    code, out, _ = cli(["odds", "4d6kh3", "--plot", str(target)])
    assert code == 0, out
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "plot written to" in out
    code, out, _ = cli(["odds", "d20 vs d20", "--plot", str(tmp_path / "vs.svg"), "--json"])
    assert code == 0 and json.loads(out)["labels"]["0"] == "tie"
    assert (tmp_path / "vs.svg").read_text().lstrip().startswith("<?xml")


def test_odds_plot_refuses_unknown_types_and_duels(cli: Cli, tmp_path: Path) -> None:
    code, _, err = cli(["odds", "2d6", "--plot", str(tmp_path / "odds.gif")])
    assert code == 2 and ".png" in err and "Traceback" not in err
    code, _, err = cli(["odds", "duel", str(DATA / "first_blood.yaml"), "--plot",
                        str(tmp_path / "d.png")])
    assert code == 2 and "not of a duel" in err


def test_odds_help_shows_the_dice_language(cli: Cli) -> None:
    code, out, _ = cli(["odds", "--help"])
    assert code == 0
    for example in ("9d6>=4", "(3d6)>=10", "4d6dl1", "10d10!>=8", "2d6r1", "vs"):
        assert example in out



def test_odds_duel_from_a_saved_log(tmp_path: Path, cli: Cli) -> None:
    duel = Path(__file__).resolve().parents[2] / "examples" / "age_of_dragons" / "claw_duel.yaml"
    log = tmp_path / "fight.jsonl"
    assert cli(["run", str(duel), "--seed", "4", "--save", str(log)])[0] == 0
    code, out, err = cli(["odds", "duel", "--from", str(log), "--round", "2", "--json"])
    assert code == 0, err
    report = json.loads(out)
    assert abs(sum(report["sides"].values()) + report["draw"] - 1) < 1e-9


@pytest.mark.parametrize(("args", "words"), [
    (["odds", "duel", "--round", "2", "x.yaml"], "--round needs --from LOG"),
    (["odds", "9d6>=4", "--from", "x.jsonl"], "--from, --round and --exact go with 'duel'"),
    (["odds", "duel"], "usage: fracas odds duel SCENARIO"),
])
def test_odds_duel_options_out_of_place(args: list[str], words: str, cli: Cli) -> None:
    code, _, err = cli(args)
    assert code == 2 and words in " ".join(err.split())


def test_a_duel_with_exact_gives_fractions_that_sum_to_one(cli: Cli) -> None:
    from fractions import Fraction

    code, out, _ = cli(["odds", "duel", str(DATA / "adnd_tiny.yaml"), "--exact", "--json"])
    assert code == 0
    data = json.loads(out)
    exact = {k: Fraction(v) for k, v in data["exact"].items()}
    assert sum(exact.values()) == 1
    assert float(exact["red"]) == pytest.approx(data["sides"]["red"], abs=1e-12)
    code, out, _ = cli(["odds", "duel", str(DATA / "adnd_tiny.yaml"), "--exact"])
    assert code == 0
    assert "exactly" in out and "38233/96000" in out


def test_exact_without_a_duel_is_refused_in_words(cli: Cli) -> None:
    code, out, err = cli(["odds", "2d6", "--exact"])
    assert code == 2
    assert "--exact go with 'duel'" in err
    assert "Traceback" not in err + out
