"""Every shipped one-against-one example, solved exactly and checked against 20,000 fights.

Each exact chance (every side's win and the draw) lies in the 99% Wilson interval of
20,000 simulated fights with fixed seeds.  The solver's CPU limit here is generous
(:data:`SOLVED_WITHIN`): how fast each duel is solved is a benchmark figure
(``benchmarks/README.md``), never a bound a busy or slow machine could fail.  Every duel
is solved at the default limit of states.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from fracas.odds import solve_duel
from fracas.odds.duel import DuelLimits
from fracas.scenario import load_scenario
from fracas.sim import LocalExecutor, simulate, spec_from_scenario

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
DATA = Path(__file__).parent / "data"
RUNS = 20_000
Z99 = 2.5758


#: CPU seconds a solvable duel may take in this test (its figure is far below).
SOLVED_WITHIN = 600.0

DUELS = [
    pytest.param(EXAMPLES / "age_of_dragons" / "claw_duel.yaml", id="claw_duel"),
    pytest.param(EXAMPLES / "age_of_dragons" / "breath_duel.yaml", id="breath_duel"),
    pytest.param(EXAMPLES / "adnd" / "wall_duel.yaml", id="wall_duel"),
    pytest.param(EXAMPLES / "adnd" / "ledge_sentry.yaml", id="ledge_sentry"),
    pytest.param(DATA / "adnd_single.yaml", id="adnd_single"),
    pytest.param(EXAMPLES / "adnd" / "bridge_duel.yaml", id="bridge_duel"),
]


def _wilson(successes: int, runs: int) -> tuple[float, float]:
    p = successes / runs
    centre = (p + Z99**2 / (2 * runs)) / (1 + Z99**2 / runs)
    half = Z99 * math.sqrt(p * (1 - p) / runs + Z99**2 / (4 * runs**2)) / (1 + Z99**2 / runs)
    return centre - half, centre + half


@pytest.mark.slow
@pytest.mark.parametrize("path", DUELS)
def test_every_shipped_duel_is_solved_exactly_and_agrees_with_simulation(path: Path) -> None:
    scenario = load_scenario(path)
    exact = solve_duel(scenario, limits=DuelLimits(max_seconds=SOLVED_WITHIN))
    assert exact.unresolved < 1e-9 and exact.pruned < 1e-9
    with LocalExecutor(2) as executor:
        result = simulate(spec_from_scenario(scenario), RUNS, seed=30, executor=executor)
    counts = {**result.summary.wins, None: result.summary.draws}
    for label, p in [*exact.sides.items(), (None, exact.draw)]:
        low, high = _wilson(counts.get(label, 0), RUNS)
        assert low - 1e-12 <= p <= high + 1e-12, (label, p, low, high)
