"""The Age of Dragons examples the issue promised (the kit and CLI: tests/test_examples.py)."""

from __future__ import annotations

from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

SCENARIOS = sorted((EXAMPLES / "age_of_dragons").glob("*.yaml"))


def test_the_issue_names_four_examples() -> None:
    names = {p.stem for p in SCENARIOS}
    assert {"claw_duel", "aerial_2v2", "grapple_brawl", "landmark_rock"} <= names
