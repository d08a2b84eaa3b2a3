"""The load benchmark itself works: a short, small run against a real server process."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "web_load.py"
SCENARIO = ROOT / "examples" / "age_of_dragons" / "claw_duel.yaml"

pytestmark = pytest.mark.slow

# The runs stop on their count of actions; the duration is only a guard against hanging,
# long enough for a machine several times overloaded.
LONG = 300.0


def load_benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("web_load", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["web_load"] = module  # dataclasses look their module up there
    if str(SCRIPT.parent) not in sys.path:  # client processes import it by name
        sys.path.append(str(SCRIPT.parent))
    spec.loader.exec_module(module)
    return module


def test_a_short_load_run_acts_without_errors_and_stops_on_its_own() -> None:
    bench = load_benchmark()
    result = bench.run_load(clients=3, seconds=LONG, scenario=SCENARIO, max_actions=60)
    assert result["errors"] == []
    assert result["conflicts"] == 0  # every client owns its encounter
    assert 0 < result["actions"] <= 60
    assert 0 < result["p50_ms"] <= result["p95_ms"]


def test_clients_spread_over_processes_act_too() -> None:
    bench = load_benchmark()
    result = bench.run_load(clients=4, seconds=LONG, scenario=SCENARIO, max_actions=60,
                            processes=2)
    assert result["errors"] == []
    assert result["conflicts"] == 0
    assert 0 < result["actions"] <= 60
    assert result["client_cpu_ms_per_action"] > 0


def test_clients_acting_as_pages_do_act_too() -> None:
    bench = load_benchmark()
    result = bench.run_load(clients=2, seconds=LONG, scenario=SCENARIO, max_actions=40,
                            protocol="page")
    assert result["errors"] == []
    assert result["conflicts"] == 0
    assert 0 < result["actions"] <= 40
