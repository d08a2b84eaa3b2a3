"""The Age of Dragons scenario file (combatants, landmarks, ranges, options) and the state it
starts."""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from fracas.core.action import GM
from fracas.rules.age_of_dragons.state import (
    ALTITUDES,
    RANGES,
    AgeOfDragonsState,
    Fighter,
    Profile,
    RangedAttack,
    RerollAbility,
    Task,
    pair,
)
from fracas.scenario import ScenarioBase, ScenarioEntry, search_pairs
from fracas.scenario.reference import register_names

__all__ = ["POLICY_NAMES", "AgeOfDragonsScenario", "CombatantSpec", "build_state",
           "combatant_count", "entry"]

Sphere = Literal["soma", "sophis", "pneuma"]
RangeName = Literal["zero", "close", "middle", "long", "disengaged"]
AltitudeName = Literal["grounded", "strafing_low", "normal", "flying_high", "ceiling"]
Ground = Literal["soft", "bare_rock", "jagged_rock", "spikes"]
_NUMERIC_ALTITUDES = {0: "grounded", 0.5: "strafing_low", 1: "normal", 2: "flying_high",
                      3: "ceiling"}


#: The policies a combatant may name (a script is a list of action texts instead).
POLICY_NAMES = ("heuristic", "claw_all", "search", "random", "human")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class RerollSpec(_Strict):
    """A reroll ability: each use rerolls one die and costs ``cost`` of ``resource``."""

    name: str
    resource: str
    cost: int = Field(ge=0)
    sphere: Sphere | None = None
    per_turn: int | None = Field(default=None, ge=1)


class RangedSpec(_Strict):
    """A ranged weapon or power (an area power strikes every member of a grapple)."""

    name: str
    sphere: Sphere = "soma"
    reach: Literal["close", "middle", "long"] = "middle"
    damage_bonus: int = Field(0, ge=-30, le=30)
    area: bool = False


class TaskSpec(_Strict):
    """A non-attack battle action the GM sets up: hits needed on dice of a sphere."""

    name: str
    difficulty: int = Field(ge=1)
    sphere: Sphere = "soma"
    threshold: int = Field(default=4, ge=1, le=6)
    description: str = ""


class LandmarkSpec(_Strict):
    """A fixed point of reference; ``ground`` sets how hard a forced landing near it is."""

    name: str
    ground: Ground | None = None
    description: str = ""


class RangeSpec(_Strict):
    """The range band between two combatants, or a combatant and a landmark."""

    # Two landmarks may be named too: the GM describes how far apart the landmarks are.

    between: tuple[str, str]
    range: RangeName


class CombatantSpec(_Strict):
    """One combatant: ratings, Physical Defence and Resilience, position, abilities, policy."""

    name: str
    side: str
    soma: int = Field(ge=0, le=30)
    sophis: int = Field(default=0, ge=0, le=30)
    pneuma: int = Field(default=0, ge=0, le=30)
    pd: int = Field(default=0, ge=0, le=50, description="passive Physical Defence")
    pr: int = Field(ge=1, le=500, description="Physical Resilience")
    altitude: AltitudeName = "grounded"
    flies: bool = True
    policy: str | list[str] = "heuristic"
    resources: dict[str, Annotated[int, Field(ge=0, le=1000)]] = Field(default_factory=lambda: {})
    rerolls: list[RerollSpec] = Field(default_factory=lambda: [])
    ranged: list[RangedSpec] = Field(default_factory=lambda: [])

    @field_validator("altitude", mode="before")
    @classmethod
    def _numeric_altitude(cls, value: object) -> object:
        if isinstance(value, int | float) and not isinstance(value, bool):
            if value not in _NUMERIC_ALTITUDES:
                raise ValueError("altitude must be 0, 0.5, 1, 2 or 3 (or a level's name)")
            return _NUMERIC_ALTITUDES[value]
        return value

    @field_validator("policy")
    @classmethod
    def _known_policy(cls, value: str | list[str]) -> str | list[str]:
        if isinstance(value, str) and value not in POLICY_NAMES:
            raise ValueError(f"unknown policy {value!r}; use one of {', '.join(POLICY_NAMES)} "
                             "or a list of actions")
        return value

    @model_validator(mode="after")
    def _grounded_if_wingless(self) -> Self:
        if not self.flies and self.altitude != "grounded":
            raise ValueError("a combatant that cannot fly must start grounded")
        return self

    @model_validator(mode="after")
    def _unique_abilities(self) -> Self:
        # Actions name a reroll ability or a weapon: two of one name would be ambiguous.
        for what, names in (("reroll abilities", [x.name for x in self.rerolls]),
                            ("ranged weapons", [w.name for w in self.ranged])):
            repeated = sorted({n for n in names if names.count(n) > 1})
            if repeated:
                raise ValueError(f"{what} need unique names: {', '.join(repeated)} repeated")
        return self


class OptionsSpec(_Strict):
    """Named variants of the rules (see docs/rules/age_of_dragons.md)."""

    spot_consumes_dice: bool = False


class AgeOfDragonsScenario(ScenarioBase):
    """An Age of Dragons skirmish."""

    ruleset: Literal["age_of_dragons"]
    combatants: list[CombatantSpec] = Field(min_length=2)
    landmarks: list[LandmarkSpec] = Field(default_factory=lambda: [])
    ranges: list[RangeSpec] = Field(default_factory=lambda: [])
    default_range: RangeName = "middle"
    aggressor: str | None = None
    initiative_sphere: Sphere = "soma"
    ground: Ground = "soft"
    max_rounds: int = Field(default=100, ge=1, le=10_000)
    tasks: list[TaskSpec] = Field(default_factory=lambda: [])
    options: OptionsSpec = Field(default_factory=lambda: OptionsSpec())

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        names = [c.name for c in self.combatants]
        if GM in names:
            raise ValueError(f"{GM!r} names the game master; choose another combatant name")
        tasks = [t.name for t in self.tasks]
        repeated = sorted({t for t in tasks if tasks.count(t) > 1})
        if repeated:
            raise ValueError(f"tasks need unique names: {', '.join(repeated)} repeated")
        places = names + [m.name for m in self.landmarks]
        duplicates = {n for n in places if places.count(n) > 1}
        if duplicates:
            raise ValueError(f"names must be unique: {', '.join(sorted(duplicates))} repeated")
        if len({c.side for c in self.combatants}) < 2:
            raise ValueError("a fight needs combatants on at least two sides")
        if self.aggressor is not None and self.aggressor not in {c.side for c in self.combatants}:
            raise ValueError(f"aggressor {self.aggressor!r} is not a side of any combatant")
        fighters = set(names)
        problems = []
        for i, spec in enumerate(self.ranges):
            a, b = spec.between
            unknown = [n for n in spec.between if n not in places]
            if unknown:
                message = f"range names {unknown[0]!r}, which is no combatant or landmark"
            elif a == b:
                message = f"a range needs two different names, got {a!r} twice"
            elif spec.range == "zero" and (a in fighters or b in fighters):
                message = (f"{a} and {b} cannot start at zero range: only a grapple brings "
                           "combatants there")
            else:
                continue
            problems.append(InitErrorDetails(
                type=PydanticCustomError("value_error", message), loc=("ranges", i, "between"),
                input=list(spec.between)))
        if problems:
            # Each range problem is reported at its own entry (so at its own line).
            raise ValidationError.from_exception_data(type(self).__name__, problems)
        return self



def _profile(spec: CombatantSpec) -> Profile:
    policy, script = (spec.policy, ()) if isinstance(spec.policy, str) else \
        ("scripted", tuple(spec.policy))
    return Profile(
        spec.name, spec.side, spec.soma, spec.sophis, spec.pneuma, spec.pd, spec.pr,
        spec.flies, policy, script,
        tuple(RerollAbility(x.name, x.resource, x.cost, x.sphere, x.per_turn)
              for x in spec.rerolls),
        tuple(RangedAttack(w.name, w.sphere, RANGES.index(w.reach), w.damage_bonus, w.area)
              for w in spec.ranged),
    )


def build_state(s: AgeOfDragonsScenario) -> AgeOfDragonsState:
    """The starting state of a validated scenario."""
    fighters = {
        c.name: Fighter(_profile(c), c.pr, c.pd, ALTITUDES.index(c.altitude),
                        dict(c.resources))
        for c in s.combatants
    }
    places = [*fighters, *(m.name for m in s.landmarks)]
    default = RANGES.index(s.default_range)
    ranges = {pair(a, b): default for i, a in enumerate(places) for b in places[i + 1:]
              if a in fighters or b in fighters}
    # The distance between two landmarks is the GM's description of the field: kept as
    # set (nothing moves a landmark), never defaulted.
    for spec in s.ranges:
        ranges[pair(*spec.between)] = RANGES.index(spec.range)
    return AgeOfDragonsState(
        fighters=fighters, ranges=ranges, grapples=set(),
        landmarks={m.name: m.ground for m in s.landmarks},
        tasks={t.name: Task(t.name, t.difficulty, t.sphere, t.threshold, t.description)
               for t in s.tasks},
        aggressor=s.aggressor, initiative_sphere=s.initiative_sphere, ground=s.ground,
        max_rounds=s.max_rounds, spot_consumes_dice=s.options.spot_consumes_dice,
        search=search_pairs(s),
    )


def combatant_count(s: AgeOfDragonsScenario) -> int:
    """How many combatants the fight starts with (its state built, as the rule set does)."""
    return len(build_state(s).fighters)


#: Validation's light entry (:class:`fracas.scenario.ScenarioEntry`): no engine module.
entry = ScenarioEntry(AgeOfDragonsScenario, combatant_count)


# The checks of this rule set's scenarios that warn of traps, registered with the model.
from fracas.rules.age_of_dragons import traps as _traps  # noqa: E402, F401


# The names the schema lists, for editors to complete (a script stays free text).
@register_names("age_of_dragons")
def _age_of_dragons_names() -> dict[str, list[str]]:
    return {"CombatantSpec.policy": list(POLICY_NAMES)}
