"""The exact solver's stop between a two-weapon fighter's blows (AD&D).

For the solver's Rng (its ``rounds_apart``) ``resolve`` stops after the first blow of a
two-weapon fighter, keeping the second in ``state.blow``; nobody decides there, and the
explorer follows the rest from there once per key (``Explorer.open_from``): ``advance``,
told to go on, strikes the blow, ends the turn and lets the Rng stop again at the close of
the round.  These tests hold it to the engine's way (both blows at once): the same events
in the same order, the same state; and, solved, the same graph and the same fractions as
with nothing followed apart, every state with a blow to strike opening as the one
remembered by its key.

Checked once against broken copies: a clone that drops the blow (the second blow never
struck: the graph and the fractions differ), a ``current_actor`` that lets the striker
decide again with his blow pending (the events and the fractions differ), a key without
the blow (``test_a_blow_to_strike_is_part_of_the_key``), and an ``advance`` that leaves
the Rng told not to stop (the close of the round after a second blow is no longer kept:
``test_the_solver_keeps_states_with_a_blow_to_strike_and_after_it``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fracas.core.events import Event
from fracas.core.rng import ScriptedRng
from fracas.core.ruleset import GM
from fracas.odds.duel import DuelOdds
from fracas.odds.explore import Explorer
from fracas.rules.adnd import AdndScenario, AdndUnderground, AdndUndergroundState
from fracas.rules.adnd.actions import Attack, Proceed
from fracas.rules.adnd.events import AttackRolled, RoundBegan, TurnEnded
from fracas.rules.adnd.state import state_key
from fracas.scenario import load_scenario
from solve_apart import solve_keeping

ROOT = Path(__file__).resolve().parents[2]
SMALL_BRIDGE = ROOT / "tests" / "rules" / "adnd" / "data" / "small_bridge_duel.yaml"


class _Told(ScriptedRng):
    """Scripted dice with the solver's ``rounds_apart`` (the rules read only that of it)."""

    def __init__(self, faces: list[int], apart: bool) -> None:
        super().__init__(faces)
        self.rounds_apart = apart


def _ready(rs: AdndUnderground) -> AdndUndergroundState:
    """A two-weapon fighter (A) about to strike B, the last turn of round 1."""
    model = AdndScenario.model_validate({"ruleset": "adnd", "combatants": [
        {"name": "A", "side": "x", "hp": 20, "thac0": 15, "ac": 5, "two_weapons": True,
         "weapons": [{"name": "dagger", "damage": "1d4", "length_ft": 1.2},
                     {"name": "stiletto", "damage": "1d3", "length_ft": 0.8}]},
        {"name": "B", "side": "y", "hp": 30, "thac0": 15, "ac": 5,
         "weapons": [{"name": "sword", "damage": "1d8", "length_ft": 3.5}]}]})
    state = rs.initial_state(model)
    emit = _folding(rs, state, [])
    rs.advance(state, ScriptedRng([2, 1]), emit)  # B's side first
    for action in (Proceed("gm"), Attack("B", "A", "sword")):
        rs.resolve(state, action, ScriptedRng([1]), emit)  # B misses
        rs.advance(state, ScriptedRng([]), emit)
    assert rs.current_actor(state) == "A"
    return state


def _folding(rs: AdndUnderground, state: AdndUndergroundState,
             seen: list[Event]) -> Any:
    def emit(event: Event) -> None:
        seen.append(event)
        rs.apply_event(state, event)
    return emit


# Both blows hit (d20, damage each), then round 2's initiative (A's side first).
FACES = [15, 3, 16, 2, 1, 2]


def test_the_second_blow_struck_apart_makes_the_engines_events_and_state() -> None:
    rs = AdndUnderground()
    attack = Attack("A", "B", "dagger")
    engine = _ready(rs)
    together: list[Event] = []
    rng = _Told(FACES, apart=False)
    rs.resolve(engine, attack, rng, _folding(rs, engine, together))
    rs.advance(engine, rng, _folding(rs, engine, together))
    assert len([e for e in together if isinstance(e, AttackRolled)]) == 2
    assert rs.current_actor(engine) == GM and engine.round == 2  # the DM opens round 2

    solver = _ready(rs)
    apart: list[Event] = []
    told = _Told(FACES, apart=True)
    rs.resolve(solver, attack, told, _folding(rs, solver, apart))
    rs.advance(solver, told, _folding(rs, solver, apart))
    # Stopped after the first blow: the second still to strike, nobody to decide.
    assert solver.blow is not None and solver.blow[:2] == ("A", "B")
    assert solver.blow[2].name == "stiletto"
    assert rs.current_actor(solver) is None and rs.outcome(solver) is None
    assert len([e for e in apart if isinstance(e, AttackRolled)]) == 1
    assert not any(isinstance(e, TurnEnded) for e in apart)
    kept = rs.clone_state(solver)
    assert kept.blow == solver.blow and state_key(kept) == state_key(solver)
    # Told to go on, it strikes the blow and ends the turn, then stops at the round's close
    # (it tells the Rng it may: the solver opens the next round apart).
    told.rounds_apart = False
    rs.advance(solver, told, _folding(rs, solver, apart))
    assert told.rounds_apart is True
    assert solver.blow is None and rs.current_actor(solver) is None and solver.round == 1
    told.rounds_apart = False
    rs.advance(solver, told, _folding(rs, solver, apart))
    assert apart == together
    assert solver == engine and state_key(solver) == state_key(engine)
    assert told.remaining == rng.remaining == 0
    assert any(isinstance(e, RoundBegan) for e in apart)


def test_a_blow_to_strike_is_part_of_the_key() -> None:
    rs = AdndUnderground()
    state = _ready(rs)
    before = state_key(state)
    told = _Told(FACES[:2], apart=True)
    rs.resolve(state, Attack("A", "B", "dagger"), told, _folding(rs, state, []))
    assert state.blow is not None
    struck = state_key(state)
    pending = state.blow
    state.blow = None
    assert state_key(state) != struck  # the same fight but for the blow to strike
    state.blow = (pending[0], pending[1], state.profile("A").weapons[0])
    assert state_key(state) not in (struck, before)


def _solved(apart: bool, monkeypatch: pytest.MonkeyPatch,
            explorer: type[Explorer] = Explorer) -> tuple[DuelOdds, Explorer]:
    """The small bridge duel solved in fractions, its explorer kept (its keys too)."""
    return solve_keeping(load_scenario(SMALL_BRIDGE), apart, True, monkeypatch, explorer)


class _Rechecked(Explorer):
    """Works out afresh every opening with a blow to strike whose key is remembered, and
    counts the rounds' closes met while following a blow (kept apart in turn)."""

    checked = 0
    closes_after_blows = 0
    following_blow = False

    def open(self, state: Any) -> tuple[tuple[int, int, Any], ...]:
        outer, self.following_blow = self.following_blow, state.blow is not None
        try:
            return super().open(state)
        finally:
            self.following_blow = outer

    def open_from(self, state: Any, p: Any, out: dict[Any, Any]) -> None:
        key = self.opening_key(state)
        if state.blow is None and self.following_blow:
            type(self).closes_after_blows += 1
        if state.blow is not None and key in self.openings:
            assert self.open(state) == self.openings[key], state_key(state)
            type(self).checked += 1
        super().open_from(state, p, out)


def test_the_solver_keeps_states_with_a_blow_to_strike_and_after_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _Rechecked.checked = _Rechecked.closes_after_blows = 0
    apart, explored = _solved(True, monkeypatch, _Rechecked)
    within, plain = _solved(False, monkeypatch)
    assert explored.lifted  # the openings are remembered by the state's key alone
    blows = [key for key in explored.openings if key[-1] is not None]  # type: ignore[index]
    assert blows and len(blows) < len(explored.openings) and not plain.openings
    assert _Rechecked.checked > 10
    # A round that closes on a second blow is opened apart too (within the blow's opening).
    assert _Rechecked.closes_after_blows > 10
    # The same graph (states, edges, chances) and the same fractions as within.
    assert list(explored.index) == list(plain.index)
    assert [list(out.items()) for out in explored.edges] == \
        [list(out.items()) for out in plain.edges]
    assert apart.exact == within.exact and apart.exact is not None
    assert sum(apart.exact.values()) == 1
    assert apart.leaves < within.leaves
