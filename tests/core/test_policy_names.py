"""An unknown policy name is refused with every name the rule set offers, each of which
the rule set then hands out."""

from __future__ import annotations

import pytest

from fracas.core.errors import ActionSyntaxError
from fracas.core.ruleset import find_ruleset

BUNDLED = ["age_of_dragons", "one_ring", "adnd", "battlesystem"]


@pytest.mark.parametrize("name", BUNDLED)
def test_an_unknown_policy_is_refused_with_the_names_there_are(name: str) -> None:
    rules = find_ruleset(name)
    with pytest.raises(ActionSyntaxError) as err:
        rules.policy("serch", "anyone", {})
    listed = str(err.value).split("(it has ")[1].rstrip(")").split(", ")
    assert {"heuristic", "search", "random", "human"} <= set(listed)
    for policy in listed:  # every listed name is one the rule set knows
        if policy != "scripted":  # (needs a script)
            assert rules.policy(policy, "anyone", {}) is not None


@pytest.mark.parametrize("name", BUNDLED)
def test_every_policy_field_names_every_policy_and_accepts_it(name: str) -> None:
    """The field reference of each seat's ``policy`` lists the names the rule set hands
    out, and a scenario may name each of them (the scenario model's own list agrees)."""
    from pathlib import Path

    from fracas.scenario import load_scenario
    from fracas.scenario.reference import scenario_schema
    from fracas.scenario.seats import seat, seats

    rules = find_ruleset(name)
    names = [*rules.policy_names, "random", "human"]
    schema = scenario_schema(rules)
    models = [schema, *schema.get("$defs", {}).values()]
    fields = [prop for node in models for key, prop in node.get("properties", {}).items()
              if key in ("policy", "gm_policy")]
    assert fields
    for prop in fields:
        assert all(n in prop["description"] for n in names), prop["description"]
    example = sorted((Path(__file__).resolve().parents[2] / "examples" / name).glob("*.yaml"))[0]
    loaded = load_scenario(example)
    first = next(iter(seats(loaded).paths))
    for policy in names:
        assert seats(seat(loaded, {first: policy})).policies[first] == policy
