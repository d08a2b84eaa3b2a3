"""The BATTLESYSTEM underground scenario file (battlefield, sides, units and GM effects)
and building the starting state from it."""

from __future__ import annotations

from collections import deque
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from fracas.core.errors import ScenarioError
from fracas.rules.battlesystem.rules import (
    BASE_WIDTHS,
    allowed_altitudes,
    creatures_per_figure,
)
from fracas.rules.battlesystem.state import (
    Area,
    Battlefield,
    BattlesystemState,
    Feature,
    Link,
    Side,
    Unit,
    UnitStats,
    fits_width,
    used_surface,
)
from fracas.scenario import ScenarioBase, ScenarioEntry, search_pairs

__all__ = [
    "AreaModel",
    "BattlesystemScenario",
    "CaveInModel",
    "FeatureModel",
    "GasModel",
    "GmModel",
    "LinkModel",
    "MissileModel",
    "ObstacleModel",
    "PolicyName",
    "SideModel",
    "UnitModel",
    "build_state",
    "combatant_count",
    "entry",
    "figure_hit_dice",
]

PolicyName = Literal["heuristic", "search", "random", "human"]
Policy = PolicyName | list[str]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class ObstacleModel(_Strict):
    """An unseen hazard (pit, mud, pool) that catches the first rank of a blind unit."""

    kind: str = "pit"
    dice: int = Field(2, ge=0, le=100, description="dice of damage to each figure caught")
    halts: bool = True


class FeatureModel(_Strict):
    """A fragile formation: bridge, ledge, column, arch or cracked ceiling."""

    name: str
    kind: Literal["bridge", "ledge", "column", "arch", "ceiling"]
    chance: int = Field(1, ge=0, le=100, description="base collapse chance in percent")


class AreaModel(_Strict):
    """One tunnel, corridor or cavern of the battlefield."""

    name: str
    kind: Literal["tunnel", "corridor", "cavern", "bridge", "ledge"] = "corridor"
    width: float = Field(gt=0, le=1000, description="inches")
    length: float = Field(gt=0, le=1000, description="inches")
    ceiling: float = Field(20, gt=0, le=10000, description="feet")
    airflow: Literal["still", "ventilated", "windy"] = "still"
    wind_to: str | None = None
    lit: bool = False
    obstacle: ObstacleModel | None = None
    features: list[FeatureModel] = []


class LinkModel(_Strict):
    """Two areas that meet; ``bend`` marks a turn in the passage."""

    a: str
    b: str
    bend: bool = False


class SideModel(_Strict):
    """An army: where it retreats to, its leader and command radius."""

    name: str
    retreat: str
    leader: str | None = None
    command_radius: float = Field(12, ge=0, le=1000)


class MissileModel(_Strict):
    """Missile weapons: range in inches and dice of damage per hit."""

    range: float = Field(gt=0, le=100)
    damage: int = Field(1, ge=1, le=50)


class UnitModel(_Strict):
    """A unit of figures."""

    name: str
    side: str
    area: str
    figures: int = Field(ge=1, le=200)
    hd: float = Field(1, gt=0, le=30, description="Hit Dice of one creature")
    creatures_per_figure: int | None = Field(None, ge=1, le=100)
    base: float = 0.75
    ac: int = Field(7, ge=-10, le=10)
    thac0: int = Field(19, ge=1, le=25)
    damage: int = Field(1, ge=1, le=50, description="dice of damage per melee hit")
    movement: float = Field(6, gt=0, le=60, description="inches per turn")
    morale: int = Field(12, ge=2, le=20)
    save: int = Field(14, ge=2, le=20, description="d20 roll needed to save")
    formation: Literal["closed", "open", "column", "skirmish"] = "closed"
    frontage: int = Field(4, ge=1, le=50)
    infravision: bool = False
    lights: int = Field(0, ge=0, le=10000)
    lit: bool = False
    missile: MissileModel | None = None
    flyer: bool = False
    altitude: Literal["ground", "low", "medium", "high"] = "ground"
    heavy: bool = False
    gas_immune: bool = False
    orders: Literal["advance", "hold"] = "advance"
    policy: Policy = "heuristic"

    @field_validator("base")
    @classmethod
    def _base_width(cls, value: float) -> float:
        if value not in BASE_WIDTHS:
            raise ValueError("a figure's base is 0.5, 0.75, 1 or 1.5 inch wide")
        return value

    @model_validator(mode="after")
    def _flying(self) -> UnitModel:
        if self.altitude != "ground" and not self.flyer:
            raise ValueError(f"{self.name} cannot fly, so its altitude must be ground")
        if self.lit and self.lights == 0:
            raise ValueError(f"{self.name} has no light sources to light")
        return self


class CaveInModel(_Strict):
    """A ceiling collapse the GM may bring down (earthquake, transmute rock to mud)."""

    area: str
    material: Literal["rock", "mud"] = "rock"
    turn: int | None = Field(None, ge=1)


class GasModel(_Strict):
    """A gaseous spell the GM may release: diameter in inches, duration in turns."""

    area: str
    diameter: float = Field(gt=0, le=100)
    duration: int = Field(ge=1, le=100, description="turns on the surface")
    dice: int = Field(ge=1, le=100, description="dice of damage to each figure failing its save")
    turn: int | None = Field(None, ge=1)


class StrikeModel(_Strict):
    """An explosive spell (lightning bolt) the GM may aim at a fragile formation."""

    feature: str
    turn: int | None = Field(None, ge=1)


class GmModel(_Strict):
    """The DM: policy and the prepared effects it may use, each once."""

    policy: Policy = "heuristic"
    cave_ins: list[CaveInModel] = []
    gases: list[GasModel] = []
    strikes: list[StrikeModel] = []


class BattlesystemScenario(ScenarioBase):
    """A BATTLESYSTEM underground battle."""

    max_turns: int = Field(20, ge=1, le=500)
    areas: list[AreaModel] = Field(min_length=1)
    links: list[LinkModel] = Field(default_factory=lambda: [])
    sides: list[SideModel] = Field(min_length=2)
    units: list[UnitModel] = Field(min_length=2)
    gm: GmModel = GmModel()

    @model_validator(mode="after")
    def _references(self) -> BattlesystemScenario:
        areas = {a.name: a for a in self.areas}
        if len(areas) != len(self.areas):
            raise ValueError("area names must be unique")
        for link in self.links:
            for end in (link.a, link.b):
                if end not in areas:
                    raise ValueError(f"link names unknown area {end!r}")
            if link.a == link.b:
                raise ValueError(f"a link joins an area to itself ({link.a!r})")
        linked = {(lk.a, lk.b) for lk in self.links} | {(lk.b, lk.a) for lk in self.links}
        for area in self.areas:
            if area.wind_to is not None and (area.name, area.wind_to) not in linked:
                raise ValueError(f"area {area.name}: wind_to must name a linked area, "
                                 f"not {area.wind_to!r}")
        features = [f.name for a in self.areas for f in a.features]
        if len(set(features)) != len(features):
            raise ValueError("feature names must be unique")
        sides = {s.name for s in self.sides}
        if len(sides) != len(self.sides):
            raise ValueError("side names must be unique")
        names = [u.name for u in self.units]
        if len(set(names)) != len(names) or "gm" in names:
            raise ValueError("unit names must be unique and not 'gm'")
        for side in self.sides:
            if side.retreat not in areas:
                raise ValueError(f"side {side.name}: retreat names unknown area {side.retreat!r}")
            leaders = [u.name for u in self.units if u.side == side.name]
            if side.leader is not None and side.leader not in leaders:
                raise ValueError(f"side {side.name}: leader must be one of its own units, "
                                 f"not {side.leader!r}")
        for unit in self.units:
            if unit.side not in sides:
                raise ValueError(f"unit {unit.name}: unknown side {unit.side!r}")
            if unit.area not in areas:
                raise ValueError(f"unit {unit.name}: unknown area {unit.area!r}")
            if unit.altitude not in allowed_altitudes(areas[unit.area].ceiling):
                raise ValueError(f"unit {unit.name}: the ceiling of {unit.area} is too low "
                                 f"for {unit.altitude} altitude")
        for area_name in [c.area for c in self.gm.cave_ins] + [g.area for g in self.gm.gases]:
            if area_name not in areas:
                raise ValueError(f"gm effect names unknown area {area_name!r}")
        for strike in self.gm.strikes:
            if strike.feature not in features:
                raise ValueError(f"gm strike names unknown feature {strike.feature!r}")
        try:
            build_state(self)
        except ScenarioError as exc:
            raise ValueError(exc.reason) from None
        return self


# -- the starting state ----------------------------------------------------------


def figure_hit_dice(model: UnitModel) -> tuple[int, int]:
    """(creatures per figure, Hit Dice per figure) of a unit (core, ours).

    Creatures per figure come from the scenario or from the creature's Hit Dice
    (see :func:`rules.creatures_per_figure`); a figure's Hit Dice are the
    creatures' total, at least 1.
    """
    creatures = model.creatures_per_figure or creatures_per_figure(model.hd)
    return creatures, max(1, round(creatures * model.hd))


def _battlefield(scenario: BattlesystemScenario) -> Battlefield:
    areas: dict[str, Area] = {}
    for a in scenario.areas:
        ob = a.obstacle
        areas[a.name] = Area(a.name, a.kind, a.width, a.length, a.ceiling, a.airflow, a.wind_to,
                             a.lit, ob.kind if ob else None, ob.dice if ob else 0,
                             ob.halts if ob else False, tuple(f.name for f in a.features))
    links: dict[str, list[Link]] = {name: [] for name in areas}
    for link in scenario.links:
        links[link.a].append(Link(link.b, link.bend))
        links[link.b].append(Link(link.a, link.bend))
    # Areas in breadth-first order from the first one: the order the map is drawn in.
    order: list[str] = []
    for start in areas:
        if start in order:
            continue
        queue = deque([start])
        order.append(start)
        while queue:
            here = queue.popleft()
            for lk in links[here]:
                if lk.to not in order:
                    order.append(lk.to)
                    queue.append(lk.to)
    return Battlefield(areas, {k: tuple(v) for k, v in links.items()}, tuple(order))


def _unit(model: UnitModel) -> Unit:
    creatures, hd = figure_hit_dice(model)
    missile = model.missile
    stats = UnitStats(
        model.name, model.side, hd, creatures, model.base, model.ac, model.thac0, model.damage,
        model.movement, model.morale, model.save, model.frontage, model.infravision,
        model.lights, missile.range if missile else 0.0, missile.damage if missile else 0,
        model.flyer, model.heavy, model.gas_immune, model.orders == "hold", model.figures,
    )
    return Unit(stats, model.area, model.figures, model.formation, altitude=model.altitude,
                lit=model.lit)


def build_state(scenario: BattlesystemScenario) -> BattlesystemState:
    """The starting state; refuses a placement where a unit does not fit its area."""
    board = _battlefield(scenario)
    features = {f.name: Feature(f.name, a.name, f.kind, f.chance)
                for a in scenario.areas for f in a.features}
    gm = scenario.gm
    policies: dict[str, str | tuple[str, ...]] = {
        u.name: u.policy if isinstance(u.policy, str) else tuple(u.policy)
        for u in scenario.units}
    policies["gm"] = gm.policy if isinstance(gm.policy, str) else tuple(gm.policy)
    state = BattlesystemState(
        board=board,
        sides=tuple(Side(s.name, s.retreat, s.leader, s.command_radius) for s in scenario.sides),
        units={u.name: _unit(u) for u in scenario.units},
        features=features,
        max_turns=scenario.max_turns,
        gm_cave_ins=tuple((c.area, c.material, c.turn) for c in gm.cave_ins),
        gm_gases=tuple((g.area, g.diameter, g.duration, g.dice, g.turn) for g in gm.gases),
        gm_strikes=tuple((s.feature, s.turn) for s in gm.strikes),
        policies=policies,
        search=search_pairs(scenario),
    )
    _check_placement(state)
    return state


def _check_placement(state: BattlesystemState) -> None:
    for unit in state.units.values():
        area = state.board.areas[unit.area]
        if not fits_width(unit, area):
            raise ScenarioError(
                f"{unit.name} in {unit.formation} formation is wider than {area.name} "
                f"({area.width} inch); place it in column", field=f"units[{unit.name}].formation")
    for name, area in state.board.areas.items():
        if used_surface(state, name) > area.surface + 1e-9:
            raise ScenarioError(f"the units placed in {name} do not fit in it",
                                field=f"areas[{name}]")


def combatant_count(scenario: BattlesystemScenario) -> int:
    """How many units the battle starts with (its state built, as the rule set does)."""
    return len(build_state(scenario).units)


#: Validation's light entry (:class:`fracas.scenario.ScenarioEntry`): no engine module.
entry = ScenarioEntry(BattlesystemScenario, combatant_count)


# The checks of this rule set's scenarios that warn of traps, registered with the model.
from fracas.rules.battlesystem import traps as _traps  # noqa: E402, F401
