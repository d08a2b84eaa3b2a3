"""Age of Dragons rounds apart: a round's landings followed once per key, the same graph.

For the exact solver's Rng (its ``rounds_apart``) ``resolve.advance`` stops at the close of
a round whose end phase rolls a forced landing, before the end phase; the solver then
follows the end phase and the next round's opening from there once for each key of such
a state (``Explorer.open_from``), every resolution that ends there taking its outcomes.
Held here to following the landing within each resolution (``Explorer.rounds_apart``
off) on small grappling duels where both dragons fall and land: the same states in the
same order, the same edges with the same fractions in the same order, fewer resolutions;
every state at such a close met in those fights opens as the one remembered by its key;
and, step by step, the stop and the resumed ``advance`` make the events and the state of
one uninterrupted ``advance`` with the same dice (seeded and scripted dice never stop).

Checked once against broken copies of ``resolve._landing_due``: one that never stops fails
the graph tests (no openings, as many resolutions) and the test of equal keys (nothing
opened); one that stops at every close of a round where a combatant is one level up,
whether or not it falls, fails the test of a round close with no landing (in these duels
only a falling pair is ever one level up, so the graphs alone do not tell it).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from fracas.core.events import Event
from fracas.core.rng import ScriptedRng
from fracas.odds import duel as duel_module
from fracas.odds import solve_duel
from fracas.odds.chance import ChanceRng
from fracas.odds.duel import DuelLimits, DuelOdds
from fracas.odds.explore import Explorer
from fracas.rules.age_of_dragons import resolve
from fracas.rules.age_of_dragons.events import LandedHard, RoundEnded
from fracas.rules.age_of_dragons.fold import apply_event
from fracas.rules.age_of_dragons.key import state_key
from fracas.rules.age_of_dragons.state import STRAFING_LOW, AgeOfDragonsState, pair
from fracas.scenario import Scenario
from solve_apart import Rechecked, solve_keeping

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules" / "age_of_dragons"))

from test_odds_breath import BREATH, SMALL, _variant

#: Small duels at close quarters where the stronger dragon grapples the weaker and both
#: fall and land (a landing on bare rock rolls one die more).
LANDINGS = {
    "grapple": (*SMALL, ("pr: 4", "pr: 10", "first"), ("range: long", "range: close")),
    "grapple on bare rock": (*SMALL, ("pr: 4", "pr: 10", "first"),
                               ("range: long", "range: close"),
                               ("options: {", "ground: bare_rock\noptions: {")),
}


def _scenario(name: str) -> Scenario:
    return _variant(BREATH, *LANDINGS[name])


def _solved(name: str, apart: bool, exact: bool,
            monkeypatch: pytest.MonkeyPatch) -> tuple[DuelOdds, Explorer]:
    """The duel solved with landings apart or not, and its explorer (its keys kept)."""
    return solve_keeping(_scenario(name), apart, exact, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(LANDINGS))
def test_landings_followed_apart_give_the_same_graph_and_fractions(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    apart, explored = _solved(name, True, True, monkeypatch)
    within, plain = _solved(name, False, True, monkeypatch)
    assert list(explored.index) == list(plain.index)  # the same states, in the same order
    assert explored.edges == plain.edges  # the same edges with the same fractions
    assert apart.exact == within.exact and apart.exact is not None
    assert apart.states == within.states
    assert apart.leaves < within.leaves
    assert explored.openings and not plain.openings


@pytest.mark.slow
@pytest.mark.parametrize("name", list(LANDINGS))
def test_landings_followed_apart_give_the_same_floats(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    apart, _ = _solved(name, True, False, monkeypatch)
    within, _ = _solved(name, False, False, monkeypatch)
    assert apart.sides.keys() == within.sides.keys()
    for side, p in within.sides.items():
        assert apart.sides[side] == pytest.approx(p, abs=1e-12), side
    assert apart.draw == pytest.approx(within.draw, abs=1e-12)


@pytest.mark.slow
def test_states_at_a_landing_close_with_equal_keys_open_alike(
        monkeypatch: pytest.MonkeyPatch) -> None:
    Rechecked.checked = 0
    monkeypatch.setattr(duel_module, "Explorer", Rechecked)
    odds = solve_duel(_scenario("grapple on bare rock"), exact=True,
                      limits=DuelLimits(max_seconds=None))
    assert odds.exact is not None and sum(odds.exact.values()) == 1
    assert Rechecked.checked > 10


# -- the stop itself, step by step ----------------------------------------------------------
def _at_landing_close() -> AgeOfDragonsState:
    """A state of the grappling duel at the close of a round whose end phase lands both
    dragons: locked together one level up, every turn of the round over."""
    scenario = _scenario("grapple")
    ruleset = scenario.ruleset
    state: AgeOfDragonsState = ruleset.initial_state(scenario.model)
    names = list(state.fighters)
    state.order = tuple(names)
    state.round, state.turn_index, state.turn, state.may_end = 1, len(names), None, False
    for fighter in state.fighters.values():
        fighter.altitude = STRAFING_LOW  # one level up
    state.grapples = {pair(*names)}
    return state


def test_the_solver_stops_before_a_landing_and_resumes_as_one_advance() -> None:
    state = _at_landing_close()
    assert resolve._landing_due(state)
    dice = [3, 4, 6, 1, *[5] * 40]

    once: list[Event] = []
    straight = state.copy()
    resolve.advance(straight, ScriptedRng(dice), lambda e: (once.append(e),
                                                            apply_event(straight, e)))
    assert any(type(e) is LandedHard for e in once)

    stopped = state.copy()
    rng = ChanceRng((), None, stopped)
    rng.rounds_apart = True
    told: list[Event] = []
    resolve.advance(stopped, rng, lambda e: (told.append(e), apply_event(stopped, e)))
    assert told == [] and stopped == state  # nothing of the end phase yet
    assert stopped.result is None and stopped.turn is None and stopped.pending is None
    resolve.advance(stopped, ScriptedRng(dice), lambda e: (told.append(e),
                                                           apply_event(stopped, e)))
    assert told == once
    assert stopped == straight and state_key(stopped) == state_key(straight)


def test_the_solver_goes_on_through_a_round_close_with_no_landing() -> None:
    state = _at_landing_close()
    state.grapples = set()  # nobody locked: both stay up, nothing rolled
    assert not resolve._landing_due(state)
    rng = ChanceRng((), None, state)
    rng.rounds_apart = True
    told: list[Event] = []
    resolve.advance(state, rng, lambda e: (told.append(e), apply_event(state, e)))
    assert any(type(e) is RoundEnded for e in told)
