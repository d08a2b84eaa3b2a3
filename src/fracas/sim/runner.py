"""Monte Carlo runs: many seeded fights of one scenario, summarised.

Fight ``i`` of a run with seed ``s`` has the *fight seed* ``derive_seed(s, i)`` and
is played exactly as ``fracas run SCENARIO --seed <fight seed>`` plays it (dice from
``SeededRng(fight seed)``, policies from its ``spawn("policy")`` stream), so the
fight is the same whichever worker plays it and any one of them can be replayed.
Workers receive a :class:`FightSpec` (plain data: rule-set name, scenario data,
optionally the events of a saved fight to continue from) and a range of fight
indices; they build the starting state once per process and send back a
:class:`~fracas.sim.stats.ChunkSummary`.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fracas.core.encounter import Encounter
from fracas.core.errors import FracasError
from fracas.core.events import DecisionMade, Event, decode_event, encode_event, read_log
from fracas.core.policy import HumanPolicy, Policy, scenario_policies
from fracas.core.rng import SeededRng, derive_seed
from fracas.core.ruleset import Ruleset, find_ruleset
from fracas.scenario import Scenario, build_initial_state
from fracas.sim.stats import (
    ChunkSummary,
    histogram_mean,
    histogram_median,
    wilson_interval,
)

if TYPE_CHECKING:
    from fracas.sim.executors import Executor

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

#: A fight still running after this many decisions is counted as unfinished.
DEFAULT_MAX_DECISIONS = 100_000


#: Fights per simulation at most (a billion: about a day on one machine).
MAX_RUNS = 10**9


class SimulationError(FracasError):
    """A simulation cannot run as asked (a human-played combatant, a finished fight, ...)."""

    exit_code = 2


@dataclass(frozen=True, slots=True)
class FightSpec:
    """Everything a worker needs to play fights of one scenario, as plain picklable data.

    Attributes:
        ruleset: the registered rule-set name.
        scenario: the scenario data (as in the YAML file) or a saved log's header data.
        source: where it came from, for messages.
        events: encoded events of a saved fight to continue from (empty: a fresh fight).
        module: the module defining the rule set's class, imported by workers first so
            that rule sets registered by hand (tests, plug-ins) are found there too.
        max_decisions: decision limit per fight.
        key: a digest of the above, used to cache the prepared state in each worker.
    """

    ruleset: str
    scenario: Mapping[str, Any]
    source: str = "<scenario>"
    events: tuple[Mapping[str, Any], ...] = ()
    module: str = ""
    max_decisions: int = DEFAULT_MAX_DECISIONS
    key: str = field(default="", compare=False)

    @staticmethod
    def make(ruleset: Ruleset[Any], scenario: Mapping[str, Any], source: str,
             events: Sequence[Mapping[str, Any]] = (),
             max_decisions: int = DEFAULT_MAX_DECISIONS) -> FightSpec:
        """Build a spec and its cache key."""
        text = json.dumps([ruleset.name, scenario, list(events)], sort_keys=True, default=str)
        key = hashlib.sha1(text.encode()).hexdigest()
        return FightSpec(ruleset.name, dict(scenario), source, tuple(events),
                         type(ruleset).__module__, max_decisions, key)


def spec_from_scenario(scenario: Scenario,
                       max_decisions: int = DEFAULT_MAX_DECISIONS) -> FightSpec:
    """A spec for fresh fights of a loaded scenario."""
    data = scenario.model.model_dump(mode="json")
    return FightSpec.make(scenario.ruleset, data, scenario.source, (), max_decisions)


def spec_from_log(path: str | Path, from_round: int | None = None,
                  max_decisions: int = DEFAULT_MAX_DECISIONS) -> FightSpec:
    """A spec for continuations of a saved fight.

    Args:
        path: a JSON-lines log written by ``fracas run --save`` or ``fracas play --save``.
        from_round: continue from the first decision of this round (the log is cut
            there); ``None`` continues from where the log ends.
        max_decisions: decision limit per continuation.

    Raises:
        SimulationError: the fight is already over at the chosen point.
    """
    if from_round is not None and from_round < 1:
        raise SimulationError(f"--round must be 1 or more, got {from_round}")
    header, lines = read_log(path)
    ruleset = find_ruleset(header.ruleset)
    initial = build_initial_state(ruleset, header.scenario, source=str(path))
    enc = Encounter(ruleset, initial, start=False)  # a log is untrusted: checked event by event
    kept: list[Mapping[str, Any]] = []
    for number, data in lines:
        event = decode_event(data, ruleset, f"{path}:{number}: ")
        if (from_round is not None and isinstance(event, DecisionMade)
                and ruleset.round_number(enc.state) >= from_round):
            break
        enc.emit_checked(event, f"{path}:{number}")
        kept.append(encode_event(event))
    state = enc.state
    if ruleset.current_actor(state) is None:
        where = f"at round {from_round}" if from_round is not None else "at the end of the log"
        raise SimulationError(f"{path}: the fight is already over {where}; nothing to simulate")
    return FightSpec.make(ruleset, header.scenario, str(path), kept, max_decisions)


# --------------------------------------------------------------------------- workers
@dataclass(slots=True)
class _Prepared:
    ruleset: Ruleset[Any]
    state: Any
    fresh: bool


_PREPARED: dict[str, _Prepared] = {}


def _prepare(spec: FightSpec) -> _Prepared:
    """The spec's starting state, built once per process and cached by the spec's key."""
    cached = _PREPARED.get(spec.key) if spec.key else None
    if cached is not None:
        return cached
    if spec.module:
        # An entry-point rule set is found by name below even if this fails.
        with contextlib.suppress(ImportError):
            importlib.import_module(spec.module)
    ruleset = find_ruleset(spec.ruleset)
    state = build_initial_state(ruleset, spec.scenario, spec.source)
    if spec.events:
        events: list[Event] = [decode_event(dict(data), ruleset, f"{spec.source}: ")
                               for data in spec.events]
        state = Encounter.replay(ruleset, state, events).state
    prepared = _Prepared(ruleset, state, not spec.events)
    if len(_PREPARED) >= 16:
        _PREPARED.clear()
    if spec.key:
        _PREPARED[spec.key] = prepared
    return prepared


def _refuse_humans(actor: str, policy: Policy) -> None:
    if isinstance(policy, HumanPolicy):
        raise SimulationError(
            f"{actor} is played by a human; give it a computer policy to simulate"
        )


def _policies(ruleset: Ruleset[Any], state: Any) -> Callable[[str], Policy]:
    return scenario_policies(ruleset, state, _refuse_humans)


def run_chunk(spec: FightSpec, seed: int, start: int, stop: int) -> ChunkSummary:
    """Play fights ``start .. stop-1`` of the run with ``seed`` and summarise them.

    This is the function the executors send to workers.
    """
    prepared = _prepare(spec)
    ruleset, initial = prepared.ruleset, prepared.state
    summary = ChunkSummary()
    wins, rounds, survived, health = summary.wins, summary.rounds, summary.survived, summary.health
    for s in ruleset.standings(initial):
        wins.setdefault(s.side, 0)
        survived.setdefault(s.name, 0)
        health.setdefault(s.name, {})
    for i in range(start, stop):
        fight_seed = derive_seed(seed, i)
        dice = SeededRng(fight_seed)
        try:
            enc = Encounter(ruleset, initial, rng=dice, keep_log=False, start=prepared.fresh)
            outcome = enc.play(_policies(ruleset, enc.state), dice.spawn("policy"),
                               max_decisions=spec.max_decisions)
        except SimulationError:
            raise
        except Exception as exc:
            # Re-raised as a plain message: it crosses process boundaries intact, and
            # says how to replay the fight that failed.
            raise SimulationError(
                f"fight {i} of the run (fight seed {fight_seed}) failed: "
                f"{type(exc).__name__}: {exc}; replay it with "
                f"'fracas run {spec.source} --seed {fight_seed}'"
            ) from exc
        summary.fights += 1
        if outcome is None:
            summary.unfinished += 1
        else:
            if outcome.winner is None:
                summary.draws += 1
            else:
                wins[outcome.winner] = wins.get(outcome.winner, 0) + 1
            rounds[outcome.rounds] = rounds.get(outcome.rounds, 0) + 1
        for s in ruleset.standings(enc.state):
            if s.standing:
                survived[s.name] = survived.get(s.name, 0) + 1
            hist = health.setdefault(s.name, {})
            hist[s.health] = hist.get(s.health, 0) + 1
    return summary


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
    prepared = _prepare(spec)
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
        from fracas.sim.executors import LocalExecutor

        with LocalExecutor() as local:
            return simulate_many([spec], runs, seed, local, progress)[0]
    return simulate_many([spec], runs, seed, executor, progress)[0]

