"""The events of the AD&D underground rule set: everything that happens in a fight.

The ``kind`` strings are written in saved logs and golden transcripts: they never change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from fracas.core.events import Event, event_type

__all__ = [
    "AttackRolled",
    "BoulderSpent",
    "Breath",
    "CheckRolled",
    "Climbed",
    "FallBegan",
    "FrontRank",
    "GmDone",
    "Grabbed",
    "GrappleBegan",
    "GrappleEnded",
    "Landed",
    "Regained",
    "RoundBegan",
    "SaveRolled",
    "Secured",
    "Slain",
    "TurnEnded",
    "TurnOrder",
    "Turned",
    "Unconscious",
    "WeaponDropped",
    "Wielded",
    "Wounded",
]


@event_type
@dataclass(frozen=True, slots=True)
class RoundBegan(Event):
    """A new round; the front rank at a bottleneck is formed."""

    kind: ClassVar[str] = "adnd.round"
    round: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class FrontRank(Event):
    """Who of a side stands in the bottleneck's frontage this round."""

    kind: ClassVar[str] = "adnd.front"
    side: str
    names: tuple[str, ...]
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class TurnOrder(Event):
    """The order of action this round, by side initiative."""

    kind: ClassVar[str] = "adnd.order"
    sides: tuple[str, ...]
    names: tuple[str, ...]
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class GmDone(Event):
    """The DM's decisions for the round are made."""

    kind: ClassVar[str] = "adnd.gm_done"
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """The current combatant has acted (or could not)."""

    kind: ClassVar[str] = "adnd.turn_ended"
    name: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class AttackRolled(Event):
    """An attack roll: the total after modifiers against the number needed.

    ``modifiers`` names what was added to the die (``+2 higher``, ``-8 dropped``).
    """

    kind: ClassVar[str] = "adnd.attack"
    attacker: str
    target: str
    weapon: str
    total: int
    needed: int
    hit: bool
    hidden: bool = False
    modifiers: tuple[str, ...] = ()


@event_type
@dataclass(frozen=True, slots=True)
class CheckRolled(Event):
    """A check rolled at or under a target (climbing d100, Dexterity or Constitution d20).

    ``modifiers`` names what was added to the rating or ability to make ``target``.
    """

    kind: ClassVar[str] = "adnd.check"
    name: str
    check: str
    roll: int
    target: int
    success: bool
    hidden: bool = False
    modifiers: tuple[str, ...] = ()


@event_type
@dataclass(frozen=True, slots=True)
class SaveRolled(Event):
    """A saving throw: the total after modifiers against the save number.

    ``modifiers`` names what was added to the die (``-2 clinging``).
    """

    kind: ClassVar[str] = "adnd.save"
    name: str
    category: str
    total: int
    needed: int
    success: bool
    hidden: bool = False
    modifiers: tuple[str, ...] = ()


@event_type
@dataclass(frozen=True, slots=True)
class Wounded(Event):
    """Hit points lost."""

    kind: ClassVar[str] = "adnd.wounded"
    target: str
    amount: int
    cause: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Slain(Event):
    """A combatant dies (at 0 hit points, or drowned)."""

    kind: ClassVar[str] = "adnd.slain"
    name: str
    cause: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Unconscious(Event):
    """A combatant is knocked senseless: out of the fight."""

    kind: ClassVar[str] = "adnd.unconscious"
    name: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Climbed(Event):
    """A climber's new height."""

    kind: ClassVar[str] = "adnd.climbed"
    name: str
    alt: float
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Turned(Event):
    """A climber faces the wall, or puts his back to it."""

    kind: ClassVar[str] = "adnd.turned"
    name: str
    facing_wall: bool
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Secured(Event):
    """The DM rules a climber secure (no wall penalties) or no longer secure."""

    kind: ClassVar[str] = "adnd.secured"
    name: str
    secure: bool
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class BoulderSpent(Event):
    """One boulder fewer at hand."""

    kind: ClassVar[str] = "adnd.boulder"
    name: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Wielded(Event):
    """The weapon a combatant now fights with."""

    kind: ClassVar[str] = "adnd.wielded"
    name: str
    weapon: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class WeaponDropped(Event):
    """A weapon let go (to grab a foe while falling)."""

    kind: ClassVar[str] = "adnd.dropped"
    name: str
    weapon: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class FallBegan(Event):
    """A combatant loses his hold or footing; he may try to grab one of ``choices``."""

    kind: ClassVar[str] = "adnd.fall_began"
    name: str
    choices: tuple[str, ...]
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Grabbed(Event):
    """A falling combatant hangs on to a foe who kept his place."""

    kind: ClassVar[str] = "adnd.grabbed"
    faller: str
    holder: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Landed(Event):
    """A fall ends at the bottom; ``out`` when the bottom is out of the fight."""

    kind: ClassVar[str] = "adnd.landed"
    name: str
    feet: float
    out: bool
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Regained(Event):
    """A hanging combatant is back on the wall or ledge beside his foe."""

    kind: ClassVar[str] = "adnd.regained"
    name: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class GrappleBegan(Event):
    """``holder`` holds ``victim``; ``under`` when both went under the water."""

    kind: ClassVar[str] = "adnd.grapple"
    holder: str
    victim: str
    under: bool
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class GrappleEnded(Event):
    """A hold is broken or released; anyone under the water comes up."""

    kind: ClassVar[str] = "adnd.grapple_ended"
    holder: str
    victim: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Breath(Event):
    """The breath clock of a combatant under water: free rounds left, checks made."""

    kind: ClassVar[str] = "adnd.breath"
    name: str
    free: int
    checks: int
    hidden: bool = False
