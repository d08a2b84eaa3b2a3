"""Rounds apart: a round's opening followed once per key, the same graph as following it
within every resolution (``Explorer.open_from``), and the graph's edges packed flat.

A resolution the solver runs is told ``rounds_apart`` by its Rng; the AD&D rules' ``advance``
then stops at the close of a round, before the next round's initiative, and the explorer
follows the opening from there once for each key of such a state, every resolution that
ends there taking its outcomes.  These tests hold it to following the opening within each
resolution (``Explorer.rounds_apart`` off): the same states in the same order, the same
edges with the same chances in the same order, so the same floats bit for bit and the same
fractions; and fewer resolutions.  A fight that never stops there (the claw duel: Age of
Dragons stops only before a falling pair's landing, ``test_aod_rounds_apart.py``) is
explored alike either way.  The opening is taken from the first state met with its key:
on every state at the close of a round met in these fights, the opening worked out afresh
is the one remembered (the key is sound there).

Checked once against a broken copy: an opening remembered by the fighters' hit points
alone (``Explorer.opening_key``) fails the graph, the floats and the last test on the small
bridge duel (on the tiny duel on flat ground the hit points are the whole position).
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from fracas.odds import duel as duel_module
from fracas.odds import solve_duel
from fracas.odds.duel import DuelLimits, DuelOdds
from fracas.odds.explore import Explorer
from fracas.odds.solve import FlatEdges, solve_by_rounds
from fracas.rules.adnd.state import state_key
from fracas.scenario import load_scenario
from solve_apart import Rechecked, solve_keeping

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"
ADND = [DATA / "adnd_tiny.yaml",
        ROOT / "tests" / "rules" / "adnd" / "data" / "small_bridge_duel.yaml"]


def _solved(path: Path, apart: bool, exact: bool,
            monkeypatch: pytest.MonkeyPatch) -> tuple[DuelOdds, Explorer]:
    """The duel solved with rounds apart or not, and its explorer (its keys kept)."""
    return solve_keeping(load_scenario(path), apart, exact, monkeypatch)


@pytest.mark.parametrize("path", ADND, ids=lambda p: p.stem)
def test_the_opening_followed_apart_gives_the_same_graph_and_fractions(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    apart, explored = _solved(path, True, True, monkeypatch)
    within, plain = _solved(path, False, True, monkeypatch)
    assert list(explored.index) == list(plain.index)  # the same states, in the same order
    assert [list(out.items()) for out in explored.edges] == \
        [list(out.items()) for out in plain.edges]
    assert apart.exact == within.exact and apart.exact is not None
    assert apart.states == within.states
    assert apart.leaves < within.leaves
    assert explored.openings and not plain.openings


@pytest.mark.parametrize("path", ADND, ids=lambda p: p.stem)
def test_the_opening_followed_apart_gives_the_same_floats_bit_for_bit(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    apart, explored = _solved(path, True, False, monkeypatch)
    within, plain = _solved(path, False, False, monkeypatch)
    assert apart.sides == within.sides and apart.draw == within.draw
    assert explored.flat is not None and plain.flat is not None
    for column in ("targets", "took", "counts"):
        assert getattr(explored.flat, column) == getattr(plain.flat, column), column
    # A two-weapon fighter's second blow, followed apart too (test_adnd_second_blow.py),
    # multiplies its chances into the path's in another order: equal but for rounding.
    same = explored.flat.chances == plain.flat.chances
    assert same or (path.stem != "adnd_tiny" and np.allclose(
        explored.flat.chances, plain.flat.chances, rtol=1e-14, atol=0))


def test_a_rule_set_that_never_stops_between_rounds_is_explored_alike(
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = DATA / "claw_duel_small.yaml"
    apart, explored = _solved(path, True, True, monkeypatch)
    within, _ = _solved(path, False, True, monkeypatch)
    assert apart.exact == within.exact
    assert (apart.states, apart.leaves) == (within.states, within.leaves)
    assert not explored.openings


@pytest.mark.parametrize("path", ADND, ids=lambda p: p.stem)
def test_states_at_the_close_of_a_round_with_equal_keys_open_alike(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    Rechecked.checked = 0
    monkeypatch.setattr(duel_module, "Explorer", Rechecked)
    odds = solve_duel(load_scenario(path), exact=True, limits=DuelLimits(max_seconds=None))
    assert odds.exact is not None and sum(odds.exact.values()) == 1
    assert Rechecked.checked > 10


def test_flat_edges_solve_as_the_list_of_dicts() -> None:
    rng = random.Random(30)
    n, labels, draw = 60, 3, 2
    edges: list[dict[tuple[int, int], float]] = []
    for v in range(n):
        out: dict[tuple[int, int], float] = {}
        weights = [rng.random() for _ in range(rng.randint(1, 5))]
        for w in weights:
            # later states within the round, or any state a round or two on, or an end
            target = rng.choice([rng.randint(v + 1, n - 1) if v < n - 1 else -1,
                                 rng.randint(0, n - 1), -1 - rng.randrange(labels)])
            took = 0 if target > v else rng.randint(1, 2) if target >= 0 else rng.randint(0, 1)
            out[(target, took)] = out.get((target, took), 0.0) + w / sum(weights)
        edges.append(out)
    flat = FlatEdges()
    for out in edges:
        flat.add(out)
    assert len(flat) == n
    rounds = [0] * n
    for limit in (0, 1, 4, 30):
        by_dicts = solve_by_rounds(edges, rounds, limit, 0, 0, labels, draw, lifted=True)
        by_flat = solve_by_rounds(flat, rounds, limit, 0, 0, labels, draw, lifted=True)
        assert by_dicts is not None and by_flat is not None
        assert np.array_equal(by_dicts, by_flat)


def test_equal_parts_of_adnd_keys_are_one_object() -> None:
    scenario = load_scenario(ADND[1])
    ruleset = scenario.ruleset
    one = ruleset.initial_state(scenario.model)
    two = ruleset.clone_state(one)
    first, second = state_key(one), state_key(two)
    assert first == second
    fighters_one, fighters_two = first[0], second[0]  # type: ignore[index]
    assert all(a is b for a, b in zip(fighters_one, fighters_two, strict=True))
    two.fighters[next(iter(two.fighters))].hp -= 1
    assert state_key(two) != first
