"""Events of an Age of Dragons fight.  Dice themselves are core ``DiceRolled`` events."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from fracas.core.events import Event, event_type

__all__ = [
    "Aimed",
    "AltitudeChanged",
    "AttackDeclared",
    "AttackResolved",
    "DeathChecked",
    "DiceExpended",
    "DieRerolled",
    "DieSpotted",
    "Evaded",
    "FallDeclared",
    "Fell",
    "GrappleBroken",
    "GrappleFormed",
    "Killed",
    "LandedHard",
    "OrderFixed",
    "PartInjured",
    "RangeChanged",
    "RoundEnded",
    "Stunned",
    "TaskAttempted",
    "TurnEnded",
    "TurnLost",
    "TurnStarted",
]

# Purposes of DiceRolled events (constants, so the hot loop builds no strings).
POOL = "pool"
REROLL = "reroll"
INITIATIVE = "initiative"
DEATH_CHECK = "death check"
STUN = "stun"
LANDING = "forced landing"



@event_type
@dataclass(frozen=True, slots=True)
class OrderFixed(Event):
    """The initiative order, fixed for the whole fight."""

    kind: ClassVar[str] = "aod.order"
    order: tuple[str, ...]
    reason: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """A combatant's turn begins: its Physical Defence refills (0 while dying)."""

    kind: ClassVar[str] = "aod.turn"
    actor: str
    round: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class TurnLost(Event):
    """The combatant cannot act this turn (dying, or stunned)."""

    kind: ClassVar[str] = "aod.turn_lost"
    actor: str
    reason: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class DeathChecked(Event):
    """A dying combatant's death check: passed (heal 1) or failed (dead)."""

    kind: ClassVar[str] = "aod.death_check"
    actor: str
    needed: int
    successes: int
    passed: bool
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class DieRerolled(Event):
    """One pool die rerolled with an ability; the new face replaces the old."""

    kind: ClassVar[str] = "aod.reroll"
    actor: str
    die: int
    ability: str
    face: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class DieSpotted(Event):
    """A die triggered a spot effect (it stays in the pool unless the option says otherwise)."""

    kind: ClassVar[str] = "aod.spot"
    actor: str
    dice: tuple[int, ...]
    effect: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class RangeChanged(Event):
    """The range band between two names changed."""

    kind: ClassVar[str] = "aod.range"
    a: str
    b: str
    range: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class AltitudeChanged(Event):
    """A combatant climbed, dived, took off or landed by manoeuvre."""

    kind: ClassVar[str] = "aod.altitude"
    actor: str
    altitude: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Evaded(Event):
    """Evade: extra Physical Defence until the start of the evader's next turn."""

    kind: ClassVar[str] = "aod.evade"
    actor: str
    amount: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Aimed(Event):
    """Aim: the target's Physical Defence is lower until the end of the aimer's turn."""

    kind: ClassVar[str] = "aod.aim"
    actor: str
    target: str
    amount: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class DiceExpended(Event):
    """Dice removed from the pool by an expend action."""

    kind: ClassVar[str] = "aod.expend"
    actor: str
    dice: tuple[int, ...]
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class AttackDeclared(Event):
    """An attack waits on its defenders' Physical Defence choices."""

    kind: ClassVar[str] = "aod.attack"
    attacker: str
    attack: str  # attack | shoot | grapple | break_out
    defenders: tuple[str, ...]
    hits: int
    tn: int
    damage_bonus: int
    sixes: int
    style: str = "claw"
    called: str | None = None
    weapon: str | None = None
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class AttackResolved(Event):
    """One defender's result: PD spent, margin, success and damage to Physical Resilience."""

    kind: ClassVar[str] = "aod.attack_result"
    attacker: str
    defender: str
    pd_spent: int
    margin: int
    success: bool
    damage: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class PartInjured(Event):
    """A called shot mauled or ripped a wing, a limb or the tail."""

    kind: ClassVar[str] = "aod.injury"
    target: str
    part: str
    severity: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Stunned(Event):
    """A head shot stunned the target for the rest of the encounter."""

    kind: ClassVar[str] = "aod.stunned"
    target: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Killed(Event):
    """Death: a failed death check, a head ripped off or demolished."""

    kind: ClassVar[str] = "aod.killed"
    target: str
    cause: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class GrappleFormed(Event):
    """A grapple hit: zero range, both locked."""

    kind: ClassVar[str] = "aod.grapple"
    a: str
    b: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class GrappleBroken(Event):
    """A grapple link ended; the pair is back at close quarters."""

    kind: ClassVar[str] = "aod.grapple_broken"
    a: str
    b: str
    reason: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class TaskAttempted(Event):
    """A non-attack battle action: hits expended against the GM's difficulty."""

    kind: ClassVar[str] = "aod.task"
    actor: str
    task: str
    hits: int
    difficulty: int
    success: bool
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class FallDeclared(Event):
    """The combatant chose to fall in this round's end phase."""

    kind: ClassVar[str] = "aod.fall_declared"
    actor: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """The turn is over; unused dice are gone and Aim penalties lapse."""

    kind: ClassVar[str] = "aod.turn_end"
    actor: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Fell(Event):
    """End phase: a combatant dropped one altitude level (``rounds`` falling so far)."""

    kind: ClassVar[str] = "aod.fell"
    actor: str
    altitude: int
    rounds: int
    cause: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class LandedHard(Event):
    """A forced landing: damage to Physical Resilience that no Physical Defence stops."""

    kind: ClassVar[str] = "aod.landing"
    actor: str
    damage: int
    ground: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """The end phase is over; a new round begins."""

    kind: ClassVar[str] = "aod.round_end"
    round: int
    hidden: bool = False
