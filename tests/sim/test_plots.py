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
    assert "fighters › Oak › side" in svg  # the path in words, on the heatmap's axis


def test_unknown_plot_formats_are_refused(result: SimulationResult, tmp_path: Path) -> None:
    with pytest.raises(PlotError, match=r"\.png, \.svg"):
        plot_simulation(result, tmp_path / "duel.bmp")


def test_sides_named_after_colours_are_drawn_in_them_everywhere() -> None:
    from fracas.sim.plots import side_colours

    assert side_colours(["blue", "red"]) == {"blue": "#1f77b4", "red": "#d62728"}
    assert side_colours(["red_team", "others"])["red_team"] == "#d62728"
    colours = side_colours(["heroes", "adversaries", "red"])
    assert colours["red"] == "#d62728" and len(set(colours.values())) == 3


def test_plots_colour_each_side_its_own_colour(tmp_path: Path) -> None:
    from fracas.sim.plots import what_was_simulated

    claw = load_scenario(Path(__file__).parents[2] / "examples" / "age_of_dragons"
                         / "claw_duel.yaml")
    result = simulate(spec_from_scenario(claw), 200, seed=1, executor=InlineExecutor())
    title = what_was_simulated(result)
    assert "Claw duel: 200 simulated fights, seed 1" in title
    assert "red: Ember (claw all); blue: Ash (claw all)" in title
    svg = plot_simulation(result, tmp_path / "claw.svg").read_text().lower()
    assert "#d62728" in svg and "#1f77b4" in svg  # red is red and blue is blue
    assert "survives" in svg and "red: ember (claw all)" in svg


def test_a_two_value_sweep_is_a_heatmap_with_its_values(tmp_path: Path) -> None:
    claw = load_scenario(Path(__file__).parents[2] / "examples" / "age_of_dragons"
                         / "claw_duel.yaml")
    result = sweep(claw, [parse_variation("combatants.Ash.soma=7,10"),
                          parse_variation("combatants.Ember.soma=8,9")], 60, 0,
                   InlineExecutor())
    svg = plot_sweep(result, tmp_path / "grid.svg").read_text()
    assert "chance red wins per cell" in svg
    for _, sim in result.variants:  # every cell says its win chance
        assert f"{100 * sim.win_rate('red')[0]:.1f}%" in svg
