"""Monte Carlo simulation: many seeded fights summarised with intervals, sweeps and plots.

Works for every registered rule set through the core API only (scenario loading,
``Encounter(keep_log=False)``, ``policy_for``, ``standings`` and ``outcome``).

How a run is counted (the rulings this package takes):

* Fight ``i`` of a run with seed ``s`` is the fight ``fracas run SCENARIO --seed
  F`` plays, with the fight seed ``F = derive_seed(s, i)``: the report is the same
  whatever the number of workers or the executor (local processes or Dask), and a
  fight that fails names ``F`` so it can be replayed.  Only the timing keys
  (``seconds``, ``fights_per_second``, ``workers``, ``executor``) differ.
* Workers get chunks of fight indices and return counts and histograms, never
  fights; means and medians are computed from the merged histograms.
* A fight still going after ``max_decisions`` decisions (100,000 by default) is
  *unfinished*: neither a win nor a draw, but it counts in the number of runs,
  so win rates are shares of all fights run.
* A combatant *survives* when its final standing is ``ok`` (not down, dying, dead
  or fled); *health left* is the rule set's health figure at the end, which may
  be below zero.  The rounds of a fight are the rule set's ``Outcome.rounds``.
* Win-rate intervals are 95% Wilson score intervals.
* ``--from LOG --round N`` replays a saved fight up to the first decision of round
  ``N`` and plays every continuation from there with fresh seeds.
* The variants of a sweep use the same fight seeds and dice aligned roll by roll
  (:mod:`fracas.sim.streams`: the ``n``-th roll of a fight has its own stream), so a
  variant that rolls one die more does not shift every later die; each variant's
  difference from the first is reported with the interval of the paired difference
  (Newcombe's score interval).  ``--dice sequential`` (and ``--batch``) plays the
  fights ``fracas run --seed F`` plays instead.
* ``--precision P`` plays rounds of fights (continuing the fight indices) until every
  reported rate's interval (wins, draws, survival, sweep differences) is within
  plus or minus ``P``, or the cap; round sizes follow from counts alone, so the answer
  is the same whatever the workers.
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
