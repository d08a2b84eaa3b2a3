"""The BATTLESYSTEM underground plug-in class: a thin front for the modules beside it.

The scenario and starting state live in :mod:`.scenario`, the fold in :mod:`.fold`,
legality in :mod:`.legality`, the turn sequence and carrying out orders in
:mod:`.resolve`, the heuristic in :mod:`.policies` and all text in :mod:`.view`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, get_args

from fracas.core.action import Action
from fracas.core.events import Event
from fracas.core.policy import Policy
from fracas.core.ruleset import Ruleset, Standing, own_policies
from fracas.rules.battlesystem import fold, lean, legality, odds, overrides, resolve, view
from fracas.rules.battlesystem.actions import (
    Attack,
    CaveIn,
    Charge,
    Fire,
    Fly,
    Form,
    Hold,
    Move,
    Pass,
    ReleaseGas,
    StrikeFeature,
    Torches,
    Withdraw,
)
from fracas.rules.battlesystem.policies import HeuristicPolicy
from fracas.rules.battlesystem.scenario import BattlesystemScenario, PolicyName, build_state
from fracas.rules.battlesystem.state import BattlesystemState, clone

__all__ = ["Battlesystem"]


class Battlesystem(Ruleset[BattlesystemState]):
    """BATTLESYSTEM mass combat underground (compact core plus the seed's options)."""

    name = "battlesystem"
    title = "BATTLESYSTEM underground mass combat"
    scenario_model = BattlesystemScenario
    presentation = view.PRESENTATION
    actions = (Move, Charge, Hold, Form, Torches, Fly, Fire, Pass, CaveIn, ReleaseGas,
               StrikeFeature, Withdraw, Attack)
    policy_names = own_policies(get_args(PolicyName))
    overrides = overrides.OVERRIDES
    #: apply_event, why_not, allows, step, advance, view, table and forecast are the
    #: functions of those names in these modules.
    modules = (fold, legality, resolve, view, odds)
    initial_state = staticmethod(build_state)
    #: A copy sharing the fixed battlefield; units, features and gas are copied.
    clone_state = staticmethod(clone)
    #: Carry out an order.
    resolve = staticmethod(resolve.carry_out)
    #: The fold of ``DecisionMade(actor, action)`` without making it: the unit's turn is
    #: taken (see :func:`.fold.take_turn`).
    apply_decision = staticmethod(fold.take_turn)
    #: The heuristic's decisions taken without a request where nobody reads the log
    #: (:data:`fracas.core.loop.LeanTurns`).
    lean_turns = staticmethod(lean.heuristic_turns)

    # -- decisions -----------------------------------------------------------------
    def current_actor(self, state: BattlesystemState) -> str | None:
        """The GM or the unit whose order is next; ``None`` once the battle is over."""
        if state.result is not None or not state.queue:
            return None
        return state.queue[0]

    def verb_label(self, action: type[Action]) -> str:
        """The words a person reads for an order."""
        return legality.VERB_LABELS.get(action.verb, action.verb)

    def default_verb(self, state: BattlesystemState, verbs: Sequence[str]) -> str:
        """Hold (or, for the GM, pass) is preselected."""
        return next((v for v in ("hold", "pass") if v in verbs), verbs[0])

    # -- reading -------------------------------------------------------------------
    def standings(self, state: BattlesystemState) -> Sequence[Standing]:
        """Each unit: side, status and figures left of those it started with."""
        return [Standing(u.name, u.side, u.status, float(u.figures),
                         float(u.stats.start_figures)) for u in state.units.values()]

    def round_number(self, state: BattlesystemState) -> int:
        """The current turn."""
        return state.turn

    def describe_event(self, event: Event, state: BattlesystemState) -> str | None:
        """One readable account per event; a new turn prints the map."""
        said = overrides.OVERRIDES.describe(event, state)  # a GM override's words, or None
        return said if said is not None else view.describe(event, state)

    def odds(self, question: str) -> dict[int, Fraction]:
        """Exact odds of this rule set's own rolls (see :mod:`.odds` for the syntax)."""
        return dict(odds.answer(question))


    # -- policies ------------------------------------------------------------------
    def policy(self, name: str, actor: str, options: Mapping[str, Any]) -> Policy:
        """``heuristic`` (the default AI), ``search``, or the core's ``human``, ``random`` and
        ``scripted``."""
        if name == "heuristic":
            return HeuristicPolicy()
        if name == "search":
            from fracas.ai import search_policy

            return search_policy(self, actor, options)
        return super().policy(name, actor, options)

    def policy_choice(self, state: BattlesystemState, actor: str) -> str | Sequence[str]:
        """What the scenario chose for ``actor`` (a unit or the GM): a policy name or a
        script; the core's ``policy_for`` builds the policy from it."""
        return state.policies.get(actor, "heuristic")

    def search_settings(self, state: BattlesystemState) -> Mapping[str, Any]:
        """The scenario's ``search:`` block: the budget of its ``search`` seats."""
        return dict(state.search)
