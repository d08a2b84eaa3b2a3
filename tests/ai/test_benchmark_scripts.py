"""The AI benchmark scripts run end to end on a few fights (nothing here is timed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _run(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_escape_script_prints_each_hero_and_the_chance_of_staying() -> None:
    out = _run("escape.py", "--fights", "30", "--counterfactual", "40", "--rollouts", "2")
    for hero in ("| heuristic |", "| heuristic, never escaping |",
                 "| never escaping, Hope on every attack |"):
        assert hero in out
    assert "First escape attempts:" in out


def test_ai_script_prints_the_table_the_seats_and_the_heuristic_baseline() -> None:
    out = _run("ai.py", "--rulesets", "one_ring", "--pairs", "1", "--ms", "10",
               "--turn-ms", "20", "--workers", "1", "--baseline")
    assert "| one_ring | 2 |" in out and "rollouts to win" in out
    assert "one_ring: wins by the side the search played:" in out
    assert "one_ring: the heuristic in the same seats on the same seeds: company" in out
    # Both measures, with the heuristic's score in the same seats: exactly one half.
    assert "| duel | won-drawn-lost | win rate (95% Wilson) | score (95%, over seeds) |" in out
    assert "| **duels, pooled** |" in out and "| 0.500 |" in out


def test_ai_script_writes_each_job_and_reports_the_file(tmp_path: Path) -> None:
    out_file = tmp_path / "jobs.jsonl"
    out = _run("ai.py", "--rulesets", "adnd", "--pairs", "2", "--chunk", "1", "--ms", "10",
               "--turn-ms", "20", "--workers", "1", "--baseline", "--out", str(out_file))
    assert len(out_file.read_text(encoding="utf-8").splitlines()) == 2  # a line a job
    table = out[out.index("| duel | won-drawn-lost"):].strip()
    report = _run("ai.py", "--report", str(out_file))
    assert report.startswith("whole seeds counted: duels 2 seeds")
    assert report[report.index("| duel | won-drawn-lost"):].strip() == table


def test_ai_script_plays_a_scenario_file_in_place_of_the_duels() -> None:
    out = _run("ai.py", "--scenario", str(BENCHMARKS / "duels" / "battlesystem_flyers.yaml"),
               "--pairs", "1", "--ms", "10", "--turn-ms", "20", "--workers", "1", "--baseline")
    assert "| battlesystem/battlesystem_flyers | 2 |" in out
    assert "battlesystem/battlesystem_flyers: the heuristic in the same seats" in out


@pytest.mark.slow
def test_ai_script_refuses_what_does_not_fit_in_one_usage_line() -> None:
    lanes = str(BENCHMARKS / "duels" / "battlesystem_lanes.yaml")
    for args, words in ((["--scenario", lanes, "--gm-side", "north"],
                         "--gm-side 'north' is not a side of"),
                        (["--scenario", "no_such_file.yaml"], "cannot read the file"),
                        (["--gm-side", "east"], "--gm-side goes with --scenario"),
                        (["--rulesets", "chess"], "no duel for chess"),
                        (["--scenario", lanes, "--rulesets", "adnd"], "leave out --rulesets"),
                        (["--set", "heldout", "--rulesets", "adnd"], "--set plays its own")):
        done = subprocess.run([sys.executable, str(BENCHMARKS / "ai.py"), *args],
                              capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 2 and words in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr
