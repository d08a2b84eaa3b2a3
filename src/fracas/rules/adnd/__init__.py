"""AD&D underground skirmish combat: sheer walls, ledges and bridges, falls, water, bottlenecks.

The rule set plays the individual-combat half of seed 002 on the AD&D core
fixed in the project's rulings (THAC0 and descending Armor Class, saving throws
by category, ability and climbing checks, holding one's breath).

The names below are read from their modules on first use, so that validating a
scenario (:func:`scenario_entry`) loads the scenario model and the starting state,
not the engine (resolution, policies, view, odds).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fracas.rules.adnd.ruleset import AdndUnderground
    from fracas.rules.adnd.scenario import AdndScenario
    from fracas.rules.adnd.state import AdndState, AdndUndergroundState
    from fracas.scenario.loader import ScenarioEntry

__all__ = ["AdndScenario", "AdndState", "AdndUnderground", "AdndUndergroundState", "scenario_entry"]


def scenario_entry() -> ScenarioEntry:
    """What validating a scenario needs: the model and the count of combatants it starts."""
    from fracas.rules.adnd.scenario import entry

    return entry


def __getattr__(name: str) -> Any:
    """The rule set's public names, imported when first asked for."""
    value: Any
    if name == "AdndScenario":
        from fracas.rules.adnd.scenario import AdndScenario as value
    elif name == "AdndState":
        from fracas.rules.adnd.state import AdndState as value
    elif name == "AdndUnderground":
        from fracas.rules.adnd.ruleset import AdndUnderground as value
    elif name == "AdndUndergroundState":
        from fracas.rules.adnd.state import AdndUndergroundState as value
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
