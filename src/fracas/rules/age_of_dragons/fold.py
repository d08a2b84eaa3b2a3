"""How each event changes an Age of Dragons state (the fold).  No dice, no choices."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fracas.core.events import DecisionMade, DiceRolled, Event, FightEnded
from fracas.rules.age_of_dragons import actions as act
from fracas.rules.age_of_dragons import events as ev
from fracas.rules.age_of_dragons.model import (
    CLOSE,
    LIMBS,
    ZERO,
    Pending,
    SpotRun,
    State,
    Turn,
    pair,
)

__all__ = ["apply_event"]

_EXPEND_ACTIONS = (act.Attack, act.Shoot, act.Grapple, act.BreakOut, act.UseTask)
#: Spot effects whose repeats the log tells as one line (see ``SpotRun``).
FOLDED = frozenset({"aim", "evade"})


def _close_run(state: State) -> None:
    run = state.spot_run
    if run is not None:
        if run.effect in FOLDED:
            state.closed_run = run
        state.spot_run = None


def _track_spots(state: State, action: object) -> None:
    """Keep the log's record of the spots in a row (no rule reads it)."""
    run = state.spot_run
    if type(action) is act.Spot:
        if run is not None and run.effect in FOLDED and run.effect == action.effect and \
                run.actor == action.actor and run.target == action.target:
            return  # the same Aim or Evade again: one run
        _close_run(state)
        state.spot_run = SpotRun(action.actor, action.effect, action.target, action.closer)
    elif run is not None:
        _close_run(state)


def _decision(state: State, e: DecisionMade) -> None:
    # A later step's action closes the earlier steps of the turn.
    turn, action = state.turn, e.action
    if state.spot_run is not None or type(action) is act.Spot:
        _track_spots(state, action)
    if turn is None:
        return
    if isinstance(action, act.RollPool):
        turn.spheres = action.spheres
    elif isinstance(action, act.Spot):
        turn.step = "spot"
    elif isinstance(action, _EXPEND_ACTIONS):
        turn.step = "expend"


def _dice(state: State, e: DiceRolled) -> None:
    if e.purpose == ev.POOL and state.turn is not None:
        turn = state.turn
        turn.pool = list(e.faces)
        turn.spotted = [False] * len(e.faces)
        turn.expended = [False] * len(e.faces)
        turn.step = "reroll"


def _reroll(state: State, e: ev.DieRerolled) -> None:
    turn = state.turn
    if turn is None:
        return
    turn.rerolled_from = turn.pool[e.die]
    turn.pool[e.die] = e.face
    turn.rerolls_used[e.ability] = turn.rerolls_used.get(e.ability, 0) + 1
    fighter = state.fighters[e.actor]
    for ability in fighter.profile.rerolls:
        if ability.name == e.ability:
            fighter.resources[ability.resource] -= ability.cost


def _spotted(state: State, e: ev.DieSpotted) -> None:
    turn = state.turn
    if turn is None:
        return
    for i in e.dice:
        turn.spotted[i] = True
        if state.spot_consumes_dice:
            turn.expended[i] = True
    run = state.spot_run
    if run is not None:
        pool = turn.pool
        run.faces.extend([pool[i] for i in e.dice])


def _expended(state: State, e: ev.DiceExpended) -> None:
    if state.turn is not None:
        for i in e.dice:
            state.turn.expended[i] = True


def _aimed(state: State, e: ev.Aimed) -> None:
    if state.turn is not None:
        aims = state.turn.aims
        aims[e.target] = aims.get(e.target, 0) + e.amount


def _declared(state: State, e: ev.AttackDeclared) -> None:
    state.pending = Pending(e.attacker, e.attack, list(e.defenders), e.hits, e.tn,
                            e.damage_bonus, e.sixes, e.style, e.called, e.weapon)


def _resolved(state: State, e: ev.AttackResolved) -> None:
    defender = state.fighters[e.defender]
    defender.pd -= e.pd_spent
    defender.pr -= e.damage
    pending = state.pending
    if pending is not None:
        pending.defenders.pop(0)
        if not pending.defenders:
            state.pending = None


def _injured(state: State, e: ev.PartInjured) -> None:
    fighter = state.fighters[e.target]
    if e.part == "wing":
        fighter.wing = max(fighter.wing, e.severity)
    elif e.part == "tail":
        fighter.tail = max(fighter.tail, e.severity)
    else:
        i = LIMBS.index(e.part)
        fighter.limbs[i] = max(fighter.limbs[i], e.severity)


def _turn_started(state: State, e: ev.TurnStarted) -> None:
    fighter = state.fighters[e.actor]
    fighter.pd = fighter.profile.passive_pd
    state.turn = Turn(e.actor)


def _turn_ended(state: State, e: ev.TurnEnded) -> None:
    _close_run(state)
    state.turn = None
    state.turn_index += 1


def _death_checked(state: State, e: ev.DeathChecked) -> None:
    if e.passed:
        state.fighters[e.actor].pr += 1


def _fell(state: State, e: ev.Fell) -> None:
    fighter = state.fighters[e.actor]
    fighter.altitude = e.altitude
    fighter.falling_rounds = e.rounds
    fighter.fell_this_round = True


def _round_ended(state: State, e: ev.RoundEnded) -> None:
    state.round = e.round + 1
    state.turn_index = 0
    for fighter in state.fighters.values():
        if not fighter.fell_this_round:
            fighter.falling_rounds = 0
        fighter.fell_this_round = False
        fighter.chose_fall = False


def _order(state: State, e: ev.OrderFixed) -> None:
    state.order = e.order
    state.round = 1
    state.turn_index = 0


def _set(attr: str, value: Any) -> Callable[[State, Any], None]:
    def handler(state: State, e: Any) -> None:
        setattr(state.fighters[e.target if hasattr(e, "target") else e.actor], attr, value)
    return handler


def _grapple(state: State, e: ev.GrappleFormed) -> None:
    key = pair(e.a, e.b)
    state.grapples.add(key)
    state.ranges[key] = ZERO


def _broken(state: State, e: ev.GrappleBroken) -> None:
    key = pair(e.a, e.b)
    state.grapples.discard(key)
    state.ranges[key] = CLOSE


def _range(state: State, e: ev.RangeChanged) -> None:
    state.ranges[pair(e.a, e.b)] = e.range


def _altitude(state: State, e: ev.AltitudeChanged) -> None:
    state.fighters[e.actor].altitude = e.altitude


def _evaded(state: State, e: ev.Evaded) -> None:
    state.fighters[e.actor].pd += e.amount


def _landed(state: State, e: ev.LandedHard) -> None:
    fighter = state.fighters[e.actor]
    fighter.pr -= e.damage
    fighter.falling_rounds = 0  # the fall is over: a later fall counts its rounds afresh


def _ended(state: State, e: FightEnded) -> None:
    state.result = (e.winner, e.reason)


def _nothing(state: State, e: Event) -> None:
    return None


_HANDLERS: dict[type[Event], Callable[[State, Any], None]] = {
    DecisionMade: _decision,
    DiceRolled: _dice,
    ev.DieRerolled: _reroll,
    ev.DieSpotted: _spotted,
    ev.DiceExpended: _expended,
    ev.Aimed: _aimed,
    ev.Evaded: _evaded,
    ev.RangeChanged: _range,
    ev.AltitudeChanged: _altitude,
    ev.AttackDeclared: _declared,
    ev.AttackResolved: _resolved,
    ev.PartInjured: _injured,
    ev.Stunned: _set("stunned", True),
    ev.Killed: _set("dead", True),
    ev.GrappleFormed: _grapple,
    ev.GrappleBroken: _broken,
    ev.FallDeclared: _set("chose_fall", True),
    ev.TurnStarted: _turn_started,
    ev.TurnEnded: _turn_ended,
    ev.TurnLost: _nothing,
    ev.DeathChecked: _death_checked,
    ev.TaskAttempted: _nothing,
    ev.Fell: _fell,
    ev.LandedHard: _landed,
    ev.RoundEnded: _round_ended,
    ev.OrderFixed: _order,
    FightEnded: _ended,
}


def apply_event(state: State, event: Event) -> None:
    """Change ``state`` by one event (unknown core events such as notes change nothing)."""
    if state.closed_run is not None:
        state.closed_run = None  # told with the event that closed it
    handler = _HANDLERS.get(type(event))
    if handler is not None:
        handler(state, event)
