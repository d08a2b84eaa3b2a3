"""Progress of long commands: on a terminal only, never into a pipe or JSON output."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
CLAW = str(ROOT / "examples" / "age_of_dragons" / "claw_duel.yaml")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src")
    env.pop("NO_COLOR", None)
    env["TERM"] = "xterm-256color"
    env["COLUMNS"] = "160"
    return env


def _run_on_a_terminal(args: list[str]) -> tuple[int, str, str]:
    """Run fracas with stderr on a pseudo-terminal; returns code, stdout, the terminal's text."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "fracas", *args], stdout=subprocess.PIPE,
                            stderr=slave, env=_env())
    os.close(slave)
    seen = bytearray()
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    out = proc.stdout.read().decode() if proc.stdout else ""
    code = proc.wait()
    os.close(master)
    return code, out, seen.decode(errors="replace")


@pytest.mark.slow
def test_simulate_shows_progress_on_a_terminal() -> None:
    code, out, terminal = _run_on_a_terminal(["simulate", CLAW, "-n", "3000", "-w", "1"])
    assert code == 0
    assert "simulating" in terminal and "fights/s" in terminal and "left" in terminal
    assert "/3000" in terminal.replace(",", "")
    assert "simulating" not in out  # never on stdout
    assert "precision:" in out


@pytest.mark.slow
def test_sweep_progress_counts_every_variant_and_shows_the_estimate() -> None:
    code, _, terminal = _run_on_a_terminal(["sweep", CLAW, "--vary",
                                            "combatants.Ash.soma=7,9", "-n", "2000", "-w", "1"])
    assert code == 0
    assert "/4000" in terminal.replace(",", "")
    assert "red wins" in terminal  # the current estimate beside the bar


@pytest.mark.slow
def test_no_progress_into_a_pipe_nor_with_json_on_a_terminal() -> None:
    piped = subprocess.run([sys.executable, "-m", "fracas", "simulate", CLAW, "-n", "1500",
                            "-w", "1"], capture_output=True, text=True, env=_env(), check=True)
    assert piped.stderr == ""
    assert "precision:" in piped.stdout
    code, out, terminal = _run_on_a_terminal(["simulate", CLAW, "-n", "1500", "-w", "1",
                                              "--json"])
    assert code == 0 and out.startswith("{")
    assert "simulating" not in terminal
