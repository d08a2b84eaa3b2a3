"""Orders of the BATTLESYSTEM underground rule set: what a unit (or the GM) may give.

Orders that name an area, a unit or a feature carry a ``group`` field first: when
more than 12 are on offer, a person first picks a group of at most 12 (named by its
first member), then one of them.  With 12 or fewer it is not asked and stays empty,
so the order's text is ``x move to=den`` as always; an empty group is always
accepted (typed orders need not name it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from fracas.core.action import Action

__all__ = [
    "Attack",
    "CaveIn",
    "Charge",
    "Fire",
    "Fly",
    "Form",
    "Hold",
    "Move",
    "Pass",
    "ReleaseGas",
    "StrikeFeature",
    "Torches",
    "Withdraw",
]


# -- unit orders ------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Move(Action):
    """March toward an area along the shortest open path."""

    verb: ClassVar[str] = "move"
    actor: str
    group: str = field(default="", kw_only=True)
    to: str


@dataclass(frozen=True, slots=True)
class Charge(Action):
    """Charge a visible enemy unit within this turn's movement."""

    verb: ClassVar[str] = "charge"
    actor: str
    group: str = field(default="", kw_only=True)
    target: str


@dataclass(frozen=True, slots=True)
class Hold(Action):
    """Stand still this phase."""

    verb: ClassVar[str] = "hold"
    actor: str


@dataclass(frozen=True, slots=True)
class Form(Action):
    """Change formation (closed, open, column, skirmish); open spreads along ``axis``."""

    verb: ClassVar[str] = "form"
    actor: str
    formation: str
    axis: str = "width"


@dataclass(frozen=True, slots=True)
class Torches(Action):
    """Light or put out the unit's light sources."""

    verb: ClassVar[str] = "torches"
    actor: str
    lit: bool


@dataclass(frozen=True, slots=True)
class Fly(Action):
    """A flying unit changes altitude band."""

    verb: ClassVar[str] = "fly"
    actor: str
    altitude: str


@dataclass(frozen=True, slots=True)
class Fire(Action):
    """Shoot missiles at a visible enemy unit in range."""

    verb: ClassVar[str] = "fire"
    actor: str
    group: str = field(default="", kw_only=True)
    target: str


# -- melee decisions (issue 33: withdrawing from contact, choosing whom to strike) --

@dataclass(frozen=True, slots=True)
class Withdraw(Action):
    """Pull back out of melee into a neighbouring area, suffering the foes' free strikes."""

    verb: ClassVar[str] = "withdraw"
    actor: str
    group: str = field(default="", kw_only=True)
    to: str


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """In melee with several enemy units: hold, and strike this one in this turn's melee."""

    verb: ClassVar[str] = "attack"
    actor: str
    group: str = field(default="", kw_only=True)
    target: str


# -- GM decisions -------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Pass(Action):
    """The GM lets the turn run without a special effect."""

    verb: ClassVar[str] = "pass"
    actor: str


@dataclass(frozen=True, slots=True)
class CaveIn(Action):
    """The GM brings down a prepared ceiling collapse (earthquake, transmute rock to mud)."""

    verb: ClassVar[str] = "cave_in"
    actor: str
    group: str = field(default="", kw_only=True)
    area: str


@dataclass(frozen=True, slots=True)
class ReleaseGas(Action):
    """The GM releases a prepared gaseous spell in an area."""

    verb: ClassVar[str] = "release_gas"
    actor: str
    group: str = field(default="", kw_only=True)
    area: str


@dataclass(frozen=True, slots=True)
class StrikeFeature(Action):
    """The GM aims a prepared explosive spell at a fragile formation."""

    verb: ClassVar[str] = "strike"
    actor: str
    group: str = field(default="", kw_only=True)
    feature: str
