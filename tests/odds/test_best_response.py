"""The exact best response: a wager solved by hand, and the solver's duels.

The ``wager`` rule set below is small enough to solve on paper.  Rex (red) moves
first and may

* ``bank``: roll a d6; 3 or more wins, else Bo wins (Rex wins 2/3: the sure move);
* ``press``: roll a d6; 4 or more wins, else Bo has a turn (the risky move);
* ``stall``: nothing happens and it is Rex's turn again (a loop without chance);
* ``truce``: the fight ends in a draw.

Bo's only move is ``roll``: a d6, 5 or more wins, else it is Rex's turn again.  If
Rex always presses, his chance ``v`` solves ``v = 1/2 + 1/2 * 2/3 * v``: ``v = 3/4``,
more than banking's 2/3; a policy that mixes in banking does worse, so 3/4 is Rex's
best, and Bo (one move) cannot do better than his fixed chance.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from fracas.core.decision import Menu, Partial, Span
from fracas.core.errors import IllegalActionError
from fracas.core.events import Event, FightEnded, event_type
from fracas.core.policy import DecisionRequest, Policy
from fracas.core.rng import Rng
from fracas.core.ruleset import Action, Emit, Outcome, Ruleset, Standing, register_ruleset
from fracas.odds import DuelError, StateSpaceTooLargeError, solve_duel
from fracas.odds.best_response import best_response
from fracas.odds.duel import DuelLimits
from fracas.scenario import ScenarioBase, load_scenario, parse_scenario

DATA = Path(__file__).parent / "data"


class WagerScenario(ScenarioBase):
    policy: str = "bank"


@dataclass(frozen=True, slots=True)
class Bank(Action):
    verb: ClassVar[str] = "bank"
    actor: str


@dataclass(frozen=True, slots=True)
class Press(Action):
    verb: ClassVar[str] = "press"
    actor: str


@dataclass(frozen=True, slots=True)
class Stall(Action):
    verb: ClassVar[str] = "stall"
    actor: str


@dataclass(frozen=True, slots=True)
class Truce(Action):
    verb: ClassVar[str] = "truce"
    actor: str


@dataclass(frozen=True, slots=True)
class Roll(Action):
    verb: ClassVar[str] = "roll"
    actor: str


@event_type
@dataclass(frozen=True, slots=True)
class Handed(Event):
    kind: ClassVar[str] = "wager.handed"
    to: str
    hidden: bool = False


@dataclass
class WagerState:
    policy: str
    turn: str = "Rex"
    result: tuple[str | None, str] | None = None


SIDES = {"Rex": "red", "Bo": "blue"}
MOVES: dict[str, tuple[type[Action], ...]] = {"Rex": (Bank, Press, Stall, Truce), "Bo": (Roll,)}


class Fixed:
    """Always the same verb."""

    def __init__(self, kind: type[Action]) -> None:
        self.kind = kind

    def choose(self, request: DecisionRequest) -> Action:
        return self.kind(request.actor)


@register_ruleset
class Wager(Ruleset[WagerState]):
    name = "wager"
    scenario_model = WagerScenario
    actions = (Bank, Press, Stall, Truce, Roll)

    def initial_state(self, scenario: WagerScenario) -> WagerState:  # type: ignore[override]
        return WagerState(scenario.policy)

    def clone_state(self, state: WagerState) -> WagerState:
        return dataclasses.replace(state)

    def apply_event(self, state: WagerState, event: Event) -> None:
        if isinstance(event, Handed):
            state.turn = event.to
        elif isinstance(event, FightEnded):
            state.result = (event.winner, event.reason)

    def current_actor(self, state: WagerState) -> str | None:
        return None if state.result else state.turn

    def why_not(self, state: WagerState, partial: Partial) -> IllegalActionError | None:
        if partial.actor != state.turn:
            return partial.refuse("turns", f"it is not {partial.actor}'s turn")
        if partial.kind not in MOVES[partial.actor]:
            return partial.refuse("moves", f"{partial.actor} cannot {partial.verb}")
        return None

    def step(self, state: WagerState, partial: Partial, field: str) -> Menu | Span | None:
        return None

    def resolve(self, state: WagerState, action: Action, rng: Rng, emit: Emit) -> None:
        if isinstance(action, Truce):
            emit(FightEnded(None, "truce"))
        elif isinstance(action, Stall):
            emit(Handed("Rex"))
        elif isinstance(action, Roll):
            emit(FightEnded("blue", "Bo rolled high") if rng.die(6) >= 5 else Handed("Rex"))
        elif rng.die(6) >= (3 if isinstance(action, Bank) else 4):
            emit(FightEnded("red", "Rex rolled high"))
        elif isinstance(action, Bank):
            emit(FightEnded("blue", "Rex's bank failed"))
        else:
            emit(Handed("Bo"))

    def advance(self, state: WagerState, rng: Rng, emit: Emit) -> None:
        return None

    def outcome(self, state: WagerState) -> Outcome | None:
        if state.result is None:
            return None
        return Outcome(state.result[0], state.result[1], 1)

    def standings(self, state: WagerState) -> Sequence[Standing]:
        return [Standing(n, side, "ok", 1, 0) for n, side in SIDES.items()]

    def state_key(self, state: WagerState) -> Hashable:
        return (state.turn, state.result)

    def policy_for(self, state: WagerState, actor: str) -> Policy:
        if actor == "Bo":
            return Fixed(Roll)
        return Fixed({"bank": Bank, "press": Press, "stall": Stall, "truce": Truce}[state.policy])

    def policy(self, name: str, actor: str, options: Mapping[str, Any]) -> Policy:
        return super().policy(name, actor, options)


def wager(policy: str) -> Any:
    return parse_scenario(f"ruleset: wager\npolicy: {policy}\n", "<wager>")


def test_the_risky_move_is_best_against_the_sure_one() -> None:
    result = best_response(wager("bank"), "red")
    assert result.fixed == pytest.approx(2 / 3, abs=1e-12)
    assert result.best == pytest.approx(3 / 4, abs=1e-12)
    assert result.best_odds["blue"] == pytest.approx(1 / 4, abs=1e-12)
    assert result.best_odds[None] == pytest.approx(0.0, abs=1e-12)
    assert result.fixed_odds["blue"] == pytest.approx(1 / 3, abs=1e-12)
    assert result.choices == 1 and result.changed == 1
    assert result.changes == ((Bank("Rex"), Press("Rex")),)
    assert result.unresolved == pytest.approx(0.0, abs=1e-12)


def test_from_a_policy_that_loops_for_ever_the_best_is_found() -> None:
    """Stalling never ends (a win chance of 0, not a solution of 1): policy iteration leaves it."""
    result = best_response(wager("stall"), "red")
    assert result.fixed == pytest.approx(0.0, abs=1e-12)
    assert sum(result.fixed_odds.values()) == pytest.approx(0.0, abs=1e-12)
    assert result.best == pytest.approx(3 / 4, abs=1e-12)


def test_a_draw_counts_as_not_won() -> None:
    result = best_response(wager("truce"), "red")
    assert result.fixed_odds[None] == pytest.approx(1.0)
    assert result.fixed == 0.0
    assert result.best == pytest.approx(3 / 4, abs=1e-12)


def test_a_side_with_one_move_gains_nothing() -> None:
    result = best_response(wager("press"), "blue")
    assert result.best == pytest.approx(1 / 4, abs=1e-12)
    assert result.fixed == pytest.approx(1 / 4, abs=1e-12)
    assert result.choices == 0


def test_unknown_side_and_too_many_moves_are_refused() -> None:
    with pytest.raises(DuelError, match=r"no side 'green'.*red, blue"):
        best_response(wager("bank"), "green")
    with pytest.raises(StateSpaceTooLargeError, match=r"Rex has 4 legal actions.*more than the 2"):
        best_response(wager("bank"), "red", max_moves=2)


def test_toy_duels_by_hand() -> None:
    """One hit point each, random policies: Rex strikes first and kills surely if he strikes."""
    first_blood = load_scenario(DATA / "first_blood.yaml")
    red = best_response(first_blood, "red")
    assert red.fixed == pytest.approx(2 / 3, abs=1e-12)
    assert red.best == pytest.approx(1.0, abs=1e-12)
    blue = best_response(first_blood, "blue")
    assert blue.fixed == pytest.approx(1 / 3, abs=1e-12)
    assert blue.best == pytest.approx(1 / 2, abs=1e-12)  # red strikes first half the time


@pytest.mark.parametrize("name", ["toy_random_duel", "first_blood", "standoff",
                                  "exploding_brawl", "toy_brawl"])
def test_best_is_at_least_the_fixed_policy_and_the_fixed_figure_is_solve_duel(name: str) -> None:
    scenario = load_scenario(DATA / f"{name}.yaml")
    exact = solve_duel(scenario)
    rs = scenario.ruleset
    sides = dict.fromkeys(s.side for s in rs.standings(rs.initial_state(scenario.model)))
    for side in sides:
        result = best_response(scenario, side, limits=DuelLimits(max_seconds=None))
        assert result.fixed == pytest.approx(exact.sides[side], abs=1e-9)
        assert result.best >= result.fixed - 1e-12
        assert sum(result.best_odds.values()) + result.unresolved + result.pruned == \
            pytest.approx(1.0, abs=1e-9)


def test_moves_left_out_give_a_lower_bound_that_keeps_the_fixed_move() -> None:
    def no_press(state: Any, action: Action) -> bool:
        return not isinstance(action, Press)

    result = best_response(wager("truce"), "red", allow=no_press)
    assert result.fixed == 0.0
    assert result.best == pytest.approx(2 / 3, abs=1e-12)  # banking, the best left
    only_stall = best_response(wager("press"), "red",
                               allow=lambda state, action: isinstance(action, Stall))
    assert only_stall.best == pytest.approx(3 / 4, abs=1e-12)  # pressing is still a move


def _strikes(state: Any, action: Action) -> bool:
    """Age of Dragons: every attack, aiming and evading (no manoeuvre, grapple or fall)."""
    return action.verb in ("roll", "reroll", "defend", "end", "attack") or (
        action.verb == "spot" and getattr(action, "effect", None) in ("evade", "aim"))


@pytest.mark.slow
def test_tiny_claw_duel_best_response_beats_the_heuristic() -> None:
    """Evading instead of aiming pays against the heuristic (exact figures pinned)."""
    scenario = load_scenario(DATA / "claw_duel_tiny.yaml")
    exact = solve_duel(scenario)
    mirror = 0.0
    for side in ("red", "blue"):
        result = best_response(scenario, side, allow=_strikes)
        assert result.fixed == pytest.approx(exact.sides[side], abs=1e-9)
        assert result.best > result.fixed + 0.005
        assert any(best.verb == "spot" and getattr(best, "effect", None) == "evade"
                   for _, best in result.changes)
        mirror += result.best / 2
    assert mirror == pytest.approx(0.5129, abs=5e-5)


def test_a_fight_too_large_is_refused_with_what_makes_it_large() -> None:
    scenario = load_scenario(DATA / "toy_random_duel.yaml")
    with pytest.raises(StateSpaceTooLargeError,
                       match=r"more than 20 distinct states.*Ash \(the side solved for\) "
                             r"has up to 2 legal actions"):
        best_response(scenario, "red", limits=DuelLimits(max_states=20))
