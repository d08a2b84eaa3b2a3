"""Every Age of Dragons example passes the conformance kit and plays through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli.app import app
from fracas.testing import check_ruleset

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

SCENARIOS = sorted((EXAMPLES / "age_of_dragons").glob("*.yaml"))


def test_the_issue_names_four_examples() -> None:
    names = {p.stem for p in SCENARIOS}
    assert {"claw_duel", "aerial_2v2", "grapple_brawl", "landmark_rock"} <= names


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_example_passes_the_conformance_kit(path: Path) -> None:
    report = check_ruleset("age_of_dragons", path, seeds=range(2), check_all_legal=False,
                           undo_every=5)
    assert report.fights == 2


def test_conformance_kit_with_every_legal_action_checked() -> None:
    report = check_ruleset("age_of_dragons", EXAMPLES / "age_of_dragons" / "grapple_brawl.yaml",
                           seeds=range(1))
    assert report.decisions > 0


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_example_runs_with_fracas_run(path: Path) -> None:
    result = CliRunner().invoke(app, ["run", str(path), "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "won after" in result.output


def test_run_json_prints_events_then_the_outcome() -> None:
    path = EXAMPLES / "age_of_dragons" / "claw_duel.yaml"
    result = CliRunner().invoke(app, ["run", str(path), "--seed", "3", "--json"])
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert lines[-1]["type"] == "outcome" and lines[-1]["winner"] in ("red", "blue")
    assert any(line["type"] == "dice" for line in lines[:-1])
