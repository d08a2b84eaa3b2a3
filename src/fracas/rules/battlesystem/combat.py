"""Fighting: melee, missile fire, damage to figures, morale and breaking formation.

The compact core (ours) rolls one d10 per figure in contact (melee) or in the
first two ranks (missiles); each roll at or above the Attack Rating is a hit
worth the unit's damage dice.  Dice then fall on the target's figures by the
Hit Dice rule, with the seed's 10% wounded threshold on narrow frontages.
"""

from __future__ import annotations

import math

from fracas.core.events import DiceRolled
from fracas.core.rng import Rng
from fracas.core.ruleset import Emit
from fracas.rules.battlesystem.events import (
    AltitudeChanged,
    FormationChanged,
    MoraleResult,
    Routed,
    Struck,
    Unhurt,
    UnitMoved,
    Withdrew,
    interned,
)
from fracas.rules.battlesystem.fold import folds_only
from fracas.rules.battlesystem.hazards import (
    heavy_on,
    record_damage,
    spring_obstacle,
    stress_area,
)
from fracas.rules.battlesystem.movement import (
    engaged,
    foes_in_reach,
    in_command,
    in_reach,
    may_take_formation,
    settle_altitude,
)
from fracas.rules.battlesystem.rules import (
    DARK_AC_PENALTY,
    DARK_ATTACK_PENALTY,
    FigureDamage,
    attack_rating,
    breaks_to_open,
    damage_figures,
    expansion_room,
    lit_target_modifier,
    missile_figures,
    morale_target,
    narrow_frontage,
    wound_threshold,
)
from fracas.rules.battlesystem.state import (
    BattlesystemState,
    Unit,
    blind,
    carries_light,
    in_contact,
    mixed_areas,
    placed,
    unit_footprint,
    used_surface,
)

__all__ = [
    "apply_dice",
    "facing",
    "fire",
    "force_open",
    "free_strikers",
    "in_contact",
    "melee_attack_rating",
    "melee_phase",
    "morale_check",
    "start_rout",
    "withdraw",
]

# The events a battle makes most, each distinct one made once (see events.interned).
_struck = interned(Struck)
_unhurt = interned(Unhurt)
_morale_result = interned(MoraleResult)

#: A charging unit's Attack Rating improves by one in the melee that follows (core, ours).
CHARGE_BONUS = 1


def facing(state: BattlesystemState, area: str, side: str) -> int:
    """Figures of ``side`` facing the enemy in the combat of ``area``.

    The seed's narrow-frontage case counts the figures that face each other in the
    combat, whichever units they belong to: every figure in contact of every unit of
    the side that is locked in melee there counts (ours: the whole area is one combat).
    Worked out once per area and side until a unit changes (the state's readings).
    """
    readings = state.readings
    known = readings.facing.get((area, side))
    if known is None:
        known = readings.facing[area, side] = sum(
            in_contact(state, u) for u in placed(state).get(area, ())
            if u.side == side and engaged(state, u))
    return known


def melee_attack_rating(state: BattlesystemState, attacker: Unit, target: Unit) -> int:
    """Attack Rating of a melee attack: darkness and charge modifiers included.

    An attacker fighting blind worsens by 6; a blind target's Armor Class is 4
    worse against melee; a charge improves the rating by 1 (ours).  Worked out once
    per pair until either changes or the turn does (the state's readings).
    """
    ratings = state.readings.ratings
    mine = ratings.get(attacker.name)
    if mine is None:
        mine = ratings[attacker.name] = {}
    known = mine.get(target.name)
    if known is None:
        ac = target.stats.ac + (DARK_AC_PENALTY if blind(state, target) else 0)
        modifier = (DARK_ATTACK_PENALTY if blind(state, attacker) else 0) - (
            CHARGE_BONUS if attacker.charging else 0)
        key = (attacker.stats.thac0, ac, modifier)
        known = _RATINGS.get(key)
        if known is None:
            known = _RATINGS[key] = attack_rating(*key)
        mine[target.name] = known
    return known


#: :func:`.rules.attack_rating` of the numbers met so far (a pure function: remembered).
_RATINGS: dict[tuple[int, int, int], int] = {}


def missile_attack_rating(state: BattlesystemState, shooter: Unit, target: Unit) -> int:
    """Attack Rating of missile fire: blind shooters worsen by 6; lit targets are easier."""
    modifier = (DARK_ATTACK_PENALTY if blind(state, shooter) else 0) + lit_target_modifier(
        carries_light(target), target.formation)
    return attack_rating(shooter.stats.thac0, target.stats.ac, modifier)


def apply_dice(state: BattlesystemState, name: str, dice: int, narrow: bool, cause: str,
               emit: Emit) -> None:
    """Deliver ``dice`` dice of damage to unit ``name`` by the figure Hit Dice rule."""
    unit = state.units[name]
    if not unit.on_field or dice < 1:
        return
    threshold = wound_threshold(narrow)
    key = (unit.figures, unit.wounded, unit.stats.hd, dice, threshold)
    hit = _DAMAGE.get(key)
    if hit is None:
        if len(_DAMAGE) >= 4096:
            _DAMAGE.clear()
        hit = _DAMAGE[key] = damage_figures(*key)
    if hit.figures == unit.figures and hit.wounded == unit.wounded:
        needed = max(1, math.ceil(threshold * unit.stats.hd - 1e-9))
        if not folds_only(emit):  # a line of the log, changing nothing (fold.SILENT)
            emit(_unhurt(unit.name, dice, cause, unit.stats.hd, needed))
        return
    record_damage(emit, unit, dice, hit.figures, hit.wounded, cause)


#: :func:`.rules.damage_figures` of the numbers met so far (a pure function whose answer
#: is immutable: remembered).
_DAMAGE: dict[tuple[int, int, int, int, float], FigureDamage] = {}


def melee_target(state: BattlesystemState, unit: Unit) -> Unit | None:
    """The enemy ``unit`` strikes: the one it chose (ruling 25) while still in reach, else
    the first in scenario order it can reach."""
    if unit.aim is not None:
        aimed = state.units.get(unit.aim)
        if aimed is not None and aimed.on_field and aimed.area == unit.area and \
                aimed.side != unit.side and in_reach(state, unit, aimed):
            return aimed
    foes = state.readings.reach.get(unit.name)
    if foes is not None:
        return foes[0] if foes else None
    side = unit.side
    return next((e for e in placed(state).get(unit.area, ())
                 if e.side != side and in_reach(state, unit, e)), None)


def melee_phase(state: BattlesystemState, rng: Rng, emit: Emit) -> None:
    """Every unit in good order strikes the first enemy it can reach in its area.

    Blows are simultaneous: all dice are rolled first, then damage is dealt.
    Melee beside fragile formations stresses them once per area.
    """
    mixed = mixed_areas(state)  # only where two armies stand is there a melee
    if not mixed:
        return
    strikes: list[tuple[str, int, bool]] = []
    fought: list[tuple[str, bool]] = []
    # Nothing moves or falls until every die is rolled: who stands where, and how many
    # figures of each side face the enemy there, are read once for the whole phase.
    by_area = placed(state)
    areas = state.board.areas
    dice = rng.dice
    told = not folds_only(emit)  # the rolls and blows are lines of a log (fold.SILENT)
    # (what the state's readings hold is read straight from them; the functions work out
    # what they do not hold yet)
    readings = state.readings
    contact, ratings, faced = readings.contact, readings.ratings, readings.facing
    for area in state.board.order:
        if area not in mixed:
            continue
        for unit in by_area[area]:
            if unit.status != "ok":
                continue
            target = melee_target(state, unit)
            if target is None:
                continue
            figures = contact.get(unit.name)
            if figures is None:
                figures = in_contact(state, unit)
            faces = dice(figures, 10)
            mine = ratings.get(unit.name)
            rating = None if mine is None else mine.get(target.name)
            if rating is None:
                rating = melee_attack_rating(state, unit, target)
            hits = 0
            for face in faces:
                if face >= rating:
                    hits += 1
            damage = hits * unit.stats.damage
            if told:
                emit(DiceRolled(unit.name, "melee", 10, tuple(faces)))
                emit(_struck(unit.name, target.name, "melee", rating, figures, hits, damage))
            ours = faced.get((area, unit.side))
            theirs = faced.get((area, target.side))
            narrow = narrow_frontage(facing(state, area, unit.side) if ours is None else ours,
                                     facing(state, area, target.side) if theirs is None
                                     else theirs)
            strikes.append((target.name, damage, narrow))
        if areas[area].features:
            fought.append((area, heavy_on(state, area)))
    for name, damage, narrow in strikes:
        apply_dice(state, name, damage, narrow, "melee", emit)
    for area, heavy in fought:
        stress_area(state, area, heavy, False, rng, emit)


def fire(state: BattlesystemState, shooter: Unit, target: Unit, rng: Rng, emit: Emit) -> None:
    """Missile fire: the first two ranks shoot at ``target`` (standard 25% wound threshold)."""
    shape = unit_footprint(shooter, state.board.areas[shooter.area])
    figures = missile_figures(shooter.figures, shape.abreast)
    faces = tuple(rng.dice(figures, 10))
    emit(DiceRolled(shooter.name, "missiles", 10, faces))
    rating = missile_attack_rating(state, shooter, target)
    hits = sum(1 for f in faces if f >= rating)
    emit(_struck(shooter.name, target.name, "missiles", rating, figures, hits,
                hits * shooter.stats.missile_damage))
    apply_dice(state, target.name, hits * shooter.stats.missile_damage, False, "missiles", emit)


def start_rout(state: BattlesystemState, unit: Unit, cause: str, emit: Emit) -> None:
    """Put ``unit`` to rout, spread in open formation where it fits, else single file."""
    if unit.formation == "closed":
        for axis in ("width", "length"):
            if may_take_formation(state, unit, "open", axis):
                emit(FormationChanged(unit.name, "open", axis))
                break
        else:
            emit(FormationChanged(unit.name, "column", unit.axis))
    emit(Routed(unit.name, cause))


def force_open(state: BattlesystemState, unit: Unit, emit: Emit) -> None:
    """A closed unit must break into open formation: it expands or, without room, routs.

    It may spread to the sides or to the front or rear; if neither has room
    for the full expansion the unit routs automatically.
    """
    info = state.board.areas[unit.area]
    closed = unit_footprint(unit, info, "closed")
    free = info.surface - used_surface(state, unit.area, unit.name) - closed.surface
    axis = expansion_room(closed, info.width, info.length, free)
    if axis is None:
        start_rout(state, unit, "no room to open", emit)
    else:
        emit(FormationChanged(unit.name, "open", axis))


def morale_check(state: BattlesystemState, unit: Unit, rng: Rng, emit: Emit) -> bool:
    """Roll d20 at or under the morale target; a failure breaks or routs the unit.

    Closed units break into open formation (routing only if there is no room);
    open, skirmish and column units (column counts as open for morale) rout.
    """
    roll = rng.die(20)
    target = morale_target(unit.stats.morale, not in_command(state, unit),
                           2 * unit.figures <= unit.stats.start_figures)
    passed = roll <= target
    if not folds_only(emit):  # lines of a log, changing nothing (fold.SILENT)
        emit(DiceRolled(unit.name, "morale", 20, (roll,)))
        emit(_morale_result(unit.name, target, passed))
    if not passed:
        if breaks_to_open(unit.formation):
            force_open(state, unit, emit)
        else:
            start_rout(state, unit, "morale", emit)
    return passed


def morale_phase(state: BattlesystemState, rng: Rng, emit: Emit) -> None:
    """Units in good order that lost figures this turn check morale (core, ours)."""
    for unit in list(state.units.values()):
        if unit.status == "ok" and unit.lost_this_turn > 0:
            morale_check(state, unit, rng, emit)


# -- withdrawing from melee (rulings 23 and 24) -----------------------------------------

def free_strikers(state: BattlesystemState, unit: Unit) -> list[Unit]:
    """The foes that strike ``unit`` as it withdraws: enemy units in good order in contact
    with it that have already given their order this turn.  A foe still to order may
    follow instead (ruling 23)."""
    waiting = state.queue
    return [e for e in foes_in_reach(state, unit) if e.status == "ok" and e.name not in waiting]


def withdraw(state: BattlesystemState, unit: Unit, to: str | None, altitude: str | None,
             rng: Rng, emit: Emit) -> None:
    """A fighting withdrawal: ``unit`` pulls back into neighbour ``to`` (or, a flyer, to
    ``altitude`` out of reach), suffering first one normal melee attack from each foe of
    :func:`free_strikers`, which it does not return.  It gives up the rest of its move.
    """
    strikers = free_strikers(state, unit)
    emit(Withdrew(unit.name, to or ""))
    strikes: list[tuple[int, bool]] = []
    for foe in strikers:
        figures = in_contact(state, foe)
        faces = tuple(rng.dice(figures, 10))
        emit(DiceRolled(foe.name, "free strike", 10, faces))
        rating = melee_attack_rating(state, foe, unit)
        hits = sum(1 for f in faces if f >= rating)
        emit(_struck(foe.name, unit.name, "free strike", rating, figures, hits,
                    hits * foe.stats.damage))
        narrow = narrow_frontage(facing(state, unit.area, foe.side),
                                 facing(state, unit.area, unit.side))
        strikes.append((hits * foe.stats.damage, narrow))
    for dice, narrow in strikes:
        apply_dice(state, unit.name, dice, narrow, "withdrawal", emit)
    if not unit.on_field:
        return
    if to is None:
        if altitude is not None:
            emit(AltitudeChanged(unit.name, altitude))
        return
    emit(UnitMoved(unit.name, to, unit.area, 0.0, None, False))
    if unit.stats.flyer:
        settle_altitude(state, unit, emit)
    if unit.altitude == "ground":
        stress_area(state, to, heavy_on(state, to), False, rng, emit)
    if unit.on_field:
        spring_obstacle(state, unit, emit)
