"""Narrow frontages, columns, squeezed figures, forced open formation and rout chains."""

from __future__ import annotations

import pytest

from fracas.core.errors import IllegalActionError
from fracas.core.rng import ScriptedRng
from fracas.rules.battlesystem.actions import Form
from fracas.rules.battlesystem.combat import force_open, melee_phase, morale_check
from fracas.rules.battlesystem.events import Damaged, FormationChanged, Routed, UnitLeft, UnitMoved
from fracas.rules.battlesystem.movement import engaged, in_command, march
from fracas.rules.battlesystem.rout import rout_phase
from fracas.rules.battlesystem.state import room_for, unit_footprint

ORC = {"ac": 6, "thac0": 19, "damage": 2, "morale": 10}


def test_single_figures_facing_in_a_bottleneck_wound_at_ten_percent(kit) -> None:
    b = kit.battle([kit.area("gap", width=0.75, length=4)],
                   [kit.unit("hero", "red", "gap", 1, formation="column", thac0=19, damage=2),
                    kit.unit("orcs", "blue", "gap", 1, formation="column", **ORC)])
    # hero needs ceil((19-6)/2) = 7: rolls 7 (2 dice); the orc rolls 1 and misses.
    melee_phase(b.state, ScriptedRng([7, 1]), b.emit)
    hit = b.of(Damaged)
    assert [(d.unit, d.dice, d.figures, d.wounded) for d in hit] == [("orcs", 2, 1, 1)]


def test_the_same_blow_in_a_wide_line_has_no_effect_below_25_percent(kit) -> None:
    b = kit.battle([kit.area("hall", width=10, length=10)],
                   [kit.unit("men", "red", "hall", 4, frontage=4, thac0=19, damage=2),
                    kit.unit("orcs", "blue", "hall", 4, frontage=4, **ORC)])
    melee_phase(b.state, ScriptedRng([7, 1, 1, 1, 1, 1, 1, 1]), b.emit)
    assert b.unit("orcs").wounded == 0
    assert b.of(Damaged) == []


def test_many_small_units_on_one_figure_are_no_narrow_frontage(kit) -> None:
    # three one-figure units against one 10-orc figure in an open cavern: three figures
    # face one, so the standard 25% applies and 2 dice (20% of 10 Hit Dice) do nothing
    b = kit.battle([kit.area("cavern", width=20, length=20)],
                   [kit.unit(n, "red", "cavern", 1, thac0=19, damage=2) for n in "abc"]
                   + [kit.unit("orcs", "blue", "cavern", 1, **ORC)])
    melee_phase(b.state, ScriptedRng([7, 1, 1, 1]), b.emit)  # only a hits: 2 dice
    assert b.of(Damaged) == []
    assert b.unit("orcs").wounded == 0


def test_two_figures_against_one_still_fight_on_a_narrow_frontage(kit) -> None:
    b = kit.battle([kit.area("cavern", width=20, length=20)],
                   [kit.unit(n, "red", "cavern", 1, thac0=19, damage=2) for n in "ab"]
                   + [kit.unit("orcs", "blue", "cavern", 1, **ORC)])
    melee_phase(b.state, ScriptedRng([7, 1, 1]), b.emit)
    assert [(d.unit, d.dice, d.wounded) for d in b.of(Damaged)] == [("orcs", 2, 1)]


def test_column_fights_one_figure_wide(kit) -> None:
    b = kit.battle([kit.area("hall")],
                   [kit.unit("men", "red", "hall", 6, formation="column", damage=2),
                    kit.unit("orcs", "blue", "hall", 6, frontage=3, **ORC)])
    rng = ScriptedRng([10, 1, 1, 1])  # one die for the column, three for the orcs' front rank
    melee_phase(b.state, rng, b.emit)
    assert rng.remaining == 0


def _command_battle(kit, formation: str, rear: str | None):
    b = kit.battle([kit.area("hall", width=6, length=4), kit.area("tunnel", width=1, length=20)],
                   [kit.unit("chief", "red", "hall", 1),
                    kit.unit("column", "red", "tunnel", 8, formation=formation, frontage=1),
                    kit.unit("foe", "blue", "hall", 1)],
                   links=[("hall", "tunnel")],
                   sides=[{"name": "red", "retreat": "hall", "leader": "chief",
                           "command_radius": 10}, {"name": "blue", "retreat": "hall"}])
    b.unit("column").rear = rear
    return b


def test_column_is_in_command_when_its_head_is_within_the_radius(kit) -> None:
    # centres 12 inches apart; the 6-inch column's head is 9 inches from the leader.
    b = _command_battle(kit, "column", rear=None)
    assert in_command(b.state, b.unit("column"))


def test_column_heading_away_from_the_leader_is_out_of_command(kit) -> None:
    b = _command_battle(kit, "column", rear="hall")
    assert not in_command(b.state, b.unit("column"))


def test_closed_unit_needs_all_its_figures_in_the_radius(kit) -> None:
    b = _command_battle(kit, "closed", rear=None)
    assert not in_command(b.state, b.unit("column"))


def _winding(kit, formation: str):
    areas = [kit.area(n, width=2, length=4) for n in ("a", "b", "c")]
    return kit.battle(areas, [kit.unit("u", "red", "a", 2, formation=formation, frontage=1,
                                       movement=8),
                              kit.unit("foe", "blue", "c", 1)],
                      links=[("a", "b", True), ("b", "c", True)])


def test_column_winds_through_bends_at_full_movement(kit) -> None:
    b = _winding(kit, "column")
    march(b.state, b.unit("u"), "c", ScriptedRng([]), b.emit)
    assert b.unit("u").area == "c"


def test_closed_unit_pays_for_each_change_of_facing(kit) -> None:
    b = _winding(kit, "closed")
    march(b.state, b.unit("u"), "c", ScriptedRng([]), b.emit)
    assert b.unit("u").area == "b"
    assert b.unit("u").progress == 2.0  # 8 - (4 + 8/4) spent, the rest carried toward c


def test_squeezed_column_takes_twice_the_length_of_the_tunnel(kit) -> None:
    b = kit.battle([kit.area("mouth", width=6, length=6), kit.area("crack", width=0.4, length=10)],
                   [kit.unit("six", "red", "mouth", 6, formation="column"),
                    kit.unit("seven", "red", "mouth", 7, formation="column"),
                    kit.unit("foe", "blue", "mouth", 1)],
                   links=[("mouth", "crack")])
    crack = b.state.board.areas["crack"]
    assert unit_footprint(b.unit("six"), crack).length == 9
    assert room_for(b.state, b.unit("six"), "crack")
    assert not room_for(b.state, b.unit("seven"), "crack")


def test_nothing_may_follow_into_a_tunnel_filled_by_a_squeezed_column(kit) -> None:
    b = kit.battle([kit.area("mouth", width=6, length=6), kit.area("crack", width=0.4, length=10)],
                   [kit.unit("first", "red", "crack", 6, formation="column"),
                    kit.unit("second", "red", "mouth", 1, formation="column"),
                    kit.unit("foe", "blue", "mouth", 1)],
                   links=[("mouth", "crack")])
    assert not room_for(b.state, b.unit("second"), "crack")


def _crack_fight(kit, raiders_rear: str | None):
    b = kit.battle([kit.area("gate", width=6, length=6), kit.area("crack", width=0.4, length=12),
                    kit.area("den", width=6, length=6)],
                   [kit.unit("file", "red", "crack", 2, formation="column", damage=2),
                    kit.unit("raiders", "blue", "crack", 2, formation="column", damage=2)],
                   links=[("gate", "crack"), ("crack", "den")])
    b.unit("file").rear = "gate"  # the file came down from the gate: its back is to the gate
    b.unit("raiders").rear = raiders_rear
    return b


def test_an_enemy_coming_up_behind_a_squeezed_file_stops_a_base_away_and_cannot_fight(kit):
    b = _crack_fight(kit, raiders_rear="gate")  # the raiders followed it in from the gate
    assert not engaged(b.state, b.unit("file"))
    assert not engaged(b.state, b.unit("raiders"))
    rng = ScriptedRng([10, 10])
    melee_phase(b.state, rng, b.emit)
    assert rng.remaining == 2
    assert b.of(Damaged) == []


def test_a_squeezed_file_fights_the_enemy_in_front_of_it(kit) -> None:
    b = _crack_fight(kit, raiders_rear="den")  # the raiders came up the crack from the den
    assert engaged(b.state, b.unit("file"))
    rng = ScriptedRng([10, 10])
    melee_phase(b.state, rng, b.emit)
    assert rng.remaining == 0


def test_closed_units_cannot_march_into_a_passage_narrower_than_their_frontage(kit) -> None:
    b = kit.battle([kit.area("mouth", width=6, length=6), kit.area("crack", width=1, length=10)],
                   [kit.unit("block", "red", "mouth", 4, frontage=4),
                    kit.unit("foe", "blue", "mouth", 1)],
                   links=[("mouth", "crack")])
    march(b.state, b.unit("block"), "crack", ScriptedRng([]), b.emit)
    assert b.unit("block").area == "mouth"


def test_closed_unit_forced_open_without_room_routs_automatically(kit) -> None:
    # 4 figures abreast of 0.75 inch fill a 3 x 1.5 inch niche exactly.
    b = kit.battle([kit.area("niche", width=3, length=1.5), kit.area("hall")],
                   [kit.unit("pikes", "red", "niche", 8, frontage=4),
                    kit.unit("foe", "blue", "hall", 1)],
                   links=[("niche", "hall")])
    force_open(b.state, b.unit("pikes"), b.emit)
    assert [(e.unit, e.cause) for e in b.of(Routed)] == [("pikes", "no room to open")]


def test_closed_unit_forced_open_expands_where_there_is_room(kit) -> None:
    b = kit.battle([kit.area("hall", width=10, length=10)],
                   [kit.unit("pikes", "red", "hall", 8, frontage=4),
                    kit.unit("foe", "blue", "hall", 1)])
    force_open(b.state, b.unit("pikes"), b.emit)
    assert b.unit("pikes").formation == "open"
    assert b.unit("pikes").status == "ok"


def test_closed_unit_may_expand_to_front_or_rear_when_the_sides_are_blocked(kit) -> None:
    b = kit.battle([kit.area("hall", width=4, length=10)],
                   [kit.unit("pikes", "red", "hall", 8, frontage=4),
                    kit.unit("foe", "blue", "hall", 1)])
    force_open(b.state, b.unit("pikes"), b.emit)
    assert (b.unit("pikes").formation, b.unit("pikes").axis) == ("open", "length")


def test_failed_morale_breaks_a_closed_unit_open_before_it_can_rout(kit) -> None:
    b = kit.battle([kit.area("hall")], [kit.unit("pikes", "red", "hall", 8, morale=10),
                                        kit.unit("foe", "blue", "hall", 1)])
    assert not morale_check(b.state, b.unit("pikes"), ScriptedRng([11]), b.emit)
    assert b.unit("pikes").formation == "open"
    assert b.unit("pikes").status == "ok"


def test_a_unit_broken_open_in_melee_cannot_close_ranks_until_it_is_out_of_it(kit) -> None:
    """Ruling 22: a unit locked in melee keeps its formation (only a column deploys)."""
    b = kit.battle([kit.area("hall"), kit.area("yard")],
                   [kit.unit("pikes", "red", "hall", 8, morale=10),
                    kit.unit("foe", "blue", "hall", 1)],
                   links=[("hall", "yard")])
    morale_check(b.state, b.unit("pikes"), ScriptedRng([11]), b.emit)
    assert b.unit("pikes").formation == "open"
    with pytest.raises(IllegalActionError, match="melee: formations"):
        b.check(Form("pikes", "closed"), "move")
    b.unit("foe").area = "yard"  # out of contact: ranks may close again
    b.check(Form("pikes", "closed"), "move")


def test_in_melee_a_column_may_deploy_into_closed_order_and_nothing_else(kit) -> None:
    b = kit.battle([kit.area("hall")],
                   [kit.unit("file", "red", "hall", 4, formation="column"),
                    kit.unit("foe", "blue", "hall", 1)])
    b.check(Form("file", "closed"), "move")
    for formation in ("open", "skirmish"):
        with pytest.raises(IllegalActionError, match="melee: formations"):
            b.check(Form("file", formation), "move")


def test_column_counts_as_open_for_morale_and_routs_on_a_failure(kit) -> None:
    b = kit.battle([kit.area("hall")], [kit.unit("file", "red", "hall", 8, formation="column",
                                                 morale=10),
                                        kit.unit("foe", "blue", "hall", 1)])
    morale_check(b.state, b.unit("file"), ScriptedRng([11]), b.emit)
    assert [(e.unit, e.cause) for e in b.of(Routed)] == [("file", "morale")]


def test_morale_passes_at_or_under_the_rating(kit) -> None:
    b = kit.battle([kit.area("hall")], [kit.unit("file", "red", "hall", 8, morale=10),
                                        kit.unit("foe", "blue", "hall", 1)])
    assert morale_check(b.state, b.unit("file"), ScriptedRng([10]), b.emit)


def _chain(kit):
    areas = [kit.area("gate", width=10, length=10), kit.area("t1", width=0.4, length=10),
             kit.area("t2", width=0.4, length=10), kit.area("hall", width=10, length=10),
             kit.area("far", width=10, length=10)]
    units = [kit.unit("rear-guard", "red", "t1", 6, formation="column", movement=12),
             kit.unit("middle", "red", "t2", 6, formation="column", movement=12),
             kit.unit("van", "red", "hall", 6, formation="column", movement=12),
             kit.unit("foe", "blue", "far", 2)]
    return kit.battle(areas, units, links=[("gate", "t1"), ("t1", "t2"), ("t2", "hall"),
                                           ("hall", "far")])


def test_rout_blocked_by_friends_routs_them_in_a_chain_to_clear_the_path(kit) -> None:
    b = _chain(kit)
    b.emit(Routed("van", "morale"))
    rout_phase(b.state, ScriptedRng([]), b.emit)
    assert [(e.unit, e.cause) for e in b.of(Routed)][1:] == [
        ("middle", "blocking a rout"), ("rear-guard", "blocking a rout")]
    assert [(e.unit, e.status) for e in b.of(UnitLeft)] == [("rear-guard", "fled")]
    assert (b.unit("middle").area, b.unit("van").area) == ("t1", "t2")


def test_rout_with_a_way_around_the_friendly_unit_routs_nobody_else(kit) -> None:
    b = _chain(kit)
    b.state.board.links["hall"] += (type(b.state.board.links["hall"][0])("gate", False),)
    b.state.board.links["gate"] += (type(b.state.board.links["gate"][0])("hall", False),)
    b.emit(Routed("van", "morale"))
    rout_phase(b.state, ScriptedRng([]), b.emit)
    assert [e.unit for e in b.of(Routed)] == ["van"]
    assert b.unit("middle").status == "ok"


def test_routers_with_every_way_back_held_by_enemies_surrender(kit) -> None:
    b = kit.battle([kit.area("home"), kit.area("pass"), kit.area("hall")],
                   [kit.unit("van", "red", "hall", 4),
                    kit.unit("foe", "blue", "pass", 4)],
                   links=[("home", "pass"), ("pass", "hall")])
    b.emit(Routed("van", "morale"))
    rout_phase(b.state, ScriptedRng([]), b.emit)
    assert b.unit("van").status == "surrendered"


def test_routing_unit_moves_toward_its_retreat(kit) -> None:
    b = kit.battle([kit.area("home"), kit.area("mid"), kit.area("hall")],
                   [kit.unit("van", "red", "hall", 4, movement=10, formation="open"),
                    kit.unit("foe", "blue", "hall", 4)],
                   links=[("home", "mid"), ("mid", "hall")])
    b.emit(Routed("van", "morale"))
    rout_phase(b.state, ScriptedRng([]), b.emit)
    assert [e.area for e in b.of(UnitMoved)] == ["mid"]
    assert not b.of(FormationChanged)


def test_a_friend_beyond_this_turns_routing_move_is_not_routed(kit) -> None:
    # The van (12 inches) can reach t2 (10 inches) but not t1 (20): the friends in t1 do not
    # stop this turn's routing move, so they stay in good order and the van runs to t2.
    areas = [kit.area("gate", width=10, length=10), kit.area("t1", width=0.4, length=10),
             kit.area("t2", width=0.4, length=10), kit.area("hall", width=10, length=10),
             kit.area("far", width=10, length=10)]
    units = [kit.unit("middle", "red", "t1", 6, formation="column", movement=12),
             kit.unit("van", "red", "hall", 6, formation="column", movement=12),
             kit.unit("foe", "blue", "far", 2)]
    b = kit.battle(areas, units, links=[("gate", "t1"), ("t1", "t2"), ("t2", "hall"),
                                        ("hall", "far")])
    b.emit(Routed("van", "morale"))
    rout_phase(b.state, ScriptedRng([]), b.emit)
    assert [e.unit for e in b.of(Routed)] == ["van"]
    assert (b.unit("middle").status, b.unit("middle").area) == ("ok", "t1")
    assert b.unit("van").area == "t2"
    # Next turn the van stands against them: now they block its move and are routed.
    rout_phase(b.state, ScriptedRng([]), b.emit)
    assert [(e.unit, e.cause) for e in b.of(Routed)][1:] == [("middle", "blocking a rout")]


def test_routing_flyers_under_a_high_ceiling_cannot_fly_up_and_away(kit) -> None:
    # A 300-foot cavern allows normal flight, but a routing flyer still leaves the field only
    # along the map's passages: with its one way back held by the enemy it surrenders.
    b = kit.battle([kit.area("home", ceiling=300), kit.area("pass", ceiling=300),
                    kit.area("vault", ceiling=300)],
                   [kit.unit("wyverns", "red", "vault", 2, hd=7, flyer=True, altitude="high",
                             movement=30),
                    kit.unit("foe", "blue", "pass", 4)],
                   links=[("home", "pass"), ("pass", "vault")])
    b.emit(Routed("wyverns", "morale"))
    rout_phase(b.state, ScriptedRng([]), b.emit)
    assert not b.of(UnitMoved)
    assert b.unit("wyverns").status == "surrendered"
