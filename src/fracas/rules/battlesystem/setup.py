"""Building the starting state from a validated scenario."""

from __future__ import annotations

from collections import deque

from fracas.core.errors import ScenarioError
from fracas.rules.battlesystem.model import BattlesystemScenario, UnitModel
from fracas.rules.battlesystem.rules import creatures_per_figure
from fracas.rules.battlesystem.state import (
    Area,
    Battlefield,
    BsState,
    Feature,
    Link,
    Side,
    Unit,
    UnitStats,
    fits_width,
    used_surface,
)

__all__ = ["build_state", "figure_hit_dice"]


def figure_hit_dice(model: UnitModel) -> tuple[int, int]:
    """(creatures per figure, Hit Dice per figure) of a unit (core, ours).

    Creatures per figure come from the scenario or from the creature's Hit Dice
    (see :func:`rules.creatures_per_figure`); a figure's Hit Dice are the
    creatures' total, at least 1.
    """
    creatures = model.creatures_per_figure or creatures_per_figure(model.hd)
    return creatures, max(1, round(creatures * model.hd))


def _battlefield(scenario: BattlesystemScenario) -> Battlefield:
    areas: dict[str, Area] = {}
    for a in scenario.areas:
        ob = a.obstacle
        areas[a.name] = Area(a.name, a.kind, a.width, a.length, a.ceiling, a.airflow, a.wind_to,
                             a.lit, ob.kind if ob else None, ob.dice if ob else 0,
                             ob.halts if ob else False, tuple(f.name for f in a.features))
    links: dict[str, list[Link]] = {name: [] for name in areas}
    for link in scenario.links:
        links[link.a].append(Link(link.b, link.bend))
        links[link.b].append(Link(link.a, link.bend))
    # Areas in breadth-first order from the first one: the order the map is drawn in.
    order: list[str] = []
    for start in areas:
        if start in order:
            continue
        queue = deque([start])
        order.append(start)
        while queue:
            here = queue.popleft()
            for lk in links[here]:
                if lk.to not in order:
                    order.append(lk.to)
                    queue.append(lk.to)
    return Battlefield(areas, {k: tuple(v) for k, v in links.items()}, tuple(order))


def _unit(model: UnitModel) -> Unit:
    creatures, hd = figure_hit_dice(model)
    missile = model.missile
    stats = UnitStats(
        model.name, model.side, hd, creatures, model.base, model.ac, model.thac0, model.damage,
        model.movement, model.morale, model.save, model.frontage, model.infravision,
        model.lights, missile.range if missile else 0.0, missile.damage if missile else 0,
        model.flyer, model.heavy, model.gas_immune, model.orders == "hold", model.figures,
    )
    return Unit(stats, model.area, model.figures, model.formation, altitude=model.altitude,
                lit=model.lit)


def build_state(scenario: BattlesystemScenario) -> BsState:
    """The starting state; refuses a placement where a unit does not fit its area."""
    board = _battlefield(scenario)
    features = {f.name: Feature(f.name, a.name, f.kind, f.chance)
                for a in scenario.areas for f in a.features}
    gm = scenario.gm
    policies: dict[str, str | tuple[str, ...]] = {
        u.name: u.policy if isinstance(u.policy, str) else tuple(u.policy)
        for u in scenario.units}
    policies["gm"] = gm.policy if isinstance(gm.policy, str) else tuple(gm.policy)
    state = BsState(
        board=board,
        sides=tuple(Side(s.name, s.retreat, s.leader, s.command_radius) for s in scenario.sides),
        units={u.name: _unit(u) for u in scenario.units},
        features=features,
        max_turns=scenario.max_turns,
        gm_cave_ins=tuple((c.area, c.material, c.turn) for c in gm.cave_ins),
        gm_gases=tuple((g.area, g.diameter, g.duration, g.dice, g.turn) for g in gm.gases),
        gm_strikes=tuple((s.feature, s.turn) for s in gm.strikes),
        policies=policies,
    )
    _check_placement(state)
    return state


def _check_placement(state: BsState) -> None:
    for unit in state.units.values():
        area = state.board.areas[unit.area]
        if not fits_width(unit, area):
            raise ScenarioError(
                f"{unit.name} in {unit.formation} formation is wider than {area.name} "
                f"({area.width} inch); place it in column", field=f"units[{unit.name}].formation")
    for name, area in state.board.areas.items():
        if used_surface(state, name) > area.surface + 1e-9:
            raise ScenarioError(f"the units placed in {name} do not fit in it",
                                field=f"areas[{name}]")
