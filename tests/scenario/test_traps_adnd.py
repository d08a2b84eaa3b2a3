"""AD&D underground traps: a combatant who can never strike a foe, one whose every attack
misses, boulders with nobody below; each a warning naming the file, line and field."""

from __future__ import annotations

from fracas.scenario import parse_scenario

FIGHT = """\
ruleset: adnd
combatants:
  - name: Wren
    side: party
    hp: 12
    weapons:
      - {name: sword, damage: 1d8, length_ft: 3}
    terrain: {kind: wall, alt_ft: 10, top_ft: 40}
  - name: Snik
    side: goblins
    hp: 6
    terrain: {kind: ledge, alt_ft: 40, edge_ft: 2}
"""


def test_a_climber_who_can_reach_the_ledge_has_no_warning() -> None:
    assert parse_scenario(FIGHT, "f.yaml").warnings == ()


def test_a_fighter_across_a_gap_with_no_missile_is_a_warning_on_the_gap() -> None:
    text = FIGHT.replace("{kind: ledge, alt_ft: 40, edge_ft: 2}",
                         "{kind: ledge, alt_ft: 40, edge_ft: 2, across_gap: true}")
    warnings = parse_scenario(text, "f.yaml").warnings
    assert [(w.line, w.field) for w in warnings] == [(6, "combatants[Wren].weapons"),
                                                     (12, "combatants[Snik].terrain.across_gap")]
    wren, snik = warnings
    assert "every foe stands across a gap: he can never strike a foe" in wren.message
    assert snik.message.startswith("Snik stands across a gap with no missile weapon or "
                                   "boulder: nobody hand to hand can reach him")
    bow = text.replace("    hp: 6\n", "    hp: 6\n    weapons: [{name: bow, missile: true}]\n")
    (only,) = parse_scenario(bow, "f.yaml").warnings  # he can shoot; Wren still cannot
    assert only.field == "combatants[Wren].weapons"


def test_a_foe_too_high_for_any_weapon_is_a_warning_on_the_weapons() -> None:
    text = FIGHT.replace("{kind: wall, alt_ft: 10, top_ft: 40}", "{kind: open}")
    warnings = parse_scenario(text, "f.yaml").warnings
    assert [(w.line, w.field) for w in warnings] == [(6, "combatants[Wren].weapons"),
                                                     (9, "combatants[Snik]")]
    assert warnings[0].message == (
        "Wren has no missile weapon or boulder and the nearest foe is 40 ft above or below "
        "him, beyond the 5 ft plus 3 ft of his longest weapon: he can never strike a foe "
        "(give him a bow or a sling, or move him within reach)")
    assert "beyond the 5 ft plus 1 ft of his longest weapon" in warnings[1].message  # fists


def test_boulders_count_as_reach_only_onto_a_foe_below() -> None:
    text = FIGHT.replace("{kind: wall, alt_ft: 10, top_ft: 40}", "{kind: open}").replace(
        "    hp: 6\n", "    hp: 6\n    boulders: 3\n")
    (wren,) = parse_scenario(text, "f.yaml").warnings
    assert wren.field == "combatants[Wren].weapons"
    assert wren.message.startswith("Wren has no missile weapon or boulder and the nearest foe "
                                   "is 40 ft")
    boulders = text.replace("    hp: 12\n", "    hp: 12\n    boulders: 1\n")
    found = {w.field: w.message for w in parse_scenario(boulders, "f.yaml").warnings}
    assert set(found) == {"combatants[Wren].boulders", "combatants[Wren].weapons"}
    assert found["combatants[Wren].weapons"].startswith(  # on the floor, nobody below him
        "Wren has no missile weapon, no foe below for his boulders, and the nearest foe is 40 ft")


def test_boulders_with_no_foe_ever_below_are_a_warning() -> None:
    text = FIGHT.replace("{kind: wall, alt_ft: 10, top_ft: 40}",
                         "{kind: bridge, alt_ft: 40}").replace(
        "    hp: 6\n", "    hp: 6\n    boulders: 2\n")
    (warning,) = parse_scenario(text, "f.yaml").warnings
    assert (warning.line, warning.field) == (12, "combatants[Snik].boulders")
    assert warning.message == ("Snik has 2 boulders but no foe can ever be below him (he "
                               "stands at most 40 ft up): a boulder only falls on someone "
                               "beneath, so he will never use one")
    climbing = text.replace("{kind: bridge, alt_ft: 40}", "{kind: wall, alt_ft: 40}")
    assert parse_scenario(climbing, "f.yaml").warnings == ()  # Wren may climb down


def test_a_fighter_who_can_never_hit_is_a_warning_on_his_thac0() -> None:
    text = FIGHT.replace("    hp: 12\n", "    hp: 12\n    thac0: 20\n").replace(
        "    hp: 6\n", "    hp: 6\n    ac: -5\n")
    (warning,) = parse_scenario(text, "f.yaml").warnings
    assert (warning.file, warning.line, warning.field) == ("f.yaml", 6, "combatants[Wren].thac0")
    assert warning.message == ("Wren has THAC0 20 and the easiest foe to hit has Armor Class "
                               "-5: even a 20 with every bonus (+4) comes to 24, short of the "
                               "25 needed, so every attack of his misses")
    magic = text.replace("length_ft: 3}", "length_ft: 3, magic: 1}")
    assert parse_scenario(magic, "f.yaml").warnings == ()


def test_a_bottleneck_narrower_than_a_sides_first_fighter_is_a_warning() -> None:
    text = FIGHT.replace("{kind: ledge, alt_ft: 40, edge_ft: 2}", "{kind: open}").replace(
        "{kind: wall, alt_ft: 10, top_ft: 40}", "{kind: open}").replace(
        "    hp: 6\n", "    hp: 6\n    frontage_ft: 2\n") + "bottleneck: {width_ft: 2.5}\n"
    (warning,) = parse_scenario(text, "f.yaml").warnings  # the goblin fits, Wren does not
    assert (warning.file, warning.line, warning.field) == ("f.yaml", 14, "bottleneck.width_ft")
    assert warning.message.startswith(
        "the bottleneck is 2.5 ft wide and Wren, the first of party, needs 3 ft: party has no "
        "front rank, so nobody fights hand to hand across it")
    narrow = text.replace("    hp: 12\n", "    hp: 12\n    frontage_ft: 2\n")
    assert parse_scenario(narrow, "f.yaml").warnings == ()
