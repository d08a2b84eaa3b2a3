"""Sweeps: the same fight over a grid of scenario variants.

A variation is ``PATH=V1,V2,...``.  ``PATH`` is dotted; list items are picked by
index (``combatants.0.soma``) or by their ``name`` (``combatants.Fafnir.soma`` or
``combatants[Fafnir].soma``).  Each value is read as YAML, so ``9`` is a number,
``true`` a flag and ``claw_all`` text.  Several variations make a grid (every
combination).  Each variant is validated like a scenario file before anything runs.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from fracas.core.errors import ScenarioError
from fracas.scenario import Scenario, build_initial_state
from fracas.sim.executors import Executor
from fracas.sim.runner import DEFAULT_MAX_DECISIONS, FightSpec, SimulationResult, simulate_many

__all__ = ["SweepResult", "Variation", "make_variants", "parse_variation", "set_path", "sweep"]

#: Variants in one sweep at most (every one is simulated in full).
MAX_VARIANTS = 10_000

_TOKEN = re.compile(r"\[([^\]]+)\]|([^.\[\]]+)")


@dataclass(frozen=True, slots=True)
class Variation:
    """One ``--vary`` option: a dotted path into the scenario and the values it takes."""

    path: str
    steps: tuple[str, ...]
    values: tuple[Any, ...]


def parse_variation(text: str) -> Variation:
    """Read ``PATH=V1,V2,...``; raises :class:`ScenarioError` (field ``--vary``) when malformed.

    >>> parse_variation("combatants.Ash.soma=7,8,9")
    Variation(path='combatants.Ash.soma', steps=('combatants', 'Ash', 'soma'), values=(7, 8, 9))
    >>> parse_variation("soma")
    Traceback (most recent call last):
        ...
    fracas.core.errors.ScenarioError: --vary: expected PATH=V1,V2,... but got 'soma'
    """
    path, sep, values = text.partition("=")
    path = path.strip()
    if not sep or not path or not values.strip():
        raise ScenarioError(f"expected PATH=V1,V2,... but got {text!r}", file="--vary")
    steps = _steps(path)
    parsed: list[Any] = []
    for raw in values.split(","):
        raw = raw.strip()
        if not raw:
            raise ScenarioError(f"an empty value in {text!r}", file="--vary", field=path)
        try:
            parsed.append(yaml.safe_load(raw))
        except yaml.YAMLError:
            parsed.append(raw)
    return Variation(path, steps, tuple(parsed))


def _steps(path: str) -> tuple[str, ...]:
    steps: list[str] = []
    pos = 0
    for match in _TOKEN.finditer(path):
        gap = path[pos:match.start()].strip(".")
        if gap:
            break
        steps.append((match.group(1) or match.group(2)).strip())
        pos = match.end()
    if not steps or path[pos:].strip("."):
        raise ScenarioError(f"cannot read the path {path!r}", file="--vary", field=path)
    return tuple(steps)


def set_path(data: Any, steps: Sequence[str], value: Any, path: str = "") -> None:
    """Set ``value`` at ``steps`` inside ``data`` (mappings by key, lists by index or name).

    A key the file left out is created: a field at the last step, an empty group before
    it (``search.rollouts`` in a file without a ``search:`` block); the variant's
    validation then names a group or field the rule set does not have.  A list item
    that does not exist, or a step into a single value, is a :class:`ScenarioError`.
    """
    cursor = data
    for depth, step in enumerate(steps):
        last = depth == len(steps) - 1
        where = ".".join(steps[: depth + 1])
        if isinstance(cursor, list):
            index = _list_index(cursor, step, path, where)
            if last:
                cursor[index] = value
            else:
                cursor = cursor[index]
        elif isinstance(cursor, dict):
            if last:
                cursor[step] = value
            else:
                if cursor.get(step) is None:  # an optional group the file left out: start it
                    cursor[step] = {}
                cursor = cursor[step]
        else:
            raise ScenarioError(f"{'.'.join(steps[:depth])!r} is a single value, not a group",
                                file="--vary", field=path)


def _list_index(items: list[Any], step: str, path: str, where: str) -> int:
    if step.lstrip("-").isdigit():
        index = int(step)
        if -len(items) <= index < len(items):
            return index
        raise ScenarioError(f"{where!r}: index out of range (the list has {len(items)} items)",
                            file="--vary", field=path)
    for i, item in enumerate(items):
        if isinstance(item, Mapping) and item.get("name") == step:
            return i
    names = [str(item.get("name")) for item in items if isinstance(item, Mapping)]
    raise ScenarioError(f"{where!r}: no item named {step!r} (names: {', '.join(names)})",
                        file="--vary", field=path)


def make_variants(scenario: Scenario, variations: Sequence[Variation],
                  max_decisions: int = DEFAULT_MAX_DECISIONS,
                  ) -> list[tuple[dict[str, Any], FightSpec]]:
    """Every combination of the variations, each validated, as ``(values, spec)`` pairs."""
    grid = itertools.product(*(v.values for v in variations))
    out: list[tuple[dict[str, Any], FightSpec]] = []
    for combo in grid:
        data = copy.deepcopy(scenario.data)
        values: dict[str, Any] = {}
        for variation, value in zip(variations, combo, strict=True):
            set_path(data, variation.steps, value, variation.path)
            values[variation.path] = value
        label = ", ".join(f"{k}={v}" for k, v in values.items())
        source = f"{scenario.source} [{label}]"
        build_initial_state(scenario.ruleset, data, source)  # validates; names the field
        out.append((values, FightSpec.make(scenario.ruleset, data, source, (), max_decisions)))
    return out


@dataclass(frozen=True, slots=True)
class SweepResult:
    """A sweep's variants (their values for each varied path) and their results."""

    paths: tuple[str, ...]
    variants: tuple[tuple[dict[str, Any], SimulationResult], ...]
    seconds: float

    def to_json(self, timing: bool = True) -> dict[str, Any]:
        """One JSON-ready object: the grid and, per variant, its simulation report."""
        first = self.variants[0][1] if self.variants else None
        report: dict[str, Any] = {
            "vary": list(self.paths),
            "runs": first.runs if first else 0,
            "seed": first.seed if first else 0,
            "variants": [{"values": values, **result.to_json(timing=False)}
                         for values, result in self.variants],
        }
        if timing:
            report["seconds"] = self.seconds
        return report


def sweep(scenario: Scenario, variations: Sequence[Variation], runs: int, seed: int,
          executor: Executor, progress: Callable[[int], None] | None = None, *,
          aligned: bool = True, **rounds: Any) -> SweepResult:
    """Simulate ``runs`` fights of every variant in one grid on ``executor``.

    All variants use the same fight seeds and, with ``aligned`` (the default), dice
    streams aligned roll by roll (:mod:`fracas.sim.streams`), so they are compared on
    common dice and each variant's difference from the first is measured fight by fight
    (:meth:`SimulationResult.difference`).  ``rounds`` passes ``precision``,
    ``max_runs``, ``on_round`` and ``watch`` on to :func:`simulate_many`.
    """
    if not variations:
        raise ScenarioError("a sweep needs at least one --vary PATH=V1,V2,...", file="--vary")
    grid = math.prod(len(v.values) for v in variations)
    if grid > MAX_VARIANTS:
        raise ScenarioError(f"the grid has {grid:,} variants; a sweep takes at most "
                            f"{MAX_VARIANTS:,}", file="--vary")
    variants = make_variants(scenario, variations)
    specs = [dataclasses.replace(spec, aligned=aligned) for _, spec in variants]
    results = simulate_many(specs, runs, seed, executor, progress, **rounds)
    seconds = max((r.seconds for r in results), default=0.0)
    return SweepResult(tuple(v.path for v in variations),
                       tuple((values, result) for (values, _), result
                             in zip(variants, results, strict=True)),
                       seconds)
