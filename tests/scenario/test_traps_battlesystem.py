"""BATTLESYSTEM traps: a side with no unit, a unit with no way to any enemy, a GM effect that
never comes; each a warning naming the file, line and field (never a refusal)."""

from __future__ import annotations

from fracas.scenario import parse_scenario

BATTLE = """\
ruleset: battlesystem
max_turns: 10
areas:
  - {name: hall, kind: cavern, width: 10, length: 8}
  - {name: den, kind: cavern, width: 10, length: 8}
  - {name: crypt, kind: cavern, width: 10, length: 8}
links:
  - {a: hall, b: den}
sides:
  - {name: dwarves, retreat: hall}
  - {name: goblins, retreat: den}
units:
  - {name: axes, side: dwarves, area: hall, figures: 6}
  - {name: spears, side: goblins, area: den, figures: 6}
"""


def test_a_battle_with_every_unit_able_to_reach_a_foe_has_no_warning() -> None:
    assert parse_scenario(BATTLE, "b.yaml").warnings == ()


def test_a_side_with_no_unit_is_a_warning_on_the_side() -> None:
    text = BATTLE.replace("  - {name: goblins, retreat: den}\n",
                          "  - {name: goblins, retreat: den}\n  - {name: orcs, retreat: crypt}\n")
    (warning,) = parse_scenario(text, "b.yaml").warnings
    assert (warning.file, warning.line, warning.field) == ("b.yaml", 12, "sides[orcs]")
    assert warning.message.startswith("side orcs has no unit: nobody fights for it")
    assert "only army" not in warning.message


def test_when_one_army_alone_has_units_it_wins_at_once() -> None:
    text = BATTLE.replace("side: goblins", "side: dwarves")
    (warning,) = parse_scenario(text, "b.yaml").warnings
    assert (warning.line, warning.field) == (11, "sides[goblins]")
    assert "dwarves is the only army with units and wins before the first turn" in \
        warning.message


def test_a_unit_with_no_link_to_any_enemy_is_a_warning_on_its_area() -> None:
    text = BATTLE.replace("  - {name: spears, side: goblins, area: den, figures: 6}\n",
                          "  - {name: spears, side: goblins, area: den, figures: 6}\n"
                          "  - {name: ghouls, side: goblins, area: crypt, figures: 4}\n")
    (warning,) = parse_scenario(text, "b.yaml").warnings
    assert (warning.line, warning.field) == (15, "units[ghouls].area")
    assert warning.message == ("ghouls stands in crypt, and no link leads from there to any "
                               "area where an enemy stands (hall): it can never meet nor "
                               "shoot a foe (add a link between the areas)")


def test_missiles_do_not_reach_across_a_missing_link_either() -> None:
    text = BATTLE.replace("links:\n  - {a: hall, b: den}\n", "").replace(
        "area: den, figures: 6}", "area: den, figures: 6, missile: {range: 50}}")
    warnings = parse_scenario(text, "b.yaml").warnings
    assert [w.field for w in warnings] == ["units[axes].area", "units[spears].area"]


def test_gm_effects_with_no_turn_or_a_turn_after_the_last_are_warnings() -> None:
    text = BATTLE + """\
gm:
  cave_ins:
    - {area: den}
  gases:
    - area: hall
      diameter: 2
      duration: 2
      dice: 3
      turn: 11
  strikes: []
"""
    late, unnamed = sorted(parse_scenario(text, "b.yaml").warnings, key=lambda w: -(w.line or 0))
    assert (unnamed.line, unnamed.field) == (17, "gm.cave_ins[0]")
    assert "the cave-in has no turn: the heuristic GM uses a prepared effect only on its " \
           "turn, so it never happens" in unnamed.message
    assert (late.line, late.field) == (23, "gm.gases[0].turn")
    assert late.message == ("the gas is prepared for turn 11, after the battle's last turn "
                            "(max_turns 10): it never happens")
    # A GM played by a person (or a search) may use an effect with no turn whenever it likes.
    human = text.replace("gm:\n", "gm:\n  policy: human\n")
    (only,) = parse_scenario(human, "b.yaml").warnings
    assert only.field == "gm.gases[0].turn"


def test_a_unit_too_small_to_ever_wound_any_foe_is_a_warning() -> None:
    text = BATTLE.replace(
        "{name: axes, side: dwarves, area: hall, figures: 6}",
        "{name: wyrm, side: dwarves, area: hall, figures: 1, hd: 30, creatures_per_figure: 1}",
    ).replace("{name: spears, side: goblins, area: den, figures: 6}",
              "{name: spears, side: goblins, area: den, figures: 2}")
    (warning,) = parse_scenario(text, "b.yaml").warnings
    assert (warning.line, warning.field) == (14, "units[spears]")
    # A tenth of the wyrm figure's 30 Hit Dice (a narrow frontage, the most generous case).
    assert warning.message == ("spears (2 figures, 1 die a hit) deals at most 2 dice of damage "
                               "at once, and wounding a figure of the easiest foe to hurt (wyrm) "
                               "takes 3: it can never hurt a foe (give it more figures or more "
                               "dice of damage a hit)")
    for more in ("figures: 3}", "figures: 2, damage: 2}", "figures: 2, missile: {range: 6, "
                 "damage: 2}}"):
        bigger = text.replace("figures: 2}", more)
        assert parse_scenario(bigger, "b.yaml").warnings == (), more


def test_the_traps_figure_hit_dice_are_the_scenarios() -> None:
    from fracas.rules.battlesystem.scenario import UnitModel, figure_hit_dice
    from fracas.rules.battlesystem.traps import figure_hd

    for hd in (0.25, 0.5, 1, 1.5, 2, 3, 4.5, 8, 12, 30):
        for creatures in (None, 1, 3, 10, 20):
            unit = UnitModel(name="u", side="s", area="a", figures=1, hd=hd,
                             creatures_per_figure=creatures)
            assert figure_hd(unit) == figure_hit_dice(unit)[1], (hd, creatures)
