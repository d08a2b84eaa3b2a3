"""Policies: who chooses among the legal actions.

The engine never waits for input.  At each decision it asks the actor's
:class:`Policy`; the same legal-action list feeds the random policy, scripted
tests, rule-set heuristics, the terminal prompt and the web console.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from fracas.core.errors import ScriptExhaustedError
from fracas.core.rng import Rng
from fracas.core.ruleset import Action, Ruleset

__all__ = [
    "DecisionRequest",
    "HumanPolicy",
    "Policy",
    "RandomPolicy",
    "ScriptedPolicy",
    "scenario_policies",
]


@dataclass(slots=True)
class DecisionRequest:
    """What a policy sees: the actor, the state (read only!), the rule set and an Rng."""

    actor: str
    state: Any
    ruleset: Ruleset[Any]
    rng: Rng
    _legal: Sequence[Action] | None = field(default=None, repr=False)

    def legal_actions(self) -> Sequence[Action]:
        """The legal actions, computed on first use (fast policies may never ask)."""
        if self._legal is None:
            self._legal = self.ruleset.legal_actions(self.state)
        return self._legal


class Policy(Protocol):
    """Chooses one action for a decision."""

    def choose(self, request: DecisionRequest) -> Action:
        """Return a legal action for ``request.actor``."""
        ...


class RandomPolicy:
    """Uniformly random among the legal actions."""

    def choose(self, request: DecisionRequest) -> Action:
        actions = request.legal_actions()
        return actions[request.rng.choice_index(len(actions))]


class ScriptedPolicy:
    """Plays a fixed list of actions in order; raises when the script runs out."""

    def __init__(self, actions: Iterable[Action]) -> None:
        self._actions = list(actions)
        self._pos = 0

    def choose(self, request: DecisionRequest) -> Action:
        if self._pos >= len(self._actions):
            raise ScriptExhaustedError(
                f"the script for {request.actor} ran out after {self._pos} actions"
            )
        action = self._actions[self._pos]
        self._pos += 1
        return action


class HumanPolicy:
    """Marks an actor as played by a person: the front end asks, never this object."""

    def choose(self, request: DecisionRequest) -> Action:
        raise ScriptExhaustedError(f"{request.actor} is played by a human; ask the front end")


def scenario_policies(
    ruleset: Ruleset[Any], state: Any,
    vet: Callable[[str, Policy], None] | None = None,
) -> Callable[[str], Policy]:
    """Each actor's policy as the scenario set it up, made once per actor and kept.

    ``vet(actor, policy)`` may raise to refuse a policy (a simulator refuses
    humans, an exact solver also refuses scripts).
    """
    table: dict[str, Policy] = {}

    def pick(actor: str) -> Policy:
        policy = table.get(actor)
        if policy is None:
            policy = ruleset.policy_for(state, actor)
            if vet is not None:
                vet(actor, policy)
            table[actor] = policy
        return policy

    return pick
