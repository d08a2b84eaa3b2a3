"""The actions of the AD&D underground rule set: what a combatant or the DM may decide.

Class and field names are the typed action syntax (``Wren attack target=Grak
weapon=sword``) and are recorded in saved logs: they never change.
"""

from __future__ import annotations

from typing import Literal

from fracas.core.action import Action, action

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


@action("attack")
class Attack(Action):
    """Strike (melee) or shoot (missile weapon) at a foe."""

    actor: str
    target: str
    weapon: str


@action("boulder")
class Boulder(Action):
    """Hurl (or, if too weak, drop) a boulder on a foe below."""

    actor: str
    target: str


@action("climb")
class Climb(Action):
    """Climb one step up or down a sheer surface."""

    actor: str
    direction: Literal["up", "down"]


@action("turn")
class Turn(Action):
    """A climber turns his face to the wall or his back to it."""

    actor: str


@action("grapple")
class Grapple(Action):
    """Seize a foe bare-handed (in deep enough water, pull him under)."""

    actor: str
    target: str


@action("break_free")
class BreakFree(Action):
    """Try to break a hold on oneself."""

    actor: str


@action("release")
class Release(Action):
    """Let go of the foe one holds."""

    actor: str


@action("regain")
class Regain(Action):
    """Hanging from a foe, try to regain one's own hold or footing."""

    actor: str


@action("grab")
class Grab(Action):
    """While falling, try to grab a foe and drag him along."""

    actor: str
    target: str


@action("plummet")
class Plummet(Action):
    """While falling, make no attempt to grab anyone."""

    actor: str


@action("wait")
class Wait(Action):
    """Do nothing this round (a holder keeps his hold)."""

    actor: str


@action("secure")
class Secure(Action):
    """The DM rules that a climber has reached a secure place: no wall penalties."""

    actor: str
    target: str


SaveCategory = Literal["paralyzation", "rod", "petrification", "breath", "spell"]
SAVE_CATEGORIES: tuple[SaveCategory, ...] = ("paralyzation", "rod", "petrification", "breath",
                                             "spell")


@action("call_save")
class CallSave(Action):
    """The DM calls for a saving throw against some hazard."""

    actor: str
    target: str
    category: SaveCategory


@action("knock_out")
class KnockOut(Action):
    """The DM rules that magic (a sleep spell, say) has left a combatant unconscious."""

    actor: str
    target: str


@action("proceed")
class Proceed(Action):
    """The DM lets the round run."""

    actor: str


ACTIONS: tuple[type[Action], ...] = (Attack, Boulder, Climb, Turn, Grapple, BreakFree, Release,
                                      Regain, Grab, Plummet, Wait, Secure, CallSave, KnockOut,
                                      Proceed)
