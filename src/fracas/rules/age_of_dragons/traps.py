"""Age of Dragons' traps: scenarios that validate but will surely not do what their author meant
(see :mod:`fracas.scenario.traps`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from fracas.scenario.problems import Path_
from fracas.scenario.traps import register_traps


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
