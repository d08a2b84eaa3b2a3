"""Resolving blows: attack rolls, damage, boulders, and what a hit does to a climber's hold.

Each function rolls through the injected ``Rng``, records every face in a
``DiceRolled`` event before using it, and changes the state only by emitting
events.
"""

from __future__ import annotations

from fracas.core.rng import Rng
from fracas.core.ruleset import Emit
from fracas.rules.adnd import falls
from fracas.rules.adnd import mechanics as m
from fracas.rules.adnd import terrain as t
from fracas.rules.adnd.checks import climbing_check, dexterity_check, roll_d20, roll_dice
from fracas.rules.adnd.state import (
    AdndState,
    AttackRolled,
    BoulderSpent,
    Slain,
    Weapon,
    Wielded,
    Wounded,
)

__all__ = ["attack", "boulder", "deal_damage"]


def attack(state: AdndState, attacker: str, target: str, weapon: Weapon, rng: Rng,
           emit: Emit) -> None:
    """One attack roll with ``weapon``: d20 plus modifiers against THAC0 minus the target's AC.

    A hit deals the weapon's damage plus magic, less the climber and water
    penalties, never under 1 point.
    """
    pa = state.profile(attacker)
    if not weapon.missile and state.fighters[attacker].wielding != weapon.name:
        emit(Wielded(attacker, weapon.name))
    parts = t.attack_parts(state, attacker, target, weapon.magic)
    needed = m.hit_number(pa.thac0, t.effective_ac_of(state, target))
    total = roll_d20(rng, emit, attacker, "attack") + sum(v for v, _ in parts)
    hit = total >= needed
    emit(AttackRolled(attacker, target, weapon.name, total, needed, hit,
                      modifiers=m.labels(parts)))
    if not hit:
        return
    raw = roll_dice(rng, emit, attacker, "damage", weapon.count, weapon.sides)
    amount = max(1, raw + weapon.bonus + weapon.magic + t.damage_modifier(state, attacker))
    deal_damage(state, target, amount, "melee" if not weapon.missile else "missile",
                not weapon.missile, pa.flanking, rng, emit)


def boulder(state: AdndState, thrower: str, target: str, rng: Rng, emit: Emit) -> None:
    """A boulder: 2d8 against AC 10, -8 to hit when dropped by one who cannot hurl it.

    A climber it strikes checks his hold like after any blow.
    """
    pa = state.profile(thrower)
    emit(BoulderSpent(thrower))
    parts = t.attack_parts(state, thrower, target, 0)
    if not pa.can_hurl:
        parts += ((m.DROP_PENALTY, "dropped"),)
    needed = m.hit_number(pa.thac0, m.BOULDER_AC)
    total = roll_d20(rng, emit, thrower, "boulder") + sum(v for v, _ in parts)
    hit = total >= needed
    emit(AttackRolled(thrower, target, "boulder", total, needed, hit,
                      modifiers=m.labels(parts)))
    if not hit:
        return
    raw = roll_dice(rng, emit, thrower, "damage", *m.BOULDER_DICE)
    amount = max(1, raw + t.damage_modifier(state, thrower))
    deal_damage(state, target, amount, "boulder", False, False, rng, emit)


def deal_damage(state: AdndState, target: str, amount: int, cause: str, melee: bool,
                flanking: bool, rng: Rng, emit: Emit) -> None:
    """Take ``amount`` hit points from ``target``, then test his hold or footing.

    At 0 hit points he dies.  A combatant hanging from a foe checks at -20% or
    falls alone; a climber checks his climbing rating (-10% for a blow of half
    his hit points or more); a fighter on a ledge or bridge checks Dexterity.
    """
    emit(Wounded(target, amount, cause))
    f = state.fighters[target]
    p = state.profile(target)
    if f.hp <= 0:
        emit(Slain(target, cause))
        falls.body_drops(state, target, rng, emit)
        return
    if f.hanging_on is not None:
        if not climbing_check(state, target, m.HANGING_PENALTY, rng, emit, "hanging"):
            falls.land(state, target, rng, emit)
        return
    if t.on_sheer_surface(p, f):
        heavy = m.climb_check_target(p.climbing, amount, p.hp_max) - p.climbing
        if not climbing_check(state, target, heavy, rng, emit, "heavy blow"):
            falls.begin_fall(state, target, rng, emit)
    elif p.kind in ("ledge", "bridge"):
        push = m.push_modifier(p.kind, p.behind, melee, flanking)
        if not dexterity_check(state, target, push, rng, emit, _push_reason(p.behind, melee,
                                                                             flanking)):
            falls.begin_fall(state, target, rng, emit)


def _push_reason(behind: str | None, melee: bool, flanking: bool) -> str:
    """Why a blow pushes a fighter on a ledge or bridge as it does (for the log)."""
    if not melee and flanking:
        return "shot from the flank"
    return _BEHIND.get(behind or "open", "push")


_BEHIND = {"wall": "wall behind", "drop": "drop behind", "open": "open ground behind"}
