"""The exact duel solver on an AD&D fight, against a simulation of the same fight (slow).

``data/small_bridge_duel.yaml`` is the bridge duel with few hit points and a three-round
limit: every rule the exact solver is told it may merge (d20 and d100 checks as pass or
fail, felling blows, falls off the bridge, initiative as an order, fighters out of the
fight) is in play, and so is the round limit.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from fracas.odds import solve_duel
from fracas.scenario import load_scenario
from fracas.sim import LocalExecutor, simulate, spec_from_scenario

SMALL = Path(__file__).parent / "data" / "small_bridge_duel.yaml"
#: z of a two-sided 99% interval.
Z99 = 2.5758


@pytest.mark.slow
def test_the_exact_odds_of_a_small_bridge_duel_lie_in_the_99_percent_interval_of_20000_fights(
) -> None:
    scenario = load_scenario(SMALL)
    exact = solve_duel(scenario)
    assert exact.pruned == 0.0 and exact.unresolved < 1e-12
    assert sum(exact.sides.values()) + exact.draw == pytest.approx(1.0, abs=1e-12)
    # the value found on 2026-12-01 (a change in the rules or the solver shows here first)
    assert exact.sides["paladin"] == pytest.approx(0.5193622088612205, abs=1e-9)
    assert exact.sides["assassins"] == pytest.approx(0.2305905371509699, abs=1e-9)
    assert exact.draw == pytest.approx(0.2500472539878097, abs=1e-9)
    runs = 20_000
    with LocalExecutor(2) as executor:
        result = simulate(spec_from_scenario(scenario), runs, seed=1, executor=executor)
    observed: dict[str, int] = {**result.summary.wins, "draw": result.summary.draws}
    for side, p in (*exact.sides.items(), ("draw", exact.draw)):
        half = Z99 * math.sqrt(p * (1 - p) / runs)
        assert abs(observed.get(side, 0) / runs - p) <= half, (side, observed.get(side), p)
