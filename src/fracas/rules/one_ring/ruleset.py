"""The One Ring (2nd edition) combat sequence as a fracas rule set."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, get_args

from fracas.core.action import Action
from fracas.core.events import Event
from fracas.core.policy import Policy
from fracas.core.ruleset import GM, TO_WIN, Ruleset, Standing, own_policies
from fracas.rules.one_ring import fold, lean, legality, odds, overrides, resolve, view
from fracas.rules.one_ring.actions import ACTIONS
from fracas.rules.one_ring.odds import parse_question, roll_odds
from fracas.rules.one_ring.policies import HeroHeuristic, LoremasterHeuristic
from fracas.rules.one_ring.scenario import OneRingScenario, PolicyName, build_state
from fracas.rules.one_ring.state import COMPANY, ENEMIES, OneRingState

__all__ = ["OneRing"]


class OneRing(Ruleset[OneRingState]):
    """The One Ring, 2nd edition: opening volleys, then rounds of stances, engagement and
    actions in stance order, with the game's Feat and Success dice."""

    name = "one_ring"
    title = "The One Ring (2nd edition)"
    scenario_model = OneRingScenario
    presentation = view.PRESENTATION
    actions = ACTIONS
    policy_names = own_policies(get_args(PolicyName))
    overrides = overrides.OVERRIDES
    #: apply_event, current_actor, why_not, step, allows, asks, default_verb, resolve,
    #: advance, view, table (the Company's hides the adversaries' numbers) and forecast
    #: are the functions of those names in these modules.
    modules = (fold, legality, resolve, view, odds)
    #: Cards from the scenario and catalogue; every combatant fresh (bar starting Wounds).
    initial_state = staticmethod(build_state)
    #: The heuristics' decisions in one loop where nobody reads the events
    #: (:data:`fracas.core.loop.LeanTurns`, :func:`.lean.heuristic_turns`).
    lean_turns = staticmethod(lean.heuristic_turns)

    def clone_state(self, state: OneRingState) -> OneRingState:
        """Cards are shared; only the changing values are copied."""
        return state.clone()

    # -- decisions ---------------------------------------------------------
    def verb_label(self, action: type[Action]) -> str:
        """Words for a verb in the first step of a decision."""
        return legality.VERB_LABELS.get(action.verb, action.verb.replace("_", " "))

    def apply_decision(self, state: OneRingState, actor: str, action: Action) -> None:
        """The fold of ``DecisionMade(actor, action)`` without making it: nothing (a decision
        changes the state only through the events its resolution emits)."""

    # -- reading -------------------------------------------------------------
    def standings(self, state: OneRingState) -> Sequence[Standing]:
        """Heroes then adversaries, with Endurance as health."""
        out = [Standing(n, COMPANY, state.heroes[n].status, state.heroes[n].endurance,
                        state.roster.heroes[n].endurance_max) for n in state.roster.hero_order]
        out += [Standing(n, ENEMIES, state.foes[n].status, state.foes[n].endurance,
                         state.roster.foes[n].endurance_max) for n in state.roster.foe_order]
        return out

    def describe_event(self, event: Event, state: OneRingState) -> str | None:
        """One line per interesting event."""
        said = overrides.OVERRIDES.describe(event, state)  # a GM override's words, or None
        return said if said is not None else view.describe_event(event, state)

    def odds(self, question: str) -> dict[int, Fraction]:
        """Exact odds of a test, e.g. ``"3d vs 14 favoured weary"`` (see ``odds.py``)."""
        return roll_odds(parse_question(question))

    # -- policies --------------------------------------------------------------
    def policy(self, name: str, actor: str, options: Mapping[str, Any]) -> Policy:
        """``heuristic`` (hero or Loremaster; a hero's with the option ``to_win`` never
        escapes) and ``search``; the core's ``human``, ``random`` and ``scripted`` for the
        rest."""
        if name == "heuristic":
            return LoremasterHeuristic() if actor == GM else \
                HeroHeuristic(to_win=bool(options.get(TO_WIN)))
        if name == "search":
            from fracas.ai import search_policy

            # The Loremaster searches for the adversaries' side.
            return search_policy(self, actor, {"side": ENEMIES, **options} if actor == GM
                                 else options)
        return super().policy(name, actor, options)

    def policy_choice(self, state: OneRingState, actor: str) -> str | Sequence[str]:
        """The policy the scenario chose for ``actor`` (``gm`` included), or its script."""
        card = state.roster.heroes.get(actor)
        return card.policy if card is not None else state.roster.gm_policy

    def search_settings(self, state: OneRingState) -> Mapping[str, Any]:
        """The scenario's ``search:`` block: the budget of its ``search`` seats."""
        return dict(state.roster.search)
