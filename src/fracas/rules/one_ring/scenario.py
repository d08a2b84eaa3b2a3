"""The One Ring scenario file: the Company, the adversaries and how the fight opens."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from fracas.core.action import Action
from fracas.core.codec import parse_fields, split_words
from fracas.core.errors import ActionSyntaxError
from fracas.rules.one_ring.catalogue import CATEGORIES, FoeWeapon, catalogue
from fracas.rules.one_ring.state import (
    HELM,
    SHIELD,
    FoeCard,
    FoeState,
    HeroCard,
    HeroState,
    OneRingState,
    Roster,
)
from fracas.scenario import ScenarioBase, ScenarioEntry, search_pairs
from fracas.scenario.reference import register_names

__all__ = ["AdversarySpec", "HeroSpec", "OneRingScenario", "PolicyChoice", "PolicyName",
           "combatant_count", "entry"]

PolicyName = Literal["heuristic", "search", "random", "human"]
PolicyChoice = PolicyName | list[str]
SKILLS: tuple[str, ...] = ("awe", "enhearten", "athletics", "scan")


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class HeroSpec(_Spec):
    """A player-hero: attributes, Endurance, Hope, Parry, gear, proficiencies and skills."""

    name: str = Field(min_length=1)
    strength: int = Field(ge=1, le=12)
    heart: int = Field(ge=1, le=12)
    wits: int = Field(ge=1, le=12)
    endurance: int = Field(ge=1, le=200)
    hope: int = Field(default=10, ge=0, le=50)
    shadow: int = Field(default=0, ge=0, le=50)
    parry: int | None = Field(default=None, ge=0, le=40)
    armour: str = "none"
    helm: bool = False
    shield: str | None = None
    weapons: list[str] = Field(min_length=1)
    proficiencies: dict[str, int] = Field(default_factory=lambda: {})
    skills: dict[str, int] = Field(default_factory=lambda: {})
    aware: bool = True
    weary: bool = False
    miserable: bool = False
    wounds: int = Field(default=0, ge=0, le=1)
    fatigue: int = Field(default=0, ge=0, le=60)
    policy: PolicyChoice = "heuristic"

    @field_validator("armour")
    @classmethod
    def _known_armour(cls, value: str) -> str:
        known = catalogue().armour
        if value not in known:
            raise ValueError(f"unknown armour {value!r}; known: {', '.join(sorted(known))}")
        return value

    @field_validator("shield")
    @classmethod
    def _known_shield(cls, value: str | None) -> str | None:
        known = catalogue().shields
        if value is not None and value not in known:
            raise ValueError(f"unknown shield {value!r}; known: {', '.join(sorted(known))}")
        return value

    @field_validator("weapons")
    @classmethod
    def _known_weapons(cls, value: list[str]) -> list[str]:
        known = catalogue().weapons
        for name in value:
            if name not in known:
                raise ValueError(f"unknown weapon {name!r}; known: {', '.join(sorted(known))}")
        if len(set(value)) != len(value):
            raise ValueError("a weapon is listed twice")
        return value

    @field_validator("policy")
    @classmethod
    def _script(cls, value: PolicyChoice, info: ValidationInfo) -> PolicyChoice:
        if isinstance(value, list):
            _check_script(str(info.data.get("name", "")), value)
        return value

    @field_validator("proficiencies")
    @classmethod
    def _proficiencies(cls, value: dict[str, int]) -> dict[str, int]:
        return _ratings(value, CATEGORIES, "proficiency")

    @field_validator("skills")
    @classmethod
    def _skills(cls, value: dict[str, int]) -> dict[str, int]:
        return _ratings(value, SKILLS, "skill")


def _ratings(value: dict[str, int], allowed: tuple[str, ...], what: str) -> dict[str, int]:
    for key, rating in value.items():
        if key not in allowed:
            raise ValueError(f"unknown {what} {key!r}; known: {', '.join(allowed)}")
        if not 0 <= rating <= 6:
            raise ValueError(f"{what} {key} must be between 0 and 6, got {rating}")
    return value


class AdversarySpec(_Spec):
    """Adversaries: a catalogue ``kind`` (with optional overrides) or full stats; ``count`` copies.

    With ``count`` above 1 the copies are named ``<name>-1``, ``<name>-2``, ...
    """

    name: str = Field(min_length=1)
    kind: str | None = None
    count: int = Field(default=1, ge=1, le=50)
    attribute_level: int | None = Field(default=None, ge=1, le=20)
    endurance: int | None = Field(default=None, ge=1, le=300)
    might: int | None = Field(default=None, ge=1, le=10)
    hate: int | None = Field(default=None, ge=0, le=50)
    hate_label: Literal["hate", "resolve"] | None = None
    parry: int | None = Field(default=None, ge=0, le=20)
    armour: int | None = Field(default=None, ge=0, le=10)
    size: Literal["human", "large"] | None = None
    weapons: list[FoeWeapon] | None = None
    eligible: bool = True

    @model_validator(mode="after")
    def _kind_or_stats(self) -> AdversarySpec:
        if self.weapons is not None and not self.weapons:
            raise ValueError("an adversary needs at least one weapon")
        if self.kind is not None:
            known = catalogue().adversaries
            if self.kind not in known:
                raise ValueError(
                    f"unknown adversary kind {self.kind!r}; known: {', '.join(sorted(known))}")
            return self
        missing = [f for f in ("attribute_level", "endurance", "might", "hate", "parry",
                               "armour", "weapons") if getattr(self, f) is None]
        if missing:
            raise ValueError(f"without a 'kind' these fields are needed: {', '.join(missing)}")
        return self

    def names(self) -> list[str]:
        """The names of the adversaries this entry stands for."""
        if self.count == 1:
            return [self.name]
        return [f"{self.name}-{i}" for i in range(1, self.count + 1)]


class OneRingScenario(ScenarioBase):
    """A One Ring fight: Company, adversaries, the opening volleys and the policies.

    ``volleys`` is a number, or ``gm`` to let the Loremaster decide (at most
    ``max_volleys``; the heuristic Loremaster allows two at ``long`` distance).
    """

    heroes: list[HeroSpec] = Field(min_length=1)
    adversaries: list[AdversarySpec] = Field(min_length=1)
    volleys: int | Literal["gm"] = 1
    max_volleys: int = Field(default=3, ge=0, le=10)
    distance: Literal["close", "long"] = "close"
    enemy_volleys_first: bool = False
    max_rounds: int = Field(default=30, ge=1, le=500)
    gm_policy: PolicyChoice = "heuristic"
    gm_rolls_hidden: bool = False

    @field_validator("volleys")
    @classmethod
    def _volleys(cls, value: int | str) -> int | str:
        if isinstance(value, int) and not 0 <= value <= 10:
            raise ValueError(f"volleys must be between 0 and 10 (or 'gm'), got {value}")
        return value

    @field_validator("gm_policy")
    @classmethod
    def _gm_script(cls, value: PolicyChoice) -> PolicyChoice:
        if isinstance(value, list):
            _check_script("gm", value)
        return value

    @model_validator(mode="after")
    def _unique_names(self) -> OneRingScenario:
        seen: set[str] = {"gm"}
        for name in [h.name for h in self.heroes] + [
                n for a in self.adversaries for n in a.names()]:
            if name in seen:
                raise ValueError(f"the name {name!r} is used twice (or is the reserved 'gm')")
            if any(c.isspace() or c in "=,'\"" for c in name):
                raise ValueError(
                    f"the name {name!r} may not contain spaces or other blanks, '=', ',' or quotes")
            seen.add(name)
        return self


def _check_script(actor: str, texts: list[str]) -> None:
    """Every scripted decision must parse and be the actor's own."""
    for i, text in enumerate(texts, start=1):
        try:
            action = parse_action(text)
        except ActionSyntaxError as exc:
            raise ValueError(f"scripted decision {i} of {actor}: {exc}") from None
        if action.actor != actor:
            raise ValueError(f"scripted decision {i} of {actor} is for {action.actor!r}")


def parse_action(text: str) -> Action:
    """``actor verb key=value ...`` as one of the rule set's actions (what
    ``OneRing().parse_action`` does, without importing the plug-in class)."""
    words = split_words(text)
    if len(words) < 2:
        raise ActionSyntaxError(f"expected 'ACTOR VERB [key=value ...]', got {text!r}")
    from fracas.rules.one_ring.actions import ACTIONS  # only a scenario with a script

    table = {cls.verb: cls for cls in ACTIONS}
    cls = table.get(words[1])
    if cls is None:
        raise ActionSyntaxError(
            f"unknown action {words[1]!r}; one_ring knows: {', '.join(sorted(table))}")
    action: Action = parse_fields(cls, words[2:], {"actor": words[0]})
    return action


# -- building the starting state -------------------------------------------------

def _policy_value(choice: str | list[str]) -> str | tuple[str, ...]:
    return choice if isinstance(choice, str) else tuple(choice)


def _hero_card(spec: HeroSpec) -> HeroCard:
    cat = catalogue()
    armour = cat.armour[spec.armour]
    shield = cat.shields[spec.shield] if spec.shield else None
    weapons = tuple(cat.weapons[name] for name in spec.weapons)
    loads = {w.name: w.load for w in weapons}
    if spec.helm:
        loads[HELM] = cat.helm.load
    if shield is not None:
        loads[SHIELD] = shield.load
    return HeroCard(
        name=spec.name, strength=spec.strength, heart=spec.heart, wits=spec.wits,
        endurance_max=spec.endurance, hope_max=spec.hope, shadow=spec.shadow,
        parry=spec.parry if spec.parry is not None else 12 + spec.wits,
        armour_dice=armour.protection, helm_dice=cat.helm.protection if spec.helm else 0,
        shield_bonus=shield.parry if shield else 0, base_load=armour.load + spec.fatigue,
        weapons=weapons, item_loads=loads, proficiencies=dict(spec.proficiencies),
        skills=dict(spec.skills), aware=spec.aware, always_weary=spec.weary,
        always_miserable=spec.miserable, policy=_policy_value(spec.policy),
    )


def _foe_cards(spec: AdversarySpec) -> list[FoeCard]:
    base = catalogue().adversaries[spec.kind] if spec.kind else None

    def pick(field: str) -> Any:
        value = getattr(spec, field)
        if value is not None or base is None:
            return value
        return getattr(base, field)

    weapons = tuple(spec.weapons) if spec.weapons is not None else pick("weapons")
    return [FoeCard(
        name=name, kind=spec.kind or spec.name, attribute_level=pick("attribute_level"),
        endurance_max=pick("endurance"), might=pick("might"), hate_max=pick("hate"),
        hate_label=pick("hate_label") or "hate", parry=pick("parry"), armour=pick("armour"),
        large=(pick("size") or "human") == "large", eligible=spec.eligible, weapons=weapons,
    ) for name in spec.names()]


def build_state(scenario: OneRingScenario) -> OneRingState:
    """Cards from the scenario and catalogue; every combatant fresh (bar starting Wounds)."""
    heroes = {h.name: _hero_card(h) for h in scenario.heroes}
    foes = {c.name: c for spec in scenario.adversaries for c in _foe_cards(spec)}
    roster = Roster(
        heroes=heroes, foes=foes, hero_order=tuple(heroes), foe_order=tuple(foes),
        volleys=scenario.volleys if isinstance(scenario.volleys, int) else None,
        max_volleys=scenario.max_volleys, long_distance=scenario.distance == "long",
        enemy_volleys_first=scenario.enemy_volleys_first, max_rounds=scenario.max_rounds,
        gm_policy=_policy_value(scenario.gm_policy), gm_hidden=scenario.gm_rolls_hidden,
        search=search_pairs(scenario),
    )
    wounds = {h.name: h.wounds for h in scenario.heroes}
    hero_states = {}
    for name, card in heroes.items():
        first_close = next((w.name for w in card.weapons if not w.ranged),
                           card.weapons[0].name if card.weapons else None)
        hero_states[name] = HeroState(card.endurance_max, card.hope_max,
                                      wounds=wounds[name], wielded=first_close)
    foe_states = {n: FoeState(c.endurance_max, c.hate_max, eligible=c.eligible)
                  for n, c in foes.items()}
    return OneRingState(roster, hero_states, foe_states)


def combatant_count(scenario: OneRingScenario) -> int:
    """How many combatants the fight starts with (its state built, as the rule set does)."""
    roster = build_state(scenario).roster
    return len(roster.hero_order) + len(roster.foe_order)


#: Validation's light entry (:class:`fracas.scenario.ScenarioEntry`): no engine module.
entry = ScenarioEntry(OneRingScenario, combatant_count)


# The catalogue names the schema lists, for editors to complete.
@register_names("one_ring")
def _one_ring_names() -> dict[str, list[str]]:
    shipped = catalogue()
    return {
        "HeroSpec.weapons": sorted(shipped.weapons),
        "HeroSpec.armour": sorted(shipped.armour),
        "HeroSpec.shield": sorted(shipped.shields),
        "HeroSpec.proficiencies": list(CATEGORIES),
        "HeroSpec.skills": list(SKILLS),
        "AdversarySpec.kind": sorted(shipped.adversaries),
    }


# The checks of this rule set's scenarios that warn of traps, registered with the model.
from fracas.rules.one_ring import traps as _traps  # noqa: E402, F401
