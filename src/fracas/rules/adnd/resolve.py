"""Resolving actions and advancing the fight: rounds, initiative, blows and what they do.

:func:`resolve` carries out a legal action; :func:`advance` skips those who
cannot act, closes a round (breath clocks) and opens the next (front ranks at a
bottleneck, side initiative).  Attack rolls, damage, boulders and what a hit
does to a climber's hold live here too; falls are in :mod:`.falls`, grappling
and water in :mod:`.water`.  Each function rolls through the injected ``Rng``,
records every face in a ``DiceRolled`` event before using it (unless its emitter is
:class:`.events.Quiet`: nobody reads the reports), and changes the state only by
emitting events.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from fracas.core.action import Action
from fracas.core.events import DiceRolled, FightEnded
from fracas.core.rng import Rng, SeededRng
from fracas.core.ruleset import GM, Emit
from fracas.rules.adnd import falls, memory, rules, terrain, water
from fracas.rules.adnd.actions import (
    Attack,
    Boulder,
    BreakFree,
    CallSave,
    Climb,
    Grab,
    Grapple,
    KnockOut,
    Plummet,
    Regain,
    Release,
    Secure,
    Turn,
)
from fracas.rules.adnd.checks import (
    Classes,
    at_least,
    climbing_check,
    dexterity_check,
    roll_d20,
    roll_sum,
)
from fracas.rules.adnd.events import (
    AttackRolled,
    BoulderSpent,
    Climbed,
    FrontRank,
    GmDone,
    GrappleEnded,
    Quiet,
    RoundBegan,
    Secured,
    Slain,
    Turned,
    TurnEnded,
    TurnOrder,
    Wielded,
    Wounded,
    interned,
)
from fracas.rules.adnd.state import AdndUndergroundState, Setup, Weapon

# The events a fight makes most, each distinct one made once (see events.interned).
_turn_ended = interned(TurnEnded)
_wielded = interned(Wielded)
_attack_rolled = interned(AttackRolled)
_wounded = interned(Wounded)
_gm_done = interned(GmDone)
_round_began = interned(RoundBegan)
_turn_order = interned(TurnOrder)
_front_rank = interned(FrontRank)
_dice_rolled = interned(DiceRolled)
_boulder_spent = interned(BoulderSpent)
_climbed = interned(Climbed)
_turned = interned(Turned)

__all__ = ["advance", "attack", "attack_terms", "boulder", "boulder_terms", "deal_damage",
           "front_rank", "resolve"]


# -- actions -------------------------------------------------------------------
def resolve(state: AdndUndergroundState, action: Action, rng: Rng, emit: Emit) -> None:
    """Carry out a legal action; a combatant's action ends his turn."""
    actor = action.actor
    if actor == GM:
        _resolve_gm(state, action, rng, emit)
        return
    if type(action) is Attack:  # the commonest, asked first (an action class is final)
        if _attack_action(state, action, rng, emit):
            emit(_turn_ended(actor))
        return
    if isinstance(action, Grab):
        falls.grab(state, actor, action.target, rng, emit)
        return
    if isinstance(action, Plummet):
        falls.land(state, actor, rng, emit)
        return
    if isinstance(action, Attack):
        if not _attack_action(state, action, rng, emit):
            return  # the second blow is still to strike (the exact solver's stop)
    elif isinstance(action, Boulder):
        boulder(state, actor, action.target, rng, emit)
    elif isinstance(action, Climb):
        step = state.setup.climb_step_ft
        alt = state.fighters[actor].alt + (step if action.direction == "up" else -step)
        emit(_climbed(actor, max(0.0, alt)))
    elif isinstance(action, Turn):
        emit(_turned(actor, not state.fighters[actor].facing_wall))
    elif isinstance(action, Grapple):
        water.grapple(state, actor, action.target, rng, emit)
    elif isinstance(action, BreakFree):
        water.break_free(state, actor, rng, emit)
    elif isinstance(action, Release):
        holding = state.fighters[actor].holding
        if holding is not None:
            emit(GrappleEnded(actor, holding))
    elif isinstance(action, Regain):
        falls.regain(state, actor, rng, emit)
    emit(_turn_ended(actor))


def _resolve_gm(state: AdndUndergroundState, action: Action, rng: Rng, emit: Emit) -> None:
    if isinstance(action, Secure):
        emit(Secured(action.target, True))
    elif isinstance(action, CallSave):
        water.saving_throw(state, action.target, action.category, rng, emit, hidden=True)
    elif isinstance(action, KnockOut):
        falls.knock_out(state, action.target, rng, emit)
    emit(_gm_done())


def _attack_action(state: AdndUndergroundState, action: Attack, rng: Rng, emit: Emit) -> bool:
    """One attack; a two-weapon fighter not clinging to a wall strikes with both.

    ``False`` when it stopped before the second blow, kept in :attr:`~.state.
    AdndUndergroundState.blow` for :func:`advance` to strike: only for the exact solver's
    Rng (its ``rounds_apart``), so that the solver follows the second blow once for each
    state the first one leaves instead of once for every way the first one falls (the
    same blow, rolled from the same state; ``docs/rules/adnd.md``, "Exact duel odds").
    """
    actor, target = action.actor, action.target
    weapons = terrain.usable_weapons(state, actor)
    name = action.weapon
    for weapon in weapons:
        if weapon.name == name:
            break
    attack(state, actor, target, weapon, rng, emit)
    p = state.setup.profiles[actor]
    if weapon.missile or not p.two_weapons or terrain.clinging(p, state.fighters[actor]):
        return True
    second = next((w for w in weapons if not w.missile and w.name != weapon.name), None)
    ft = state.fighters[target]
    if second is None or not ft.up or state.falling == target or ft.hanging_on is not None:
        return True
    if terrain.melee_allowed(state, actor, target, second) is None:
        if getattr(rng, "rounds_apart", False):
            state.blow = (actor, target, second)
            return False
        attack(state, actor, target, second, rng, emit)
    return True


def _second_blow(state: AdndUndergroundState, rng: Rng, emit: Emit) -> None:
    """Strike the second blow :func:`_attack_action` left to strike, and end the turn: what
    it would have done had it not stopped."""
    blow = state.blow
    assert blow is not None
    actor, target, second = blow
    state.blow = None
    attack(state, actor, target, second, rng, emit)
    emit(_turn_ended(actor))


# -- rounds --------------------------------------------------------------------
def advance(state: AdndUndergroundState, rng: Rng, emit: Emit) -> None:
    """Skip those who cannot act, close rounds (breath clocks), open rounds (initiative).

    For the exact solver's Rng (its ``rounds_apart``) it stops at the close of a round,
    before anything of the next is rolled: the solver opens the round from there once per
    key (``docs/rules/adnd.md``, "Exact duel odds").  It stops, too, before a second blow
    still to strike (:attr:`~.state.AdndUndergroundState.blow`); told to go on from there
    (``rounds_apart`` false), it strikes the blow, ends the turn, and tells the Rng it may
    stop again at the close of the round, which the solver follows apart as any other.
    """
    if state.blow is not None:
        if getattr(rng, "rounds_apart", False):
            return  # the exact solver strikes the second blow apart
        _second_blow(state, rng, emit)
        solver: Any = rng  # only the exact solver's Rng leaves a blow to strike
        solver.rounds_apart = True
    fighters = state.fighters
    remembered = state.remembered
    while state.result is None and state.falling is None:
        # _decided's first question asked here: two of different sides still stand?
        pair = remembered.get(_decided)
        a = None if pair is None else fighters.get(pair[0])
        b = None if pair is None else fighters.get(pair[1])
        if (a is None or b is None or a.status != "ok" or b.status != "ok") \
                and _decided(state, emit):
            return
        if state.round == 0:
            _start_round(state, rng, emit)
            continue
        if state.phase == "gm":
            return
        if state.turn < len(state.queue):
            name = state.queue[state.turn]
            if fighters[name].status == "ok":
                return
            emit(_turn_ended(name))
            continue
        if getattr(rng, "rounds_apart", False):
            return  # the exact solver opens the next round apart (odds.chance.ChanceRng)
        for name in state.setup.order:
            f = fighters[name]
            if f.up and f.under:
                water.breath_round(state, name, rng, emit)
        if _decided(state, emit):
            return
        if state.round >= state.setup.max_rounds:
            emit(FightEnded(None, "round limit"))
            return
        _start_round(state, rng, emit)


def _decided(state: AdndUndergroundState, emit: Emit) -> bool:
    """End the fight when at most one side has a fighter standing.

    Two fighters of different sides seen standing at the last look (kept with the state)
    are asked first: while both still stand the fight goes on, without a walk over every
    fighter (a fight of many fighters asks this after every turn).  A fighter's side
    never changes.
    """
    fighters = state.fighters
    known = state.remembered.get(_decided)
    if known is not None:
        a, b = fighters.get(known[0]), fighters.get(known[1])
        if a is not None and b is not None and a.status == "ok" and b.status == "ok":
            return False  # two sides still stand
    profiles = state.setup.profiles
    winner: str | None = None
    first = ""
    for name, f in fighters.items():
        if f.status == "ok":
            side = profiles[name].side
            if winner is None:
                winner, first = side, name
            elif side != winner:
                state.remembered[_decided] = (first, name)
                return False  # two sides still stand
    emit(FightEnded(winner, "the last side standing" if winner else "nobody is left"))
    return True


def _start_round(state: AdndUndergroundState, rng: Rng, emit: Emit) -> None:
    """Form the bottleneck's front ranks and roll side initiative on d10 (low goes first)."""
    emit(_round_began(state.round + 1))
    setup = state.setup
    if setup.bottleneck_ft is not None:
        for side in setup.sides:
            emit(_front_rank(side, front_rank(state, side, setup.bottleneck_ft)))
    sides = initiative(setup.sides, rng, emit)
    fighters = state.fighters
    kept = state.remembered.get(_by_side)  # (the setup, its sides), kept with the state
    if kept is None or kept[0] is not setup:
        kept = state.remembered[_by_side] = (setup, _by_side(setup))
    by_side = kept[1]
    emit(_turn_order(sides, tuple([n for side in sides for n in by_side[side]
                                   if fighters[n].status == "ok"])))


def _by_side(setup: Setup) -> dict[str, tuple[str, ...]]:
    """Each side's combatants in scenario order (remembered per setup)."""
    known = memory.table(setup, "by side")
    if not known:
        known.update({side: tuple(n for n in setup.order if setup.profiles[n].side == side)
                      for side in {p.side for p in setup.profiles.values()}})
    return known


def initiative(sides: tuple[str, ...], rng: Rng, emit: Emit) -> tuple[str, ...]:
    """Every side rolls d10, all again on any tie; the sides in the order of their rolls.

    Each side rolls the same die and every tie is rolled again, so the order comes out
    uniformly at random among all orders of the sides.  The exact duel solver (an Rng
    that enumerates, told by its ``dice_in_classes``) branches on that order directly,
    each position drawn as one uniform choice among the sides left, and is shown faces
    1, 2, ... in that order; rolling its d10s would branch into a hundred faces a pair,
    with ties rolled again without end.  Every other Rng rolls the d10s.
    """
    if type(rng) is not SeededRng and getattr(rng, "dice_in_classes", None) is not None:
        left = list(sides)
        order = []
        while len(left) > 1:
            order.append(left.pop(rng.die(len(left)) - 1))
        order.extend(left)
        if type(emit) is not Quiet:  # reports (see Quiet)
            for side in sides:
                emit(_dice_rolled(side, "initiative", 10, (order.index(side) + 1,), False))
        return tuple(order)
    die = rng.die
    if len(sides) == 2:  # the common case, the loop below unrolled
        first, second = sides
        quiet = type(emit) is Quiet  # the rolls are reports (see Quiet)
        while True:
            a = die(10)
            if not quiet:
                emit(_dice_rolled(first, "initiative", 10, (a,), False))
            b = die(10)
            if not quiet:
                emit(_dice_rolled(second, "initiative", 10, (b,), False))
            if a != b:
                return sides if a < b else (second, first)
    while True:
        rolls = []
        for side in sides:
            face = die(10)
            emit(_dice_rolled(side, "initiative", 10, (face,), False))
            rolls.append(face)
        if len(set(rolls)) == len(rolls):  # no tie: each side by its roll, lowest first
            return tuple([side for _, side in sorted(zip(rolls, sides, strict=True))])


def front_rank(state: AdndUndergroundState, side: str, width_ft: float) -> tuple[str, ...]:
    """Who of ``side`` fits the bottleneck: standing fighters in scenario order, each taking
    his frontage, while the total fits the width."""
    used = 0.0
    names = []
    for name in state.setup.order:
        p = state.profile(name)
        if p.side != side or not state.fighters[name].up:
            continue
        if used + p.frontage_ft > width_ft:
            break
        used += p.frontage_ft
        names.append(name)
    return tuple(names)


# -- blows ---------------------------------------------------------------------


def attack(state: AdndUndergroundState, attacker: str, target: str, weapon: Weapon, rng: Rng,
           emit: Emit) -> None:
    """One attack roll with ``weapon``: d20 plus modifiers against THAC0 minus the target's AC.

    A hit deals the weapon's damage plus magic, less the climber and water
    penalties, never under 1 point.
    """
    fighters = state.fighters
    if not weapon.missile and fighters[attacker].wielding != weapon.name:
        emit(_wielded(attacker, weapon.name))
    needed, bonus, classes, modifiers, modifier = attack_terms(state, attacker, target, weapon)
    total = roll_d20(rng, emit, attacker, "attack", classes=classes) + bonus
    hit = total >= needed
    if type(emit) is not Quiet:  # a report (see Quiet)
        emit(_attack_rolled(attacker, target, weapon.name, total, needed, hit, False,
                            modifiers))
    if not hit:
        return
    raw = roll_sum(rng, emit, attacker, "damage", weapon.count, weapon.sides,
                   felled_from(state, target, modifier),
                   damage_classes(state, target, weapon.count, weapon.sides, modifier))
    amount = raw + modifier
    deal_damage(state, target, amount if amount > 1 else 1,
                "melee" if not weapon.missile else "missile", not weapon.missile,
                state.setup.profiles[attacker].flanking, rng, emit)


#: What :func:`attack_terms` gives: the number needed, the sum of the modifiers, the d20's
#: classes, the modifiers' words and the damage modifier.
Terms = tuple[int, int, Classes, tuple[str, ...], int]


def attack_terms(state: AdndUndergroundState, attacker: str, target: str,
                 weapon: Weapon) -> Terms:
    """Everything :func:`attack` reads before its dice: the number needed (THAC0 less the
    target's effective AC), the modifiers of :func:`.terrain.attack_parts` (their sum and
    their words), the d20's classes for that, and the damage modifier.

    They read only the setup, the weapon and the two fighters, and never anyone's hit
    points, so they are remembered per setup, keyed by every other field of both
    (:meth:`.state.Fighter.key_but_hp`, or the number standing for it where the state
    keeps them up to date, :func:`.memory.ids`): the value is the one
    :func:`_attack_terms` works out.
    """
    known = memory.table(state.setup, "attack terms")
    numbers = state.remembered.get(memory.Ids)
    if numbers is not None and numbers.read == len(state.changed) \
            and numbers.setup is state.setup:  # up to date: each number stands for one key
        but_hp = numbers.but_hp
        key: tuple[object, ...] = (but_hp[attacker], but_hp[target], id(weapon))
    else:
        fighters = state.fighters
        key = (fighters[attacker].key_but_hp(), fighters[target].key_but_hp(), id(weapon))
    found = known.get(key)
    if found is None or found[0] is not weapon:
        if len(known) >= memory.KEPT:
            known.clear()
        found = known[key] = (weapon, _attack_terms(state, attacker, target, weapon))
    return found[1]


def _attack_terms(state: AdndUndergroundState, attacker: str, target: str,
                  weapon: Weapon) -> Terms:
    """:func:`attack_terms` worked out from the rules."""
    parts = terrain.attack_parts(state, attacker, target, weapon.magic)
    needed = rules.hit_number(state.profile(attacker).thac0,
                              terrain.effective_ac_of(state, target))
    bonus = sum(v for v, _ in parts)
    modifier = weapon.bonus + weapon.magic + terrain.damage_modifier(state, attacker)
    return needed, bonus, at_least(20, needed - bonus), rules.labels(parts), modifier


def boulder(state: AdndUndergroundState, thrower: str, target: str, rng: Rng, emit: Emit) -> None:
    """A boulder: 2d8 against AC 10, -8 to hit when dropped by one who cannot hurl it.

    A climber it strikes checks his hold like after any blow.
    """
    emit(_boulder_spent(thrower))
    needed, bonus, classes, modifiers, modifier = boulder_terms(state, thrower, target)
    total = roll_d20(rng, emit, thrower, "boulder", classes=classes) + bonus
    hit = total >= needed
    if type(emit) is not Quiet:  # a report (see Quiet)
        emit(_attack_rolled(thrower, target, "boulder", total, needed, hit, False, modifiers))
    if not hit:
        return
    raw = roll_sum(rng, emit, thrower, "damage", *rules.BOULDER_DICE,
                   felled_from(state, target, modifier),
                   damage_classes(state, target, *rules.BOULDER_DICE, modifier))
    amount = max(1, raw + modifier)
    deal_damage(state, target, amount, "boulder", False, False, rng, emit)


def boulder_terms(state: AdndUndergroundState, thrower: str, target: str) -> Terms:
    """Everything :func:`boulder` reads before its dice, as :func:`attack_terms` gives them
    for an attack: read only from the setup and the two fighters but their hit points,
    so remembered per setup the same way; the value :func:`_boulder_terms` works out."""
    fighters = state.fighters
    known = memory.table(state.setup, "boulder terms")
    key = (fighters[thrower].key_but_hp(), fighters[target].key_but_hp())
    found = known.get(key)
    if found is None:
        if len(known) >= memory.KEPT:
            known.clear()
        found = known[key] = _boulder_terms(state, thrower, target)
    return found


def _boulder_terms(state: AdndUndergroundState, thrower: str, target: str) -> Terms:
    """:func:`boulder_terms` worked out from the rules: AC 10, the underground modifiers
    and -8 for one who cannot hurl it."""
    pa = state.profile(thrower)
    parts = terrain.attack_parts(state, thrower, target, 0)
    if not pa.can_hurl:
        parts += ((rules.DROP_PENALTY, "dropped"),)
    needed = rules.hit_number(pa.thac0, rules.BOULDER_AC)
    bonus = sum(v for v, _ in parts)
    return (needed, bonus, at_least(20, needed - bonus), rules.labels(parts),
            terrain.damage_modifier(state, thrower))


def damage_classes(state: AdndUndergroundState, target: str, count: int, sides: int,
                   modifier: int) -> Classes | None:
    """Faces of a blow's damage dice that nothing after the blow tells apart, or ``None``.

    Every amount that takes the target to 0 hit points does the same: he is slain, and
    a fighter out of the fight is keyed without his hit points (:func:`.state.state_key`).
    One die: each face that leaves him standing is its own class, the felling faces one
    class.  Several dice add up, so their faces are told apart unless even the lowest
    total fells him.
    """
    return _felling(state.fighters[target].hp, count, sides, modifier)


@lru_cache(maxsize=4096)
def _felling(hp: int, count: int, sides: int, modifier: int) -> Classes | None:
    """:func:`damage_classes` against a target with ``hp`` hit points."""
    if count == 1:
        felling = tuple(f for f in range(1, sides + 1) if max(1, f + modifier) >= hp)
        if len(felling) < 2:
            return None
        return (*((f,) for f in range(1, sides + 1) if f not in felling), felling)
    if max(1, count + modifier) >= hp:
        return (tuple(range(1, sides + 1)),)
    return None


def felled_from(state: AdndUndergroundState, target: str, modifier: int) -> int:
    """The least sum of a blow's damage dice that takes ``target`` to 0 hit points, with
    ``modifier`` added (a blow deals at least 1): every sum from it on does the same, as
    :func:`damage_classes` reads the faces of one die.  The rules read the dice by their
    sum only (:func:`.checks.roll_sum`)."""
    hp = state.fighters[target].hp
    return hp - modifier if hp > 1 else -(1 << 30)  # at 1 hit point any blow fells


def deal_damage(state: AdndUndergroundState, target: str, amount: int, cause: str, melee: bool,
                flanking: bool, rng: Rng, emit: Emit) -> None:
    """Take ``amount`` hit points from ``target``, then test his hold or footing.

    At 0 hit points he dies.  A combatant hanging from a foe checks at -20% or
    falls alone; a climber checks his climbing rating (-10% for a blow of half
    his hit points or more); a fighter on a ledge or bridge checks Dexterity.
    """
    emit(_wounded(target, amount, cause))
    f = state.fighters[target]
    p = state.profile(target)
    if f.hp <= 0:
        emit(Slain(target, cause))
        falls.body_drops(state, target, rng, emit)
        return
    if f.hanging_on is not None:
        if not climbing_check(state, target, rules.HANGING_PENALTY, rng, emit, "hanging"):
            falls.land(state, target, rng, emit)
        return
    if terrain.on_sheer_surface(p, f):
        heavy = rules.climb_check_target(p.climbing, amount, p.hp_max) - p.climbing
        if not climbing_check(state, target, heavy, rng, emit, "heavy blow"):
            falls.begin_fall(state, target, rng, emit)
    elif p.kind in ("ledge", "bridge"):
        push = rules.push_modifier(p.kind, p.behind, melee, flanking)
        if not dexterity_check(state, target, push, rng, emit, _push_reason(p.behind, melee,
                                                                             flanking)):
            falls.begin_fall(state, target, rng, emit)


def _push_reason(behind: str | None, melee: bool, flanking: bool) -> str:
    """Why a blow pushes a fighter on a ledge or bridge as it does (for the log)."""
    if not melee and flanking:
        return "shot from the flank"
    return _BEHIND.get(behind or "open", "push")


_BEHIND = {"wall": "wall behind", "drop": "drop behind", "open": "open ground behind"}
