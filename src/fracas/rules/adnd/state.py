"""State, actions and events of the AD&D underground rule set.

Static statistics live in frozen :class:`Profile` objects shared by every copy
of a state; what changes during a fight lives in one small mutable
:class:`Fighter` per combatant and changes only through events.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Literal

from fracas.core.action import Action
from fracas.core.events import Event, event_type

__all__ = [
    "AdndState",
    "Fighter",
    "Profile",
    "Setup",
    "Weapon",
]

_DAMAGE = re.compile(r"^(\d*)d(\d+)([+-]\d+)?$")


# -- static data ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon: ``count`` d ``sides`` + ``bonus`` damage, its length and magic."""

    name: str
    count: int
    sides: int
    bonus: int
    length_ft: float
    magic: int
    hands: int
    missile: bool

    @classmethod
    def parse(cls, name: str, damage: str, length_ft: float, magic: int, hands: int,
              missile: bool) -> Weapon:
        """Build a weapon from its damage text (``1d8``, ``2d4+1``)."""
        match = _DAMAGE.match(damage)
        if match is None:  # the scenario model's pattern already refused it
            raise ValueError(f"bad damage dice {damage!r}")
        count = int(match.group(1) or 1)
        return cls(name, count, int(match.group(2)), int(match.group(3) or 0), length_ft,
                   magic, hands, missile)

    @property
    def short(self) -> bool:
        """True for weapons under two feet long (they allow dragging a foe into a fall)."""
        return self.length_ft < 2.0


FIST = Weapon("fist", 1, 2, 0, 1.0, 0, 1, False)


@dataclass(frozen=True, slots=True)
class Profile:
    """A combatant's fixed statistics."""

    name: str
    side: str
    level: int
    hp_max: int
    thac0: int
    ac: int
    shield_ac: int
    dex_ac: int
    dexterity: int
    constitution: int
    saves: Mapping[str, int]
    climbing: int
    at_home_in_water: bool
    height_ft: float
    frontage_ft: float
    weapons: tuple[Weapon, ...]
    two_weapons: bool
    can_hurl: bool
    flanking: bool
    top_ft: float
    kind: str
    edge_ft: float
    behind: str | None
    depth_ft: float
    across_gap: bool = False
    has_melee: bool = True

    def weapon(self, name: str) -> Weapon | None:
        """The weapon called ``name`` (fists always exist)."""
        for weapon in self.weapons:
            if weapon.name == name:
                return weapon
        return FIST if name == "fist" else None


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything the scenario fixes for the whole fight."""

    profiles: Mapping[str, Profile]
    order: tuple[str, ...]
    sides: tuple[str, ...]
    bottleneck_ft: float | None
    max_rounds: int
    climb_step_ft: float
    policies: Mapping[str, str | tuple[str, ...]]


# -- changing data -------------------------------------------------------------
Status = Literal["ok", "dead", "fallen", "drowned", "unconscious"]


@dataclass(slots=True)
class Fighter:
    """What changes about one combatant during the fight."""

    name: str
    hp: int
    alt: float
    facing_wall: bool
    boulders: int
    wielding: str
    status: str = "ok"
    secure: bool = False
    dropped: tuple[str, ...] = ()
    hanging_on: str | None = None
    holding: str | None = None
    held_by: str | None = None
    under: bool = False
    breath_free: int = 0
    con_checks: int = 0

    @property
    def up(self) -> bool:
        """True while the combatant is still in the fight."""
        return self.status == "ok"


@dataclass
class AdndState:
    """A fight in progress."""

    setup: Setup
    fighters: dict[str, Fighter]
    round: int = 0
    phase: str = "start"
    queue: tuple[str, ...] = ()
    turn: int = 0
    falling: str | None = None
    grab_choices: tuple[str, ...] = ()
    front: dict[str, tuple[str, ...]] = field(default_factory=dict)
    result: tuple[str | None, str] | None = None

    def clone(self) -> AdndState:
        """A copy sharing the frozen setup."""
        return AdndState(self.setup, {k: dataclasses.replace(v) for k, v in self.fighters.items()},
                         self.round, self.phase, self.queue, self.turn, self.falling,
                         self.grab_choices, dict(self.front), self.result)

    def profile(self, name: str) -> Profile:
        """The fixed statistics of ``name``."""
        return self.setup.profiles[name]


# -- actions -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Attack(Action):
    """Strike (melee) or shoot (missile weapon) at a foe."""

    verb: ClassVar[str] = "attack"
    actor: str
    target: str
    weapon: str


@dataclass(frozen=True, slots=True)
class Boulder(Action):
    """Hurl (or, if too weak, drop) a boulder on a foe below."""

    verb: ClassVar[str] = "boulder"
    actor: str
    target: str


@dataclass(frozen=True, slots=True)
class Climb(Action):
    """Climb one step up or down a sheer surface."""

    verb: ClassVar[str] = "climb"
    actor: str
    direction: Literal["up", "down"]


@dataclass(frozen=True, slots=True)
class Turn(Action):
    """A climber turns his face to the wall or his back to it."""

    verb: ClassVar[str] = "turn"
    actor: str


@dataclass(frozen=True, slots=True)
class Grapple(Action):
    """Seize a foe bare-handed (in deep enough water, pull him under)."""

    verb: ClassVar[str] = "grapple"
    actor: str
    target: str


@dataclass(frozen=True, slots=True)
class BreakFree(Action):
    """Try to break a hold on oneself."""

    verb: ClassVar[str] = "break_free"
    actor: str


@dataclass(frozen=True, slots=True)
class Release(Action):
    """Let go of the foe one holds."""

    verb: ClassVar[str] = "release"
    actor: str


@dataclass(frozen=True, slots=True)
class Regain(Action):
    """Hanging from a foe, try to regain one's own hold or footing."""

    verb: ClassVar[str] = "regain"
    actor: str


@dataclass(frozen=True, slots=True)
class Grab(Action):
    """While falling, try to grab a foe and drag him along."""

    verb: ClassVar[str] = "grab"
    actor: str
    target: str


@dataclass(frozen=True, slots=True)
class Plummet(Action):
    """While falling, make no attempt to grab anyone."""

    verb: ClassVar[str] = "plummet"
    actor: str


@dataclass(frozen=True, slots=True)
class Wait(Action):
    """Do nothing this round (a holder keeps his hold)."""

    verb: ClassVar[str] = "wait"
    actor: str


@dataclass(frozen=True, slots=True)
class Secure(Action):
    """The DM rules that a climber has reached a secure place: no wall penalties."""

    verb: ClassVar[str] = "secure"
    actor: str
    target: str


SaveCategory = Literal["paralyzation", "rod", "petrification", "breath", "spell"]
SAVE_CATEGORIES: tuple[SaveCategory, ...] = ("paralyzation", "rod", "petrification", "breath",
                                             "spell")


@dataclass(frozen=True, slots=True)
class CallSave(Action):
    """The DM calls for a saving throw against some hazard."""

    verb: ClassVar[str] = "call_save"
    actor: str
    target: str
    category: SaveCategory


@dataclass(frozen=True, slots=True)
class KnockOut(Action):
    """The DM rules that magic (a sleep spell, say) has left a combatant unconscious."""

    verb: ClassVar[str] = "knock_out"
    actor: str
    target: str


@dataclass(frozen=True, slots=True)
class Proceed(Action):
    """The DM lets the round run."""

    verb: ClassVar[str] = "proceed"
    actor: str


ACTIONS: tuple[type[Action], ...] = (Attack, Boulder, Climb, Turn, Grapple, BreakFree, Release,
                                      Regain, Grab, Plummet, Wait, Secure, CallSave, KnockOut,
                                      Proceed)


# -- events --------------------------------------------------------------------
@event_type
@dataclass(frozen=True, slots=True)
class RoundBegan(Event):
    """A new round; the front rank at a bottleneck is formed."""

    kind: ClassVar[str] = "adnd.round"
    round: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class FrontRank(Event):
    """Who of a side stands in the bottleneck's frontage this round."""

    kind: ClassVar[str] = "adnd.front"
    side: str
    names: tuple[str, ...]
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class TurnOrder(Event):
    """The order of action this round, by side initiative."""

    kind: ClassVar[str] = "adnd.order"
    sides: tuple[str, ...]
    names: tuple[str, ...]
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class GmDone(Event):
    """The DM's decisions for the round are made."""

    kind: ClassVar[str] = "adnd.gm_done"
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """The current combatant has acted (or could not)."""

    kind: ClassVar[str] = "adnd.turn_ended"
    name: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class AttackRolled(Event):
    """An attack roll: the total after modifiers against the number needed.

    ``modifiers`` names what was added to the die (``+2 higher``, ``-8 dropped``).
    """

    kind: ClassVar[str] = "adnd.attack"
    attacker: str
    target: str
    weapon: str
    total: int
    needed: int
    hit: bool
    hidden: bool = False
    modifiers: tuple[str, ...] = ()


@event_type
@dataclass(frozen=True, slots=True)
class CheckRolled(Event):
    """A check rolled at or under a target (climbing d100, Dexterity or Constitution d20).

    ``modifiers`` names what was added to the rating or ability to make ``target``.
    """

    kind: ClassVar[str] = "adnd.check"
    name: str
    check: str
    roll: int
    target: int
    success: bool
    hidden: bool = False
    modifiers: tuple[str, ...] = ()


@event_type
@dataclass(frozen=True, slots=True)
class SaveRolled(Event):
    """A saving throw: the total after modifiers against the save number.

    ``modifiers`` names what was added to the die (``-2 clinging``).
    """

    kind: ClassVar[str] = "adnd.save"
    name: str
    category: str
    total: int
    needed: int
    success: bool
    hidden: bool = False
    modifiers: tuple[str, ...] = ()


@event_type
@dataclass(frozen=True, slots=True)
class Wounded(Event):
    """Hit points lost."""

    kind: ClassVar[str] = "adnd.wounded"
    target: str
    amount: int
    cause: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Slain(Event):
    """A combatant dies (at 0 hit points, or drowned)."""

    kind: ClassVar[str] = "adnd.slain"
    name: str
    cause: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Unconscious(Event):
    """A combatant is knocked senseless: out of the fight."""

    kind: ClassVar[str] = "adnd.unconscious"
    name: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Climbed(Event):
    """A climber's new height."""

    kind: ClassVar[str] = "adnd.climbed"
    name: str
    alt: float
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Turned(Event):
    """A climber faces the wall, or puts his back to it."""

    kind: ClassVar[str] = "adnd.turned"
    name: str
    facing_wall: bool
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Secured(Event):
    """The DM rules a climber secure (no wall penalties) or no longer secure."""

    kind: ClassVar[str] = "adnd.secured"
    name: str
    secure: bool
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class BoulderSpent(Event):
    """One boulder fewer at hand."""

    kind: ClassVar[str] = "adnd.boulder"
    name: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Wielded(Event):
    """The weapon a combatant now fights with."""

    kind: ClassVar[str] = "adnd.wielded"
    name: str
    weapon: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class WeaponDropped(Event):
    """A weapon let go (to grab a foe while falling)."""

    kind: ClassVar[str] = "adnd.dropped"
    name: str
    weapon: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class FallBegan(Event):
    """A combatant loses his hold or footing; he may try to grab one of ``choices``."""

    kind: ClassVar[str] = "adnd.fall_began"
    name: str
    choices: tuple[str, ...]
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Grabbed(Event):
    """A falling combatant hangs on to a foe who kept his place."""

    kind: ClassVar[str] = "adnd.grabbed"
    faller: str
    holder: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Landed(Event):
    """A fall ends at the bottom; ``out`` when the bottom is out of the fight."""

    kind: ClassVar[str] = "adnd.landed"
    name: str
    feet: float
    out: bool
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Regained(Event):
    """A hanging combatant is back on the wall or ledge beside his foe."""

    kind: ClassVar[str] = "adnd.regained"
    name: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class GrappleBegan(Event):
    """``holder`` holds ``victim``; ``under`` when both went under the water."""

    kind: ClassVar[str] = "adnd.grapple"
    holder: str
    victim: str
    under: bool
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class GrappleEnded(Event):
    """A hold is broken or released; anyone under the water comes up."""

    kind: ClassVar[str] = "adnd.grapple_ended"
    holder: str
    victim: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Breath(Event):
    """The breath clock of a combatant under water: free rounds left, checks made."""

    kind: ClassVar[str] = "adnd.breath"
    name: str
    free: int
    checks: int
    hidden: bool = False
