"""The BATTLESYSTEM underground scenario file: battlefield, sides, units and GM effects."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from fracas.rules.battlesystem.rules import BASE_WIDTHS, allowed_altitudes
from fracas.scenario import ScenarioBase

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
    "SideModel",
    "UnitModel",
]

Policy = Literal["heuristic", "search", "random", "human"] | list[str]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


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
    links: list[LinkModel] = Field(default_factory=list)
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
        from fracas.core.errors import ScenarioError
        from fracas.rules.battlesystem.setup import build_state

        try:
            build_state(self)
        except ScenarioError as exc:
            raise ValueError(exc.reason) from None
        return self
