"""BATTLESYSTEM underground traps: scenarios that validate but will surely not do what their
author meant (see :mod:`fracas.scenario.traps`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from fracas.scenario.problems import Path_
from fracas.scenario.traps import item_of, register_traps


@register_traps("battlesystem")
def _empty_sides(model: Any, data: Mapping[str, Any]) -> Iterator[tuple[Path_, str]]:
    """A side is an army only through its units: one with none never fights, and when a
    single army is left with units the battle is over before its first turn."""
    units = list(getattr(model, "units", ()))
    armed = {u.side for u in units}
    for i, side in enumerate(getattr(model, "sides", ())):
        if side.name in armed:
            continue
        alone = (f"; {next(iter(armed))} is the only army with units and wins before the "
                 "first turn") if len(armed) == 1 else ""
        yield ("sides", i), (f"side {side.name} has no unit: nobody fights for it (give a "
                             f"unit 'side: {side.name}', or remove the side){alone}")


def _regions(model: Any) -> dict[str, int]:
    """Each area's region: areas joined by links, directly or through others."""
    region: dict[str, int] = {}
    neighbours: dict[str, list[str]] = {a.name: [] for a in model.areas}
    for link in model.links:
        neighbours[link.a].append(link.b)
        neighbours[link.b].append(link.a)
    for start in neighbours:
        if start in region:
            continue
        number, stack = len(set(region.values())), [start]
        region[start] = number
        while stack:
            for there in neighbours[stack.pop()]:
                if there not in region:
                    region[there] = number
                    stack.append(there)
    return region


@register_traps("battlesystem")
def _cut_off_units(model: Any, data: Mapping[str, Any]) -> Iterator[tuple[Path_, str]]:
    """Units march, charge and shoot only along the links between areas: a unit with no
    way to any area where an enemy stands can never meet nor shoot one (and when no unit
    can, the battle is called at the end of the first turn)."""
    units = list(getattr(model, "units", ()))
    region = _regions(model)
    for i, unit in enumerate(units):
        foes = [u for u in units if u.side != unit.side]
        if not foes or any(region[f.area] == region[unit.area] for f in foes):
            continue
        yield ("units", i, "area"), (
            f"{unit.name} stands in {unit.area}, and no link leads from there to any area "
            f"where an enemy stands ({', '.join(sorted({f.area for f in foes}))}): it can "
            "never meet nor shoot a foe (add a link between the areas)")


_EFFECTS = (("cave_ins", "cave-in"), ("gases", "gas"), ("strikes", "strike"))


@register_traps("battlesystem")
def _effects_never_used(model: Any, data: Mapping[str, Any]) -> Iterator[tuple[Path_, str]]:
    """The heuristic GM uses a prepared effect on the turn the scenario names for it and
    never otherwise: with no turn, or a turn after ``max_turns``, the effect never comes."""
    gm = getattr(model, "gm", None)
    if gm is None:
        return
    heuristic = gm.policy == "heuristic"
    found = data.get("gm")
    gm_data: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    for key, what in _EFFECTS:
        for i, effect in enumerate(getattr(gm, key)):
            given = "turn" in item_of(gm_data, key, i)
            path: Path_ = ("gm", key, i, "turn") if given else ("gm", key, i)
            if effect.turn is not None and effect.turn > model.max_turns:
                yield path, (f"the {what} is prepared for turn {effect.turn}, after the "
                             f"battle's last turn (max_turns {model.max_turns}): it never "
                             "happens")
            elif effect.turn is None and heuristic:
                yield path, (f"the {what} has no turn: the heuristic GM uses a prepared "
                             "effect only on its turn, so it never happens (give 'turn: N', "
                             "or another GM policy)")


def figure_hd(unit: Any) -> int:
    """A figure's Hit Dice, as ``scenario.figure_hit_dice`` works them out (that module
    imports this one, so it cannot be imported back; a test holds the two together)."""
    from fracas.rules.battlesystem.rules import creatures_per_figure

    creatures: int = unit.creatures_per_figure or creatures_per_figure(unit.hd)
    return max(1, round(creatures * float(unit.hd)))


@register_traps("battlesystem")
def _never_hurts(model: Any, data: Mapping[str, Any]) -> Iterator[tuple[Path_, str]]:
    """Dice of damage below a share of a figure's Hit Dice (a tenth at the most generous,
    when the frontage is narrow) do nothing: a unit whose every figure hitting at once
    still falls short against every foe can never wound anyone."""
    import math

    from fracas.rules.battlesystem.rules import wound_threshold

    units = list(getattr(model, "units", ()))
    lowest = wound_threshold(True)
    for i, unit in enumerate(units):
        foes = [u for u in units if u.side != unit.side]
        if not foes:
            continue
        per_hit = max(unit.damage, unit.missile.damage if unit.missile else 0)
        most = unit.figures * per_hit
        need, weakest = min((max(1, math.ceil(lowest * figure_hd(f) - 1e-9)), f.name)
                            for f in foes)
        if most >= need:
            continue
        given = "damage" in item_of(data, "units", i)
        path: Path_ = ("units", i, "damage") if given else ("units", i)
        yield path, (f"{unit.name} ({unit.figures} figure{'s' if unit.figures != 1 else ''}, "
                     f"{per_hit} di{'ce' if per_hit != 1 else 'e'} a hit) deals at most {most} "
                     f"di{'ce' if most != 1 else 'e'} of damage at once, and wounding a figure "
                     f"of the easiest foe to hurt ({weakest}) takes {need}: it can never hurt "
                     "a foe (give it more figures or more dice of damage a hit)")
