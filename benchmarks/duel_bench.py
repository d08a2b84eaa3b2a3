"""Benchmark: the exact duel solver before and after explicit chance (issue 11), side by side.

Each measurement runs in a fresh child process (``PYTHONPATH`` picks the old or the new
source tree) and reports the CPU seconds of the solve alone (``time.process_time``: less
disturbed by the other jobs of this shared machine than wall time), the wall seconds, the
value found, and the states and resolutions the solver went through.

Cases:

* the claw duel (``examples/age_of_dragons/claw_duel.yaml``) and its small copy
  (``tests/odds/data/claw_duel_small.yaml``), old solver and new;
* the new solver with other face classes for the claw_all pools, to show what each part
  buys: ``three`` reads them as 1-3 / 4-5 / 6 (55 outcomes per 9d6), ``distinct`` keeps
  every face apart (2,002; only on the small duel, where it is 126);
* with ``--examples``, every example of every rule set and the one-against-one copies
  in ``tests/odds/data/*_single.yaml``, new solver, ``--max-seconds`` each (solved, or
  refused with its message); ``--only-examples`` skips the claw duel cases.

    .venv/bin/python benchmarks/duel_bench.py [--before /tmp/fracas-before] [--skip-old-full]
        [--examples | --only-examples] [--max-seconds 60]

``--tree TREE`` with the examples solves each of them with the solver of another source
tree too, just before this one's (the two rows side by side)::

    .venv/bin/python benchmarks/duel_bench.py --only-examples --max-seconds 120 \
        --tree /work/trees/34116c0 [--only ledge_sentry,wall_duel]

``--compare TREE`` instead times the new solver on the full claw duel against the
solver of another source tree (both new-style: ``TREE`` must have ``fracas.odds.duel``
with face classes), alternating the two ``--repeat`` times (3 by default), with the
face classes of ``--mode`` (``three`` by default), and prints the median CPU seconds
of each and whether the values agree to 1e-15::

    git archive <commit> src | tar -x -C /tmp/solver-before
    .venv/bin/python benchmarks/duel_bench.py --compare /tmp/solver-before

The old solver needs about two to three minutes of CPU for the full claw duel.
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
CLAW = ROOT / "examples" / "age_of_dragons" / "claw_duel.yaml"
SMALL = ROOT / "tests" / "odds" / "data" / "claw_duel_small.yaml"


def _patch_classes(mode: str) -> None:
    """In the child: read claw_all pools as ``three`` classes, or every face ``distinct``."""
    if mode == "rule set":
        return
    from fracas.rules.age_of_dragons.ruleset import AgeOfDragons

    named = AgeOfDragons.face_classes

    def face_classes(self: Any, state: Any, count: int, sides: int) -> Any:
        classes = named(self, state, count, sides)
        pool = (state.order and state.turn is not None
                and not state.fighters[state.turn.actor].dying)
        if not pool or classes != ((1, 2, 3), (4, 5, 6)):
            return classes
        return ((1, 2, 3), (4, 5), (6,)) if mode == "three" else None

    AgeOfDragons.face_classes = face_classes  # type: ignore[method-assign]


def child(path: str, mode: str, max_seconds: float | None) -> None:
    """Solve one scenario and print one JSON line."""
    from fracas.core.errors import FracasError
    from fracas.odds import DuelLimits, solve_duel
    from fracas.scenario import load_scenario

    _patch_classes(mode)
    scenario = load_scenario(path)
    limits = DuelLimits(max_seconds=max_seconds)
    cpu, wall = time.process_time(), time.perf_counter()
    out: dict[str, Any]
    try:
        odds = solve_duel(scenario, limits=limits)
        out = {"sides": odds.sides, "draw": odds.draw, "states": odds.states,
               "leaves": odds.leaves}
    except FracasError as exc:
        out = {"error": str(exc)}
    out.update(cpu=time.process_time() - cpu, wall=time.perf_counter() - wall)
    print(json.dumps(out))


def run(tree: Path, path: Path, mode: str = "rule set",
        max_seconds: float | None = None) -> dict[str, Any]:
    """Measure one case in a child process on the source ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    args = [sys.executable, str(Path(__file__).resolve()), "--child", str(path), "--mode", mode]
    if max_seconds is not None:
        args += ["--max-seconds", str(max_seconds)]
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=False,
                          cwd="/tmp")
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return {"error": (done.stderr.strip().splitlines() or ["no output"])[-1],
                "cpu": float("nan"), "wall": float("nan")}
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def row(name: str, tree: str, mode: str, r: dict[str, Any]) -> str:
    if "error" in r:
        value = "refused: " + r["error"][:150]
        counts = "-"
    else:
        first = next(iter(r["sides"]))
        value = f"{first} {r['sides'][first]!r}"
        counts = f"{r['states']:,} / {r['leaves']:,}"
    return f"| {name} | {tree} | {mode} | {r['cpu']:.2f} | {r['wall']:.1f} | {counts} | {value} |"


def compare(before: Path, mode: str, repeat: int) -> None:
    """Alternate the claw duel on ``before`` and on this tree; medians and the values."""
    runs: dict[str, list[dict[str, Any]]] = {"before": [], "new": []}
    for i in range(repeat):
        for label, tree in (("before", before), ("new", ROOT)):
            r = run(tree, CLAW, mode)
            runs[label].append(r)
            shown = r.get("error") or f"red {r['sides']['red']!r}, {r['states']:,} states, " \
                f"{r['leaves']:,} resolutions"
            print(f"run {i + 1} {label:6} {r['cpu']:.2f} s CPU  {shown}", flush=True)
    medians = {label: statistics.median(r["cpu"] for r in rs) for label, rs in runs.items()}
    values = {label: [r["sides"]["red"] for r in rs if "sides" in r]
              for label, rs in runs.items()}
    agree = all(abs(a - b) <= 1e-15 for a in values["before"] for b in values["new"])
    print(f"claw_duel, classes {mode!r}: median CPU s before {medians['before']:.2f}, "
          f"new {medians['new']:.2f}; values {'equal to 1e-15' if agree else 'DIFFER'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", type=Path, default=Path("/tmp/fracas-before"),
                        help="the old source tree, a worktree of the old commit "
                             "(default /tmp/fracas-before)")
    parser.add_argument("--skip-old-full", action="store_true",
                        help="do not run the old solver on the full claw duel (minutes)")
    parser.add_argument("--examples", action="store_true",
                        help="also solve every example with the new solver")
    parser.add_argument("--only-examples", action="store_true",
                        help="only the examples (not the claw duel cases)")
    parser.add_argument("--max-seconds", type=float, default=60.0,
                        help="time limit of each example (default 60)")
    parser.add_argument("--compare", type=Path, metavar="TREE",
                        help="time the claw duel against the solver of another source tree, "
                             "alternating (see --repeat, --mode)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each tree with --compare (default 3)")
    parser.add_argument("--tree", type=Path, metavar="TREE",
                        help="with --examples/--only-examples: also solve each example with "
                             "the solver of another source tree, just before this tree's")
    parser.add_argument("--only", metavar="NAMES",
                        help="with the examples: only these, by file name without .yaml, "
                             "comma-separated (say ledge_sentry,wall_duel)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--mode", default=None,
                        help="face classes of the claw_all pools: 'rule set', 'three' or "
                             "'distinct' (with --compare; default 'three')")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.mode or "rule set",
              args.max_seconds if "--max-seconds" in sys.argv else None)
        return
    if args.compare:
        compare(args.compare, args.mode or "three", max(1, args.repeat))
        return
    print("| case | tree | pool classes | CPU s | wall s | states / resolutions | value |")
    print("|---|---|---|---|---|---|---|")
    cases = [("claw_duel_small", SMALL, args.before, "old", "sorted faces"),
             ("claw_duel_small", SMALL, ROOT, "new", "distinct"),
             ("claw_duel_small", SMALL, ROOT, "new", "three"),
             ("claw_duel_small", SMALL, ROOT, "new", "rule set"),
             ("claw_duel", CLAW, ROOT, "new", "three"),
             ("claw_duel", CLAW, ROOT, "new", "rule set")]
    if not args.skip_old_full:
        cases.insert(4, ("claw_duel", CLAW, args.before, "old", "sorted faces"))
    for name, path, tree, label, mode in [] if args.only_examples else cases:
        r = run(tree, path, "rule set" if label == "old" else mode)
        print(row(name, label, mode, r), flush=True)
    if args.examples or args.only_examples:
        singles = sorted((ROOT / "tests" / "odds" / "data").glob("*_single.yaml"))
        wanted = None if args.only is None else set(args.only.split(","))
        for path in [*sorted((ROOT / "examples").glob("*/*.yaml")), *singles]:
            if wanted is not None and path.stem not in wanted:
                continue
            name = f"{path.parent.name}/{path.stem}"
            if args.tree is not None:
                r = run(args.tree.resolve(), path, max_seconds=args.max_seconds)
                print(row(name, str(args.tree), "rule set", r), flush=True)
            r = run(ROOT, path, max_seconds=args.max_seconds)
            print(row(name, "new", "rule set", r), flush=True)


if __name__ == "__main__":
    main()
