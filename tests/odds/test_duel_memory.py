"""The exact solver and Python's cycle collector: its graph dies by reference counting,
and the collector is left as the solver found it."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from fracas.odds import DuelLimits, StateSpaceTooLargeError, solve_duel
from fracas.scenario import load_scenario

DATA = Path(__file__).parent / "data"


@pytest.fixture
def collector_on() -> Iterator[None]:
    was_on = gc.isenabled()
    gc.enable()
    gc.collect()
    yield
    if not was_on:
        gc.disable()


@pytest.mark.usefixtures("collector_on")
def test_the_solved_graph_is_freed_without_the_cycle_collector() -> None:
    # A chance point kept in a graph node used to hold its traceback, whose frames tied
    # the whole graph (thousands of state keys) into one cycle only a collection frees.
    scenario = load_scenario(DATA / "claw_duel_small.yaml")
    gc.disable()
    try:
        odds = solve_duel(scenario)
        left = gc.collect()
    finally:
        gc.enable()
    assert odds.leaves > 300
    assert left < 200


@pytest.mark.usefixtures("collector_on")
def test_the_collector_is_switched_back_on_after_a_solve_and_after_a_refusal() -> None:
    solve_duel(load_scenario(DATA / "claw_duel_small.yaml"))
    assert gc.isenabled()
    with pytest.raises(StateSpaceTooLargeError):
        solve_duel(load_scenario(DATA / "toy_brawl.yaml"), limits=DuelLimits(max_states=10))
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_on")
def test_a_collector_switched_off_by_the_caller_stays_off() -> None:
    gc.disable()
    try:
        solve_duel(load_scenario(DATA / "claw_duel_small.yaml"))
        assert not gc.isenabled()
    finally:
        gc.enable()
