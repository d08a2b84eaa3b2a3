"""Grappling, and grappling in water: pulling a foe under, breath and drowning.

The breath clock follows the core rules fixed in RULINGS.md: a breath lasts a
third of Constitution in rounds (rounded up), half that while exerting; after
that a Constitution check each round, each one 2 harder than the last.
"""

from __future__ import annotations

from fracas.core.rng import Rng
from fracas.core.ruleset import Emit
from fracas.rules.adnd import rules, terrain
from fracas.rules.adnd.checks import at_least, at_most, roll_d20
from fracas.rules.adnd.events import (
    AttackRolled,
    Breath,
    CheckRolled,
    GrappleBegan,
    GrappleEnded,
    SaveRolled,
    Slain,
)
from fracas.rules.adnd.falls import body_drops
from fracas.rules.adnd.state import AdndUndergroundState

__all__ = [
    "break_free",
    "breath_round",
    "deep_enough",
    "grapple",
    "saving_throw",
]


def deep_enough(state: AdndUndergroundState, holder: str, victim: str) -> bool:
    """Both in water at least a third of the victim's height deep: the grapple goes under."""
    ph, pv = state.profile(holder), state.profile(victim)
    return ph.kind == "water" and pv.kind == "water" and pv.depth_ft >= pv.height_ft / 3


def grapple(state: AdndUndergroundState, holder: str, victim: str, rng: Rng, emit: Emit) -> None:
    """A bare-handed grapple: an attack roll against the victim's AC without water penalties.

    In deep enough water both go under: the holder has taken a deep breath, the
    victim gets one only with a saving throw against paralyzation.
    """
    ph = state.profile(holder)
    parts = terrain.attack_parts(state, holder, victim, 0, weaponless=True)
    needed = rules.hit_number(ph.thac0, terrain.effective_ac_of(state, victim))
    bonus = sum(v for v, _ in parts)
    total = roll_d20(rng, emit, holder, "grapple", classes=at_least(20, needed - bonus)) + bonus
    hit = total >= needed
    emit(AttackRolled(holder, victim, "grapple", total, needed, hit, modifiers=rules.labels(parts)))
    if not hit:
        return
    under = deep_enough(state, holder, victim)
    emit(GrappleBegan(holder, victim, under))
    if under:
        pv = state.profile(victim)
        emit(Breath(holder, rules.breath_free_rounds(ph.constitution, True), 0))
        breathed = saving_throw(state, victim, "paralyzation", rng, emit)
        emit(Breath(victim, rules.breath_free_rounds(pv.constitution, True) if breathed else 0, 0))


def saving_throw(state: AdndUndergroundState, name: str, category: str, rng: Rng, emit: Emit,
                 hidden: bool = False) -> bool:
    """d20 (with -2 for a climber) at or above the save number of ``category``."""
    p, f = state.profile(name), state.fighters[name]
    modifier = rules.CLIMBER_PENALTY if terrain.clinging(p, f) else 0
    needed = p.saves[category]
    total = roll_d20(rng, emit, name, f"save vs {category}", hidden,
                     at_least(20, needed - modifier)) + modifier
    ok = total >= needed
    emit(SaveRolled(name, category, total, needed, ok, hidden,
                    modifiers=rules.labels(((modifier, "clinging"),))))
    return ok


def break_free(state: AdndUndergroundState, victim: str, rng: Rng, emit: Emit) -> None:
    """Our ruling for breaking a hold: each rolls d20 plus level; the held one must beat the holder.

    A broken hold under water brings both to the surface.
    """
    holder = state.fighters[victim].held_by
    if holder is None:
        return
    level = state.profile(victim).level
    mine = roll_d20(rng, emit, victim, "break free") + level
    other = state.profile(holder).level
    # freed when mine > theirs: the holder's die matters only as under or over mine - other
    theirs = roll_d20(rng, emit, holder, "keep hold",
                      classes=at_most(20, mine - other - 1)) + other
    freed = mine > theirs
    emit(AttackRolled(victim, holder, "break free", mine, theirs + 1, freed,
                      modifiers=rules.labels(((level, "level"),))))
    if freed:
        emit(GrappleEnded(holder, victim))


def breath_round(state: AdndUndergroundState, name: str, rng: Rng, emit: Emit) -> None:
    """One round under water on ``name``'s breath.

    A free round is spent; past them a Constitution check.  A failed check
    drowns the one held under, and forces the holder up for air (the hold ends).
    """
    f = state.fighters[name]
    if f.breath_free > 0:
        emit(Breath(name, f.breath_free - 1, f.con_checks))
        return
    target = rules.con_check_target(state.profile(name).constitution, f.con_checks)
    roll = roll_d20(rng, emit, name, "constitution check", classes=at_most(20, target))
    ok = roll <= target
    emit(CheckRolled(name, "constitution", roll, target, ok,
                     modifiers=rules.labels(((-2 * f.con_checks, "earlier checks"),))))
    if ok:
        emit(Breath(name, 0, f.con_checks + 1))
    elif f.held_by is not None:
        emit(Slain(name, "drowned"))
        body_drops(state, name, rng, emit)
    elif f.holding is not None:
        emit(GrappleEnded(name, f.holding))
