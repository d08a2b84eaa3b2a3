"""The actions of the AD&D underground rule set: what a combatant or the DM may decide.

Class and field names are the typed action syntax (``Wren attack target=Grak
weapon=sword``) and are recorded in saved logs: they never change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from fracas.core.action import Action

__all__ = [
    "ACTIONS",
    "SAVE_CATEGORIES",
    "Attack",
    "Boulder",
    "BreakFree",
    "CallSave",
    "Climb",
    "Grab",
    "Grapple",
    "KnockOut",
    "Plummet",
    "Proceed",
    "Regain",
    "Release",
    "SaveCategory",
    "Secure",
    "Turn",
    "Wait",
]


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """Strike (melee) or shoot (missile weapon) at a foe."""

    verb: ClassVar[str] = "attack"
    actor: str
    target: str
    weapon: str


@dataclass(frozen=True, slots=True)
class Boulder(Action):
    """Hurl (or, if too weak, drop) a boulder on a foe below."""

    verb: ClassVar[str] = "boulder"
    actor: str
    target: str


@dataclass(frozen=True, slots=True)
class Climb(Action):
    """Climb one step up or down a sheer surface."""

    verb: ClassVar[str] = "climb"
    actor: str
    direction: Literal["up", "down"]


@dataclass(frozen=True, slots=True)
class Turn(Action):
    """A climber turns his face to the wall or his back to it."""

    verb: ClassVar[str] = "turn"
    actor: str


@dataclass(frozen=True, slots=True)
class Grapple(Action):
    """Seize a foe bare-handed (in deep enough water, pull him under)."""

    verb: ClassVar[str] = "grapple"
    actor: str
    target: str


@dataclass(frozen=True, slots=True)
class BreakFree(Action):
    """Try to break a hold on oneself."""

    verb: ClassVar[str] = "break_free"
    actor: str


@dataclass(frozen=True, slots=True)
class Release(Action):
    """Let go of the foe one holds."""

    verb: ClassVar[str] = "release"
    actor: str


@dataclass(frozen=True, slots=True)
class Regain(Action):
    """Hanging from a foe, try to regain one's own hold or footing."""

    verb: ClassVar[str] = "regain"
    actor: str


@dataclass(frozen=True, slots=True)
class Grab(Action):
    """While falling, try to grab a foe and drag him along."""

    verb: ClassVar[str] = "grab"
    actor: str
    target: str


@dataclass(frozen=True, slots=True)
class Plummet(Action):
    """While falling, make no attempt to grab anyone."""

    verb: ClassVar[str] = "plummet"
    actor: str


@dataclass(frozen=True, slots=True)
class Wait(Action):
    """Do nothing this round (a holder keeps his hold)."""

    verb: ClassVar[str] = "wait"
    actor: str


@dataclass(frozen=True, slots=True)
class Secure(Action):
    """The DM rules that a climber has reached a secure place: no wall penalties."""

    verb: ClassVar[str] = "secure"
    actor: str
    target: str


SaveCategory = Literal["paralyzation", "rod", "petrification", "breath", "spell"]
SAVE_CATEGORIES: tuple[SaveCategory, ...] = ("paralyzation", "rod", "petrification", "breath",
                                             "spell")


@dataclass(frozen=True, slots=True)
class CallSave(Action):
    """The DM calls for a saving throw against some hazard."""

    verb: ClassVar[str] = "call_save"
    actor: str
    target: str
    category: SaveCategory


@dataclass(frozen=True, slots=True)
class KnockOut(Action):
    """The DM rules that magic (a sleep spell, say) has left a combatant unconscious."""

    verb: ClassVar[str] = "knock_out"
    actor: str
    target: str


@dataclass(frozen=True, slots=True)
class Proceed(Action):
    """The DM lets the round run."""

    verb: ClassVar[str] = "proceed"
    actor: str


ACTIONS: tuple[type[Action], ...] = (Attack, Boulder, Climb, Turn, Grapple, BreakFree, Release,
                                      Regain, Grab, Plummet, Wait, Secure, CallSave, KnockOut,
                                      Proceed)
