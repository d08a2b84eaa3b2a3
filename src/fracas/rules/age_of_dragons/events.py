"""Events of an Age of Dragons fight.  Dice themselves are core ``DiceRolled`` events."""

from __future__ import annotations

from functools import partial

from fracas.core.events import Event, event

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
    "Quiet",
    "RangeChanged",
    "RoundEnded",
    "Stunned",
    "TaskAttempted",
    "TurnEnded",
    "TurnLost",
    "TurnStarted",
]

class Quiet(partial[None]):
    """An emitter for a play whose events nobody reads: the fold, partially applied to the
    state (``Quiet(fold.apply_event, state)``), called like any other emitter.

    Where the emitter is one of these, the rules make the changes of the events a fight
    makes most (a pool rolled, dice spotted or expended, an aim or evasion taken, a turn
    begun or ended) directly through the fold's own change functions (:mod:`.fold`), without
    making the events: the same state, the same dice, fewer events built.  The lean play
    uses it (:mod:`.lean`); ``test_aod_quiet.py`` holds both ways to the same states.
    """

    __slots__ = ()


# Purposes of DiceRolled events (constants, so the hot loop builds no strings).
POOL = "pool"
REROLL = "reroll"
INITIATIVE = "initiative"
DEATH_CHECK = "death check"
STUN = "stun"
LANDING = "forced landing"



@event("aod.order")
class OrderFixed(Event):
    """The initiative order, fixed for the whole fight."""

    order: tuple[str, ...]
    reason: str


@event("aod.turn")
class TurnStarted(Event):
    """A combatant's turn begins: its Physical Defence refills (0 while dying)."""

    actor: str
    round: int


@event("aod.turn_lost")
class TurnLost(Event):
    """The combatant cannot act this turn (dying, or stunned)."""

    actor: str
    reason: str


@event("aod.death_check")
class DeathChecked(Event):
    """A dying combatant's death check: passed (heal 1) or failed (dead)."""

    actor: str
    needed: int
    successes: int
    passed: bool


@event("aod.reroll")
class DieRerolled(Event):
    """One pool die rerolled with an ability; the new face replaces the old."""

    actor: str
    die: int
    ability: str
    face: int


@event("aod.spot")
class DieSpotted(Event):
    """A die triggered a spot effect (it stays in the pool unless the option says otherwise)."""

    actor: str
    dice: tuple[int, ...]
    effect: str


@event("aod.range")
class RangeChanged(Event):
    """The range band between two names changed."""

    a: str
    b: str
    range: int


@event("aod.altitude")
class AltitudeChanged(Event):
    """A combatant climbed, dived, took off or landed by manoeuvre."""

    actor: str
    altitude: int


@event("aod.evade")
class Evaded(Event):
    """Evade: extra Physical Defence until the start of the evader's next turn."""

    actor: str
    amount: int


@event("aod.aim")
class Aimed(Event):
    """Aim: the target's Physical Defence is lower until the end of the aimer's turn."""

    actor: str
    target: str
    amount: int


@event("aod.expend")
class DiceExpended(Event):
    """Dice removed from the pool by an expend action."""

    actor: str
    dice: tuple[int, ...]


@event("aod.attack")
class AttackDeclared(Event):
    """An attack waits on its defenders' Physical Defence choices."""

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


@event("aod.attack_result")
class AttackResolved(Event):
    """One defender's result: PD spent, margin, success and damage to Physical Resilience."""

    attacker: str
    defender: str
    pd_spent: int
    margin: int
    success: bool
    damage: int


@event("aod.injury")
class PartInjured(Event):
    """A called shot mauled or ripped a wing, a limb or the tail."""

    target: str
    part: str
    severity: int


@event("aod.stunned")
class Stunned(Event):
    """A head shot stunned the target for the rest of the encounter."""

    target: str


@event("aod.killed")
class Killed(Event):
    """Death: a failed death check, a head ripped off or demolished."""

    target: str
    cause: str


@event("aod.grapple")
class GrappleFormed(Event):
    """A grapple hit: zero range, both locked."""

    a: str
    b: str


@event("aod.grapple_broken")
class GrappleBroken(Event):
    """A grapple link ended; the pair is back at close quarters."""

    a: str
    b: str
    reason: str


@event("aod.task")
class TaskAttempted(Event):
    """A non-attack battle action: hits expended against the GM's difficulty."""

    actor: str
    task: str
    hits: int
    difficulty: int
    success: bool


@event("aod.fall_declared")
class FallDeclared(Event):
    """The combatant chose to fall in this round's end phase."""

    actor: str


@event("aod.turn_end")
class TurnEnded(Event):
    """The turn is over; unused dice are gone and Aim penalties lapse."""

    actor: str


@event("aod.fell")
class Fell(Event):
    """End phase: a combatant dropped one altitude level (``rounds`` falling so far)."""

    actor: str
    altitude: int
    rounds: int
    cause: str


@event("aod.landing")
class LandedHard(Event):
    """A forced landing: damage to Physical Resilience that no Physical Defence stops."""

    actor: str
    damage: int
    ground: str


@event("aod.round_end")
class RoundEnded(Event):
    """The end phase is over; a new round begins."""

    round: int
