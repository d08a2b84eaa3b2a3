"""Where combatants stand and what that allows: walls, ledges, bridges, water, bottlenecks.

Queries only: these functions read the state and never change it.
"""

from __future__ import annotations

from fracas.rules.adnd import rules
from fracas.rules.adnd.state import FIST, AdndUndergroundState, Fighter, Profile, Weapon

__all__ = [
    "attack_bonus",
    "attack_parts",
    "clinging",
    "damage_modifier",
    "drag_choices",
    "effective_ac_of",
    "faces_away",
    "in_front",
    "melee_allowed",
    "on_sheer_surface",
    "usable_weapons",
    "weapon_in_hand",
]


def on_sheer_surface(p: Profile, f: Fighter) -> bool:
    """Off the ground on a wall or cliff face (at its foot he is on the floor)."""
    return p.kind == "wall" and f.alt > 0


def clinging(p: Profile, f: Fighter) -> bool:
    """On a sheer surface and not ruled secure by the DM: the wall penalties apply."""
    return p.kind == "wall" and f.alt > 0 and not f.secure


def wall_fight(pa: Profile, fa: Fighter, pt: Profile, ft: Fighter) -> bool:
    """The higher/lower modifiers apply when either fighter is on a sheer surface.

    At the foot of a wall a fighter stands on the floor: no wall rule applies.
    """
    return on_sheer_surface(pa, fa) or on_sheer_surface(pt, ft)


def effective_ac_of(state: AdndUndergroundState, name: str) -> int:
    """Armor Class with shield and Dexterity parts lost while clinging."""
    p = state.profile(name)
    return rules.effective_ac(p.ac, p.shield_ac, p.dex_ac, clinging(p, state.fighters[name]))


def water_modifier(p: Profile) -> int:
    """The attack and damage penalty water gives this combatant where he stands."""
    if p.kind != "water":
        return 0
    return rules.water_penalty(rules.water_band(p.depth_ft, p.height_ft), p.at_home_in_water)


def rear_attack(state: AdndUndergroundState, attacker: str, target: str) -> bool:
    """A climber facing the wall shows his back to all but those beside him on the wall."""
    pt, ft = state.profile(target), state.fighters[target]
    return clinging(pt, ft) and ft.facing_wall and not on_sheer_surface(
        state.profile(attacker), state.fighters[attacker])


def faces_away(state: AdndUndergroundState, attacker: str, target: str) -> bool:
    """A climber facing the wall can face only foes beside him on it; the rest are at his back.

    One hanging from him clings to his own body, so he can still strike him.
    """
    pa, fa = state.profile(attacker), state.fighters[attacker]
    pt, ft = state.profile(target), state.fighters[target]
    return (clinging(pa, fa) and fa.facing_wall and not on_sheer_surface(pt, ft)
            and ft.hanging_on != attacker)


def attack_parts(state: AdndUndergroundState, attacker: str, target: str, magic: int,
                 weaponless: bool = False) -> tuple[tuple[int, str], ...]:
    """Every modifier to an attack roll from the underground rules, each with its name.

    The weapon's magic, the climber's -2, +2/-2 for the higher/lower fighter on a
    wall, +2 against a climber's back and, unless the attack is weaponless, the
    water penalty.
    """
    pa, fa = state.profile(attacker), state.fighters[attacker]
    pt, ft = state.profile(target), state.fighters[target]
    parts: list[tuple[int, str]] = []
    if magic:
        parts.append((magic, "magic"))
    if clinging(pa, fa):
        parts.append((rules.CLIMBER_PENALTY, "clinging"))
    if wall_fight(pa, fa, pt, ft):
        height = rules.height_modifier(fa.alt, ft.alt)
        if height:
            parts.append((height, "higher" if height > 0 else "lower"))
    if rear_attack(state, attacker, target):
        parts.append((rules.REAR_BONUS, "rear"))
    if not weaponless:
        water = water_modifier(pa)
        if water:
            parts.append((water, "water"))
    return tuple(parts)


def attack_bonus(state: AdndUndergroundState, attacker: str, target: str, magic: int,
                 weaponless: bool = False) -> int:
    """The sum of :func:`attack_parts`."""
    return sum(value for value, _ in attack_parts(state, attacker, target, magic, weaponless))


def damage_modifier(state: AdndUndergroundState, attacker: str) -> int:
    """Damage modifiers: -2 for a clinging attacker, the water penalty."""
    pa, fa = state.profile(attacker), state.fighters[attacker]
    return (rules.CLIMBER_PENALTY if clinging(pa, fa) else 0) + water_modifier(pa)


def in_front(state: AdndUndergroundState, name: str) -> bool:
    """True when there is no bottleneck or ``name`` stands in his side's frontage."""
    if state.setup.bottleneck_ft is None:
        return True
    return name in state.front.get(state.profile(name).side, ())


def weapon_in_hand(state: AdndUndergroundState, name: str) -> Weapon:
    """The weapon ``name`` fights with now (fists once everything is dropped)."""
    f = state.fighters[name]
    return state.profile(name).weapon(f.wielding) or FIST


def melee_allowed(state: AdndUndergroundState, attacker: str, target: str,
                  weapon: Weapon) -> tuple[str, str] | None:
    """(rule, reason) why ``attacker`` cannot strike ``target`` with ``weapon``, or None."""
    pa, fa = state.profile(attacker), state.fighters[attacker]
    pt, ft = state.profile(target), state.fighters[target]
    if pa.across_gap or pt.across_gap:
        return "reach", "a gap lies between them: no melee"
    if not rules.in_reach(fa.alt, ft.alt, weapon.length_ft):
        return "reach", "out of reach at that height"
    if not (in_front(state, attacker) and in_front(state, target)):
        return "bottleneck", "only the front rank fights across the bottleneck"
    if faces_away(state, attacker, target):
        return "sheer surfaces", "facing the wall, he can strike only foes beside him on it"
    if ft.under and pa.kind != "water":
        return "grappling in water", "the target is under the water"
    if fa.holding is not None and fa.holding != target:
        return "grappling", "a holder can strike only the one he holds"
    if fa.holding == target and not weapon.short:
        return "grappling", "a holder can strike the one he holds only with a weapon under two feet"
    return None


def usable_weapons(state: AdndUndergroundState, name: str) -> tuple[Weapon, ...]:
    """Weapons not dropped; fists when no melee weapon is left."""
    p, f = state.profile(name), state.fighters[name]
    if not f.dropped and p.has_melee:
        return p.weapons
    kept = tuple(w for w in p.weapons if w.name not in f.dropped)
    if any(not w.missile for w in kept):
        return kept
    return (*kept, FIST)


def drag_choices(state: AdndUndergroundState, faller: str) -> tuple[str, ...]:
    """Foes a falling fighter may try to grab.

    Only those fighting him at close quarters: within five feet of his height,
    and either of the two fights with a weapon under two feet, or they grapple.
    """
    pf, ff = state.profile(faller), state.fighters[faller]
    mine = weapon_in_hand(state, faller)
    out = []
    for name in state.setup.order:
        fo = state.fighters[name]
        po = state.profile(name)
        if po.side == pf.side or not fo.up or fo.hanging_on is not None or name == state.falling:
            continue
        if abs(fo.alt - ff.alt) > 5.0:
            continue
        if not (on_sheer_surface(po, fo) or po.kind in ("ledge", "bridge")):
            continue
        if po.across_gap or pf.across_gap:
            continue
        if not (in_front(state, faller) and in_front(state, name)):
            continue
        grappling = ff.holding == name or ff.held_by == name
        if grappling or mine.short or weapon_in_hand(state, name).short:
            out.append(name)
    return tuple(out)
