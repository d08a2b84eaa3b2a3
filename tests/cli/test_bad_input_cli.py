"""Bad command lines: a usage message and exit code 2, never a traceback; nothing lost."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fracas.cli.app import main
from fracas_cli import run_fracas

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DUEL = EXAMPLES / "age_of_dragons" / "claw_duel.yaml"


def run_main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    return run_fracas(args, capsys)


@pytest.mark.parametrize(("args", "says"), [
    (["run"], "Missing argument"),
    (["run", str(DUEL), "--seed", "abc"], "'--seed'"),
    (["run", str(DUEL), "--bogus"], "No such option: --bogus"),
    (["run", str(DUEL), "extra"], "unexpected extra argument"),
    (["nocmd"], "No such command 'nocmd'"),
    (["simulate", str(DUEL), "-n", "many"], "'--runs'"),
    (["sweep", str(DUEL)], "Missing option '--vary'"),
    (["serve", "--port", "http"], "'--port'"),
])
def test_usage_errors_are_a_message_and_exit_code_2(
        args: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(args, capsys)
    assert code == 2
    assert says in err and "Traceback" not in out + err
    assert len(err.strip().splitlines()) <= 5


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(["run", "--help"], capsys)
    assert code == 0 and "SCENARIO" in out.upper()


def test_a_usage_error_through_the_console_script_has_no_traceback() -> None:
    result = subprocess.run([sys.executable, "-m", "fracas", "run", str(DUEL), "--seed", "x"],
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "╭" not in result.stderr


@pytest.mark.parametrize("seed", ["-5", str(2**64), "99999999999999999999999999"])
@pytest.mark.parametrize("command", ["run", "play", "simulate"])
def test_seeds_out_of_range_are_refused_up_front(
        command: str, seed: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main([command, str(DUEL), "--seed", seed], capsys)
    assert code == 2 and "'--seed'" in err


@pytest.mark.parametrize("command", ["run", "play"])
def test_a_seed_a_log_cannot_hold_is_refused_before_the_fight_when_saving(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "fight.jsonl"
    code, out, err = run_main([command, str(DUEL), "--seed", str(2**63), "--save", str(log)],
                              capsys)
    assert code == 2 and "holds seeds from 0 to 2**63-1" in err
    assert "won after" not in out and not log.exists()
    code, _, _ = run_main(["run", str(DUEL), "--seed", str(2**64 - 1)], capsys)
    assert code == 0


def test_the_largest_seed_saves_a_log_that_replays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "fight.jsonl"
    code, _, _ = run_main(["run", str(DUEL), "--seed", str(2**63 - 1), "--save", str(log)],
                          capsys)
    assert code == 0
    code, out, err = run_main(["replay", str(log)], capsys)
    assert code == 0, err
    assert "won after" in out


@pytest.mark.parametrize("command", ["run", "play"])
@pytest.mark.parametrize("where", ["missing_folder", "a_folder"])
def test_a_log_that_cannot_be_written_is_refused_before_the_fight(
        command: str, where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "nope" / "fight.jsonl" if where == "missing_folder" else tmp_path
    code, out, err = run_main([command, str(DUEL), "--save", str(target)], capsys)
    assert code == 2
    assert err.startswith(f"error: {target}: cannot write the log")
    assert "won after" not in out  # refused before any dice were rolled


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_a_read_only_folder_is_refused(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    tmp_path.chmod(0o500)
    try:
        code, _, err = run_main(["run", str(DUEL), "--save", str(tmp_path / "f.jsonl")], capsys)
    finally:
        tmp_path.chmod(0o700)
    assert code == 2 and "permission denied" in err


def test_write_log_failing_late_is_a_fracas_error(tmp_path: Path) -> None:
    from fracas.core.errors import OutputFileError
    from fracas.scenario import load_scenario, start_encounter

    enc = start_encounter(load_scenario(DUEL), 1)
    with pytest.raises(OutputFileError, match="cannot write the log"):
        enc.save(tmp_path / "gone" / "fight.jsonl")


@pytest.mark.parametrize(("question", "says"), [
    (["²d6"], "column 1"),
    (["(" * 3000 + "1" + ")" * 3000], "nested parentheses"),
    (["1000d1000"], "too much work"),
    (["1d6kh0"], "column 6"),
    (["--jsn", "2d6"], "no such option: --jsn"),
    (["duel", str(DUEL), "--max-states", "0"], "--max-states must be at least 1"),
    (["duel", str(DUEL), "--max-seconds", "nan"], "--max-seconds must be 0 or more"),
    (["duel", str(DUEL), "--max-seconds", "-1"], "--max-seconds must be 0 or more"),
])
def test_odds_with_junk_is_a_clear_error(question: list[str], says: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(["odds", *question], capsys)
    assert code == 2
    assert says in err and "Traceback" not in out + err


def test_odds_reads_a_leading_minus_as_dice_not_an_option(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(["odds", "--json", "-1d6+10"], capsys)
    assert code == 0, err
    assert '"mean": 6.5' in out


def test_a_bug_is_one_line_without_traceback_unless_debugging(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import fracas.scenario

    def broken(path: object) -> object:
        raise KeyError("boom")

    monkeypatch.setattr(fracas.scenario, "check_scenario", broken)
    monkeypatch.delenv("FRACAS_DEBUG", raising=False)
    code, out, err = run_main(["validate", str(DUEL)], capsys)
    assert code == 1 and "internal error: KeyError: 'boom'" in err
    assert "Traceback" not in out + err and "FRACAS_DEBUG=1" in err
    monkeypatch.setenv("FRACAS_DEBUG", "1")
    with pytest.raises(KeyError):
        main(["validate", str(DUEL)])
