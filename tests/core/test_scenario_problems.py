"""validate lists every problem at once, each with its line and field (issue 13)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.core.errors import ScenarioError
from fracas.scenario import parse_scenario
from fracas.scenario.problems import ScenarioProblems

EXAMPLES = Path(__file__).parents[2] / "examples"
GOOD = """\
ruleset: age_of_dragons
aggressor: red
combatants:
  - {name: Ember, side: red, soma: 9, pd: 0, pr: 20}
  - {name: Ash, side: blue, soma: 9, pd: 0, pr: 20}
"""


def problems_for(text: str) -> list[ScenarioError]:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, "fight.yaml")
    error = info.value
    return error.problems if isinstance(error, ScenarioProblems) else [error]


def test_a_misspelt_list_key_is_named_with_the_key_it_stands_for() -> None:
    [problem] = problems_for(GOOD.replace("combatants:", "combatant:"))
    assert problem.line == 3 and problem.field == "combatant"
    assert problem.reason == "unknown field 'combatant'; did you mean 'combatants'?"


def test_a_typo_is_not_reported_as_the_real_key_missing() -> None:
    [problem] = problems_for(GOOD.replace("soma: 9, pd: 0, pr: 20}\n  - {name: Ash",
                                          "somaa: 9, pd: 0, pr: 20}\n  - {name: Ash"))
    assert problem.line == 4 and problem.field == "combatants[Ember].somaa"
    assert "did you mean 'soma'?" in problem.reason


def test_every_problem_is_listed_in_line_order() -> None:
    text = GOOD.replace("pd: 0, pr: 20}\n  - {name: Ash", "pd: true, pr: 20}\n  - {name: Ash")
    text = text.replace("soma: 9, pd: 0", "soma: -1, pd: 0").replace("aggressor", "agressor")
    problems = problems_for(text)
    assert [(p.line, p.field) for p in problems] == [
        (2, "agressor"), (4, "combatants[Ember].pd"), (5, "combatants[Ash].soma")]
    assert "expected a number, not true" in problems[1].reason
    assert "did you mean 'aggressor'" in problems[0].reason


def test_the_message_shows_all_problems_one_a_line() -> None:
    text = GOOD.replace("soma: 9", "soma: yes").replace("side: blue", "side: [blue]")
    with pytest.raises(ScenarioProblems) as info:
        parse_scenario(text, "fight.yaml")
    lines = str(info.value).splitlines()
    assert lines[0] == "fight.yaml: 3 problems:"
    assert lines[1].startswith("  fight.yaml:4: combatants[Ember].soma: expected a number")


@pytest.mark.parametrize("value", ["true", "'9'", "9.5"])
def test_numbers_are_strict(value: str) -> None:
    [problem] = problems_for(GOOD.replace("soma: 9, pd: 0, pr: 20}\n  - {name: Ash",
                                          f"soma: {value}, pd: 0, pr: 20}}\n  - {{name: Ash"))
    assert problem.line == 4 and problem.field == "combatants[Ember].soma"


@pytest.mark.parametrize(("value", "says"), [
    ("2001-01-02", "not a scenario value"), (".nan", "not a usable number"),
    ("!!binary aGVsbG8=", "not a scenario value"),
])
def test_yaml_values_a_scenario_cannot_hold_are_named(value: str, says: str) -> None:
    [problem] = problems_for(GOOD + f"description: {value}\n")
    assert problem.line == 6 and says in problem.reason


def test_a_key_that_is_not_text_is_named() -> None:
    problems = problems_for(GOOD + "1: x\n")
    assert problems[0].line == 6 and "a key must be text" in problems[0].reason


def test_repeated_names_in_adnd_say_which_name() -> None:
    text = (EXAMPLES / "adnd/bridge_duel.yaml").read_text().replace("name: Vesk", "name: Aldric")
    problems = problems_for(text)
    assert any("'Aldric' is used twice" in p.reason and p.field == "combatants[Aldric].name"
               for p in problems)
    assert not any("must be unique" in p.reason and p.field is None for p in problems)


def test_repeated_unit_names_in_battlesystem_point_at_the_second() -> None:
    text = (EXAMPLES / "battlesystem/chasm_bridge.yaml").read_text()
    text = text.replace("name: men-at-arms", "name: lancers")
    [problem] = problems_for(text)
    assert "'lancers' is used twice" in problem.reason
    assert problem.line == text.splitlines().index("  - name: lancers", 30) + 1


def test_a_negative_resource_is_refused() -> None:
    [problem] = problems_for(GOOD.replace("pr: 20}\n  - {name: Ash",
                                          "pr: 20, resources: {gold: -5}}\n  - {name: Ash"))
    assert "gold" in str(problem.field) and "greater than or equal to 0" in problem.reason


def test_a_list_where_a_mapping_belongs_names_the_fields_expected() -> None:
    text = (EXAMPLES / "battlesystem/chasm_bridge.yaml").read_text()
    text = text.replace("  - {a: west-ledge, b: old-span}", "  - [west-ledge, old-span]")
    [problem] = problems_for(text)
    assert problem.field == "links[0]"
    assert problem.reason == "expected a mapping of a, b, bend, got a list"


def test_a_name_repeated_across_lists_points_at_its_second_use() -> None:
    text = (EXAMPLES / "one_ring/ambush.yaml").read_text()
    first_adversary = text.index("adversaries:")
    name_at = text.index("name: ", first_adversary)
    end = text.index("\n", name_at)
    text = text[:name_at] + "name: Hirgon" + text[end:].replace("count: 4", "count: 1", 1)
    [problem] = problems_for(text)
    assert "'Hirgon' is used twice" in problem.reason
    assert problem.line == text[:name_at].count("\n") + 1
