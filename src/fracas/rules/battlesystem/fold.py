"""The event fold: how each BATTLESYSTEM event changes the state (never rolls dice)."""

from __future__ import annotations

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
from fracas.rules.battlesystem.rules import darkness_applies
from fracas.rules.battlesystem.state import BattlesystemState, Gas

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

    Some forget less: a unit's loss of figures forgets only what reads figures (who
    stands where, who reaches whom and whom a unit could shoot stay, and so do its
    blindness and ratings when it fights blind, or not, as before); a new turn, or a
    march that leaves a unit where it stands, with the same rear (it banked movement, or
    it charged), only the answers that read whether a unit is charging; a march into
    another area keeps whether two armies stand, what the GM has left and the other
    units' own figures in contact and blindness.  (A new turn, or a march in place, that
    changes no unit's charge forgets nothing.)  (One table, :data:`_FOLD`, holds each
    event class's forgetting and handler together: it is built from :data:`KEEP_PLACES`
    and the handlers below.)
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
    # the turn ends every charge: only a turn that saw one changes what reads charging
    for unit in state.units.values():
        if unit.charging:
            state.readings.forget_charges()
            break
    _turn(state, e)


def _unit_moved(state: BattlesystemState, e: UnitMoved) -> None:
    if _stays(state, e):
        if state.units[e.unit].charging != e.charging:
            state.readings.forget_charges()
    else:
        state.readings.forget_move(state.units[e.unit], e.area)
    _moved(state, e)


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
}
