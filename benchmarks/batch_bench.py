"""Benchmark: Monte Carlo through the engine vs the batch path, side by side.

For each duel, the engine (``fracas.sim.fights.run_chunk``, what ``fracas simulate``
workers run) and the batch path (``fracas.sim.batch.run_chunk_batch``, what ``fracas
simulate --batch`` runs) play fights of the same run, alternating over several rounds in
one process pinned to one core; CPU seconds per side, medians and the median of the
per-round ratios are quoted.  Before timing, both play the same fights and their
summaries must be equal (the batch path plays the engine's fights, fight for fight).

The duels: ``examples/age_of_dragons/claw_duel.yaml`` (both ``claw_all``) and variants
of it on the ground with the heuristic (one with Physical Defence to spend, one starting
at long range, one heuristic against ``claw_all``).

    .venv/bin/python benchmarks/batch_bench.py [--engine-fights 1500] [--batch-fights 65536]
        [--rounds 5] [--core 0] [--duel claw_duel ...]
"""

from __future__ import annotations

import argparse
import copy
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from fracas.scenario import parse_scenario
from fracas.sim.batch import batch_refusal, run_chunk_batch
from fracas.sim.fights import FightSpec, run_chunk
from fracas.sim.runner import spec_from_scenario

CLAW_DUEL = Path(__file__).resolve().parent.parent / "examples" / "age_of_dragons" / \
    "claw_duel.yaml"


def _variant(change: Callable[[dict[str, Any]], None]) -> Callable[[], FightSpec]:
    def make() -> FightSpec:
        data = yaml.safe_load(CLAW_DUEL.read_text())
        data = copy.deepcopy(data)
        change(data)
        return spec_from_scenario(parse_scenario(yaml.safe_dump(data), str(CLAW_DUEL)))
    return make


def _ground(data: dict[str, Any], pd: int = 0, policies: tuple[str, str] = (
        "heuristic", "heuristic"), band: str = "close") -> None:
    for fighter, policy in zip(data["combatants"], policies, strict=True):
        fighter.update(altitude="grounded", policy=policy, pd=pd)
    data["ranges"][0]["range"] = band


DUELS: dict[str, Callable[[], FightSpec]] = {
    "claw_duel": _variant(lambda d: None),
    "heuristic_ground": _variant(lambda d: _ground(d, pd=2)),
    "heuristic_ground_long": _variant(lambda d: _ground(d, pd=2, band="long")),
    "heuristic_vs_claw_all": _variant(lambda d: _ground(d, pd=1,
                                                        policies=("heuristic", "claw_all"))),
}


def _cpu(play: Callable[[FightSpec, int, int, int], object], spec: FightSpec, seed: int,
         fights: int) -> float:
    start = time.process_time()
    play(spec, seed, 0, fights)
    return time.process_time() - start


def bench(name: str, engine_fights: int, batch_fights: int, rounds: int) -> dict[str, float]:
    """Fights per CPU second of both paths on one duel (medians over ``rounds``)."""
    spec = DUELS[name]()
    why = batch_refusal(spec)
    if why is not None:
        raise SystemExit(f"{name}: the batch path refuses it: {why}")
    check = min(engine_fights, 500)
    if run_chunk(spec, 1, 0, check) != run_chunk_batch(spec, 1, 0, check):
        raise SystemExit(f"{name}: the two paths disagree on the first {check} fights")
    run_chunk_batch(spec, 0, 0, 256)  # warm up (first imports, caches)
    engine, batch, ratios = [], [], []
    for r in range(rounds):
        seed = 1000 + r
        e = engine_fights / _cpu(run_chunk, spec, seed, engine_fights)
        b = batch_fights / _cpu(run_chunk_batch, spec, seed, batch_fights)
        engine.append(e)
        batch.append(b)
        ratios.append(b / e)
    return {"engine": statistics.median(engine), "batch": statistics.median(batch),
            "ratio": statistics.median(ratios), "low": min(ratios), "high": max(ratios)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine-fights", type=int, default=1500)
    parser.add_argument("--batch-fights", type=int, default=65536)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--core", type=int, default=0,
                        help="the core to pin this process to (-1: do not pin)")
    parser.add_argument("--duel", action="append", choices=sorted(DUELS),
                        help="a duel to time (repeatable; default: all)")
    args = parser.parse_args()
    if args.core >= 0 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.core})
    print(f"{'duel':<24} {'engine fights/s':>16} {'batch fights/s':>16} "
          f"{'ratio (median)':>15} {'ratio range':>14}")
    for name in args.duel or list(DUELS):
        fig = bench(name, args.engine_fights, args.batch_fights, args.rounds)
        print(f"{name:<24} {fig['engine']:>16,.0f} {fig['batch']:>16,.0f} "
              f"{fig['ratio']:>15.1f} {fig['low']:>6.1f}-{fig['high']:<7.1f}", flush=True)


if __name__ == "__main__":
    main()
