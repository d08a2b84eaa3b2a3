"""Traps: scenarios that validate but will surely not do what their author meant.

A hero who cannot use any of the weapons he carries, a dragon with no die to claw
with: the file is valid, the fight runs, and the result is nonsense that nothing
points at.  Each check here looks at a validated scenario and returns
:class:`ScenarioWarning` s naming the file, the line and the field, which ``fracas
validate``, ``run`` and ``simulate`` print without refusing the file.

Checks are kept per rule set (:func:`register_traps`: the hook a rule set, shipped
or plug-in, uses for its own traps); the shipped rule sets' checks are below.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from fracas.scenario.problems import Path_, field_name, lookup_line

__all__ = ["ScenarioWarning", "TrapCheck", "find_traps", "register_traps", "tell_traps"]


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


# --------------------------------------------------------------------------- The One Ring
@register_traps("one_ring")
def _heroes_without_proficiency(model: Any, data: Mapping[str, Any]
                                ) -> Iterator[tuple[Path_, str]]:
    """A hero rolls a weapon's proficiency as Success dice: with a rating of 0 (or none
    given) in every weapon he carries, each attack is the Feat die alone, which almost
    never hits, and the heuristic soon leaves the fight."""
    from fracas.rules.one_ring.catalogue import catalogue

    weapons = catalogue().weapons
    for i, hero in enumerate(getattr(model, "heroes", ())):
        usable = [w for w in hero.weapons if hero.proficiencies.get(weapons[w].category, 0) > 0]
        if usable:
            continue
        needed = sorted({weapons[w].category for w in hero.weapons})
        given = "proficiencies" in _item(data, "heroes", i)
        path: Path_ = ("heroes", i, "proficiencies") if given else ("heroes", i)
        yield path, (f"{hero.name} has no rating in {' or '.join(needed)} (the proficiency "
                     f"of {', '.join(hero.weapons)}): every attack rolls only the Feat die "
                     f"and will rarely hit; give e.g. 'proficiencies: {{{needed[0]}: 2}}'")


# --------------------------------------------------------------------------- Age of Dragons
@register_traps("age_of_dragons")
def _dragons_without_claws(model: Any, data: Mapping[str, Any]) -> Iterator[tuple[Path_, str]]:
    """The claw pool is the dragon's Soma: at 0 it rolls no die, so it can never hit in
    close combat, and with no ranged attack it can never harm anyone."""
    for i, fighter in enumerate(getattr(model, "combatants", ())):
        if fighter.soma == 0 and not fighter.ranged:
            yield ("combatants", i, "soma"), (
                f"{fighter.name} has Soma 0 and no ranged attack: its claw pool rolls no "
                "die, so it can never hit anyone")


@register_traps("age_of_dragons")
def _claw_all_out_of_reach(model: Any, data: Mapping[str, Any]) -> Iterator[tuple[Path_, str]]:
    """``claw_all`` never spots, so it never changes range or altitude: when every
    combatant plays it, one with no foe at close quarters and at its height for melee
    can never reach a foe, and the fight only ends at ``max_rounds``."""
    from fracas.rules.age_of_dragons.rules import MELEE_LEVEL
    from fracas.rules.age_of_dragons.state import ALTITUDES

    fighters = list(getattr(model, "combatants", ()))
    if not fighters or any(f.policy != "claw_all" for f in fighters):
        return
    ranges: dict[frozenset[str], str] = {frozenset(r.between): r.range for r in model.ranges}

    def reach(a: Any, b: Any) -> bool:
        band = ranges.get(frozenset((a.name, b.name)), model.default_range)
        return band in ("zero", "close") and (MELEE_LEVEL[ALTITUDES.index(a.altitude)]
                                              == MELEE_LEVEL[ALTITUDES.index(b.altitude)])

    for i, fighter in enumerate(fighters):
        foes = [f for f in fighters if f.side != fighter.side]
        if foes and not any(reach(fighter, foe) for foe in foes):
            yield ("combatants", i), (
                f"{fighter.name} plays claw_all, as everyone does, and no foe is at close "
                "quarters and its height: claw_all never moves, so it can never reach a "
                "foe (give a range 'close', or the heuristic policy)")


def _item(data: Mapping[str, Any], key: str, index: int) -> Mapping[str, Any]:
    items = data.get(key)
    if isinstance(items, list) and 0 <= index < len(items) and isinstance(items[index], Mapping):
        item: Mapping[str, Any] = items[index]
        return item
    return {}


