"""The AD&D underground skirmish rule set: the plug-in the engine drives.

A thin class: each method hands over to the module that holds its role
(:mod:`.scenario`, :mod:`.fold`, :mod:`.legality`, :mod:`.resolve`,
:mod:`.policies`, :mod:`.view`, :mod:`.odds`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, get_args

from fracas.core.action import Action
from fracas.core.events import Event
from fracas.core.policy import Policy
from fracas.core.rng import Rng
from fracas.core.ruleset import Ruleset, Standing, own_policies
from fracas.rules.adnd import (
    fold,
    lean,
    legality,
    memory,
    odds,
    overrides,
    resolve,
    scenario,
    view,
)
from fracas.rules.adnd.actions import ACTIONS
from fracas.rules.adnd.policies import HeuristicPolicy
from fracas.rules.adnd.scenario import AdndScenario, PolicyName
from fracas.rules.adnd.state import AdndUndergroundState, state_key

__all__ = ["AdndUnderground"]


class AdndUnderground(Ruleset[AdndUndergroundState]):
    """AD&D skirmishes underground: walls, ledges and bridges, falls, water and bottlenecks.

    Each round every side rolls d10 for initiative (lowest acts first, ties
    rolled again), the DM may make one ruling, then the combatants act in side
    order.  See ``docs/rules/adnd.md`` for every rule and where it lives.
    """

    name: ClassVar[str] = "adnd"
    title: ClassVar[str] = "AD&D underground skirmish"
    scenario_model = AdndScenario
    presentation = view.PRESENTATION
    actions: ClassVar[Sequence[type[Action]]] = ACTIONS
    policy_names: ClassVar[Sequence[str]] = own_policies(get_args(PolicyName))
    overrides = overrides.OVERRIDES
    #: initial_state, apply_event, current_actor, why_not, allows, step, verb_label,
    #: resolve, advance and forecast are the functions of those names in these modules.
    modules = (scenario, fold, legality, resolve, odds)
    #: Columns and rows: health, terrain, height and conditions of everyone.
    table = staticmethod(view.table_of)

    # -- setting up --------------------------------------------------------
    def clone_state(self, state: AdndUndergroundState) -> AdndUndergroundState:
        """A copy of the changing parts; the frozen setup is shared.

        The fighters' numbers the rules and the heuristic remember by (:func:`.memory.ids`)
        go with the copy, brought up to date once here rather than worked out again from
        every field of every fighter in each copy (the exact solver plays many copies of
        one state); ``test_adnd_clone_memory.py`` holds them to the copy's fighters.
        """
        made = state.clone()
        made.remembered[memory.Ids] = memory.ids(state).carried()
        return made

    #: What the exact duel solver merges states by; see :func:`.state.state_key`.
    state_key = staticmethod(state_key)

    def round_limit(self, state: AdndUndergroundState) -> int:
        """The round limit: the key leaves the round out, and after it the fight is a draw."""
        return state.setup.max_rounds

    # -- decisions ---------------------------------------------------------
    def default_verb(self, state: AdndUndergroundState, verbs: Sequence[str]) -> str:
        """The DM lets the round run; a fighter attacks, or does the first thing he can."""
        return legality.default_verb(verbs)

    def apply_decision(self, state: AdndUndergroundState, actor: str, action: Action) -> None:
        """The fold of ``DecisionMade(actor, action)`` without making it: nothing (a decision
        changes the state only through the events its resolution emits)."""

    def lean_turns(self, state: AdndUndergroundState, actor: str,
                   pick: Callable[[str], Policy], rng: Rng, emit: Callable[[Event], None],
                   budget: int) -> int:
        """Heuristic turns one after another where nobody reads the events
        (:data:`fracas.core.loop.LeanTurns`, :func:`.lean.heuristic_turns`)."""
        return lean.heuristic_turns(self, state, actor, pick, rng, emit, budget)

    # -- results (the core's outcome reads state.result) -------------------
    def standings(self, state: AdndUndergroundState) -> Sequence[Standing]:
        """Side, status and hit points of everyone, in scenario order."""
        return [Standing(n, state.profile(n).side, f.status, float(max(f.hp, 0)),
                         float(state.profile(n).hp_max)) for n, f in state.fighters.items()]

    def view(self, state: AdndUndergroundState, side: str | None = None) -> dict[str, Any]:
        """A JSON-ready picture; a side does not see its foes' hit points or breath."""
        return view.view_of(state, side)

    def describe_event(self, event: Event, state: AdndUndergroundState) -> str | None:
        """One readable line for this rule set's events."""
        said = overrides.OVERRIDES.describe(event, state)  # a GM override's words, or None
        return said if said is not None else view.describe(event, state)

    def odds(self, question: str) -> dict[int, Fraction]:
        """Exact odds of this rule set's rolls; see :mod:`fracas.rules.adnd.odds`."""
        return dict(odds.answer(question))


    # -- policies ----------------------------------------------------------
    def policy(self, name: str, actor: str, options: Mapping[str, Any]) -> Policy:
        """``heuristic`` (the default AI) and ``search``; the core's ``human``, ``random``
        and ``scripted`` for the rest."""
        if name == "heuristic":
            return HeuristicPolicy()
        if name == "search":
            from fracas.ai import search_policy  # the AI layer sits above the rule sets

            return search_policy(self, actor, options)
        return super().policy(name, actor, options)

    def policy_choice(self, state: AdndUndergroundState, actor: str) -> str | Sequence[str]:
        """The policy the scenario chose for ``actor`` (``gm`` included), or its script."""
        return state.setup.policies.get(actor, "heuristic")

    def search_settings(self, state: AdndUndergroundState) -> Mapping[str, Any]:
        """The scenario's ``search:`` block: the budget of its ``search`` seats."""
        return dict(state.setup.search)

