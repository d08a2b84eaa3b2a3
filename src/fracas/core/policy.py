"""Policies: who decides, step by step.

The engine never waits for input.  At each decision it asks the actor's
:class:`Policy`; the same steps (:mod:`fracas.core.decision`) feed the random
policy, rule-set heuristics, the terminal prompt and the web console.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from fracas.core.action import Action
from fracas.core.decision import Options, Value, options
from fracas.core.errors import IllegalActionError, ScriptExhaustedError
from fracas.core.rng import Rng

if TYPE_CHECKING:  # the rule set module imports this one (its built-in policies)
    from fracas.core.ruleset import Ruleset

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
    _vetted: Action | None = field(default=None, repr=False)

    def options(self, chosen: Sequence[Value] = ()) -> Options:
        """The next step of this decision after ``chosen`` (see :meth:`Encounter.options`)."""
        found = options(self.ruleset, self.state, self.actor, chosen)
        if found.action is not None:
            self._vetted = found.action
        return found

    def is_legal(self, action: Action) -> bool:
        """True when ``action`` is legal now (a policy may then return it unchecked)."""
        try:
            self.ruleset.check(self.state, action)
        except IllegalActionError:
            return False
        self._vetted = action
        return True

    def vouch(self, action: Action) -> Action:
        """``action``, which the policy found legal by the rule set's own rules (no check)."""
        self._vetted = action
        return action

    def vetted(self, action: Action) -> bool:
        """True when ``action`` is the one this request last found legal (no second check)."""
        return action is self._vetted and action.actor == self.actor

    def legal_actions(self) -> Sequence[Action]:
        """Every legal action, listed on first use (prefer the steps: :meth:`options`)."""
        if self._legal is None:
            self._legal = list(self.ruleset.legal_actions(self.state))
        return self._legal


class Policy(Protocol):
    """Chooses one action for a decision."""

    def choose(self, request: DecisionRequest) -> Action:
        """Return a legal action for ``request.actor``."""
        ...


class RandomPolicy:
    """Uniformly random at each step: a verb, then each field among the legal values.

    This is not uniform over whole actions: a verb with few variants is as likely as
    one with many (end the turn as often as attack), as a person choosing would be.

    >>> from fracas.core.rng import SeededRng
    >>> from fracas.scenario import load_scenario, start_encounter
    >>> enc = start_encounter(load_scenario("examples/age_of_dragons/claw_duel.yaml"), seed=2)
    >>> print(RandomPolicy().choose(enc.request(SeededRng(5))))
    Ember fall
    """

    def choose(self, request: DecisionRequest) -> Action:
        rng = request.rng
        found = request.options()
        chosen: list[Value] = []
        while found.action is None:
            step = found.step
            if step is None:
                raise ScriptExhaustedError(f"{request.actor} has no legal action")
            if step.span is not None:
                chosen.append(step.span.low + rng.choice_index(step.span.high - step.span.low + 1))
            else:
                chosen.append(step.choices[rng.choice_index(len(step.choices))].value)
            found = request.options(chosen)
        return found.action


class ScriptedPolicy:
    """Plays a fixed list of actions in order; raises when the script runs out.

    >>> from fracas.core.rng import SeededRng
    >>> from fracas.scenario import load_scenario, start_encounter
    >>> enc = start_encounter(load_scenario("examples/age_of_dragons/claw_duel.yaml"))
    >>> script = ScriptedPolicy(enc.legal_actions())
    >>> print(script.choose(enc.request(SeededRng(0))))
    Ember roll
    """

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

    >>> from fracas.scenario import load_scenario, start_encounter
    >>> enc = start_encounter(load_scenario("examples/age_of_dragons/claw_duel.yaml"))
    >>> policy_of = scenario_policies(enc.ruleset, enc.state)
    >>> type(policy_of("Ember")).__name__, policy_of("Ember") is policy_of("Ember")
    ('ClawAllPolicy', True)
    """
    table = _PolicyTable()
    table.ruleset, table.state, table.vet = ruleset, state, vet
    # A made policy is found by the dict itself (no Python frame a decision).
    return table.__getitem__


class _PolicyTable(dict[str, Policy]):
    """Each actor's policy, made on first asking (see :func:`scenario_policies`)."""

    __slots__ = ("ruleset", "state", "vet")
    ruleset: Ruleset[Any]
    state: Any
    vet: Callable[[str, Policy], None] | None

    def __missing__(self, actor: str) -> Policy:
        policy = self.ruleset.policy_for(self.state, actor)
        if self.vet is not None:
            self.vet(actor, policy)
        self[actor] = policy
        return policy
