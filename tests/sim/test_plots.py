"""Plots of simulations and sweeps are written, non-empty, in the format asked for."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.scenario import load_scenario
from fracas.sim import InlineExecutor, parse_variation, simulate, spec_from_scenario, sweep
from fracas.sim.plots import PlotError, plot_simulation, plot_sweep
from fracas.sim.runner import SimulationResult

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def result() -> SimulationResult:
    spec = spec_from_scenario(load_scenario(DATA / "toy_duel.yaml"))
    return simulate(spec, 300, seed=1, executor=InlineExecutor())


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_simulation_plot_is_written(result: SimulationResult, tmp_path: Path, suffix: str) -> None:
    path = plot_simulation(result, tmp_path / f"duel{suffix}")
    data = path.read_bytes()
    assert len(data) > 10_000
    if suffix == ".png":
        assert data.startswith(b"\x89PNG")
    else:
        text = data.decode()
        assert "<svg" in text
        for title in ("Who wins", "How long the fight lasts", "Health left at the end"):
            assert title in text


def test_sweep_plot_is_written_for_numbers_and_for_words(tmp_path: Path) -> None:
    scenario = load_scenario(DATA / "toy_skirmish.yaml")
    numeric = sweep(scenario, [parse_variation("fighters.Oak.hp=4,8")], 100, 0, InlineExecutor())
    assert plot_sweep(numeric, tmp_path / "hp.png").stat().st_size > 10_000
    words = sweep(scenario, [parse_variation("fighters.Oak.side=blue,green"),
                             parse_variation("max_rounds=2,5")], 100, 0, InlineExecutor())
    svg = plot_sweep(words, tmp_path / "side.svg").read_text()
    assert "Win rate against fighters › Oak › side" in svg  # the path in words


def test_unknown_plot_formats_are_refused(result: SimulationResult, tmp_path: Path) -> None:
    with pytest.raises(PlotError, match=r"\.png, \.svg"):
        plot_simulation(result, tmp_path / "duel.bmp")
