"""The One Ring events: every change to a fight's state is one of these (or a core event)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from fracas.core.events import Event, event_type

__all__ = [
    "BonusUsed",
    "Carried",
    "Disengaged",
    "EnduranceLost",
    "Engaged",
    "GearChanged",
    "HateLost",
    "HeroPassed",
    "HitPending",
    "HitResolved",
    "HopeSpent",
    "Introduced",
    "KnockbackChosen",
    "Located",
    "MainActionTaken",
    "PhaseBegan",
    "Recovered",
    "RollRead",
    "SecondaryTaken",
    "SpecialChosen",
    "StanceTaken",
    "StoodBack",
    "TakenOut",
    "TaskSucceeded",
    "ThrustLost",
    "TurnEnded",
    "VolleysSet",
    "Wounded",
]


@event_type
@dataclass(frozen=True, slots=True)
class VolleysSet(Event):
    """The Loremaster fixed how many opening volleys are shot."""

    kind: ClassVar[str] = "one_ring.volleys_set"
    count: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class PhaseBegan(Event):
    """A phase starts: ``volley`` N, ``stance``, ``engagement`` or ``action`` of a round.

    ``order`` lists who acts in turn (shooters, heroes choosing stances, the action
    order); ``regime`` is the engagement regime for an engagement phase.
    """

    kind: ClassVar[str] = "one_ring.phase"
    phase: str
    round: int
    order: tuple[str, ...] = ()
    volley: int = 0
    regime: str = ""
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """The current actor's turn in this phase is over."""

    kind: ClassVar[str] = "one_ring.turn_ended"
    actor: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class StanceTaken(Event):
    """A hero takes a stance (and readies a weapon that suits it)."""

    kind: ClassVar[str] = "one_ring.stance"
    hero: str
    stance: str
    wielded: str | None
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Engaged(Event):
    """A hero and a foe are engaged in close combat."""

    kind: ClassVar[str] = "one_ring.engaged"
    hero: str
    foe: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Introduced(Event):
    """The Loremaster introduces ``foe`` as an eligible target (``""``: no more this round)."""

    kind: ClassVar[str] = "one_ring.introduced"
    foe: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class StoodBack(Event):
    """A foe stands back from close combat this round."""

    kind: ClassVar[str] = "one_ring.stood_back"
    foe: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class HeroPassed(Event):
    """A close-combat hero found nobody to engage within the limits."""

    kind: ClassVar[str] = "one_ring.hero_passed"
    hero: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Disengaged(Event):
    """A combatant leaves all its engagements (moving across the battlefield)."""

    kind: ClassVar[str] = "one_ring.disengaged"
    name: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class MainActionTaken(Event):
    """A combatant spends its main action (a hero) or one attack (an adversary)."""

    kind: ClassVar[str] = "one_ring.main_action"
    actor: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class SecondaryTaken(Event):
    """A hero spends the turn's secondary action."""

    kind: ClassVar[str] = "one_ring.secondary"
    hero: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class HopeSpent(Event):
    """A hero spends a point of Hope for a bonus Success die."""

    kind: ClassVar[str] = "one_ring.hope_spent"
    hero: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class BonusUsed(Event):
    """A one-shot bonus is used up: ``rallied`` (+1d) or ``prepared`` (favoured shot)."""

    kind: ClassVar[str] = "one_ring.bonus_used"
    hero: str
    bonus: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class RollRead(Event):
    """A test read against its TN: what it was for, total, success and tengwars."""

    kind: ClassVar[str] = "one_ring.roll"
    actor: str
    purpose: str
    target: str
    tn: int
    total: int
    success: bool
    rank: int
    tengwars: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class HitPending(Event):
    """An attack hit; special damage and knockback are decided before it lands."""

    kind: ClassVar[str] = "one_ring.hit"
    attacker: str
    target: str
    hero_attacks: bool
    close: bool
    damage: int
    injury: int
    rank: int
    tengwars: int
    decider: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class SpecialChosen(Event):
    """One tengwar of the pending hit is spent (``none`` gives up the rest)."""

    kind: ClassVar[str] = "one_ring.special"
    special: str
    amount: int = 0
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class KnockbackChosen(Event):
    """The hero who was hit takes (or refuses) a knockback."""

    kind: ClassVar[str] = "one_ring.knockback"
    hero: str
    accept: bool
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class EnduranceLost(Event):
    """A combatant loses Endurance (never below zero)."""

    kind: ClassVar[str] = "one_ring.endurance_lost"
    target: str
    amount: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Wounded(Event):
    """A Piercing Blow got through: the target suffers a Wound."""

    kind: ClassVar[str] = "one_ring.wounded"
    target: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class HitResolved(Event):
    """The pending hit is over."""

    kind: ClassVar[str] = "one_ring.hit_resolved"
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class TakenOut(Event):
    """A combatant leaves the fight: unconscious, dying, dead, fled or carried to safety."""

    kind: ClassVar[str] = "one_ring.taken_out"
    name: str
    status: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class HateLost(Event):
    """An adversary loses Hate (or Resolve); at zero it is Weary."""

    kind: ClassVar[str] = "one_ring.hate_lost"
    foe: str
    amount: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class TaskSucceeded(Event):
    """A stance's combat task succeeded (``rally``, ``protect``, ``prepare``, ``intimidate``)."""

    kind: ClassVar[str] = "one_ring.task"
    hero: str
    task: str
    companion: str = ""
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class ThrustLost(Event):
    """A foe knocked back by a Shield Thrust loses this attack."""

    kind: ClassVar[str] = "one_ring.thrust_lost"
    foe: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Recovered(Event):
    """A knocked-back hero regains their position."""

    kind: ClassVar[str] = "one_ring.recovered"
    hero: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class GearChanged(Event):
    """A hero draws, drops or recovers gear: the new wielded weapon and dropped items."""

    kind: ClassVar[str] = "one_ring.gear"
    hero: str
    wielded: str | None
    dropped: tuple[str, ...]
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Located(Event):
    """A hero has found someone on the battlefield."""

    kind: ClassVar[str] = "one_ring.located"
    hero: str
    other: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Carried(Event):
    """A hero carries a fallen comrade to safety."""

    kind: ClassVar[str] = "one_ring.carried"
    hero: str
    comrade: str
    hidden: bool = False
