"""The default AI: fight, climb to advantage, push foes toward the drop-off, drag when falling.

It scores each attack by expected damage plus the chance the blow throws the
target off a wall, ledge or bridge (worth the fall damage, or the whole foe
when the drop takes him out of the fight).
"""

from __future__ import annotations

from functools import cache
from typing import TypeVar, cast

from mypy_extensions import mypyc_attr

from fracas.core.action import Action
from fracas.core.policy import DecisionRequest
from fracas.core.ruleset import GM
from fracas.rules.adnd import legality, memory, resolve, rules, terrain
from fracas.rules.adnd.actions import (
    Attack,
    Boulder,
    BreakFree,
    Climb,
    Grab,
    Grapple,
    Plummet,
    Proceed,
    Regain,
    Turn,
    Wait,
)
from fracas.rules.adnd.state import AdndUndergroundState, Fighter, Profile, Setup, Weapon
from fracas.rules.adnd.water import deep_enough

__all__ = ["HeuristicPolicy"]

A = TypeVar("A", bound=Action)


def _mean_damage(weapon: Weapon, modifier: int) -> float:
    return max(1.0, weapon.count * (weapon.sides + 1) / 2 + weapon.bonus + weapon.magic + modifier)


# The exact odds of the rules (:mod:`.rules`), each turned into a float once per
# argument: the very number ``float(...)`` of the exact ``Fraction`` gives.
@cache
def _hits(needed: int) -> float:
    return float(rules.d20_at_least(needed))


@cache
def _slips(rating: int, damage: int, hp_max: int) -> float:
    return float(1 - rules.d100_at_most(rules.climb_check_target(rating, damage, hp_max)))


@cache
def _loses_footing(dexterity: int, edge_ft: float, push: int) -> float:
    return float(1 - rules.d20_at_most(rules.dex_check_target(dexterity, edge_ft, push)))


@cache
def _kills(count: int, sides: int, modifier: int, hp: int) -> float:
    return float(rules.damage_at_least(count, sides, modifier, hp))


def _fall_odds(state: AdndUndergroundState, target: str, damage: float, melee: bool,
               flanking: bool) -> tuple[float, float | None]:
    """Chance the blow makes ``target`` fall, and what the fall is worth: the mean falling
    damage off a wall, or ``None`` where it is worth his hit points (at least 1: over the
    edge of a ledge or bridge he is out of the fight).  His hit points are not read."""
    p, f = state.profile(target), state.fighters[target]
    if terrain.on_sheer_surface(p, f):
        return _slips(p.climbing, round(damage), p.hp_max), 3.5 * rules.fall_dice(f.alt)
    if p.kind in ("ledge", "bridge"):
        push = rules.push_modifier(p.kind, p.behind, melee, flanking)
        return _loses_footing(p.dexterity, p.edge_ft, push), None
    return 0.0, 0.0


def _weapon(state: AdndUndergroundState, actor: str, name: str) -> Weapon:
    return next(w for w in terrain.usable_weapons(state, actor) if w.name == name)


def hit_chance(state: AdndUndergroundState, action: Attack) -> float:
    """The chance ``action`` hits, with every modifier of the moment."""
    actor, target = action.actor, action.target
    # the number the roll needs and the modifiers it gets, as the attack itself reads them
    needed, bonus = resolve.attack_terms(state, actor, target,
                                         _weapon(state, actor, action.weapon))[:2]
    return _hits(needed - bonus)


def score_attack(state: AdndUndergroundState, action: Attack) -> float:
    """Expected hit points taken, plus the expected worth of knocking the target down and of
    killing him (see :func:`_threat`)."""
    return _Scorer(state, action.actor).attack(action.target,
                                               _weapon(state, action.actor, action.weapon))


class _Scorer:
    """Scores one fighter's attacks in one state, reading what every attack shares once:
    his damage modifier and, per target, the attack modifiers and the target's threat."""

    __slots__ = ("actor", "damage_modifier", "flanking", "state", "thac0", "threats", "to_hit")

    def __init__(self, state: AdndUndergroundState, actor: str) -> None:
        self.state, self.actor = state, actor
        p = state.profile(actor)
        self.thac0, self.flanking = p.thac0, p.flanking
        self.damage_modifier = terrain.damage_modifier(state, actor)
        self.to_hit: dict[str, tuple[int, int]] = {}
        self.threats: dict[str, float] = {}

    def attack(self, target: str, weapon: Weapon) -> float:
        """:func:`score_attack` of ``weapon`` on ``target``."""
        return _worth(self.terms(target, weapon), self.state.fighters[target].hp)

    def terms(self, target: str, weapon: Weapon) -> _Terms:
        """What :meth:`attack` weighs, but for the target's hit points (see :func:`_worth`):
        the chance to hit, the mean damage, the chance and worth of a fall
        (:func:`_fall_odds`), the damage dice and modifier, and the target's threat."""
        state = self.state
        known = self.to_hit.get(target)
        if known is None:
            # attack_bonus(magic) is magic plus attack_bonus(0): magic is one more part.
            known = self.to_hit[target] = (
                rules.hit_number(self.thac0, terrain.effective_ac_of(state, target)),
                terrain.attack_bonus(state, self.actor, target, 0))
        needed, bonus = known
        p_hit = _hits(needed - (bonus + weapon.magic))
        damage = _mean_damage(weapon, self.damage_modifier)
        chance, worth = _fall_odds(state, target, damage, not weapon.missile, self.flanking)
        modifier = weapon.bonus + weapon.magic + self.damage_modifier
        threat = self.threats.get(target)
        if threat is None:
            threat = self.threats[target] = _threat(state, target)
        return p_hit, damage, chance, worth, weapon.count, weapon.sides, modifier, threat


#: :meth:`_Scorer.terms`: hit chance, mean damage, fall chance and worth (None: the hit
#: points), damage dice count, sides and modifier, the target's threat.
_Terms = tuple[float, float, float, float | None, int, int, int, float]


def _worth(terms: _Terms, hp: int) -> float:
    """An attack's worth from its :meth:`_Scorer.terms` against a target with ``hp``: the
    chance to hit times the hit points taken, the fall's worth and the kill's worth."""
    p_hit, damage, chance, worth, count, sides, modifier, threat = terms
    fall = chance * (max(hp, 1) if worth is None else worth)
    return p_hit * (min(damage, hp) + fall + _kills(count, sides, modifier, hp) * threat)


def _threat(state: AdndUndergroundState, name: str) -> float:
    """What a foe still deals with one blow: the mean damage of his best weapon, or of a
    boulder while he has one.  Killing him is worth that on top of the hit points taken:
    a foe finished off strikes no more (finishing a wounded foe beats scratching a fresh one).
    """
    best = max((_mean_damage(w, 0) for w in terrain.usable_weapons(state, name)), default=0.0)
    if state.fighters[name].boulders:
        best = max(best, (rules.BOULDER_DICE[0] * (rules.BOULDER_DICE[1] + 1)) / 2)
    return best


def score_boulder(state: AdndUndergroundState, action: Boulder) -> float:
    """Expected worth of a boulder (2d8, AC 10, -8 when dropped): the chance to hit times
    the hit points taken, the fall's worth and the kill's worth, like an attack's."""
    return _worth(_boulder_terms(state, action.actor, action.target),
                  state.fighters[action.target].hp)


def _boulder_terms(state: AdndUndergroundState, actor: str, target: str) -> _Terms:
    """What :func:`score_boulder` weighs but for the target's hit points (see
    :func:`_worth`): none of it reads anyone's hit points."""
    pa = state.profile(actor)
    bonus = terrain.attack_bonus(state, actor, target, 0)
    bonus += 0 if pa.can_hurl else rules.DROP_PENALTY
    p_hit = _hits(rules.hit_number(pa.thac0, rules.BOULDER_AC) - bonus)
    modifier = terrain.damage_modifier(state, actor)
    damage = max(1.0, 9.0 + modifier)
    chance, worth = _fall_odds(state, target, damage, False, False)
    count, sides = rules.BOULDER_DICE
    return p_hit, damage, chance, worth, count, sides, modifier, _threat(state, target)


def score_grapple(state: AdndUndergroundState, action: Grapple) -> float:
    """Only worth it in deep water against a foe who is not at home there."""
    if not _drowns(state, action.actor, action.target):
        return 0.0
    return 2.0 * state.fighters[action.target].hp / 3


def _drowns(state: AdndUndergroundState, actor: str, target: str) -> bool:
    """A grapple of ``actor``'s takes ``target`` under and the water is not his home (what
    makes a grapple worth anything: two thirds of the target's hit points)."""
    return deep_enough(state, actor, target) and \
        not state.profile(target).at_home_in_water


def _made(actor: str, entry: tuple[float, int, str, str | Action],
          made: dict[tuple[str, str, str], Attack] | None = None) -> Action:
    """The action of a scored entry: an attack on a foe with a weapon, or the action kept.

    ``made``: attacks made before, by actor, target and weapon, to hand out again."""
    what = entry[3]
    if not isinstance(what, str):
        return what
    if made is None:
        return Attack(actor, entry[2], what)
    return _attack(actor, entry[2], what, made)


def _attack(actor: str, target: str, weapon: str,
            made: dict[tuple[str, str, str], Attack]) -> Attack:
    """``Attack(actor, target, weapon)``, the one made before if ``made`` holds it."""
    key = (actor, target, weapon)
    found = made.get(key)
    if found is None:
        found = made[key] = Attack(actor, target, weapon)
    return found


class _Known:
    """What the heuristic works out once per setup: each side's foes (in scenario order,
    with their profiles), who fights on open ground, and the worth of attacks already
    weighed between two fighters in a given condition (:func:`_pair_scores`)."""

    __slots__ = ("allies", "arms", "attacks", "canon", "choices", "drowns", "foe_names", "foes",
                 "open", "pairs", "plain", "setup", "terms", "where")

    foes: dict[str, tuple[tuple[str, Profile, bool], ...]]

    def __init__(self, setup: Setup) -> None:
        profiles = setup.profiles
        self.setup = setup
        self.open = {n: pf.kind == "open" and not pf.across_gap for n, pf in profiles.items()}
        self.foes = {side: tuple((n, profiles[n], self.open[n]) for n in setup.order
                                 if profiles[n].side != side)
                     for side in {profiles[n].side for n in setup.order}}
        self.pairs: dict[tuple[object, ...], tuple[float | None, ...]] = {}
        #: What those attacks weigh but for the foe's hit points (:func:`_pair_scores`).
        self.terms: dict[tuple[object, ...], tuple[_Terms | None, ...]] = {}
        #: (actor, weapons dropped) -> usable weapons, each as an attack names it, and the
        #: open-ground terms of each (:func:`_arms`).
        self.arms: dict[tuple[str, tuple[str, ...]], _Arms] = {}
        #: (actor, foe) -> whether a grapple would drown the foe (:func:`_drowns`).
        self.drowns: dict[tuple[str, str], bool] = {}
        #: Per side: every foe stands on open ground; each foe's place among the foes.
        self.plain = {side: all(o for _, _, o in foes) for side, foes in self.foes.items()}
        self.where = {side: {n: i for i, (n, _, _) in enumerate(foes)}
                      for side, foes in self.foes.items()}
        #: Per side: the names of its foes, and of its own (in scenario order).
        self.foe_names = {side: tuple(n for n, _, _ in foes) for side, foes in self.foes.items()}
        self.allies = {side: tuple(n for n in setup.order if profiles[n].side == side)
                       for side in self.foes}
        #: Open terms by their values: fighters who fight alike share one list.
        self.canon: dict[tuple[OpenArm, ...], list[OpenArm]] = {}
        #: A free fighter's choice by every fighter's number and the front ranks
        #: (:meth:`HeuristicPolicy.choose`).
        self.choices: dict[tuple[object, ...], Action] = memory.table(setup, "choices")
        #: Attacks made, by actor, target and weapon (actions are values: one serves all).
        self.attacks: dict[tuple[str, str, str], Attack] = {}


_KNOWN: dict[int, _Known] = {}


#: The last setup asked about and what is known of it (a fight asks of one setup only).
_LAST: list[_Known | None] = [None]


def _known(setup: Setup) -> _Known:
    last = _LAST[0]
    if last is not None and last.setup is setup:
        return last
    found = _KNOWN.get(id(setup))
    if found is None or found.setup is not setup:
        if len(_KNOWN) > 16:
            _KNOWN.clear()
        found = _KNOWN[id(setup)] = _Known(setup)
    _LAST[0] = found
    return found


def _foes(setup: Setup, side: str) -> tuple[tuple[str, Profile, bool], ...]:
    """Every combatant of another side than ``side``, in scenario order, with his profile
    and whether he fights on open ground."""
    return _known(setup).foes[side]


def _on_open_ground(setup: Setup, name: str) -> bool:
    """``name`` fights on open ground, on this side of any gap (no terrain rule touches him
    but the height his fighter stands at)."""
    return _known(setup).open[name]


#: Pairs remembered per setup before the memory starts again.
_PAIRS_KEPT = 20_000


def _pair_scores(state: AdndUndergroundState, scorer: _Scorer, mine: tuple[object, ...],
                 foe: str, weapons: list[Weapon],
                 pairs: dict[tuple[object, ...], tuple[float | None, ...]],
                 key: tuple[object, ...]) -> tuple[float | None, ...]:
    """The worth of an attack on ``foe`` with each of ``weapons`` (None where
    :func:`.legality.attack_problem` refuses it), remembered per setup.

    Judging and scoring read only the two fighters (every field of the foe,
    :meth:`.Fighter.key`, and every field but the hit points of the attacker), whether
    each stands in his front rank, and the setup: two fighters in the same condition
    weigh alike in any state, and in any fight of the setup.  ``mine`` is the
    attacker's number but for his hit points (:func:`.memory.ids`: one for every key)
    and front rank, ``key`` that, the foe's number and front rank.  What the foe's hit
    points do not change (the judgement and :meth:`_Scorer.terms`: neither reads
    anyone's hit points) is remembered apart, keyed by every field but them
    (:meth:`.Fighter.key_but_hp`), and each worth made from it (:func:`_worth`).
    """
    fighters = state.fighters
    ft = fighters[foe]
    fronts = key[2]
    found = pairs.get(key)
    if found is None:
        actor = scorer.actor
        placed = (fighters[actor].key_but_hp(), mine[1], ft.key_but_hp(), fronts)
        known = _known(state.setup).terms
        terms = known.get(placed)
        if terms is None:
            terms = tuple(scorer.terms(foe, w)
                          if legality.attack_problem(state, actor, foe, w) is None else None
                          for w in weapons)
            if len(known) >= _PAIRS_KEPT:
                known.clear()
            known[placed] = terms
        hp = ft.hp
        found = tuple(None if t is None else _worth(t, hp) for t in terms)
        if len(pairs) >= _PAIRS_KEPT:
            pairs.clear()
        pairs[key] = found
    return found


OpenArm = tuple[str, bool, float, int, float, int, int, int, int]
#: A fighter's usable weapons, the weapon each names in an attack, and their open terms.
_Arms = tuple[tuple[Weapon, ...], list[Weapon], list[OpenArm] | None]


def _arms(state: AdndUndergroundState, actor: str, known: _Known) -> _Arms:
    """``actor``'s usable weapons (:func:`.terrain.usable_weapons`), the weapon an attack
    naming each strikes with (the first so called) and, on open ground, their terms
    (:func:`_open_terms`): they read only the setup and the weapons he dropped, so they
    are remembered per setup by those."""
    me = state.fighters[actor]
    key = (actor, me.dropped)
    found = known.arms.get(key)
    if found is None:
        weapons = terrain.usable_weapons(state, actor)
        first: dict[str, Weapon] = {}
        for w in weapons:
            first.setdefault(w.name, w)  # an attack names its weapon: the first so called
        chosen = [first[w.name] for w in weapons]
        terms = _open_terms(state, actor, weapons, chosen)
        if terms is not None:  # fighters who fight alike share one list of terms
            terms = known.canon.setdefault(tuple(terms), terms)
        found = known.arms[key] = (weapons, chosen, terms)
    return found


def _open_arms(state: AdndUndergroundState, actor: str, weapons: tuple[Weapon, ...],
               chosen: list[Weapon]) -> list[OpenArm] | None:
    """What :func:`_best` needs of each attack of ``actor`` on a foe on open ground, when he
    too stands on open ground and holds nobody; else None.

    There every terrain part of :mod:`.terrain` is nought: no clinging, no height, rear
    or water modifier, no fall, the foe's full Armor Class.  A melee weapon then reaches
    a foe (not under the water) exactly when :func:`.rules.in_reach` says so and both
    stand in their front ranks (:func:`.terrain.in_front`), a missile always, and the
    score is :meth:`_Scorer.attack`'s sum term for term (the very float).
    A blow cannot kill a foe with more hit points than its highest roll (at least 1).
    Per weapon: name, missile, reach (5 ft plus its length), THAC0 less its magic (the
    roll to hit is that less the foe's Armor Class), mean damage, damage modifier, dice
    count, sides and the highest damage.
    """
    if state.fighters[actor].holding is not None:
        return None
    return _open_terms(state, actor, weapons, chosen)


def _open_terms(state: AdndUndergroundState, actor: str, weapons: tuple[Weapon, ...],
                chosen: list[Weapon]) -> list[OpenArm] | None:
    """:func:`_open_arms` but for the hold (which changes during a fight): the terms of
    ``actor``'s weapons when he stands on open ground, else None."""
    if not _on_open_ground(state.setup, actor):
        return None
    thac0 = state.profile(actor).thac0
    return [(w.name, weapon.missile, 5.0 + weapon.length_ft, thac0 - weapon.magic,
             _mean_damage(weapon, 0), weapon.bonus + weapon.magic, weapon.count, weapon.sides,
             max(1, weapon.count * weapon.sides + weapon.bonus + weapon.magic))
            for w, weapon in zip(weapons, chosen, strict=True)]


def _scored(state: AdndUndergroundState, actor: str, rising: bool = False,
            known: _Known | None = None, ids: memory.Ids | None = None,
            ) -> list[tuple[float, int, str, str | Action]]:
    """Every attack, grapple and boulder :meth:`HeuristicPolicy._best` weighs that is worth
    more than nothing and legal: (minus its worth, its place in the order weighed, the
    foe, the weapon), or (..., "", the action) for a grapple or a boulder.  The fighter is
    free and it is his turn, so each is legal exactly when the check's own rule for it
    finds nothing (:func:`.legality.attack_problem`, :func:`.legality.grapple_problem`,
    :func:`.legality.boulder_problem`).

    ``rising``: only those worth more than every one weighed before them, so the last is
    the best (the first of equals) without keeping the rest.  ``known``: what is known of
    the setup (:func:`_known`), and ``ids`` the fighters' numbers (:func:`.memory.ids`),
    when the caller has them at hand."""
    setup = state.setup
    p = setup.profiles[actor]
    fighters = state.fighters
    me = fighters[actor]
    if known is None:
        known = _known(setup)
    weapons, chosen, open_terms = _arms(state, actor, known)
    arms = open_terms if me.holding is None else None
    scorer: _Scorer | None = None
    mine: tuple[object, ...] = ()
    scored: list[tuple[float, int, str, str | Action]] = []
    index, floor = 0, 0.0
    pairs = known.pairs
    alt = me.alt
    narrow = setup.bottleneck_ft is not None
    front = state.front
    in_front = not narrow or actor in front.get(p.side, ())
    one = False
    if arms is not None and len(arms) == 1:  # the common case: the loop over arms, unrolled
        one = True
        name, missile, reach, aim, damage, modifier, count, sides, most = arms[0]
    standing: list[str] = []
    for foe, pf, plain in known.foes[p.side]:
        ft = fighters[foe]
        if ft.status != "ok":
            continue
        standing.append(foe)
        if plain and arms is not None and not ft.under:
            hp, ac, height = ft.hp, pf.ac, ft.alt
            fronts = in_front and (not narrow or foe in front.get(pf.side, ()))
            if one:
                if missile or (fronts and -reach <= alt - height <= reach):
                    taken = hp if hp < damage else damage  # min(damage, hp)
                    if hp > most:
                        score = _hits(aim - ac) * (taken + 0.0 + 0.0)
                    else:
                        score = _hits(aim - ac) * (
                            taken + 0.0 + _kills(count, sides, modifier, hp)
                            * _threat(state, foe))
                    if score > floor:
                        scored.append((-score, index, foe, name))
                        if rising:
                            floor = score
                index += 1
                continue
            threat = -1.0
            for name, missile, reach, aim, damage, modifier, count, sides, most in arms:
                if missile or (fronts and -reach <= alt - height <= reach):
                    taken = hp if hp < damage else damage  # min(damage, hp)
                    if hp > most:
                        score = _hits(aim - ac) * (taken + 0.0 + 0.0)
                    else:
                        if threat < 0.0:
                            threat = _threat(state, foe)
                        score = _hits(aim - ac) * (
                            taken + 0.0 + _kills(count, sides, modifier, hp) * threat)
                    if score > floor:
                        scored.append((-score, index, foe, name))
                        if rising:
                            floor = score
                index += 1
            continue
        # The full path, remembered per setup (see _pair_scores), looked up here.
        if ids is None:
            ids = memory.ids(state)
        if not mine:
            mine = (ids.but_hp[actor], in_front)  # (an attack reads no attacker's hit points)
        key = (mine, ids.ids[foe], not narrow or foe in front.get(pf.side, ()))
        found = pairs.get(key)
        if found is None:
            if scorer is None:
                scorer = _Scorer(state, actor)
            found = _pair_scores(state, scorer, mine, foe, chosen, pairs, key)
        for w, worth in zip(weapons, found, strict=True):
            if worth is not None and worth > floor:
                scored.append((-worth, index, foe, w.name))
                if rising:
                    floor = worth
            index += 1
    standing = [n for n, _, _ in known.foes[p.side] if fighters[n].status == "ok"] \
        if p.kind == "water" or me.boulders else []
    if p.kind == "water":
        drowns = known.drowns
        for foe in standing:
            drowning = drowns.get((actor, foe))
            if drowning is None:
                drowning = drowns[(actor, foe)] = _drowns(state, actor, foe)
            # score_grapple's worth, the action made only when kept
            score = 2.0 * fighters[foe].hp / 3 if drowning else 0.0
            if score > floor and legality.grapple_problem(state, actor, foe) is None:
                scored.append((-score, index, "", _act(Grapple, actor, foe)))
                if rising:
                    floor = score
            index += 1
    if me.boulders:
        if ids is None:
            ids = memory.ids(state)
        thrower, numbers = ids.but_hp[actor], ids.ids
        for foe in standing:
            # A boulder's worth reads only the two fighters and the setup, like an attack's
            # (and no thrower's hit points).
            thrown = ("boulder", thrower, numbers[foe])
            known_score = pairs.get(thrown)
            if known_score is None:
                # What the foe's hit points do not change is remembered apart (as for an
                # attack, _pair_scores), keyed by his number but for them.
                placed = ("boulder", thrower, ids.but_hp[foe])
                terms = known.terms.get(placed)
                if terms is None:
                    if len(known.terms) >= _PAIRS_KEPT:
                        known.terms.clear()
                    terms = known.terms[placed] = (_boulder_terms(state, actor, foe),)
                if len(pairs) >= _PAIRS_KEPT:
                    pairs.clear()
                known_score = pairs[thrown] = (_worth(cast(_Terms, terms[0]),
                                                      fighters[foe].hp),)
            score = known_score[0] or 0.0
            if score > floor and legality.boulder_problem(state, actor, foe) is None:
                scored.append((-score, index, "", _act(Boulder, actor, foe)))
                if rising:
                    floor = score
            index += 1
    return scored


def _open_worth(state: AdndUndergroundState, foe: str, pf: Profile, ft: Fighter,
                arms: list[OpenArm], alt: float, fronts: bool) -> tuple[float, str]:
    """The best worth of an attack with one of ``arms`` (:func:`_open_arms`) on ``foe``,
    both on open ground, from height ``alt`` (``fronts`` when both stand in their front
    ranks), and the weapon it names: the first of equals worth more than nothing, else
    ``(-1.0, "")`` (worth is never below nothing)."""
    hp, ac, height = ft.hp, pf.ac, ft.alt
    threat = -1.0
    best, pick = 0.0, ""
    for name, missile, reach, aim, damage, modifier, count, sides, most in arms:
        if missile or (fronts and -reach <= alt - height <= reach):
            taken = hp if hp < damage else damage  # min(damage, hp)
            if hp > most:
                worth = _hits(aim - ac) * (taken + 0.0 + 0.0)
            else:
                if threat < 0.0:
                    threat = _threat(state, foe)
                worth = _hits(aim - ac) * (
                    taken + 0.0 + _kills(count, sides, modifier, hp) * threat)
            if worth > best:
                best, pick = worth, name
    return (best, pick) if pick else (-1.0, "")


class _OpenBest:
    """What :func:`_open_best` keeps for one state and one way of fighting (a side, the
    terms of his weapons, his height and whether he stands in his front rank): each
    foe's best worth and weapon, the place of the first of the highest worths (-1: to be
    found again), and how much of the state's change log it has read (-1: nothing yet)."""

    __slots__ = ("alt", "arms", "best", "in_front", "picks", "read", "setup", "side",
                 "worths")

    def __init__(self, setup: Setup, side: str, arms: list[OpenArm], alt: float,
                 in_front: bool, count: int) -> None:
        self.setup, self.side, self.arms, self.alt, self.in_front = setup, side, arms, alt, \
            in_front
        self.read, self.best = -1, -1
        self.worths = [-1.0] * count
        self.picks = [""] * count


def _open_best(state: AdndUndergroundState, actor: str, side: str, arms: list[OpenArm],
               known: _Known) -> Attack | bool | None:
    """The best attack of ``actor``, who stands on open ground and holds
    nobody, when every foe of his side stands on open ground: :func:`_scored`'s best
    (the first of equals, worth more than nothing), or None; False when a foe is under the
    water (never on open ground by the rules, but then :func:`_scored` judges).

    Each foe's worth reads only him, the setup, the front ranks and the attacker's way of
    fighting (his weapons' terms, his height, his front rank), so it is kept per state
    for each way of fighting (every fighter of a side who fights alike shares it) and
    worked out again only for those the fold says changed since
    (:attr:`.state.AdndUndergroundState.changed`; a change of the front ranks works
    everything out again).  The first of the highest worths is kept with them and
    looked for among them all again only when its own worth falls: a decision costs
    what changed since the last, not a look at every foe.  ``test_adnd_best_fast.py``
    holds it to the full rules, ``test_adnd_growth.py`` to a fresh look at every foe.
    """
    setup = state.setup
    fighters = state.fighters
    narrow = setup.bottleneck_ft is not None
    front = state.front
    in_front = not narrow or actor in front.get(side, ())
    alt = fighters[actor].alt
    remembered = state.remembered
    foes = known.foes[side]
    log = state.changed
    # The one asked for last (a side's fighters take their turns together, and most of
    # them fight alike), else by its key: one list for all terms alike (see _arms).
    kept: _OpenBest | None = remembered.get(_OpenBest)
    if kept is None or kept.arms is not arms or kept.alt != alt \
            or kept.in_front != in_front or kept.side != side or kept.setup is not setup:
        key = (side, id(arms), alt, in_front)
        kept = remembered.get(key)
        if kept is None or kept.setup is not setup or kept.arms is not arms:
            kept = remembered[key] = _OpenBest(setup, side, arms, alt, in_front, len(foes))
        remembered[_OpenBest] = kept
    read, end = kept.read, len(log)
    worths, picks = kept.worths, kept.picks
    best = kept.best
    if read >= 0 and read != end:
        where = known.where[side]
        last: str | None = None
        while read < end:
            name = log[read]
            read += 1
            if name == last:
                continue  # (one change logged twice running: worked out once)
            last = name
            if not name:  # the front ranks: every foe again
                read = -1
                break
            at = where.get(name, -1)
            if at < 0:
                continue  # one of his own side
            foe, pf, _ = foes[at]
            ft = fighters[foe]
            old = worths[at]
            if ft.status != "ok":
                worth, pick = -1.0, ""
            elif ft.under:
                kept.read = -1  # everything again next time
                return False
            else:
                fronts = in_front and (not narrow or foe in front.get(pf.side, ()))
                worth, pick = _open_worth(state, foe, pf, ft, arms, alt, fronts)
            worths[at], picks[at] = worth, pick
            if best < 0:
                continue  # to be found among them all below
            if at == best:
                if worth < old:
                    best = -1  # the best fell: look among them all
            elif worth > worths[best] or (worth == worths[best] and at < best):
                best = at
    if read < 0:
        for at, (foe, pf, _) in enumerate(foes):
            ft = fighters[foe]
            if ft.status != "ok":
                worths[at], picks[at] = -1.0, ""
                continue
            if ft.under:
                kept.read = -1  # everything again next time
                return False
            fronts = in_front and (not narrow or foe in front.get(pf.side, ()))
            worths[at], picks[at] = _open_worth(state, foe, pf, ft, arms, alt, fronts)
        best = -1
    if best < 0:
        best = worths.index(max(worths))  # the first of equals
    kept.read, kept.best = end, best
    if worths[best] <= 0.0:
        return None
    return _attack(actor, foes[best][0], picks[best], known.attacks)


#: From this many foes on (standing or not), a fighter on open ground facing only foes on
#: open ground reads each foe's worth kept per state (:func:`_open_best`); against fewer
#: the one pass of :func:`_scored` costs less.  Both give the same choice.
_MANY_FOES = 10

#: From this many foes on, the same where no bottleneck stands (see :func:`_keeps`).
_SOME_FOES = 4


def _keeps(setup: Setup, foes: int) -> bool:
    """Whether a fighter facing ``foes`` foes, all on open ground, reads their worths kept
    per state (:func:`_open_best`) rather than weighing them all in one pass: from
    :data:`_MANY_FOES` on, or from :data:`_SOME_FOES` on where no bottleneck stands (at
    one the front ranks change as fighters fall, and each change works every kept worth
    out again: in a small fight the one pass costs less)."""
    return foes >= _MANY_FOES or (foes >= _SOME_FOES and setup.bottleneck_ft is None)

#: Up to this many fighters, a free fighter's choice is remembered per setup by every
#: fighter's fields and the front ranks (:meth:`HeuristicPolicy.choose`), unless all
#: stand on open ground (there one pass costs less); in bigger fights the same ones
#: seldom come back.
_FEW = 8

#: The DM letting the round run (actions are immutable: one serves every round).
_PROCEED = Proceed(GM)

#: Actions made before, by class and fields (each a value: one serves every time).
_MADE: dict[tuple[object, ...], Action] = {}


def _act(cls: type[A], *fields: str) -> A:
    """``cls(*fields)``, made once for each distinct value and handed out again."""
    key = (cls, *fields)
    found = _MADE.get(key)
    if found is None:
        if len(_MADE) >= memory.KEPT:
            _MADE.clear()
        found = _MADE[key] = cls(*fields)
    return cast(A, found)


def _confirmed(request: DecisionRequest, action: Action) -> Action | None:
    """``action`` if it is legal now (handed over as found legal), else None: the rule set's
    quick yes (:func:`.legality.allows`) first, the full check when it cannot say."""
    if legality.allows(request.state, action):
        return request.vouch(action)
    return action if request.is_legal(action) else None


@mypyc_attr(allow_interpreted_subclasses=True)  # a policy others build on
class HeuristicPolicy:
    """A sensible fighter and a DM who lets the rules run as written."""

    def choose(self, request: DecisionRequest) -> Action:
        """The best-scoring legal action for ``request.actor``.

        Only the actions worth scoring are built and confirmed legal (never the
        whole list of actions), so the AI stays cheap in bulk simulation.
        """
        state: AdndUndergroundState = request.state
        actor = request.actor
        if actor == GM:
            return request.vouch(_PROCEED)  # the DM's one choice, always legal
        if state.falling == actor:
            choices = state.grab_choices
            return _act(Grab, actor, choices[0]) if choices else _act(Plummet, actor)
        fighters = state.fighters
        me = fighters[actor]
        if me.hanging_on is not None:
            return _act(Regain, actor)
        if me.held_by is not None:
            return _act(BreakFree, actor)
        if len(fighters) > _FEW:
            return self._free(request)
        known = _known(state.setup)
        if known.open[actor] and known.plain[state.setup.profiles[actor].side]:
            return self._free(request)  # all on open ground: cheap to work out afresh
        # A free fighter's choice (and whether it is legal) reads only the setup, every
        # fighter and the front ranks, and never the hit points of the chooser or of his
        # side (only a foe's: how hurt he is, whether a blow kills him): in a small fight
        # among walls, ledges and water the same ones come back often, each costly to
        # work out.  Every foe is keyed by his number (memory.ids: one number for one
        # Fighter.key), the chooser and his side by theirs but for the hit points.
        ids = memory.ids(state)
        full, but_hp = ids.ids, ids.but_hp
        side = state.setup.profiles[actor].side
        key = (actor, tuple([full[n] for n in known.foe_names[side]]),
               tuple([but_hp[n] for n in known.allies[side]]), ids.front)
        kept = known.choices
        found = kept.get(key)
        if found is not None:
            return request.vouch(found)
        found = self._free(request, ids)
        if len(kept) >= memory.KEPT:
            kept.clear()
        kept[key] = found
        return found

    def _free(self, request: DecisionRequest, ids: memory.Ids | None = None) -> Action:
        """:meth:`choose` for a free fighter (not falling, hanging or held) on his turn."""
        state: AdndUndergroundState = request.state
        actor = request.actor
        best = self._best(request, ids)
        if best is not None:
            return self._advantage(request, best) or best
        if self._should_turn(state, actor):
            return _act(Turn, actor)
        climb = self._climb(request)
        return climb if climb is not None else _act(Wait, actor)

    @staticmethod
    def _best(request: DecisionRequest, ids: memory.Ids | None = None) -> Action | None:
        """The legal action of highest worth above nothing (the first of equals) among the
        attacks on every foe with every usable weapon, then grapples (in water) and
        boulders (while he has one), in that order.

        Built directly, never by listing every action.  Only legal ones are weighed
        (:func:`_scored` judges each by the check's own rule), only those better than
        every one before them kept, and only the chosen one is built, then handed over
        as found legal (``request.vouch``: no second check).  An attack between two
        fighters on open ground is judged and scored from the terms :func:`_open_arms`
        gathers (the same rules with every terrain part at nought);
        ``test_adnd_best_fast.py`` holds it to the full rules.
        """
        state: AdndUndergroundState = request.state
        actor = request.actor
        setup = state.setup
        side = setup.profiles[actor].side
        known = _known(setup)
        me = state.fighters[actor]
        if known.plain[side] and me.holding is None and not me.boulders \
                and _keeps(setup, len(known.foes[side])):
            arms = _arms(state, actor, known)[2]
            if arms is not None:  # he too stands on open ground
                found = _open_best(state, actor, side, arms, known)
                if found is None:
                    return None
                if isinstance(found, Attack):
                    return request.vouch(found)
        rising = _scored(state, actor, True, known, ids)
        if not rising:
            return None
        return request.vouch(_made(actor, rising[-1], known.attacks))

    @staticmethod
    def _advantage(request: DecisionRequest, best: Action) -> Action | None:
        """Climb to advantage: a climber below his target, hitting less than half the time,
        climbs a step first if the target stays in reach (trading -2 for +2)."""
        if not isinstance(best, Attack):
            return None
        state: AdndUndergroundState = request.state
        if state.setup.profiles[best.actor].kind != "wall":
            return None
        me, foe = state.fighters[best.actor], state.fighters[best.target]
        if foe.alt <= me.alt or hit_chance(state, best) >= 0.5:
            return None
        weapon = _weapon(state, best.actor, best.weapon)
        step = state.setup.climb_step_ft
        if not rules.in_reach(me.alt + step, foe.alt, weapon.length_ft):
            return None
        return _confirmed(request, _act(Climb, best.actor, "up"))

    @staticmethod
    def _should_turn(state: AdndUndergroundState, actor: str) -> bool:
        """Facing the wall, turn when a foe off it stands within reach of his longest weapon."""
        p, me = state.profile(actor), state.fighters[actor]
        if not (terrain.clinging(p, me) and me.facing_wall) or p.across_gap:
            return False
        reach = max((w.length_ft for w in terrain.usable_weapons(state, actor) if not w.missile),
                    default=0.0)
        for name, foe in state.fighters.items():
            pf = state.profile(name)
            if (foe.up and pf.side != p.side and not pf.across_gap and not foe.under
                    and terrain.faces_away(state, actor, name)
                    and rules.in_reach(me.alt, foe.alt, reach)
                    and terrain.in_front(state, actor) and terrain.in_front(state, name)):
                return True
        return False

    @staticmethod
    def _climb(request: DecisionRequest) -> Action | None:
        """Close in: climb toward the nearest foe he could strike hand to hand (up when
        level with him).

        A foe no climb brings within reach (across a gap, under the water) is not worth
        the climb: heading for him, a climber went down and up again forever while the
        defenders above waited.
        """
        state: AdndUndergroundState = request.state
        actor = request.actor
        p = state.profile(actor)
        if p.kind != "wall" or p.across_gap:
            return None
        me = state.fighters[actor]
        foes = [f.alt for n, f in state.fighters.items()
                if f.up and state.profile(n).side != p.side
                and not state.profile(n).across_gap and not f.under]
        if not foes:
            return None
        goal = min(foes, key=lambda alt: abs(alt - me.alt))
        up = goal >= me.alt and not HeuristicPolicy._shoots_from_the_foot(state, actor)
        return _confirmed(request, _act(Climb, actor, "up" if up else "down"))

    @staticmethod
    def _shoots_from_the_foot(state: AdndUndergroundState, actor: str) -> bool:
        """An archer on a wall whose bow needs both hands (useless while he clings) climbs
        down to shoot from the foot, rather than up to fight clinging, when every foe above
        him stands on a ledge or bridge (they cannot climb after him).

        At the top he would strike at -2 against foes 2 higher, each of their hits a
        climbing check or a fall; from the foot every hit of his threatens to push a
        foe over the edge.
        """
        p, me = state.profile(actor), state.fighters[actor]
        if me.alt <= 0 or not any(w.missile and w.hands == 2 for w in p.weapons):
            return False
        above = [state.profile(n) for n, f in state.fighters.items()
                 if f.up and state.profile(n).side != p.side and f.alt > me.alt]
        return bool(above) and all(pf.kind in ("ledge", "bridge") and not pf.across_gap
                                   for pf in above)
