"""The plug-in class: a thin table of contents that delegates to the modules."""

import dataclasses
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from fracas.core.action import Action
from fracas.core.decision import Menu, Partial, Span
from fracas.core.errors import IllegalActionError
from fracas.core.events import Event
from fracas.core.rng import Rng
from fracas.core.ruleset import Emit, Ruleset, Standing
from pools import fold, legality, odds, resolve, view
from pools.actions import Attack, Guard
from pools.policies import Heuristic
from pools.scenario import PoolsScenario, build_state
from pools.state import PoolsState


class Pools(Ruleset[PoolsState]):
    """Pools: d6 pools where 4+ hits and dice kept back guard."""

    name = "pools"
    scenario_model = PoolsScenario
    actions = (Attack, Guard)
    policy_names = ("heuristic", "search")
    examples = "examples"  # pools/examples/: its scenarios and pools.schema.json

    def initial_state(self, scenario: Any) -> PoolsState:
        return build_state(scenario)

    def clone_state(self, state: PoolsState) -> PoolsState:
        fighters = {n: dataclasses.replace(f) for n, f in state.fighters.items()}
        return dataclasses.replace(state, fighters=fighters)

    def apply_event(self, state: PoolsState, event: Event) -> None:
        fold.apply_event(state, event)

    def current_actor(self, state: PoolsState) -> str | None:
        return legality.current_actor(state)

    def why_not(self, state: PoolsState, partial: Partial) -> IllegalActionError | None:
        return legality.why_not(state, partial)

    def step(self, state: PoolsState, partial: Partial, field: str) -> Menu | Span | None:
        return legality.step(state, partial, field)

    def resolve(self, state: PoolsState, action: Action, rng: Rng, emit: Emit) -> None:
        resolve.resolve(state, action, rng, emit)

    def advance(self, state: PoolsState, rng: Rng, emit: Emit) -> None:
        resolve.advance(state, rng, emit)

    def standings(self, state: PoolsState) -> Sequence[Standing]:
        return view.standings(state)

    def describe_event(self, event: Event, state: PoolsState) -> str | None:
        return view.describe_event(event, state)

    def odds(self, question: str) -> dict[int, Fraction]:
        return odds.question(question).to_dict()

    def policy_choice(self, state: PoolsState, actor: str) -> str:
        return state.policies[actor]

    def policy(self, name: str, actor: str, options: Any) -> Any:
        if name == "search":  # the core's search AI: any rule set may offer it
            from fracas.ai import search_policy

            return search_policy(self, actor, options)
        return Heuristic() if name == "heuristic" else super().policy(name, actor, options)

    def search_settings(self, state: PoolsState) -> dict[str, Any]:
        return dict(state.search)
