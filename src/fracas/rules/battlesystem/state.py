"""State of a BATTLESYSTEM underground battle: a fixed battlefield and mutable units.

The battlefield (areas, links, distances) never changes during a fight, so it
is held in frozen values shared between clones; units, fragile features and
gas clouds are small mutable dataclasses changed only by ``apply_event``.
"""

from __future__ import annotations

import dataclasses
import heapq
import operator
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from fracas.rules.battlesystem.rules import (
    Footprint,
    darkness_applies,
    footprint,
)

__all__ = ["Area", "Battlefield", "BattlesystemState", "BsState", "Feature", "Gas", "Link",
           "Readings", "Side", "Unit", "UnitStats", "clone", "copy_into", "mixed_areas", "placed",
           "state_fields"]


#: The statuses of a unit standing on the field (:attr:`Unit.on_field`).
ON_FIELD = _ON_FIELD = ("ok", "routing")


@mypyc_attr(native_class=False)  # frozen: pickled and compared as a plain class
@dataclass(frozen=True, slots=True)
class Link:
    """A passage from one area to a neighbour."""

    to: str
    bend: bool


@mypyc_attr(native_class=False)  # frozen: pickled and compared as a plain class
@dataclass(frozen=True, slots=True)
class Area:
    """One tunnel, corridor or cavern."""

    name: str
    kind: str
    width: float
    length: float
    ceiling: float
    airflow: str
    wind_to: str | None
    lit: bool
    obstacle_kind: str | None
    obstacle_dice: int
    obstacle_halts: bool
    features: tuple[str, ...]

    @property
    def surface(self) -> float:
        """Square inches of floor."""
        return self.width * self.length


@mypyc_attr(native_class=False)  # frozen: pickled and compared as a plain class
@dataclass(frozen=True, slots=True)
class Side:
    """An army's fixed facts."""

    name: str
    retreat: str
    leader: str | None
    command_radius: float


@mypyc_attr(native_class=False)  # frozen: pickled and compared as a plain class
@dataclass(frozen=True, slots=True)
class UnitStats:
    """A unit's fixed statistics."""

    name: str
    side: str
    hd: int
    creatures: int
    base: float
    ac: int
    thac0: int
    damage: int
    movement: float
    morale: int
    save: int
    frontage: int
    infravision: bool
    lights: int
    missile_range: float
    missile_damage: int
    flyer: bool
    heavy: bool
    gas_immune: bool
    hold: bool
    start_figures: int


@dataclass(slots=True)
class Unit:
    """A unit's changing condition."""

    stats: UnitStats
    area: str
    figures: int
    formation: str
    rear: str | None = None
    wounded: int = 0
    axis: str = "width"
    progress: float = 0.0
    goal: str | None = None
    status: str = "ok"
    altitude: str = "ground"
    lit: bool = False
    lost_this_turn: int = 0
    charging: bool = False
    #: The enemy unit this turn's melee blows fall on, when the unit chose one (ruling 25).
    aim: str | None = None
    #: The unit's name and army, copies of its statistics' (read very often).
    name: str = dataclasses.field(init=False, repr=False, compare=False)
    side: str = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.name = self.stats.name
        self.side = self.stats.side

    @property
    def on_field(self) -> bool:
        """True while the unit stands on the battlefield (in good order or routing)."""
        return self.status in _ON_FIELD


@dataclass(slots=True)
class Feature:
    """A fragile formation: its area, kind, current base chance and whether it fell."""

    name: str
    area: str
    kind: str
    chance: int
    collapsed: bool = False


@dataclass(slots=True)
class Gas:
    """A gas cloud: where it is, how big, how many turns are left and whether wind carries it."""

    id: int
    area: str
    diameter: float
    dice: int
    turns_left: int
    carried: bool


@dataclass(init=False, eq=False)
class _Routes:
    """Distances and paths worked out on a battlefield.  A dataclass without fields:
    nothing it holds is part of the battlefield's value (equality, the exact solver's
    whole-state key)."""

    def __init__(self) -> None:
        self.distances: dict[tuple[str, frozenset[str]], dict[str, float]] = {}
        self.paths: dict[tuple[str, str, frozenset[str]], tuple[str, ...]] = {}


@mypyc_attr(native_class=False)  # frozen: pickled and compared as a plain class
@dataclass(frozen=True, slots=True)
class Battlefield:
    """The map: areas, neighbours and centre-to-centre distances."""

    areas: dict[str, Area]
    links: dict[str, tuple[Link, ...]]
    order: tuple[str, ...]
    #: Shortest distances and paths already worked out: the map never changes, so each
    #: is computed once per battlefield.  No part of its value.
    _known: _Routes = dataclasses.field(default_factory=lambda: _Routes(), init=False,
                                        repr=False, compare=False)

    def link(self, a: str, b: str) -> Link | None:
        """The passage from ``a`` to ``b``, if they meet."""
        for link in self.links[a]:
            if link.to == b:
                return link
        return None

    def step_cost(self, a: str, b: str) -> float:
        """Inches from the centre of ``a`` to the centre of neighbour ``b``."""
        return (self.areas[a].length + self.areas[b].length) / 2

    def distances(self, start: str, blocked: frozenset[str] = frozenset()) -> dict[str, float]:
        """Shortest centre-to-centre distance from ``start`` to every reachable area.

        The answer is shared between callers: read it, never change it.
        """
        key = (start, blocked)
        known = self._known.distances.get(key)
        if known is None:
            known = self._known.distances[key] = self._dijkstra(start, blocked)
        return known

    def _dijkstra(self, start: str, blocked: frozenset[str]) -> dict[str, float]:
        best = {start: 0.0}
        heap = [(0.0, start)]
        while heap:
            dist, here = heapq.heappop(heap)
            if dist > best[here]:
                continue
            for link in self.links[here]:
                if link.to in blocked:
                    continue
                nd = dist + self.step_cost(here, link.to)
                if nd < best.get(link.to, float("inf")):
                    best[link.to] = nd
                    heapq.heappush(heap, (nd, link.to))
        return best

    def path(self, start: str, goal: str, blocked: frozenset[str] = frozenset()) -> list[str]:
        """The areas after ``start`` on a shortest path to ``goal`` (empty if none)."""
        key = (start, goal, blocked)
        known = self._known.paths.get(key)
        if known is None:
            known = self._known.paths[key] = tuple(self._path(start, goal, blocked))
        return list(known)

    def _path(self, start: str, goal: str, blocked: frozenset[str]) -> list[str]:
        if start == goal:
            return []
        dist = self.distances(goal, blocked - {start})
        if start not in dist:
            return []
        route, here = [], start
        while here != goal:
            options = [(self.step_cost(here, lk.to) + dist[lk.to], lk.to)
                       for lk in self.links[here] if lk.to in dist]
            here = min(options)[1]
            route.append(here)
        return route


class Army:
    """What the heuristic reads of an army's units in good order, kept with the state's
    readings until a unit changes (see :func:`.policies._armies`; a march mends it)."""

    __slots__ = ("bows", "figures", "first")

    def __init__(self) -> None:
        #: Figures in good order.
        self.figures = 0
        #: Its units in good order with missiles, in scenario order.
        self.bows: list[Unit] = []
        #: For each area where it has a unit in good order, the first of their names.
        self.first: dict[str, str] = {}


@dataclass(init=False, eq=False)
class Readings:
    """Answers worked out from a state and kept with it until the fold changes a unit
    (where it stands, its band, formation, condition, figures or light), the turn, what
    the GM has left or the ground (see :data:`.fold.KEEP_PLACES` and
    :func:`.fold.apply_event`).  Nothing kept here may depend on whose turn it is, the
    phase or the foe a unit chose to strike.
    ``tests/rules/battlesystem/test_battlesystem_readings.py`` holds every answer kept
    to the same question asked afresh, after every event of many fights.

    A dataclass without fields: whatever it holds is no part of the state's value (its
    equality, its copies, the exact solver's whole-state key read none of it).
    """

    def __init__(self) -> None:
        #: The units on the field in each area, in scenario order (see :func:`placed`).
        self.places: dict[str, list[Unit]] | None = None
        #: The enemy units each unit can fight hand to hand, by the unit's name (see
        #: :func:`.movement.foes_in_reach`).
        self.reach: dict[str, list[Unit]] = {}
        #: Whether each unit is locked in melee, by its name (see :func:`.movement.engaged`).
        self.engaged: dict[str, bool] = {}
        #: Figures of each side facing the enemy in an area, by (area, side) (see
        #: :func:`.combat.facing`).
        self.facing: dict[tuple[str, str], int] = {}
        #: The enemy units each unit could shoot, by its name (see
        #: :func:`.legality.targets_in_range`).
        self.targets: dict[str, list[Unit]] = {}
        #: The heuristic's melee estimates (:func:`.policies.melee_value`) on a frontage
        #: that is not narrow, by unit, then target: they read no other unit, so they are
        #: kept until either changes or the turn does.
        self.melee: dict[str, dict[str, float]] = {}
        #: The same on a narrow frontage.
        self.melee_narrow: dict[str, dict[str, float]] = {}
        #: Figures of each unit in contact (see :func:`.combat.in_contact`).
        self.contact: dict[str, int] = {}
        #: Floor each unit covers where it stands (see :func:`used_surface`).
        self.surface: dict[str, float] = {}
        #: Melee Attack Ratings, by attacker, then target (see
        #: :func:`.combat.melee_attack_rating`).
        self.ratings: dict[str, dict[str, int]] = {}
        #: Whether two armies still have figures in good order (see
        #: :func:`.resolve.contested`).
        self.contested: bool | None = None
        #: The areas where units of two armies or more stand (see :func:`placed`).
        self.mixed: frozenset[str] = frozenset()
        #: Whether no unit in good order can ever reach an enemy (see
        #: :func:`.resolve.cut_off`).
        self.cut_off: bool | None = None
        #: The GM's prepared effects still available, by kind of order (see
        #: :func:`.legality.gm_effects`).
        self.gm: dict[type, list[str]] = {}
        #: Whether any of the GM's prepared effects is still available (see
        #: :func:`.legality.gm_has_effects`).
        self.gm_any: bool | None = None
        #: Whether each unit fights blind, by its name (see :func:`blind`).
        self.blind: dict[str, bool] = {}
        #: What the heuristic worked out about the armies, by question.
        self.plans: dict[str, Any] = {}
        #: Each unit's place in scenario order, by name (the order of :func:`placed`'s
        #: lists): the units never change, so it is kept until :func:`copy_into`.
        self.rank: dict[str, int] = {}
        #: Whether the lean play looked up this fight's opening (see
        #: :func:`.lean.heuristic_turns`): once a fight, never forgotten.  No answer of the
        #: rules.
        self.opened = False

    def forget_charge(self, name: str) -> None:
        """Drop the answers that read whether unit ``name`` is charging (it began or ended
        a charge): its ratings against others and its melee estimates, which read them.
        What others work out against it never reads its charge."""
        for kept in (self.ratings, self.melee, self.melee_narrow):
            if kept:
                kept.pop(name, None)

    def forget_move(self, unit: Unit, to: str) -> None:
        """Drop the answers a march of ``unit`` into another area ``to`` may change.

        Kept: whether two armies stand, the GM's effects, the other units' own figures
        in contact, blindness and ratings against each other, whom the units of other
        areas than the two it leaves and enters reach (only units of one area reach each
        other) and the figures facing the enemy there, whom its own army's units reach,
        and whether an enemy unit is locked in melee where that cannot change: locked
        where it arrives, free where it leaves.
        """
        name = unit.name
        by_area = self.places
        self.places = self.cut_off = None
        if self.plans:
            self.plans = {}
        left = unit.area
        if by_area is None:
            for kept in (self.reach, self.engaged, self.facing):
                if kept:
                    kept.clear()
        else:
            # Only units of one area reach each other, and only enemies count: an enemy
            # of the marching unit where it arrives may gain a foe (one locked in melee
            # stays so), one where it leaves may lose one (one not locked stays free).
            reach, engaged = self.reach, self.engaged
            side = unit.side
            for area, stays_if in ((left, False), (to, True)):
                for other in by_area.get(area, ()):
                    if other.side != side:
                        reach.pop(other.name, None)
                        if left == to or engaged.get(other.name) is not stays_if:
                            engaged.pop(other.name, None)
            reach.pop(name, None)
            engaged.pop(name, None)
            if self.facing:
                self.facing = {k: v for k, v in self.facing.items()
                               if k[0] != left and k[0] != to}
        self.forget_march(name)

    def forget_march(self, name: str, sight_kept: bool = False) -> None:
        """Drop what a march of unit ``name`` into another area changes, whoever else
        stands where: whether an army is cut off, whom a unit could shoot, the unit's
        figures in contact, floor covered and melee
        estimates, and its blindness and ratings, by it and against it, with the
        estimates against it.  ``sight_kept``: whether it fights blind is the same where
        it stands now (then its blindness, its ratings and the estimates against it,
        which read where it stands only through it, are kept)."""
        self.cut_off = None
        if self.targets:
            self.targets = {}
        self.contact.pop(name, None)
        self.surface.pop(name, None)
        if sight_kept:
            self.melee.pop(name, None)
            self.melee_narrow.pop(name, None)
            return
        self._forget_ratings(name)
        _forget_pairs(self.melee, name)
        _forget_pairs(self.melee_narrow, name)
        self.blind.pop(name, None)

    def forget_order(self) -> None:
        """Drop the answers that read which units are in good order (a unit routed or
        left the field): whether two armies stand or are cut off, and the heuristic's
        plans."""
        self.contested = self.cut_off = None
        if self.plans:
            self.plans = {}

    def forget_shape(self, unit: Unit, squeeze_kept: bool) -> None:
        """Drop the answers a new formation of ``unit`` may change: its figures in
        contact, floor covered and melee estimates, and the figures facing the enemy of
        its army where it stands.  ``squeeze_kept``: whether it is squeezed there is the
        same (then who reaches whom is kept: only squeezing changes it); otherwise whom
        it and the enemies there reach, whether they are locked in melee, every count
        of figures facing the enemy there and whom a unit could shoot are dropped too."""
        name, area = unit.name, unit.area
        self.contact.pop(name, None)
        self.surface.pop(name, None)
        self.melee.pop(name, None)
        self.melee_narrow.pop(name, None)
        self.facing.pop((area, unit.side), None)
        if squeeze_kept:
            return
        if self.targets:
            self.targets = {}
        by_area = self.places
        if by_area is None:
            for kept in (self.reach, self.engaged, self.facing):
                if kept:
                    kept.clear()
            return
        for other in by_area.get(area, ()):
            if other.side != unit.side:
                self.reach.pop(other.name, None)
                self.engaged.pop(other.name, None)
        self.reach.pop(name, None)
        self.engaged.pop(name, None)
        if self.facing:
            self.facing = {k: v for k, v in self.facing.items() if k[0] != area}

    def _forget_ratings(self, name: str) -> None:
        """Drop the ratings of unit ``name`` and against it (it may have changed)."""
        _forget_pairs(self.ratings, name)

    def forget_strength(self, unit: Unit, left: int, sight_kept: bool = False) -> None:
        """Drop the answers that read a unit's figures (``unit`` lost some, ``left`` are
        left, standing where it stood): keep who stands where, who reaches whom and whom
        a unit could shoot, the other units' own figures in contact, blindness and
        ratings against each other, the figures facing the enemy but those of its army
        where it stands, and whether two armies stand unless it has no figure left.
        ``sight_kept``: whether it fights blind is the same with ``left`` figures (then its
        blindness and the ratings, which read figures only through it, are kept too)."""
        if not left:
            self.contested = None
        self.facing.pop((unit.area, unit.side), None)
        self.contact.pop(unit.name, None)
        self.surface.pop(unit.name, None)
        _forget_pairs(self.melee, unit.name)
        _forget_pairs(self.melee_narrow, unit.name)
        if self.plans:
            self.plans = {}
        if not sight_kept:
            self._forget_ratings(unit.name)
            self.blind.pop(unit.name, None)

    def forget(self) -> None:
        """Drop every answer (a unit or the turn may have changed)."""
        self.places = self.contested = self.cut_off = self.gm_any = None
        if self.plans:
            self.plans = {}
        if self.blind:
            self.blind = {}
        if self.gm:
            self.gm = {}
        if self.reach:
            self.reach = {}
        if self.engaged:
            self.engaged = {}
        if self.facing:
            self.facing = {}
        if self.targets:
            self.targets = {}
        if self.contact:
            self.contact = {}
        if self.surface:
            self.surface = {}
        if self.ratings:
            self.ratings = {}
        if self.melee:
            self.melee = {}
        if self.melee_narrow:
            self.melee_narrow = {}


def _forget_pairs(pairs: dict[str, dict[str, Any]], name: str) -> None:
    """Drop the answers kept by unit, then other unit, of unit ``name`` and about it."""
    if pairs:
        pairs.pop(name, None)
        for against in pairs.values():
            against.pop(name, None)


@dataclass(slots=True)
class BattlesystemState:
    """Everything about a battle in progress."""

    board: Battlefield
    sides: tuple[Side, ...]
    units: dict[str, Unit]
    features: dict[str, Feature]
    max_turns: int
    gm_cave_ins: tuple[tuple[str, str, int | None], ...]
    gm_gases: tuple[tuple[str, float, int, int, int | None], ...]
    gm_strikes: tuple[tuple[str, int | None], ...]
    policies: dict[str, str | tuple[str, ...]]
    #: The scenario's ``search:`` block (the search policy's budget), as sorted pairs.
    search: tuple[tuple[str, Any], ...] = ()
    gm_used: set[str] = dataclasses.field(default_factory=set)
    gases: list[Gas] = dataclasses.field(default_factory=list)
    next_gas: int = 0
    caved: set[str] = dataclasses.field(default_factory=set)
    gone: set[str] = dataclasses.field(default_factory=set)
    known_obstacles: set[tuple[str, str]] = dataclasses.field(default_factory=set)
    turn: int = 0
    phase: str = "setup"
    queue: list[str] = dataclasses.field(default_factory=list)
    result: tuple[str | None, str] | None = None
    #: What was worked out from where the units stand; the fold forgets it when that may
    #: change.  No part of the state's value.
    readings: Readings = dataclasses.field(default_factory=lambda: Readings(), compare=False,
                                           repr=False)

    @property
    def round(self) -> int:
        """The turn number (the core calls it a round)."""
        return self.turn

    def side(self, name: str) -> Side:
        """The fixed facts of side ``name``."""
        for side in self.sides:
            if side.name == name:
                return side
        raise KeyError(name)

    def in_area(self, area: str) -> list[Unit]:
        """Units standing in ``area``, in scenario order (a new list each time)."""
        return list(placed(self).get(area, ()))

    def enemies_in(self, unit: Unit, area: str) -> list[Unit]:
        """Enemy units on the field in ``area``."""
        return [u for u in self.in_area(area) if u.side != unit.side]



#: The old public name of :class:`BattlesystemState`, kept so existing imports still work.
BsState = BattlesystemState


def clone(state: BattlesystemState) -> BattlesystemState:
    """A copy sharing the fixed battlefield; units, features and gas are copied."""
    new = BattlesystemState(state.board, state.sides, {}, {}, state.max_turns, state.gm_cave_ins,
                            state.gm_gases, state.gm_strikes, state.policies)
    copy_into(new, state)
    return new


def copy_into(state: BattlesystemState, source: BattlesystemState) -> None:
    """Make ``state`` a copy of ``source`` in place (as :func:`clone` copies), forgetting
    whatever its readings held."""
    for name, value in zip(_STATE_FIELDS, _state_values(source), strict=True):
        setattr(state, name, value)
    state.units = {k: Unit(*_unit_values(u)) for k, u in source.units.items()}
    state.features = {k: Feature(*_feature_values(f)) for k, f in source.features.items()}
    state.gases = [Gas(*_gas_values(g)) for g in source.gases]
    state.gm_used, state.caved = set(source.gm_used), set(source.caved)
    state.gone, state.known_obstacles = set(source.gone), set(source.known_obstacles)
    state.queue = list(source.queue)
    state.readings.forget()
    state.readings.rank = {}


def state_fields() -> tuple[str, ...]:
    """The fields that make a state's value, in order (all but its readings)."""
    return _STATE_FIELDS


def _init_fields(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls) if f.init)


#: Every field of a state's value; those :func:`copy_into` copies are set again after.
_STATE_FIELDS = tuple(f.name for f in dataclasses.fields(BattlesystemState) if f.compare)
_state_values = operator.attrgetter(*_STATE_FIELDS)
#: A unit's, feature's and gas cloud's fields, in the order their constructors take them.
_unit_values = operator.attrgetter(*_init_fields(Unit))
_feature_values = operator.attrgetter(*_init_fields(Feature))
_gas_values = operator.attrgetter(*_init_fields(Gas))


def placed(state: BattlesystemState) -> dict[str, list[Unit]]:
    """The units on the field in each area that has any, in scenario order.

    Worked out once until the fold moves, forms, lifts or removes a unit; the lists are
    shared between callers: read them, never change them.
    """
    readings = state.readings
    known = readings.places
    if known is None:
        known = {}
        mixed = set()
        for unit in state.units.values():
            if unit.status in _ON_FIELD:
                here = known.get(unit.area)
                if here is None:
                    known[unit.area] = [unit]
                else:
                    if here[0].side != unit.side:
                        mixed.add(unit.area)
                    here.append(unit)
        readings.places = known
        readings.mixed = frozenset(mixed)
    return known


def mixed_areas(state: BattlesystemState) -> frozenset[str]:
    """The areas where units of two armies or more stand on the field (only there can a
    unit be locked in melee); worked out with :func:`placed`."""
    if state.readings.places is None:
        placed(state)
    return state.readings.mixed


# -- derived facts used by several modules ----------------------------------------

def unit_footprint(unit: Unit, area: Area, formation: str | None = None,
                   axis: str | None = None) -> Footprint:
    """The space ``unit`` needs in ``area`` (in ``formation`` if given)."""
    return footprint(unit.figures, unit.stats.base, formation or unit.formation,
                     unit.stats.frontage, axis or unit.axis, area.width)


def fits_width(unit: Unit, area: Area, formation: str | None = None) -> bool:
    """True when the formation is no wider than the area (columns always fit, squeezed)."""
    form = formation or unit.formation
    if form == "column":
        return True
    return unit_footprint(unit, area, form).width <= area.width + 1e-9


def used_surface(state: BattlesystemState, area: str, skip: str | None = None) -> float:
    """Floor covered in ``area`` by units other than ``skip``."""
    info = state.board.areas[area]
    known = state.readings.surface
    total = 0.0
    for u in placed(state).get(area, ()):
        if u.name != skip:
            covered = known.get(u.name)
            if covered is None:
                covered = known[u.name] = unit_footprint(u, info).surface
            total += covered
    return total


def room_for(state: BattlesystemState, unit: Unit, area: str, formation: str | None = None) -> bool:
    """True when ``unit`` fits into ``area``: not wider than it and enough free floor."""
    info = state.board.areas[area]
    if area in state.gone or not fits_width(unit, info, formation):
        return False
    need = unit_footprint(unit, info, formation).surface
    return used_surface(state, area, unit.name) + need <= info.surface + 1e-9


def blind(state: BattlesystemState, unit: Unit) -> bool:
    """True when ``unit`` suffers the darkness penalties where it stands (worked out once
    per unit until a unit changes: the state's readings)."""
    readings = state.readings
    known = readings.blind.get(unit.name)
    if known is None:
        s = unit.stats
        known = readings.blind[unit.name] = darkness_applies(
            state.board.areas[unit.area].lit, s.infravision, s.lights, unit.lit, unit.figures)
    return known


def in_contact(state: BattlesystemState, unit: Unit) -> int:
    """Figures of ``unit`` that can strike or be struck: its first rank where it stands.

    Worked out once per unit until a unit changes (the state's readings)."""
    readings = state.readings
    known = readings.contact.get(unit.name)
    if known is None:
        shape = unit_footprint(unit, state.board.areas[unit.area])
        known = readings.contact[unit.name] = min(shape.abreast, unit.figures)
    return known


def carries_light(unit: Unit) -> bool:
    """True when the unit has its torches or magical lights burning."""
    return unit.lit and unit.stats.lights > 0


def can_see(state: BattlesystemState, viewer: Unit, target: Unit,
            from_area: str | None = None) -> bool:
    """Whether ``viewer`` can see ``target`` (core, ours), standing where it is or, when
    given, in ``from_area``.

    Lit areas and units carrying light are seen from anywhere, and so is a unit
    standing where an enemy carries light (torch-bearers light up the enemy
    they reach); otherwise a unit sees into its own area with infravision
    or its own light, and infravision reaches 2 inches (60 feet) into the next area.
    """
    if state.board.areas[target.area].lit or carries_light(target) or any(
            u.side != target.side and carries_light(u) for u in placed(state).get(target.area, ())):
        return True
    area = viewer.area if from_area is None else from_area
    if area == target.area:
        return viewer.stats.infravision or carries_light(viewer)
    if viewer.stats.infravision:
        link = state.board.link(area, target.area)
        return link is not None and state.board.step_cost(area, target.area) <= 2
    return False
