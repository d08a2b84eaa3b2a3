"""The BATTLESYSTEM underground rules as pure functions, pinned value by value."""

from __future__ import annotations

import math

import pytest

from fracas.rules.battlesystem import rules

# -- Hit Dice of damage against figures ------------------------------------------------------


def test_narrow_frontage_means_at_most_two_figures_each_side() -> None:
    assert rules.narrow_frontage(1, 1)
    assert rules.narrow_frontage(2, 2)
    assert rules.narrow_frontage(1, 2)
    assert not rules.narrow_frontage(3, 1)
    assert not rules.narrow_frontage(2, 3)


def test_wound_threshold_is_ten_percent_on_narrow_frontage_and_25_otherwise() -> None:
    assert rules.wound_threshold(True) == 0.10
    assert rules.wound_threshold(False) == 0.25


@pytest.mark.parametrize("dice", range(1, 10))
def test_ten_orc_figure_is_wounded_by_one_to_nine_dice_on_a_narrow_frontage(dice: int) -> None:
    hit = rules.damage_figures(figures=1, wounded=0, hd=10, dice=dice, threshold=0.10)
    assert (hit.figures, hit.wounded, hit.newly_wounded) == (1, 1, 1)


def test_less_than_one_die_leaves_the_figure_untouched() -> None:
    hit = rules.damage_figures(figures=1, wounded=0, hd=10, dice=0, threshold=0.10)
    assert (hit.figures, hit.wounded, hit.removed) == (1, 0, 0)


@pytest.mark.parametrize("dice", [10, 11, 19])
def test_ten_or_more_dice_remove_the_orc_figure(dice: int) -> None:
    hit = rules.damage_figures(figures=2, wounded=0, hd=10, dice=dice, threshold=0.10)
    assert hit.removed >= 1
    assert hit.figures == 2 - hit.removed


def test_standard_threshold_needs_a_quarter_of_the_hit_dice_to_wound() -> None:
    assert rules.damage_figures(1, 0, 10, 2, 0.25).wounded == 0
    assert rules.damage_figures(1, 0, 10, 3, 0.25).wounded == 1


def test_a_wound_on_a_wounded_figure_removes_it() -> None:
    hit = rules.damage_figures(figures=5, wounded=1, hd=10, dice=4, threshold=0.25)
    assert (hit.figures, hit.wounded, hit.removed) == (4, 0, 1)


def test_full_hit_dice_remove_figures_and_the_rest_wounds_the_next() -> None:
    hit = rules.damage_figures(figures=5, wounded=0, hd=10, dice=23, threshold=0.25)
    assert (hit.figures, hit.wounded, hit.removed) == (3, 1, 2)


def test_damage_each_strikes_every_figure_on_its_own() -> None:
    assert rules.damage_each(10, 0, 10, 10, 60).figures == 0
    hurt = rules.damage_each(10, 0, 20, 10, 6)
    assert (hurt.figures, hurt.wounded) == (10, 10)
    again = rules.damage_each(10, 10, 20, 4, 6)
    assert (again.figures, again.wounded) == (6, 6)
    assert rules.damage_each(10, 0, 20, 10, 4).wounded == 0


def test_creatures_per_figure_by_hit_dice() -> None:
    assert [rules.creatures_per_figure(hd) for hd in (0.5, 1, 3, 6, 12)] == [10, 10, 5, 2, 1]


def test_attack_rating_from_thac0_and_ac_is_kept_between_2_and_10() -> None:
    assert rules.attack_rating(19, 4) == 8
    assert rules.attack_rating(19, 4, +6) == 10
    assert rules.attack_rating(15, 10) == 3
    assert rules.attack_rating(10, 10) == 2


# -- columns, squeezing and room -------------------------------------------------------------


def test_column_is_one_figure_wide_and_as_long_as_its_figures() -> None:
    shape = rules.footprint(8, 0.75, "column", 4, "width", area_width=3)
    assert (shape.width, shape.length, shape.abreast, shape.squeezed) == (0.75, 6.0, 1, False)


def test_figure_in_a_passage_narrower_than_its_base_takes_twice_its_length() -> None:
    single = rules.footprint(1, 0.75, "column", 1, "width", area_width=1 / 3)
    assert single.squeezed
    assert single.length == 1.5


def test_squeezed_column_is_twice_as_long() -> None:
    wide = rules.footprint(8, 0.75, "column", 4, "width", area_width=1)
    narrow = rules.footprint(8, 0.75, "column", 4, "width", area_width=1 / 3)
    assert narrow.length == 2 * wide.length


def test_squeezed_figure_touches_enemy_in_front_and_keeps_followers_a_base_behind() -> None:
    front, rear = rules.squeezed_spacing(0.75, 1 / 3)
    assert front == 0.75
    assert rear == 0.75
    assert rules.squeezed_spacing(0.75, 1) == (0.75, 0.0)


def test_closed_and_open_formations() -> None:
    closed = rules.footprint(12, 0.75, "closed", 6, "width", 10)
    assert (closed.width, closed.length) == (4.5, 1.5)
    spread = rules.footprint(12, 0.75, "open", 6, "width", 10)
    assert (spread.width, spread.length) == (9.0, 1.5)
    deep = rules.footprint(12, 0.75, "open", 6, "length", 10)
    assert (deep.width, deep.length) == (4.5, 3.0)


def test_forced_open_expands_to_the_side_or_to_front_or_rear_or_not_at_all() -> None:
    closed = rules.footprint(12, 0.75, "closed", 6, "width", 10)
    assert rules.expansion_room(closed, 9, 1.5, 100) == "width"
    assert rules.expansion_room(closed, 5, 3, 100) == "length"
    assert rules.expansion_room(closed, 5, 2, 100) is None
    assert rules.expansion_room(closed, 9, 3, 1) is None


def test_column_is_commanded_through_its_head() -> None:
    assert rules.column_head_distance(10, 6, column=True, head_toward=True) == 7
    assert rules.column_head_distance(10, 6, column=True, head_toward=False) == 13
    assert rules.column_head_distance(10, 6, column=False, head_toward=True) == 13


def test_column_pays_nothing_to_change_facing() -> None:
    assert rules.facing_cost("column", 6) == 0
    assert rules.facing_cost("closed", 6) == 1.5


def test_column_counts_as_open_for_morale_so_only_closed_breaks_first() -> None:
    assert rules.breaks_to_open("closed")
    assert not rules.breaks_to_open("column")
    assert not rules.breaks_to_open("open")


def test_morale_target_out_of_command_and_after_half_losses() -> None:
    assert rules.morale_target(12, False, False) == 12
    assert rules.morale_target(12, True, True) == 8


# -- darkness and light ---------------------------------------------------------------------


def test_darkness_applies_without_infravision_or_enough_light() -> None:
    assert rules.darkness_applies(False, False, 0, False, 24)
    assert not rules.darkness_applies(False, True, 0, False, 24)
    assert not rules.darkness_applies(True, False, 0, False, 24)
    assert rules.darkness_applies(False, False, 23, True, 24)
    assert not rules.darkness_applies(False, False, 24, True, 24)
    assert rules.darkness_applies(False, False, 24, False, 24)


def test_blind_units_move_a_third() -> None:
    assert rules.movement_allowance(9, True) == 3
    assert rules.movement_allowance(9, False) == 9


def test_lit_units_are_easier_missile_targets_except_torch_bearing_skirmishers() -> None:
    assert rules.lit_target_modifier(True, "closed") == -2
    assert rules.lit_target_modifier(True, "skirmish") == 0
    assert rules.lit_target_modifier(False, "closed") == 0


# -- gas ------------------------------------------------------------------------------------


def test_gas_lasts_twice_as_long_underground_in_still_air() -> None:
    assert rules.gas_duration(3, "still", 10, 2) == 6


def test_ventilated_battlefields_keep_the_normal_gas_duration() -> None:
    assert rules.gas_duration(3, "ventilated", 10, 2) == 3


def test_wind_carries_gas_down_a_passage_up_to_one_and_a_half_diameters() -> None:
    assert rules.gas_rides_wind(3, 2)
    assert not rules.gas_rides_wind(3.01, 2)
    assert rules.gas_duration(3, "windy", 3, 2) == 6
    assert rules.gas_duration(3, "windy", 4, 2) == 0


# -- flight ---------------------------------------------------------------------------------


def test_ceilings_of_240_feet_use_normal_flight() -> None:
    assert [b.name for b in rules.flight_bands(240)] == ["low", "medium", "high"]
    assert rules.flight_bands(300)[0] == rules.NORMAL_BANDS[0]


def test_ceilings_from_60_to_240_feet_split_in_thirds() -> None:
    bands = rules.flight_bands(100)
    assert [b.name for b in bands] == ["low", "medium", "high"]
    assert [(round(b.floor, 3), round(b.top, 3)) for b in bands] == [
        (0, 33.333), (33.333, 66.667), (66.667, 100)]
    assert [b.top for b in rules.flight_bands(60)] == [20, 40, 60]


def test_ceilings_between_30_and_60_feet_have_low_and_medium_halves() -> None:
    bands = rules.flight_bands(45)
    assert [(b.name, b.floor, b.top) for b in bands] == [("low", 0, 22.5), ("medium", 22.5, 45)]
    assert len(rules.flight_bands(30)) == 2


def test_ceilings_under_30_feet_allow_only_low_flight() -> None:
    assert [b.name for b in rules.flight_bands(29)] == ["low"]
    assert rules.allowed_altitudes(20) == ("ground", "low")


def test_melee_needs_the_same_band_or_ground_against_low() -> None:
    assert rules.can_melee("ground", "low")
    assert rules.can_melee("high", "high")
    assert not rules.can_melee("ground", "medium")


# -- cave-ins and fragile formations ----------------------------------------------------------


def test_cave_in_does_sixty_dice_to_a_ten_orc_figure_and_half_on_a_save() -> None:
    assert rules.cave_in_dice("rock", 10, False) == 60
    assert rules.cave_in_dice("rock", 10, True) == 30


def test_mud_does_4d8_per_creature() -> None:
    assert rules.cave_in_dice("mud", 10, False) == 40
    assert rules.cave_in_dice("mud", 1, True) == 2


def test_fragile_base_chance_doubles_for_heavy_units_and_explosive_spells() -> None:
    assert rules.fragile_chance(13, heavy=True, explosive=False) == 26
    assert rules.fragile_chance(13, heavy=False, explosive=True) == 26
    assert rules.fragile_chance(1, heavy=False, explosive=False) == 1


def test_fragile_check_collapses_at_or_under_the_chance() -> None:
    assert rules.fragile_check(13, 13, False, False) == (True, 13)
    assert rules.fragile_check(13, 26, True, False) == (True, 13)
    assert rules.fragile_check(13, 27, True, False) == (False, 13)


def test_a_roll_under_25_that_holds_makes_the_feature_4_percent_weaker_cumulatively() -> None:
    base = 1
    for roll in (24, 20, 15):
        collapsed, base = rules.fragile_check(base, roll, False, False)
        assert not collapsed
    assert base == 13
    assert rules.fragile_check(13, 25, False, False) == (False, 13)


def test_normal_flight_high_band_is_capped_by_the_ceiling() -> None:
    assert rules.NORMAL_BANDS[-1].top == math.inf
    assert rules.flight_bands(500)[-1].top == 500
