"""The scenario file: what it refuses, with a message naming the problem."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

sys.path.insert(0, str(Path(__file__).parent))

from aod_helpers import RULESET, dragon


def _validate(combatants: list[dict[str, Any]], **extra: Any) -> None:
    data: dict[str, Any] = {"ruleset": "age_of_dragons", "name": "t", "combatants": combatants}
    data.update(extra)
    RULESET.scenario_model.model_validate(data)


FOCUS = {"name": "focus", "resource": "mental_energy", "cost": 2}
BREATH = {"name": "breath"}


@pytest.mark.parametrize(("combatants", "extra", "message"), [
    ([dragon("A", "red", rerolls=[FOCUS, dict(FOCUS, cost=1)]), dragon("B", "blue")], {},
     "reroll abilities need unique names: focus repeated"),
    ([dragon("A", "red", ranged=[BREATH, dict(BREATH, reach="long")]), dragon("B", "blue")], {},
     "ranged weapons need unique names: breath repeated"),
    ([dragon("A", "red"), dragon("B", "blue")],
     {"tasks": [{"name": "gate", "difficulty": 1}, {"name": "gate", "difficulty": 4}]},
     "tasks need unique names: gate repeated"),
    ([dragon("gm", "red"), dragon("B", "blue")], {}, "names the game master"),
    ([dragon("A", "red", flies=False), dragon("B", "blue")], {},
     "cannot fly must start grounded"),
    ([dragon("A", "red"), dragon("B", "blue")],
     {"ranges": [{"between": ["A", "B"], "range": "zero"}]}, "cannot start at zero range"),
])
def test_bad_scenarios_are_refused_with_a_clear_message(
        combatants: list[dict[str, Any]], extra: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        _validate(combatants, **extra)


def test_distinct_names_are_accepted() -> None:
    _validate([dragon("A", "red", rerolls=[FOCUS, dict(FOCUS, name="luck")],
                      ranged=[BREATH, dict(BREATH, name="spit")]), dragon("B", "blue")],
              tasks=[{"name": "gate", "difficulty": 1}, {"name": "wall", "difficulty": 2}])


# -- ranges between landmarks, and range problems at their own line (issue 14) -----------------
_TWO_LANDMARKS = """\
ruleset: age_of_dragons
name: t
combatants:
  - {name: A, side: red, soma: 6, pr: 20, altitude: normal}
  - {name: B, side: blue, soma: 6, pr: 20, altitude: normal}
landmarks:
  - {name: rock, ground: bare_rock}
  - {name: tower}
ranges:
  - {between: [A, B], range: close}
  - {between: [rock, tower], range: long}
"""


def test_the_gm_may_set_the_distance_between_two_landmarks() -> None:
    from fracas.rules.age_of_dragons.state import LONG, pair
    from fracas.scenario import parse_scenario

    scenario = parse_scenario(_TWO_LANDMARKS, "t.yaml")
    state = RULESET.initial_state(RULESET.scenario_model.model_validate(scenario.data))
    assert state.ranges[pair("rock", "tower")] == LONG
    assert state.ranges[pair("A", "B")] == 1


@pytest.mark.parametrize(("line", "message"), [
    ("  - {between: [A, nowhere], range: close}", "no combatant or landmark"),
    ("  - {between: [A, A], range: close}", "two different names"),
    ("  - {between: [A, rock], range: zero}", "cannot start at zero range"),
])
def test_a_bad_range_is_reported_at_its_own_line(line: str, message: str) -> None:
    from fracas.core.errors import ScenarioError
    from fracas.scenario import parse_scenario

    text = _TWO_LANDMARKS + line + "\n"
    with pytest.raises(ScenarioError, match=message) as caught:
        parse_scenario(text, "t.yaml")
    assert caught.value.line == len(text.splitlines())
