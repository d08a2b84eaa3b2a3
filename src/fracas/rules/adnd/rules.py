"""The AD&D core arithmetic and the underground modifiers, as pure functions.

Nothing here touches state or dice: every function takes plain numbers and
returns the number a roll must meet, a modifier, or an exact probability.  The
resolution code rolls the dice; the odds questions and the tests call these
directly, so the rule and its exact odds come from one place.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from typing import Literal

__all__ = [
    "BOULDER_AC",
    "BOULDER_DICE",
    "CLIMBER_PENALTY",
    "DROP_PENALTY",
    "HANGING_PENALTY",
    "HEAVY_BLOW_PENALTY",
    "HEIGHT_MODIFIER",
    "MAX_FALL_DICE",
    "REAR_BONUS",
    "SHORT_WEAPON_FT",
    "breath_failure_distribution",
    "breath_free_rounds",
    "climb_check_target",
    "con_check_target",
    "d20_at_least",
    "d20_at_most",
    "d100_at_most",
    "damage_at_least",
    "dex_check_target",
    "effective_ac",
    "fall_dice",
    "grab_number",
    "height_modifier",
    "hit_number",
    "in_reach",
    "labels",
    "nature_rating",
    "push_modifier",
    "signed",
    "water_band",
    "water_penalty",
]

#: Attack, damage and saving throws of a combatant clinging to a sheer surface.
CLIMBER_PENALTY = -2
#: To hit for the higher of two wall fighters (the lower one gets the negative).
HEIGHT_MODIFIER = 2
#: An attacker striking a climber's back (the climber faces the wall) gains this.
REAR_BONUS = 2
#: Climbing check when a single blow costs at least half the victim's hit points.
HEAVY_BLOW_PENALTY = -10
#: Climbing checks of a combatant hanging from a foe he dragged toward the fall.
HANGING_PENALTY = -20
#: A boulder hits for 2d8 and treats every victim as Armor Class 10.
BOULDER_DICE = (2, 8)
BOULDER_AC = 10
#: A boulder dropped by someone who cannot lift and hurl it.
DROP_PENALTY = -8
#: Falling damage: one d6 per full ten feet, at most twenty dice.
MAX_FALL_DICE = 20
#: Weapons shorter than this allow a falling fighter to drag his foe along.
SHORT_WEAPON_FT = 2.0

Band = Literal[0, 1, 2]

_NATURE_RATINGS = {"natural_climber": 90, "sure_footed": 70, "ordinary": 40, "clumsy": 0}


@cache
def signed(value: int, name: str) -> str:
    """A modifier as a person reads it in the log: ``+2 higher``, ``-8 dropped``."""
    return f"{value:+d} {name}"


@cache
def labels(parts: tuple[tuple[int, str], ...]) -> tuple[str, ...]:
    """The modifiers behind a total, as the log shows them (zeros left out)."""
    return tuple(signed(value, name) for value, name in parts if value)


def hit_number(thac0: int, ac: int) -> int:
    """The d20 result (after modifiers) needed to hit Armor Class ``ac``: THAC0 minus AC."""
    return thac0 - ac


def effective_ac(ac: int, shield_ac: int, dex_ac: int, clinging: bool) -> int:
    """A climber loses the shield and Dexterity parts of his Armor Class (descending AC)."""
    return ac + shield_ac + dex_ac if clinging else ac


def height_modifier(attacker_alt: float, target_alt: float) -> int:
    """In a fight on a wall the higher fighter gains +2 to hit, the lower one suffers -2."""
    if attacker_alt > target_alt:
        return HEIGHT_MODIFIER
    if attacker_alt < target_alt:
        return -HEIGHT_MODIFIER
    return 0


def in_reach(attacker_alt: float, target_alt: float, weapon_ft: float) -> bool:
    """Melee reach across heights: at most five feet plus the weapon's length (our ruling)."""
    return abs(attacker_alt - target_alt) <= 5.0 + weapon_ft


def climb_check_target(rating: int, damage: int, hp_max: int) -> int:
    """The d100 result (at or under) a struck climber needs to keep his hold.

    A blow of at least half his total hit points, rounded up, costs 10%.
    """
    heavy = damage >= math.ceil(hp_max / 2)
    return rating + (HEAVY_BLOW_PENALTY if heavy else 0)


def push_modifier(kind: str, behind: str | None, melee: bool, flanking: bool) -> int:
    """The +-2 to Dexterity for where a blow pushes a combatant on a ledge or bridge.

    A melee blow comes from the front and pushes him back: +2 with a wall at his
    back, -2 with a drop-off there.  A missile pushes him along its path: from the
    front like a melee blow; from the flank across a bridge toward the far drop
    (-2), along a ledge toward neither (0).
    """
    if not melee and flanking:
        return -2 if kind == "bridge" else 0
    if behind == "wall":
        return 2
    if behind == "drop":
        return -2
    return 0


def dex_check_target(dexterity: int, edge_ft: float, push: int) -> int:
    """The d20 result (at or under) to keep one's feet on a ledge or bridge when hit.

    Dexterity gains two for every whole foot between the feet and the drop-off,
    plus the push modifier.
    """
    return dexterity + 2 * math.floor(edge_ft) + push


def grab_number(thac0: int, dex_ac: int) -> int:
    """The d20 a falling fighter needs to grab his foe: THAC0 against AC 10 less Dexterity.

    Armor, shield and magic count for nothing in this roll.
    """
    return hit_number(thac0, 10 - dex_ac)


def nature_rating(nature: str) -> int:
    """A climbing rating for a creature that has none, from its nature (the DM's call)."""
    return _NATURE_RATINGS[nature]


def fall_dice(feet: float) -> int:
    """Number of d6 of falling damage: one per full ten feet, capped at twenty."""
    return min(MAX_FALL_DICE, max(0, math.floor(feet / 10)))


def water_band(depth_ft: float, height_ft: float) -> Band:
    """0 below the waist (half height), 1 waist to chest (three quarters), 2 above the chest."""
    if depth_ft < height_ft / 2:
        return 0
    if depth_ft <= height_ft * 3 / 4:
        return 1
    return 2


def water_penalty(band: int, at_home: bool) -> int:
    """Attack and damage penalty in water: -4 in full, -2 when halved, none for the at-home."""
    if at_home:
        return 0
    return (0, -2, -4)[band]


def breath_free_rounds(constitution: int, exerting: bool) -> int:
    """Rounds a breath lasts without checks: a third of Constitution, rounded up.

    Exertion halves it (rounded up).
    """
    rounds = math.ceil(constitution / 3)
    return math.ceil(rounds / 2) if exerting else rounds


def con_check_target(constitution: int, checks_made: int) -> int:
    """The d20 result (at or under) for the next Constitution check of a held breath.

    The first check has no penalty; each one after it is 2 harder than the last.
    """
    return constitution - 2 * checks_made


def d20_at_least(n: int) -> Fraction:
    """Chance a d20 shows ``n`` or more."""
    return Fraction(min(20, max(0, 21 - n)), 20)


def d20_at_most(n: int) -> Fraction:
    """Chance a d20 shows ``n`` or less."""
    return Fraction(min(20, max(0, n)), 20)


def d100_at_most(n: int) -> Fraction:
    """Chance percentile dice show ``n`` or less."""
    return Fraction(min(100, max(0, n)), 100)


@cache
def damage_at_least(count: int, sides: int, modifier: int, amount: int) -> Fraction:
    """Chance ``count`` d ``sides`` plus ``modifier`` deals ``amount`` or more (a hit deals
    at least 1)."""
    ways = {0: 1}
    for _ in range(count):
        step: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, sides + 1):
                step[total + face] = step.get(total + face, 0) + n
        ways = step
    hits = sum(n for total, n in ways.items() if max(1, total + modifier) >= amount)
    return Fraction(hits, sides ** count)


def breath_failure_distribution(constitution: int, exerting: bool,
                                took_breath: bool) -> dict[int, Fraction]:
    """Exact chance that a held breath gives out in round 1, 2, ...

    With a breath the first rounds are free; without one (dragged under before
    breathing) the Constitution checks start at once.  Every check after the
    first is 2 harder, so the clock always runs out.
    """
    free = breath_free_rounds(constitution, exerting) if took_breath else 0
    out: dict[int, Fraction] = {}
    alive = Fraction(1)
    checks = 0
    rnd = free
    while alive:
        rnd += 1
        fail = 1 - d20_at_most(con_check_target(constitution, checks))
        if fail:
            out[rnd] = alive * fail
        alive *= 1 - fail
        checks += 1
    return out
