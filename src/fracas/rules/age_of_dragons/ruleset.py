"""The Age of Dragons plug-in class: a thin layer over the modules of the rule set."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from fracas.core.action import Action
from fracas.core.events import Event
from fracas.core.forecast import Forecast
from fracas.core.policy import Policy
from fracas.core.ruleset import Ruleset, own_policies
from fracas.rules.age_of_dragons import (
    fold,
    lean,
    legality,
    odds,
    overrides,
    policies,
    resolve,
    view,
)
from fracas.rules.age_of_dragons.actions import ACTIONS
from fracas.rules.age_of_dragons.key import state_key
from fracas.rules.age_of_dragons.scenario import POLICY_NAMES, AgeOfDragonsScenario, build_state
from fracas.rules.age_of_dragons.state import AgeOfDragonsState

__all__ = ["AgeOfDragons"]


class AgeOfDragons(Ruleset[AgeOfDragonsState]):
    """Age of Dragons skirmish combat: d6 pools, range bands and altitude, tooth and claw."""

    name = "age_of_dragons"
    title = "Age of Dragons skirmish combat"
    scenario_model = AgeOfDragonsScenario
    presentation = view.PRESENTATION
    actions = ACTIONS
    policy_names = own_policies(POLICY_NAMES)
    overrides = overrides.OVERRIDES
    #: apply_event, apply_decision (a decision folded without its event), why_not,
    #: allows, step, asks, resolve, advance, outcome, standings, table, face_classes and
    #: policy_choice are the functions of those names in these modules.
    modules = (fold, legality, resolve, odds, policies, view)

    #: ``claw_all`` turns and heuristic decisions played at once where nobody reads
    #: their events (:data:`fracas.core.loop.LeanTurns`, :func:`.lean.lean_turns`).
    lean_turns = staticmethod(lean.lean_turns)

    def initial_state(self, scenario: Any) -> AgeOfDragonsState:
        """Build the starting state from a validated :class:`AgeOfDragonsScenario`."""
        return build_state(scenario)

    def clone_state(self, state: AgeOfDragonsState) -> AgeOfDragonsState:
        return state.copy()

    def current_actor(self, state: AgeOfDragonsState) -> str | None:
        if state.result is not None:
            return None
        if state.pending is not None:
            return state.pending.defenders[0]
        return state.turn.actor if state.turn is not None else None

    def verb_label(self, action: type[Action]) -> str:
        return legality.VERB_LABELS.get(action.verb, action.verb)

    def default_verb(self, state: AgeOfDragonsState, verbs: Sequence[str]) -> str:
        return legality.default_verb(verbs)

    def view(self, state: AgeOfDragonsState, side: str | None = None) -> dict[str, Any]:
        return view.view(state)

    def describe_event(self, event: Event, state: AgeOfDragonsState) -> str | None:
        said = overrides.OVERRIDES.describe(event, state)  # a GM override's words, or None
        return said if said is not None else view.describe_event(event, state)

    #: Everything that shapes the rest of the fight, without the round counter (merged
    #: explicitly: the round matters only at the limit, see :meth:`round_limit`).
    state_key = staticmethod(state_key)

    def round_limit(self, state: AgeOfDragonsState) -> int:
        """The round limit: the key leaves the round out, and past it the fight is a draw."""
        return state.max_rounds

    def forecast(self, state: AgeOfDragonsState, action: Action, side: str | None = None,
                 ) -> Forecast | None:
        """The odds of a roll, attack, shot, grapple or break-out (no secrets to keep)."""
        return odds.forecast(state, action)

    def odds(self, question: str) -> dict[int, Fraction]:
        """Exact odds of one attack; see :mod:`fracas.rules.age_of_dragons.odds`."""
        values, measure = odds.parse_question(question)
        return odds.attack_distribution(values["pool"], values["pd"], values["tn"],
                                         values["bonus"], values["threshold"], measure)


    def policy(self, name: str, actor: str, options: Mapping[str, Any]) -> Policy:
        """``heuristic``, ``claw_all`` and ``search``; the core's ``human``, ``random`` and
        ``scripted``."""
        own = policies.own_policy(self, name, actor, options)
        if own is not None:
            return own
        return super().policy(name, actor, options)

    def search_settings(self, state: AgeOfDragonsState) -> Mapping[str, Any]:
        """The scenario's ``search:`` block: the budget of its ``search`` seats."""
        return dict(state.search)
