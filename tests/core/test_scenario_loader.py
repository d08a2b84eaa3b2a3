"""Scenario files: every malformed file gets one clear line naming file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.core.errors import ScenarioError, UnknownRulesetError
from fracas.scenario import load_scenario, parse_scenario

GOOD = """\
ruleset: age_of_dragons
aggressor: red
combatants:
  - name: Ember
    side: red
    soma: 9
    pr: 20
  - name: Ash
    side: blue
    soma: 9
    pr: 20
"""


def error_for(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, "fight.yaml")
    return info.value


def test_a_good_scenario_validates() -> None:
    scenario = parse_scenario(GOOD, "fight.yaml")
    assert scenario.ruleset.name == "age_of_dragons"


def test_unknown_field_names_line_and_field() -> None:
    err = error_for(GOOD.replace("    pr: 20\n  - name: Ash", "    pr: 20\n    wings: 2\n"
                                 "  - name: Ash"))
    assert (err.line, err.field) == (8, "combatants[Ember].wings")
    assert str(err).startswith("fight.yaml:8: combatants[Ember].wings: unknown field 'wings'; "
                               "known fields here: name, side, soma,")


def test_negative_pool_is_refused_at_its_line() -> None:
    err = error_for(GOOD.replace("soma: 9\n    pr: 20\n  - name: Ash",
                                 "soma: -2\n    pr: 20\n  - name: Ash"))
    assert err.line == 6 and err.field == "combatants[Ember].soma"
    assert "greater than or equal to 0" in str(err)


def test_altitude_four_is_refused() -> None:
    err = error_for(GOOD.replace("    pr: 20\n  - name: Ash", "    pr: 20\n    altitude: 4\n"
                                 "  - name: Ash"))
    assert err.line == 8 and err.field == "combatants[Ember].altitude"
    assert "0, 0.5, 1, 2 or 3" in str(err)


def test_unknown_ruleset_lists_the_known_ones() -> None:
    err = error_for(GOOD.replace("age_of_dragons", "age_of_wombats"))
    assert isinstance(err, ScenarioError)
    assert err.line == 1 and err.field == "ruleset"
    assert "age_of_dragons" in str(err) and "age_of_wombats" in str(err)


def test_yaml_syntax_error_names_the_line() -> None:
    err = error_for(GOOD.replace("    side: blue", "    side: [blue"))
    assert err.line is not None and err.line >= 10
    assert "YAML syntax error" in str(err)


def test_empty_file_is_refused() -> None:
    err = error_for("   \n")
    assert str(err).startswith("fight.yaml:1:") and "empty" in str(err)


def test_missing_field_is_named() -> None:
    err = error_for(GOOD.replace("    pr: 20\n  - name: Ash", "  - name: Ash"))
    assert err.field == "combatants[Ember].pr" and "required" in str(err)


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="cannot read the file"):
        load_scenario(tmp_path / "nope.yaml")


def test_unknown_ruleset_error_class() -> None:
    with pytest.raises(UnknownRulesetError):
        from fracas.core.ruleset import find_ruleset
        find_ruleset("nope")
