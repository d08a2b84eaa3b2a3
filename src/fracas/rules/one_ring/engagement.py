"""Engagement: who fights whom at close quarters, rebuilt every round.

This module is the seed's engagement procedure on its own, so property tests
can drive it with any Company and any host of enemies.  A :class:`Board` holds
one round's pairings; :func:`next_step` says which decision comes next, who
makes it and what the choices are.  The rule set turns each step into a
decision of the Loremaster (``gm``) or of a hero.

Two regimes, fixed when the round's engagement begins:

* **Loremaster regime** (more enemies than heroes): the Loremaster first gives
  each unengaged hero in a close-combat stance one opponent of their own, then
  decides for every remaining foe whether it joins a hero who is already
  engaged or stands back.
* **Players regime** (heroes outnumber or match the enemies): each hero in a
  close-combat stance picks an adversary nobody faces yet, from those the
  Loremaster made eligible; only when none is free do they join a foe someone
  else already faces.  Spare foes are then the Loremaster's to place, as above.

Limits (our reading of the seed's sizes): a hero carries at most
:data:`HERO_CAPACITY` weight of opponents, a human-sized foe weighing 2 and a
large one 3, so three human-sized or two large foes fill a hero (a large and a
human-sized foe together also fit).  A human-sized foe takes at most three
heroes, a large one at most six.  Heroes in the Rearward stance are never
engaged.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fracas.core.records import fast_init

__all__ = [
    "HERO_CAPACITY",
    "LOREMASTER",
    "PLAYERS",
    "Board",
    "Readings",
    "Step",
    "heroes_allowed_on",
    "next_step",
    "regime_for",
    "weight",
]

#: The regime where enemies outnumber the heroes: the Loremaster engages.
LOREMASTER = "loremaster"
#: The regime where heroes outnumber or match the enemies: the players engage.
PLAYERS = "players"
HUMAN_WEIGHT = 2
LARGE_WEIGHT = 3
#: Weight of opponents one hero can face: 3 human-sized (3 x 2) or 2 large (2 x 3).
HERO_CAPACITY = 6
HEROES_ON_HUMAN = 3
HEROES_ON_LARGE = 6


def weight(large: bool) -> int:
    """How much of a hero's engagement capacity a foe of this size uses."""
    return LARGE_WEIGHT if large else HUMAN_WEIGHT


def heroes_allowed_on(large: bool) -> int:
    """How many heroes may engage one foe: three on a human-sized one, six on a larger one."""
    return HEROES_ON_LARGE if large else HEROES_ON_HUMAN


def regime_for(heroes: int, foes: int) -> str:
    """The seed's regime: Loremaster when enemies outnumber heroes, else the players."""
    return LOREMASTER if foes > heroes else PLAYERS


@dataclass(slots=True)
class Board:
    """One round's engagements.

    Attributes:
        heroes: the heroes in the fight this round, in scenario order (Rearward included).
        close: those of them in a close-combat stance (Forward, Open, Defensive).
        foes: the adversaries still fighting, in scenario order.
        large: the foes larger than human-sized.
        eligible: the foes the Loremaster offers as targets in the players regime.
        regime: :data:`LOREMASTER` or :data:`PLAYERS`.
        pairs: (hero, foe) engagements.
        stood_back: foes that stand back (possibly to shoot).
        passed: close-combat heroes who found nobody they could engage.
        introducing: the Loremaster is still introducing eligible targets (the first
            decision of an engagement while some foe has not been introduced).
    """

    heroes: tuple[str, ...] = ()
    close: frozenset[str] = frozenset()
    foes: tuple[str, ...] = ()
    large: frozenset[str] = frozenset()
    eligible: frozenset[str] = frozenset()
    regime: str = PLAYERS
    pairs: set[tuple[str, str]] = field(default_factory=set)
    stood_back: set[str] = field(default_factory=set)
    passed: set[str] = field(default_factory=set)
    #: How many engagements each combatant is in (kept in step with ``pairs``).
    links: dict[str, int] = field(default_factory=dict)
    introducing: bool = False
    #: The weight of the foes engaging each hero (kept in step with ``pairs``).
    loads: dict[str, int] = field(default_factory=dict)
    #: What was worked out from the board (the next step); every change of the board
    #: through its methods forgets it.  No part of the board's value.
    readings: Readings = field(default_factory=lambda: Readings(), compare=False, repr=False)

    def clone(self) -> Board:
        """An independent copy (the sets are copied, the rest is immutable)."""
        return Board(self.heroes, self.close, self.foes, self.large, self.eligible, self.regime,
                     set(self.pairs), set(self.stood_back), set(self.passed), dict(self.links),
                     self.introducing, dict(self.loads))

    # -- reading ---------------------------------------------------------
    def foes_of(self, hero: str) -> list[str]:
        """The foes engaging ``hero``, in scenario order (a new list each time)."""
        return list(self.engaging(hero))

    def heroes_on(self, foe: str) -> list[str]:
        """The heroes engaging ``foe``, in scenario order (a new list each time)."""
        return list(self.engaged_by(foe))

    def engaging(self, hero: str) -> tuple[str, ...]:
        """:meth:`foes_of` as kept with the board until its pairs change (read, never keep)."""
        known = self.readings.foes_of.get(hero)
        if known is None:
            pairs = self.pairs
            known = self.readings.foes_of[hero] = tuple(
                [f for f in self.foes if (hero, f) in pairs])
        return known

    def engaged_by(self, foe: str) -> tuple[str, ...]:
        """:meth:`heroes_on` as kept with the board until its pairs change (read, never
        keep)."""
        known = self.readings.heroes_on.get(foe)
        if known is None:
            pairs = self.pairs
            known = self.readings.heroes_on[foe] = tuple(
                [h for h in self.heroes if (h, foe) in pairs])
        return known

    def is_engaged(self, name: str) -> bool:
        """True when ``name`` (hero or foe) is in at least one engagement."""
        return self.links.get(name, 0) > 0

    def hero_load(self, hero: str) -> int:
        """The weight of the foes engaging ``hero``."""
        return self.loads.get(hero, 0)

    def can_engage(self, hero: str, foe: str) -> bool:
        """True when ``hero`` and ``foe`` may be paired without breaking a limit."""
        if hero not in self.close or foe not in self.foes or (hero, foe) in self.pairs:
            return False
        large = foe in self.large
        if self.loads.get(hero, 0) + weight(large) > HERO_CAPACITY:
            return False
        return self.links.get(foe, 0) < heroes_allowed_on(large)  # the heroes on the foe

    def held_back(self) -> list[str]:
        """Foes the Loremaster has not introduced as eligible targets."""
        return [f for f in self.foes if f not in self.eligible]

    def introduce(self, foe: str) -> None:
        """``foe`` becomes an eligible target; ``""`` ends this round's introductions."""
        self.readings.step = None
        if foe:
            self.eligible = self.eligible | {foe}
        if not foe or not self.held_back():
            self.introducing = False

    def free_foes(self) -> list[str]:
        """Foes neither engaged nor standing back."""
        stood_back, links = self.stood_back, self.links
        return [f for f in self.foes if f not in stood_back and links.get(f, 0) <= 0]

    # -- changing --------------------------------------------------------
    def set_stance(self, hero: str, close: bool) -> None:
        """``hero`` took a close-combat stance (``close``) or the Rearward."""
        self.readings.step = None
        self.close = self.close | {hero} if close else self.close - {hero}

    def engage(self, hero: str, foe: str) -> None:
        """Pair ``hero`` with ``foe`` (a foe that stood back steps in)."""
        self.readings.paired()
        if (hero, foe) not in self.pairs:
            self.pairs.add((hero, foe))
            self.links[hero] = self.links.get(hero, 0) + 1
            self.links[foe] = self.links.get(foe, 0) + 1
            self.loads[hero] = self.loads.get(hero, 0) + weight(foe in self.large)
        self.stood_back.discard(foe)

    def stand_back(self, foe: str) -> None:
        """``foe`` keeps out of close combat this round."""
        self.readings.step = None
        self.stood_back.add(foe)

    def pass_hero(self, hero: str) -> None:
        """``hero`` found nobody to engage within the limits."""
        self.readings.step = None
        self.passed.add(hero)

    def disengage(self, name: str) -> None:
        """Remove every engagement of ``name`` (it fell, fled or moved away)."""
        self.readings.paired()
        if self.links.get(name, 0) <= 0:
            return  # in no engagement (links are kept in step with the pairs)
        pairs, links, loads, large = self.pairs, self.links, self.loads, self.large
        for pair in [p for p in pairs if name in p]:
            pairs.discard(pair)
            hero, foe = pair
            links[hero] -= 1
            links[foe] -= 1
            loads[hero] -= weight(foe in large)

    def remove(self, name: str) -> None:
        """``name`` has left the fight: it is no longer engaged or on the board."""
        self.disengage(name)  # (forgets what was read from the board)
        self.stood_back.discard(name)
        if name in self.foes:
            self.foes = tuple([f for f in self.foes if f != name])
        elif name in self.heroes:
            self.heroes = tuple([h for h in self.heroes if h != name])
            self.close = self.close - {name}


@dataclass(init=False, eq=False)
class Readings:
    """Answers worked out from a state (or a board) and kept with it until it changes.

    A dataclass without fields: whatever it holds is no part of the value that holds it
    (its equality, its copies, the exact solver's whole-state key read none of it).
    """

    def __init__(self) -> None:
        #: The last :func:`next_step` answer and who was asked as the Loremaster.
        self.step: tuple[str, Step | None] | None = None
        #: :meth:`Board.foes_of` and :meth:`Board.heroes_on` answers, by name: good until
        #: the pairs or the combatants on the board change (:meth:`paired`).
        self.foes_of: dict[str, tuple[str, ...]] = {}
        self.heroes_on: dict[str, tuple[str, ...]] = {}
        #: The standing heroes and foes, in scenario order.
        self.standing: tuple[tuple[str, ...], tuple[str, ...]] | None = None
        #: The standing foes the heuristics expect at close quarters, with the tuple of
        #: standing foes they were read from (:func:`fracas.rules.one_ring.tactics.
        #: _fighters`: good while ``standing`` holds that very tuple).
        self.fighters: tuple[tuple[str, ...], tuple[str, ...]] | None = None

    def paired(self) -> None:
        """The board's pairs or combatants changed: forget every answer read from them."""
        self.step = None
        if self.foes_of:
            self.foes_of = {}
        if self.heroes_on:
            self.heroes_on = {}


@fast_init
@dataclass(frozen=True, slots=True)
class Step:
    """The next engagement decision.

    Attributes:
        kind: ``introduce`` (the Loremaster introduces eligible targets), ``assign`` (the
            Loremaster gives a hero a first opponent), ``choose`` (a hero picks an adversary)
            or ``spare`` (the Loremaster places a remaining foe).
        decider: ``gm`` or the hero who chooses.
        subject: the hero being engaged (assign, choose) or the foe being placed (spare).
        options: foes to pick (assign, choose) or heroes the foe may join (spare).
        may_stand_back: True for ``spare`` steps.
    """

    kind: str
    decider: str
    subject: str
    options: tuple[str, ...]
    may_stand_back: bool = False


def _unengaged_close(board: Board) -> str | None:
    close, passed, links = board.close, board.passed, board.links
    for hero in board.heroes:
        if hero in close and hero not in passed and links.get(hero, 0) <= 0:
            return hero
    return None


def next_step(board: Board, gm: str = "gm") -> Step | None:
    """The next engagement decision in the seed's order, or ``None`` when engagement is done.

    A step may have no options (a hero nobody can engage within the limits; a spare
    foe no hero has room for): the caller then passes the hero or stands the foe back.
    The answer is kept on the board until the board changes (it is asked for several
    times a decision).
    """
    readings = board.readings
    known = readings.step
    if known is not None and known[0] == gm:
        return known[1]
    found = _next_step(board, gm)
    readings.step = (gm, found)
    return found


def _next_step(board: Board, gm: str) -> Step | None:
    if board.introducing:
        held = board.held_back()
        if held:
            return Step("introduce", gm, "", tuple(held))
    hero = _unengaged_close(board)
    if hero is not None:
        if board.regime == LOREMASTER:
            return Step("assign", gm, hero, tuple(board.free_foes()))
        free = [f for f in board.free_foes() if f in board.eligible]
        if not free:
            free = [f for f in board.foes if f in board.eligible and board.is_engaged(f)
                    and board.can_engage(hero, f)]
        return Step("choose", hero, hero, tuple(free))
    stood_back, links = board.stood_back, board.links
    for foe in board.foes:  # the first of board.free_foes()
        if foe in stood_back or links.get(foe, 0) > 0:
            continue
        options = tuple([h for h in board.heroes
                         if links.get(h, 0) > 0 and board.can_engage(h, foe)])
        return Step("spare", gm, foe, options, True)
    return None
