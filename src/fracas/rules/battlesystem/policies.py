"""The default AI of both armies and of the GM.

Units light their torches when blind, close up into column where the way
ahead is too narrow for their formation, deploy again where there is room to
fight, shoot what they can see, and otherwise march on (or charge) the
nearest enemy; units ordered to hold wait for the enemy.  The GM uses each
prepared effect on the turn the scenario names for it, and passes otherwise.

The policy builds its one order directly and confirms it with
``request.is_legal``; it never lists the orders it could give.  Should the
order it wants be refused, the unit holds (the GM passes).
"""

from __future__ import annotations

from fracas.core.action import Action
from fracas.core.policy import DecisionRequest
from fracas.core.ruleset import GM
from fracas.rules.battlesystem.actions import (
    CaveIn,
    Charge,
    Fire,
    Fly,
    Form,
    Hold,
    Move,
    Pass,
    ReleaseGas,
    StrikeFeature,
    Torches,
)
from fracas.rules.battlesystem.legality import gm_effects, targets_in_range
from fracas.rules.battlesystem.movement import engaged, may_take_formation
from fracas.rules.battlesystem.rules import (
    ALTITUDES,
    allowed_altitudes,
    can_melee,
    movement_allowance,
)
from fracas.rules.battlesystem.state import BattlesystemState, Unit, blind, can_see, fits_width

__all__ = ["HeuristicPolicy"]


class HeuristicPolicy:
    """A sensible commander for any unit, or a GM who follows the scenario's timetable."""

    def choose(self, request: DecisionRequest) -> Action:
        """Pick an order for ``request.actor``, confirmed legal through ``request``."""
        state: BattlesystemState = request.state
        if request.actor == GM:
            wanted = _gm(state)
            fallback: Action = Pass(GM)
        else:
            unit = state.units[request.actor]
            wanted = _shoot(state, unit) if state.phase == "missile" else _order(state, unit)
            fallback = Hold(request.actor)
        return wanted if request.is_legal(wanted) else fallback


def _gm(state: BattlesystemState) -> Action:
    for kind in (CaveIn, ReleaseGas, StrikeFeature):
        for where in gm_effects(state, kind):
            option = kind(GM, where)
            if _scheduled(state, option) == state.turn:
                return option
    return Pass(GM)


def _scheduled(state: BattlesystemState, option: Action) -> int | None:
    if isinstance(option, CaveIn):
        return next((t for a, _m, t in state.gm_cave_ins if a == option.area), None)
    if isinstance(option, ReleaseGas):
        return next((g[4] for g in state.gm_gases if g[0] == option.area), None)
    if isinstance(option, StrikeFeature):
        return next((t for f, t in state.gm_strikes if f == option.feature), None)
    return None


def _shoot(state: BattlesystemState, unit: Unit) -> Action:
    targets = targets_in_range(state, unit)
    if not targets:
        return Hold(unit.name)
    best = max(targets, key=lambda e: (e.figures, e.name))
    return Fire(unit.name, best.name)


def _order(state: BattlesystemState, unit: Unit) -> Action:
    me = unit.name
    s = unit.stats
    if s.lights >= unit.figures and not unit.lit and blind(state, unit):
        return Torches(me, True)
    if engaged(state, unit):
        if unit.formation == "column" and may_take_formation(state, unit, "closed", "width"):
            return Form(me, "closed")
        return Hold(me)
    if s.hold or targets_in_range(state, unit):
        return Hold(me)
    foes = [e for e in state.units.values() if e.status == "ok" and e.side != unit.side]
    distances = state.board.distances(unit.area, frozenset(state.gone))
    foes = [e for e in foes if e.area in distances]
    if not foes:
        return Hold(me)
    foe = min(foes, key=lambda e: (distances[e.area], e.name))
    if s.flyer and not can_melee(unit.altitude, foe.altitude):
        step = 1 if ALTITUDES.index(foe.altitude) > ALTITUDES.index(unit.altitude) else -1
        band = ALTITUDES[ALTITUDES.index(unit.altitude) + step]
        if band in allowed_altitudes(state.board.areas[unit.area].ceiling) and band != "ground":
            return Fly(me, band)
    if foe.area == unit.area:
        return Hold(me)
    route = state.board.path(unit.area, foe.area, frozenset(state.gone))
    if not route:
        return Hold(me)
    ahead = state.board.areas[route[0]]
    if unit.formation != "column" and not fits_width(unit, ahead):
        if may_take_formation(state, unit, "column", "width"):
            return Form(me, "column")
        return Hold(me)
    reach = movement_allowance(s.movement, blind(state, unit))
    if distances[foe.area] <= reach and can_see(state, unit, foe):
        return Charge(me, foe.name)
    return Move(me, foe.area)
