"""Every shipped example of every rule set: the conformance kit and the command line.

One test for what the four rule sets used to test each in their own copy; what is
particular to a rule set (its promised examples, its map, its bad files) stays in
``tests/rules/<ruleset>/``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.fracas_cli import run_fracas
from tests.shipped import EXAMPLES, RULESETS, SCENARIOS, example_id

from fracas.core.policy import scenario_policies
from fracas.core.rng import policy_stream
from fracas.scenario import load_scenario, start_encounter
from fracas.testing import check_ruleset

#: The kit's settings where a rule set's fights are long (every legal action listed at
#: every decision of an Age of Dragons fight takes minutes; one example does it below).
KIT: dict[str, dict[str, Any]] = {
    "age_of_dragons": {"seeds": range(2), "check_all_legal": False, "undo_every": 5},
}


def test_every_rule_set_ships_examples() -> None:
    assert {path.parent.name for path in SCENARIOS} == set(RULESETS)


@pytest.mark.parametrize("path", SCENARIOS, ids=example_id)
def test_example_passes_the_conformance_kit(path: Path) -> None:
    settings = {"seeds": range(3), **KIT.get(path.parent.name, {})}
    report = check_ruleset(path.parent.name, path, **settings)
    assert report.fights == len(settings["seeds"]) and report.decisions > 0


def test_conformance_kit_with_every_legal_action_checked() -> None:
    report = check_ruleset("age_of_dragons", EXAMPLES / "age_of_dragons" / "grapple_brawl.yaml",
                           seeds=range(1))
    assert report.decisions > 0


@pytest.mark.parametrize("path", SCENARIOS, ids=example_id)
def test_example_validates_runs_saves_and_replays(path: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_fracas(["validate", str(path)], capsys)
    assert code == 0, err
    log = tmp_path / "fight.jsonl"
    code, out, err = run_fracas(["run", str(path), "--seed", "3", "--save", str(log)], capsys)
    assert code == 0, err
    assert "won after" in out or "draw" in out.lower(), out[-300:]
    code, out, err = run_fracas(["replay", str(log)], capsys)
    assert code == 0, err


@pytest.mark.parametrize("path", SCENARIOS, ids=example_id)
def test_run_json_prints_events_then_the_outcome(path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_fracas(["run", str(path), "--seed", "2", "--json"], capsys)
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[-1]["type"] == "outcome" and lines[-1]["reason"]
    assert any(line["type"] == "dice" for line in lines[:-1])


@pytest.mark.slow
@pytest.mark.parametrize("path", SCENARIOS, ids=example_id)
def test_heuristic_fights_rarely_end_at_the_round_or_turn_limit(path: Path) -> None:
    # Issue 15: no example ends at its limit in more than 1% of its own policies' fights.
    scenario = load_scenario(path)
    at_limit = 0
    for seed in range(300):
        enc = start_encounter(scenario, seed, keep_log=False)
        outcome = enc.play(scenario_policies(enc.ruleset, enc.state), policy_stream(seed))
        assert outcome is not None
        at_limit += "limit" in outcome.reason
    assert at_limit <= 3, f"{at_limit} of 300 fights ended at the limit"
