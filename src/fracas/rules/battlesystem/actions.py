"""Orders of the BATTLESYSTEM underground rule set: what a unit (or the GM) may give.

Orders that name an area, a unit or a feature carry a ``group`` field first: when
more than 12 are on offer, a person first picks a group of at most 12 (named by its
first member), then one of them.  With 12 or fewer it is not asked and stays empty,
so the order's text is ``x move to=den`` as always; an empty group is always
accepted (typed orders need not name it).
"""

from __future__ import annotations

from dataclasses import field

from fracas.core.action import Action, action

__all__ = [
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
]


# -- unit orders ------------------------------------------------------------------

@action("move")
class Move(Action):
    """March toward an area along the shortest open path."""

    actor: str
    group: str = field(default="", kw_only=True)
    to: str


@action("charge")
class Charge(Action):
    """Charge a visible enemy unit within this turn's movement."""

    actor: str
    group: str = field(default="", kw_only=True)
    target: str


@action("hold")
class Hold(Action):
    """Stand still this phase."""

    actor: str


@action("form")
class Form(Action):
    """Change formation (closed, open, column, skirmish); open spreads along ``axis``."""

    actor: str
    formation: str
    axis: str = "width"


@action("torches")
class Torches(Action):
    """Light or put out the unit's light sources."""

    actor: str
    lit: bool


@action("fly")
class Fly(Action):
    """A flying unit changes altitude band."""

    actor: str
    altitude: str


@action("fire")
class Fire(Action):
    """Shoot missiles at a visible enemy unit in range."""

    actor: str
    group: str = field(default="", kw_only=True)
    target: str


# -- GM decisions -------------------------------------------------------------------

@action("pass")
class Pass(Action):
    """The GM lets the turn run without a special effect."""

    actor: str


@action("cave_in")
class CaveIn(Action):
    """The GM brings down a prepared ceiling collapse (earthquake, transmute rock to mud)."""

    actor: str
    group: str = field(default="", kw_only=True)
    area: str


@action("release_gas")
class ReleaseGas(Action):
    """The GM releases a prepared gaseous spell in an area."""

    actor: str
    group: str = field(default="", kw_only=True)
    area: str


@action("strike")
class StrikeFeature(Action):
    """The GM aims a prepared explosive spell at a fragile formation."""

    actor: str
    group: str = field(default="", kw_only=True)
    feature: str
