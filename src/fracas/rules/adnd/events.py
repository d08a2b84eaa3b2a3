"""The events of the AD&D underground rule set: everything that happens in a fight.

The ``kind`` strings are written in saved logs and golden transcripts: they never change.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TypeVar

from fracas.core.events import DiceRolled, Event, event
from fracas.core.events import interned as core_interned

__all__ = [
    "REPORTS",
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
    "Quiet",
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
    "interned",
]

E = TypeVar("E", bound=Event)

#: Distinct events an interning constructor keeps before it starts again.
_KEPT = 4096
#: More for an attack roll's report: one for each attacker, target and total, so tens of
#: thousands in a fight of many fighters (fewer kept, it would be made afresh at each roll).
_KEPT_FOR = {"AttackRolled": 1 << 16}


def interned(cls: Callable[..., E]) -> Callable[..., E]:
    """:func:`fracas.core.events.interned` for this rule set's events, keeping ``_KEPT``
    (``tests/rules/adnd/test_adnd_memory.py`` holds what it hands out to what the class builds)."""
    return core_interned(cls, _KEPT_FOR.get(getattr(cls, "__name__", ""), _KEPT))


class Quiet(partial[None]):
    """An emitter for a play whose events nobody reads: the fold, partially applied to the
    state (``Quiet(apply_event, state)``), called like any other emitter.

    Where the emitter is one of these, the rules leave out the events that only report
    (the rolls and checks of :data:`REPORTS`, which the fold leaves the state unchanged
    by) and make only those that change the state: the same state, the same dice, fewer
    events built.  The lean play uses it (:mod:`.lean`); ``test_adnd_lean.py`` holds the
    fold to changing nothing on a report.
    """

    __slots__ = ()


@event("adnd.round")
class RoundBegan(Event):
    """A new round; the front rank at a bottleneck is formed."""

    round: int


@event("adnd.front")
class FrontRank(Event):
    """Who of a side stands in the bottleneck's frontage this round."""

    side: str
    names: tuple[str, ...]


@event("adnd.order")
class TurnOrder(Event):
    """The order of action this round, by side initiative."""

    sides: tuple[str, ...]
    names: tuple[str, ...]


@event("adnd.gm_done")
class GmDone(Event):
    """The DM's decisions for the round are made."""


@event("adnd.turn_ended")
class TurnEnded(Event):
    """The current combatant has acted (or could not)."""

    name: str


@event("adnd.attack")
class AttackRolled(Event):
    """An attack roll: the total after modifiers against the number needed.

    ``modifiers`` names what was added to the die (``+2 higher``, ``-8 dropped``).
    """

    attacker: str
    target: str
    weapon: str
    total: int
    needed: int
    hit: bool
    hidden: bool = False
    modifiers: tuple[str, ...] = ()


@event("adnd.check")
class CheckRolled(Event):
    """A check rolled at or under a target (climbing d100, Dexterity or Constitution d20).

    ``modifiers`` names what was added to the rating or ability to make ``target``.
    """

    name: str
    check: str
    roll: int
    target: int
    success: bool
    hidden: bool = False
    modifiers: tuple[str, ...] = ()


@event("adnd.save")
class SaveRolled(Event):
    """A saving throw: the total after modifiers against the save number.

    ``modifiers`` names what was added to the die (``-2 clinging``).
    """

    name: str
    category: str
    total: int
    needed: int
    success: bool
    hidden: bool = False
    modifiers: tuple[str, ...] = ()


@event("adnd.wounded")
class Wounded(Event):
    """Hit points lost."""

    target: str
    amount: int
    cause: str


@event("adnd.slain")
class Slain(Event):
    """A combatant dies (at 0 hit points, or drowned)."""

    name: str
    cause: str


@event("adnd.unconscious")
class Unconscious(Event):
    """A combatant is knocked senseless: out of the fight."""

    name: str


@event("adnd.climbed")
class Climbed(Event):
    """A climber's new height."""

    name: str
    alt: float


@event("adnd.turned")
class Turned(Event):
    """A climber faces the wall, or puts his back to it."""

    name: str
    facing_wall: bool


@event("adnd.secured")
class Secured(Event):
    """The DM rules a climber secure (no wall penalties) or no longer secure."""

    name: str
    secure: bool


@event("adnd.boulder")
class BoulderSpent(Event):
    """One boulder fewer at hand."""

    name: str


@event("adnd.wielded")
class Wielded(Event):
    """The weapon a combatant now fights with."""

    name: str
    weapon: str


@event("adnd.dropped")
class WeaponDropped(Event):
    """A weapon let go (to grab a foe while falling)."""

    name: str
    weapon: str


@event("adnd.fall_began")
class FallBegan(Event):
    """A combatant loses his hold or footing; he may try to grab one of ``choices``."""

    name: str
    choices: tuple[str, ...]


@event("adnd.grabbed")
class Grabbed(Event):
    """A falling combatant hangs on to a foe who kept his place."""

    faller: str
    holder: str


@event("adnd.landed")
class Landed(Event):
    """A fall ends at the bottom; ``out`` when the bottom is out of the fight."""

    name: str
    feet: float
    out: bool


@event("adnd.regained")
class Regained(Event):
    """A hanging combatant is back on the wall or ledge beside his foe."""

    name: str


@event("adnd.grapple")
class GrappleBegan(Event):
    """``holder`` holds ``victim``; ``under`` when both went under the water."""

    holder: str
    victim: str
    under: bool


@event("adnd.grapple_ended")
class GrappleEnded(Event):
    """A hold is broken or released; anyone under the water comes up."""

    holder: str
    victim: str


@event("adnd.breath")
class Breath(Event):
    """The breath clock of a combatant under water: free rounds left, checks made."""

    name: str
    free: int
    checks: int


#: The events that only report what was rolled (the fold changes nothing on them): a
#: :class:`Quiet` emitter is not handed them.
REPORTS: tuple[type[Event], ...] = (DiceRolled, AttackRolled, CheckRolled, SaveRolled)
