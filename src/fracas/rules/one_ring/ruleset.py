"""The One Ring (2nd edition) combat sequence as a fracas rule set."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, get_args

from fracas.core.action import Action
from fracas.core.decision import Menu, Partial, Span
from fracas.core.errors import IllegalActionError
from fracas.core.events import Event
from fracas.core.forecast import Forecast
from fracas.core.policy import Policy
from fracas.core.rng import Rng
from fracas.core.ruleset import GM, TO_WIN, Emit, Ruleset, Standing, own_policies
from fracas.rules.one_ring import legality, overrides, resolve
from fracas.rules.one_ring.actions import ACTIONS
from fracas.rules.one_ring.fold import apply_event
from fracas.rules.one_ring.odds import forecast, parse_question, roll_odds
from fracas.rules.one_ring.policies import HeroHeuristic, LoremasterHeuristic
from fracas.rules.one_ring.scenario import OneRingScenario, PolicyName, build_state
from fracas.rules.one_ring.state import COMPANY, ENEMIES, OneRingState
from fracas.rules.one_ring.view import PRESENTATION, describe_event, table, view

__all__ = ["OneRing"]


class OneRing(Ruleset[OneRingState]):
    """The One Ring, 2nd edition: opening volleys, then rounds of stances, engagement and
    actions in stance order, with the game's Feat and Success dice."""

    name = "one_ring"
    title = "The One Ring (2nd edition)"
    scenario_model = OneRingScenario
    presentation = PRESENTATION
    actions = ACTIONS
    policy_names = own_policies(get_args(PolicyName))
    overrides = overrides.OVERRIDES

    # -- setting up --------------------------------------------------------
    def initial_state(self, scenario: OneRingScenario) -> OneRingState:
        """Cards from the scenario and catalogue; every combatant fresh (bar starting Wounds)."""
        return build_state(scenario)

    def clone_state(self, state: OneRingState) -> OneRingState:
        """Cards are shared; only the changing values are copied."""
        return state.clone()

    def apply_event(self, state: OneRingState, event: Event) -> None:
        """Fold one event into the state."""
        apply_event(state, event)

    # -- decisions ---------------------------------------------------------
    def current_actor(self, state: OneRingState) -> str | None:
        """The hero or the Loremaster who decides next."""
        return legality.current_actor(state)

    def why_not(self, state: OneRingState, partial: Partial) -> IllegalActionError | None:
        """Why the action being put together is refused now (naming the rule), or ``None``."""
        return legality.why_not(state, partial)

    def step(self, state: OneRingState, partial: Partial, field: str) -> Menu | Span | None:
        """The candidate values of ``field`` (``None`` when this verb does not ask it)."""
        return legality.step(state, partial, field)

    def allows(self, state: OneRingState, action: Action) -> bool:
        """A quick exact yes for common whole actions (see :func:`legality.allows`)."""
        return legality.allows(state, action)

    def asks(self, state: OneRingState, partial: Partial, field: str) -> bool:
        """Whether ``field`` is asked for (see :func:`legality.asks`)."""
        return legality.asks(state, partial, field)

    def verb_label(self, action: type[Action]) -> str:
        """Words for a verb in the first step of a decision."""
        return legality.VERB_LABELS.get(action.verb, action.verb.replace("_", " "))

    def default_verb(self, state: OneRingState, verbs: Sequence[str]) -> str:
        """Attack when it is on offer."""
        return legality.default_verb(state, list(verbs))

    def resolve(self, state: OneRingState, action: Action, rng: Rng, emit: Emit) -> None:
        """Carry out a legal action."""
        resolve.resolve(state, action, rng, emit)

    def advance(self, state: OneRingState, rng: Rng, emit: Emit) -> None:
        """Run the automatic steps of the combat sequence."""
        resolve.advance(state, rng, emit)

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

    def view(self, state: OneRingState, side: str | None = None) -> dict[str, Any]:
        """JSON-ready picture; the Company does not see the adversaries' numbers."""
        return view(state, side)

    def table(self, state: OneRingState,
              side: str | None = None) -> tuple[list[str], list[list[str]]]:
        """The table of combatants; the Company's (``side="company"``, or when the people at
        the table play only heroes) hides the adversaries' numbers."""
        return table(state, side)

    def describe_event(self, event: Event, state: OneRingState) -> str | None:
        """One line per interesting event."""
        said = overrides.OVERRIDES.describe(event, state)  # a GM override's words, or None
        return said if said is not None else describe_event(event, state)

    def forecast(self, state: OneRingState, action: Action, side: str | None = None,
                 ) -> Forecast | None:
        """The odds of an attack; a Company viewer's leaves out what needs secret numbers."""
        return forecast(state, action, side)

    def odds(self, question: str) -> dict[int, Fraction]:
        """Exact odds of a test, e.g. ``"3d vs 14 favoured weary"`` (see ``odds.py``)."""
        return roll_odds(parse_question(question))

    def odds_labels(self, question: str) -> dict[int, str]:
        """What each degree of :meth:`odds` is called at the table."""
        return {0: "failure", 1: "success", 2: "great success", 3: "extraordinary success"}

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
