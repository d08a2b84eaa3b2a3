"""The Dask executor gives exactly the local results, on a real LocalCluster."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.scenario import load_scenario
from fracas.sim import DaskExecutor, InlineExecutor, LocalExecutor, simulate, spec_from_scenario
from fracas.sim.sweep import parse_variation, sweep

distributed = pytest.importorskip("distributed")

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    # Threads in this process: the toy rule set, registered by hand, is known to the workers.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as dask_client:
        yield dask_client


@pytest.mark.slow  # a cluster of worker processes
def test_dask_and_local_executors_agree(client: Any) -> None:
    spec = spec_from_scenario(load_scenario(DATA / "toy_skirmish.yaml"))
    dask = DaskExecutor(client=client)
    assert dask.workers == 2
    on_dask = simulate(spec, 1500, seed=8, executor=dask)
    with LocalExecutor(2) as local:
        on_local = simulate(spec, 1500, seed=8, executor=local)
    assert on_dask.to_json(timing=False) == on_local.to_json(timing=False)
    assert on_dask.to_json()["executor"] == "dask"


@pytest.mark.slow  # a cluster of worker processes
def test_a_sweep_on_dask_equals_the_same_sweep_run_locally(client: Any) -> None:
    scenario = load_scenario(DATA / "toy_skirmish.yaml")
    variations = [parse_variation("fighters.Oak.hp=6,9,12")]
    on_dask = sweep(scenario, variations, 400, 2, DaskExecutor(client=client))
    here = sweep(scenario, variations, 400, 2, InlineExecutor())
    assert on_dask.to_json(timing=False) == here.to_json(timing=False)
    assert [v["values"] for v in on_dask.to_json()["variants"]] == [
        {"fighters.Oak.hp": 6}, {"fighters.Oak.hp": 9}, {"fighters.Oak.hp": 12}]


def test_dask_executor_without_an_address_says_so() -> None:
    from fracas.core.errors import FracasError

    with pytest.raises(FracasError, match="--scheduler"):
        DaskExecutor()


@pytest.mark.slow  # a cluster of worker processes
def test_simulate_command_runs_on_a_dask_scheduler(client: Any, cli: Any) -> None:
    address = client.scheduler.address
    args = ["simulate", str(DATA / "toy_duel.yaml"), "-n", "600", "--seed", "4", "--json"]
    code, out, err = cli([*args, "--executor", "dask", "--scheduler", address])
    assert code == 0, err
    code, here, _ = cli([*args, "-w", "1"])
    timing = ("seconds", "fights_per_second", "workers", "executor")
    on_dask = {k: v for k, v in json.loads(out).items() if k not in timing}
    local = {k: v for k, v in json.loads(here).items() if k not in timing}
    assert on_dask == local
    assert json.loads(out)["executor"] == "dask"


@pytest.mark.slow  # a cluster of worker processes
def test_dask_worker_processes_give_the_local_results_for_an_installed_rule_set() -> None:
    claw = Path(__file__).resolve().parents[2] / "examples" / "age_of_dragons" / "claw_duel.yaml"
    spec = spec_from_scenario(load_scenario(claw))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as process_client:
        on_dask = simulate(spec, 600, seed=3, executor=DaskExecutor(client=process_client))
    here = simulate(spec, 600, seed=3, executor=InlineExecutor())
    assert on_dask.to_json(timing=False) == here.to_json(timing=False)
