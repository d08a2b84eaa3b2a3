"""Simulation and exact-odds benchmarks, measured side by side in one run.

Usage::

    .venv/bin/python benchmarks/sim_bench.py [--quick] [--skip-exact] [--only PART]
                                             [--json FILE]

Reports, on ``examples/age_of_dragons/claw_duel.yaml`` (two dragons, Soma 9, PD 0,
PR 20, both playing ``claw_all``) unless said otherwise:

1. fights per second with 1 and 2 local workers, and the scaling ratio;
2. the engine against a hand-written loop of the same duel (and a check that
   both give the same win rate);
3. the time of ``odds duel`` against the simulation time needed for the same
   precision (on the full duel and on a small one);
4. peak memory (resident set size) of whole runs of 10,000 and 100,000 fights.

Timings alternate between the variants being compared and report medians of
several repetitions, because the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fracas.odds import DuelLimits, solve_duel
from fracas.scenario import load_scenario
from fracas.sim import InlineExecutor, LocalExecutor, simulate, spec_from_scenario

ROOT = Path(__file__).resolve().parent.parent
CLAW = ROOT / "examples" / "age_of_dragons" / "claw_duel.yaml"
SMALL = ROOT / "tests" / "odds" / "data" / "claw_duel_small.yaml"


def _median_times(variants: dict[str, Callable[[], Any]], repeats: int) -> dict[str, float]:
    """Median wall time of each variant, run alternately ``repeats`` times."""
    times: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(repeats):
        for name, run in variants.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def scaling(runs: int, repeats: int) -> dict[str, Any]:
    """Fights per second with one and two local workers."""
    spec = spec_from_scenario(load_scenario(CLAW))
    two = LocalExecutor(2)
    simulate(spec, 200, 0, two)  # start the worker processes before timing
    try:
        medians = _median_times({
            "1 worker": lambda: simulate(spec, runs, 1, LocalExecutor(1)),
            "2 workers": lambda: simulate(spec, runs, 1, two),
        }, repeats)
    finally:
        two.close()
    fps = {name: runs / seconds for name, seconds in medians.items()}
    return {"runs": runs, "repeats": repeats, "fights_per_second": fps,
            "scaling_ratio": fps["2 workers"] / fps["1 worker"]}


def hand_written_claw_duel(runs: int, seed: int, soma: int = 9, pr: int = 20) -> int:
    """The claw duel written directly: returns how many fights the first striker won.

    Each turn the actor rolls ``soma`` d6 and every die showing 4+ is one point of
    damage (PD 0, no TN modifier); the first dragon at 0 PR or below is down and the
    fight ends.  Dice come from ``random.Random`` as in ``SeededRng``.
    """
    wins = 0
    for i in range(runs):
        r = random.Random(seed * 1_000_003 + i).random
        health = [pr, pr]
        actor = 0
        while True:
            hits = 0
            for _ in range(soma):
                if int(r() * 6) + 1 >= 4:
                    hits += 1
            foe = 1 - actor
            health[foe] -= hits
            if health[foe] <= 0:
                wins += actor == 0
                break
            actor = foe
    return wins


def engine_vs_hand(runs: int, repeats: int) -> dict[str, Any]:
    """The engine (one worker, whole runner) against the hand-written loop."""
    spec = spec_from_scenario(load_scenario(CLAW))
    outcome: dict[str, Any] = {}

    def engine() -> None:
        result = simulate(spec, runs, 3, InlineExecutor())
        outcome["engine"] = result.summary.wins.get("red", 0)

    def hand() -> None:
        outcome["hand"] = hand_written_claw_duel(runs, 3)

    medians = _median_times({"engine": engine, "hand-written": hand}, repeats)
    fps = {name: runs / seconds for name, seconds in medians.items()}
    p_engine, p_hand = outcome["engine"] / runs, outcome["hand"] / runs
    se = math.sqrt(p_engine * (1 - p_engine) / runs + p_hand * (1 - p_hand) / runs)
    return {"runs": runs, "repeats": repeats, "fights_per_second": fps,
            "engine_over_hand": fps["engine"] / fps["hand-written"],
            "red_win_rate": {"engine": p_engine, "hand-written": p_hand},
            "difference_in_standard_errors": abs(p_engine - p_hand) / se if se else 0.0}


def exact_vs_simulation(path: Path, sim_runs: int) -> dict[str, Any]:
    """``odds duel`` time against the simulation time for a given precision."""
    scenario = load_scenario(path)
    started = time.perf_counter()
    exact = solve_duel(scenario, limits=DuelLimits(max_states=1_000_000, max_leaves=50_000_000))
    exact_seconds = time.perf_counter() - started
    with LocalExecutor(2) as two:
        result = simulate(spec_from_scenario(scenario), sim_runs, 5, two)
    fps = sim_runs / result.seconds
    p = exact.sides["red"]
    observed = result.summary.wins.get("red", 0) / sim_runs
    needed = {}
    for half_width in (0.01, 0.001, 0.0001):
        n = math.ceil((1.959963984540054 / half_width) ** 2 * p * (1 - p))
        needed[f"+-{half_width:g}"] = {"fights": n, "seconds_at_2_workers": n / fps}
    return {
        "scenario": str(path.relative_to(ROOT)),
        "exact": {"red": p, "blue": exact.sides["blue"], "states": exact.states,
                  "resolutions": exact.leaves, "seconds": exact_seconds},
        "simulation": {"runs": sim_runs, "red_win_rate": observed, "seconds": result.seconds,
                       "fights_per_second": fps,
                       "difference_in_standard_errors":
                           abs(observed - p) / math.sqrt(p * (1 - p) / sim_runs)},
        "simulation_needed_for_95pct_half_width": needed,
    }


_MEMORY_PROBE = """
import resource, sys
from fracas.scenario import load_scenario
from fracas.sim import LocalExecutor, simulate, spec_from_scenario
spec = spec_from_scenario(load_scenario(sys.argv[1]))
with LocalExecutor(int(sys.argv[3])) as ex:
    simulate(spec, int(sys.argv[2]), 0, ex)
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(own, workers)
"""


def peak_memory(sizes: list[int], workers: int) -> dict[str, Any]:
    """Peak resident memory of a whole ``simulate`` run, in a fresh process per size."""
    out: dict[str, Any] = {}
    for runs in sizes:
        done = subprocess.run([sys.executable, "-c", _MEMORY_PROBE, str(CLAW), str(runs),
                               str(workers)], check=True, capture_output=True, text=True)
        own, child = (int(x) for x in done.stdout.split())
        out[str(runs)] = {"main_process_mib": own / 1024, "largest_worker_mib": child / 1024}
    return {"workers": workers, "peak_rss": out}


def main() -> None:
    """Run every benchmark and print (or write) one JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small runs, to check the script")
    parser.add_argument("--skip-exact", action="store_true", help="skip the full exact duel")
    parser.add_argument("--json", type=Path, help="also write the report to this file")
    parser.add_argument("--only", choices=["scaling", "engine", "exact", "memory"],
                        action="append", help="run only these parts (repeatable)")
    args = parser.parse_args()
    parts = set(args.only or ["scaling", "engine", "exact", "memory"])
    scale = 10 if args.quick else 1
    report: dict[str, Any] = {"machine_note": "2 shared cores; other jobs were running"}

    def record(name: str, value: dict[str, Any]) -> None:
        report[name] = value
        print(json.dumps({name: value}, indent=2), flush=True)

    if "scaling" in parts:
        record("scaling", scaling(20_000 // scale, 3))
    if "engine" in parts:
        record("engine_vs_hand", engine_vs_hand(20_000 // scale, 3))
    if "exact" in parts:
        record("exact_small", exact_vs_simulation(SMALL, 40_000 // scale))
        if not args.skip_exact:
            record("exact_full", exact_vs_simulation(CLAW, 40_000 // scale))
    if "memory" in parts:
        record("memory", peak_memory([10_000 // scale, 100_000 // scale], 2))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")

if __name__ == "__main__":
    main()
