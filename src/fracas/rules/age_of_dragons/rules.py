"""Age of Dragons rules: the seed's numbers and tables, and small pure functions.

Each function implements one rule of the seed (see docs/rules/age_of_dragons.md
for the table from rule to function to test).  Nothing here changes the state.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from fracas.rules.age_of_dragons.state import (
    CLOSE,
    GROUNDED,
    MAULED,
    OK,
    RIPPED,
    AgeOfDragonsState,
    Fighter,
    Profile,
    Turn,
    pair,
)

__all__ = [
    "ALTITUDE_HALVES",
    "ATTACK_THRESHOLD",
    "BREAK_OUT_TN",
    "CALLED",
    "DAMAGING",
    "GROUNDS",
    "MELEE_LEVEL",
    "RANGED_HALVES",
    "SPOT_THRESHOLDS",
    "STAYS_DOWN",
    "STYLES",
    "SUCCESS_MARGIN",
    "area_struck",
    "attack_numbers",
    "attack_outcome",
    "available_pd",
    "can_claw",
    "choose_expend_dice",
    "damage_dealt",
    "enemies",
    "fall_cause",
    "grapple_group",
    "holders",
    "in_melee_reach",
    "in_ranged_reach",
    "is_locked",
    "margin",
    "partners",
    "pool_size",
    "qualifying_dice",
    "range_between",
    "spot_cost",
]


# -- the seed's numbers and tables ------------------------------------------------
#: Altitude in half levels, for the ranged-attack limit of one level of difference.
ALTITUDE_HALVES: Final = (0, 1, 2, 4, 6)
#: A ranged attack reaches at most this many half levels up or down (one level).
RANGED_HALVES: Final = 2
#: Melee height: grounded and strafing low count as one level (strafing low exists to
#: strike at the ground).
MELEE_LEVEL: Final = (0, 0, 1, 2, 3)


# -- thresholds (the seed's default variant) -------------------------------------
SPOT_THRESHOLDS: Final = {
    "alter_range_flying": 3,
    "lose_altitude": 4,
    "gain_altitude": 5,
    "take_off": 5,
    "alter_range_ground": 6,
    "evade": 3,
    "aim": 3,
}
ATTACK_THRESHOLD: Final = 4

# -- attack styles and called shots ------------------------------------------------
#: Non-claw attacks: (TN modifier, damage bonus).  A claw is the standard attack.
STYLES: Final = {"claw": (0, 0), "bite": (3, 6), "wing": (-3, -6), "tail": (-3, -6)}
#: Called shot locations: (TN modifier, damage bonus).
CALLED: Final = {
    "wing": (3, 0), "torso": (3, 0),
    "fore_left": (6, 0), "fore_right": (6, 0), "hind_left": (6, 0), "hind_right": (6, 0),
    "tail": (6, 0),
    "neck": (9, 9), "head": (9, 6),
}
BREAK_OUT_TN: Final = 3
#: An attack succeeds with a margin of this or more (see :func:`margin`).
SUCCESS_MARGIN: Final = 1
#: The kinds of attack that deal damage when they succeed (a grapple and a break-out do not).
DAMAGING: Final = frozenset({"attack", "shoot"})

# -- ground under a forced landing: extra d6 ---------------------------------------
GROUNDS: Final = {"soft": 0, "bare_rock": 1, "jagged_rock": 2, "spikes": 3}


# -- the pool --------------------------------------------------------------------
def pool_size(profile: Profile, spheres: tuple[str, ...]) -> int:
    """Nominating several spheres rolls only the lowest of their ratings."""
    if len(spheres) == 1:
        return profile.rating(spheres[0])
    return min(profile.rating(s) for s in spheres)


def qualifying_dice(turn: Turn, threshold: int, unspotted: bool = False) -> list[int]:
    """Indices of the dice still in the pool showing ``threshold`` or more, lowest first
    (``unspotted``: those not spotted yet).

    The attack threshold's list is worked out once per change of the pool (``Turn.hits``):
    the policy choosing an attack, the check and the expend share it.
    """
    if threshold == ATTACK_THRESHOLD and not unspotted:
        return list(_hits(turn))
    found = _qualifying(turn, threshold, unspotted)
    found.sort(key=turn.pool.__getitem__)
    return found


def count_qualifying(turn: Turn, threshold: int, unspotted: bool = False) -> int:
    """How many dice :func:`qualifying_dice` would find."""
    if threshold == ATTACK_THRESHOLD and not unspotted:
        hits = turn.hits
        return len(hits if hits is not None else _hits(turn))
    return len(_qualifying(turn, threshold, unspotted))


def _qualifying(turn: Turn, threshold: int, unspotted: bool) -> list[int]:
    """The dice that qualify, in pool order: the one test of a die that qualifies."""
    pool, expended, spotted = turn.pool, turn.expended, turn.spotted
    return [i for i, face in enumerate(pool)
            if face >= threshold and not expended[i] and not (unspotted and spotted[i])]


def _hits(turn: Turn) -> tuple[int, ...]:
    hits = turn.hits
    if hits is None:
        found = _qualifying(turn, ATTACK_THRESHOLD, False)
        found.sort(key=turn.pool.__getitem__)
        hits = turn.hits = tuple(found)
    return hits


def choose_expend_dice(turn: Turn, count: int, threshold: int, sixes_first: bool) -> list[int]:
    """Which dice an expend uses: sixes first for a called shot, else the lowest that qualify.

    Only the number of dice and of sixes matters to the rules, so the engine picks the
    dice: a called shot wants its sixes counted; any other expend keeps the sixes for later.
    """
    found = qualifying_dice(turn, threshold)
    if sixes_first:
        found.sort(key=lambda i: -turn.pool[i])
    return found[:count]


def attack_dice(turn: Turn, count: int, sixes_first: bool) -> tuple[int, ...]:
    """:func:`choose_expend_dice` at the attack threshold."""
    return tuple(choose_expend_dice(turn, count, ATTACK_THRESHOLD, sixes_first))


# -- position ----------------------------------------------------------------------
def range_between(state: AgeOfDragonsState, a: str, b: str) -> int:
    """The range band between two names."""
    return state.ranges[pair(a, b)]


def partners(state: AgeOfDragonsState, name: str) -> list[str]:
    """Everyone ``name`` is grappling with (direct links)."""
    return [b if a == name else a for a, b in state.grapples if name in (a, b)]


def is_locked(state: AgeOfDragonsState, name: str) -> bool:
    """A combatant in any grapple is locked."""
    grapples = state.grapples
    return bool(grapples) and any(name in link for link in grapples)


def grapple_group(state: AgeOfDragonsState, name: str) -> set[str]:
    """Everyone joined to ``name`` through grapple links (``name`` included)."""
    group, frontier = {name}, [name]
    while frontier:
        for other in partners(state, frontier.pop()):
            if other not in group:
                group.add(other)
                frontier.append(other)
    return group


def enemies(state: AgeOfDragonsState, name: str) -> Iterator[Fighter]:
    """Combatants of other sides that are not dead, in scenario order."""
    side = state.fighters[name].profile.side
    for fighter in state.fighters.values():
        if fighter.profile.side != side and not fighter.dead:
            yield fighter


def in_melee_reach(state: AgeOfDragonsState, attacker: str, target: str,
                   striking: bool = True) -> bool:
    """Melee needs close quarters (or zero range) and the same height.

    Grounded and strafing low count as one height for melee.  A locked attacker may
    strike only those it grapples (``striking=False``: the same reach for Aim, which
    strikes nobody).
    """
    fighters = state.fighters
    if MELEE_LEVEL[fighters[attacker].altitude] != MELEE_LEVEL[fighters[target].altitude]:
        return False
    if state.ranges[pair(attacker, target)] > CLOSE:
        return False
    return not striking or not state.grapples or not is_locked(state, attacker) or \
        pair(attacker, target) in state.grapples


def in_ranged_reach(state: AgeOfDragonsState, attacker: str, target: str, reach: int) -> bool:
    """Ranged attacks: within the weapon's reach and at most one altitude level apart."""
    fighters = state.fighters
    halves = abs(ALTITUDE_HALVES[fighters[attacker].altitude]
                 - ALTITUDE_HALVES[fighters[target].altitude])
    if halves > RANGED_HALVES or state.ranges[pair(attacker, target)] > reach:
        return False
    return not is_locked(state, attacker) or pair(attacker, target) in state.grapples


# -- manoeuvres and strategies ----------------------------------------------------------
def spot_cost(fighter: Fighter, effect: str, airborne: bool | None = None) -> tuple[int, int]:
    """The die face one use of a spot effect needs, and how many such dice it takes.

    Alter range is 3+ in flight but 6+ on the ground, and on the ground two dice with a
    ripped-off limb; every other effect takes one die of its threshold.  ``airborne``:
    where the fighter will be when it spots (default: where it is).
    """
    if effect == "alter_range":
        up = fighter.airborne if airborne is None else airborne
        if up:
            return SPOT_THRESHOLDS["alter_range_flying"], 1
        return SPOT_THRESHOLDS["alter_range_ground"], 2 if RIPPED in fighter.limbs else 1
    return SPOT_THRESHOLDS[effect], 1


def fall_cause(state: AgeOfDragonsState, fighter: Fighter) -> str | None:
    """Why ``fighter`` will not stay in the air by choice this round, or ``None``: it will,
    and falling would be its choice.

    On the ground or dead, nothing keeps it up (:data:`STAYS_DOWN`); otherwise locked in a
    grapple, dying or without working wings it drops a level in the end phase whatever
    it wants, and a flyer that chose to fall drops too.
    """
    if fighter.altitude <= GROUNDED:
        return "grounded"
    if fighter.dead:
        return "dead"
    if state.grapples and is_locked(state, fighter.name):
        return "locked"
    if fighter.pr <= 0:  # dying
        return "dying"
    if not (fighter.profile.flies and fighter.wing == OK):  # Fighter.can_fly, read in place
        return "cannot fly"  # (asked after every decision; test_aod_falling holds the two)
    if fighter.chose_fall:
        return "chose to fall"
    return None


#: The :func:`fall_cause` of a combatant that does not fall in the end phase: it is down.
STAYS_DOWN: Final = frozenset({"grounded", "dead"})


# -- attacks ------------------------------------------------------------------------------
def attack_numbers(style: str, called: str | None) -> tuple[int, int]:
    """TN modifier and damage bonus of a melee attack: style and called shot add up."""
    tn, bonus = STYLES[style]
    if called is not None:
        extra_tn, extra_bonus = CALLED[called]
        tn += extra_tn
        bonus += extra_bonus
    return tn, bonus


def attack_outcome(hits: int, pd_spent: int, tn: int, damage_bonus: int,
                   damaging: bool) -> tuple[int, int]:
    """The margin and the damage of an attack.

    The margin is the hits expended less the Physical Defence spent and the TN modifier;
    the attack succeeds at :data:`SUCCESS_MARGIN` or more.  A damaging attack
    (:data:`DAMAGING`) that succeeds deals its margin plus its damage bonus, never less
    than nothing; anything else deals nothing.

    >>> attack_outcome(5, 1, 0, 0, True)
    (4, 4)
    >>> attack_outcome(5, 1, 3, 6, True)  # a bite: TN +3, damage +6
    (1, 7)
    >>> attack_outcome(5, 2, 3, 6, True)  # turned aside
    (0, 0)
    """
    attack_margin = hits - pd_spent - tn
    if attack_margin < SUCCESS_MARGIN or not damaging:
        return attack_margin, 0
    return attack_margin, max(0, attack_margin + damage_bonus)


def margin(hits: int, pd_spent: int, tn: int) -> int:
    """:func:`attack_outcome`'s margin."""
    return attack_outcome(hits, pd_spent, tn, 0, False)[0]


def damage_dealt(attack_margin: int, damage_bonus: int) -> int:
    """:func:`attack_outcome`'s damage for a damaging attack with this margin."""
    return attack_outcome(attack_margin, 0, 0, damage_bonus, True)[1]


def holders(state: AgeOfDragonsState, name: str) -> list[str]:
    """The enemies ``name`` is grappling with, by name: those a break-out is against."""
    if not state.grapples:
        return []
    side = state.fighters[name].profile.side
    return sorted(p for p in partners(state, name) if state.fighters[p].profile.side != side)


def area_struck(state: AgeOfDragonsState, attacker: str, target: str) -> list[str]:
    """Whom an area attack on ``target`` strikes besides it: the rest of its grapple, but
    the attacker and the dead, by name."""
    return sorted(n for n in grapple_group(state, target)
                  if n not in (target, attacker) and not state.fighters[n].dead)


def available_pd(state: AgeOfDragonsState, defender: str) -> int:
    """Physical Defence the defender can spend now: 0 while dying, less the attacker's Aim."""
    fighter = state.fighters[defender]
    if not fighter.active:
        return 0
    aim = state.turn.aims.get(defender, 0) if state.turn is not None else 0
    return max(0, fighter.pd - aim)


def part_usable(fighter: Fighter, style: str) -> bool:
    """Whether the body part a style strikes with still works: claws need a limb that is
    neither mauled nor ripped, tail attacks the tail."""
    if style == "claw":
        return OK in fighter.limbs
    if style == "tail":
        return fighter.tail == OK
    return True


def can_claw(fighter: Fighter) -> bool:
    """Claw attacks need at least one limb that is not mauled or ripped."""
    return part_usable(fighter, "claw")


def called_shot_allowed(target: Fighter, called: str) -> bool:
    """A called shot needs the part to be there: no shot at a ripped-off wing, limb or tail."""
    if called == "wing":
        return target.wing != RIPPED
    if called == "tail":
        return target.tail != RIPPED
    if called in ("fore_left", "fore_right", "hind_left", "hind_right"):
        limbs = ("fore_left", "fore_right", "hind_left", "hind_right")
        return target.limbs[limbs.index(called)] != RIPPED
    return True


def called_effect(called: str, sixes: int) -> tuple[str, int] | None:
    """What a successful called shot does with its sixes: (effect, severity) or nothing.

    Wing, limbs and tail: one six mauls, two rip.  Head: one six stuns, two kill.
    Neck: two sixes kill.  Torso: nothing special.
    """
    if sixes < 1 or called == "torso":
        return None
    if called == "neck":
        return ("kill", 2) if sixes >= 2 else None
    if called == "head":
        return ("kill", 2) if sixes >= 2 else ("stun", 1)
    return (called, RIPPED if sixes >= 2 else MAULED)


