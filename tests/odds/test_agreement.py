"""Simulated win rates agree with the exact duel odds within 4 standard errors (fixed seeds)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from fracas.odds import solve_duel
from fracas.scenario import load_scenario
from fracas.sim import InlineExecutor, LocalExecutor, simulate, spec_from_scenario

DATA = Path(__file__).parent / "data"


def _within_four_standard_errors(observed: int, runs: int, p: float) -> None:
    se = math.sqrt(p * (1 - p) / runs)
    assert abs(observed / runs - p) <= 4 * se, (observed / runs, p, se)


@pytest.mark.parametrize("name", ["toy_brawl", "toy_random_duel"])
def test_simulated_toy_duels_agree_with_exact_odds(name: str) -> None:
    scenario = load_scenario(DATA / f"{name}.yaml")
    exact = solve_duel(scenario)
    runs = 6_000
    result = simulate(spec_from_scenario(scenario), runs, seed=2024, executor=InlineExecutor())
    for side, p in exact.sides.items():
        _within_four_standard_errors(result.summary.wins[side], runs, p)
    _within_four_standard_errors(result.summary.draws, runs, exact.draw)


@pytest.mark.slow
def test_simulated_claw_duel_agrees_with_exact_odds() -> None:
    pytest.importorskip("fracas.rules.age_of_dragons")
    scenario = load_scenario(DATA / "claw_duel_small.yaml")
    exact = solve_duel(scenario)
    assert exact.sides["red"] + exact.sides["blue"] == pytest.approx(1.0, abs=1e-9)
    runs = 5_000
    with LocalExecutor(2) as executor:
        result = simulate(spec_from_scenario(scenario), runs, seed=77, executor=executor)
    for side, p in exact.sides.items():
        _within_four_standard_errors(result.summary.wins[side], runs, p)


@pytest.mark.slow
def test_simulated_full_claw_duel_agrees_with_exact_odds() -> None:
    pytest.importorskip("fracas.rules.age_of_dragons")
    scenario = load_scenario(DATA.parents[2] / "examples" / "age_of_dragons" / "claw_duel.yaml")
    exact = solve_duel(scenario)
    runs = 4_000
    with LocalExecutor(2) as executor:
        result = simulate(spec_from_scenario(scenario), runs, seed=11, executor=executor)
    for side, p in exact.sides.items():
        _within_four_standard_errors(result.summary.wins[side], runs, p)
