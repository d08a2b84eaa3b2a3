"""Carrying out an action and running the fight between decisions: dice in, events out."""

from fracas.core.action import Action
from fracas.core.events import DiceRolled, FightEnded
from fracas.core.rng import Rng
from fracas.core.ruleset import Emit
from pools import rules
from pools.actions import Attack
from pools.events import Guarded, TurnPassed, Wounded
from pools.state import PoolsState


def resolve(state: PoolsState, action: Action, rng: Rng, emit: Emit) -> None:
    """Roll the attack (recording every face first), wound, and pass the turn."""
    me = state.fighters[action.actor]
    if isinstance(action, Attack):
        faces = tuple(rng.dice(action.dice, 6))
        emit(DiceRolled(me.name, "attack", 6, faces))
        dealt = rules.wounds_dealt(rules.hits(faces), state.fighters[action.target].guard)
        if dealt:
            emit(Wounded(action.target, dealt))
        emit(Guarded(me.name, me.dice - action.dice))
    else:
        emit(Guarded(me.name, me.dice))
    emit(TurnPassed())


def advance(state: PoolsState, rng: Rng, emit: Emit) -> None:
    """End the fight when one side is left or the rounds run out; skip the fallen."""
    sides = {f.side for f in state.fighters.values() if f.up}
    if len(sides) <= 1:
        emit(FightEnded(next(iter(sides), None), "one side left"))
    elif state.round > state.max_rounds:
        emit(FightEnded(None, "round limit"))
    while state.result is None and not state.fighters[state.order[state.turn]].up:
        emit(TurnPassed())
