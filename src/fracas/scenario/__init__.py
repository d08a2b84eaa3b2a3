"""Scenario files: YAML -> validated pydantic model -> starting state.

Every error names the file, the line and the field, so a GM can fix a typo
without reading a traceback.
"""

from fracas.scenario.loader import (
    CheckedScenario,
    Scenario,
    ScenarioBase,
    ScenarioEntry,
    SearchSettings,
    build_initial_state,
    check_scenario,
    load_scenario,
    parse_scenario,
    search_pairs,
    start_encounter,
)

__all__ = [
    "CheckedScenario",
    "Scenario",
    "ScenarioBase",
    "ScenarioEntry",
    "SearchSettings",
    "build_initial_state",
    "check_scenario",
    "load_scenario",
    "parse_scenario",
    "search_pairs",
    "start_encounter",
]
