"""Marching through the tunnels: movement, facing, squeezing, command radius, flight bands.

A unit stands centred in one area.  Marching to a neighbouring area costs the
centre-to-centre distance (half of each area's length); turning back or
taking a bend costs a change of facing, which a column never pays.  A unit
enters an area only if it is no wider than the area and the floor left is
enough for it (columns always fit across, squeezed if need be).
"""

from __future__ import annotations

from fracas.core.rng import Rng
from fracas.core.ruleset import Emit
from fracas.rules.battlesystem.events import AltitudeChanged, UnitMoved
from fracas.rules.battlesystem.hazards import heavy_on, spring_obstacle, stress_area
from fracas.rules.battlesystem.rules import (
    allowed_altitudes,
    can_melee,
    column_head_distance,
    facing_cost,
    movement_allowance,
)
from fracas.rules.battlesystem.state import (
    BattlesystemState,
    Unit,
    blind,
    mixed_areas,
    placed,
    room_for,
    unit_footprint,
)

__all__ = ["engaged", "foes_in_reach", "in_command", "in_reach", "march", "may_take_formation",
           "one_behind_a_squeezed", "settle_altitude", "step_price"]


def one_behind_a_squeezed(state: BattlesystemState, a: Unit, b: Unit) -> bool:
    """True when ``a`` and ``b`` stand one behind the other and the one ahead is squeezed.

    A squeezed figure's extra length lies behind it, so whatever comes up from its
    rear stops a base length away: out of contact.  Two units in one area that
    entered it from the same neighbour stand one behind the other, facing the same
    way; when either is squeezed there, neither can reach the other (ours: the
    seed's squeezed spacing in the area model).  A unit that has not moved has no
    known rear.
    """
    if a.rear is None or a.rear != b.rear or a.area != b.area:
        return False
    info = state.board.areas[a.area]
    return unit_footprint(a, info).squeezed or unit_footprint(b, info).squeezed


def in_reach(state: BattlesystemState, unit: Unit, other: Unit) -> bool:
    """True when two units in one area can fight hand to hand (core, ours).

    Flyers need the same band, or low against ground; a squeezed figure cannot be
    reached from behind.
    """
    return can_melee(unit.altitude, other.altitude) and \
        not one_behind_a_squeezed(state, unit, other)


def foes_in_reach(state: BattlesystemState, unit: Unit) -> list[Unit]:
    """The enemy units on the field that ``unit`` can fight hand to hand, in scenario order.

    Worked out by :func:`in_reach` once per unit until the fold moves, forms, lifts or
    removes a unit (the state's readings); the list is shared between callers: read it,
    never change it.
    """
    readings = state.readings
    known = readings.reach.get(unit.name)
    if known is None:
        side = unit.side
        known = readings.reach[unit.name] = [e for e in placed(state).get(unit.area, ())
                                             if e.side != side and in_reach(state, unit, e)]
    return known


def engaged(state: BattlesystemState, unit: Unit) -> bool:
    """True when an enemy in the same area can fight it hand to hand (core, ours).

    The first such enemy settles it (the whole list is :func:`foes_in_reach`'s); the
    answer is kept like it, until the fold moves, forms, lifts or removes a unit.
    """
    readings = state.readings
    known = readings.engaged.get(unit.name)
    if known is None:
        foes = readings.reach.get(unit.name)
        if foes is not None:
            known = bool(foes)
        elif unit.area not in mixed_areas(state):
            known = False  # no enemy stands there
        else:
            side = unit.side
            known = any(e.side != side and in_reach(state, unit, e)
                        for e in placed(state).get(unit.area, ()))
        readings.engaged[unit.name] = known
    return known


def step_price(state: BattlesystemState, unit: Unit, here: str, there: str,
               rear: str | None) -> float:
    """Movement needed to step from ``here`` into neighbour ``there``.

    The centre-to-centre distance, plus the facing cost when the passage bends
    or the unit turns back the way it came.
    """
    cost = state.board.step_cost(here, there)
    link = state.board.link(here, there)
    if (link is not None and link.bend) or there == rear:
        cost += facing_cost(unit.formation, unit.stats.movement)
    return cost


def settle_altitude(state: BattlesystemState, unit: Unit, emit: Emit) -> None:
    """A flyer under a lower ceiling drops to the highest band the ceiling allows."""
    allowed = allowed_altitudes(state.board.areas[unit.area].ceiling)
    if unit.altitude not in allowed:
        emit(AltitudeChanged(unit.name, allowed[-1]))


def march(state: BattlesystemState, unit: Unit, goal: str, rng: Rng, emit: Emit,
          charging: bool = False) -> None:
    """Move ``unit`` toward ``goal`` as far as this turn's movement allows.

    Unused movement toward the same goal carries over to the next turn, up to
    the price of the step it could not take (ours).
    The march stops at an area with no room, at enemies, at a halting obstacle,
    or when a fragile formation gives way under it.  Entering an area with
    fragile formations stresses them (heavy units double the chance).
    """
    budget = movement_allowance(unit.stats.movement, blind(state, unit))
    if unit.goal == goal:
        budget += unit.progress
    route = state.board.path(unit.area, goal, frozenset(state.gone))
    here, rear = unit.area, unit.rear
    budget = budget if route else 0.0
    for there in route:
        price = step_price(state, unit, here, there, rear)
        if budget + 1e-9 < price or not room_for(state, unit, there):
            budget = min(budget, price)
            break
        budget -= price
        emit(UnitMoved(unit.name, there, here, 0.0, goal, charging))
        here, rear = there, here
        if unit.stats.flyer:
            settle_altitude(state, unit, emit)
        if unit.altitude == "ground" and state.board.areas[there].features:
            stress_area(state, there, heavy_on(state, there), False, rng, emit)
        if not unit.on_field:
            return
        if spring_obstacle(state, unit, emit) or not unit.on_field:
            budget = 0.0
            break
        if engaged(state, unit):
            budget = 0.0
            break
    if here != goal:
        emit(UnitMoved(unit.name, here, rear, budget, goal, charging))


def in_command(state: BattlesystemState, unit: Unit) -> bool:
    """Whether ``unit`` is within its leader's command radius.

    A column counts as in command when the figure at its head is; other units
    need all their figures inside the radius (ours).  A side without a leader
    is always in command; a side whose leader has left the field never is.
    """
    side = state.side(unit.side)
    if side.leader is None or side.leader == unit.name:
        return True
    leader = state.units[side.leader]
    if not leader.on_field:
        return False
    distances = state.board.distances(leader.area)
    if unit.area not in distances:
        return False
    length = unit_footprint(unit, state.board.areas[unit.area]).length
    toward = unit.area == leader.area or (
        state.board.path(unit.area, leader.area)[:1] != [unit.rear])
    reach = column_head_distance(distances[unit.area], length, unit.formation == "column",
                                 toward)
    return reach <= side.command_radius + 1e-9


def may_take_formation(state: BattlesystemState, unit: Unit, formation: str, axis: str) -> bool:
    """True when the unit may take ``formation`` where it stands: it must fit across and in."""
    info = state.board.areas[unit.area]
    shape = unit_footprint(unit, info, formation, axis)
    if formation != "column" and shape.width > info.width + 1e-9:
        return False
    need = shape.surface
    others = sum(unit_footprint(u, info).surface for u in placed(state).get(unit.area, ())
                 if u.name != unit.name)
    return others + need <= info.surface + 1e-9
