"""The event fold: how each BATTLESYSTEM event changes the state (never rolls dice)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from functools import partial
from typing import Any

from fracas.core.action import Action
from fracas.core.events import DecisionMade, DiceRolled, Event, FightEnded
from fracas.core.overrides import is_override
from fracas.core.ruleset import GM
from fracas.rules.battlesystem import overrides
from fracas.rules.battlesystem.events import (
    AltitudeChanged,
    CeilingCollapsed,
    Damaged,
    FeatureCollapsed,
    FormationChanged,
    FragileChecked,
    GasEnded,
    GasMoved,
    GasReleased,
    GmEffectUsed,
    MoraleResult,
    ObstacleMarked,
    ObstacleSprung,
    PhaseStarted,
    Routed,
    Struck,
    TargetChosen,
    TorchesChanged,
    TurnSkipped,
    TurnStarted,
    Unhurt,
    UnitLeft,
    UnitMoved,
    Withdrew,
)
from fracas.rules.battlesystem.hazards import FLOORS
from fracas.rules.battlesystem.movement import in_reach
from fracas.rules.battlesystem.rules import darkness_applies
from fracas.rules.battlesystem.state import (
    ON_FIELD,
    Army,
    BattlesystemState,
    Gas,
    Unit,
    in_contact,
    unit_footprint,
)

__all__ = ["KEEP_PLACES", "apply_event", "folds_only", "take_turn"]


# -- the fold, event by event --------------------------------------------------

def take_turn(state: BattlesystemState, actor: str, action: Action | None = None) -> None:
    """``actor`` decided: it leaves the head of the queue (the fold of a decision).

    A GM override (``action``) takes no turn: it may come at any moment.
    """
    if state.queue and state.queue[0] == actor and (
            actor != GM or action is None or not is_override(action)):
        state.queue.pop(0)


def _decision(state: BattlesystemState, e: DecisionMade) -> None:
    take_turn(state, e.actor, e.action)


def _moved(state: BattlesystemState, e: UnitMoved) -> None:
    unit = state.units[e.unit]
    unit.area, unit.rear, unit.progress, unit.goal = e.area, e.rear, e.progress, e.goal
    unit.charging = e.charging


def _apply_damage(state: BattlesystemState, e: Damaged) -> None:
    unit = state.units[e.unit]
    unit.lost_this_turn += unit.figures - e.figures
    unit.figures, unit.wounded = e.figures, e.wounded


def _turn(state: BattlesystemState, e: TurnStarted) -> None:
    state.turn = e.turn
    for unit in state.units.values():
        unit.lost_this_turn = 0
        unit.charging = False
        unit.aim = None


def _phase(state: BattlesystemState, e: PhaseStarted) -> None:
    state.phase = e.phase
    state.queue = list(e.queue)


def _skipped(state: BattlesystemState, e: TurnSkipped) -> None:
    if state.queue and state.queue[0] == e.unit:
        state.queue.pop(0)


def _aimed(state: BattlesystemState, e: TargetChosen) -> None:
    state.units[e.unit].aim = e.target


def _formation(state: BattlesystemState, e: FormationChanged) -> None:
    unit = state.units[e.unit]
    unit.formation, unit.axis = e.formation, e.axis


def _torches(state: BattlesystemState, e: TorchesChanged) -> None:
    state.units[e.unit].lit = e.lit


def _altitude(state: BattlesystemState, e: AltitudeChanged) -> None:
    state.units[e.unit].altitude = e.altitude


def _routed(state: BattlesystemState, e: Routed) -> None:
    state.units[e.unit].status = "routing"


def _left(state: BattlesystemState, e: UnitLeft) -> None:
    state.units[e.unit].status = e.status


def _fragile(state: BattlesystemState, e: FragileChecked) -> None:
    state.features[e.feature].chance = e.base_after


def _collapsed(state: BattlesystemState, e: FeatureCollapsed) -> None:
    feature = state.features[e.feature]
    feature.collapsed = True
    if feature.kind in FLOORS:
        state.gone.add(e.area)


def _caved(state: BattlesystemState, e: CeilingCollapsed) -> None:
    state.caved.add(e.area)


def _gm_used(state: BattlesystemState, e: GmEffectUsed) -> None:
    state.gm_used.add(e.effect)


def _obstacle(state: BattlesystemState, e: ObstacleSprung | ObstacleMarked) -> None:
    state.known_obstacles.add((e.side, e.area))


def _gas(state: BattlesystemState, e: GasReleased) -> None:
    if e.turns > 0:
        state.gases.append(Gas(state.next_gas, e.area, e.diameter, e.dice, e.turns, e.carried))
    state.next_gas += 1


def _gas_moved(state: BattlesystemState, e: GasMoved) -> None:
    for gas in state.gases:
        if gas.id == e.gas:
            gas.area, gas.turns_left = e.area, e.turns_left


def _gas_ended(state: BattlesystemState, e: GasEnded) -> None:
    state.gases = [g for g in state.gases if g.id != e.gas]


def _ended(state: BattlesystemState, e: FightEnded) -> None:
    state.result = (e.winner, e.reason)
    state.queue = []


#: The events that change nothing the state's readings (:class:`.state.Readings`) are
#: worked out from: every unit stands where it stood, in the same band, formation,
#: condition, strength and light, and the turn is the same (so is who is charging).
#: They change only whose turn it is, which phase it is, a unit's chosen foe, the gas and
#: the secret chances (not what the GM has left).  Any other event, a GM override among
#: them, forgets the readings.
KEEP_PLACES: frozenset[type[Event]] = frozenset({
    DecisionMade, DiceRolled, Struck, Unhurt, MoraleResult, Withdrew, PhaseStarted,
    TurnSkipped, TargetChosen, FragileChecked, ObstacleMarked, ObstacleSprung, GasReleased,
    GasMoved, GasEnded,
})


#: The events whose fold changes nothing at all (not even whose turn it is): made only
#: where someone reads them (see :func:`folds_only`).
SILENT: frozenset[type[Event]] = frozenset({DiceRolled, Struck, Unhurt, MoraleResult})


def apply_event(state: BattlesystemState, event: Event) -> None:
    """Fold ``event`` into ``state`` (events this rule set does not fold are ignored),
    forgetting the state's readings unless the event is one of :data:`KEEP_PLACES`.

    Most forget only what the changed unit touches: a unit's loss of figures forgets
    only what reads figures (who stands where, who reaches whom and whom a unit could
    shoot stay, and so do its blindness and ratings when it fights blind, or not, as
    before); a new turn, or a march that leaves a unit where it stands, with the same
    rear (it banked movement, or it charged), only the answers that read whether the
    units whose charge began or ended are charging; a march into another area mends who
    stands where, who is locked in melee, the figures facing the enemy in the two areas
    and the heuristic's armies (:func:`_marched`), and forgets what else reads the
    marching unit; a rout only what reads good order; a unit leaving the field leaves
    the places and the foes of the enemies that reached it; a new formation forgets the
    unit's shape, and who reaches whom where it stands only when it squeezes.  (One
    table, :data:`_FOLD`, holds each event class's forgetting and handler together: it
    is built from :data:`KEEP_PLACES` and the handlers below.)
    """
    fold_one = _FOLD.get(type(event))
    if fold_one is not None:
        fold_one(state, event)
    else:
        state.readings.forget()


def folds_only(emit: Callable[[Event], None]) -> bool:
    """Whether ``emit`` only folds each event into the state: the play keeps no log and
    tells nobody, so its emitter is :func:`apply_event` bound to the state (see
    :func:`fracas.core.loop.play`).  Then an event whose fold changes nothing (a roll, a
    blow struck, a morale result told: :data:`SILENT`) need not be made at all."""
    return type(emit) is partial and emit.func is apply_event


def _stays(state: BattlesystemState, e: UnitMoved) -> bool:
    """Whether the march ``e`` leaves its unit in the area it stands in, with the same rear."""
    unit = state.units.get(e.unit)
    return unit is not None and unit.area == e.area and unit.rear == e.rear


#: The handler of each event this rule set folds.
_HANDLERS: dict[type[Event], Callable[[BattlesystemState, Any], None]] = {
    DecisionMade: _decision, UnitMoved: _moved, Damaged: _apply_damage,
    TurnStarted: _turn, PhaseStarted: _phase, TurnSkipped: _skipped,
    FormationChanged: _formation, TorchesChanged: _torches, AltitudeChanged: _altitude,
    Routed: _routed, UnitLeft: _left, FragileChecked: _fragile, FeatureCollapsed: _collapsed,
    CeilingCollapsed: _caved, GmEffectUsed: _gm_used, ObstacleSprung: _obstacle,
    ObstacleMarked: _obstacle,
    GasReleased: _gas, GasMoved: _gas_moved, GasEnded: _gas_ended, FightEnded: _ended,
    TargetChosen: _aimed,
    **overrides.OVERRIDES.fold_handlers(),  # the GM's overrides (core.overrides)
}


def _damaged(state: BattlesystemState, e: Damaged) -> None:
    unit = state.units[e.unit]
    s, lit = unit.stats, state.board.areas[unit.area].lit
    sight_kept = darkness_applies(lit, s.infravision, s.lights, unit.lit, unit.figures) is \
        darkness_applies(lit, s.infravision, s.lights, unit.lit, e.figures)
    state.readings.forget_strength(unit, e.figures, sight_kept)
    _apply_damage(state, e)


def _turn_started(state: BattlesystemState, e: TurnStarted) -> None:
    # the turn ends every charge: only the units that charged change what reads charging
    readings = state.readings
    for unit in state.units.values():
        if unit.charging:
            readings.forget_charge(unit.name)
    _turn(state, e)


def _unit_moved(state: BattlesystemState, e: UnitMoved) -> None:
    unit = state.units[e.unit]
    readings = state.readings
    if _stays(state, e):
        if unit.charging != e.charging:
            readings.forget_charge(e.unit)
        _moved(state, e)
        return
    left = unit.area
    if readings.places is None or left == e.area:
        readings.forget_move(unit, e.area)
        _moved(state, e)
        return
    if unit.charging != e.charging:
        readings.forget_charge(e.unit)
    _moved(state, e)
    _marched(state, unit, left)


def _marched(state: BattlesystemState, unit: Unit, left: str) -> None:
    """Bring the readings up to date after ``unit`` marched out of area ``left`` into
    another one, where it stands now (the readings knew who stood where).

    Only units of one area reach each other, whether two units do reads only the two of
    them, and it is mutual: the march changes whom the other units reach only for the
    enemies that reached it where it left (they lose it) and those it reaches where it
    stands (they gain it).  So the readings are mended rather than forgotten
    (:func:`_left_behind`, :func:`_arrived`); what else reads the unit is forgotten
    (:meth:`.state.Readings.forget_march`), but for the answers of others that read it
    only through whether it fights blind, while it fights blind, or not, as before.
    """
    readings = state.readings
    if not _left_behind(state, unit, left):
        readings.forget()
        return
    s, areas = unit.stats, state.board.areas
    sight_kept = darkness_applies(areas[left].lit, s.infravision, s.lights, unit.lit,
                                  unit.figures) is darkness_applies(
        areas[unit.area].lit, s.infravision, s.lights, unit.lit, unit.figures)
    readings.forget_march(unit.name, sight_kept)
    _arrived(state, unit)
    _regrouped(state, unit, left)


def _regrouped(state: BattlesystemState, unit: Unit, left: str) -> None:
    """Mend the heuristic's plans after ``unit`` marched out of area ``left`` (the
    readings know who stands where): of its army, which is the first name in good order
    in ``left`` and where it stands now; nothing else a march changes is kept there."""
    readings = state.readings
    plans = readings.plans
    if not plans:
        return
    armies: dict[str, Army] | None = plans.get("armies")
    readings.plans = {}
    if armies is None:
        return
    army = armies.get(unit.side)
    if unit.status == "ok" and army is not None:
        name, here = unit.name, unit.area
        mended = Army()
        mended.figures, mended.bows = army.figures, army.bows
        first = mended.first = dict(army.first)
        if first.get(left) == name:
            places = readings.places
            assert places is not None
            rest = [u.name for u in places.get(left, ())
                    if u.side == unit.side and u.status == "ok"]
            if rest:
                first[left] = min(rest)
            else:
                del first[left]
        if here not in first or name < first[here]:
            first[here] = name
        armies = {**armies, unit.side: mended}
    readings.plans = {"armies": armies}


def _left_behind(state: BattlesystemState, unit: Unit, left: str) -> bool:
    """Mend the readings for ``unit`` no longer standing in area ``left`` (it marched
    away or left the field): it leaves the places there; the enemies that reached it
    lose it as a foe and keep whom else they reach; the figures facing the enemy there
    lose its figures in contact, and those of each enemy it leaves free (a count that
    needs what the readings no longer hold is forgotten); whom it reaches is forgotten.
    False, changing nothing, when the readings do not know who stands where or it stood
    nowhere there."""
    readings = state.readings
    by_area = readings.places
    if by_area is None:
        return False
    name, side = unit.name, unit.side
    was_left = by_area.get(left, [])
    now_left = [u for u in was_left if u is not unit]
    if len(now_left) == len(was_left):
        return False
    places = readings.places = dict(by_area)
    if now_left:
        places[left] = now_left
    else:
        del places[left]
    if left in readings.mixed and not _two_armies(now_left):
        readings.mixed = readings.mixed - {left}
    reach, engaged, facing, contact = (readings.reach, readings.engaged, readings.facing,
                                       readings.contact)
    foes = reach.pop(name, None)
    locked = engaged.pop(name, None) if foes is None else bool(foes)
    engaged.pop(name, None)
    key = (left, side)
    if key in facing:
        figures = contact.get(name)
        if locked is None or (locked and figures is None):
            del facing[key]
        elif locked and figures is not None:
            facing[key] -= figures
    if foes is None and locked is not False:
        # who reached it there is not known: whoever was locked in melee may be free now
        for other in now_left:
            if other.side != side and engaged.get(other.name) is not False:
                engaged.pop(other.name, None)
                reach.pop(other.name, None)
                facing.pop((left, other.side), None)
    elif foes:
        for other in foes:
            key = (left, other.side)
            theirs = reach.get(other.name)
            if theirs is None:
                engaged.pop(other.name, None)
                facing.pop(key, None)
                continue
            rest = reach[other.name] = [f for f in theirs if f is not unit]
            engaged[other.name] = bool(rest)
            if not rest and key in facing:
                figures = contact.get(other.name)
                if figures is None:
                    del facing[key]
                else:
                    facing[key] -= figures
    return True


def _arrived(state: BattlesystemState, unit: Unit) -> None:
    """Mend the readings (which know who stands where, but for ``unit``, in places made
    anew by :func:`_left_behind`) for ``unit`` now standing where it stands: it joins
    the places there in scenario order; whether it is locked in melee is worked out at
    once, and whom it reaches when asked; the enemies there that it may reach will work
    out whom they reach when asked, and those it reaches are locked in melee; the
    figures facing the enemy there gain its figures in contact, and those of each enemy
    it locks in melee that was free (a count that needs what the readings no longer hold
    is forgotten)."""
    readings = state.readings
    by_area = readings.places
    assert by_area is not None
    name, side, here = unit.name, unit.side, unit.area
    rank = readings.rank
    if not rank:
        rank = readings.rank = {n: i for i, n in enumerate(state.units)}
    now_here = by_area[here] = _joined(by_area.get(here, []), unit, rank)
    if here not in readings.mixed and _two_armies(now_here):
        readings.mixed = readings.mixed | {here}
    reach, engaged, facing, contact = (readings.reach, readings.engaged, readings.facing,
                                       readings.contact)
    locked = False
    for other in now_here:
        if other.side == side:
            continue
        theirs = reach.get(other.name)
        was = engaged.get(other.name) if theirs is None else bool(theirs)
        if was is True and locked:
            # locked in melee either way: whether the unit is a new foe is asked later
            if theirs is not None:
                del reach[other.name]
            continue
        if not in_reach(state, unit, other):  # mutual: neither reaches the other
            continue
        locked = True
        if theirs is not None:
            del reach[other.name]
        engaged[other.name] = True
        key = (here, other.side)
        if was is not True and key in facing:
            figures = contact.get(other.name)
            if was is None or figures is None:
                del facing[key]
            else:
                facing[key] += figures
    engaged[name] = locked
    key = (here, side)
    if locked and key in facing:
        facing[key] += in_contact(state, unit)


def _two_armies(units: list[Unit]) -> bool:
    """Whether ``units`` belong to two armies or more."""
    return bool(units) and any(u.side != units[0].side for u in units)


def _unit_left(state: BattlesystemState, e: UnitLeft) -> None:
    # the unit leaves the places and the foes of the enemies where it stood, and what
    # reads who is in good order is forgotten
    unit = state.units[e.unit]
    readings = state.readings
    if unit.on_field and e.status not in ON_FIELD and _left_behind(state, unit, unit.area):
        readings.forget_order()
        if readings.targets:
            readings.targets = {}
    else:
        readings.forget()
    _left(state, e)


def _unit_routed(state: BattlesystemState, e: Routed) -> None:
    # a routing unit stands where it stood, on the field: only its good order is gone
    state.readings.forget_order()
    _routed(state, e)


def _formed(state: BattlesystemState, e: FormationChanged) -> None:
    unit = state.units[e.unit]
    info = state.board.areas[unit.area]
    squeeze_kept = unit_footprint(unit, info).squeezed is \
        unit_footprint(unit, info, e.formation, e.axis).squeezed
    state.readings.forget_shape(unit, squeeze_kept)
    _formation(state, e)


def _joined(units: list[Unit], unit: Unit, rank: dict[str, int]) -> list[Unit]:
    """A new list of ``units`` (in scenario order) with ``unit`` in its place."""
    at = rank[unit.name]
    if not units or rank[units[-1].name] < at:
        return [*units, unit]
    i = bisect_left(units, at, key=lambda u: rank[u.name])
    return [*units[:i], unit, *units[i:]]


def _forgetting(handler: Callable[[BattlesystemState, Any], None]
                ) -> Callable[[BattlesystemState, Any], None]:
    """``handler`` after forgetting every reading."""
    def fold_one(state: BattlesystemState, event: Any) -> None:
        state.readings.forget()
        handler(state, event)
    return fold_one


def _ignore(state: BattlesystemState, event: Any) -> None:
    """The fold of an event that changes nothing here."""


#: Each event class's whole fold: its forgetting (see :func:`apply_event`), then its
#: handler.  A class in neither table forgets every reading and changes nothing else.
_FOLD: dict[type[Event], Callable[[BattlesystemState, Any], None]] = {
    **{kind: _forgetting(handler) for kind, handler in _HANDLERS.items()},
    **{kind: _HANDLERS.get(kind, _ignore) for kind in KEEP_PLACES},
    Damaged: _damaged, TurnStarted: _turn_started, UnitMoved: _unit_moved,
    UnitLeft: _unit_left, Routed: _unit_routed, FormationChanged: _formed,
}
