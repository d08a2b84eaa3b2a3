"""Age of Dragons skirmish combat (seed 000): d6 pools, range bands, altitude, grapples.

The names below are read from their modules on first use, so that validating a
scenario (:func:`scenario_entry`) loads the scenario model and the starting state,
not the engine (resolution, policies, view, odds).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fracas.rules.age_of_dragons.ruleset import AgeOfDragons
    from fracas.rules.age_of_dragons.scenario import AgeOfDragonsScenario
    from fracas.scenario.loader import ScenarioEntry

__all__ = ["AgeOfDragons", "AgeOfDragonsScenario", "scenario_entry"]


def scenario_entry() -> ScenarioEntry:
    """What validating a scenario needs: the model and the count of combatants it starts."""
    from fracas.rules.age_of_dragons.scenario import entry

    return entry


def __getattr__(name: str) -> Any:
    """The rule set's public names, imported when first asked for."""
    value: Any
    if name == "AgeOfDragons":
        from fracas.rules.age_of_dragons.ruleset import AgeOfDragons as value
    elif name == "AgeOfDragonsScenario":
        from fracas.rules.age_of_dragons.scenario import AgeOfDragonsScenario as value
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
