"""Traps: scenarios that validate but will surely not do what their author meant.

A hero who cannot use any of the weapons he carries, a dragon with no die to claw
with: the file is valid, the fight runs, and the result is nonsense that nothing
points at.  Each check here looks at a validated scenario and returns
:class:`ScenarioWarning` s naming the file, the line and the field, which ``fracas
validate``, ``run`` and ``simulate`` print without refusing the file.

Checks are kept per rule set (:func:`register_traps`: the hook a rule set, shipped
or plug-in, uses for its own traps); each shipped rule set keeps its checks in its own
``traps`` module, registered when the rule set is loaded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from fracas.scenario.problems import Path_, field_name, lookup_line

__all__ = ["ScenarioWarning", "TrapCheck", "find_traps", "item_of", "register_traps",
           "tell_traps"]


@dataclass(frozen=True, slots=True)
class ScenarioWarning:
    """A trap found in a valid scenario: where (file, line, field) and what will go wrong."""

    message: str
    file: str
    line: int | None = None
    field: str | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        what = f" {self.field}:" if self.field else ""
        return f"{where}:{what} {self.message}"


#: A rule set's check: the validated model and the file's data -> (path, message) pairs,
#: the path being the field's place in the data (``("heroes", 0, "proficiencies")``).
TrapCheck = Callable[[Any, Mapping[str, Any]], Iterable[tuple[Path_, str]]]

_CHECKS: dict[str, list[TrapCheck]] = {}


def register_traps(ruleset: str) -> Callable[[TrapCheck], TrapCheck]:
    """Register a check of ``ruleset``'s scenarios (a decorator); a rule set may have many."""

    def add(check: TrapCheck) -> TrapCheck:
        _CHECKS.setdefault(ruleset, []).append(check)
        return check

    return add


def find_traps(ruleset: str, model: Any, data: Mapping[str, Any], source: str,
               lines: Mapping[Path_, int]) -> tuple[ScenarioWarning, ...]:
    """Every trap of a validated scenario, in the order of the file."""
    found: list[tuple[int, ScenarioWarning]] = []
    for check in _CHECKS.get(ruleset, ()):
        for path, message in check(model, data):
            line = lookup_line(lines, path)
            found.append((line or 0, ScenarioWarning(message, source, line,
                                                     field_name(path, data) or None)))
    return tuple(w for _, w in sorted(found, key=lambda pair: pair[0]))


def tell_traps(warnings: Iterable[ScenarioWarning]) -> None:
    """Write each warning on stderr as ``warning: FILE:LINE: FIELD: MESSAGE`` (plain text:
    no colour, so a pipe or a log file reads the same)."""
    import sys

    for warning in warnings:
        sys.stderr.write(f"warning: {warning}\n")


def item_of(data: Mapping[str, Any], key: str, index: int) -> Mapping[str, Any]:
    items = data.get(key)
    if isinstance(items, list) and 0 <= index < len(items) and isinstance(items[index], Mapping):
        item: Mapping[str, Any] = items[index]
        return item
    return {}


