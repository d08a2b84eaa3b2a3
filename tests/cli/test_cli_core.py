"""The fracas command: validate, run, replay, play; clear one-line errors and exit codes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli.app import app
from fracas_cli import run_fracas

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

DUEL = EXAMPLES / "age_of_dragons" / "claw_duel.yaml"
GOOD = DUEL.read_text()


def run_main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    return run_fracas(args, capsys)


@pytest.mark.parametrize(("name", "text", "where"), [
    ("unknown_field", GOOD.replace("policy: claw_all}\n  - {name: Ash",
                                   "policy: claw_all, wings: 3}\n  - {name: Ash"), ":9:"),
    ("negative_pool", GOOD.replace("soma: 9, pd: 0, pr: 20, altitude: normal, policy: claw_all}"
                                   "\n  - {name: Ash",
                                   "soma: -1, pd: 0, pr: 20, altitude: normal, policy: claw_all}"
                                   "\n  - {name: Ash"), ":9:"),
    ("altitude_4", GOOD.replace("altitude: normal, policy: claw_all}\n  - {name: Ash",
                                "altitude: 4, policy: claw_all}\n  - {name: Ash"), ":9:"),
    ("unknown_ruleset", GOOD.replace("ruleset: age_of_dragons", "ruleset: chess"), ":4:"),
    ("yaml_error", GOOD.replace("ranges:\n", "ranges: [\n"), ":"),
    ("empty", "", ":1:"),
])
def test_malformed_scenarios_get_one_line_and_exit_code_2(
        name: str, text: str, where: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    for command in (["validate", str(path)], ["run", str(path)]):
        code, out, err = run_main(command, capsys)
        assert code == 2
        message = " ".join(err.split())
        assert message.startswith(f"error: {path}{where}") or \
            (where == ":" and message.startswith(f"error: {path}:")), message
        assert "Traceback" not in err + out
        assert len(err.strip().splitlines()) <= 3  # one line, wrapped at most by the terminal


def test_validate_accepts_a_good_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(["validate", str(DUEL)], capsys)
    assert code == 0 and "valid age_of_dragons scenario" in " ".join(out.split())


def test_run_is_deterministic_for_a_seed() -> None:
    first = CliRunner().invoke(app, ["run", str(DUEL), "--seed", "11", "--json"])
    again = CliRunner().invoke(app, ["run", str(DUEL), "--seed", "11", "--json"])
    other = CliRunner().invoke(app, ["run", str(DUEL), "--seed", "12", "--json"])
    assert first.output == again.output != other.output


def test_saved_log_replays_to_the_same_result(tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    ran = CliRunner().invoke(app, ["run", str(DUEL), "--seed", "5", "--save", str(log)])
    assert ran.exit_code == 0
    replayed = CliRunner().invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0
    assert ran.output.strip().splitlines()[-1] == replayed.output.strip().splitlines()[-1]


def test_replay_of_a_broken_log_is_a_clear_error(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text('{"type": "header", "ruleset": "age_of_dragons", "scenario": {}}\n')
    code, _, err = run_main(["replay", str(log)], capsys)
    assert code == 2 and "bad.jsonl" in err and "Traceback" not in err


def test_play_lets_a_human_choose_and_undo(tmp_path: Path) -> None:
    scenario = tmp_path / "human.yaml"
    scenario.write_text(GOOD.replace("name: Ember, side: red, soma: 9, pd: 0, pr: 20, "
                                     "altitude: normal, policy: claw_all",
                                     "name: Ember, side: red, soma: 9, pd: 0, pr: 20, "
                                     "altitude: normal, policy: human"))
    answers = "1\n1\nu\nq\n"  # roll, soma; undo that decision; quit
    result = CliRunner().invoke(app, ["play", str(scenario), "--seed", "1"], input=answers)
    assert result.exit_code == 0, result.output
    assert "Ember decides" in result.output and "after undo" in result.output


def test_console_script_runs_the_demo_fight() -> None:
    result = subprocess.run([sys.executable, "-m", "fracas", "run", str(DUEL), "--seed", "7"],
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert "won after" in result.stdout


def test_error_messages_keep_square_brackets(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(GOOD.replace("policy: claw_all}\n  - {name: Ash",
                                 "policy: claw_all, wings: 3}\n  - {name: Ash"))
    code, _, err = run_main(["validate", str(path)], capsys)
    assert code == 2 and "combatants[Ember].wings" in err
