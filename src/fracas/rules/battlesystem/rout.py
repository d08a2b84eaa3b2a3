"""Routing movement and the chain reaction of routs through friendly units.

A routing unit runs its full movement toward its side's line of retreat and
leaves the battle when it gets there.  If friendly units block every way back
(no route with room for it avoids them) and this turn's routing move would
carry it into their area, the friendly units in that first blocked area rout
too, and run first; they may in turn rout the units blocking them, for as
long as it takes to clear a path; then the first router runs as far as the
room made allows.  Friends farther away than this turn's move do not stop it:
it runs toward them and stops short.  Every unit joins a chain at most once,
so a chain always ends.  A routing unit whose every way back is held by
enemies or gone surrenders (ours).  Routing is marching: it stresses fragile
formations and blind routers blunder into unseen obstacles like any march.
"""

from __future__ import annotations

from fracas.core.rng import Rng
from fracas.core.ruleset import Emit
from fracas.rules.battlesystem.combat import start_rout
from fracas.rules.battlesystem.events import FormationChanged, UnitLeft, UnitMoved
from fracas.rules.battlesystem.hazards import heavy_on, spring_obstacle, stress_area
from fracas.rules.battlesystem.movement import settle_altitude, step_price
from fracas.rules.battlesystem.rules import movement_allowance
from fracas.rules.battlesystem.state import BattlesystemState, Unit, blind, fits_width, room_for

__all__ = ["flee", "rout_phase"]


def rout_phase(state: BattlesystemState, rng: Rng, emit: Emit) -> None:
    """Every routing unit makes its routing move, in scenario order."""
    moved: set[str] = set()
    for unit in list(state.units.values()):
        if unit.status == "routing" and unit.name not in moved:
            flee(state, unit, rng, emit, moved)


def _enemy_areas(state: BattlesystemState, unit: Unit) -> frozenset[str]:
    return frozenset(u.area for u in state.units.values()
                     if u.on_field and u.side != unit.side and u.area != unit.area)


def _full_areas(state: BattlesystemState, unit: Unit, blocked: frozenset[str]) -> frozenset[str]:
    """The areas other than ``unit``'s and those ``blocked`` already that have no room
    for it, with ``blocked`` (the areas its routing move may not enter)."""
    return blocked | frozenset(
        a for a in state.board.areas if a != unit.area and a not in blocked
        and not room_for(state, unit, a, _rout_shape(unit, state, a)))


def _rout_shape(unit: Unit, state: BattlesystemState, area: str) -> str:
    """Routers keep their open order where it fits across, else go single file (ours)."""
    if fits_width(unit, state.board.areas[area]):
        return unit.formation
    return "column"


def flee(state: BattlesystemState, unit: Unit, rng: Rng, emit: Emit, moved: set[str]) -> None:
    """Make ``unit``'s routing move, routing friendly units that block every way back.

    ``moved`` holds the units that already made their move this phase; each
    unit is added before anything else happens, which is what ends a chain.
    """
    moved.add(unit.name)
    goal = state.side(unit.side).retreat
    budget = movement_allowance(unit.stats.movement, blind(state, unit))
    if unit.goal == goal:
        budget += unit.progress
    hostile = _enemy_areas(state, unit) | frozenset(state.gone)
    while unit.status == "routing":
        if unit.area == goal:
            emit(UnitLeft(unit.name, "fled"))
            return
        open_route = state.board.path(unit.area, goal, _full_areas(state, unit, hostile))
        if open_route:
            budget = _run(state, unit, open_route, budget, rng, emit)
            if budget <= 0 or unit.area != goal:
                return
            continue
        route = state.board.path(unit.area, goal, hostile)
        if not route:
            emit(UnitLeft(unit.name, "surrendered"))
            return
        at = next(i for i, a in enumerate(route)
                  if not room_for(state, unit, a, _rout_shape(unit, state, a)))
        blockers = [u for u in state.in_area(route[at])
                    if u.side == unit.side and u.name not in moved]
        if not blockers or _price(state, unit, route[:at + 1]) > budget + 1e-9:
            # Nobody left to clear the way, or the blocked area lies beyond this turn's
            # routing move: run as far as there is room and movement.
            _run(state, unit, route, budget, rng, emit)
            return
        for friend in blockers:
            if friend.status == "ok":
                start_rout(state, friend, "blocking a rout", emit)
            flee(state, friend, rng, emit, moved)


def _price(state: BattlesystemState, unit: Unit, route: list[str]) -> float:
    """Movement needed to walk ``route`` from where ``unit`` stands."""
    total, here, rear = 0.0, unit.area, unit.rear
    for there in route:
        total += step_price(state, unit, here, there, rear)
        here, rear = there, here
    return total


def _run(state: BattlesystemState, unit: Unit, route: list[str], budget: float, rng: Rng,
         emit: Emit) -> float:
    """Step along ``route`` while movement lasts; returns the movement left (0 if stopped).

    Each area entered on the ground stresses its fragile formations; a blind router
    entering an unseen obstacle is caught by it like any marching unit.  Movement
    too short for the next step is carried to the next routing move, as a march
    carries it (ours): a slow unit routing from a long area still gets away.
    """
    here, rear = unit.area, unit.rear
    goal = state.side(unit.side).retreat
    for there in route:
        price = step_price(state, unit, here, there, rear)
        shape = _rout_shape(unit, state, there)
        if budget + 1e-9 < price or not room_for(state, unit, there, shape):
            if budget > 1e-9:
                emit(UnitMoved(unit.name, here, rear, min(budget, price), goal))
            return 0.0
        if shape != unit.formation:
            emit(FormationChanged(unit.name, shape, unit.axis))
        budget -= price
        emit(UnitMoved(unit.name, there, here, 0.0, None))
        if unit.stats.flyer:
            settle_altitude(state, unit, emit)
        here, rear = there, here
        if unit.altitude == "ground":
            stress_area(state, there, heavy_on(state, there), False, rng, emit)
        if not unit.on_field:
            return 0.0
        if spring_obstacle(state, unit, emit) or not unit.on_field:
            return 0.0
    return budget
