"""Fights per second of every example, before and after a change, side by side.

Usage::

    git worktree add /tmp/fracas-before <old commit>
    .venv/bin/python benchmarks/decisions_bench.py --before /tmp/fracas-before \\
        [--policy heuristic] [--rounds 3] [--seconds 1.5] [--only NAME ...] [--json FILE]

For each example of every rule set, ``benchmarks/fights_child.py`` plays the same fights
(the simulator's seeding rule, every actor on ``--policy``) once with the old source tree
and once with this one, alternating ``--rounds`` times in fresh processes; the fights per
CPU second of each (the child's own process time, which a shared machine disturbs less
than wall time) are quoted as medians with the median of the per-round ratios.  The fights
are also compared one by one (winner, rounds and every combatant's status and health):
"same" says whether every fight came out identical, which it must where the policy's
choices did not change.  The number of fights per example is set once, from a short run
of the new tree, so one round takes about ``--seconds`` on the new tree.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHILD = Path(__file__).resolve().parent / "fights_child.py"


def _run(tree: Path, scenario: Path, fights: int, policy: str) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    out = subprocess.run([sys.executable, str(CHILD), str(scenario), str(fights), policy],
                         env=env, cwd="/", capture_output=True, text=True, timeout=900,
                         check=False)
    if out.returncode != 0:
        return {"error": (out.stderr.strip().splitlines() or ["failed"])[-1]}
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="the old source tree")
    parser.add_argument("--policy", default="heuristic")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rows = []
    for scenario in sorted((ROOT / "examples").glob("*/*.yaml")):
        name = f"{scenario.parent.name}/{scenario.stem}"
        if args.only and not any(o in name for o in args.only):
            continue
        probe = _run(ROOT, scenario, 5, args.policy)
        if "error" in probe:
            print(f"{name}: {probe['error']}", flush=True)
            continue
        fights = max(5, int(probe["fights_per_cpu_s"] * args.seconds))
        old: list[float] = []
        new: list[float] = []
        ratios: list[float] = []
        same = True
        error = ""
        for _ in range(args.rounds):
            before = _run(args.before, scenario, fights, args.policy)
            after = _run(ROOT, scenario, fights, args.policy)
            if "error" in before or "error" in after:
                error = before.get("error") or after.get("error", "")
                break
            old.append(before["fights_per_cpu_s"])
            new.append(after["fights_per_cpu_s"])
            ratios.append(after["fights_per_cpu_s"] / before["fights_per_cpu_s"])
            same = same and before["digests"] == after["digests"]
        if error:
            print(f"{name}: {error}", flush=True)
            continue
        row = {"example": name, "fights": fights, "before": statistics.median(old),
               "after": statistics.median(new), "ratio": statistics.median(ratios),
               "same_fights": same}
        rows.append(row)
        print(f"{name:34} {fights:5} fights  before {row['before']:8.1f}/s  after "
              f"{row['after']:8.1f}/s  ratio {row['ratio']:5.2f}  "
              f"{'same fights' if same else 'fights differ'}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
