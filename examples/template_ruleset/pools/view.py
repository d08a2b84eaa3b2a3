"""Everything people read: standings and one line per event."""

from collections.abc import Sequence

from fracas.core.events import DiceRolled, Event
from fracas.core.ruleset import Standing
from pools.events import Guarded, TurnPassed, Wounded
from pools.state import PoolsState


def standings(state: PoolsState) -> Sequence[Standing]:
    """Each fighter's side, status and wounds, in turn order."""
    return [Standing(f.name, f.side, "ok" if f.up else "down", f.wounds, f.wounds_max)
            for f in (state.fighters[name] for name in state.order)]


def describe_event(event: Event, state: PoolsState) -> str | None:
    """One readable line, or "" to leave the event out of a readable log."""
    if isinstance(event, DiceRolled):
        return f"{event.actor} rolls {' '.join(map(str, event.faces))}"
    if isinstance(event, Wounded):
        return f"{event.target} takes {event.wounds} wound(s)"
    if isinstance(event, Guarded):
        return f"{event.actor} keeps {event.dice} dice back" if event.dice else ""
    if isinstance(event, TurnPassed):
        return ""
    return None
