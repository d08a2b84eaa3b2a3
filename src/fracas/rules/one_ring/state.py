"""The One Ring fight state: fixed cards for every combatant and what changes."""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from fracas.core.records import fast_init
from fracas.rules.one_ring.catalogue import FoeWeapon, Weapon
from fracas.rules.one_ring.engagement import Board, Readings

__all__ = [
    "CLOSE_STANCES",
    "STANCES",
    "FoeBlow",
    "FoeCard",
    "FoeState",
    "HeroCard",
    "HeroState",
    "OneRingState",
    "Pending",
    "Roster",
]

FORWARD, OPEN, DEFENSIVE, REARWARD = "forward", "open", "defensive", "rearward"
#: Stances in the order their heroes act.
STANCES: tuple[str, ...] = (FORWARD, OPEN, DEFENSIVE, REARWARD)
CLOSE_STANCES: tuple[str, ...] = (FORWARD, OPEN, DEFENSIVE)
COMPANY, ENEMIES = "company", "enemies"
HELM, SHIELD = "helm", "shield"
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class HeroCard:
    """What does not change about a hero during a fight."""

    name: str
    strength: int
    heart: int
    wits: int
    endurance_max: int
    hope_max: int
    shadow: int
    parry: int
    armour_dice: int
    helm_dice: int
    shield_bonus: int
    base_load: int
    weapons: tuple[Weapon, ...]
    item_loads: dict[str, int]
    proficiencies: dict[str, int]
    skills: dict[str, int]
    aware: bool
    always_weary: bool
    always_miserable: bool
    policy: str | tuple[str, ...]
    #: What is worked out from the card (:class:`HeroDerived`), no part of its value.
    derived: HeroDerived = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "derived", HeroDerived(self.weapons))

    def weapon(self, name: str) -> Weapon | None:
        """The hero's weapon called ``name`` (the first listed of that name)."""
        return self.derived.by_name.get(name)

    def rating(self, category: str) -> int:
        """The hero's combat proficiency for a weapon category (0 when untrained)."""
        return self.proficiencies.get(category, 0)


@dataclass(init=False, eq=False)
class HeroDerived:
    """What is worked out from a hero card and kept with it.

    A dataclass without fields, as :class:`~fracas.rules.one_ring.engagement.Readings`:
    whatever it holds is no part of the card's value (its equality, a whole-state key).
    """

    def __init__(self, weapons: tuple[Weapon, ...]) -> None:
        #: Each weapon by name (the first of a name).
        self.by_name: dict[str, Weapon] = {}
        for w in weapons:
            self.by_name.setdefault(w.name, w)
        #: The hero's Load for each set of items dropped, remembered by
        #: :meth:`OneRingState.load` as it is worked out.
        self.loads: dict[tuple[str, ...], int] = {}


@dataclass(frozen=True, slots=True)
class FoeCard:
    """What does not change about an adversary during a fight."""

    name: str
    kind: str
    attribute_level: int
    endurance_max: int
    might: int
    hate_max: int
    hate_label: str
    parry: int
    armour: int
    large: bool
    eligible: bool
    weapons: tuple[FoeWeapon, ...]
    #: What is worked out from the card (:class:`FoeDerived`), no part of its value.
    derived: FoeDerived = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "derived", FoeDerived(self.weapons, self.might))

    def close_weapon(self) -> FoeWeapon | None:
        """The adversary's best close-combat attack (highest rating, first listed on ties)."""
        return self.derived.weapon_choices[0]

    def ranged_weapon(self, volley: int = 0) -> FoeWeapon | None:
        """A bow; in the first opening volley a thrown spear also serves."""
        return self.derived.weapon_choices[2 if volley == 1 else 1]


#: The numbers of an adversary's close attack the heuristics weigh (:attr:`FoeDerived.blows`).
FoeBlow = tuple[int, bool, int, int, int]


@dataclass(init=False, eq=False)
class FoeDerived:
    """What is worked out from an adversary's card when it is made (a dataclass without
    fields: no part of the card's value)."""

    def __init__(self, weapons: tuple[FoeWeapon, ...], might: int) -> None:
        #: :meth:`FoeCard.close_weapon`, :meth:`FoeCard.ranged_weapon` and the first
        #: opening volley's ranged weapon (:func:`_foe_weapons`).
        self.weapon_choices = _foe_weapons(weapons)
        #: What the heuristics weigh of the adversary's close attack (its close weapon,
        #: else its first), hale (``[False]``) and Weary (``[True]``): (rating, Weary,
        #: Damage, Injury, Might); ``None`` without a weapon.
        weapon = self.weapon_choices[0] or (weapons[0] if weapons else None)
        self.blows: tuple[FoeBlow | None, FoeBlow | None] = (None, None) if weapon is None \
            else ((weapon.rating, False, weapon.damage, weapon.injury, might),
                  (weapon.rating, True, weapon.damage, weapon.injury, might))


def _foe_weapons(weapons: tuple[FoeWeapon, ...]
                 ) -> tuple[FoeWeapon | None, FoeWeapon | None, FoeWeapon | None]:
    """(best close-combat attack: highest rating, first listed on ties; the first bow; the
    first bow, else the first thrown weapon: what serves in the first opening volley)."""
    best: FoeWeapon | None = None
    for w in weapons:
        if not w.ranged and (best is None or w.rating > best.rating):
            best = w
    bow = next((w for w in weapons if w.ranged), None)
    first_volley = bow if bow is not None else next((w for w in weapons if w.thrown), None)
    return best, bow, first_volley


@dataclass(frozen=True, slots=True)
class Roster:
    """Every combatant's card and the scenario's settings; shared between state copies."""

    heroes: dict[str, HeroCard]
    foes: dict[str, FoeCard]
    hero_order: tuple[str, ...]
    foe_order: tuple[str, ...]
    volleys: int | None
    max_volleys: int
    long_distance: bool
    enemy_volleys_first: bool
    max_rounds: int
    gm_policy: str | tuple[str, ...]
    gm_hidden: bool
    #: The scenario's ``search:`` block (the search policy's budget), as sorted pairs.
    search: tuple[tuple[str, Any], ...] = ()


@dataclass(slots=True)
class HeroState:
    """A hero's changing values."""

    endurance: int
    hope: int
    wounds: int = 0
    status: str = "ok"
    stance: str = ""
    wielded: str | None = None
    dropped: tuple[str, ...] = ()
    located: tuple[str, ...] = ()
    knocked_back: bool = False
    fend_off: bool = False
    protected: bool = False
    rallied: bool = False
    prepared: bool = False
    main_done: bool = False
    secondary_used: bool = False


@dataclass(slots=True)
class FoeState:
    """An adversary's changing values."""

    endurance: int
    hate: int
    wounds: int = 0
    status: str = "ok"
    attacks_left: int = 0
    thrust_back: bool = False
    #: Introduced by the Loremaster as a target the heroes may choose and attack.
    eligible: bool = True


@fast_init
@dataclass(frozen=True, slots=True)
class Pending:
    """A hit waiting for decisions (special damage, knockback) before it lands.

    ``tengwars`` counts special results still to spend; ``decider`` chooses them.
    """

    attacker: str
    target: str
    hero_attacks: bool
    close: bool
    damage: int
    injury: int
    rank: int
    tengwars: int
    decider: str
    heavy: int = 0
    pierce: int = 0
    knockback: bool | None = None


def _copier(cls: type[T]) -> Callable[[T], T]:
    """A copy of a ``cls`` (a dataclass whose fields are all positional ``__init__``
    arguments): what ``dataclasses.replace`` with no change makes, its fields read at once."""
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    if len(names) < 2 or any(not f.init or f.kw_only
                             for f in dataclasses.fields(cls)):  # type: ignore[arg-type]
        raise TypeError(f"{cls.__name__}: not a copier's kind of dataclass")
    read = operator.attrgetter(*names)

    def copy(value: T) -> T:
        return cls(*read(value))

    return copy


_copy_hero = _copier(HeroState)
_copy_foe = _copier(FoeState)


@dataclass(slots=True)
class OneRingState:
    """The whole fight: cards, changing values, the phase and whose turn it is."""

    roster: Roster
    heroes: dict[str, HeroState]
    foes: dict[str, FoeState]
    phase: str = "start"
    round: int = 0
    volleys: int | None = None
    volley: int = 0
    order: tuple[str, ...] = ()
    cursor: int = 0
    board: Board = field(default_factory=Board)
    pending: Pending | None = None
    result: tuple[str | None, str] | None = None
    #: What was worked out from the state (the standing combatants); the fold forgets it
    #: when an event may change it.  No part of the state's value.
    readings: Readings = field(default_factory=lambda: Readings(), compare=False, repr=False)

    def clone(self) -> OneRingState:
        """A cheap independent copy: cards are shared, changing values copied."""
        hero, foe = _copy_hero, _copy_foe
        return OneRingState(
            self.roster,
            {k: hero(v) for k, v in self.heroes.items()},
            {k: foe(v) for k, v in self.foes.items()},
            self.phase, self.round, self.volleys, self.volley, self.order, self.cursor,
            self.board.clone(), self.pending, self.result,
        )

    # -- derived values ----------------------------------------------------
    def standing_heroes(self) -> list[str]:
        """Heroes still in the fight, in scenario order (a new list each time)."""
        return list(self.standing()[0])

    def standing_foes(self) -> list[str]:
        """Adversaries still in the fight, in scenario order (a new list each time)."""
        return list(self.standing()[1])

    def standing(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(the heroes, the adversaries) still in the fight, in scenario order: kept with
        the state until an event may change them (read them, never keep them)."""
        known = self.readings.standing
        if known is None:
            heroes, foes = self.heroes, self.foes
            known = self.readings.standing = (
                tuple([h for h in self.roster.hero_order if heroes[h].status == "ok"]),
                tuple([f for f in self.roster.foe_order if foes[f].status == "ok"]))
        return known

    def load(self, hero: str) -> int:
        """A hero's Load: armour and fatigue plus every item not dropped (worked out once
        for each card and the items dropped)."""
        card = self.roster.heroes[hero]
        dropped = self.heroes[hero].dropped
        loads = card.derived.loads
        known = loads.get(dropped)
        if known is None:
            known = loads[dropped] = card.base_load + sum(
                v for k, v in card.item_loads.items() if k not in dropped)
        return known

    def weary(self, hero: str) -> bool:
        """Weary: set by the scenario, or Endurance at or below Load (the game's rule)."""
        h = self.heroes[hero]
        card = self.roster.heroes[hero]
        if card.always_weary:
            return True
        load = card.derived.loads.get(h.dropped)  # what self.load remembers, read here
        return h.endurance <= (self.load(hero) if load is None else load)

    def miserable(self, hero: str) -> bool:
        """Miserable: set by the scenario, or Hope at or below Shadow (the game's rule)."""
        card = self.roster.heroes[hero]
        return card.always_miserable or self.heroes[hero].hope <= card.shadow

    def foe_weary(self, foe: str) -> bool:
        """An adversary with no Hate (or Resolve) left is Weary."""
        return self.foes[foe].hate <= 0

    def parry(self, hero: str, volley: bool = False) -> int:
        """A hero's Parry: base plus a carried shield (doubled in a volley when aware) and
        +2 after a Fend Off this round."""
        card = self.roster.heroes[hero]
        h = self.heroes[hero]
        bonus = card.shield_bonus if SHIELD not in h.dropped else 0
        if volley and card.aware:
            bonus *= 2
        return card.parry + bonus + (2 if h.fend_off else 0)

    def protection(self, hero: str) -> int:
        """A hero's Protection dice: armour plus a worn helm."""
        card = self.roster.heroes[hero]
        helm = card.helm_dice if HELM not in self.heroes[hero].dropped else 0
        return card.armour_dice + helm

    def ranged_weapon(self, hero: str, volley: int = 0) -> Weapon | None:
        """A carried bow; in the first opening volley a thrown spear also serves."""
        card = self.roster.heroes[hero]
        dropped = self.heroes[hero].dropped
        for w in card.weapons:
            if w.ranged and w.name not in dropped:
                return w
        if volley == 1:
            for w in card.weapons:
                if w.thrown and w.name not in dropped:
                    return w
        return None

    def in_hand(self, hero: str) -> Weapon | None:
        """The weapon the hero holds, if any."""
        wielded = self.heroes[hero].wielded
        if wielded is None:
            return None
        return self.roster.heroes[hero].derived.by_name.get(wielded)

    def close_weapon(self, hero: str) -> Weapon | None:
        """The wielded close-combat weapon, if the hero holds one."""
        wielded = self.heroes[hero].wielded  # self.in_hand, read here
        if wielded is None:
            return None
        weapon = self.roster.heroes[hero].derived.by_name.get(wielded)
        return weapon if weapon is not None and not weapon.ranged else None

    def bow_in_hand(self, hero: str) -> Weapon | None:
        """The wielded bow, if the hero holds one (a Rearward hero shoots with it)."""
        wielded = self.heroes[hero].wielded  # self.in_hand, read here
        if wielded is None:
            return None
        weapon = self.roster.heroes[hero].derived.by_name.get(wielded)
        return weapon if weapon is not None and weapon.ranged else None

    def side_of(self, name: str) -> str:
        """``company`` for heroes, ``enemies`` for adversaries."""
        return COMPANY if name in self.heroes else ENEMIES
