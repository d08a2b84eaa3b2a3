"""The state of an AD&D underground fight.

Static statistics live in frozen :class:`Profile` objects shared by every copy
of a state; what changes during a fight lives in one small mutable
:class:`Fighter` per combatant and changes only through events.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from mypy_extensions import mypyc_attr

__all__ = [
    "FIST",
    "AdndState",
    "AdndUndergroundState",
    "Fighter",
    "Profile",
    "Setup",
    "Weapon",
    "state_key",
]

_DAMAGE = re.compile(r"^(\d*)d(\d+)([+-]\d+)?$")


# -- static data ---------------------------------------------------------------
@mypyc_attr(native_class=False)  # frozen: pickled and compared as a plain class
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


@mypyc_attr(native_class=False)  # frozen: pickled and compared as a plain class
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


@mypyc_attr(native_class=False)  # frozen: pickled and compared as a plain class
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
    #: The scenario's ``search:`` block (the search policy's budget), as sorted pairs.
    search: tuple[tuple[str, Any], ...] = ()


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

    def key(self) -> tuple[object, ...]:
        """Every field, in order: equal keys mean fighters alike in every respect (the
        heuristic remembers what it weighed by them)."""
        return (self.name, self.hp, self.alt, self.facing_wall, self.boulders, self.wielding,
                self.status, self.secure, self.dropped, self.hanging_on, self.holding,
                self.held_by, self.under, self.breath_free, self.con_checks)

    def key_but_hp(self) -> tuple[object, ...]:
        """Every field but the hit points, in order: for what reads all of a fighter but
        how hurt he is (where he stands, what he holds, whether he is up)."""
        return (self.name, self.alt, self.facing_wall, self.boulders, self.wielding,
                self.status, self.secure, self.dropped, self.hanging_on, self.holding,
                self.held_by, self.under, self.breath_free, self.con_checks)

    def copy(self) -> Fighter:
        """An independent copy (every field is immutable: a plain constructor call, several
        times cheaper than ``dataclasses.replace``)."""
        return Fighter(self.name, self.hp, self.alt, self.facing_wall, self.boulders,
                       self.wielding, self.status, self.secure, self.dropped, self.hanging_on,
                       self.holding, self.held_by, self.under, self.breath_free,
                       self.con_checks)


@mypyc_attr(native_class=False)  # two attributes not fields (the whole-state key reads fields)
@dataclass
class AdndUndergroundState:
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
    #: A two-weapon fighter's second blow still to strike this turn: (attacker, target,
    #: weapon).  Only the exact solver's resolutions leave one (``resolve.advance``
    #: strikes it, see :func:`.resolve.resolve`); every other play strikes both blows at
    #: once and this stays ``None``.
    blow: tuple[str, str, Weapon] | None = None

    def __post_init__(self) -> None:
        #: Who changed, in order: the fold appends a fighter's name whenever it changes him
        #: (and ``""`` when the front ranks change), so that what the heuristic remembers
        #: about this very state is brought up to date from what changed since.  Not a
        #: field: never compared, keyed or copied (a clone starts a log of its own).
        self.changed: list[str] = []
        #: What the rules and the heuristic remember about this state (:mod:`.resolve`,
        #: :mod:`.policies`), brought up to date as above.
        self.remembered: dict[object, Any] = {}

    def clone(self) -> AdndUndergroundState:
        """A copy sharing the frozen setup."""
        fighters = {k: v.copy() for k, v in self.fighters.items()}
        return AdndUndergroundState(self.setup, fighters, self.round, self.phase, self.queue,
                                    self.turn, self.falling, self.grab_choices, dict(self.front),
                                    self.result, self.blow)

    def profile(self, name: str) -> Profile:
        """The fixed statistics of ``name``."""
        return self.setup.profiles[name]


AdndState = AdndUndergroundState  # the old public name, kept for existing imports


def state_key(state: AdndUndergroundState) -> Hashable:
    """Everything that shapes the rest of the fight, for the exact duel solver.

    Two states with the same key play on alike (the same decisions, the same odds).
    It merges, explicitly (the conformance kit, :func:`fracas.testing.check_state_keys`,
    checks every key on random fights of every example):

    * A fighter out of the fight (slain, fallen, drowned, unconscious) is keyed as out,
      nothing more: no rule, no policy and no outcome reads his hit points, height or
      gear again (only ``up`` is read; the winner is the last side with a fighter up).
    * The round is left out (only whether the fight has begun is kept): no rule or
      policy reads it but the round limit, after which the fight is a draw, and the
      rule set declares that limit (``AdndUnderground.round_limit``), so the exact
      solver solves the merged fight round by round and the limit stays exact.
    * Of the round's turn order only what is still to come is kept, and of that only
      the fighters still up (:func:`_to_come`): the rules read the queue only at its
      current place and pass over one out of the fight without doing anything; no
      policy reads it.
    * The weapons a fighter dropped are keyed as a set (:func:`_dropped`): the rules
      ask only whether a weapon is among them, never in which order they fell.
    * A fighter falling off a ledge or bridge, about to decide whether to grab a foe,
      is keyed as if the weapon in his hand were already dropped
      (:func:`_falling_over`): whatever he decides, he drops it or is out of the fight.
    * The rolls of the past are not in the state at all (they are only reported), and
      initiative leaves only its order (the queue).

    A second blow still to strike (:attr:`AdndUndergroundState.blow`, where the exact
    solver stops between a two-weapon fighter's blows) is kept: who strikes whom with
    which weapon.

    Each fighter's part and the turns to come are handed out as one shared copy of each
    distinct value (:func:`_shared`): equal to what is built, so keys compare as they
    would, but the solver's hundreds of thousands of keys hold a few hundred of them
    instead of a copy each.
    """
    fighters: list[tuple[object, ...] | None] = [_shared((
        f.hp, f.alt, f.facing_wall, f.boulders, f.wielding, f.secure,
        f.dropped if len(f.dropped) < 2 else _dropped(f.dropped),
        f.hanging_on, f.holding, f.held_by, f.under, f.breath_free, f.con_checks))
        if f.status == "ok" else None for f in state.fighters.values()]
    falling = state.falling
    if falling is not None and state.setup.profiles[falling].kind in _OUT_BELOW:
        _falling_over(state, falling, fighters)
    blow = state.blow
    return (
        tuple(fighters),
        state.round == 0, state.phase, _shared(_to_come(state)), falling, state.grab_choices,
        tuple(sorted(state.front.items())) if state.front else (),
        state.result,
        None if blow is None else (blow[0], blow[1], blow[2].name),
    )


#: Distinct parts of keys handed out so far (see :func:`_shared`), and how many are kept.
_SHARED: dict[tuple[object, ...], tuple[object, ...]] = {}
_SHARED_MOST = 100_000


def _shared(part: tuple[object, ...]) -> tuple[object, ...]:
    """The one copy of ``part`` handed out for every equal part (``part`` itself the first
    time): equal, so a key is the same value either way; forgotten all at once past
    :data:`_SHARED_MOST` distinct parts (a later equal part is then a copy of its own).

    >>> _shared((1, "fist")) is _shared((1, "fist"))
    True
    """
    found = _SHARED.get(part)
    if found is None:
        if len(_SHARED) >= _SHARED_MOST:
            _SHARED.clear()
        _SHARED[part] = found = part
    return found


#: Where a fall takes a fighter out of the fight (``falls.land``).
_OUT_BELOW = ("ledge", "bridge")


def _falling_over(state: AdndUndergroundState, name: str,
                  fighters: list[tuple[object, ...] | None]) -> None:
    """Key the weapon in the hand of ``name``, falling off a ledge or bridge and about to
    decide whether to grab a foe, as already dropped.

    Sound to merge on: his only choices are to grab (:func:`.falls.grab` drops the weapon
    in his hand before anything else, leaving him his fists) or to fall (``Plummet``);
    a fall off a ledge or bridge, a missed grab or a foe who goes over with him takes
    him out of the fight, and a fighter out of the fight is keyed as out.  Whichever
    way, nothing reads that weapon in his hand again, and while he decides nobody else
    acts.
    """
    at = list(state.fighters).index(name)
    f = state.fighters[name]
    kept = fighters[at]
    if kept is None or f.wielding == "fist":
        return
    dropped = _dropped((*f.dropped, f.wielding))
    fighters[at] = _shared((*kept[:4], "fist", kept[5], dropped, *kept[7:]))


def _to_come(state: AdndUndergroundState) -> tuple[str, ...]:
    """The rest of the round's turn order: from the current place on, those still in the
    fight.

    Sound to merge on: the rules read the queue only at its current place
    (``legality.current_actor``, ``resolve.advance``), a turn that comes to a fighter
    out of the fight only ends (nothing else happens), and nobody out of the fight comes
    back into it (only a DM's override could, and it is never offered as a decision).
    A fighter whose turn it is stands at the front (a turn comes only to one up); while
    a falling fighter decides, the turn has already passed to the next place.

    >>> from types import SimpleNamespace as NS
    >>> up, out = NS(status="ok"), NS(status="dead")
    >>> fight = NS(queue=("A", "B", "C", "D"), turn=1,
    ...            fighters={"A": up, "B": up, "C": out, "D": up})
    >>> _to_come(fight)
    ('B', 'D')
    """
    fighters = state.fighters
    return tuple([n for n in state.queue[state.turn:] if fighters[n].status == "ok"])


def _dropped(names: tuple[str, ...]) -> tuple[str, ...]:
    """The weapons dropped, in one order (``terrain.usable_weapons`` asks only whether a
    weapon is among them)."""
    return tuple(sorted(names))
