"""Monte Carlo runs: many seeded fights of one scenario, summarised.

The fights themselves (what a worker plays, and how each is seeded) are in
:mod:`fracas.sim.fights`; this module splits a run into chunks, sends them to an
executor (:mod:`fracas.sim.executors`) and merges what comes back.  The names of
:mod:`fracas.sim.fights` are re-exported here, where they were first defined.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fracas.core.presentation import wins
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
from fracas.sim.stats import (
    ChunkSummary,
    half_width,
    histogram_mean,
    histogram_median,
    joint_outcomes,
    paired_difference,
    unpaired_difference,
    wilson_interval,
)

__all__ = [
    "DEFAULT_MAX_DECISIONS",
    "FightSpec",
    "Rate",
    "SimulationError",
    "SimulationResult",
    "chunk_ranges",
    "next_round",
    "run_chunk",
    "simulate",
    "simulate_many",
    "spec_from_log",
    "spec_from_scenario",
]

#: Fights per simulation at most (a billion: about a day on one machine).
MAX_RUNS = 10**9

Rate = tuple[str, float, tuple[float, float]]
"""A reported rate: what it measures, its value and its 95% interval."""


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
    #: Outcome pairs (this spec's, the first spec's) over the same fights, when the run
    #: played several specs and kept per-fight outcomes; None otherwise.
    paired: dict[tuple[str, str], int] | None = None
    #: The first spec's summary when this is a later spec of a sweep (None otherwise).
    baseline: ChunkSummary | None = None
    #: The precision asked (``--precision``), None when a fixed number of fights was asked.
    precision_asked: float | None = None

    def win_rate(self, side: str) -> tuple[float, tuple[float, float]]:
        """The share of fights ``side`` won and its 95% Wilson interval."""
        won = self.summary.wins.get(side, 0)
        n = self.summary.fights
        return (won / n if n else 0.0), wilson_interval(won, n)

    def difference(self, side: str) -> tuple[float, tuple[float, float], bool] | None:
        """This spec's win rate for ``side`` minus the first spec's, its 95% interval, and
        whether the interval is of the paired difference (the same fights under both specs)
        or, when per-fight outcomes were not kept, of independent samples.  None for the
        first spec itself."""
        base = self.baseline
        if base is None:
            return None
        if self.paired is not None:
            cells = [0, 0, 0, 0]  # both, only this, only the first, neither
            for (mine, theirs), count in self.paired.items():
                cells[(mine != side) * 2 + (theirs != side)] += count
            both, only_mine, only_first, neither = cells
            diff, interval = paired_difference(both, only_mine, only_first, neither)
            return diff, interval, True
        diff, interval = unpaired_difference(self.summary.wins.get(side, 0), self.summary.fights,
                                             base.wins.get(side, 0), base.fights)
        return diff, interval, False

    def rates(self) -> list[Rate]:
        """Every rate the report gives with an interval: wins of each side, draws,
        survival of each combatant and, in a sweep, the differences from the first variant.
        """
        s, n = self.summary, self.summary.fights
        out: list[Rate] = []
        for side in self.sides:
            rate, interval = self.win_rate(side)
            out.append((wins(side), rate, interval))
        out.append(("draws", s.draws / n if n else 0.0, wilson_interval(s.draws, n)))
        for name, _ in self.combatants:
            kept = s.survived.get(name, 0)
            out.append((f"{name} survives", kept / n if n else 0.0, wilson_interval(kept, n)))
        for side in self.sides:
            found = self.difference(side)
            if found is not None:
                out.append((f"{wins(side)}, difference from the first", found[0], found[1]))
        return out

    def precision(self) -> tuple[float, str]:
        """The half-width of the widest reported interval (the answer is within plus or
        minus this) and the rate it belongs to."""
        widest = (0.0, "")
        for label, rate, interval in self.rates():
            widest = max(widest, (half_width(rate, interval), label))
        return widest

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
        widest, which = self.precision()
        report["precision"] = {"half_width": widest, "widest": which,
                               "asked": self.precision_asked,
                               "reached": (None if self.precision_asked is None
                                           else widest <= self.precision_asked)}
        differences = {}
        for side in self.sides:
            found = self.difference(side)
            if found is not None:
                diff, (low, high), paired = found
                differences[side] = {"win_rate": diff, "ci95": [low, high], "paired": paired}
        if differences:
            report["difference_from_first"] = differences
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


def next_round(done: int, widest: float, precision: float, cap: int) -> int:
    """How many fights the next round of a ``--precision`` run should reach in all.

    An interval narrows as one over the square root of the fights, so ``done`` fights
    that gave ``widest`` need about ``done * (widest / precision)**2``; a tenth more is
    asked (the estimate is itself noisy), at least 100 more fights and at most sixteen
    times as many, rounded up to a hundred and kept within ``cap``.  It depends only on
    counts, so a seed gives the same rounds whatever the number of workers.

    >>> next_round(1000, 0.02, 0.01, 100_000)
    4400
    """
    needed = done * (widest / precision) ** 2 * 1.1
    target = max(done + 100, min(math.ceil(needed), done * 16))
    return min(cap, -(-target // 100) * 100)


def _slow(data: Any) -> bool:
    """Whether a scenario puts a seat on the search AI (seconds a fight, not milliseconds)."""
    if isinstance(data, Mapping):
        return any(_slow(v) for v in data.values())
    if isinstance(data, list | tuple):
        return any(_slow(v) for v in data)
    return bool(data == "search")


def simulate_many(
    specs: Sequence[FightSpec], runs: int, seed: int, executor: Executor,
    progress: Callable[[int], None] | None = None, *,
    precision: float | None = None, max_runs: int | None = None,
    on_round: Callable[[int], None] | None = None,
    watch: Callable[[Sequence[ChunkSummary]], None] | None = None,
) -> list[SimulationResult]:
    """Run ``runs`` fights of every spec on one executor (a sweep submits one grid).

    Every spec uses the same fight seeds, so variants are compared on common dice
    (common random numbers), and each later spec's result keeps how its outcomes paired
    with the first spec's fight by fight, for the interval of the difference.

    Args:
        specs: what to simulate.
        runs: fights per spec (with ``precision``: the first round's).
        seed: the run's seed.
        executor: where the chunks run (see :mod:`fracas.sim.executors`).
        progress: called with the number of fights just finished, as chunks complete.
        precision: play further rounds until every reported rate's 95% interval is
            within plus or minus this (:meth:`SimulationResult.precision`), or
            ``max_runs`` fights were played.  The fights of a round continue the fight
            indices, so the result is the one ``runs`` set to the final count gives.
        max_runs: the cap on fights per spec with ``precision`` (default ``MAX_RUNS``).
        on_round: called with the new total of fights per spec when a round starts.
        watch: called with the merged summaries (one per spec) after each chunk.
    """
    cap = MAX_RUNS if max_runs is None else max_runs
    if not 1 <= runs <= MAX_RUNS:
        raise SimulationError(f"the number of runs must be from 1 to {MAX_RUNS:,}, got {runs}")
    if precision is not None and not 0 < precision < 1:
        raise SimulationError(f"the precision must be between 0 and 1, got {precision}")
    if not 1 <= cap <= MAX_RUNS:
        raise SimulationError(f"the cap on fights must be from 1 to {MAX_RUNS:,}, got {cap}")
    rosters = [_roster(spec) for spec in specs]  # fails early, in this process, on bad input
    slow = any(_slow(spec.scenario) for spec in specs)
    totals = [ChunkSummary() for _ in specs]
    joints: list[dict[tuple[str, str], int] | None] = [{} for _ in specs]
    started = time.perf_counter()
    done, target = 0, (min(runs, cap) if precision is not None else runs)
    while True:
        ranges = [(done + a, done + b) for a, b in
                  chunk_ranges(target - done, executor.workers, 1 if slow else None)]
        tasks = [(k, spec, seed, a, b) for k, spec in enumerate(specs) for a, b in ranges]
        pending: dict[int, dict[int, ChunkSummary]] = {}
        for index, part in executor.run_chunks([t[1:] for t in tasks]):
            k, start = tasks[index][0], tasks[index][3]
            if len(specs) > 1:
                _pair(pending, len(specs), k, start, part, joints)
            totals[k].merge(part)
            if progress is not None:
                progress(part.fights)
            if watch is not None:
                watch(totals)
        done = target
        seconds = time.perf_counter() - started
        results = [SimulationResult(spec, done, seed, total, sides, roster, seconds,
                                    executor.workers, executor.name,
                                    paired=joint if k else None,
                                    baseline=totals[0] if k else None,
                                    precision_asked=precision)
                   for k, (spec, total, (sides, roster), joint)
                   in enumerate(zip(specs, totals, rosters, joints, strict=True))]
        if precision is None or done >= cap:
            return results
        widest = max(r.precision()[0] for r in results)
        if widest <= precision:
            return results
        target = next_round(done, widest, precision, cap)
        if on_round is not None:
            on_round(target)


def _pair(pending: dict[int, dict[int, ChunkSummary]], specs: int, k: int, start: int,
          part: ChunkSummary, joints: list[dict[tuple[str, str], int] | None]) -> None:
    """Keep ``part`` until every spec's chunk of the same fights is in, then count how
    each later spec's outcomes paired with the first's (dropping the per-fight outcomes)."""
    held = pending.setdefault(start, {})
    held[k] = part
    if len(held) < specs:
        return
    first = held[0]
    for j, other in held.items():
        joint = joints[j]
        if j == 0 or joint is None:
            continue
        if len(other.outcomes) != other.fights or len(first.outcomes) != first.fights:
            joints[j] = None  # a path that keeps no per-fight outcomes: compared unpaired
            continue
        for key, count in joint_outcomes(other, first).items():
            joint[key] = joint.get(key, 0) + count
    for chunk in held.values():
        chunk.outcomes, chunk.outcome_names = bytearray(), []
    del pending[start]


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

    The same seed gives the same report on any executor and any number of workers:

    >>> from fracas.scenario import load_scenario
    >>> from fracas.sim import InlineExecutor, spec_from_scenario
    >>> spec = spec_from_scenario(load_scenario("examples/age_of_dragons/claw_duel.yaml"))
    >>> result = simulate(spec, 200, seed=1, executor=InlineExecutor())
    >>> result.summary.wins, result.summary.draws
    ({'red': 148, 'blue': 52}, 0)
    >>> rate, (low, high) = result.win_rate("red")
    >>> rate, round(low, 3), round(high, 3)
    (0.74, 0.675, 0.796)
    """
    if executor is None:
        with LocalExecutor() as local:
            return simulate_many([spec], runs, seed, local, progress)[0]
    return simulate_many([spec], runs, seed, executor, progress)[0]

