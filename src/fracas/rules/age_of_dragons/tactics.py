"""What the heuristic reckons before it acts: what each attack is worth, and how to get there.

Nothing here changes the state or draws dice.  Every estimate assumes the defender spends
Physical Defence as the heuristic does: just enough to turn the attack aside when it can,
otherwise all of it against a damaging attack and none against a grapple or a break-out.

- :func:`melee_options` and :func:`ranged_value` price an attack with the dice in the pool:
  the damage it should deal, plus what a called shot's sixes would do (a kill, a stun, a
  wing that can no longer keep its owner in the air).
- :func:`plan` looks at every foe and every way of reaching it this turn (spots to match
  its altitude and close the range, spare dice to aim) and keeps the one worth the most.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import compress
from typing import NamedTuple

from fracas.core.events import Event, FightEnded
from fracas.core.records import fast_init
from fracas.rules.age_of_dragons import events, rules
from fracas.rules.age_of_dragons.rules import (
    ALTITUDE_HALVES,
    ATTACK_THRESHOLD,
    BREAK_OUT_TN,
    CALLED,
    GROUNDS,
    MELEE_LEVEL,
    RANGED_HALVES,
    SPOT_THRESHOLDS,
)
from fracas.rules.age_of_dragons.state import (
    CLOSE,
    GROUNDED,
    OK,
    RIPPED,
    STRAFING_LOW,
    AgeOfDragonsState,
    Fighter,
    RangedAttack,
    pair,
)

__all__ = ["FoeIndex", "Plan", "best_melee", "breakable", "can_kill", "drain_helps",
           "first_foe", "foe_likeness", "foes_that_matter", "foes_to_price", "foes_within",
           "in_order", "indexed", "melee_options", "plan", "ranged_value", "target_order",
           "wants_out"]

#: What a stun is worth in points of damage: the victim loses a third of its turns.
STUN_VALUE = 6.0
#: What a mauled wing is worth against a flyer on the ground (it cannot take off).
GROUNDED_WING_VALUE = 2.0
#: A kill is worth the victim's Physical Resilience and this much more.
KILL_BONUS = 20.0
#: A grapple "favours" a combatant this much stronger in Physical Resilience: the
#: heuristic grapples such a flyer to drag it down, and keeps the grapple.
GRAPPLE_EDGE = 5
#: Whether a shot is preferred to tooth and claw worth as much (no need to close in).
RANGED_WINS_TIES = True
#: Average face of a d6.
MEAN_D6 = 3.5


def expected_damage(hits: int, pd: int, tn: int, bonus: int) -> int:
    """Damage against a defender with ``pd`` to spend (see the module docstring)."""
    return rules.attack_outcome(hits, pd, tn, bonus, True)[1]


def effect_value(state: AgeOfDragonsState, foe: Fighter, called: str | None,
                 sixes: int) -> float:
    """What a damaging called shot's sixes do to ``foe``, in points of damage."""
    if called is None:
        return 0.0
    effect = rules.called_effect(called, sixes)
    if effect is None:
        return 0.0
    what = effect[0]
    if what == "kill":
        return foe.pr + KILL_BONUS
    if what == "stun":
        return 0.0 if foe.stunned else STUN_VALUE
    if what == "wing" and foe.can_fly:
        if not foe.airborne:
            return GROUNDED_WING_VALUE
        # It falls a level an end phase, then lands: one die per round fallen plus the ground's.
        return MEAN_D6 * (foe.altitude + GROUNDS[state.ground]) + GROUNDED_WING_VALUE
    return 0.0  # limbs, tail, torso: nothing worth the extra target number


def melee_options(state: AgeOfDragonsState, me: Fighter, foe: Fighter, hits: int,
                  sixes: int, pd: int) -> Iterator[tuple[float, str, str | None]]:
    """(value, style, called) of each claw or bite, with or without a called shot.

    Plain attacks come first, so a called shot is taken only when it is worth more; one
    whose effect is worth nothing (no six, or a part that does not matter) is skipped, as
    it never is.  Wing and tail slaps are left out: for the same hits a bite always deals
    more.
    """
    styles = [s for s in ("bite", "claw") if rules.part_usable(me, s)]
    numbers = _NUMBERS
    for style in styles:
        tn, bonus = numbers[style, None]
        damage = expected_damage(hits, pd, tn, bonus)
        if damage > 0:
            yield float(damage), style, None
    if sixes == 0:
        return  # no effect without a six: a called shot only costs target number
    for called in _telling(sixes):
        extra = effect_value(state, foe, called, sixes)
        if extra <= 0 or not rules.called_shot_allowed(foe, called):
            continue  # never worth more than the plain attack
        for style in styles:
            tn, bonus = numbers[style, called]
            damage = expected_damage(hits, pd, tn, bonus)
            if damage > 0:
                yield damage + extra, style, called


#: ``rules.attack_numbers`` of every (style, called shot), worked out once from it.
_NUMBERS: dict[tuple[str, str | None], tuple[int, int]] = {
    (style, called): rules.attack_numbers(style, called)
    for style in rules.STYLES for called in (None, *CALLED)}
#: What a called shot's effect can be worth (:func:`effect_value`): others are worth 0.
_VALUED = frozenset({"kill", "stun", "wing"})
_TELLING: dict[int, tuple[str, ...]] = {}


def _telling(sixes: int) -> tuple[str, ...]:
    """The called shots, in the table's order, whose effect with ``sixes`` sixes can be
    worth something (:func:`effect_value` is 0 for every other): from
    ``rules.called_effect``, once per number of sixes."""
    found = _TELLING.get(sixes)
    if found is None:
        found = _TELLING[sixes] = tuple(
            c for c in CALLED
            if (effect := rules.called_effect(c, sixes)) is not None and effect[0] in _VALUED)
    return found


def best_melee(state: AgeOfDragonsState, me: Fighter, foe: Fighter, hits: int, sixes: int,
               pd: int) -> tuple[float, str, str | None]:
    """The most valuable melee attack (value 0 and a claw when none can hurt).

    Kept per :func:`melee_key` (everything :func:`melee_options` reads), so the same
    question is worked out once; ``test_aod_heuristic_cache.py`` holds the kept answers
    to :func:`melee_options` itself.
    """
    key = melee_key(state, me, foe, hits, sixes, pd)
    found = _BEST_MELEE.get(key)
    if found is None:
        if len(_BEST_MELEE) >= _KEEP:
            _BEST_MELEE.clear()
        found = _BEST_MELEE[key] = best_melee_of(state, me, foe, hits, sixes, pd)
    return found


def best_melee_of(state: AgeOfDragonsState, me: Fighter, foe: Fighter, hits: int, sixes: int,
                  pd: int) -> tuple[float, str, str | None]:
    """:func:`best_melee` worked out afresh from :func:`melee_options`."""
    best: tuple[float, str, str | None] = (0.0, "claw", None)
    for option in melee_options(state, me, foe, hits, sixes, pd):
        if option[0] > best[0]:
            best = option
    return best


def melee_key(state: AgeOfDragonsState, me: Fighter, foe: Fighter, hits: int, sixes: int,
              pd: int) -> tuple[object, ...]:
    """What :func:`melee_options` reads: the dice, the PD, whether ``me`` can claw, and of
    ``foe`` what its called shots' effects are worth (Resilience for a kill, a stun
    already taken, a wing to maul and the height it falls from) and the ground below.

    Without a six no called shot has an effect, so nothing of the foe is read; with one
    six nothing kills (:func:`rules.called_effect`), so its Resilience is not read; two
    sixes or more do alike.
    """
    if sixes == 0:
        return (hits, 0, pd, OK in me.limbs)
    return (hits, min(sixes, 2), pd, OK in me.limbs, foe.pr if sixes > 1 else 0, foe.stunned,
            foe.profile.flies, foe.wing, foe.altitude, state.ground)


#: The kept answers of :func:`best_melee`, and how many are kept at most.
_BEST_MELEE: dict[tuple[object, ...], tuple[float, str, str | None]] = {}
_KEEP = 4096


def ranged_value(state: AgeOfDragonsState, me: Fighter, target: str, weapon: RangedAttack,
                 hits: int, aims: int = 0) -> float:
    """Damage a shot should deal, less what an area power does to the shooter's own side."""
    side = me.profile.side
    struck = [target]
    if weapon.area:
        struck += rules.area_struck(state, me.name, target)
    value = 0.0
    for name in struck:
        pd = rules.available_pd(state, name) - (aims if name == target else 0)
        damage = expected_damage(hits, max(0, pd), 0, weapon.damage_bonus)
        value += -damage if state.fighters[name].profile.side == side else damage
    return value


# -- grapples -------------------------------------------------------------------------------
def enemy_holders(state: AgeOfDragonsState, me: Fighter) -> list[Fighter]:
    """The enemies ``me`` is locked with."""
    return [state.fighters[p] for p in rules.holders(state, me.name)]


def favoured(me: Fighter, other: Fighter) -> bool:
    """Whether a grapple with ``other`` goes ``me``'s way (it can take the fall better)."""
    return me.pr >= other.pr + GRAPPLE_EDGE


def wants_out(state: AgeOfDragonsState, me: Fighter) -> bool:
    """Held by an enemy, and the grapple goes against it.

    Locked flyers fall together and both land hard: in the air a combatant stays only
    while it has more Physical Resilience than every enemy holding it (a grappler that
    seized a foe weaker by :data:`GRAPPLE_EDGE` to drag it down holds on while it stays
    the stronger); on the ground it leaves a holder stronger than itself.
    """
    holders = enemy_holders(state, me)
    if not holders:
        return False
    strongest = max(h.pr for h in holders)
    return me.pr <= strongest if me.airborne else me.pr < strongest


def breakable(state: AgeOfDragonsState, me: Fighter, hits: int) -> bool:
    """Whether a break-out with ``hits`` can beat at least one holder's Physical Defence."""
    return any(rules.margin(hits, rules.available_pd(state, h.name), BREAK_OUT_TN)
               >= rules.SUCCESS_MARGIN for h in enemy_holders(state, me))


def drain_helps(state: AgeOfDragonsState, me: Fighter, foe: str) -> bool:
    """Whether Physical Defence ``foe`` spends now is missed by a friend's attack.

    PD comes back at the start of the foe's own turn; a friend who acts before that
    (and can act) finds it lower.
    """
    order, side = state.order, me.profile.side
    if foe not in order or me.name not in order:
        return False
    mine, theirs = order.index(me.name), order.index(foe)
    span = order[mine + 1:theirs] if theirs > mine else order[mine + 1:] + order[:theirs]
    return any(state.fighters[n].profile.side == side and state.fighters[n].active
               for n in span)


# -- plans ------------------------------------------------------------------------------------
#: A foe already dying (it cannot act) is worth this share of an able one.
DYING_SHARE = 0.25


@fast_init  # made at every decision the heuristic plans: the cheaper constructor
@dataclass(frozen=True, slots=True)
class Plan:
    """Spots to take this turn (in order) and the attack they lead to."""

    target: str
    moves: tuple[str, ...]  # spot effects: lose_altitude, gain_altitude, take_off, alter_range
    aims: int
    value: float
    weapon: str | None = None  # None: tooth and claw


class _Route(NamedTuple):
    moves: tuple[str, ...]
    altitude: int  # where the moves leave the mover
    band: int


def _route(state: AgeOfDragonsState, me: Fighter, foe: Fighter,
           weapon: RangedAttack | None) -> _Route | None:
    """Manoeuvres that bring ``foe`` into reach: altitude first, then range.

    Tooth and claw needs the same melee height and close quarters; a weapon needs at
    most one altitude level between them and its reach.  A locked combatant cannot
    manoeuvre: it reaches those it grapples or nobody.  None: out of reach this turn.
    """
    band = state.ranges[pair(me.name, foe.name)]
    if rules.is_locked(state, me.name):
        reach = rules.in_melee_reach(state, me.name, foe.name) if weapon is None else \
            rules.in_ranged_reach(state, me.name, foe.name, weapon.reach)
        return _Route((), me.altitude, band) if reach else None
    return _free_route(me, foe.altitude, band, weapon)


def _free_route(me: Fighter, foe_altitude: int, band: int,
                weapon: RangedAttack | None) -> _Route | None:
    """:func:`_route` for a combatant free to manoeuvre, from the foe's altitude and band."""
    moves: list[str] = []
    altitude = me.altitude

    def apart(level: int) -> int:
        if weapon is None:
            return MELEE_LEVEL[level] - MELEE_LEVEL[foe_altitude]
        gap = ALTITUDE_HALVES[level] - ALTITUDE_HALVES[foe_altitude]
        return 0 if abs(gap) <= RANGED_HALVES else gap

    while apart(altitude) != 0:
        if not me.can_fly:
            return None
        if apart(altitude) > 0:
            moves.append("lose_altitude")
            altitude -= 1
        elif altitude == GROUNDED:
            moves.append("take_off")
            altitude = STRAFING_LOW
        else:
            moves.append("gain_altitude")
            altitude += 1
    steps = max(0, band - (CLOSE if weapon is None else weapon.reach))
    moves += ["alter_range"] * steps
    if moves and me.airborne and not me.can_fly:
        return None  # falling: no manoeuvre
    return _Route(tuple(moves), altitude, band - steps)


def _pay(me: Fighter, route: _Route, faces: list[int]) -> tuple[int, int] | None:
    """Give each move the lowest unspotted die that qualifies, as the engine does.

    ``faces``: the unspotted dice.  Returns (dice left showing 3+, 4+ dice the moves
    took), or None when the dice cannot pay for every move this turn.  Kept per
    :func:`pay_key` (everything it reads), so the same question is worked out once
    (the pool's typical dice recur turn after turn); ``test_aod_heuristic_cache.py``
    holds the kept answers to :func:`pay_of`.
    """
    return _pay_sorted(me, RIPPED in me.limbs, route,
                       tuple(sorted([f for f in faces if f >= PAID_FACE])))


def _pay_sorted(me: Fighter, ripped: bool, route: _Route, faces: tuple[int, ...]
                ) -> tuple[int, int] | None:
    """:func:`_pay` given whether ``me`` has a ripped-off limb and the faces that count
    (:data:`PAID_FACE` or more) in order, both worked out once a plan: the key is
    :func:`pay_key`'s."""
    key = (route.moves, route.altitude > GROUNDED, ripped, faces)
    found = _PAID.get(key, _UNKNOWN)
    if found is _UNKNOWN:
        if len(_PAID) >= _KEEP_PAID:
            _PAID.clear()
        found = _PAID[key] = pay_of(me, route, list(faces))
    return found  # type: ignore[return-value]  # a kept answer, never _UNKNOWN


def pay_key(me: Fighter, route: _Route, faces: list[int]) -> tuple[object, ...]:
    """What :func:`pay_of` reads: the moves, whether they are taken in the air, whether a
    ripped-off limb makes a move on the ground cost two dice (:func:`.rules.spot_cost`),
    and the faces of :data:`PAID_FACE` or more, in face order (which die is which does not
    matter: the lowest that qualifies is taken; a lower face is never taken nor counted)."""
    return (route.moves, route.altitude > GROUNDED, RIPPED in me.limbs,
            tuple(sorted([f for f in faces if f >= PAID_FACE])))


#: The lowest face :func:`pay_of` can take or count: below every spot's threshold, the
#: aim's and the attack's, a die changes no payment.
PAID_FACE = min(*SPOT_THRESHOLDS.values(), ATTACK_THRESHOLD)


#: The kept answers of :func:`_pay`, and how many are kept at most (a crowd's many routes
#: times the pools' faces); a marker for a question not asked yet.
_PAID: dict[tuple[object, ...], tuple[int, int] | None] = {}
_KEEP_PAID = 1 << 16
_UNKNOWN = object()


def pay_of(me: Fighter, route: _Route, faces: list[int]) -> tuple[int, int] | None:
    """:func:`_pay` worked out afresh."""
    left = sorted(faces)
    took_hits = 0
    airborne = route.altitude > GROUNDED  # where the range steps are taken
    for move in route.moves:
        threshold, needed = rules.spot_cost(me, move, airborne)
        for _ in range(needed):
            die = next((f for f in left if f >= threshold), None)
            if die is None:
                return None
            left.remove(die)
            took_hits += die >= ATTACK_THRESHOLD
    return sum(1 for f in left if f >= SPOT_THRESHOLDS["aim"]), took_hits


def target_order(state: AgeOfDragonsState, me: Fighter) -> list[Fighter]:
    """Living foes, those able to act first; then those it grapples, the nearest in range
    and altitude, the weakest."""
    name, altitude, side = me.name, me.altitude, me.profile.side
    held = set(rules.partners(state, name)) if state.grapples else ()
    ranges = state.ranges
    # rules.enemies (other sides, not dead, scenario order), each with its sort key and
    # its place, so ties keep scenario order without comparing fighters.
    keyed = [(f.pr <= 0, other not in held,  # not active (a living foe), not held
              ranges[(name, other) if name < other else (other, name)],  # pair
              abs(f.altitude - altitude), f.pr, i, f)
             for i, (other, f) in enumerate(state.fighters.items())
             if f.profile.side != side and not f.dead]
    keyed.sort()
    return [k[-1] for k in keyed]


# -- the foes that can matter -----------------------------------------------------------------
def group_key(foe: Fighter) -> tuple[object, ...]:
    """What :func:`plan` and the heuristic's attacks read of a living foe that is in no
    grapple and not aimed at this turn, beside its range band and its Resilience: its
    height, the Physical Defence it can spend, whether it can act, whether it is stunned,
    whether it flies and its wing (:func:`foe_likeness` less the band and Resilience)."""
    active = foe.pr > 0  # the dead are in no group
    return (foe.altitude, max(0, foe.pd) if active else 0, active, foe.stunned,
            foe.profile.flies, foe.wing)


#: Of each event class the fields naming the combatants whose :func:`group_key` or
#: Resilience it may change (``None``: a pair whose range band it may change); a class left
#: out (a GM's override) may change anything.  ``test_aod_growth_index.py`` holds an index
#: kept by them to one built afresh, event by event, in whole fights.
TOUCHES: dict[type[Event], tuple[str, ...] | None] = {
    events.AttackResolved: ("defender",), events.PartInjured: ("target",),
    events.Stunned: ("target",), events.Killed: ("target",),
    events.DeathChecked: ("actor",), events.Fell: ("actor",),
    events.AltitudeChanged: ("actor",), events.LandedHard: ("actor",),
    events.TurnStarted: ("actor",), events.Evaded: ("actor",),
    events.RangeChanged: None, events.GrappleFormed: None, events.GrappleBroken: None,
    events.TurnEnded: (), events.RoundEnded: (), events.OrderFixed: (), FightEnded: (),
}


@dataclass(slots=True)
class FoeIndex:
    """The combatants of a fight grouped by what a plan reads of them, kept as the fight goes.

    Every living combatant sits in the group of its side and :func:`group_key`, the group
    in order of Resilience, then scenario order.  Of the range bands only those apart from
    the commonest (``band``, worked out when the index is built) are kept, per combatant:
    in a crowd most pairs keep the band they began with.  So a combatant's foes that can
    matter to its plan (:func:`foes_that_matter`) are read from the groups (two of each)
    and its few odd bands, whatever the crowd's size.

    The fold tells the index which combatants and pairs an event may change
    (:meth:`note`, :meth:`touch`, by :data:`TOUCHES`); they are read afresh from the state
    when next asked (:meth:`sync`).  A state carries its own
    (``AgeOfDragonsState.foe_index``; a copy of the state, a copy of it).
    """

    fighters: dict[str, Fighter]
    #: name -> place in scenario order
    place: dict[str, int]
    #: the commonest range band, and per combatant every other band: name -> other -> band
    band: int
    odd: dict[str, dict[str, int]]
    #: side -> group key -> (Resilience, place, name) in order
    groups: dict[str, dict[tuple[object, ...], list[tuple[int, int, str]]]]
    #: name -> (side, group key, entry) of each combatant in a group
    where: dict[str, tuple[str, tuple[object, ...], tuple[int, int, str]]]
    #: the combatants and pairs to read afresh; whether to build the index anew
    dirty: dict[str, set[str]] = field(default_factory=dict)
    moved: set[tuple[str, str]] = field(default_factory=set)
    stale: bool = False
    #: side -> its families (:func:`_families`), worked out when first asked; side ->
    #: those of its families whose groups changed since
    families: dict[str, dict[tuple[object, ...], _Family]] = field(
        default_factory=dict, compare=False, repr=False)
    recount: dict[str, set[tuple[object, ...]]] = field(
        default_factory=dict, compare=False, repr=False)
    #: side -> family (group_key less the Defence) -> Defence -> the group's members
    fams: dict[str, dict[tuple[object, ...], dict[int, list[tuple[int, int, str]]]]] = field(
        default_factory=dict, compare=False, repr=False)

    @staticmethod
    def of(state: AgeOfDragonsState) -> FoeIndex:
        """The index of ``state``, built afresh."""
        fighters, ranges = state.fighters, state.ranges
        # How many pairs are at each band, the bands in the order first met (the first of
        # the commonest is taken, as of a Counter); the bands are few, the pairs many.
        bands = list(ranges.values())
        counts = {band: bands.count(band) for band in dict.fromkeys(bands)}
        index = FoeIndex(fighters, {name: i for i, name in enumerate(fighters)},
                         max(counts, key=counts.__getitem__) if counts else -1,
                         {name: {} for name in fighters}, {}, {})
        band0, odd, place = index.band, index.odd, index.place
        if counts and counts[band0] != len(bands):
            for a, b in list(compress(ranges, map(band0.__ne__, bands))):
                if a in odd and b in odd:  # (not a landmark)
                    odd[a][b] = odd[b][a] = ranges[a, b]
        # What _put does for each, the groups put in order once they are all made.
        groups, where = index.groups, index.where
        for name, fighter in fighters.items():
            if fighter.dead:
                continue
            side, key = fighter.profile.side, group_key(fighter)
            entry = (fighter.pr, place[name], name)
            members = groups.setdefault(side, {}).setdefault(key, [])
            members.append(entry)
            where[name] = (side, key, entry)
        for side, by_key in groups.items():
            fams = index.fams[side] = {}
            for key, members in by_key.items():
                members.sort()
                fams.setdefault(_family_key(key), {})[key[1]] = members  # type: ignore[index]
        return index

    def copy(self, fighters: dict[str, Fighter]) -> FoeIndex:
        """An independent copy for a copy of the state, whose combatants are ``fighters``."""
        new = FoeIndex(fighters, self.place, self.band,
                       {name: dict(odd) if odd else {} for name, odd in self.odd.items()},
                       {side: {key: members[:] for key, members in groups.items()}
                        for side, groups in self.groups.items()},
                       dict(self.where), {side: set(names) for side, names in self.dirty.items()},
                       set(self.moved), self.stale)
        for side, groups in new.groups.items():
            fams = new.fams[side] = {}
            for key, members in groups.items():
                fams.setdefault(_family_key(key), {})[key[1]] = members  # type: ignore[index]
        return new

    def _range(self, a: str, b: str, band: int) -> None:
        odd = self.odd
        if a not in odd or b not in odd:
            return  # a landmark
        if band == self.band:
            odd[a].pop(b, None)
            odd[b].pop(a, None)
        else:
            odd[a][b] = odd[b][a] = band

    def _put(self, name: str, fighter: Fighter) -> None:
        if fighter.dead:
            return
        side, key = fighter.profile.side, group_key(fighter)
        entry = (fighter.pr, self.place[name], name)
        groups = self.groups.setdefault(side, {})
        members = groups.get(key)
        family = _family_key(key)
        if members is None:
            members = groups[key] = []
            self.fams.setdefault(side, {}).setdefault(family, {})[key[1]] = members  # type: ignore[index]
        insort(members, entry)
        self.where[name] = (side, key, entry)
        if side in self.families:
            self.recount.setdefault(side, set()).add(family)

    def _take(self, name: str) -> None:
        found = self.where.pop(name, None)
        if found is not None:
            side, key, entry = found
            groups = self.groups[side]
            members = groups[key]
            members.remove(entry)
            family = _family_key(key)
            if not members:
                del groups[key]
                fams = self.fams[side]
                by_pd = fams[family]
                del by_pd[key[1]]  # type: ignore[arg-type]
                if not by_pd:
                    del fams[family]
            if side in self.families:
                self.recount.setdefault(side, set()).add(family)

    def touch(self, name: str) -> None:
        """``name``'s standing (group or Resilience) may have changed."""
        fighter = self.fighters.get(name)
        if fighter is not None:
            self.dirty.setdefault(fighter.profile.side, set()).add(name)

    def note(self, event: Event) -> None:
        """What ``event`` may have changed (:data:`TOUCHES`)."""
        kind = type(event)
        if kind not in TOUCHES:
            self.stale = True
            return
        fields = TOUCHES[kind]
        if fields is None:
            self.moved.add(pair(event.a, event.b))  # type: ignore[attr-defined]
        else:
            for attr in fields:
                self.touch(getattr(event, attr))

    def sync(self, state: AgeOfDragonsState, keep: str | None = None) -> None:
        """Read afresh what the fold said may have changed (but the combatants of side
        ``keep``, whose groups the asker does not read: they wait for another)."""
        dirty, moved = self.dirty, self.moved
        if dirty:
            fighters = state.fighters
            for side in [s for s in dirty if s != keep]:
                for name in dirty.pop(side):
                    self._take(name)
                    fighter = fighters.get(name)
                    if fighter is not None:
                        self._put(name, fighter)
        if moved:
            ranges = state.ranges
            for a, b in moved:
                self._range(a, b, ranges[a, b])
            moved.clear()


def _order(dying: bool, band: int, apart: int, pr: int, place: int) -> int:
    """:func:`target_order`'s key of a foe of a mover in no grapple (dying, range band,
    height apart, Resilience, place in scenario order) as one number."""
    return (((dying * 8 + band) * 8 + apart) << 56) + _low(pr, place)


def _index(state: AgeOfDragonsState, fresh: bool, me: Fighter | None = None) -> FoeIndex:
    """The state's :class:`FoeIndex`, made or brought up to date (``fresh``: built anew,
    not kept; ``me``: for reading the foes of ``me``, its own side left as it is)."""
    if fresh:
        return FoeIndex.of(state)
    index: FoeIndex | None = state.foe_index
    if index is None or index.stale or index.fighters is not state.fighters:
        index = state.foe_index = FoeIndex.of(state)
    elif index.dirty or index.moved:
        index.sync(state, None if me is None else me.profile.side)
    return index


#: The fewest combatants a fight has for :func:`foes_that_matter` to read an index: in a
#: smaller one every foe is read (:func:`target_order`), which costs less than keeping
#: the index up to date (``benchmarks/growth.py``: about even at 30 combatants).
INDEXED_FROM = 40


def indexed(state: AgeOfDragonsState, me: Fighter) -> bool:
    """Whether :func:`foes_that_matter` reads the index (a crowd, ``me`` in no grapple) or
    is :func:`target_order` itself."""
    if len(state.fighters) < INDEXED_FROM:
        return False
    grapples, name = state.grapples, me.profile.name
    return not grapples or all(a != name and b != name for a, b in grapples)


def foes_that_matter(state: AgeOfDragonsState, me: Fighter, *, fresh: bool = False
                     ) -> list[Fighter]:
    """The foes :func:`plan` and the heuristic's attacks can choose, in
    :func:`target_order`: that order less foes no choice can fall on.

    Foes in no grapple, not aimed at this turn and at the commonest range band
    (:class:`FoeIndex`) are alike to a plan when their :func:`group_key` is (the same
    route, aims and attacks) but for their Resilience, which only a called shot's kill
    reads, worth more the more the foe has (:func:`effect_value`): of each group only
    the first in order (the least Resilience) and the first with the most are kept; a
    later one is never worth more than both, and ties keep the first.  Every other foe
    is kept.  For a combatant in a grapple (its plan prices every foe), or in a fight of
    few combatants (:func:`indexed`), this is :func:`target_order` itself.
    ``test_aod_growth_index.py`` holds the plans and attacks over these foes to those
    over every foe, in whole fights.
    """
    if not indexed(state, me):
        return target_order(state, me)
    keyed = _keyed_foes(state, me, _index(state, fresh, me), True, False)
    keyed.sort()
    return [k[1] for k in keyed]


def foes_to_price(state: AgeOfDragonsState, me: Fighter, hits: int, sixes: int
                  ) -> list[Fighter]:
    """:func:`foes_that_matter` for an attack of at most ``hits`` hits and ``sixes`` sixes.

    When those cannot kill (two sixes and :data:`KILL_HITS`), a foe's Resilience changes
    nothing an attack on it is worth, and among groups alike but for their Physical
    Defence a foe with more is worth no more to any attack (fewer aims to spare, more
    Defence left): such a foe after one with less in :func:`target_order` is left out,
    and so is each group's first with the most Resilience.  Every foe is kept where the
    attack can kill.  For a combatant with no ranged weapon a foe in a grapple is read as
    any other: only a shot (an area power) treats it apart.
    ``test_aod_growth_index.py`` holds the plans over these foes to those over every foe.
    """
    if not indexed(state, me):
        return target_order(state, me)
    kills = can_kill(hits, sixes)
    keyed = _keyed_foes(state, me, _index(state, False, me), kills, not kills,
                        bool(me.profile.ranged))
    keyed.sort()
    return [k[1] for k in keyed]


def can_kill(hits: int, sixes: int) -> bool:
    """Whether an attack of ``hits`` hits and ``sixes`` sixes can make a called shot's kill
    (two sixes, and :data:`KILL_HITS`): the only way a foe's Resilience tells."""
    return sixes > 1 and hits >= KILL_HITS


def first_foe(state: AgeOfDragonsState, me: Fighter) -> Fighter | None:
    """The first of :func:`target_order` (None: no living foe), read from the index in a
    crowd (the first of each group, the odd bands) without putting the rest in order."""
    if not indexed(state, me):
        order = target_order(state, me)
        return order[0] if order else None
    # (the first of those foes_to_price keeps of each family is the family's first)
    keyed = _keyed_foes(state, me, _index(state, False, me), False, True, False)
    return min(keyed)[1] if keyed else None


def _skipped(state: AgeOfDragonsState, me: Fighter, index: FoeIndex, grappled: bool
             ) -> tuple[set[str], list[tuple[int, Fighter]]]:
    """The foes of ``me`` read one by one (its odd bands, those aimed at this turn, and
    with ``grappled`` those in a grapple), by name, and keyed in order (:func:`_order`)."""
    name = me.profile.name
    skip = set(index.odd[name])
    if grappled:
        for a, b in state.grapples:
            skip.add(a)
            skip.add(b)
    turn = state.turn
    if turn is not None and turn.aims:
        skip.update(turn.aims)
    if not skip:
        return skip, []
    side, fighters = me.profile.side, state.fighters
    altitude, place, ranges = me.altitude, index.place, state.ranges
    keyed = []
    for n in skip:
        f = fighters.get(n)
        if f is not None and not f.dead and f.profile.side != side:
            pr = f.pr
            keyed.append(((((pr <= 0) * 8 + ranges[(name, n) if name < n else (n, name)]) * 8
                           + abs(f.altitude - altitude) << 56)
                          + ((pr + (1 << 31)) << 24) + place[n], f))  # _order, in line
    return skip, keyed


def _keyed_foes(state: AgeOfDragonsState, me: Fighter, index: FoeIndex, most: bool,
                prune: bool, grappled: bool = True) -> list[tuple[int, Fighter]]:
    """:func:`foes_that_matter` (``most``: with the first of each group with the most
    Resilience; else only each group's first; ``prune``: less the firsts
    :func:`foes_to_price` leaves out; not ``grappled``: foes in a grapple read as any
    other), each with its key in order (:func:`_order`), not in order."""
    skip, keyed = _skipped(state, me, index, grappled)
    if prune and not most:
        altitude, band, fighters = me.altitude, index.band, index.fighters
        for names, pruned, by_pd, dying, height in _families(index, me):
            high = (((dying * 8 + band) * 8 + abs(height - altitude)) << 56)
            if skip and not skip.isdisjoint(names):
                pruned = _pruned(by_pd, skip, fighters)
            for low, foe in pruned:
                keyed.append((high + low, foe))
        return keyed
    side, fighters = me.profile.side, state.fighters
    altitude, band = me.altitude, index.band
    # Of each group the first in order and the first of those with the most Resilience,
    # less the foes kept above.
    for group_side, groups in index.groups.items():
        if group_side == side:
            continue
        for key, members in groups.items():
            # group_key: the height, then whether the foe can act
            dying, apart = not key[2], abs(key[0] - altitude)  # type: ignore[operator]
            first = _first_kept(members, skip)
            if first is None:
                continue
            keyed.append((_order(dying, band, apart, first[0], first[1]), fighters[first[2]]))
            j = len(members) - 1
            last = members[j]
            if last is first or not most:
                continue
            while last[2] in skip:  # the last not kept above
                j -= 1
                last = members[j]
            for k in range(j - 1, -1, -1):  # the first of those with as much
                entry = members[k]
                if entry[0] != last[0]:
                    break
                if entry[2] not in skip:
                    last = entry
            if last is not first:
                keyed.append((_order(dying, band, apart, last[0], last[1]), fighters[last[2]]))
    return keyed


#: A family: groups alike but for their Physical Defence (the same side, height, whether
#: they can act, stunned, flier, wing).  Kept per family: the names first in its groups,
#: the firsts :func:`foes_to_price` keeps when none of them is read one by one (the low
#: part of each one's key in order, :func:`_low`), its groups by Defence (the Defence,
#: the members), whether they are dying, their height.
_Family = tuple[frozenset[str], list[tuple[int, Fighter]],
                list[tuple[int, list[tuple[int, int, str]]]], bool, int]


def _families(index: FoeIndex, me: Fighter) -> list[_Family]:
    """The families of the foes of ``me``, each worked out again only when one of its
    groups has changed (``FoeIndex.recount``)."""
    side = me.profile.side
    found: list[_Family] = []
    for group_side in index.groups:
        if group_side == side:
            continue
        kept = index.families.get(group_side)
        if kept is None:
            kept = index.families[group_side] = {}
            recount: set[tuple[object, ...]] | None = None  # every family
        else:
            recount = index.recount.pop(group_side, None)
            if recount is None:
                found += kept.values()
                continue
        fams = index.fams.get(group_side, {})
        for family in (fams if recount is None else recount):
            by_pd = fams.get(family)
            if by_pd is None:
                kept.pop(family, None)  # no group left
                continue
            members_by_pd = sorted(by_pd.items(), key=_defence)
            dying, height = not family[1], family[0]
            kept[family] = (frozenset(m[0][2] for _, m in members_by_pd),
                            _pruned(members_by_pd, set(), index.fighters), members_by_pd,
                            dying, height)  # type: ignore[assignment]
        found += kept.values()
    return found


def _family_key(key: tuple[object, ...]) -> tuple[object, ...]:
    """:func:`group_key` less the Physical Defence."""
    return (key[0], *key[2:])


def _low(pr: int, place: int) -> int:
    """The part of :func:`_order`'s key made of the Resilience and the place."""
    return ((pr + (1 << 31)) << 24) + place


def _first_kept(members: list[tuple[int, int, str]],
                skip: set[str]) -> tuple[int, int, str] | None:
    """The first of a group's ``members`` (in order) whose name is not in ``skip``."""
    first = members[0]
    if first[2] not in skip:
        return first
    return next((e for e in members if e[2] not in skip), None)


def _pruned(groups: list[tuple[int, list[tuple[int, int, str]]]], skip: set[str],
            fighters: dict[str, Fighter]) -> list[tuple[int, Fighter]]:
    """Of a family's groups (by Defence) the first of each not in ``skip``, by the low part
    of its key in order (:func:`_low`: the rest is the family's), less those after one of
    less Defence (:func:`foes_to_price`)."""
    kept: list[tuple[int, Fighter]] = []
    least = None  # the earliest in order of those with less Defence
    for _, members in groups:
        first = _first_kept(members, skip)
        if first is None:
            continue
        low = _low(first[0], first[1])
        if least is None or low < least:
            kept.append((low, fighters[first[2]]))
            least = low
    return kept


def _defence(group: tuple[int, list[tuple[int, int, str]]]) -> int:
    return group[0]


def foes_within(state: AgeOfDragonsState, me: Fighter, reach: int) -> list[Fighter]:
    """:func:`target_order` less the foes farther than ``reach`` (a range band): when the
    commonest band is farther, only the odd bands are read (:class:`FoeIndex`)."""
    index = _index(state, False, me) if indexed(state, me) else None
    if index is None or index.band <= reach:
        return [f for f in target_order(state, me) if
                state.ranges[pair(me.name, f.name)] <= reach]
    side, fighters = me.profile.side, state.fighters
    found = [f for n, band in index.odd[me.name].items()
             if band <= reach and (f := fighters[n]).profile.side != side and not f.dead]
    return _in_order(state, me, found, index.place)


def in_order(state: AgeOfDragonsState, me: Fighter, foes: list[Fighter]) -> list[Fighter]:
    """``foes`` (living foes of ``me``, which is in no grapple) in :func:`target_order`."""
    index = state.foe_index
    place = index.place if index is not None else \
        {name: i for i, name in enumerate(state.fighters)}
    return _in_order(state, me, foes, place)


def _in_order(state: AgeOfDragonsState, me: Fighter, foes: list[Fighter],
              place: dict[str, int]) -> list[Fighter]:
    """``foes`` in :func:`target_order`, for a combatant in no grapple (so it holds none)."""
    name, altitude, ranges = me.name, me.altitude, state.ranges
    keyed = [(_order(f.pr <= 0, ranges[(name, o) if name < o else (o, name)],
                     abs(f.altitude - altitude), f.pr, place[o]), f)
             for f in foes for o in (f.name,)]
    keyed.sort()
    return [k[1] for k in keyed]


def plan(state: AgeOfDragonsState, me: Fighter,
         foes: list[Fighter] | None = None, *, every_foe: bool = False) -> Plan | None:
    """The most valuable attack this turn's dice can reach, and the spots that reach it.

    For each living foe: tooth and claw (after matching melee height and closing to close
    quarters) and each ranged weapon the pool can use (after closing to its reach and to
    within one altitude level); spare 3+ dice aim at the foe when that leaves it at close
    quarters and the same height.  A ranged plan wins a tie (it need not close in), and
    otherwise the foe first in :func:`target_order`.  A dying foe counts for a quarter.
    None: no attack can hurt anyone this turn.  With ``spot_consumes_dice`` a spotted die
    is no longer a hit, and the plan takes no aims.  ``foes``: the foes to price, in
    :func:`target_order` (that order, or fewer of it that any plan would choose from:
    :func:`foes_that_matter`); by default :func:`foes_to_price` of these dice.

    With tooth and claw the only way and no six in the pool, no foe is worth more than
    the best plain attack with every hit against no Physical Defence (a melee value
    grows with the hits and falls with the PD); once a foe is worth that the later ones
    cannot beat it, and they are not looked at.  Nor is a foe just like an earlier one
    (:func:`foe_likeness`; its Resilience only where the hits can kill), for a combatant
    and foes in no grapple.  ``every_foe`` looks at every foe of :func:`target_order`
    anyway, and asks :func:`.rules.available_pd` for each foe's Physical
    Defence where the quick way works it out in line: ``test_aod_heuristic_cache.py``
    holds the two to the same plan.
    """
    turn = state.turn
    if turn is None:
        return None
    pool, spotted, expended = turn.pool, turn.spotted, turn.expended
    # The unspotted dice a payment reads (pay_key), in face order, and the 4+ dice and
    # their sixes, of the dice still in the pool, in one pass.
    unspotted: list[int] = []
    hit_count = sixes = 0
    for i, face in enumerate(pool):
        if expended[i]:
            continue
        if face >= ATTACK_THRESHOLD:
            hit_count += 1
            if face == 6:
                sixes += 1
        if not spotted[i] and face >= PAID_FACE:  # what a payment reads (pay_key)
            unspotted.append(face)
    unspotted.sort()
    if foes is None:
        foes = target_order(state, me) if every_foe else \
            foes_to_price(state, me, hit_count, sixes)
    return _best_plan(state, me, foes, tuple(unspotted), hit_count, sixes, turn.spheres,
                      turn.step != "expend", every_foe)


def _best_plan(state: AgeOfDragonsState, me: Fighter, foes: list[Fighter],
               faces: tuple[int, ...], hit_count: int, sixes: int, spheres: tuple[str, ...],
               may_spot: bool, every_foe: bool) -> Plan | None:
    """:func:`plan` of ``foes`` (in order) from the turn's dice: the unspotted ``faces``
    of :data:`PAID_FACE` or more in face order, how many dice still in the pool show 4+
    (``hit_count``) and 6 (``sixes``), the pool's ``spheres``, and whether spots are
    still to come (``may_spot``: not at the expend step)."""
    ripped = RIPPED in me.limbs
    consumes = state.spot_consumes_dice
    can_spot = "soma" in spheres and may_spot
    ways: list[RangedAttack | None] = [None] if "soma" in spheres else []
    ways += [w for w in me.profile.ranged if w.sphere in spheres]
    grapples = state.grapples
    # rules.is_locked of every combatant at once: the names in a grapple link
    in_grapples = {n for link in grapples for n in link} if grapples else ()
    locked = me.profile.name in in_grapples
    my_altitude, my_wings = me.altitude, me.can_fly
    # A free combatant's way to a foe depends on the foe's altitude and band alone, and
    # what the dice pay for it on the moves and the height they end at: each is worked
    # out once a plan (the same numbers whichever foe they lead to).
    reached: dict[tuple[int, int, int], tuple[_Route, tuple[int, int]] | None] = {}
    # The most any foe can be worth (None: no such bound): best_melee with no six reads
    # nothing of the foe, so ``me`` stands in for it.
    # (With one foe there is nothing later to leave out: neither bound nor likeness.)
    several = len(foes) > 1
    ceiling = best_melee(state, me, me, hit_count, 0, 0)[0] \
        if several and ways == [None] and sixes == 0 and not every_foe else None
    best: Plan | None = None
    best_value = 0.0
    # Foes alike in everything a plan reads of them (foe_likeness) are worth alike, and
    # a later one never beats an earlier (ties keep the first): only the first is priced.
    seen: set[tuple[object, ...]] | None = \
        set() if several and not locked and not every_foe else None
    # A foe's Resilience tells only through a kill, which no attack with these hits can
    # make against no Physical Defence (:data:`KILL_HITS`) unless they are enough.
    like_sixes = sixes if sixes < 2 or hit_count >= KILL_HITS else 1  # can_kill
    held = in_grapples if seen is not None else ()
    # A shot strikes its target alone unless an area power catches a grapple with it
    # (rules.area_struck): then ranged_value itself is asked.
    lone_shots = not grapples and not every_foe
    name, ranges = me.name, state.ranges
    turn = state.turn
    aimed = turn.aims if turn is not None else {}
    for foe in foes:
        if ceiling is not None and best is not None and best_value >= ceiling:
            break
        foe_name = foe.profile.name
        band = ranges[(name, foe_name) if name < foe_name else (foe_name, name)]  # pair
        pr = foe.pr
        active = pr > 0 and not foe.dead
        if every_foe:
            have_pd = rules.available_pd(state, foe_name)
        else:  # rules.available_pd, without the call (every_foe asks the rule itself)
            have_pd = 0 if not active else \
                max(0, foe.pd - aimed.get(foe_name, 0)) if aimed else max(0, foe.pd)
        foe_altitude = foe.altitude
        if seen is not None and foe_name not in held:
            # foe_likeness, in line (test_aod_growth_index.py holds the plans to those
            # over every foe)
            like: tuple[object, ...] = (foe_altitude, band, have_pd, pr > 0) \
                if like_sixes == 0 else \
                (foe_altitude, band, have_pd, pr > 0, pr if like_sixes > 1 else 0,
                 foe.stunned, foe.profile.flies, foe.wing)
            if like in seen:
                continue
            seen.add(like)
        for w, weapon in enumerate(ways):
            if locked:
                route = _route(state, me, foe, weapon)
                found = None if route is None or (route.moves and not can_spot) else \
                    _paid_sorted(me, ripped, route, faces)
            else:
                key = (foe_altitude, band, w)
                if key in reached:
                    found = reached[key]
                else:
                    route = _kept_route(me, my_altitude, my_wings, foe_altitude, band, weapon)
                    found = reached[key] = \
                        None if route is None or (route.moves and not can_spot) else \
                        _paid_sorted(me, ripped, route, faces)
            if found is None:
                continue
            route, (spare, took) = found
            hits = hit_count - took if consumes else hit_count
            aims = 0
            if can_spot and not consumes and route.band <= CLOSE and \
                    MELEE_LEVEL[route.altitude] == MELEE_LEVEL[foe_altitude]:
                aims = min(spare, have_pd)
            if weapon is None:
                value = best_melee(state, me, foe, hits, sixes, max(0, have_pd - aims))[0]
            elif lone_shots:  # ranged_value of a shot that strikes its target alone
                value = float(rules.attack_outcome(hits, max(0, have_pd - aims), 0,
                                                   weapon.damage_bonus, True)[1])
            else:
                value = ranged_value(state, me, foe_name, weapon, hits, aims)
            if not active:
                value *= DYING_SHARE
            if value <= 0:
                continue
            if best is None or value > best_value or (
                    value == best_value and RANGED_WINS_TIES and weapon is not None
                    and best.weapon is None):
                best = Plan(foe_name, route.moves, aims, value,
                            None if weapon is None else weapon.name)
                best_value = value
    return best


def _kill_hits() -> int:
    """The fewest hits with which a called shot that kills (:func:`.rules.called_effect`)
    deals damage against no Physical Defence (:func:`melee_options` offers it only then)."""
    kills = [numbers for (style, called), numbers in _NUMBERS.items()
             if called is not None and (rules.called_effect(called, 2) or ("",))[0] == "kill"]
    return min(next(h for h in range(1, 1000) if expected_damage(h, 0, tn, bonus) > 0)
               for tn, bonus in kills)


#: :func:`_kill_hits`: with fewer hits no foe's Resilience changes what a plan is worth.
KILL_HITS = _kill_hits()


def foe_likeness(foe: Fighter, band: int, have_pd: int, sixes: int) -> tuple[object, ...]:
    """What :func:`plan` reads of a foe that is in no grapple, for a combatant in none:
    its height and range band (the route to it), the Physical Defence it can spend (the
    aims and the damage), whether it can act (a dying foe's share), and with a six in
    the pool what a called shot's effect on it is worth (:func:`melee_key`'s part of the
    foe).  A ranged plan at such a foe strikes it alone.  Its Resilience is read only
    with two sixes or more (a called shot's kill), and :func:`plan` asks with one six
    less when its hits cannot kill (:data:`KILL_HITS`).
    """
    if sixes == 0:
        return (foe.altitude, band, have_pd, foe.pr > 0)
    return (foe.altitude, band, have_pd, foe.pr > 0, foe.pr if sixes > 1 else 0, foe.stunned,
            foe.profile.flies, foe.wing)


def _paid_sorted(me: Fighter, ripped: bool, route: _Route, faces: tuple[int, ...]
                 ) -> tuple[_Route, tuple[int, int]] | None:
    paid = _pay_sorted(me, ripped, route, faces)
    return None if paid is None else (route, paid)


def _kept_route(me: Fighter, altitude: int, wings: bool, foe_altitude: int, band: int,
                weapon: RangedAttack | None) -> _Route | None:
    """:func:`_free_route`, kept per everything it reads (:func:`route_key`: ``altitude``
    and ``wings`` are ``me``'s, worked out once a plan): the answer is a value, shared by
    every plan that asks it.  ``test_aod_plan_speed.py`` holds the kept answers to it."""
    key = (altitude, wings, foe_altitude, band, None if weapon is None else weapon.reach)
    found = _ROUTES.get(key, _UNKNOWN)
    if found is _UNKNOWN:
        if len(_ROUTES) >= _KEEP:
            _ROUTES.clear()
        found = _ROUTES[key] = _free_route(me, foe_altitude, band, weapon)
    return found  # type: ignore[return-value]  # a kept answer, never _UNKNOWN


def route_key(me: Fighter, foe_altitude: int, band: int, weapon: RangedAttack | None
              ) -> tuple[object, ...]:
    """What :func:`_free_route` reads: the mover's altitude and whether its wings work
    (``Fighter.can_fly``; ``airborne`` follows from the altitude), the foe's altitude, the
    band between them and the weapon's reach (None: tooth and claw)."""
    return (me.altitude, me.can_fly, foe_altitude, band,
            None if weapon is None else weapon.reach)


#: The kept answers of :func:`_kept_route`.
_ROUTES: dict[tuple[object, ...], _Route | None] = {}

