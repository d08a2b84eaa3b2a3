"""Monte Carlo simulation: many seeded fights summarised with intervals, sweeps and plots.

Works for every registered rule set through the core API only.  Fight ``i`` of a
run uses dice seeded from ``(seed, i)``, so the report is the same whatever the
number of workers or the executor (local processes by default, or Dask).
"""

from fracas.sim.executors import (
    DaskExecutor,
    Executor,
    InlineExecutor,
    LocalExecutor,
    make_executor,
)
from fracas.sim.runner import (
    FightSpec,
    SimulationError,
    SimulationResult,
    run_chunk,
    simulate,
    simulate_many,
    spec_from_log,
    spec_from_scenario,
)
from fracas.sim.stats import ChunkSummary, wilson_interval
from fracas.sim.sweep import SweepResult, Variation, parse_variation, sweep

__all__ = [
    "ChunkSummary",
    "DaskExecutor",
    "Executor",
    "FightSpec",
    "InlineExecutor",
    "LocalExecutor",
    "SimulationError",
    "SimulationResult",
    "SweepResult",
    "Variation",
    "make_executor",
    "parse_variation",
    "run_chunk",
    "simulate",
    "simulate_many",
    "spec_from_log",
    "spec_from_scenario",
    "sweep",
    "wilson_interval",
]
