"""Answers within their promise (issue 34): a long table of odds is summed up, not printed.

``fracas odds 100d1000`` has 99,901 outcomes (some 18,000 worth a row): the table shows a
summary unless ``--full`` asks for every row, and ``--json`` refuses more than
:data:`fracas.cli.plain.MAX_ROWS` outcomes unless ``--full`` is given.
"""

from __future__ import annotations

import json

import pytest

from fracas.cli.plain import MAX_ROWS
from fracas_cli import run_fracas

BIG = "100d1000"


def test_a_long_table_is_summed_up(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_fracas(["odds", BIG], capsys)
    assert code == 0 and "Traceback" not in out + err
    assert len(out.splitlines()) < 40
    text = " ".join(out.split())
    assert "--full prints every row" in text and "50050" in text


def test_json_refuses_more_outcomes_than_it_writes_unless_full(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_fracas(["odds", BIG, "--json"], capsys)
    assert code == 2 and out == "" and "--full" in err and f"{MAX_ROWS:,}" in err


@pytest.mark.slow
def test_full_prints_every_row(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_fracas(["odds", BIG, "--full"], capsys)
    assert code == 0 and len(out.splitlines()) > 18_000


def test_a_table_within_the_limit_is_printed_whole(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_fracas(["odds", "3d6", "--json"], capsys)
    assert code == 0 and len(json.loads(out)["distribution"]) == 16
    code, out, _ = run_fracas(["odds", "3d6"], capsys)
    assert code == 0 and "--full" not in out and len(out.splitlines()) > 16
