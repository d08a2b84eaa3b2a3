"""``fracas odds`` names the outcomes of Age of Dragons, AD&D and BATTLESYSTEM rolls in each
rule set's own words, beside the "at least" column, in the table and in ``--json``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from fracas_cli import run_fracas

CliRun = Callable[[list[str]], tuple[int, str, str]]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> CliRun:
    def run(args: list[str]) -> tuple[int, str, str]:
        return run_fracas(args, capsys)

    return run


CASES = [
    # (question, {outcome: words}, an outcome and its exact chance of at least that)
    ("age_of_dragons: pool=2 pd=1", {0: "no damage", 1: "1 PR lost"}, (1, 1 / 4)),
    ("age_of_dragons: pool=3 measure=hits", {0: "no hits", 1: "1 hit", 3: "3 hits"},
     (3, 1 / 8)),
    ("age_of_dragons: pool=3 pd=1 measure=margin", {0: "fails", 2: "gets through by 2"},
     (2, 1 / 8)),
    ("age_of_dragons: pool=2 measure=sixes",
     {0: "fails, or no six", 1: "1 six; called shot: maul wing/leg/tail, stun head",
      2: "2 sixes; called shot: rip off wing/leg/tail, kill neck/head"}, (2, 1 / 36)),
    ("adnd: hit thac0=15 ac=5", {1: "hits", 0: "misses"}, (1, 0.55)),
    ("adnd: boulder thac0=15", {1: "hits", 0: "misses"}, (1, 0.4)),  # 13+: -8 dropped
    ("adnd: grab thac0=15", {1: "grabs hold", 0: "misses"}, (1, 0.8)),
    ("adnd: climb rating=80", {1: "holds on", 0: "falls"}, (1, 0.8)),
    ("adnd: footing dex=12", {1: "keeps his feet", 0: "goes over"}, (1, 0.6)),
    ("adnd: save number=14", {1: "saves", 0: "fails"}, (1, 0.35)),
    ("adnd: damage dice=1d4 mod=-2", {1: "1 hit point", 2: "2 hit points"}, (2, 0.25)),
    ("adnd: fall feet=10", {1: "1 hit point", 6: "6 hit points"}, (6, 1 / 6)),
    ("adnd: breath con=12", {3: "gives out in round 3"}, (3, 1.0)),
    ("battlesystem: attack figures=2 rating=7 damage=2",
     {0: "no hit", 2: "1 hit: 2 dice of damage", 4: "2 hits: 4 dice of damage"}, (4, 0.16)),
    ("battlesystem: saves figures=2 need=14",
     {0: "no figure saves", 1: "1 figure saves", 2: "2 figures save"}, (2, 0.1225)),
    ("battlesystem: morale target=12", {1: "passes", 0: "fails: the unit breaks or routs"},
     (1, 0.6)),
    ("battlesystem: fragile chance=13", {1: "collapses", 0: "holds"}, (1, 0.13)),
]


@pytest.mark.parametrize(("question", "words", "at_least"), CASES,
                         ids=[c[0] for c in CASES])
def test_outcomes_are_named_in_the_table_and_the_json(
        cli: CliRun, question: str, words: dict[int, str], at_least: tuple[int, float]) -> None:
    code, out, err = cli(["odds", question])
    assert code == 0, err
    assert "at least" in out
    flat = " ".join(out.split())  # a long name may wrap in the table
    for outcome, name in words.items():
        assert f"{outcome} ({name})" in flat
    code, out, err = cli(["odds", question, "--json"])
    assert code == 0, err
    report = json.loads(out)
    for outcome, name in words.items():
        assert report["labels"][str(outcome)] == name
    assert set(report["labels"]) == set(report["distribution"])  # every outcome is named
    outcome, chance = at_least
    assert report["at_least"][str(outcome)] == pytest.approx(chance)


def test_a_bad_question_is_still_refused_with_its_rule_sets_message(cli: CliRun) -> None:
    code, _, err = cli(["odds", "battlesystem: attack figures=2"])
    assert code != 0 and "rating= is missing" in err


def test_the_plot_names_its_bars_short_and_only_when_they_fit(cli: CliRun, tmp_path: Path
                                                             ) -> None:
    from fracas.cli.odds import MOST_NAMED_TICKS, tick_names

    words = {0: "fails, or no six", 1: "1 six; called shot: maul wing/leg/tail, stun head",
             2: "2 sixes"}
    named = tick_names([0, 1, 2], words)
    assert named is not None
    names, slanted = named
    assert names == ["0 (fails, or no six)", "1 (1 six)", "2 (2 sixes)"] and slanted
    many = list(range(MOST_NAMED_TICKS + 1))
    assert tick_names(many, {k: f"{k} hit points" for k in many}) is None
    assert tick_names([0, 1], {}) is None
    target = tmp_path / "sixes.png"
    code, out, err = cli(["odds", "age_of_dragons: pool=6 measure=sixes", "--plot", str(target)])
    assert code == 0, err
    assert target.stat().st_size > 0 and f"plot written to {target}" in " ".join(out.split())
