"""The batch path: many fights of one scenario played in lockstep as NumPy arrays.

``fracas simulate --batch`` and ``fracas sweep --batch`` hand their chunks to a
:class:`BatchExecutor`.  For a scenario the batch path accepts (:func:`batch_refusal`
says why it does not) it plays the fights with array code, the same fights the engine
plays under the same seeds: fight ``i`` of a run seeded ``s`` rolls the engine's stream
``SeededRng(derive_seed(s, i))`` (:mod:`.streams`) and follows the rule set's rules
restated over arrays (:mod:`.duel`), so the winner, the rounds and every combatant's
health and standing are those of ``fracas run SCENARIO --seed <fight seed>``.  Every
other scenario is played by the engine, through the executor it wraps.

Accepted today: Age of Dragons duels (see :func:`.duel.duel_shape` and "Batch path" in
docs/simulation.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from fracas.sim.batch.duel import Duel, DuelFights, duel_shape, play_duels
from fracas.sim.batch.streams import fight_seeds
from fracas.sim.executors import Executor
from fracas.sim.fights import FightSpec, prepare
from fracas.sim.stats import DRAW, ChunkSummary

__all__ = ["BLOCK", "BatchExecutor", "DuelFights", "batch_refusal", "play_batch",
           "run_chunk_batch"]

#: Fights played together at most (the generators' state is 2.5 kB a fight).
BLOCK = 16384


def _duel(spec: FightSpec) -> Duel | str:
    prepared = prepare(spec)
    return duel_shape(prepared.ruleset, prepared.state, prepared.fresh, spec.max_decisions)


def batch_refusal(spec: FightSpec) -> str | None:
    """Why the batch path cannot play ``spec`` exactly as the engine does (None: it can)."""
    shape = _duel(spec)
    return shape if isinstance(shape, str) else None


def play_batch(spec: FightSpec, seed: int, start: int, stop: int) -> DuelFights:
    """Fights ``start .. stop-1`` of the run seeded ``seed``, fight by fight.

    Raises:
        ValueError: the batch path does not play this scenario (:func:`batch_refusal`).
    """
    shape = _duel(spec)
    if isinstance(shape, str):
        raise ValueError(shape)
    return _play(shape, fight_seeds(seed, start, stop))


def _play(shape: Duel, seeds: npt.NDArray[np.uint64]) -> DuelFights:
    """One fight per seed, :data:`BLOCK` fights at a time."""
    parts = [play_duels(shape, seeds[a:a + BLOCK]) for a in range(0, len(seeds), BLOCK)]
    if len(parts) == 1:
        return parts[0]
    return DuelFights(*(np.concatenate([getattr(p, field) for p in parts])
                        for field in ("winner", "rounds", "pr", "dead", "stunned")))


def _summary(shape: Duel, fights: DuelFights, a: int, b: int) -> ChunkSummary:
    """The :class:`ChunkSummary` of fights ``a .. b-1`` of ``fights`` (as ``run_chunk``)."""
    summary = ChunkSummary(fights=b - a)
    winner = fights.winner[a:b]
    for k, side in enumerate(shape.sides):
        summary.wins[side] = int((winner == k).sum())
    summary.draws = int((winner == -1).sum())
    summary.outcome_names = [*shape.sides, DRAW]  # per fight, for paired sweep differences
    summary.outcomes = bytearray(np.where(winner < 0, len(shape.sides), winner).astype(np.uint8))
    values, counts = np.unique(fights.rounds[a:b], return_counts=True)
    summary.rounds = {int(v): int(c) for v, c in zip(values, counts, strict=True)}
    status = fights.status()[a:b]
    for k, name in enumerate(shape.names):
        summary.survived[name] = int((status[:, k] == "ok").sum())
        values, counts = np.unique(fights.pr[a:b, k], return_counts=True)
        summary.health[name] = {int(v): int(c) for v, c in zip(values, counts, strict=True)}
    return summary


def run_chunk_batch(spec: FightSpec, seed: int, start: int, stop: int) -> ChunkSummary:
    """What :func:`fracas.sim.fights.run_chunk` returns for these fights, by the batch path."""
    shape = _duel(spec)
    if isinstance(shape, str):
        raise ValueError(shape)
    return _summary(shape, play_batch(spec, seed, start, stop), 0, stop - start)


Task = tuple[FightSpec, int, int, int]


class BatchExecutor:
    """An executor that plays what the batch path accepts in lockstep, the rest on ``engine``.

    Chunks of one spec and seed are played together in blocks of up to :data:`BLOCK`
    fights (lockstep pays per turn, not per fight), each chunk still summarised alone.
    ``paths`` records, per spec key, which path played it.
    """

    def __init__(self, engine: Executor) -> None:
        self.engine = engine
        self.paths: dict[str, str] = {}
        self.refusals: dict[str, str] = {}
        self._told: set[str] = set()

    @property
    def name(self) -> str:
        """``batch``, or the engine's executor when every spec seen so far falls back."""
        if self.paths and all(p == "engine" for p in self.paths.values()):
            return self.engine.name
        return "batch"

    @property
    def workers(self) -> int:
        """One (the batch path runs here), or the engine's when a spec falls back."""
        return self.engine.workers if self.refusals else 1

    def path(self, spec: FightSpec) -> str:
        """``batch`` or ``engine``: which path plays ``spec`` (recording the refusal)."""
        key = spec.key or repr(spec)
        if key not in self.paths:
            why = batch_refusal(spec)
            self.paths[key] = "engine" if why else "batch"
            if why:
                self.refusals[key] = why
        return self.paths[key]

    def tell(self, say: Callable[[str], None]) -> None:
        """Say in one line which scenarios fall back to the engine, and why (once each)."""
        new = [key for key in self.refusals if key not in self._told]
        if not new:
            return
        self._told.update(new)
        why = self.refusals[new[0]]
        if len(self.paths) == 1:
            say(f"--batch: {why}; the engine plays these fights")
        else:
            say(f"--batch: {len(new)} of {len(self.paths)} variants fall back to the engine "
                f"(first: {why})")

    def run_chunks(self, tasks: Sequence[Task]) -> Iterator[tuple[int, ChunkSummary]]:
        engine = [i for i, t in enumerate(tasks) if self.path(t[0]) == "engine"]
        groups: dict[tuple[str, int], list[int]] = {}
        for i, (spec, seed, _, _) in enumerate(tasks):
            if self.paths[spec.key or repr(spec)] == "batch":
                groups.setdefault((spec.key or repr(spec), seed), []).append(i)
        for members in groups.values():
            yield from self._play_group(tasks, members)
        if engine:
            for j, part in self.engine.run_chunks([tasks[i] for i in engine]):
                yield engine[j], part

    @staticmethod
    def _play_group(tasks: Sequence[Task], members: list[int]) -> Iterator[
            tuple[int, ChunkSummary]]:
        spec, seed = tasks[members[0]][0], tasks[members[0]][1]
        shape = _duel(spec)
        assert not isinstance(shape, str)
        members = sorted(members, key=lambda i: tasks[i][2])
        block: list[int] = []

        def flush() -> Iterator[tuple[int, ChunkSummary]]:
            fights = _play(shape, np.concatenate([fight_seeds(seed, tasks[i][2], tasks[i][3])
                                                  for i in block]))
            at = 0
            for i in block:
                size = tasks[i][3] - tasks[i][2]
                yield i, _summary(shape, fights, at, at + size)
                at += size

        size = 0
        for i in members:
            block.append(i)
            size += tasks[i][3] - tasks[i][2]
            if size >= BLOCK:
                yield from flush()
                block, size = [], 0
        if block:
            yield from flush()

    def __enter__(self) -> BatchExecutor:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None
