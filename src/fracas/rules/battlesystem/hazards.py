"""Underground hazards: fragile formations, cave-ins, gas clouds and unseen obstacles.

Each function rolls through the injected ``rng``, records every die in a
``DiceRolled`` event before using it, and changes the battle only by emitting
events.  The GM's fragile-formation checks are secret (``hidden=True``).
"""

from __future__ import annotations

from fracas.core.events import DiceRolled
from fracas.core.rng import Rng
from fracas.core.ruleset import GM, Emit
from fracas.rules.battlesystem.events import (
    CeilingCollapsed,
    Damaged,
    FeatureCollapsed,
    FragileChecked,
    GasEnded,
    GasMoved,
    GasReleased,
    ObstacleMarked,
    ObstacleSprung,
    UnitLeft,
    interned,
)
from fracas.rules.battlesystem.rules import (
    DARK_SAVE_PENALTY,
    cave_in_dice,
    damage_each,
    fragile_chance,
    fragile_check,
    gas_duration,
    gas_rides_wind,
)
from fracas.rules.battlesystem.state import (
    BattlesystemState,
    Unit,
    blind,
    placed,
    unit_footprint,
)

__all__ = [
    "affect_gas",
    "cave_in",
    "end_of_turn_gas",
    "heavy_on",
    "record_damage",
    "release_gas",
    "spring_obstacle",
    "stress_area",
    "stress_feature",
]

# The events a battle makes most, each distinct one made once (see events.interned).
_damaged = interned(Damaged)

#: Features whose fall drops everyone standing on them; the others bring the ceiling down.
FLOORS = ("bridge", "ledge")


def stress_feature(state: BattlesystemState, name: str, heavy: bool, explosive: bool, rng: Rng,
                   emit: Emit) -> bool:
    """The GM's secret d100 check when stress is put on a fragile formation.

    Returns True when it collapses.  See :func:`rules.fragile_check` for the odds.
    """
    feature = state.features[name]
    if feature.collapsed:
        return False
    roll = rng.die(100)
    emit(DiceRolled(GM, "fragile formation", 100, (roll,), hidden=True))
    collapsed, base_after = fragile_check(feature.chance, roll, heavy, explosive)
    emit(FragileChecked(name, roll, fragile_chance(feature.chance, heavy, explosive),
                        collapsed, base_after))
    if collapsed:
        collapse(state, name, rng, emit)
    return collapsed


def heavy_on(state: BattlesystemState, area: str) -> bool:
    """Whether a heavy unit stands on the ground of ``area`` (so on its fragile formations).

    Their presence doubles the collapse chance of any stress there, whoever causes
    it: a light unit marching onto a bridge the heavy cavalry holds doubles it too.
    Heavy flyers in the air above put no weight on it (ours).
    """
    return any(u.stats.heavy and u.altitude == "ground" for u in placed(state).get(area, ()))


def stress_area(state: BattlesystemState, area: str, heavy: bool, explosive: bool, rng: Rng,
                emit: Emit) -> None:
    """Stress every standing fragile formation of ``area`` once (marching, melee, spells)."""
    for name in state.board.areas[area].features:
        stress_feature(state, name, heavy, explosive, rng, emit)


def collapse(state: BattlesystemState, name: str, rng: Rng, emit: Emit) -> None:
    """A fragile formation falls.

    A bridge or ledge drops every unit on the ground there (ours: the fall
    destroys them) and the area can no longer be crossed; a column, arch or
    cracked ceiling brings the ceiling of its area down as a rock cave-in.
    """
    feature = state.features[name]
    emit(FeatureCollapsed(name, feature.area))
    if feature.kind in FLOORS:
        for unit in state.in_area(feature.area):
            if unit.altitude == "ground":
                emit(UnitLeft(unit.name, "fell"))
    elif feature.area not in state.caved:
        cave_in(state, feature.area, "rock", rng, emit)


def saves(state: BattlesystemState, unit: Unit, rng: Rng, emit: Emit, purpose: str) -> int:
    """Roll one d20 saving throw per figure; return how many succeed.

    A save succeeds at or above the unit's save number; units fighting blind
    take -4 on the roll.
    """
    faces = tuple(rng.dice(unit.figures, 20))
    emit(DiceRolled(unit.name, purpose, 20, faces))
    penalty = DARK_SAVE_PENALTY if blind(state, unit) else 0
    need = unit.stats.save
    return sum(1 for f in faces if f - penalty >= need)


def caught_by_cave_in(state: BattlesystemState, area: str) -> list[Unit]:
    """Units under a collapse of ``area``'s ceiling: the area plus 1 inch all around.

    A unit in a neighbouring area stands centred there, so it is caught when
    its nearer end lies within 1 inch of the shared edge (ours).
    """
    caught = list(state.in_area(area))
    for link in state.board.links[area]:
        info = state.board.areas[link.to]
        for unit in state.in_area(link.to):
            length = unit_footprint(unit, info).length
            if (info.length - length) / 2 <= 1 + 1e-9:
                caught.append(unit)
    return caught


def cave_in(state: BattlesystemState, area: str, material: str, rng: Rng, emit: Emit) -> None:
    """Bring down the ceiling of ``area`` (rock: 6d8 per creature, mud: 4d8; save halves).

    Fragile formations in the area and next to it are then checked at double
    chance, as the rock beside them has fallen.
    """
    emit(CeilingCollapsed(area, material))
    for unit in caught_by_cave_in(state, area):
        if not unit.on_field:
            continue
        saved = saves(state, unit, rng, emit, "save vs cave-in")
        creatures, s = unit.stats.creatures, unit.stats
        half = damage_each(unit.figures, unit.wounded, s.hd, saved,
                           cave_in_dice(material, creatures, True))
        full = damage_each(half.figures, half.wounded, s.hd, unit.figures - saved,
                           cave_in_dice(material, creatures, False))
        record_damage(emit, unit, cave_in_dice(material, creatures, False), full.figures,
                full.wounded, "cave-in")
    for near in (area, *(lk.to for lk in state.board.links[area])):
        stress_area(state, near, False, True, rng, emit)


def record_damage(emit: Emit, unit: Unit, dice: int, figures: int, wounded: int,
                  cause: str) -> None:
    """Emit the damage a unit took (if any) and its destruction when no figure is left."""
    if figures != unit.figures or wounded != unit.wounded:
        emit(_damaged(unit.name, dice, figures, wounded, cause))
    if figures == 0:
        emit(UnitLeft(unit.name, "destroyed"))


def release_gas(state: BattlesystemState, area: str, diameter: float, dice: int, turns: int,
                emit: Emit) -> None:
    """Release a gas cloud underground, adjusting its duration for the air there.

    Durations double in still air; in a windy passage no wider than 1.5 times
    the cloud it rides the wind for twice its duration; wider windy areas
    scatter it at once; well-ventilated areas keep the surface duration.
    """
    info = state.board.areas[area]
    lasting = gas_duration(turns, info.airflow, info.width, diameter)
    carried = info.airflow == "windy" and lasting > 0
    emit(GasReleased(area, diameter, dice, lasting, carried))


def affect_gas(state: BattlesystemState, area: str, dice: int, rng: Rng, emit: Emit) -> None:
    """Every susceptible unit in ``area`` saves per figure; each failure takes ``dice`` dice."""
    for unit in state.in_area(area):
        if unit.stats.gas_immune:
            continue
        saved = saves(state, unit, rng, emit, "save vs gas")
        hit = damage_each(unit.figures, unit.wounded, unit.stats.hd, unit.figures - saved, dice)
        record_damage(emit, unit, dice, hit.figures, hit.wounded, "gas")


def end_of_turn_gas(state: BattlesystemState, rng: Rng, emit: Emit) -> None:
    """Each cloud poisons its area, then ages a turn and, if the wind carries it, moves on.

    Carried gas follows the area's wind one area a turn while the passages stay
    narrow enough; blown into a wider area it disperses (ours).
    """
    for gas in list(state.gases):
        affect_gas(state, gas.area, gas.dice, rng, emit)
        left = gas.turns_left - 1
        if left <= 0:
            emit(GasEnded(gas.id))
            continue
        info = state.board.areas[gas.area]
        target = info.wind_to if gas.carried and info.airflow == "windy" else None
        if target is None or target in state.gone:
            emit(GasMoved(gas.id, gas.area, left))
        elif gas_rides_wind(state.board.areas[target].width, gas.diameter):
            emit(GasMoved(gas.id, target, left))
        else:
            emit(GasEnded(gas.id))


def spring_obstacle(state: BattlesystemState, unit: Unit, emit: Emit) -> bool:
    """A blind unit entering an area with an unseen obstacle: its whole first rank is caught.

    Returns True when the obstacle halts the unit.  Units that can see, flyers
    off the ground, and sides that already found the obstacle are not caught.
    A unit on the ground that can see marks the obstacle for the rest of its side.
    """
    info = state.board.areas[unit.area]
    if (info.obstacle_kind is None or unit.altitude != "ground"
            or (unit.side, unit.area) in state.known_obstacles):
        return False
    if not blind(state, unit):
        emit(ObstacleMarked(unit.side, unit.area))
        return False
    rank = unit_footprint(unit, info).abreast
    hit = damage_each(unit.figures, unit.wounded, unit.stats.hd, rank, info.obstacle_dice)
    emit(ObstacleSprung(unit.side, unit.area))
    record_damage(emit, unit, info.obstacle_dice, hit.figures, hit.wounded, "obstacle")
    return info.obstacle_halts
