"""The AD&D underground scenario file: combatants, their gear and the ground under their feet.

Every range the rules rely on is checked here, so a bad value is refused with
``file:line: field: message`` before a fight starts.  :func:`initial_state`
builds the starting state from a checked scenario.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from fracas.core.action import GM
from fracas.core.codec import parse_fields, split_words
from fracas.core.errors import ActionSyntaxError
from fracas.rules.adnd.rules import nature_rating
from fracas.rules.adnd.state import AdndUndergroundState, Fighter, Profile, Setup, Weapon
from fracas.scenario import ScenarioBase, ScenarioEntry, search_pairs

__all__ = [
    "AdndScenario",
    "BottleneckSpec",
    "CombatantSpec",
    "PolicyName",
    "SavesSpec",
    "TerrainSpec",
    "WeaponSpec",
    "combatant_count",
    "entry",
    "initial_state",
]

TerrainKind = Literal["open", "wall", "ledge", "bridge", "water"]
Behind = Literal["wall", "drop", "open"]
Nature = Literal["natural_climber", "sure_footed", "ordinary", "clumsy"]
PolicyName = Literal["heuristic", "search", "random", "human"]
#: Bounds on a weapon's damage dice.
MAX_DAMAGE_DICE = 100
MAX_DIE = 100


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class WeaponSpec(_Frozen):
    """A weapon: damage dice, length (for the dragging rule), magic bonus, hands, missile."""

    name: str = Field(min_length=1)
    damage: str = Field(default="1d6", pattern=r"^\d*d\d+([+-]\d+)?$")
    length_ft: float = Field(default=3.0, gt=0, le=25)
    magic: int = Field(default=0, ge=0, le=5)
    hands: Literal[1, 2] = 1
    missile: bool = False

    @model_validator(mode="after")
    def _dice(self) -> WeaponSpec:
        count, _, sides = self.damage.partition("d")
        sides = sides.replace("-", "+").split("+")[0]
        if not 1 <= int(count or 1) <= MAX_DAMAGE_DICE or not 2 <= int(sides) <= MAX_DIE:
            raise ValueError(f"damage {self.damage!r}: 1 to {MAX_DAMAGE_DICE} dice of "
                             f"2 to {MAX_DIE} sides")
        return self


class SavesSpec(_Frozen):
    """Saving throw numbers by category (roll this or more on d20)."""

    paralyzation: int = Field(default=14, ge=2, le=20)
    rod: int = Field(default=16, ge=2, le=20)
    petrification: int = Field(default=15, ge=2, le=20)
    breath: int = Field(default=17, ge=2, le=20)
    spell: int = Field(default=17, ge=2, le=20)


class TerrainSpec(_Frozen):
    """Where a combatant stands.

    ``alt_ft`` is the height above the floor below (a fall from here drops that
    far).  A wall climber may face the wall; a ledge or bridge has a drop-off
    ``edge_ft`` feet away (at most five, else it is open ground) and something at
    his back; water has a depth in feet, banded against the combatant's height.
    ``across_gap`` puts him where no melee reaches (a gallery across a chasm):
    he can shoot and be shot, never strike or be struck hand to hand.
    """

    kind: TerrainKind = "open"
    alt_ft: float = Field(default=0.0, ge=0, le=1000)
    top_ft: float | None = Field(default=None, ge=0, le=1000)
    facing_wall: bool = True
    edge_ft: float = Field(default=1.0, ge=0, le=5)
    behind: Behind | None = None
    depth_ft: float = Field(default=0.0, ge=0, le=100)
    across_gap: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> TerrainSpec:
        if self.kind == "water" and self.depth_ft <= 0:
            raise ValueError("water needs depth_ft above 0")
        if self.kind in ("ledge", "bridge") and self.alt_ft <= 0:
            raise ValueError(f"a {self.kind} needs alt_ft above 0 (the depth of the drop-off)")
        if self.top_ft is not None and self.top_ft < self.alt_ft:
            raise ValueError("top_ft is below alt_ft")
        return self


class CombatantSpec(_Frozen):
    """One fighter: AD&D statistics, gear, terrain and the policy that plays him."""

    name: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_\-]+$")
    side: str = Field(min_length=1)
    level: int = Field(default=1, ge=0, le=30)
    hp: int = Field(ge=1, le=500)
    thac0: int = Field(default=20, ge=1, le=25)
    ac: int = Field(default=10, ge=-10, le=10)
    shield_ac: int = Field(default=0, ge=0, le=5)
    dex_ac: int = Field(default=0, ge=0, le=5)
    dexterity: int = Field(default=10, ge=1, le=25)
    constitution: int = Field(default=10, ge=1, le=25)
    saves: SavesSpec = SavesSpec()
    climbing: int | None = Field(default=None, ge=0, le=99)
    nature: Nature = "ordinary"
    swimmer: bool = False
    aquatic: bool = False
    height_ft: float = Field(default=6.0, gt=0, le=60)
    frontage_ft: float = Field(default=3.0, gt=0, le=60)
    weapons: list[WeaponSpec] = Field(default_factory=lambda: [WeaponSpec(name="fist",
                                                                           damage="1d2",
                                                                           length_ft=1.0)])
    two_weapons: bool = False
    boulders: int = Field(default=0, ge=0, le=100)
    can_hurl: bool = False
    flanking: bool = False
    terrain: TerrainSpec = TerrainSpec()
    policy: PolicyName | list[str] = "heuristic"

    @model_validator(mode="after")
    def _consistent(self) -> CombatantSpec:
        if not self.weapons:
            raise ValueError("a combatant needs at least one weapon (fists count)")
        names = [w.name for w in self.weapons]
        if len(set(names)) != len(names):
            raise ValueError("weapon names must be unique")
        if self.ac + self.shield_ac + self.dex_ac > 10:
            raise ValueError("ac + shield_ac + dex_ac is above 10: the shield and Dexterity "
                             "parts must be included in ac")
        if self.two_weapons and sum(not w.missile for w in self.weapons) < 2:
            raise ValueError("two_weapons needs two melee weapons")
        if isinstance(self.policy, list):
            _check_script(self.policy, self.name)
        return self


def _check_script(lines: list[str], actor: str) -> None:
    """A scripted policy: each line must be one of ``actor``'s own actions."""
    from fracas.rules.adnd.actions import ACTIONS  # only a scenario with a script

    by_verb = {cls.verb: cls for cls in ACTIONS}
    verbs = set(by_verb)
    for number, line in enumerate(lines, start=1):
        words = line.split()
        if len(words) < 2 or words[0] != actor:
            raise ValueError(f"script line {number} {line!r} must start with {actor!r} and a verb")
        if words[1] not in verbs:
            raise ValueError(f"script line {number}: unknown action {words[1]!r}; known: "
                             + ", ".join(sorted(verbs)))
        try:
            parse_fields(by_verb[words[1]], split_words(line)[2:], {"actor": actor})
        except ActionSyntaxError as exc:
            raise ValueError(f"script line {number} {line!r}: {exc}") from None


class BottleneckSpec(_Frozen):
    """A narrow passage: only as many fighters as fit its width can melee across it."""

    width_ft: float = Field(gt=0, le=100)


class AdndScenario(ScenarioBase):
    """An AD&D underground skirmish."""

    combatants: list[CombatantSpec] = Field(min_length=2)
    bottleneck: BottleneckSpec | None = None
    max_rounds: int = Field(default=30, ge=1, le=1000)
    climb_step_ft: float = Field(default=5.0, gt=0, le=50)
    gm_policy: PolicyName | list[str] = "heuristic"

    @model_validator(mode="after")
    def _consistent(self) -> AdndScenario:
        names = [c.name for c in self.combatants]
        if len(set(names)) != len(names):
            raise ValueError("combatant names must be unique")
        if "gm" in names:
            raise ValueError("'gm' is the Dungeon Master's name; pick another")
        if len({c.side for c in self.combatants}) < 2:
            raise ValueError("a fight needs at least two sides")
        if isinstance(self.gm_policy, list):
            _check_script(self.gm_policy, "gm")
        return self


def initial_state(scenario: AdndScenario) -> AdndUndergroundState:
    """The starting state: profiles are built once and shared by every copy."""
    top = max(c.terrain.alt_ft for c in scenario.combatants)
    profiles = {c.name: _profile(c, top) for c in scenario.combatants}
    policies: dict[str, str | tuple[str, ...]] = {
        c.name: c.policy if isinstance(c.policy, str) else tuple(c.policy)
        for c in scenario.combatants}
    gm = scenario.gm_policy
    policies[GM] = gm if isinstance(gm, str) else tuple(gm)
    sides = tuple(dict.fromkeys(c.side for c in scenario.combatants))
    setup = Setup(profiles, tuple(profiles), sides,
                  scenario.bottleneck.width_ft if scenario.bottleneck else None,
                  scenario.max_rounds, scenario.climb_step_ft, policies,
                  search_pairs(scenario))
    fighters = {
        c.name: Fighter(c.name, c.hp, c.terrain.alt_ft, c.terrain.facing_wall, c.boulders,
                        next((w.name for w in c.weapons if not w.missile), "fist"))
        for c in scenario.combatants}
    return AdndUndergroundState(setup, fighters)


def _profile(c: CombatantSpec, top: float) -> Profile:
    weapons = tuple(Weapon.parse(w.name, w.damage, w.length_ft, w.magic, w.hands, w.missile)
                    for w in c.weapons)
    terrain = c.terrain
    behind = terrain.behind
    if behind is None:
        behind = "wall" if terrain.kind == "ledge" else "open"
    return Profile(
        name=c.name, side=c.side, level=c.level, hp_max=c.hp, thac0=c.thac0, ac=c.ac,
        shield_ac=c.shield_ac, dex_ac=c.dex_ac, dexterity=c.dexterity,
        constitution=c.constitution, saves=c.saves.model_dump(),
        climbing=c.climbing if c.climbing is not None else nature_rating(c.nature),
        at_home_in_water=c.swimmer or c.aquatic, height_ft=c.height_ft,
        frontage_ft=c.frontage_ft, weapons=weapons, two_weapons=c.two_weapons,
        can_hurl=c.can_hurl, flanking=c.flanking,
        top_ft=terrain.top_ft if terrain.top_ft is not None else max(top, terrain.alt_ft),
        kind=terrain.kind, edge_ft=terrain.edge_ft, behind=behind, depth_ft=terrain.depth_ft,
        across_gap=terrain.across_gap, has_melee=any(not w.missile for w in weapons))


def combatant_count(scenario: AdndScenario) -> int:
    """How many combatants the fight starts with (its state built, as the rule set does)."""
    return len(initial_state(scenario).fighters)


#: Validation's light entry (:class:`fracas.scenario.ScenarioEntry`): no engine module.
entry = ScenarioEntry(AdndScenario, combatant_count)


# The checks of this rule set's scenarios that warn of traps, registered with the model.
from fracas.rules.adnd import traps as _traps  # noqa: E402, F401
