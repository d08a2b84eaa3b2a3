"""A variant of the toy rule set for exact-odds tests: a full state key and chosen policies.

The core's toy rule set keys states by its view, which leaves out whose turn it is
and the round; the round limit makes the round matter, so this variant keys on
everything that changes the rest of the fight.  Its scenarios name a policy for
everybody: ``random`` (strike a random foe or wait), ``strike`` (always strike the
first foe standing) or ``wait`` (never strike).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from toy_ruleset import Strike, Toy, ToyScenario, ToyState, Wait

from fracas.core.policy import DecisionRequest, Policy
from fracas.core.ruleset import Action, register_ruleset


class ToyExactScenario(ToyScenario):
    policy: str = "random"
    key_rounds: bool = True


@dataclass
class ToyExactState(ToyState):
    policy: str = "random"
    key_rounds: bool = True


class StrikeFirst:
    def choose(self, request: DecisionRequest) -> Action:
        return request.legal_actions()[0]


class AlwaysWait:
    def choose(self, request: DecisionRequest) -> Action:
        return Wait(request.actor)


@register_ruleset
class ToyExact(Toy):
    name = "toy_exact"
    scenario_model = ToyExactScenario
    actions = (Strike, Wait)

    def initial_state(self, scenario: ToyExactScenario) -> ToyExactState:  # type: ignore[override]
        base = super().initial_state(scenario)
        return ToyExactState(**{f.name: getattr(base, f.name) for f in dataclasses.fields(base)},
                             policy=scenario.policy, key_rounds=scenario.key_rounds)

    def state_key(self, state: ToyState) -> Hashable:
        assert isinstance(state, ToyExactState)
        rounds = state.round if state.key_rounds else 0
        return (tuple(sorted(state.hp.items())), state.turn, rounds)

    def policy_for(self, state: ToyState, actor: str) -> Policy:
        name = getattr(state, "policy", "random")
        if name == "strike":
            return StrikeFirst()
        if name == "wait":
            return AlwaysWait()
        return self.policy(name, actor, {})

    def policy(self, name: str, actor: str, options: Mapping[str, Any]) -> Policy:
        return super().policy(name, actor, options)
