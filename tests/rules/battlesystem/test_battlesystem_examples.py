"""BATTLESYSTEM examples: the promised four, a map each turn (kit: tests/test_examples.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli.app import app

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "battlesystem")
                  .glob("*.yaml"))


def test_there_are_four_examples() -> None:
    names = {p.stem for p in EXAMPLES}
    assert {"dwarf_column_ambush", "cavern_flyers", "chasm_bridge", "gas_on_the_wind"} <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_runs_in_the_cli_and_prints_a_map_each_turn(path: Path) -> None:
    result = CliRunner().invoke(app, ["run", str(path), "--seed", "1"])
    assert result.exit_code == 0, result.output
    maps = result.output.count("map (1 inch = 10 yards)")
    turns = max(int(line.split()[2]) for line in result.output.splitlines()
                if line.startswith("=== turn "))
    assert maps == turns >= 2
