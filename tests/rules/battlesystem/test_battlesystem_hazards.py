"""Gas underground, cave-ins, fragile formations and the GM's prepared effects."""

from __future__ import annotations

import pytest

from fracas.core.errors import IllegalActionError
from fracas.core.events import DiceRolled
from fracas.core.rng import ScriptedRng
from fracas.rules.battlesystem import hazards
from fracas.rules.battlesystem.actions import CaveIn, StrikeFeature
from fracas.rules.battlesystem.events import (
    Damaged,
    FeatureCollapsed,
    FragileChecked,
    GasEnded,
    GasMoved,
    Routed,
    UnitLeft,
)
from fracas.rules.battlesystem.movement import march
from fracas.rules.battlesystem.resolve import carry_out
from fracas.rules.battlesystem.rout import rout_phase


def _windway(kit, width: float = 2, airflow: str = "windy"):
    areas = [kit.area("w1", width=width, length=8, airflow=airflow, wind_to="w2"),
             kit.area("w2", width=width, length=8, airflow=airflow, wind_to="room"),
             kit.area("room", width=10, length=8, airflow=airflow)]
    units = [kit.unit("pickets", "red", "w2", 2, formation="column", save=11),
             kit.unit("drow", "blue", "room", 2, gas_immune=True)]
    return kit.battle(areas, units, links=[("w1", "w2"), ("w2", "room")])


def test_gas_lasts_twice_its_duration_in_still_air(kit) -> None:
    b = _windway(kit, airflow="still")
    hazards.release_gas(b.state, "w1", 2, 10, 3, b.emit)
    assert [(g.area, g.turns_left, g.carried) for g in b.state.gases] == [("w1", 6, False)]


def test_gas_keeps_its_surface_duration_where_air_circulates_well(kit) -> None:
    b = _windway(kit, airflow="ventilated")
    hazards.release_gas(b.state, "w1", 2, 10, 3, b.emit)
    assert b.state.gases[0].turns_left == 3


def test_wind_scatters_gas_in_a_passage_wider_than_one_and_a_half_diameters(kit) -> None:
    b = _windway(kit, width=3.5)
    hazards.release_gas(b.state, "w1", 2, 10, 3, b.emit)
    assert b.state.gases == []


def test_wind_carries_gas_down_a_narrow_passage_poisoning_units_in_its_path(kit) -> None:
    b = _windway(kit)
    hazards.release_gas(b.state, "w1", 2, 10, 2, b.emit)
    assert (b.state.gases[0].turns_left, b.state.gases[0].carried) == (4, True)
    hazards.end_of_turn_gas(b.state, ScriptedRng([]), b.emit)   # w1 is empty
    assert b.state.gases[0].area == "w2"
    # In w2 the pickets save per figure (11+): one saves, one takes 10 dice and is removed.
    hazards.end_of_turn_gas(b.state, ScriptedRng([11, 10]), b.emit)
    assert [(d.unit, d.figures) for d in b.of(Damaged)] == [("pickets", 1)]
    # Blown into the 10-inch room (wider than 1.5 x 2) the cloud breaks up.
    assert b.of(GasEnded)
    assert b.state.gases == []


def test_gas_spares_immune_creatures_and_ends_after_its_turns(kit) -> None:
    b = _windway(kit, airflow="still")
    hazards.release_gas(b.state, "room", 2, 10, 1, b.emit)
    for _ in range(2):
        hazards.end_of_turn_gas(b.state, ScriptedRng([]), b.emit)
    assert len(b.of(GasMoved)) == 1
    assert b.of(GasEnded)
    assert b.unit("drow").figures == 2


def _cave(kit, near_length: float = 2):
    areas = [kit.area("hall", width=10, length=10),
             kit.area("nook", width=3, length=near_length),
             kit.area("far", width=3, length=12)]
    units = [kit.unit("orcs", "red", "hall", 2, save=14),
             kit.unit("near", "red", "nook", 1, formation="column", save=14),
             kit.unit("giant", "blue", "far", 1, hd=12, creatures_per_figure=1, save=10)]
    return kit.battle(areas, units, links=[("hall", "nook"), ("hall", "far")])


def test_cave_in_covers_the_area_plus_one_inch_around(kit) -> None:
    b = _cave(kit)
    caught = {u.name for u in hazards.caught_by_cave_in(b.state, "hall")}
    # the 0.75-inch column stands centred in a 2-inch nook: its end lies 0.625 in from the edge
    assert caught == {"orcs", "near"}


def test_cave_in_destroys_ten_orc_figures_whether_they_save_or_not(kit) -> None:
    b = _cave(kit)
    hazards.cave_in(b.state, "hall", "rock", ScriptedRng([20, 1, 1]), b.emit)
    assert b.unit("orcs").status == "destroyed"
    assert b.unit("near").status == "destroyed"
    assert b.unit("giant").figures == 1


def test_cave_in_damage_is_halved_by_a_save(kit) -> None:
    b = _cave(kit, near_length=12)
    # giant figure: 12 Hit Dice, one creature: rock 6 dice (50%), saved 3 dice (25%) wounds.
    hazards.cave_in(b.state, "far", "rock", ScriptedRng([10]), b.emit)
    assert (b.unit("giant").figures, b.unit("giant").wounded) == (1, 1)


def test_mud_does_4d8_per_creature_and_a_save_halves_it(kit) -> None:
    b = _cave(kit, near_length=12)
    hazards.cave_in(b.state, "far", "mud", ScriptedRng([10]), b.emit)  # 2 dice < 25%: no harm
    assert (b.unit("giant").figures, b.unit("giant").wounded) == (1, 0)
    b2 = _cave(kit, near_length=12)
    hazards.cave_in(b2.state, "far", "mud", ScriptedRng([9]), b2.emit)  # 4 dice wound
    assert b2.unit("giant").wounded == 1


def _bridge(kit, chance: int = 1, heavy: bool = True):
    areas = [kit.area("west"), kit.area("span", width=3, length=8, kind="bridge",
                                        features=[{"name": "arch", "kind": "bridge",
                                                   "chance": chance}]),
             kit.area("east")]
    units = [kit.unit("lancers", "red", "west", 3, frontage=3, base=1.0, heavy=heavy,
                      movement=15),
             kit.unit("goblins", "blue", "east", 2, base=0.5)]
    return kit.battle(areas, units, links=[("west", "span"), ("span", "east")])


def test_marching_onto_a_fragile_bridge_makes_a_secret_check(kit) -> None:
    b = _bridge(kit, heavy=False)
    march(b.state, b.unit("lancers"), "span", ScriptedRng([50]), b.emit)
    checks = b.of(FragileChecked)
    assert [(c.roll, c.chance, c.collapsed, c.hidden) for c in checks] == [(50, 1, False, True)]
    assert [d.hidden for d in b.of(DiceRolled)] == [True]


def test_heavy_units_double_the_collapse_chance(kit) -> None:
    b = _bridge(kit, chance=13)
    march(b.state, b.unit("lancers"), "span", ScriptedRng([26]), b.emit)
    assert b.of(FragileChecked)[0].chance == 26
    assert b.of(FeatureCollapsed)


def _loaded_bridge(kit, **lancers):
    areas = [kit.area("west"), kit.area("span", width=3, length=8, kind="bridge",
                                        features=[{"name": "arch", "kind": "bridge",
                                                   "chance": 13}]),
             kit.area("east")]
    units = [kit.unit("lancers", "red", "span", 2, frontage=2, base=1.0, heavy=True,
                      **lancers),
             kit.unit("porters", "red", "west", 2, base=0.5, movement=15),
             kit.unit("goblins", "blue", "east", 2, base=0.5)]
    return kit.battle(areas, units, links=[("west", "span"), ("span", "east")])


def test_heavy_units_standing_on_the_bridge_double_it_when_a_light_unit_marches_on(kit) -> None:
    b = _loaded_bridge(kit)
    march(b.state, b.unit("porters"), "span", ScriptedRng([50]), b.emit)
    assert [(c.roll, c.chance) for c in b.of(FragileChecked)] == [(50, 26)]


def test_heavy_flyers_above_the_bridge_do_not_weigh_on_it(kit) -> None:
    b = _loaded_bridge(kit, flyer=True, altitude="low")
    march(b.state, b.unit("porters"), "span", ScriptedRng([50]), b.emit)
    assert [(c.roll, c.chance) for c in b.of(FragileChecked)] == [(50, 13)]


def test_a_low_roll_that_holds_raises_the_chance_by_four_for_good(kit) -> None:
    b = _bridge(kit, heavy=False)
    hazards.stress_feature(b.state, "arch", False, False, ScriptedRng([24]), b.emit)
    hazards.stress_feature(b.state, "arch", False, False, ScriptedRng([20]), b.emit)
    assert b.state.features["arch"].chance == 9
    hazards.stress_feature(b.state, "arch", False, False, ScriptedRng([25]), b.emit)
    assert b.state.features["arch"].chance == 9


def test_a_collapsing_bridge_drops_the_units_on_it_and_cannot_be_crossed(kit) -> None:
    b = _bridge(kit, chance=50)
    march(b.state, b.unit("lancers"), "east", ScriptedRng([1]), b.emit)
    assert [(e.unit, e.status) for e in b.of(UnitLeft)] == [("lancers", "fell")]
    assert "span" in b.state.gone


def test_explosive_spell_doubles_the_chance_of_the_feature_it_strikes(kit) -> None:
    b = kit.battle([kit.area("west"), kit.area("span", width=3, length=8, features=[
        {"name": "arch", "kind": "arch", "chance": 10}])],
        [kit.unit("a", "red", "west", 2), kit.unit("b", "blue", "west", 2)],
        links=[("west", "span")], gm={"strikes": [{"feature": "arch", "turn": 1}]})
    carry_out(b.state, StrikeFeature("gm", "arch"), ScriptedRng([20]), b.emit)
    assert b.of(FragileChecked)[0].chance == 20
    assert b.of(FeatureCollapsed)
    assert "span" in b.state.caved  # a fallen arch brings the ceiling down


def test_a_cave_in_next_to_a_fragile_formation_checks_it_at_double_chance(kit) -> None:
    b = kit.battle([kit.area("hall"), kit.area("ledge", width=3, length=8, features=[
        {"name": "lip", "kind": "ledge", "chance": 5}])],
        [kit.unit("a", "red", "hall", 2), kit.unit("b", "blue", "hall", 2)],
        links=[("hall", "ledge")])
    hazards.cave_in(b.state, "hall", "rock", ScriptedRng([20, 20, 20, 20, 99]), b.emit)
    assert [(c.chance, c.roll) for c in b.of(FragileChecked)] == [(10, 99)]


def test_the_gm_may_only_use_effects_prepared_in_the_scenario(kit) -> None:
    b = kit.battle([kit.area("hall")], [kit.unit("a", "red", "hall", 2),
                                        kit.unit("b", "blue", "hall", 2)],
                   gm={"cave_ins": [{"area": "hall", "material": "mud"}]})
    b.state.phase = "gm"
    b.check(CaveIn("gm", "hall"), "gm")
    carry_out(b.state, CaveIn("gm", "hall"), ScriptedRng([20, 20, 20, 20]), b.emit)
    with pytest.raises(IllegalActionError) as refused:
        b.check(CaveIn("gm", "hall"), "gm")
    assert refused.value.rule == "GM prepared effects"


def test_routing_heavy_cavalry_stresses_a_fragile_bridge_it_flees_across(kit) -> None:
    b = kit.battle([kit.area("west"), kit.area("span", width=3, length=8, kind="bridge",
                                               features=[{"name": "arch", "kind": "bridge",
                                                          "chance": 13}]),
                    kit.area("east")],
                   [kit.unit("lancers", "red", "east", 3, frontage=3, base=1.0, heavy=True,
                             movement=15),
                    kit.unit("goblins", "blue", "east", 2, base=0.5)],
                   links=[("west", "span"), ("span", "east")],
                   sides=[{"name": "red", "retreat": "west"}, {"name": "blue",
                                                                "retreat": "east"}])
    b.emit(Routed("lancers", "morale"))
    rout_phase(b.state, ScriptedRng([26]), b.emit)
    assert [(c.roll, c.chance, c.collapsed) for c in b.of(FragileChecked)] == [(26, 26, True)]
    assert [(e.unit, e.status) for e in b.of(UnitLeft)] == [("lancers", "fell")]


def test_a_blind_unit_routing_into_an_unseen_pit_loses_its_first_rank(kit) -> None:
    b = kit.battle([kit.area("home", lit=False),
                    kit.area("pit-road", width=10, length=4, lit=False,
                             obstacle={"kind": "pit", "dice": 10, "halts": True}),
                    kit.area("hall", lit=False)],
                   [kit.unit("men", "red", "hall", 6, frontage=3, movement=45),
                    kit.unit("orcs", "blue", "hall", 6, infravision=True)],
                   links=[("home", "pit-road"), ("pit-road", "hall")])
    b.emit(Routed("men", "morale"))
    rout_phase(b.state, ScriptedRng([]), b.emit)
    # A third of 45 inches would carry them through the pit road (7) and home (7 more),
    # but the pit catches their first rank of three and halts them.
    assert [(d.cause, d.figures) for d in b.of(Damaged)] == [("obstacle", 3)]
    assert (b.unit("men").area, b.unit("men").status) == ("pit-road", "routing")
