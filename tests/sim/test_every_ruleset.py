"""The simulator drives every installed rule set's examples through the core API alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.shipped import SCENARIOS, example_id

from fracas.scenario import load_scenario
from fracas.sim import InlineExecutor, LocalExecutor, simulate, spec_from_scenario


@pytest.mark.slow
@pytest.mark.parametrize("path", SCENARIOS, ids=example_id)
def test_every_example_simulates_identically_in_one_process_and_in_two(path: Path) -> None:
    scenario = load_scenario(path)
    spec = spec_from_scenario(scenario)
    here = simulate(spec, 4, seed=13, executor=InlineExecutor())
    with LocalExecutor(2) as two:
        there = simulate(spec, 4, seed=13, executor=two)
    report = here.to_json(timing=False)
    assert report == there.to_json(timing=False)
    wins = sum(side["wins"] for side in report["sides"].values())
    assert wins + report["draws"] + report["unfinished"] == 4
    ruleset = scenario.ruleset
    names = {s.name for s in ruleset.standings(ruleset.initial_state(scenario.model))}
    assert set(report["combatants"]) == names
