"""'policy: search' is a policy of every rule set: scenarios name it, simulate --policy takes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.ai import SearchPolicy
from fracas.core.policy import DecisionRequest, scenario_policies
from fracas.core.rng import SeededRng
from fracas.scenario import load_scenario, start_encounter
from fracas.scenario.seats import seats, with_policies

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("example", ["age_of_dragons/claw_duel", "one_ring/troll_and_orcs",
                                     "adnd/bridge_duel", "battlesystem/chasm_bridge"])
def test_every_rule_set_seats_the_search_policy(example: str) -> None:
    loaded = load_scenario(EXAMPLES / f"{example}.yaml")
    first = next(iter(seats(loaded).paths))
    searching = with_policies(loaded, [f"{first}=search"])  # validated by the scenario model
    enc = start_encounter(searching, seed=1)
    pick = scenario_policies(enc.ruleset, enc.state)
    assert isinstance(pick(first), SearchPolicy)
    rng = SeededRng(1).spawn("policy")
    for _ in range(6):  # a few decisions, the search's among them when its seat is up
        actor = enc.current_actor()
        if actor is None:
            break
        request = DecisionRequest(actor, enc.state, enc.ruleset, rng)
        action = pick(actor).choose(request)
        assert enc.is_legal(action)
        enc.apply(action, checked=request.vetted(action))
