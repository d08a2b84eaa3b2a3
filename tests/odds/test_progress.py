"""Limits in CPU seconds, a progress bar on a terminal only, and refusals that say what
would make a fight solvable."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest
from rich.console import Console
from tests.fracas_cli import run_fracas

import fracas.cli.odds as odds_cli
from fracas.odds.duel import DuelLimits, DuelProgress, StateSpaceTooLargeError, solve_duel
from fracas.scenario import load_scenario

DATA = Path(__file__).parent / "data"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _progress() -> DuelProgress:
    return DuelProgress(done=3, found=10, leaves=1234, seconds=2.5, at_least=4.0, widest="")


def _shown(monkeypatch: pytest.MonkeyPatch, quiet: bool, terminal: bool,
           after: float) -> str:
    out = io.StringIO()
    monkeypatch.setattr(odds_cli, "err_console",
                        Console(file=out, force_terminal=terminal, width=120))
    clock = [100.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    with odds_cli._solver_status(quiet) as watch:
        if watch is not None:
            clock[0] += after
            watch(_progress())
    return out.getvalue()


def test_a_solve_longer_than_a_second_shows_a_bar_on_a_terminal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    shown = _shown(monkeypatch, quiet=False, terminal=True, after=1.5)
    assert "3 of 10 states" in shown and "CPU s" in shown and "at least 4.0 s more" in shown


@pytest.mark.parametrize(("quiet", "terminal", "after"), [
    (False, True, 0.5),   # a short solve: nothing shown
    (True, True, 5.0),    # --json
    (False, False, 5.0),  # stderr is a pipe or a file
])
def test_no_bar_for_short_solves_json_or_pipes(monkeypatch: pytest.MonkeyPatch, quiet: bool,
                                               terminal: bool, after: float) -> None:
    assert "states" not in _shown(monkeypatch, quiet, terminal, after)


def test_json_output_is_one_object_with_cpu_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_fracas(["odds", "duel", str(DATA / "claw_duel_small.yaml"), "--json"],
                                capsys)
    assert code == 0 and err == ""
    report = json.loads(out)
    assert report["seconds"] >= 0 and report["sides"]["red"] > 0.5


def test_the_limit_counts_cpu_seconds_not_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    # A wall clock that races ahead changes nothing: the solve is judged by CPU time.
    real = time.perf_counter
    monkeypatch.setattr(time, "perf_counter", lambda: real() * 1000)
    odds = solve_duel(load_scenario(DATA / "claw_duel_small.yaml"),
                      limits=DuelLimits(max_seconds=30))
    assert odds.sides["red"] > 0.5


def test_a_refusal_says_what_would_make_the_fight_solvable() -> None:
    scenario = load_scenario(EXAMPLES / "one_ring" / "company_vs_orcs.yaml")
    with pytest.raises(StateSpaceTooLargeError) as caught:
        solve_duel(scenario, limits=DuelLimits(max_seconds=2))
    message = str(caught.value)
    assert "CPU s" in message and "to solve it:" in message
    assert "fracas simulate" in message
