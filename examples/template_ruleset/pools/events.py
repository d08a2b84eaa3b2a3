"""What happened.  Kind strings are stored in logs: never rename them."""


from fracas.core.events import Event, event


@event("pools.guard")
class Guarded(Event):
    """A fighter keeps ``dice`` back until its next turn."""

    actor: str
    dice: int


@event("pools.wounded")
class Wounded(Event):
    """``target`` loses ``wounds``."""

    target: str
    wounds: int


@event("pools.turn")
class TurnPassed(Event):
    """The next fighter in order is up (a new round after the last)."""
