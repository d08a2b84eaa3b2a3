"""How each event changes an Age of Dragons state (the fold).  No dice, no choices."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fracas.core.action import Action
from fracas.core.events import DecisionMade, DiceRolled, Event, FightEnded
from fracas.rules.age_of_dragons import actions, events, overrides
from fracas.rules.age_of_dragons.state import (
    CLOSE,
    LIMBS,
    ZERO,
    AgeOfDragonsState,
    Pending,
    SpotRun,
    Turn,
    pair,
)

__all__ = ["apply_decision", "apply_event"]

_EXPEND_ACTIONS = frozenset({actions.Attack, actions.Shoot, actions.Grapple, actions.BreakOut,
                            actions.UseTask})
#: Spot effects whose repeats the log tells as one line (see ``SpotRun``).
FOLDED = frozenset({"aim", "evade"})


def _close_run(state: AgeOfDragonsState) -> None:
    run = state.spot_run
    if run is not None:
        if run.effect in FOLDED:
            state.closed_run = run
        state.spot_run = None


def _track_spots(state: AgeOfDragonsState, action: object) -> None:
    """Keep the log's record of the spots in a row (no rule reads it)."""
    run = state.spot_run
    if type(action) is actions.Spot:
        if run is not None and run.effect in FOLDED and run.effect == action.effect and \
                run.actor == action.actor and run.target == action.target:
            return  # the same Aim or Evade again: one run
        _close_run(state)
        state.spot_run = SpotRun(action.actor, action.effect, action.target, action.closer)
    elif run is not None:
        _close_run(state)


def _decision(state: AgeOfDragonsState, e: DecisionMade) -> None:
    _decided(state, e.action)


def _decided(state: AgeOfDragonsState, action: Action) -> None:
    # A later step's action closes the earlier steps of the turn.
    turn = state.turn
    if state.spot_run is not None or type(action) is actions.Spot:
        _track_spots(state, action)
    if turn is None:
        return
    kind = type(action)
    if kind is actions.RollPool:
        turn.spheres = action.spheres  # type: ignore[attr-defined]
    elif kind is actions.Spot:
        turn.step = "spot"
    elif kind in _EXPEND_ACTIONS:
        turn.step = "expend"


def _dice(state: AgeOfDragonsState, e: DiceRolled) -> None:
    if e.purpose == events.POOL:
        pool_rolled(state, e.faces)


# -- the changes of the commonest events, made directly where nobody reads the events
# (events.Quiet); each handler below is one of them applied to its event's fields.  The
# caller first does what apply_event does for every event (see told).
def pool_rolled(state: AgeOfDragonsState, faces: Sequence[int]) -> None:
    """``DiceRolled`` of the turn's pool: the turn holds ``faces``, none spotted or spent."""
    turn = state.turn
    if turn is not None:
        turn.pool = list(faces)
        turn.spotted = [False] * len(faces)
        turn.expended = [False] * len(faces)
        turn.hits = None
        turn.step = "reroll"


def _reroll(state: AgeOfDragonsState, e: events.DieRerolled) -> None:
    turn = state.turn
    if turn is None:
        return
    turn.rerolled_from = turn.pool[e.die]
    turn.pool[e.die] = e.face
    turn.hits = None
    turn.rerolls_used[e.ability] = turn.rerolls_used.get(e.ability, 0) + 1
    fighter = state.fighters[e.actor]
    for ability in fighter.profile.rerolls:
        if ability.name == e.ability:
            fighter.resources[ability.resource] -= ability.cost


def _spotted(state: AgeOfDragonsState, e: events.DieSpotted) -> None:
    dice_spotted(state, e.dice)


def dice_spotted(state: AgeOfDragonsState, dice: tuple[int, ...]) -> None:
    """``DieSpotted``: ``dice`` of the pool are spotted (and spent, under the table's rule)."""
    turn = state.turn
    if turn is None:
        return
    for i in dice:
        turn.spotted[i] = True
        if state.spot_consumes_dice:
            turn.expended[i] = True
            turn.hits = None
    run = state.spot_run
    if run is not None:
        pool = turn.pool
        run.faces.extend([pool[i] for i in dice])


def _expended(state: AgeOfDragonsState, e: events.DiceExpended) -> None:
    dice_expended(state, e.dice)


def dice_expended(state: AgeOfDragonsState, dice: tuple[int, ...]) -> None:
    """``DiceExpended``: ``dice`` of the pool are spent; the known hits lose them."""
    turn = state.turn
    if turn is not None:
        for i in dice:
            turn.expended[i] = True
        hits = turn.hits
        if hits is not None:  # the known hits, less the dice just expended (order kept)
            turn.hits = () if hits == dice else tuple(i for i in hits if i not in dice)


def _aimed(state: AgeOfDragonsState, e: events.Aimed) -> None:
    aimed(state, e.target, e.amount)


def aimed(state: AgeOfDragonsState, target: str, amount: int) -> None:
    """``Aimed``: the turn's aim at ``target`` grows by ``amount``."""
    if state.turn is not None:
        aims = state.turn.aims
        aims[target] = aims.get(target, 0) + amount


def _declared(state: AgeOfDragonsState, e: events.AttackDeclared) -> None:
    state.pending = Pending.declared(e.attacker, e.attack, list(e.defenders), e.hits, e.tn,
                                     e.damage_bonus, e.sixes, e.style, e.called, e.weapon)


def _resolved(state: AgeOfDragonsState, e: events.AttackResolved) -> None:
    defender = state.fighters[e.defender]
    defender.pd -= e.pd_spent
    defender.pr -= e.damage
    pending = state.pending
    if pending is not None:
        pending.defenders.pop(0)
        if not pending.defenders:
            state.pending = None
    state.may_end = True  # MAY_END (set here: the commonest of them)


def _injured(state: AgeOfDragonsState, e: events.PartInjured) -> None:
    fighter = state.fighters[e.target]
    if e.part == "wing":
        fighter.wing = max(fighter.wing, e.severity)
    elif e.part == "tail":
        fighter.tail = max(fighter.tail, e.severity)
    else:
        i = LIMBS.index(e.part)
        fighter.limbs[i] = max(fighter.limbs[i], e.severity)


def _turn_started(state: AgeOfDragonsState, e: events.TurnStarted) -> None:
    turn_started(state, e.actor)


def turn_started(state: AgeOfDragonsState, actor: str) -> None:
    """``TurnStarted``: ``actor``'s Physical Defence refills; its turn begins."""
    fighter = state.fighters[actor]
    fighter.pd = fighter.profile.passive_pd
    state.turn = Turn.start(actor)
    if state.foe_index is not None:  # the heuristic's index of the foes (tactics.FoeIndex)
        state.foe_index.touch(actor)


def _turn_ended(state: AgeOfDragonsState, e: events.TurnEnded) -> None:
    turn_ended(state)


def turn_ended(state: AgeOfDragonsState) -> None:
    """``TurnEnded``: the turn is over; the next in the order is up."""
    if state.spot_run is not None:
        _close_run(state)
    state.turn = None
    state.turn_index += 1


def _death_checked(state: AgeOfDragonsState, e: events.DeathChecked) -> None:
    if e.passed:
        state.fighters[e.actor].pr += 1


def _fell(state: AgeOfDragonsState, e: events.Fell) -> None:
    fighter = state.fighters[e.actor]
    fighter.altitude = e.altitude
    fighter.falling_rounds = e.rounds
    fighter.fell_this_round = True


def _round_ended(state: AgeOfDragonsState, e: events.RoundEnded) -> None:
    state.round = e.round + 1
    state.may_end = True  # MAY_END (set here)
    state.turn_index = 0
    for fighter in state.fighters.values():
        if not fighter.fell_this_round:
            fighter.falling_rounds = 0
        fighter.fell_this_round = False
        fighter.chose_fall = False


def _order(state: AgeOfDragonsState, e: events.OrderFixed) -> None:
    state.order = e.order
    state.round = 1
    state.turn_index = 0


def _set(attr: str, value: Any) -> Callable[[AgeOfDragonsState, Any], None]:
    def handler(state: AgeOfDragonsState, e: Any) -> None:
        setattr(state.fighters[e.target if hasattr(e, "target") else e.actor], attr, value)
    return handler


def _grapple(state: AgeOfDragonsState, e: events.GrappleFormed) -> None:
    key = pair(e.a, e.b)
    state.grapples.add(key)
    state.ranges[key] = ZERO


def _broken(state: AgeOfDragonsState, e: events.GrappleBroken) -> None:
    key = pair(e.a, e.b)
    state.grapples.discard(key)
    state.ranges[key] = CLOSE


def _range(state: AgeOfDragonsState, e: events.RangeChanged) -> None:
    state.ranges[pair(e.a, e.b)] = e.range


def _altitude(state: AgeOfDragonsState, e: events.AltitudeChanged) -> None:
    state.fighters[e.actor].altitude = e.altitude


def _evaded(state: AgeOfDragonsState, e: events.Evaded) -> None:
    evaded(state, e.actor, e.amount)


def evaded(state: AgeOfDragonsState, actor: str, amount: int) -> None:
    """``Evaded``: ``actor``'s Physical Defence grows by ``amount``."""
    state.fighters[actor].pd += amount
    if state.foe_index is not None:
        state.foe_index.touch(actor)


def _landed(state: AgeOfDragonsState, e: events.LandedHard) -> None:
    fighter = state.fighters[e.actor]
    fighter.pr -= e.damage
    fighter.falling_rounds = 0  # the fall is over: a later fall counts its rounds afresh


def _ended(state: AgeOfDragonsState, e: FightEnded) -> None:
    state.result = (e.winner, e.reason)


def _nothing(state: AgeOfDragonsState, e: Event) -> None:
    return None


#: The fold registry: one handler per event class (as ``fracas.core.loop.fold_by_type``
#: takes it; :func:`apply_event` reads it in place, one call frame less per event).
HANDLERS: dict[type[Event], Callable[[AgeOfDragonsState, Any], None]] = {
    DecisionMade: _decision,
    DiceRolled: _dice,
    events.DieRerolled: _reroll,
    events.DieSpotted: _spotted,
    events.DiceExpended: _expended,
    events.Aimed: _aimed,
    events.Evaded: _evaded,
    events.RangeChanged: _range,
    events.AltitudeChanged: _altitude,
    events.AttackDeclared: _declared,
    events.AttackResolved: _resolved,
    events.PartInjured: _injured,
    events.Stunned: _set("stunned", True),
    events.Killed: _set("dead", True),
    events.GrappleFormed: _grapple,
    events.GrappleBroken: _broken,
    events.FallDeclared: _set("chose_fall", True),
    events.TurnStarted: _turn_started,
    events.TurnEnded: _turn_ended,
    events.TurnLost: _nothing,
    events.DeathChecked: _death_checked,
    events.TaskAttempted: _nothing,
    events.Fell: _fell,
    events.LandedHard: _landed,
    events.RoundEnded: _round_ended,
    events.OrderFixed: _order,
    FightEnded: _ended,
    **overrides.OVERRIDES.fold_handlers(),  # the GM's overrides (core.overrides)
}

#: The event classes that never change where the combatants stand (any combatant's
#: Resilience, death, altitude or side, a range, a grapple): only the turn, the attack
#: pending, a combatant's Physical Defence, resources or choice to fall.  The fold counts
#: every other event in ``AgeOfDragonsState.standing``; ``test_aod_plan_speed.py`` holds
#: this set to what the handlers do, event by event, in whole fights.
STANDING_KEPT: frozenset[type[Event]] = frozenset({
    DecisionMade, DiceRolled, events.DieRerolled, events.DieSpotted, events.DiceExpended,
    events.Aimed, events.Evaded, events.AttackDeclared, events.TurnLost,
    events.TaskAttempted, events.FallDeclared,
})

#: The event classes that change what the end-of-fight test reads (who is active or dead,
#: the round, the ranges): after one of them ``resolve.advance`` tests again.
MAY_END: frozenset[type[Event]] = frozenset({
    events.AttackResolved, events.Killed, events.DeathChecked, events.LandedHard,
    events.RangeChanged, events.GrappleFormed, events.GrappleBroken, events.RoundEnded,
    events.OrderFixed,
})


def _may_end(handler: Callable[[AgeOfDragonsState, Any], None],
             ) -> Callable[[AgeOfDragonsState, Any], None]:
    def handle(state: AgeOfDragonsState, e: Any) -> None:
        handler(state, e)
        state.may_end = True
    return handle


#: The MAY_END handlers that set the flag themselves (no wrapper call).
_SET_IN_PLACE = frozenset({events.AttackResolved, events.RoundEnded})
_handler = {kind: _may_end(handler) if kind in MAY_END and kind not in _SET_IN_PLACE else handler
            for kind, handler in HANDLERS.items()}.get


def apply_decision(state: AgeOfDragonsState, actor: str, action: Action) -> None:
    """What folding ``DecisionMade(actor, action)`` does, without making the event.

    For a play that keeps no log and tells no listener (the simulator, the exact solver).
    """
    if state.closed_run is not None:
        state.closed_run = None  # as apply_event does for every event
    _decided(state, action)


def told(state: AgeOfDragonsState, kind: type[Event]) -> None:
    """What :func:`apply_event` does for every event of class ``kind`` before its
    handler: the run told closes; the standing changes are counted.  For a change made
    without its event (:class:`.events.Quiet`)."""
    if state.closed_run is not None:
        state.closed_run = None
    if kind not in STANDING_KEPT:
        state.standing += 1


def apply_event(state: AgeOfDragonsState, event: Event) -> None:
    """Change ``state`` by one event (unknown core events such as notes change nothing)."""
    if state.closed_run is not None:
        state.closed_run = None  # told with the event that closed it
    kind = type(event)
    if kind not in STANDING_KEPT:
        state.standing += 1
        if state.foe_index is not None:  # the heuristic's index of the foes (tactics.FoeIndex)
            state.foe_index.note(event)
    handler = _handler(kind)
    if handler is not None:
        handler(state, event)
