"""Events of the BATTLESYSTEM underground rule set.

Events are every change to the battle, each small, frozen and applied by
:func:`.fold.apply_event`.  Values are absolute (figures left, area entered) so a
log replays exactly.  Kind strings (``bs.…``) never change: saved logs use them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from fracas.core.events import Event, event_type

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
]


# -- events ---------------------------------------------------------------------------

@event_type
@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """A new turn begins (its account is the map of unit positions)."""

    kind: ClassVar[str] = "bs.turn"
    turn: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class PhaseStarted(Event):
    """A phase begins; ``queue`` lists who decides in it, in order."""

    kind: ClassVar[str] = "bs.phase"
    phase: str
    queue: tuple[str, ...]
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class UnitMoved(Event):
    """A unit now stands in ``area`` with ``rear`` behind it and movement carried to ``goal``."""

    kind: ClassVar[str] = "bs.moved"
    unit: str
    area: str
    rear: str | None
    progress: float
    goal: str | None
    charging: bool = False
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class FormationChanged(Event):
    """A unit stands in a new formation."""

    kind: ClassVar[str] = "bs.formation"
    unit: str
    formation: str
    axis: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class TorchesChanged(Event):
    """A unit lit or put out its lights."""

    kind: ClassVar[str] = "bs.torches"
    unit: str
    lit: bool
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class AltitudeChanged(Event):
    """A flying unit is now at ``altitude``."""

    kind: ClassVar[str] = "bs.altitude"
    unit: str
    altitude: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Damaged(Event):
    """A unit took ``dice`` dice of damage and now has these figures and wounded figures."""

    kind: ClassVar[str] = "bs.damaged"
    unit: str
    dice: int
    figures: int
    wounded: int
    cause: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Struck(Event):
    """A unit's melee blows or missile volley at a target: Attack Rating, dice rolled, hits.

    ``weapon`` is ``melee`` or ``missiles``; ``damage`` is the dice of damage the hits make.
    It only tells the log what happened: the damage itself follows as ``Damaged``.
    """

    kind: ClassVar[str] = "bs.struck"
    unit: str
    target: str
    weapon: str
    rating: int
    rolled: int
    hits: int
    damage: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Unhurt(Event):
    """Dice of damage too few to wound a figure of the unit: ``needed`` would have."""

    kind: ClassVar[str] = "bs.unhurt"
    unit: str
    dice: int
    cause: str
    figure_hd: int
    needed: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class MoraleResult(Event):
    """A morale check was passed or failed against ``target`` (d20 at or under)."""

    kind: ClassVar[str] = "bs.morale"
    unit: str
    target: int
    passed: bool
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Routed(Event):
    """A unit routs (``cause`` says why: morale, no room to open, blocking a rout)."""

    kind: ClassVar[str] = "bs.routed"
    unit: str
    cause: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class UnitLeft(Event):
    """A unit leaves the battle: fled, surrendered, destroyed or fell."""

    kind: ClassVar[str] = "bs.left"
    unit: str
    status: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class FragileChecked(Event):
    """The GM's secret collapse check of a fragile formation."""

    kind: ClassVar[str] = "bs.fragile"
    feature: str
    roll: int
    chance: int
    collapsed: bool
    base_after: int
    hidden: bool = True


@event_type
@dataclass(frozen=True, slots=True)
class FeatureCollapsed(Event):
    """A fragile formation fell."""

    kind: ClassVar[str] = "bs.feature_collapsed"
    feature: str
    area: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class CeilingCollapsed(Event):
    """The ceiling of an area came down (rock or mud)."""

    kind: ClassVar[str] = "bs.cave_in"
    area: str
    material: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class GmEffectUsed(Event):
    """A prepared GM effect has been spent."""

    kind: ClassVar[str] = "bs.gm_used"
    effect: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class GasReleased(Event):
    """A gas cloud appears with its duration already adjusted for the underground."""

    kind: ClassVar[str] = "bs.gas"
    area: str
    diameter: float
    dice: int
    turns: int
    carried: bool
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class GasMoved(Event):
    """Wind carried a gas cloud into ``area`` (or it has ``turns_left`` after a turn)."""

    kind: ClassVar[str] = "bs.gas_moved"
    gas: int
    area: str
    turns_left: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class ObstacleSprung(Event):
    """A blind unit blundered into an unseen obstacle; its side now knows where it is."""

    kind: ClassVar[str] = "bs.obstacle"
    side: str
    area: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class ObstacleMarked(Event):
    """A unit that can see came upon an obstacle and marked it; its side now knows where it is."""

    kind: ClassVar[str] = "bs.obstacle_marked"
    side: str
    area: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    """The next unit in the phase can no longer act (destroyed or routed) and is passed over."""

    kind: ClassVar[str] = "bs.skipped"
    unit: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class GasEnded(Event):
    """A gas cloud dispersed."""

    kind: ClassVar[str] = "bs.gas_ended"
    gas: int
    hidden: bool = False


# -- melee decisions (issue 33) ---------------------------------------------------------

@event_type
@dataclass(frozen=True, slots=True)
class Withdrew(Event):
    """A unit pulls back out of melee into ``area`` (empty: a flyer climbing or diving out
    of reach where it is); the free strikes of the foes it leaves follow as ``Struck``."""

    kind: ClassVar[str] = "bs.withdrew"
    unit: str
    area: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class TargetChosen(Event):
    """A unit in melee with several enemy units directs this turn's blows at ``target``."""

    kind: ClassVar[str] = "bs.aimed"
    unit: str
    target: str
    hidden: bool = False
