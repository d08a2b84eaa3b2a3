"""Sizes bounded: limits checked at load with a clear message (issue 13)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from fracas.core.errors import ScenarioError
from fracas.core.policy import scenario_policies
from fracas.core.rng import SeededRng
from fracas.scenario import load_scenario, parse_scenario, start_encounter
from fracas.scenario.limits import MAX_COMBATANTS, MAX_FILE_BYTES, MAX_LIST_ITEMS

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _many(count: int) -> str:
    data = yaml.safe_load((EXAMPLES / "age_of_dragons/aerial_2v2.yaml").read_text())
    data.pop("ranges", None)
    base = data["combatants"]
    data["combatants"] = [dict(base[i % len(base)], name=f"c{i}") for i in range(count)]
    return yaml.safe_dump(data, sort_keys=False)


def test_a_fight_of_1500_combatants_is_refused_at_once() -> None:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(_many(1500), "huge.yaml")
    assert f"a list of 1,500 items; the limit is {MAX_LIST_ITEMS}" in info.value.reason
    assert info.value.field == "combatants"


def test_more_combatants_than_the_limit_is_refused() -> None:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(_many(MAX_COMBATANTS + 1), "big.yaml")
    assert f"the fight has {MAX_COMBATANTS + 1} combatants; the limit is {MAX_COMBATANTS}" \
        in info.value.reason


def test_copies_made_by_count_are_counted() -> None:
    text = (EXAMPLES / "one_ring/company_vs_orcs.yaml").read_text()
    data = yaml.safe_load(text)
    data["adversaries"][0]["count"] = 50
    data["adversaries"].append(dict(data["adversaries"][0], name="more"))
    with pytest.raises(ScenarioError, match="combatants; the limit is"):
        parse_scenario(yaml.safe_dump(data), "orcs.yaml")


def test_a_fight_at_the_limit_runs_in_seconds() -> None:
    scenario = parse_scenario(_many(MAX_COMBATANTS), "limit.yaml")
    enc = start_encounter(scenario, 1)
    enc.play(scenario_policies(enc.ruleset, enc.state), SeededRng(1).spawn("policy"))
    assert enc.is_over  # (about a second: see the limits in docs/rules/*-fields.md)


@pytest.mark.parametrize(("value", "says"), [
    ("1000000000", "is beyond the limit of ±1,000,000"),
    ('"' + "x" * 3000 + '"', "a text of 3,000 characters"),
])
def test_numbers_and_texts_are_bounded(value: str, says: str) -> None:
    text = (EXAMPLES / "age_of_dragons/claw_duel.yaml").read_text() + f"description: {value}\n"
    text = text.replace("description: Ember", "#")
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, "fight.yaml")
    assert says in info.value.reason and info.value.field == "description"


def test_a_file_beyond_the_size_limit_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("# " + "x" * MAX_FILE_BYTES + "\nruleset: adnd\n")
    with pytest.raises(ScenarioError, match="the limit is"):
        load_scenario(path)
