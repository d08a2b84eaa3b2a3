"""Pools: the template rule set.  Copy this folder to start a new rule set.

Two or more fighters roll d6 pools at each other: every die showing 4+ is a hit,
and the dice a fighter keeps back guard it until its next turn.  Each file has
one role; ``docs/DEVELOPING.md`` ("Adding a rule set") walks through them.

The names below are read from their modules on first use, so that validating a
scenario (:func:`scenario_entry`) loads the scenario model and the starting state,
not the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fracas.scenario.loader import ScenarioEntry
    from pools.ruleset import Pools
    from pools.scenario import PoolsScenario

__all__ = ["Pools", "PoolsScenario", "scenario_entry"]


def scenario_entry() -> ScenarioEntry:
    """What validating a scenario needs: the model and the count of combatants it starts."""
    from pools.scenario import entry

    return entry


def __getattr__(name: str) -> Any:
    """The rule set's public names, imported when first asked for."""
    value: Any
    if name == "Pools":
        from pools.ruleset import Pools as value
    elif name == "PoolsScenario":
        from pools.scenario import PoolsScenario as value
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
