"""Inputs past the system's or the prompt's size (issue 34): a plain error, never a bug.

A path longer than the system allows is an error naming it (exit 2) for every command
that takes one; an overlong line at the ``play`` prompt is refused and the step asked
again.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli.app import app
from fracas.cli.interactive import MAX_LINE
from fracas_cli import run_fracas

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DUEL = EXAMPLES / "age_of_dragons" / "claw_duel.yaml"


@pytest.mark.parametrize("args", [
    ["new", "adnd", "{long}.yaml"],
    ["validate", "{long}.yaml"],
    ["run", "{long}.yaml"],
    ["replay", "{long}.jsonl"],
    ["run", str(DUEL), "--save", "{long}.jsonl"],
    ["odds", "duel", "{long}.yaml"],
    ["odds", "2d6", "--plot", "{long}.png"],
], ids=lambda a: " ".join(a[:2]))
def test_a_path_too_long_for_the_system_is_a_plain_error(
        args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    long = str(tmp_path / ("a" * 300))
    code, out, err = run_fracas([a.replace("{long}", long) for a in args], capsys)
    text = " ".join((out + err).split())
    assert code == 2, text
    assert "internal error" not in text and "Traceback" not in text


def test_an_overlong_prompt_line_is_refused_and_the_step_asked_again(tmp_path: Path) -> None:
    human = tmp_path / "human.yaml"
    human.write_text(DUEL.read_text().replace("policy: claw_all}", "policy: human}", 1))
    answers = "x" * (MAX_LINE + 1) + "\n" + "x" * 2_000_000 + "\nq\n"
    result = CliRunner().invoke(app, ["play", str(human), "--seed", "1"], input=answers)
    output = " ".join(result.output.split())
    assert result.exit_code == 0, output[-500:]
    assert output.count(f"an answer takes at most {MAX_LINE:,}") == 2
    assert "Traceback" not in output
