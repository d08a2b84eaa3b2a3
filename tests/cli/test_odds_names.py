"""``fracas odds`` names a rule set's outcomes in its own words, beside the "at least" column."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from fracas_cli import run_fracas

CliRun = Callable[[list[str]], tuple[int, str, str]]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> CliRun:
    def run(args: list[str]) -> tuple[int, str, str]:
        return run_fracas(args, capsys)

    return run


def test_one_ring_degrees_are_named(cli: CliRun) -> None:
    code, out, _ = cli(["odds", "one_ring: 3d vs 14 favoured"])
    assert code == 0
    for words in ("0 (failure)", "1 (success)", "2 (great success)",
                  "3 (extraordinary success)", "at least"):
        assert words in out
    assert "ties" not in out  # that note is for 'vs' rolls
    code, out, _ = cli(["odds", "one_ring: 3d vs 14 favoured", "--json"])
    report = json.loads(out)
    assert report["labels"]["2"] == "great success"
    assert report["at_least"]["1"] == pytest.approx(1 - report["distribution"]["0"])


def test_a_versus_roll_still_explains_its_ties(cli: CliRun) -> None:
    code, out, _ = cli(["odds", "1d20+4 vs 1d20+2"])
    assert code == 0 and "ties are their own outcome" in out
