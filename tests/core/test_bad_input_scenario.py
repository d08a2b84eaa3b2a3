"""Scenario YAML that YAML allows but a scenario must not have: clear errors, quickly."""

from __future__ import annotations

import time

import pytest

from fracas.core.errors import ScenarioError
from fracas.scenario import parse_scenario
from fracas.scenario.problems import ScenarioProblems

GOOD = """\
ruleset: age_of_dragons
aggressor: red
combatants:
  - {name: Ember, side: red, soma: 9, pd: 0, pr: 20, altitude: normal, policy: claw_all}
  - {name: Ash, side: blue, soma: 9, pd: 0, pr: 20, altitude: normal, policy: claw_all}
ranges:
  - {between: [Ember, Ash], range: close}
"""


def error_for(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, "fight.yaml")
    return info.value


def test_billion_laughs_is_refused_quickly() -> None:
    lines = ["ruleset: age_of_dragons", 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 8) + "]")
    start = time.process_time()  # CPU, not wall: a busy machine must not fail it
    error = error_for("\n".join(lines) + "\n")
    assert time.process_time() - start < 5
    assert "YAML aliases" in error.reason and error.line is not None


def test_an_alias_inside_itself_is_refused() -> None:
    error = error_for("ruleset: age_of_dragons\ncombatants: &x\n  - *x\n")
    assert "refers to a value that contains it" in error.reason
    assert error.field == "combatants[0]" and error.line == 2  # the anchor's line


@pytest.mark.parametrize("opener", ["[", "{a: "])
def test_absurd_nesting_is_refused(opener: str) -> None:
    closer = "]" if opener == "[" else "}"
    error = error_for("ruleset: age_of_dragons\ncombatants: " + opener * 5000 + "1"
                      + closer * 5000 + "\n")
    assert "nested too deeply" in error.reason


def test_a_duplicate_key_names_both_lines() -> None:
    error = error_for(GOOD.replace("aggressor: red\n", "aggressor: red\naggressor: blue\n"))
    assert error.line == 3 and error.field == "aggressor"
    assert "duplicate key 'aggressor' (first given on line 2)" in error.reason


def test_a_duplicate_key_inside_a_combatant_names_the_combatant() -> None:
    error = error_for(GOOD.replace("soma: 9, pd: 0, pr: 20, altitude: normal, policy: claw_all}\n"
                                   "  - {name: Ash",
                                   "soma: 9, soma: 3, pd: 0, pr: 20, altitude: normal, "
                                   "policy: claw_all}\n  - {name: Ash"))
    assert error.line == 4 and error.field == "combatants[Ember].soma"


def test_aliases_and_merge_keys_that_make_sense_still_work() -> None:
    text = """\
ruleset: age_of_dragons
aggressor: red
combatants:
  - &dragon {name: Ember, side: red, soma: 9, pd: 0, pr: 20, altitude: normal, policy: claw_all}
  - {<<: *dragon, name: Ash, side: blue}
ranges:
  - {between: [Ember, Ash], range: close}
"""
    assert parse_scenario(text, "fight.yaml").ruleset.name == "age_of_dragons"


def test_pydantic_prefixes_are_not_shown() -> None:
    error = error_for(GOOD.replace("name: Ash", "name: Ember"))
    assert not error.reason.startswith("Value error")
    assert "Ember" in error.reason


@pytest.mark.parametrize("name", ["O'Brien [1] \\\"the\\\" {x}", "Ωμέγα Ash", "a:b, c"])
def test_unicode_names_with_spaces_quotes_and_brackets_are_fine(name: str) -> None:
    text = GOOD.replace("name: Ash", f'name: "{name}"').replace("[Ember, Ash]",
                                                                 f'[Ember, "{name}"]')
    assert parse_scenario(text, "fight.yaml").ruleset.name == "age_of_dragons"


@pytest.mark.parametrize(("value", "says"), [
    ("9" * 5000, "(YAML int): a number of more than 4,300 digits"),
    ("2001-13-45", "(YAML timestamp): month must be in 1..12"),
    ('!!timestamp "x"', "(YAML timestamp): not a valid timestamp"),
    ('!!int "x"', "(YAML int)"),
    ('!!float "x"', "(YAML float)"),
])
def test_scalars_yaml_cannot_construct_are_named_by_line(value: str, says: str) -> None:
    error = error_for(GOOD + f"max_rounds: {value}\n")
    assert error.line == 8 and says in error.reason


def test_a_whole_scenario_check_points_at_the_value_it_quotes() -> None:
    error = error_for(GOOD.replace("between: [Ember, Ash]", "between: [Ember, Nobody]"))
    assert "'Nobody'" in error.reason
    assert error.line == 7 and error.field == "ranges[0].between[1]"


def test_a_repeated_name_points_at_its_second_use_and_says_which() -> None:
    error = error_for(GOOD.replace("name: Ash", "name: Ember"))
    assert error.line == 5 and error.field == "combatants[Ember].name"
    assert "'Ember' is used twice (first given on line 4)" in error.reason
    assert not isinstance(error, ScenarioProblems)  # the rule set's own check is not repeated
