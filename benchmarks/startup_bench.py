"""Start-up of the ``fracas`` command: whole-process times of short commands, trees side by side.

Usage::

    git worktree add /tmp/fracas-base f1f5118     # the issue's "today"
    git worktree add /tmp/fracas-start 4be25c2    # any other old tree
    .venv/bin/python benchmarks/startup_bench.py --tree base=/tmp/fracas-base \\
        --tree start=/tmp/fracas-start [--runs 15] [--json FILE]

Each command -- ``fracas odds "9d6>=4"``, ``fracas validate
examples/age_of_dragons/claw_duel.yaml`` (``--every-ruleset``: and an example of each
other rule set) and ``fracas --help`` -- is started as a
fresh process: the ``fracas`` console script installed beside this interpreter (or
``python -m fracas`` when there is none, which adds about 15 ms of ``runpy``), with
``PYTHONPATH`` set to the tree's ``src`` and run from ``/`` so nothing else is on the
path; ``--runs`` times for every tree, the trees taking turns run by run so that a
machine whose speed drifts treats them alike.  Wall
time is a monotonic clock around the child; CPU time is the child's user + system time
(``os.wait4``), which a shared machine disturbs less.  Children run with bytecode
caching on, as an installed fracas does (pip writes ``.pyc`` files at install; the
unmeasured first run of each tree writes them into its ``src``), even when the
calling shell sets ``PYTHONDONTWRITEBYTECODE``; ``--no-bytecode`` measures the
other case, every module compiled from source in every run.  Medians are quoted, with the min
and max; the ratio is this tree's median over the other's.  Each tree validates its own
copy of the example.  Every run's exit code must be 0 (else the row says so).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).with_name("fracas")
FRACAS = [str(SCRIPT)] if SCRIPT.is_file() else [sys.executable, "-m", "fracas"]
EXAMPLE = "examples/age_of_dragons/claw_duel.yaml"


#: One example of each other rule set, validated too with ``--every-ruleset``.
OTHER_EXAMPLES = ("examples/one_ring/ambush.yaml", "examples/adnd/bottleneck.yaml",
                  "examples/battlesystem/chasm_bridge.yaml")
#: Whether ``commands`` includes :data:`OTHER_EXAMPLES`.
EVERY_RULESET = False


def commands(tree: Path) -> dict[str, list[str]]:
    """The commands timed, by label, for one tree."""
    timed = {
        'odds "9d6>=4"': ["odds", "9d6>=4"],
        "validate claw_duel.yaml": ["validate", str(tree / EXAMPLE)],
    }
    if EVERY_RULESET:
        timed.update({f"validate {Path(example).name}": ["validate", str(tree / example)]
                      for example in OTHER_EXAMPLES})
    timed["--help"] = ["--help"]
    return timed


#: Whether children may write and read ``__pycache__`` (as an installed fracas does).
BYTECODE = True


def once(tree: Path, args: list[str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and exit code of one ``fracas ARGS``."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"), COLUMNS="100")
    env.pop("FRACAS_DEBUG", None)
    if BYTECODE:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PYTHONPYCACHEPREFIX"] = "/nonexistent-fracas-pycache"
    started = time.perf_counter()
    child = subprocess.Popen([*FRACAS, *args], cwd="/", env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, child.returncode


def _stats(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def _span(figures: dict[str, float]) -> str:
    return f"{figures['median']:.3f} ({figures['min']:.3f}-{figures['max']:.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", action="append", default=[], metavar="NAME=PATH",
                        help="an old source tree to compare with (repeatable)")
    parser.add_argument("--runs", type=int, default=15, help="runs per command and tree")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="compile every module from source each run (no __pycache__)")
    parser.add_argument("--every-ruleset", action="store_true",
                        help="also validate an example of each other rule set")
    args = parser.parse_args()
    global BYTECODE, EVERY_RULESET
    BYTECODE = not args.no_bytecode
    EVERY_RULESET = args.every_ruleset
    load_before = os.getloadavg()[0]
    trees = {"this": ROOT}
    for spec in args.tree:
        name, _, path = spec.partition("=")
        trees[name] = Path(path).resolve()
    rows: list[dict[str, Any]] = []
    for label in commands(ROOT):
        walls: dict[str, list[float]] = {name: [] for name in trees}
        cpus: dict[str, list[float]] = {name: [] for name in trees}
        failed: dict[str, int] = dict.fromkeys(trees, 0)
        for tree in trees.values():  # one unmeasured run each: the disk cache
            once(tree, commands(tree)[label])
        for _ in range(args.runs):
            for name, tree in trees.items():
                wall, cpu, code = once(tree, commands(tree)[label])
                walls[name].append(wall)
                cpus[name].append(cpu)
                failed[name] += code != 0
        for name in trees:
            rows.append({"command": label, "tree": name, "runs": args.runs,
                         "failed": failed[name], "wall": _stats(walls[name]),
                         "cpu": _stats(cpus[name])})
    mine = {row["command"]: row for row in rows if row["tree"] == "this"}
    print(f"{'command':<30}{'tree':<10}{'wall median (min-max) s':<26}"
          f"{'cpu median (min-max) s':<26}{'this/tree (cpu)':>15}")
    for row in rows:
        wall, cpu = row["wall"], row["cpu"]
        ratio = mine[row["command"]]["cpu"]["median"] / cpu["median"]
        note = f"  ({row['failed']} runs failed)" if row["failed"] else ""
        print(f"{row['command']:<30}{row['tree']:<10}"
              f"{_span(wall):<26}{_span(cpu):<26}{ratio:>14.2f}x{note}")
    load_after = os.getloadavg()[0]
    print(f"load average (1 min): {load_before:.1f} before, {load_after:.1f} after")
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
