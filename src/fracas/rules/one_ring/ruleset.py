"""The One Ring (2nd edition) combat sequence as a fracas rule set."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from fracas.core.action import Action
from fracas.core.decision import Menu, Partial, Span
from fracas.core.errors import IllegalActionError
from fracas.core.events import Event
from fracas.core.policy import HumanPolicy, Policy
from fracas.core.rng import Rng
from fracas.core.ruleset import GM, Emit, Outcome, Ruleset, Standing
from fracas.rules.one_ring import flow, rules
from fracas.rules.one_ring.actions import ACTIONS
from fracas.rules.one_ring.catalogue import catalogue
from fracas.rules.one_ring.fold import apply_event
from fracas.rules.one_ring.odds import parse_question, roll_odds
from fracas.rules.one_ring.policies import HeroHeuristic, LoremasterHeuristic
from fracas.rules.one_ring.scenario import AdversarySpec, HeroSpec, OneRingScenario
from fracas.rules.one_ring.state import (
    COMPANY,
    ENEMIES,
    HELM,
    SHIELD,
    FoeCard,
    FoeState,
    HeroCard,
    HeroState,
    OneRingState,
    Roster,
)
from fracas.rules.one_ring.view import describe_event, table, view

__all__ = ["OneRing"]


def _policy_value(choice: str | list[str]) -> str | tuple[str, ...]:
    return choice if isinstance(choice, str) else tuple(choice)


def _hero_card(spec: HeroSpec) -> HeroCard:
    cat = catalogue()
    armour = cat.armour[spec.armour]
    shield = cat.shields[spec.shield] if spec.shield else None
    weapons = tuple(cat.weapons[name] for name in spec.weapons)
    loads = {w.name: w.load for w in weapons}
    if spec.helm:
        loads[HELM] = cat.helm.load
    if shield is not None:
        loads[SHIELD] = shield.load
    return HeroCard(
        name=spec.name, strength=spec.strength, heart=spec.heart, wits=spec.wits,
        endurance_max=spec.endurance, hope_max=spec.hope, shadow=spec.shadow,
        parry=spec.parry if spec.parry is not None else 12 + spec.wits,
        armour_dice=armour.protection, helm_dice=cat.helm.protection if spec.helm else 0,
        shield_bonus=shield.parry if shield else 0, base_load=armour.load + spec.fatigue,
        weapons=weapons, item_loads=loads, proficiencies=dict(spec.proficiencies),
        skills=dict(spec.skills), aware=spec.aware, always_weary=spec.weary,
        always_miserable=spec.miserable, policy=_policy_value(spec.policy),
    )


def _foe_cards(spec: AdversarySpec) -> list[FoeCard]:
    base = catalogue().adversaries[spec.kind] if spec.kind else None

    def pick(field: str) -> Any:
        value = getattr(spec, field)
        if value is not None or base is None:
            return value
        return getattr(base, field)

    weapons = tuple(spec.weapons) if spec.weapons is not None else pick("weapons")
    return [FoeCard(
        name=name, kind=spec.kind or spec.name, attribute_level=pick("attribute_level"),
        endurance_max=pick("endurance"), might=pick("might"), hate_max=pick("hate"),
        hate_label=pick("hate_label") or "hate", parry=pick("parry"), armour=pick("armour"),
        large=(pick("size") or "human") == "large", eligible=spec.eligible, weapons=weapons,
    ) for name in spec.names()]


class OneRing(Ruleset[OneRingState]):
    """The One Ring, 2nd edition: opening volleys, then rounds of stances, engagement and
    actions in stance order, with the game's Feat and Success dice."""

    name = "one_ring"
    title = "The One Ring (2nd edition)"
    scenario_model = OneRingScenario
    actions = ACTIONS

    # -- setting up --------------------------------------------------------
    def initial_state(self, scenario: OneRingScenario) -> OneRingState:
        """Cards from the scenario and catalogue; every combatant fresh (bar starting Wounds)."""
        heroes = {h.name: _hero_card(h) for h in scenario.heroes}
        foes = {c.name: c for spec in scenario.adversaries for c in _foe_cards(spec)}
        roster = Roster(
            heroes=heroes, foes=foes, hero_order=tuple(heroes), foe_order=tuple(foes),
            volleys=scenario.volleys if isinstance(scenario.volleys, int) else None,
            max_volleys=scenario.max_volleys, long_distance=scenario.distance == "long",
            enemy_volleys_first=scenario.enemy_volleys_first, max_rounds=scenario.max_rounds,
            gm_policy=_policy_value(scenario.gm_policy), gm_hidden=scenario.gm_rolls_hidden,
        )
        wounds = {h.name: h.wounds for h in scenario.heroes}
        hero_states = {}
        for name, card in heroes.items():
            first_close = next((w.name for w in card.weapons if not w.ranged),
                               card.weapons[0].name if card.weapons else None)
            hero_states[name] = HeroState(card.endurance_max, card.hope_max,
                                          wounds=wounds[name], wielded=first_close)
        foe_states = {n: FoeState(c.endurance_max, c.hate_max, eligible=c.eligible)
                      for n, c in foes.items()}
        return OneRingState(roster, hero_states, foe_states)

    def clone_state(self, state: OneRingState) -> OneRingState:
        """Cards are shared; only the changing values are copied."""
        return state.clone()

    def apply_event(self, state: OneRingState, event: Event) -> None:
        """Fold one event into the state."""
        apply_event(state, event)

    # -- decisions ---------------------------------------------------------
    def current_actor(self, state: OneRingState) -> str | None:
        """The hero or the Loremaster who decides next."""
        return rules.current_actor(state)

    def why_not(self, state: OneRingState, partial: Partial) -> IllegalActionError | None:
        """Why the action being put together is refused now (naming the rule), or ``None``."""
        return rules.why_not(state, partial)

    def step(self, state: OneRingState, partial: Partial, field: str) -> Menu | Span | None:
        """The candidate values of ``field`` (``None`` when this verb does not ask it)."""
        return rules.step(state, partial, field)

    def verb_label(self, action: type[Action]) -> str:
        """Words for a verb in the first step of a decision."""
        return rules.VERB_LABELS.get(action.verb, action.verb.replace("_", " "))

    def default_verb(self, state: OneRingState, verbs: Sequence[str]) -> str:
        """Attack when it is on offer."""
        return rules.default_verb(state, list(verbs))

    def resolve(self, state: OneRingState, action: Action, rng: Rng, emit: Emit) -> None:
        """Carry out a legal action."""
        flow.resolve(state, action, rng, emit)

    def advance(self, state: OneRingState, rng: Rng, emit: Emit) -> None:
        """Run the automatic steps of the combat sequence."""
        flow.advance(state, rng, emit)

    def outcome(self, state: OneRingState) -> Outcome | None:
        """Who won once one side is out of the fight (or the round limit passed)."""
        if state.result is None:
            return None
        return Outcome(state.result[0], state.result[1], state.round)

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
        return describe_event(event, state)

    def odds(self, question: str) -> dict[int, Fraction]:
        """Exact odds of a test, e.g. ``"3d vs 14 favoured weary"`` (see ``odds.py``)."""
        return roll_odds(parse_question(question))

    # -- policies --------------------------------------------------------------
    def policy(self, name: str, actor: str, options: Mapping[str, Any]) -> Policy:
        """``heuristic`` (hero or Loremaster), ``search``, ``human``, ``random`` or ``scripted``."""
        if name == "heuristic":
            return LoremasterHeuristic() if actor == GM else HeroHeuristic()
        if name == "human":
            return HumanPolicy()
        if name == "search":
            from fracas.ai import search_policy

            # The Loremaster searches for the adversaries' side.
            return search_policy(self, actor, {"side": ENEMIES, **options} if actor == GM
                                 else options)
        return super().policy(name, actor, options)

    def policy_for(self, state: OneRingState, actor: str) -> Policy:
        """The policy the scenario chose for ``actor`` (``gm`` included)."""
        card = state.roster.heroes.get(actor)
        choice = card.policy if card is not None else state.roster.gm_policy
        if isinstance(choice, tuple):
            return self.policy("scripted", actor, {"script": choice})
        return self.policy(choice, actor, {})
