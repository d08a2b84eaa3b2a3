"""Monte Carlo runs: many seeded fights of one scenario, summarised.

The fights themselves (what a worker plays, and how each is seeded) are in
:mod:`fracas.sim.fights`; this module splits a run into chunks, sends them to an
executor (:mod:`fracas.sim.executors`) and merges what comes back.  The names of
:mod:`fracas.sim.fights` are re-exported here, where they were first defined.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from fracas.sim.executors import Executor, LocalExecutor
from fracas.sim.fights import (
    DEFAULT_MAX_DECISIONS,
    FightSpec,
    SimulationError,
    prepare,
    run_chunk,
    spec_from_log,
    spec_from_scenario,
)
from fracas.sim.stats import ChunkSummary, histogram_mean, histogram_median, wilson_interval

__all__ = [
    "DEFAULT_MAX_DECISIONS",
    "FightSpec",
    "SimulationError",
    "SimulationResult",
    "chunk_ranges",
    "run_chunk",
    "simulate",
    "simulate_many",
    "spec_from_log",
    "spec_from_scenario",
]

#: Fights per simulation at most (a billion: about a day on one machine).
MAX_RUNS = 10**9


def chunk_ranges(runs: int, workers: int, chunk_size: int | None = None) -> list[tuple[int, int]]:
    """Split fight indices ``0..runs-1`` into contiguous chunks.

    By default about eight chunks per worker (for an even load and a live progress
    bar), each between 1 and 2,500 fights.
    """
    if runs <= 0:
        return []
    if chunk_size is None:
        chunk_size = max(1, min(2_500, -(-runs // (max(1, workers) * 8))))
    return [(a, min(runs, a + chunk_size)) for a in range(0, runs, chunk_size)]


# --------------------------------------------------------------------------- results
@dataclass(frozen=True, slots=True)
class SimulationResult:
    """The merged summary of a run, with what is needed to report it."""

    spec: FightSpec
    runs: int
    seed: int
    summary: ChunkSummary
    sides: tuple[str, ...]
    combatants: tuple[tuple[str, str], ...]
    seconds: float
    workers: int
    executor: str

    def win_rate(self, side: str) -> tuple[float, tuple[float, float]]:
        """The share of fights ``side`` won and its 95% Wilson interval."""
        wins = self.summary.wins.get(side, 0)
        n = self.summary.fights
        return (wins / n if n else 0.0), wilson_interval(wins, n)

    def to_json(self, timing: bool = True) -> dict[str, Any]:
        """The report as one JSON-ready object (``timing=False`` drops wall-clock figures)."""
        s, n = self.summary, self.summary.fights
        sides = {}
        for side in self.sides:
            rate, (low, high) = self.win_rate(side)
            sides[side] = {"wins": s.wins.get(side, 0), "win_rate": rate, "ci95": [low, high]}
        combatants = {}
        for name, side in self.combatants:
            kept = s.survived.get(name, 0)
            low, high = wilson_interval(kept, n)
            hist = s.health.get(name, {})
            combatants[name] = {
                "side": side,
                "survival_rate": kept / n if n else 0.0,
                "survival_ci95": [low, high],
                "mean_health_left": histogram_mean(hist),
                "health_histogram": {f"{h:g}": c for h, c in sorted(hist.items())},
            }
        report: dict[str, Any] = {
            "scenario": self.spec.source,
            "ruleset": self.spec.ruleset,
            "continued_from_log": bool(self.spec.events),
            "runs": self.runs,
            "seed": self.seed,
            "sides": sides,
            "draws": s.draws,
            "draw_rate": s.draws / n if n else 0.0,
            "unfinished": s.unfinished,
            "rounds": {
                "mean": histogram_mean(s.rounds),
                "median": histogram_median(s.rounds),
                "histogram": {str(r): c for r, c in sorted(s.rounds.items())},
            },
            "combatants": combatants,
        }
        if timing:
            report["seconds"] = self.seconds
            report["fights_per_second"] = n / self.seconds if self.seconds > 0 else 0.0
            report["workers"] = self.workers
            report["executor"] = self.executor
        return report


def _roster(spec: FightSpec) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    prepared = prepare(spec)
    standings = prepared.ruleset.standings(prepared.state)
    sides = tuple(dict.fromkeys(s.side for s in standings))
    return sides, tuple((s.name, s.side) for s in standings)


def simulate_many(
    specs: Sequence[FightSpec], runs: int, seed: int, executor: Executor,
    progress: Callable[[int], None] | None = None,
) -> list[SimulationResult]:
    """Run ``runs`` fights of every spec on one executor (a sweep submits one grid).

    Every spec uses the same fight seeds, so variants are compared on common dice
    (common random numbers), which makes differences between them less noisy.

    Args:
        specs: what to simulate.
        runs: fights per spec.
        seed: the run's seed.
        executor: where the chunks run (see :mod:`fracas.sim.executors`).
        progress: called with the number of fights just finished, as chunks complete.
    """
    if not 1 <= runs <= MAX_RUNS:
        raise SimulationError(f"the number of runs must be from 1 to {MAX_RUNS:,}, got {runs}")
    rosters = [_roster(spec) for spec in specs]  # fails early, in this process, on bad input
    ranges = chunk_ranges(runs, executor.workers)
    tasks = [(k, spec, seed, a, b) for k, spec in enumerate(specs) for a, b in ranges]
    totals = [ChunkSummary() for _ in specs]
    started = time.perf_counter()
    for k, part in _completed(executor, tasks):
        totals[k].merge(part)
        if progress is not None:
            progress(part.fights)
    seconds = time.perf_counter() - started
    return [SimulationResult(spec, runs, seed, total, sides, roster, seconds,
                             executor.workers, executor.name)
            for spec, total, (sides, roster) in zip(specs, totals, rosters, strict=True)]


_Labelled = tuple[int, FightSpec, int, int, int]


def _completed(executor: Executor,
               tasks: list[_Labelled]) -> Iterator[tuple[int, ChunkSummary]]:
    labels = [t[0] for t in tasks]
    for index, part in executor.run_chunks([t[1:] for t in tasks]):
        yield labels[index], part


def simulate(
    spec: FightSpec, runs: int, seed: int = 0, executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Run ``runs`` seeded fights of ``spec`` and summarise them.

    Args:
        spec: what to simulate (:func:`spec_from_scenario`, :func:`spec_from_log`).
        runs: how many fights.
        seed: the run's seed; the same seed gives the same report on any executor.
        executor: defaults to local worker processes, one per core.
        progress: called with the number of fights just finished.
    """
    if executor is None:
        with LocalExecutor() as local:
            return simulate_many([spec], runs, seed, local, progress)[0]
    return simulate_many([spec], runs, seed, executor, progress)[0]

