"""Age of Dragons: the vocabulary of a fight and its mutable state.

Positions follow the seed's descriptive system.  Range is kept per pair of
combatants (and per combatant and landmark) as one of five bands; altitude is
one of five levels.  Everything a fight changes lives in :class:`AgeOfDragonsState`
and is changed only by :func:`fracas.rules.age_of_dragons.fold.apply_event`.  The
seed's numbers and tables (thresholds, attack styles, called shots) are in
:mod:`fracas.rules.age_of_dragons.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from mypy_extensions import mypyc_attr

# -- spheres -------------------------------------------------------------------
SPHERES: Final = ("soma", "sophis", "pneuma")

# -- range bands (index order matters: one manoeuvre moves one step) ------------
ZERO, CLOSE, MIDDLE, LONG, DISENGAGED = range(5)
RANGES: Final = ("zero", "close", "middle", "long", "disengaged")

# -- altitude levels: grounded 0, strafing low 0.5, normal 1, flying high 2, ceiling 3 --
GROUNDED, STRAFING_LOW, NORMAL, FLYING_HIGH, CEILING = range(5)
ALTITUDES: Final = ("grounded", "strafing_low", "normal", "flying_high", "ceiling")
# -- body parts and their condition ---------------------------------------------------
LIMBS: Final = ("fore_left", "fore_right", "hind_left", "hind_right")
OK, MAULED, RIPPED = 0, 1, 2
PART_STATES: Final = ("ok", "mauled", "ripped")


@mypyc_attr(native_class=False)  # frozen: pickled and compared as a plain class
@dataclass(frozen=True, slots=True)
class RerollAbility:
    """A reroll effect: costs ``cost`` of ``resource`` per die; needs ``sphere`` in the pool."""

    name: str
    resource: str
    cost: int
    sphere: str | None = None
    per_turn: int | None = None


@mypyc_attr(native_class=False)  # frozen: pickled and compared as a plain class
@dataclass(frozen=True, slots=True)
class RangedAttack:
    """A ranged weapon or power: its sphere, its reach, its damage bonus, area or not."""

    name: str
    sphere: str = "soma"
    reach: int = MIDDLE
    damage_bonus: int = 0
    area: bool = False


@mypyc_attr(native_class=False)  # frozen: pickled and compared as a plain class
@dataclass(frozen=True, slots=True)
class Task:
    """A non-attack battle action the GM has set up: hits needed on a sphere."""

    name: str
    difficulty: int
    sphere: str = "soma"
    threshold: int = 4
    description: str = ""


@mypyc_attr(native_class=False)  # frozen: pickled and compared as a plain class
@dataclass(frozen=True, slots=True)
class Profile:
    """What does not change during a fight: ratings, abilities, policy."""

    name: str
    side: str
    soma: int
    sophis: int
    pneuma: int
    passive_pd: int
    pr_max: int
    flies: bool
    policy: str
    script: tuple[str, ...] = ()
    rerolls: tuple[RerollAbility, ...] = ()
    ranged: tuple[RangedAttack, ...] = ()

    def rating(self, sphere: str) -> int:
        """The rating of one sphere."""
        if sphere == "soma":
            return self.soma
        return self.sophis if sphere == "sophis" else self.pneuma


@dataclass(slots=True)
class Fighter:
    """A combatant's changing condition."""

    profile: Profile
    pr: int
    pd: int
    altitude: int
    resources: dict[str, int]
    dead: bool = False
    stunned: bool = False
    wing: int = OK
    tail: int = OK
    limbs: list[int] = field(default_factory=lambda: [OK, OK, OK, OK])
    falling_rounds: int = 0
    fell_this_round: bool = False
    chose_fall: bool = False

    @property
    def name(self) -> str:
        """The combatant's name."""
        return self.profile.name

    @property
    def dying(self) -> bool:
        """Physical Resilience at 0 or below, not yet dead."""
        return self.pr <= 0 and not self.dead

    @property
    def active(self) -> bool:
        """Able to act: neither dead nor dying."""
        return self.pr > 0 and not self.dead

    @property
    def can_fly(self) -> bool:
        """Has wings that work: a flyer whose wing is neither mauled nor ripped."""
        return self.profile.flies and self.wing == OK

    @property
    def airborne(self) -> bool:
        """Above the ground (altitude greater than 0)."""
        return self.altitude > GROUNDED

    def copy(self) -> Fighter:
        """An independent copy (the profile is shared: it never changes)."""
        return Fighter(self.profile, self.pr, self.pd, self.altitude, dict(self.resources),
                       self.dead, self.stunned, self.wing, self.tail, self.limbs[:],
                       self.falling_rounds, self.fell_this_round, self.chose_fall)


@dataclass(slots=True)
class Turn:
    """The combatant whose turn it is, and the dice of that turn."""

    actor: str
    step: str = "pool"  # pool -> reroll -> spot -> expend
    spheres: tuple[str, ...] = ()
    pool: list[int] = field(default_factory=list)
    spotted: list[bool] = field(default_factory=list)
    expended: list[bool] = field(default_factory=list)
    aims: dict[str, int] = field(default_factory=dict)
    rerolls_used: dict[str, int] = field(default_factory=dict)
    #: For the log only: the face the last reroll replaced.
    rerolled_from: int = 0
    #: The dice still in the pool showing 4+ (the attack threshold), lowest face first:
    #: worked out once by ``rules.qualifying_dice``, forgotten by the fold whenever the
    #: pool changes, and an expend takes its dice out of it.  No rule reads it directly.
    hits: tuple[int, ...] | None = field(default=None, compare=False, repr=False)

    @staticmethod
    def start(actor: str) -> Turn:
        """``Turn(actor)``, every field given (no default factories to call)."""
        return Turn(actor, "pool", (), [], [], [], {}, {}, 0, None)

    def copy(self) -> Turn:
        """An independent copy."""
        return Turn(self.actor, self.step, self.spheres, list(self.pool), list(self.spotted),
                    list(self.expended), dict(self.aims), dict(self.rerolls_used),
                    self.rerolled_from, self.hits)


@dataclass(slots=True)
class Pending:
    """An attack waiting for its defenders to choose how much Physical Defence to spend."""

    attacker: str
    kind: str  # attack | shoot | grapple | break_out
    defenders: list[str]
    hits: int
    tn: int
    damage_bonus: int
    sixes: int
    style: str = "claw"
    called: str | None = None
    weapon: str | None = None

    @staticmethod
    def declared(attacker: str, kind: str, defenders: list[str], hits: int, tn: int,
                 damage_bonus: int, sixes: int, style: str, called: str | None,
                 weapon: str | None) -> Pending:
        """``Pending(...)`` with every field given (the fold's)."""
        return Pending(attacker, kind, defenders, hits, tn, damage_bonus, sixes, style, called,
                       weapon)

    def copy(self) -> Pending:
        """An independent copy."""
        return Pending(self.attacker, self.kind, list(self.defenders), self.hits, self.tn,
                       self.damage_bonus, self.sixes, self.style, self.called, self.weapon)


@dataclass(slots=True)
class SpotRun:
    """Spots of one kind in a row, kept for the log (no rule reads it).

    Aim and Evade repeated at the same target are told as one line when the run ends;
    a manoeuvre's line is told at once from its own run of one.
    """

    actor: str
    effect: str
    target: str | None = None
    closer: bool = True
    faces: list[int] = field(default_factory=list)

    def copy(self) -> SpotRun:
        """An independent copy."""
        return SpotRun(self.actor, self.effect, self.target, self.closer, list(self.faces))


@dataclass(slots=True)
class AgeOfDragonsState:
    """Everything about an Age of Dragons fight that can change, plus its fixed set-up."""

    fighters: dict[str, Fighter]
    ranges: dict[tuple[str, str], int]
    grapples: set[tuple[str, str]]
    landmarks: dict[str, str | None]
    tasks: dict[str, Task]
    aggressor: str | None
    initiative_sphere: str
    ground: str
    max_rounds: int
    spot_consumes_dice: bool
    #: The scenario's ``search:`` block (the search policy's budget), as sorted pairs.
    search: tuple[tuple[str, Any], ...] = ()
    order: tuple[str, ...] = ()
    round: int = 0
    turn_index: int = 0
    turn: Turn | None = None
    pending: Pending | None = None
    result: tuple[str | None, str] | None = None
    #: For the log only: the spots being made, and a run of Aim or Evade the last event closed.
    spot_run: SpotRun | None = None
    closed_run: SpotRun | None = None
    #: Whether an event since the last end-of-fight test could have ended the fight: the
    #: fold sets it for the event classes that change what that test reads
    #: (``fold.MAY_END``), ``resolve.advance`` clears it when it finds the fight goes on.
    #: Left out of :func:`.key.state_key` (it only spares a test whose answer is known).
    may_end: bool = True
    #: Counts the events that may have changed where the combatants stand: their
    #: Resilience, death or altitude, a range or a grapple (the fold counts every event
    #: but those of ``fold.STANDING_KEPT``).  Within one turn (the same ``turn`` object)
    #: an equal count means nothing of that changed, so the heuristic keeps the order of
    #: its foes (``policies.HeuristicPolicy``).  Left out of :func:`.key.state_key` and of
    #: equality (a turn played without events, ``lean.claw_turns``, leaves it alone).
    standing: int = field(default=0, compare=False, repr=False)
    #: The heuristic's ``tactics.FoeIndex`` of this state, kept up to date by the fold
    #: (None until asked for; a copy carries a copy).  Left out of equality.
    foe_index: Any = field(default=None, init=False, compare=False, repr=False)

    def copy(self) -> AgeOfDragonsState:
        """An independent copy for a new fight or a replay (cheap: no deepcopy)."""
        turn, pending, run = self.turn, self.pending, self.spot_run
        new = AgeOfDragonsState(
            {n: f.copy() for n, f in self.fighters.items()}, dict(self.ranges),
            set(self.grapples), self.landmarks, self.tasks, self.aggressor,
            self.initiative_sphere, self.ground, self.max_rounds, self.spot_consumes_dice,
            self.search, self.order, self.round, self.turn_index,
            turn.copy() if turn else None, pending.copy() if pending else None, self.result,
            run.copy() if run else None, self.closed_run, self.may_end, self.standing)
        index = self.foe_index
        new.foe_index = None if index is None else index.copy(new.fighters)
        return new


#: The old public name of the state class (kept for code written against it).
State = AgeOfDragonsState


def pair(a: str, b: str) -> tuple[str, str]:
    """The key of a pair of names in ``State.ranges`` and ``State.grapples``."""
    return (a, b) if a < b else (b, a)


def _items(mapping: dict[str, int]) -> tuple[tuple[str, int], ...]:
    """A small dict's items in key order (no sort for zero or one item)."""
    return tuple(sorted(mapping.items())) if len(mapping) > 1 else tuple(mapping.items())
