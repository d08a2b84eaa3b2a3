"""Plans: a move the search compares both as one move and as a plan its rollouts keep
playing, so a line that pays only if it is kept (a charge built over three rounds) is
found, and the fight's plan is replayed by the later decisions' rollouts."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from fracas.ai import SearchBudget, SearchPolicy, SearchTuning
from fracas.ai.match import play_fight
from fracas.core.decision import Menu, Partial, Span
from fracas.core.errors import IllegalActionError
from fracas.core.events import Event, FightEnded, event_type
from fracas.core.policy import DecisionRequest, Policy
from fracas.core.rng import Rng, SeededRng
from fracas.core.ruleset import Action, Emit, Ruleset, Standing


@dataclass(frozen=True, slots=True)
class Build(Action):
    verb: ClassVar[str] = "build"
    actor: str


@dataclass(frozen=True, slots=True)
class Brace(Action):
    verb: ClassVar[str] = "brace"
    actor: str


@event_type
@dataclass(frozen=True, slots=True)
class Built(Event):
    kind: ClassVar[str] = "plan_test.built"
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Braced(Event):
    kind: ClassVar[str] = "plan_test.braced"
    hidden: bool = False


@dataclass
class ChargeState:
    charge: int = 0
    round: int = 1
    max_rounds: int = 5
    result: tuple[str | None, str] | None = None


class _AlwaysBrace:
    def choose(self, request: DecisionRequest) -> Action:
        return Brace(request.actor)


class Charge(Ruleset[ChargeState]):
    """Ash alone decides, once a round.  Three builds in a row win; bracing with a charge
    half built throws Ash off balance (Bo wins); five rounds of bracing are a draw.  The
    heuristic always braces, so a single build, followed by the heuristic, loses."""

    name = "plan_test"
    actions = (Build, Brace)

    def initial_state(self, scenario: Any) -> ChargeState:
        return ChargeState()

    def clone_state(self, state: ChargeState) -> ChargeState:
        return dataclasses.replace(state)

    def apply_event(self, state: ChargeState, event: Event) -> None:
        if isinstance(event, Built):
            state.charge += 1
            state.round += 1
        elif isinstance(event, Braced):
            state.charge = 0
            state.round += 1
        elif isinstance(event, FightEnded):
            state.result = (event.winner, event.reason)

    def current_actor(self, state: ChargeState) -> str | None:
        return None if state.result else "Ash"

    def why_not(self, state: ChargeState, partial: Partial) -> IllegalActionError | None:
        if partial.actor != "Ash":
            return partial.refuse("turn order", "only Ash decides")
        return None

    def step(self, state: ChargeState, partial: Partial, field: str) -> Menu | Span | None:
        return None

    def resolve(self, state: ChargeState, action: Action, rng: Rng, emit: Emit) -> None:
        if isinstance(action, Build):
            emit(Built())
            if state.charge >= 3:
                emit(FightEnded("a", "the charge struck home"))
        else:
            off_balance = state.charge > 0
            emit(Braced())
            if off_balance:
                emit(FightEnded("b", "caught off balance"))

    def advance(self, state: ChargeState, rng: Rng, emit: Emit) -> None:
        if state.result is None and state.round > state.max_rounds:
            emit(FightEnded(None, "round limit"))

    def standings(self, state: ChargeState) -> Sequence[Standing]:
        return [Standing("Ash", "a", "ok", 1, 1), Standing("Bo", "b", "ok", 1, 1)]

    def state_key(self, state: ChargeState) -> Any:
        return (state.charge, state.round, state.result)

    def policy(self, name: str, actor: str, options: Mapping[str, Any]) -> Policy:
        if name == "heuristic":
            return _AlwaysBrace()
        return super().policy(name, actor, options)


def _decide(plans: bool) -> tuple[Action, SearchPolicy]:
    rules = Charge()
    state = rules.initial_state(None)
    request = DecisionRequest("Ash", state, rules, SeededRng(1))
    policy = SearchPolicy(rules, SearchBudget(rollouts=40, ms=None),
                          tuning=SearchTuning(plans=plans))
    return policy.choose(request), policy


def test_a_single_move_followed_by_the_heuristic_keeps_bracing() -> None:
    action, policy = _decide(plans=False)
    assert action == Brace("Ash")  # a build the heuristic then abandons loses
    assert policy.plan == {}


def test_a_plan_kept_by_the_rollouts_finds_the_charge() -> None:
    action, policy = _decide(plans=True)
    assert action == Build("Ash")
    assert policy.plan == {Brace("Ash"): Build("Ash")}  # the rollouts of later decisions
    sticky = [c for c in policy.last_candidates if c.sticky]
    assert [c.action for c in sticky] == [Build("Ash")]
    assert min(sticky[0].results) == 1.0  # every rollout of the plan wins


def test_the_plan_wins_the_whole_fight() -> None:
    rules = Charge()
    state = rules.initial_state(None)
    for plans, winner in ((True, "a"), (False, None)):
        policy = SearchPolicy(rules, SearchBudget(rollouts=40, ms=None),
                          tuning=SearchTuning(plans=plans))
        assert play_fight(rules, state, 3, lambda actor, p=policy: p) == winner


def test_a_plan_that_never_comes_into_play_drops_out_after_four_rollouts() -> None:
    rules = Charge()
    state = ChargeState(max_rounds=1)  # one decision left: no later brace to replace
    request = DecisionRequest("Ash", state, rules, SeededRng(1))
    policy = SearchPolicy(rules, SearchBudget(rollouts=40, ms=None))
    assert policy.choose(request) == Brace("Ash")  # a draw either way: the heuristic's
    sticky = [c for c in policy.last_candidates if c.sticky]
    assert len(sticky) == 1 and sticky[0].used == 0
    assert len(sticky[0].results) == 4  # dropped at the first look
    assert policy.plan == {}


def test_a_planned_move_is_played_only_where_it_is_legal() -> None:
    from fracas.ai.search.rollouts import Planned

    rules = Charge()
    heuristic = _AlwaysBrace()
    planned = Planned(lambda actor: heuristic, {Brace("Ash"): Build("Ash")}, Brace("Ash"))
    request = DecisionRequest("Ash", ChargeState(), rules, SeededRng(1))
    action = planned.choose(request)
    assert action == Build("Ash")
    assert request.vetted(action)  # checked once: the engine applies it unchecked
    assert planned.used == 1
    refused = Planned(lambda actor: heuristic, {Brace("Ash"): Build("Bo")}, Brace("Ash"))
    assert refused.choose(request) == Brace("Ash")  # Bo never decides: the heuristic's move
    assert refused.used == 0
