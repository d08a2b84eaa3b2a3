"""Which actions are legal, field by field (the two hooks every rule set writes)."""

from fracas.core.decision import Menu, Partial, Span
from fracas.core.errors import IllegalActionError
from pools.actions import Attack
from pools.state import PoolsState


def current_actor(state: PoolsState) -> str | None:
    """Whose turn it is, or None once the fight is over."""
    return None if state.result else state.order[state.turn]


def why_not(state: PoolsState, partial: Partial) -> IllegalActionError | None:
    """The rule that refuses what ``partial`` holds so far, or None."""
    me = partial.actor
    if me != current_actor(state):
        return partial.refuse("turn order", f"it is not {me}'s turn")
    if partial.kind is not Attack:
        return None
    if "target" in partial:
        target = state.fighters.get(partial["target"])
        if target is None or not target.up or target.side == state.fighters[me].side:
            return partial.refuse("targets", f"{partial['target']} is not a standing foe")
    elif not state.foes(me):
        return partial.refuse("targets", "no foe is standing")
    if "dice" in partial and not 1 <= partial["dice"] <= state.fighters[me].dice:
        return partial.refuse("pools", f"roll 1 to {state.fighters[me].dice} dice")
    return None


def step(state: PoolsState, partial: Partial, field: str) -> Menu | Span | None:
    """The candidates for the next field: foes by name, then a number of dice."""
    me = state.fighters[partial.actor]
    if field == "target":
        return Menu.of([f.name for f in state.foes(me.name)],
                       label=lambda name: f"{name} ({state.fighters[name].wounds} wounds)")
    if field == "dice":
        return Span(1, me.dice, default=me.dice)
    return None
