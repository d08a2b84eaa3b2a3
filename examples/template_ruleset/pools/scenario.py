"""The scenario file's shape (validated by pydantic) and the starting state built from it."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from fracas.scenario import ScenarioBase, ScenarioEntry, search_pairs
from pools.state import Fighter, PoolsState


class FighterModel(BaseModel):
    """One fighter as the scenario writes it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1)
    side: str = Field(min_length=1)
    dice: int = Field(ge=1, le=12, description="d6 pool rolled or kept back each turn")
    wounds: int = Field(ge=1, le=99, description="wounds it can take before it falls")
    policy: Literal["heuristic", "search", "random", "human"] = "heuristic"


class PoolsScenario(ScenarioBase):
    """A Pools fight: the fighters in turn order and a round limit."""

    fighters: list[FighterModel] = Field(min_length=2)
    max_rounds: int = Field(default=30, ge=1)


def initial_state(scenario: PoolsScenario) -> PoolsState:
    """The state before the first turn."""
    fighters = {f.name: Fighter(f.name, f.side, f.dice, f.wounds, f.wounds)
                for f in scenario.fighters}
    return PoolsState(fighters=fighters, order=[f.name for f in scenario.fighters],
                      policies={f.name: f.policy for f in scenario.fighters},
                      max_rounds=scenario.max_rounds, search=search_pairs(scenario))


def combatant_count(scenario: PoolsScenario) -> int:
    """How many fighters the fight starts with (its state built, as the rule set does)."""
    return len(initial_state(scenario).fighters)


#: Validation's light entry (``scenario_entry()`` in ``__init__.py``): no engine module.
entry = ScenarioEntry(PoolsScenario, combatant_count)
