"""BATTLESYSTEM mass combat underground: a compact mass-combat core plus the seed's options.

See ``docs/rules/battlesystem.md`` for every rule, the code that implements it
and the test that pins it.

The names below are read from their modules on first use, so that validating a
scenario (:func:`scenario_entry`) loads the scenario model and the starting state,
not the engine (resolution, policies, view, odds).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fracas.rules.battlesystem.ruleset import Battlesystem
    from fracas.rules.battlesystem.scenario import BattlesystemScenario
    from fracas.scenario.loader import ScenarioEntry

__all__ = ["Battlesystem", "BattlesystemScenario", "scenario_entry"]


def scenario_entry() -> ScenarioEntry:
    """What validating a scenario needs: the model and the count of combatants it starts."""
    from fracas.rules.battlesystem.scenario import entry

    return entry


def __getattr__(name: str) -> Any:
    """The rule set's public names, imported when first asked for."""
    value: Any
    if name == "Battlesystem":
        from fracas.rules.battlesystem.ruleset import Battlesystem as value
    elif name == "BattlesystemScenario":
        from fracas.rules.battlesystem.scenario import BattlesystemScenario as value
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
