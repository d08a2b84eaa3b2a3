"""The fold: one event changes the state.  Never rolls dice, never reads the clock."""

from fracas.core.events import Event, FightEnded
from pools.events import Guarded, TurnPassed, Wounded
from pools.state import PoolsState


def apply_event(state: PoolsState, event: Event) -> None:
    """Change ``state`` in place by ``event``."""
    if isinstance(event, Wounded):
        target = state.fighters[event.target]
        target.wounds = max(0, target.wounds - event.wounds)
    elif isinstance(event, Guarded):
        state.fighters[event.actor].guard = event.dice
    elif isinstance(event, TurnPassed):
        state.turn += 1
        if state.turn == len(state.order):
            state.turn, state.round = 0, state.round + 1
    elif isinstance(event, FightEnded):
        state.result = (event.winner, event.reason)
