"""Sweeps: variants of a scenario by dotted path, validated, simulated on common dice."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from fracas.core.errors import ScenarioError
from fracas.scenario import load_scenario
from fracas.sim import InlineExecutor, parse_variation, sweep
from fracas.sim.sweep import make_variants, set_path

DATA = Path(__file__).parent / "data"


def test_a_variation_reads_its_values_as_yaml() -> None:
    v = parse_variation("fighters.Oak.hp=6, 9,12")
    assert v.path == "fighters.Oak.hp"
    assert v.steps == ("fighters", "Oak", "hp")
    assert v.values == (6, 9, 12)
    assert parse_variation("a.b=true,x y,2.5").values == (True, "x y", 2.5)


def test_list_items_are_found_by_index_or_by_name() -> None:
    data = {"fighters": [{"name": "Ash", "hp": 1}, {"name": "Oak", "hp": 2}]}
    set_path(data, ("fighters", "1", "hp"), 7)
    set_path(data, parse_variation("fighters[Ash].hp=3").steps, 3)
    set_path(data, ("fighters", "Ash", "side"), "red")
    assert data == {"fighters": [{"name": "Ash", "hp": 3, "side": "red"},
                                 {"name": "Oak", "hp": 7}]}


def test_a_group_the_file_left_out_is_started_and_then_validated() -> None:
    from fracas.scenario import SearchSettings

    scenario = load_scenario(DATA / "toy_skirmish.yaml")
    assert "search" not in scenario.data
    (values, spec), = make_variants(scenario, [parse_variation("search.rollouts=8")])
    assert values == {"search.rollouts": 8} and spec.scenario["search"] == {"rollouts": 8}
    assert SearchSettings(rollouts=8).settings() == {"rollouts": 8}


@pytest.mark.parametrize(("text", "message"), [
    ("fighters.Elm.hp=3", "no item named 'Elm'"),
    ("fighters.5.hp=3", "index out of range"),
    ("nothing.here=3", "nothing: unknown field 'nothing'"),
    ("max_rounds.deeper=3", "single value"),
])
def test_paths_that_lead_nowhere_are_scenario_errors(text: str, message: str) -> None:
    scenario = load_scenario(DATA / "toy_skirmish.yaml")
    with pytest.raises(ScenarioError, match=message):
        make_variants(scenario, [parse_variation(text)])


@pytest.mark.parametrize("text", ["no_equals_sign", "=1,2", "a.b=", "a.b=1,,2", "a..[=1"])
def test_malformed_variations_are_refused(text: str) -> None:
    with pytest.raises(ScenarioError):
        parse_variation(text)


def test_each_variant_is_validated_and_the_error_names_the_variant_and_field() -> None:
    scenario = load_scenario(DATA / "toy_skirmish.yaml")
    with pytest.raises(ScenarioError) as info:
        make_variants(scenario, [parse_variation("fighters.Oak.hp=5,lots")])
    message = str(info.value)
    assert "fighters.Oak.hp=lots" in message
    assert "fighters[Oak].hp" in message


def test_a_grid_has_every_combination_and_does_not_touch_the_scenario() -> None:
    scenario = load_scenario(DATA / "toy_skirmish.yaml")
    before = repr(scenario.data)
    variants = make_variants(scenario, [parse_variation("fighters.Oak.hp=6,12"),
                                        parse_variation("max_rounds=3,10,20")])
    assert [values for values, _ in variants][:3] == [
        {"fighters.Oak.hp": 6, "max_rounds": 3}, {"fighters.Oak.hp": 6, "max_rounds": 10},
        {"fighters.Oak.hp": 6, "max_rounds": 20}]
    assert len(variants) == 6
    assert repr(scenario.data) == before
    assert variants[5][1].scenario["max_rounds"] == 20


def test_a_tougher_oak_wins_more_often() -> None:
    scenario = load_scenario(DATA / "toy_skirmish.yaml")
    result = sweep(scenario, [parse_variation("fighters.Oak.hp=3,9,20")], 600, 5,
                   InlineExecutor())
    rates = [sim.win_rate("blue")[0] for _, sim in result.variants]
    assert rates[0] < rates[1] < rates[2]
    report = result.to_json()
    assert report["vary"] == ["fighters.Oak.hp"]
    assert len(report["variants"]) == 3


def test_a_sweep_needs_a_variation() -> None:
    scenario = load_scenario(DATA / "toy_skirmish.yaml")
    with pytest.raises(ScenarioError, match="--vary"):
        sweep(scenario, [], 10, 0, InlineExecutor())


def test_variants_share_the_fight_seeds_so_an_unchanged_variant_equals_the_plain_run() -> None:
    from fracas.sim import simulate, spec_from_scenario

    scenario = load_scenario(DATA / "toy_skirmish.yaml")
    # A sweep rolls on aligned dice (fracas.sim.streams); sequential dice on request.
    for aligned in (True, False):
        result = sweep(scenario, [parse_variation("max_rounds=10,3")], 300, 21,
                       InlineExecutor(), aligned=aligned)
        spec = replace(spec_from_scenario(scenario), aligned=aligned)
        plain = simulate(spec, 300, 21, InlineExecutor())
        assert result.variants[0][1].summary == plain.summary
        assert result.variants[1][1].summary != plain.summary
