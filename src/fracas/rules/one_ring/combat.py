"""Attacks, hits, Piercing Blows, Wounds, combat tasks and escape.

Every function here rolls through the injected ``Rng`` and changes the state
only by emitting events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fracas.core.ruleset import GM, Emit
from fracas.rules.one_ring import events
from fracas.rules.one_ring.catalogue import FoeWeapon, Weapon
from fracas.rules.one_ring.changes import (
    engage,
    hit_pending,
    hit_resolved,
    lose_endurance,
    spend_hope,
    spend_main,
    wound,
)
from fracas.rules.one_ring.dice import GOOD, RollResult, net_dice, roll_test
from fracas.rules.one_ring.events import Quiet
from fracas.rules.one_ring.rules import (
    FEND_OFF,
    HEAVY,
    NONE,
    PIERCE,
    PIERCE_BONUS,
    PIERCING_CATEGORIES,
    PIERCING_RANK,
    SHIELD_THRUST,
    TASKS,
    knockback_loss,
)
from fracas.rules.one_ring.state import (
    DEFENSIVE,
    FORWARD,
    REARWARD,
    SHIELD,
    OneRingState,
    Pending,
)

if TYPE_CHECKING:
    from fracas.core.rng import Rng

__all__ = [
    "do_escape",
    "do_task",
    "finish_hit",
    "foe_attack",
    "foe_attack_is_close",
    "foe_weapon_for",
    "hero_attack",
    "hero_attack_is_ranged",
    "knockback_due",
    "special_options",
]

ATTACK, PROTECTION, TASK, ESCAPE = "attack", "protection", "task", "escape"


def hero_attack_is_ranged(state: OneRingState, hero: str) -> bool:
    """Heroes shoot in the opening volleys and from the Rearward stance; else they close in."""
    return state.phase == "volley" or state.heroes[hero].stance == REARWARD


def _hero_weapon(state: OneRingState, hero: str, ranged: bool) -> Weapon | None:
    """The volleys are shot with any carried bow (or thrown spear); in the rounds a hero
    fights with the weapon in hand: a bow to shoot from Rearward, a blade up close."""
    if state.phase == "volley":
        return state.ranged_weapon(hero, state.volley)
    return state.bow_in_hand(hero) if ranged else state.close_weapon(hero)


def _hero_roll(state: OneRingState, hero: str, target: str, weapon: Weapon, ranged: bool,
               hope: bool, purpose: str, rng: Rng, emit: Emit) -> RollResult:
    """A hero's attack roll: proficiency dice and stance modifiers against Strength TN + Parry."""
    card = state.roster.heroes[hero]
    h = state.heroes[hero]
    bonus = penalty = 0
    if hope:
        if type(emit) is Quiet:
            spend_hope(state, hero)
        else:
            emit(events.HopeSpent(hero))
        bonus += 1
    if h.rallied:
        emit(events.BonusUsed(hero, "rallied"))
        bonus += 1
    favoured = False
    if ranged and h.prepared:
        emit(events.BonusUsed(hero, "prepared"))
        favoured = True
    if not ranged:
        if h.stance == FORWARD:
            bonus += 1
        elif h.stance == DEFENSIVE:
            penalty += len(state.board.engaging(hero))
    dice = net_dice(card.rating(weapon.category), bonus, penalty)
    tn = 20 - card.strength + state.roster.foes[target].parry
    result = roll_test(rng, emit, hero, purpose, dice, tn, favoured=favoured,
                       weary=state.weary(hero), miserable=state.miserable(hero))
    if type(emit) is not Quiet:  # else nobody reads it
        emit(events.RollRead(hero, purpose, target, tn, result.total, result.success,
                             result.rank, result.tengwars))
    return result


def hero_attack(state: OneRingState, hero: str, target: str, hope: bool, rng: Rng,
                emit: Emit) -> None:
    """A hero attacks: a shot (volley, Rearward) or a close attack, re-engaging if needed."""
    ranged = hero_attack_is_ranged(state, hero)
    weapon = _hero_weapon(state, hero, ranged)
    if weapon is None:
        return
    quiet = type(emit) is Quiet
    if not ranged and (hero, target) not in state.board.pairs:
        if quiet:
            engage(state, hero, target)
        else:
            emit(events.Engaged(hero, target))
    if quiet:
        spend_main(state, hero)
    else:
        emit(events.MainActionTaken(hero))
    result = _hero_roll(state, hero, target, weapon, ranged, hope, ATTACK, rng, emit)
    if result.success:
        if quiet:
            hit_pending(state, hero, target, True, not ranged, weapon.damage, weapon.injury,
                        result.rank, result.tengwars, hero)
        else:
            emit(events.HitPending(hero, target, True, not ranged, weapon.damage,
                                   weapon.injury, result.rank, result.tengwars, hero))


def foe_attack_is_close(state: OneRingState, foe: str, target: str) -> bool:
    """An adversary fights at close quarters when engaged with ``target`` or free to engage
    that hero; otherwise (volleys, standing back) it shoots."""
    if state.phase == "volley":
        return False
    board = state.board
    if (target, foe) in board.pairs:
        return True
    return foe not in board.stood_back and not board.is_engaged(foe) and \
        board.can_engage(target, foe)


def foe_weapon_for(state: OneRingState, foe: str, close: bool) -> FoeWeapon | None:
    """The adversary's weapon for a close attack or a shot."""
    card = state.roster.foes[foe]
    if close:
        return card.close_weapon() or card.weapons[0]
    return card.ranged_weapon(state.volley)


def foe_attack(state: OneRingState, foe: str, target: str, rng: Rng, emit: Emit) -> None:
    """An adversary attacks a hero: its rating in Success dice against the hero's Parry."""
    close = foe_attack_is_close(state, foe, target)
    weapon = foe_weapon_for(state, foe, close)
    if weapon is None:
        return
    quiet = type(emit) is Quiet
    if close and (target, foe) not in state.board.pairs:
        if quiet:
            engage(state, target, foe)
        else:
            emit(events.Engaged(target, foe))
    if quiet:
        spend_main(state, foe)
    else:
        emit(events.MainActionTaken(foe))
    h = state.heroes[target]
    bonus = penalty = 0
    if close:
        if h.stance == FORWARD:
            bonus += 1
        elif h.stance == DEFENSIVE:
            penalty += 1
        if h.protected:
            penalty += 1
    tn = state.parry(target, volley=state.phase == "volley")
    hidden = state.roster.gm_hidden
    result = roll_test(rng, emit, foe, ATTACK, net_dice(weapon.rating, bonus, penalty), tn,
                       adversary=True, weary=state.foe_weary(foe), hidden=hidden)
    if quiet:  # nobody reads the roll's reading
        if result.success:
            hit_pending(state, foe, target, False, close, weapon.damage, weapon.injury,
                        result.rank, result.tengwars, GM)
        return
    emit(events.RollRead(foe, ATTACK, target, tn, result.total, result.success,
                         result.rank, result.tengwars, hidden))
    if result.success:
        # With hidden Loremaster rolls the hit's rank and special results stay secret until used.
        emit(events.HitPending(foe, target, False, close, weapon.damage, weapon.injury,
                           result.rank, result.tengwars, GM, hidden))


def special_options(state: OneRingState) -> tuple[str, ...]:
    """The special damage the pending hit's tengwar may buy, ``none`` last."""
    p = state.pending
    if p is None or p.tengwars <= 0:
        return ()
    options = [HEAVY]
    if p.hero_attacks:
        weapon = _hero_weapon(state, p.attacker, not p.close)
        options.append(FEND_OFF)
        if weapon is not None and weapon.category in PIERCING_CATEGORIES:
            options.append(PIERCE)
        if p.close and SHIELD not in state.heroes[p.attacker].dropped and \
                state.roster.heroes[p.attacker].shield_bonus > 0 and \
                not state.roster.foes[p.target].large:
            options.append(SHIELD_THRUST)
    else:
        foe_weapon = foe_weapon_for(state, p.attacker, p.close)
        if foe_weapon is not None and foe_weapon.category in PIERCING_CATEGORIES:
            options.append(PIERCE)
    options.append(NONE)
    return tuple(options)


def special_amount(state: OneRingState, special: str) -> int:
    """Heavy Blow adds the attacker's Strength (adversary: Attribute Level); Pierce adds 2."""
    p = state.pending
    if p is None:
        return 0
    if special == HEAVY:
        if p.hero_attacks:
            return state.roster.heroes[p.attacker].strength
        return state.roster.foes[p.attacker].attribute_level
    return PIERCE_BONUS if special == PIERCE else 0


def _loss(p: Pending) -> int:
    return knockback_loss(p.damage + p.heavy, bool(p.knockback))


def knockback_due(state: OneRingState) -> bool:
    """A hero hit at close quarters may take a knockback (once, until recovered)."""
    p = state.pending
    if p is None or p.hero_attacks or not p.close or p.knockback is not None or p.tengwars:
        return False
    h = state.heroes[p.target]
    return not h.knocked_back and _loss(p) > 0


def _piercing(p: Pending) -> bool:
    if p.rank == GOOD:
        return True
    return 1 <= p.rank <= 10 and min(PIERCING_RANK, p.rank + p.pierce) >= PIERCING_RANK


def finish_hit(state: OneRingState, rng: Rng, emit: Emit) -> None:
    """Land the pending hit: Endurance loss, a Piercing Blow's Protection roll, Wounds."""
    p = state.pending
    if p is None:
        return
    quiet = type(emit) is Quiet
    loss = _loss(p)
    if loss:
        if quiet:
            lose_endurance(state, p.target, loss)
        else:
            emit(events.EnduranceLost(p.target, loss))
    hero_target = not p.hero_attacks
    # A hero always rolls Protection against a Piercing Blow, even one that dropped the hero to
    # Endurance 0 (a Wound still counts); an adversary at 0 is dead, so its roll is skipped.
    if _piercing(p) and (hero_target or state.foes[p.target].endurance > 0):
        if hero_target:
            result = roll_test(rng, emit, p.target, PROTECTION, state.protection(p.target),
                               p.injury, weary=state.weary(p.target),
                               miserable=state.miserable(p.target))
            hidden = False
        else:
            hidden = state.roster.gm_hidden
            result = roll_test(rng, emit, p.target, PROTECTION,
                               state.roster.foes[p.target].armour, p.injury, adversary=True,
                               weary=state.foe_weary(p.target), hidden=hidden)
        if not quiet:  # else nobody reads it
            emit(events.RollRead(p.target, PROTECTION, p.attacker, p.injury, result.total,
                                 result.success, result.rank, result.tengwars, hidden))
        if not result.success:
            if quiet:
                wound(state, p.target)
            else:
                emit(events.Wounded(p.target))
    check_out(state, p.target, emit)
    if quiet:
        hit_resolved(state)
    else:
        emit(events.HitResolved())


def check_out(state: OneRingState, name: str, emit: Emit) -> None:
    """Take out a hero at 0 Endurance (unconscious) or with a second Wound (dying), or an
    adversary at 0 Endurance or with as many Wounds as its Might (dead)."""
    h = state.heroes.get(name)
    if h is not None:
        if h.status != "ok":
            return
        if h.wounds >= 2:
            emit(events.TakenOut(name, "dying"))
        elif h.endurance <= 0:
            emit(events.TakenOut(name, "unconscious"))
        return
    f = state.foes[name]
    if f.status == "ok" and (f.endurance <= 0 or f.wounds >= state.roster.foes[name].might):
        emit(events.TakenOut(name, "dead"))


def do_task(state: OneRingState, hero: str, companion: str, hope: bool, rng: Rng,
            emit: Emit) -> None:
    """The combat task of the hero's stance: a skill roll against the attribute's TN.

    Intimidate Foe (Forward): every adversary loses 1 Hate/Resolve, +1 per tengwar.
    Rally Comrades (Open): every other hero gets +1d on their next attack.
    Protect Companion (Defensive): close attacks on the companion get -1d this round.
    Prepare Shot (Rearward): the hero's next shot is favoured.
    """
    task, attribute, skill = TASKS[state.heroes[hero].stance]
    card = state.roster.heroes[hero]
    emit(events.MainActionTaken(hero))
    if hope:
        emit(events.HopeSpent(hero))
    tn = 20 - int(getattr(card, attribute))
    dice = card.skills.get(skill, 0) + (1 if hope else 0)
    result = roll_test(rng, emit, hero, TASK, dice, tn, weary=state.weary(hero),
                       miserable=state.miserable(hero))
    if type(emit) is not Quiet:  # else nobody reads it
        emit(events.RollRead(hero, TASK, companion, tn, result.total, result.success,
                             result.rank, result.tengwars))
    if not result.success:
        return
    if task == "intimidate":
        for foe in state.standing()[1]:
            if state.foes[foe].hate > 0:
                emit(events.HateLost(foe, 1 + result.tengwars))
    emit(events.TaskSucceeded(hero, task, companion))


def do_escape(state: OneRingState, hero: str, foe: str, rng: Rng, emit: Emit) -> None:
    """Leave the fight: free from Rearward (or when nobody engages the hero); from Defensive
    an attack roll against an engaging foe must succeed, and deals no damage."""
    emit(events.MainActionTaken(hero))
    if foe:
        weapon = state.close_weapon(hero)
        if weapon is None:
            return
        result = _hero_roll(state, hero, foe, weapon, False, False, ESCAPE, rng, emit)
        if not result.success:
            return
    emit(events.TakenOut(hero, "fled"))
