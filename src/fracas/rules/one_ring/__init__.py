"""The One Ring (2nd edition) combat rules: volleys, stances, engagement and action order.

See ``docs/rules/one_ring.md`` for every rule, the code that implements it and the
test that pins it.

The names below are read from their modules on first use, so that validating a
scenario (:func:`scenario_entry`) loads the scenario model and the starting state,
not the engine (resolution, policies, view, odds).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fracas.rules.one_ring.ruleset import OneRing
    from fracas.rules.one_ring.scenario import OneRingScenario
    from fracas.rules.one_ring.state import OneRingState
    from fracas.scenario.loader import ScenarioEntry

__all__ = ["OneRing", "OneRingScenario", "OneRingState", "scenario_entry"]


def scenario_entry() -> ScenarioEntry:
    """What validating a scenario needs: the model and the count of combatants it starts."""
    from fracas.rules.one_ring.scenario import entry

    return entry


def __getattr__(name: str) -> Any:
    """The rule set's public names, imported when first asked for."""
    value: Any
    if name == "OneRing":
        from fracas.rules.one_ring.ruleset import OneRing as value
    elif name == "OneRingScenario":
        from fracas.rules.one_ring.scenario import OneRingScenario as value
    elif name == "OneRingState":
        from fracas.rules.one_ring.state import OneRingState as value
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
