"""The default AI of both armies and of the GM.

Units light their torches when blind, close up into column where the way
ahead is too narrow for their formation, deploy again where there is room to
fight, shoot what they can see, and otherwise march on (or charge) the
nearest enemy.  Units ordered to hold wait for the enemy, unless every enemy
in good order holds too (then waiting gains nothing and they advance).
Missile troops shoot at the target their volley is expected to hurt most (a
target whose figures their dice cannot wound is not worth a volley).
Missile troops with nothing to shoot march to the nearest firing position (an
area clear of enemies from which they could see an enemy within range) and
wait there; with no firing position they close to melee only to join friends
already fighting, or when no friend is left to fight hand to hand.  The GM
uses each prepared effect on the turn the scenario names for it, and passes
otherwise.

The policy builds its one order directly and confirms it with
``request.is_legal``; it never lists the orders it could give.  Should the
order it wants be refused, the unit holds (the GM passes).
"""

from __future__ import annotations

from math import comb

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
from fracas.rules.battlesystem.combat import missile_attack_rating
from fracas.rules.battlesystem.legality import gm_effects, targets_in_range
from fracas.rules.battlesystem.movement import engaged, may_take_formation
from fracas.rules.battlesystem.rules import (
    ALTITUDES,
    allowed_altitudes,
    can_melee,
    damage_figures,
    missile_figures,
    movement_allowance,
    wound_threshold,
)
from fracas.rules.battlesystem.state import (
    BattlesystemState,
    Unit,
    blind,
    can_see,
    fits_width,
    unit_footprint,
)

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
    best = max(targets, key=lambda e: (volley_value(state, unit, e), e.figures, e.name))
    return Fire(unit.name, best.name)


def volley_value(state: BattlesystemState, shooter: Unit, target: Unit) -> float:
    """Figures a volley at ``target`` is expected to take out (a new wound counts half).

    Exact over the number of hits: a volley whose dice stay under the target's wound
    threshold is worth nothing, however many figures the target has.
    """
    shape = unit_footprint(shooter, state.board.areas[shooter.area])
    n = missile_figures(shooter.figures, shape.abreast)
    p = (11 - missile_attack_rating(state, shooter, target)) / 10
    total = 0.0
    for hits in range(1, n + 1):
        hit = damage_figures(target.figures, target.wounded, target.stats.hd,
                             hits * shooter.stats.missile_damage, wound_threshold(False))
        total += comb(n, hits) * p**hits * (1 - p) ** (n - hits) * (
            hit.removed + hit.newly_wounded / 2)
    return total


def _order(state: BattlesystemState, unit: Unit) -> Action:
    me = unit.name
    s = unit.stats
    if s.lights >= unit.figures and not unit.lit and blind(state, unit):
        return Torches(me, True)
    if engaged(state, unit):
        if unit.formation == "column" and may_take_formation(state, unit, "closed", "width"):
            return Form(me, "closed")
        return Hold(me)
    if targets_in_range(state, unit):
        return Hold(me)
    if s.hold and not _enemy_waits(state, unit):
        return Hold(me)
    if unit.formation == "open" and s.missile_range <= 0 and \
            may_take_formation(state, unit, "closed", "width"):
        return Form(me, "closed")  # close ranks before contact: open order routs at once
    foes = [e for e in state.units.values() if e.status == "ok" and e.side != unit.side]
    distances = state.board.distances(unit.area, frozenset(state.gone))
    foes = [e for e in foes if e.area in distances]
    if not foes:
        return Hold(me)
    foe = min(foes, key=lambda e: (distances[e.area], e.name))
    if s.missile_range > 0:
        spot = firing_position(state, unit)
        if spot == unit.area:
            return Hold(me)
        if spot is not None:
            return _march(state, unit, spot) or Hold(me)
        if not _close_in(state, unit, foe):
            return Hold(me)
    if s.flyer and not can_melee(unit.altitude, foe.altitude):
        step = 1 if ALTITUDES.index(foe.altitude) > ALTITUDES.index(unit.altitude) else -1
        band = ALTITUDES[ALTITUDES.index(unit.altitude) + step]
        if band in allowed_altitudes(state.board.areas[unit.area].ceiling) and band != "ground":
            return Fly(me, band)
    if foe.area == unit.area:
        return Hold(me)
    order = _march(state, unit, foe.area)
    if order is None:
        return Hold(me)
    reach = movement_allowance(s.movement, blind(state, unit))
    if isinstance(order, Move) and distances[foe.area] <= reach and can_see(state, unit, foe):
        return Charge(me, foe.name)
    return order


def _march(state: BattlesystemState, unit: Unit, goal: str) -> Action | None:
    """The order that brings ``unit`` toward ``goal``: close into column first where the
    way ahead is too narrow; ``None`` when no way leads there or it cannot close up."""
    route = state.board.path(unit.area, goal, frozenset(state.gone))
    if not route:
        return None
    ahead = state.board.areas[route[0]]
    if unit.formation != "column" and not fits_width(unit, ahead):
        if may_take_formation(state, unit, "column", "width"):
            return Form(unit.name, "column")
        return None
    return Move(unit.name, goal)


def _enemy_waits(state: BattlesystemState, unit: Unit) -> bool:
    """True when every enemy unit in good order holds too: nobody will come."""
    return all(e.stats.hold for e in state.units.values()
               if e.status == "ok" and e.side != unit.side)


def firing_position(state: BattlesystemState, unit: Unit) -> str | None:
    """The nearest area, clear of enemies and reachable without passing them, from which
    ``unit`` could see an enemy in good order within its missile range (``None``: none).

    The area where the unit stands counts: there it waits for a target to come
    free of melee.  Sight is judged as things stand now.
    """
    reach = unit.stats.missile_range
    foes = [e for e in state.units.values() if e.status == "ok" and e.side != unit.side]
    held = frozenset(e.area for e in state.units.values()
                     if e.on_field and e.side != unit.side)
    if reach <= 0 or not foes:
        return None
    ways = state.board.distances(unit.area, frozenset(state.gone) | (held - {unit.area}))
    for area in sorted(ways, key=lambda a: (ways[a], state.board.order.index(a))):
        if area in held:
            continue
        shots = state.board.distances(area)
        if any(shots.get(e.area, reach + 1) <= reach and can_see(state, unit, e, area)
               for e in foes):
            return area
    return None


def _close_in(state: BattlesystemState, unit: Unit, foe: Unit) -> bool:
    """Whether missile troops with no firing position should go in hand to hand: to join
    friends already fighting ``foe``'s area, or when no friend fights hand to hand."""
    friends = [u for u in state.units.values()
               if u.status == "ok" and u.side == unit.side and u.name != unit.name]
    if any(u.area == foe.area and engaged(state, u) for u in friends):
        return True
    return not any(u.stats.missile_range <= 0 for u in friends)
