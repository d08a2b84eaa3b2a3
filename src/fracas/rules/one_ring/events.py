"""The One Ring events: every change to a fight's state is one of these (or a core event)."""

from __future__ import annotations

from functools import partial

from fracas.core.events import Event, event

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
    "Quiet",
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


@event("one_ring.volleys_set")
class VolleysSet(Event):
    """The Loremaster fixed how many opening volleys are shot."""

    count: int


@event("one_ring.phase")
class PhaseBegan(Event):
    """A phase starts: ``volley`` N, ``stance``, ``engagement`` or ``action`` of a round.

    ``order`` lists who acts in turn (shooters, heroes choosing stances, the action
    order); ``regime`` is the engagement regime for an engagement phase.
    """

    phase: str
    round: int
    order: tuple[str, ...] = ()
    volley: int = 0
    regime: str = ""


@event("one_ring.turn_ended")
class TurnEnded(Event):
    """The current actor's turn in this phase is over."""

    actor: str


@event("one_ring.stance")
class StanceTaken(Event):
    """A hero takes a stance (and readies a weapon that suits it)."""

    hero: str
    stance: str
    wielded: str | None


@event("one_ring.engaged")
class Engaged(Event):
    """A hero and a foe are engaged in close combat."""

    hero: str
    foe: str


@event("one_ring.introduced")
class Introduced(Event):
    """The Loremaster introduces ``foe`` as an eligible target (``""``: no more this round)."""

    foe: str


@event("one_ring.stood_back")
class StoodBack(Event):
    """A foe stands back from close combat this round."""

    foe: str


@event("one_ring.hero_passed")
class HeroPassed(Event):
    """A close-combat hero found nobody to engage within the limits."""

    hero: str


@event("one_ring.disengaged")
class Disengaged(Event):
    """A combatant leaves all its engagements (moving across the battlefield)."""

    name: str


@event("one_ring.main_action")
class MainActionTaken(Event):
    """A combatant spends its main action (a hero) or one attack (an adversary)."""

    actor: str


@event("one_ring.secondary")
class SecondaryTaken(Event):
    """A hero spends the turn's secondary action."""

    hero: str


@event("one_ring.hope_spent")
class HopeSpent(Event):
    """A hero spends a point of Hope for a bonus Success die."""

    hero: str


@event("one_ring.bonus_used")
class BonusUsed(Event):
    """A one-shot bonus is used up: ``rallied`` (+1d) or ``prepared`` (favoured shot)."""

    hero: str
    bonus: str


@event("one_ring.roll")
class RollRead(Event):
    """A test read against its TN: what it was for, total, success and tengwars."""

    actor: str
    purpose: str
    target: str
    tn: int
    total: int
    success: bool
    rank: int
    tengwars: int
    hidden: bool = False  # set when made: the Loremaster's secret rolls


@event("one_ring.hit")
class HitPending(Event):
    """An attack hit; special damage and knockback are decided before it lands."""

    attacker: str
    target: str
    hero_attacks: bool
    close: bool
    damage: int
    injury: int
    rank: int
    tengwars: int
    decider: str
    hidden: bool = False  # set when made: the Loremaster's secret rolls


@event("one_ring.special")
class SpecialChosen(Event):
    """One tengwar of the pending hit is spent (``none`` gives up the rest)."""

    special: str
    amount: int = 0


@event("one_ring.knockback")
class KnockbackChosen(Event):
    """The hero who was hit takes (or refuses) a knockback."""

    hero: str
    accept: bool


@event("one_ring.endurance_lost")
class EnduranceLost(Event):
    """A combatant loses Endurance (never below zero)."""

    target: str
    amount: int


@event("one_ring.wounded")
class Wounded(Event):
    """A Piercing Blow got through: the target suffers a Wound."""

    target: str


@event("one_ring.hit_resolved")
class HitResolved(Event):
    """The pending hit is over."""


@event("one_ring.taken_out")
class TakenOut(Event):
    """A combatant leaves the fight: unconscious, dying, dead, fled or carried to safety."""

    name: str
    status: str


@event("one_ring.hate_lost")
class HateLost(Event):
    """An adversary loses Hate (or Resolve); at zero it is Weary."""

    foe: str
    amount: int


@event("one_ring.task")
class TaskSucceeded(Event):
    """A stance's combat task succeeded (``rally``, ``protect``, ``prepare``, ``intimidate``)."""

    hero: str
    task: str
    companion: str = ""


@event("one_ring.thrust_lost")
class ThrustLost(Event):
    """A foe knocked back by a Shield Thrust loses this attack."""

    foe: str


@event("one_ring.recovered")
class Recovered(Event):
    """A knocked-back hero regains their position."""

    hero: str


@event("one_ring.gear")
class GearChanged(Event):
    """A hero draws, drops or recovers gear: the new wielded weapon and dropped items."""

    hero: str
    wielded: str | None
    dropped: tuple[str, ...]


@event("one_ring.located")
class Located(Event):
    """A hero has found someone on the battlefield."""

    hero: str
    other: str


@event("one_ring.carried")
class Carried(Event):
    """A hero carries a fallen comrade to safety."""

    hero: str
    comrade: str


class Quiet(partial):  # type: ignore[type-arg]
    """An emitter for a play whose events nobody reads (no log, no listener): the fold
    bound to a state.  Whoever emits through it may leave unmade the events the fold does
    nothing with (a roll's dice and its reading), as :func:`.dice.roll_test` and
    :mod:`.combat` do; every other event is made and applied as through any emitter."""

    __slots__ = ()
