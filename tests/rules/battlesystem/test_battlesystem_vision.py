"""Darkness, light sources, lit targets, unseen obstacles and flight under low ceilings."""

from __future__ import annotations

import pytest

from fracas.core.errors import IllegalActionError
from fracas.core.rng import ScriptedRng
from fracas.rules.battlesystem.actions import Charge, Fire, Fly
from fracas.rules.battlesystem.combat import melee_attack_rating, missile_attack_rating
from fracas.rules.battlesystem.events import AltitudeChanged, Damaged
from fracas.rules.battlesystem.hazards import saves
from fracas.rules.battlesystem.movement import march
from fracas.rules.battlesystem.state import blind

MEN = {"ac": 5, "thac0": 19, "movement": 9, "frontage": 3, "save": 12}


def _dark(kit, lights: int = 0, lit: bool = False, formation: str = "closed"):
    areas = [kit.area("cave", width=10, length=10, lit=False),
             kit.area("pit-road", width=10, length=4, lit=False,
                      obstacle={"kind": "pit", "dice": 10, "halts": True}),
             kit.area("far", width=10, length=6, lit=False)]
    units = [kit.unit("men", "red", "cave", 6, lights=lights, lit=lit, formation=formation,
                      **MEN),
             kit.unit("orcs", "blue", "far", 6, infravision=True, ac=6,
                      missile={"range": 30, "damage": 1})]
    return kit.battle(areas, units, links=[("cave", "pit-road"), ("pit-road", "far")])


def test_units_without_infravision_fight_blind_in_the_dark(kit) -> None:
    b = _dark(kit)
    assert blind(b.state, b.unit("men"))
    assert not blind(b.state, b.unit("orcs"))


def test_blind_attackers_add_six_to_their_attack_rating(kit) -> None:
    b = _dark(kit)
    men, orcs = b.unit("men"), b.unit("orcs")
    assert melee_attack_rating(b.state, men, orcs) == 10  # ceil((19-6)/2) = 7, +6, capped at 10
    assert missile_attack_rating(b.state, men, orcs) == 10
    # below the cap the darkness penalty shows in full: THAC0 11 against AC 6 needs 3, blind 9
    b.unit("men").stats = type(men.stats)(**{
        **{f: getattr(men.stats, f) for f in men.stats.__slots__}, "thac0": 11})
    assert melee_attack_rating(b.state, men, orcs) == 3 + 6
    assert missile_attack_rating(b.state, men, orcs) == 3 + 6


def test_blind_units_are_four_armor_classes_worse_against_melee_only(kit) -> None:
    b = _dark(kit)
    men, orcs = b.unit("men"), b.unit("orcs")
    # orcs (THAC0 19) against AC 5 would need 7; against AC 9 they need 5.
    assert melee_attack_rating(b.state, orcs, men) == 5
    assert missile_attack_rating(b.state, orcs, men) == 7


def test_blind_units_save_at_minus_four(kit) -> None:
    b = _dark(kit)
    # save 12: faces 15 and 16 pass only after the -4 is taken into account for 16.
    assert saves(b.state, b.unit("men"), ScriptedRng([15, 16, 1, 1, 1, 1]), b.emit, "x") == 1


def test_blind_units_move_a_third_of_their_rating(kit) -> None:
    b = _dark(kit)
    march(b.state, b.unit("men"), "far", ScriptedRng([]), b.emit)
    assert (b.unit("men").area, b.unit("men").progress) == ("cave", 3)


def test_one_light_per_figure_cancels_the_penalties(kit) -> None:
    b = _dark(kit, lights=6, lit=True)
    assert not blind(b.state, b.unit("men"))
    b2 = _dark(kit, lights=5, lit=True)
    assert blind(b2.state, b2.unit("men"))


def test_a_lit_unit_moves_at_its_normal_rate(kit) -> None:
    b = _dark(kit, lights=6, lit=True)
    march(b.state, b.unit("men"), "far", ScriptedRng([]), b.emit)
    assert b.unit("men").area == "pit-road"


def test_a_unit_carrying_enough_light_fights_and_saves_normally(kit) -> None:
    b = _dark(kit, lights=6, lit=True)
    men, orcs = b.unit("men"), b.unit("orcs")
    assert melee_attack_rating(b.state, men, orcs) == 7
    assert melee_attack_rating(b.state, orcs, men) == 7
    assert saves(b.state, men, ScriptedRng([12, 11, 1, 1, 1, 1]), b.emit, "x") == 1


def test_a_blind_unit_walks_its_whole_first_rank_into_an_unseen_pit(kit) -> None:
    b = _dark(kit, lights=0)
    b.unit("men").progress, b.unit("men").goal = 6, "far"
    march(b.state, b.unit("men"), "far", ScriptedRng([]), b.emit)
    # 3 figures abreast, each taking 10 dice against 10 Hit Dice: the first rank is lost.
    assert [(d.cause, d.figures) for d in b.of(Damaged)] == [("obstacle", 3)]
    assert b.unit("men").area == "pit-road"


def test_a_unit_that_can_see_avoids_the_obstacle(kit) -> None:
    b = _dark(kit, lights=6, lit=True)
    march(b.state, b.unit("men"), "far", ScriptedRng([]), b.emit)
    assert b.of(Damaged) == []


def test_lit_units_cannot_fire_at_what_they_cannot_see(kit) -> None:
    b = _dark(kit, lights=6, lit=True)
    b.unit("men").stats = type(b.unit("men").stats)(**{
        **{f: getattr(b.unit("men").stats, f) for f in b.unit("men").stats.__slots__},
        "missile_range": 30.0, "missile_damage": 1})
    with pytest.raises(IllegalActionError) as refused:
        b.check(Fire("men", "orcs"), "missile")
    # no unit of the side sees the orcs: refused as a name that is no unit (issue 34)
    assert refused.value.rule == "targets"


def test_lit_units_cannot_charge_what_they_cannot_see(kit) -> None:
    b = _dark(kit, lights=6, lit=True)
    with pytest.raises(IllegalActionError) as refused:
        b.check(Charge("men", "orcs"), "move")
    assert refused.value.rule == "targets"  # unseen by the whole side (issue 34)


def test_a_lit_unit_is_seen_by_all_and_is_an_easier_missile_target(kit) -> None:
    dark = _dark(kit)
    lit = _dark(kit, lights=6, lit=True)
    lit.check(Fire("orcs", "men"), "missile")
    assert missile_attack_rating(lit.state, lit.unit("orcs"), lit.unit("men")) == \
        missile_attack_rating(dark.state, dark.unit("orcs"), dark.unit("men")) - 2


def test_torch_bearing_skirmishers_are_no_easier_to_hit(kit) -> None:
    b = _dark(kit, lights=6, lit=True, formation="skirmish")
    assert missile_attack_rating(b.state, b.unit("orcs"), b.unit("men")) == 7


def _vault(kit):
    areas = [kit.area("vault", width=20, length=12, ceiling=100),
             kit.area("gallery", width=6, length=10, ceiling=25),
             kit.area("hall", width=10, length=10, ceiling=45)]
    units = [kit.unit("bats", "red", "vault", 2, flyer=True, altitude="high", movement=20,
                      formation="open", frontage=2),
             kit.unit("dwarves", "blue", "hall", 4)]
    return kit.battle(areas, units, links=[("vault", "gallery"), ("gallery", "hall")])


def test_flyers_entering_a_low_ceiling_drop_to_the_band_it_allows(kit) -> None:
    b = _vault(kit)
    march(b.state, b.unit("bats"), "gallery", ScriptedRng([]), b.emit)
    assert [e.altitude for e in b.of(AltitudeChanged)] == ["low"]


def test_flyers_under_a_25_foot_ceiling_may_not_climb_above_low(kit) -> None:
    b = _vault(kit)
    b.unit("bats").area, b.unit("bats").altitude = "gallery", "low"
    with pytest.raises(IllegalActionError) as refused:
        b.check(Fly("bats", "medium"), "move")
    assert refused.value.rule == "flight: ceiling bands"


def test_flyers_change_altitude_one_band_a_turn(kit) -> None:
    b = _vault(kit)
    b.check(Fly("bats", "medium"), "move")
    with pytest.raises(IllegalActionError):
        b.check(Fly("bats", "low"), "move")


def test_torch_bearing_skirmishers_light_up_an_enemy_for_the_formation_behind(kit) -> None:
    areas = [kit.area("cave", width=10, length=4, lit=False),
             kit.area("den", width=10, length=4, lit=False)]
    units = [kit.unit("men", "red", "cave", 6, **{**MEN, "movement": 12}),  # 4 inches blind
             kit.unit("scouts", "red", "den", 2, formation="skirmish", lights=2, lit=True),
             kit.unit("orcs", "blue", "den", 6, infravision=True, ac=6)]
    b = kit.battle(areas, units, links=[("cave", "den")])
    # the men cannot see into the dark den, but the scouts' torches show them the orcs there
    b.check(Charge("men", "orcs"), "move")
    b.unit("scouts").lit = False
    with pytest.raises(IllegalActionError) as refused:
        b.check(Charge("men", "orcs"), "move")
    assert refused.value.rule == "targets"  # now unseen by the whole side (issue 34)


def test_an_obstacle_seen_by_torch_bearers_is_marked_for_the_units_that_follow(kit) -> None:
    b = _dark(kit)
    b.state.units["scouts"] = type(b.unit("men"))(
        type(b.unit("men").stats)(**{**{f: getattr(b.unit("men").stats, f)
                                        for f in b.unit("men").stats.__slots__},
                                     "name": "scouts", "lights": 2, "start_figures": 2}),
        "cave", 2, "skirmish", lit=True)
    march(b.state, b.unit("scouts"), "pit-road", ScriptedRng([]), b.emit)
    assert b.unit("scouts").area == "pit-road"
    assert b.of(Damaged) == []
    # the blind men come the same way and, warned, step around the pit
    b.unit("men").progress, b.unit("men").goal = 6, "far"
    march(b.state, b.unit("men"), "far", ScriptedRng([]), b.emit)
    assert b.of(Damaged) == []
    assert b.unit("men").area == "pit-road"
