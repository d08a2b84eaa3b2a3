"""The plug-in class: its name, its scenario and actions, and the modules holding its hooks."""

from collections.abc import Mapping
from typing import Any

from fracas.core.policy import Policy
from fracas.core.ruleset import Ruleset
from pools import fold, legality, odds, policies, resolve, scenario, state, view
from pools.actions import Attack, Guard


class Pools(Ruleset[state.PoolsState]):
    """Pools: d6 pools where 4+ hits and dice kept back guard."""

    name = "pools"
    scenario_model = scenario.PoolsScenario
    actions = (Attack, Guard)
    policy_names = ("heuristic", "search")
    examples = "examples"  # pools/examples/: its scenarios and pools.schema.json
    #: Each hook is the function of its name in one of these (initial_state, why_not...).
    modules = (scenario, state, fold, legality, resolve, view, odds, policies)

    def policy(self, name: str, actor: str, options: Mapping[str, Any]) -> Policy:
        if name == "search":  # the core's search AI: any rule set may offer it
            from fracas.ai import search_policy

            return search_policy(self, actor, options)
        return policies.Heuristic() if name == "heuristic" else super().policy(
            name, actor, options)
