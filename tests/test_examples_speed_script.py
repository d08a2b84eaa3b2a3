"""``benchmarks/examples_speed.py`` runs end to end on a few fights (nothing here is timed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "examples_speed.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=300, check=False, env=env)


def test_the_script_compares_a_tree_with_itself_fight_for_fight(tmp_path: Path) -> None:
    out = tmp_path / "rows.json"
    done = _run("--base", str(ROOT), "--only", "bridge_duel", "--rounds", "1",
                "--seconds", "0.01", "--events", "2", "--json", str(out))
    assert done.returncode == 0, done.stderr
    assert "adnd/bridge_duel" in done.stdout and "events same  outcomes same" in done.stdout
    (row,) = json.loads(out.read_text())
    assert row["events_same"] and row["outcomes_same"] and row["fights_per_cpu_s"] > 0


def test_a_base_without_sources_is_refused_in_one_line(tmp_path: Path) -> None:
    done = _run("--base", str(tmp_path))
    assert done.returncode == 2 and "no src/fracas there" in done.stderr
