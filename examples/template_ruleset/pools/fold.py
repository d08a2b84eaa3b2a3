"""The fold: one handler per event class (others change nothing).  No dice, no clock."""

from collections.abc import Callable

from fracas.core.events import Event, FightEnded
from fracas.core.loop import fold_by_type
from pools.events import Guarded, TurnPassed, Wounded
from pools.state import PoolsState


def _wounded(state: PoolsState, event: Wounded) -> None:
    target = state.fighters[event.target]
    target.wounds = max(0, target.wounds - event.wounds)


def _guarded(state: PoolsState, event: Guarded) -> None:
    state.fighters[event.actor].guard = event.dice


def _turn_passed(state: PoolsState, event: TurnPassed) -> None:
    state.turn += 1
    if state.turn == len(state.order):
        state.turn, state.round = 0, state.round + 1


def _ended(state: PoolsState, event: FightEnded) -> None:
    state.result = (event.winner, event.reason)


apply_event: Callable[[PoolsState, Event], None] = fold_by_type({
    Wounded: _wounded, Guarded: _guarded, TurnPassed: _turn_passed, FightEnded: _ended})
