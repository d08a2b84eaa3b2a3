"""Events of the BATTLESYSTEM underground rule set.

Events are every change to the battle, each small, frozen and applied by
:func:`.fold.apply_event`.  Values are absolute (figures left, area entered) so a
log replays exactly.  Kind strings (``bs.…``) never change: saved logs use them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from fracas.core.events import Event, event
from fracas.core.events import interned as core_interned

__all__ = [
    "AltitudeChanged",
    "CeilingCollapsed",
    "Damaged",
    "FeatureCollapsed",
    "FormationChanged",
    "FragileChecked",
    "GasEnded",
    "GasMoved",
    "GasReleased",
    "GmEffectUsed",
    "MoraleResult",
    "ObstacleMarked",
    "ObstacleSprung",
    "PhaseStarted",
    "Routed",
    "Struck",
    "TargetChosen",
    "TorchesChanged",
    "TurnSkipped",
    "TurnStarted",
    "Unhurt",
    "UnitLeft",
    "UnitMoved",
    "Withdrew",
    "interned",
]

E = TypeVar("E", bound=Event)

#: Distinct events an interning constructor keeps before it starts again.
KEPT = 2048


def interned(cls: Callable[..., E]) -> Callable[..., E]:
    """:func:`fracas.core.events.interned` for this rule set's events, keeping ``KEPT``
    (``tests/rules/battlesystem/test_battlesystem_interned.py`` holds what it hands out
    to what the class builds)."""
    return core_interned(cls, KEPT)


# -- events ---------------------------------------------------------------------------

@event("bs.turn")
class TurnStarted(Event):
    """A new turn begins (its account is the map of unit positions)."""

    turn: int


@event("bs.phase")
class PhaseStarted(Event):
    """A phase begins; ``queue`` lists who decides in it, in order."""

    phase: str
    queue: tuple[str, ...]


@event("bs.moved")
class UnitMoved(Event):
    """A unit now stands in ``area`` with ``rear`` behind it and movement carried to ``goal``."""

    unit: str
    area: str
    rear: str | None
    progress: float
    goal: str | None
    charging: bool = False


@event("bs.formation")
class FormationChanged(Event):
    """A unit stands in a new formation."""

    unit: str
    formation: str
    axis: str


@event("bs.torches")
class TorchesChanged(Event):
    """A unit lit or put out its lights."""

    unit: str
    lit: bool


@event("bs.altitude")
class AltitudeChanged(Event):
    """A flying unit is now at ``altitude``."""

    unit: str
    altitude: str


@event("bs.damaged")
class Damaged(Event):
    """A unit took ``dice`` dice of damage and now has these figures and wounded figures."""

    unit: str
    dice: int
    figures: int
    wounded: int
    cause: str


@event("bs.struck")
class Struck(Event):
    """A unit's melee blows or missile volley at a target: Attack Rating, dice rolled, hits.

    ``weapon`` is ``melee`` or ``missiles``; ``damage`` is the dice of damage the hits make.
    It only tells the log what happened: the damage itself follows as ``Damaged``.
    """

    unit: str
    target: str
    weapon: str
    rating: int
    rolled: int
    hits: int
    damage: int


@event("bs.unhurt")
class Unhurt(Event):
    """Dice of damage too few to wound a figure of the unit: ``needed`` would have."""

    unit: str
    dice: int
    cause: str
    figure_hd: int
    needed: int


@event("bs.morale")
class MoraleResult(Event):
    """A morale check was passed or failed against ``target`` (d20 at or under)."""

    unit: str
    target: int
    passed: bool


@event("bs.routed")
class Routed(Event):
    """A unit routs (``cause`` says why: morale, no room to open, blocking a rout)."""

    unit: str
    cause: str


@event("bs.left")
class UnitLeft(Event):
    """A unit leaves the battle: fled, surrendered, destroyed or fell."""

    unit: str
    status: str


@event("bs.fragile", hidden=True)
class FragileChecked(Event):
    """The GM's secret collapse check of a fragile formation."""

    feature: str
    roll: int
    chance: int
    collapsed: bool
    base_after: int


@event("bs.feature_collapsed")
class FeatureCollapsed(Event):
    """A fragile formation fell."""

    feature: str
    area: str


@event("bs.cave_in")
class CeilingCollapsed(Event):
    """The ceiling of an area came down (rock or mud)."""

    area: str
    material: str


@event("bs.gm_used")
class GmEffectUsed(Event):
    """A prepared GM effect has been spent."""

    effect: str


@event("bs.gas")
class GasReleased(Event):
    """A gas cloud appears with its duration already adjusted for the underground."""

    area: str
    diameter: float
    dice: int
    turns: int
    carried: bool


@event("bs.gas_moved")
class GasMoved(Event):
    """Wind carried a gas cloud into ``area`` (or it has ``turns_left`` after a turn)."""

    gas: int
    area: str
    turns_left: int


@event("bs.obstacle")
class ObstacleSprung(Event):
    """A blind unit blundered into an unseen obstacle; its side now knows where it is."""

    side: str
    area: str


@event("bs.obstacle_marked")
class ObstacleMarked(Event):
    """A unit that can see came upon an obstacle and marked it; its side now knows where it is."""

    side: str
    area: str


@event("bs.skipped")
class TurnSkipped(Event):
    """The next unit in the phase can no longer act (destroyed or routed) and is passed over."""

    unit: str


@event("bs.gas_ended")
class GasEnded(Event):
    """A gas cloud dispersed."""

    gas: int


# -- melee decisions -----------------------------------------------------------------------

@event("bs.withdrew")
class Withdrew(Event):
    """A unit pulls back out of melee into ``area`` (empty: a flyer climbing or diving out
    of reach where it is); the free strikes of the foes it leaves follow as ``Struck``."""

    unit: str
    area: str


@event("bs.aimed")
class TargetChosen(Event):
    """A unit in melee with several enemy units directs this turn's blows at ``target``."""

    unit: str
    target: str
