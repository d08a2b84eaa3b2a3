"""What happened.  Kind strings are stored in logs: never rename them."""

from dataclasses import dataclass
from typing import ClassVar

from fracas.core.events import Event, event_type


@event_type
@dataclass(frozen=True, slots=True)
class Guarded(Event):
    """A fighter keeps ``dice`` back until its next turn."""

    kind: ClassVar[str] = "pools.guard"
    actor: str
    dice: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Wounded(Event):
    """``target`` loses ``wounds``."""

    kind: ClassVar[str] = "pools.wounded"
    target: str
    wounds: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class TurnPassed(Event):
    """The next fighter in order is up (a new round after the last)."""

    kind: ClassVar[str] = "pools.turn"
    hidden: bool = False
