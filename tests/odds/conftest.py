"""A variant of the toy rule set for exact-odds tests: a full state key and chosen policies.

The core's toy rule set keys states by its view, which leaves out whose turn it is
and the round; the round limit makes the round matter, so this variant keys on
everything that changes the rest of the fight.  Its scenarios name a policy for
everybody: ``random`` (strike a random foe or wait), ``strike`` (always strike the
first foe standing) or ``wait`` (never strike).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

from fracas.core.errors import ActionSyntaxError
from fracas.core.events import DiceRolled
from fracas.core.policy import DecisionRequest, Policy
from fracas.core.rng import Rng
from fracas.core.ruleset import Action, Emit, register_ruleset
from fracas_cli import run_fracas
from toy_ruleset import Strike, Toy, ToyScenario, ToyState, TurnPassed, Wait, Wounded


class ToyExactScenario(ToyScenario):
    policy: str = "random"
    key_rounds: bool = True
    exploding: bool = False


@dataclass
class ToyExactState(ToyState):
    policy: str = "random"
    key_rounds: bool = True
    exploding: bool = False


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
                             policy=scenario.policy, key_rounds=scenario.key_rounds,
                             exploding=scenario.exploding)

    def resolve(self, state: ToyState, action: Action, rng: Rng, emit: Emit) -> None:
        """With ``exploding``, a strike's d6 is rolled again and added on every 6."""
        if not (getattr(state, "exploding", False) and isinstance(action, Strike)):
            super().resolve(state, action, rng, emit)
            return
        total = 0
        while True:
            face = rng.die(6)
            emit(DiceRolled(action.actor, "damage", 6, (face,)))
            total += face
            if face < 6:
                break
        emit(Wounded(action.target, total))
        emit(TurnPassed())

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


def _strike_odds(self: ToyExact, question: str) -> dict[int, Fraction]:
    """The toy's only roll: a strike deals 1d6."""
    if question.strip() != "strike":
        raise ActionSyntaxError(f"toy_exact only answers 'strike', not {question!r}")
    return {face: Fraction(1, 6) for face in range(1, 7)}


ToyExact.odds = _strike_odds  # type: ignore[method-assign]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[[list[str]], tuple[int, str, str]]:
    """``cli(args)`` -> exit code, stdout, stderr of ``fracas ARGS``, run in this process."""

    def run(args: list[str]) -> tuple[int, str, str]:
        return run_fracas(args, capsys)

    return run
