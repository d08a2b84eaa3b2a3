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
