"""The heuristic's choices in the situations it must handle, and the rules that keep
battles from stalling (slow routers, armies cut off from each other)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.core.encounter import Encounter
from fracas.core.policy import DecisionRequest, scenario_policies
from fracas.core.rng import ScriptedRng, SeededRng, derive_seed
from fracas.core.ruleset import find_ruleset
from fracas.rules.battlesystem.actions import Charge, Form, Hold, Move
from fracas.rules.battlesystem.events import (
    FeatureCollapsed,
    FormationChanged,
    Routed,
    UnitLeft,
)
from fracas.rules.battlesystem.policies import HeuristicPolicy, firing_position, volley_value
from fracas.rules.battlesystem.resolve import cut_off
from fracas.rules.battlesystem.rout import rout_phase
from fracas.scenario import build_initial_state, load_scenario

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "battlesystem")
                  .glob("*.yaml"))
CROSSBOW = {"missile": {"range": 8, "damage": 2}, "lights": 4, "lit": True}


def _order(b, name: str, phase: str = "move"):
    b.state.phase, b.state.queue = phase, [name]
    return HeuristicPolicy().choose(DecisionRequest(name, b.state, b.ruleset, SeededRng(0)))


# -- rules that keep a battle moving ---------------------------------------------------

def test_a_slow_router_banks_its_movement_and_gets_away_from_a_long_area(kit) -> None:
    # Centre to centre the way back is 12 inches; the router moves 6 a turn.
    b = kit.battle([kit.area("home", length=12), kit.area("hall", length=12)],
                   [kit.unit("van", "red", "hall", 4, movement=6),
                    kit.unit("foe", "blue", "home", 4)],
                   links=[("home", "hall")],
                   sides=[{"name": "red", "retreat": "home"},
                          {"name": "blue", "retreat": "hall"}])
    b.unit("foe").status = "destroyed"
    b.emit(Routed("van", "morale"))
    rout_phase(b.state, ScriptedRng([]), b.emit)
    assert (b.unit("van").area, b.unit("van").progress) == ("hall", 6.0)
    rout_phase(b.state, ScriptedRng([]), b.emit)
    assert b.unit("van").area == "home"
    rout_phase(b.state, ScriptedRng([]), b.emit)
    assert [(e.unit, e.status) for e in b.of(UnitLeft)] == [("van", "fled")]


def test_armies_cut_off_by_a_fallen_bridge_end_the_battle_at_the_turn_end(kit) -> None:
    b = kit.battle([kit.area("west"), kit.area("span", width=3, length=8, kind="bridge",
                                               features=[{"name": "arch", "kind": "bridge"}]),
                    kit.area("east")],
                   [kit.unit("knights", "red", "west", 4),
                    kit.unit("goblins", "blue", "east", 6, orders="hold")],
                   links=[("west", "span"), ("span", "east")])
    assert not cut_off(b.state)
    b.emit(FeatureCollapsed("arch", "span"))
    assert cut_off(b.state)
    enc = Encounter(b.ruleset, b.state, rng=SeededRng(1))
    outcome = enc.play(scenario_policies(b.ruleset, enc.state), SeededRng(2))
    assert outcome is not None and outcome.reason == "the armies cannot reach each other"
    assert (outcome.winner, outcome.rounds) == ("blue", 1)


def test_missiles_that_can_still_reach_across_the_gap_keep_the_battle_going(kit) -> None:
    b = kit.battle([kit.area("west", length=4), kit.area("gap", length=2),
                    kit.area("east", length=4)],
                   [kit.unit("bows", "red", "west", 4, missile={"range": 8}),
                    kit.unit("goblins", "blue", "east", 6)],
                   links=[("west", "gap"), ("gap", "east")])
    b.state.gone.add("gap")
    assert not cut_off(b.state)


# -- missile troops ----------------------------------------------------------------------

def _dark_road(kit, **bows):
    """Crossbowmen with torches but no infravision, a dark road, orcs in a dark hall."""
    return kit.battle([kit.area("gate", lit=False), kit.area("road", length=6, lit=False),
                       kit.area("hall", length=10, lit=False)],
                      [kit.unit("guard", "red", "gate", 4),
                       kit.unit("bows", "red", "gate", 4, movement=12, **{**CROSSBOW, **bows}),
                       kit.unit("orcs", "blue", "hall", 6, infravision=True, orders="hold")],
                      links=[("gate", "road"), ("road", "hall")])


def test_missile_troops_that_cannot_see_their_target_wait_instead_of_marching_into_melee(
        kit) -> None:
    b = _dark_road(kit)
    # No area clear of orcs lets the crossbowmen see them within 8 inches: they wait
    # while the guard, their friends who fight hand to hand, goes in.
    assert firing_position(b.state, b.unit("bows")) is None
    assert _order(b, "bows") == Hold("bows")
    assert _order(b, "guard") == Move("guard", "hall")


def test_missile_troops_join_friends_already_fighting_when_they_have_no_shot(kit) -> None:
    b = _dark_road(kit)
    b.unit("guard").area = "hall"
    assert _order(b, "bows") == Move("bows", "hall")


def test_missile_troops_with_no_one_left_to_fight_hand_to_hand_close_in(kit) -> None:
    b = _dark_road(kit)
    b.unit("guard").status = "destroyed"
    assert _order(b, "bows") == Move("bows", "hall")


def test_missile_troops_march_to_a_firing_position_and_wait_there(kit) -> None:
    # The hall is lit: from the road (8 inches away) the bows can see and reach the orcs.
    b = kit.battle([kit.area("gate", length=6), kit.area("road", length=6),
                    kit.area("hall", length=10)],
                   [kit.unit("bows", "red", "gate", 4, movement=6,
                             missile={"range": 8, "damage": 2}),
                    kit.unit("orcs", "blue", "hall", 6, orders="hold")],
                   links=[("gate", "road"), ("road", "hall")])
    assert firing_position(b.state, b.unit("bows")) == "road"
    assert _order(b, "bows") == Move("bows", "road")
    b.unit("bows").area = "road"
    # In range and seen: the bows hold in the move phase and fire in the missile phase.
    assert _order(b, "bows") == Hold("bows")
    assert str(_order(b, "bows", "missile")) == "bows fire target=orcs"


def test_missile_troops_do_not_march_through_an_enemy_to_reach_a_firing_position(
        kit) -> None:
    b = kit.battle([kit.area("gate", length=6), kit.area("road", length=6),
                    kit.area("hall", length=6), kit.area("far", length=6)],
                   [kit.unit("bows", "red", "gate", 4, missile={"range": 6}),
                    kit.unit("pickets", "blue", "road", 2, orders="hold"),
                    kit.unit("orcs", "blue", "far", 6, orders="hold")],
                   links=[("gate", "road"), ("road", "hall"), ("hall", "far")])
    # Only the hall would let them shoot at the orcs, and the pickets hold the road:
    # the gate itself is the firing position, against the pickets 6 inches away.
    assert firing_position(b.state, b.unit("bows")) == "gate"


def test_missile_troops_shoot_the_target_they_can_hurt_not_the_biggest(kit) -> None:
    # Four crossbow figures, 1 die a hit: at most 4 dice, under the 5 a 20-Hit-Dice
    # troll figure needs to be wounded; the goblin figures (10 Hit Dice) need 3.
    b = kit.battle([kit.area("a", length=4), kit.area("b", length=4)],
                   [kit.unit("bows", "red", "a", 4, missile={"range": 8, "damage": 1}),
                    kit.unit("trolls", "blue", "b", 6, hd=20, creatures_per_figure=1),
                    kit.unit("goblins", "blue", "b", 2)],
                   links=[("a", "b")])
    assert volley_value(b.state, b.unit("bows"), b.unit("trolls")) == 0
    assert volley_value(b.state, b.unit("bows"), b.unit("goblins")) > 0
    assert str(_order(b, "bows", "missile")) == "bows fire target=goblins"


# -- units ordered to hold ------------------------------------------------------------

def test_units_ordered_to_hold_wait_while_an_enemy_comes(kit) -> None:
    b = kit.battle([kit.area("a"), kit.area("b")],
                   [kit.unit("x", "red", "a", 4, orders="hold"),
                    kit.unit("y", "blue", "b", 4)],
                   links=[("a", "b")])
    assert _order(b, "x") == Hold("x")


def test_units_ordered_to_hold_advance_when_every_enemy_holds_too(kit) -> None:
    b = kit.battle([kit.area("a"), kit.area("b", lit=False)],
                   [kit.unit("x", "red", "a", 4, orders="hold", infravision=True),
                    kit.unit("y", "blue", "b", 4, orders="hold")],
                   links=[("a", "b")])
    assert _order(b, "x") in (Move("x", "b"), Charge("x", "y"))
    assert _order(b, "y") in (Move("y", "a"), Charge("y", "x"))


def test_a_column_in_melee_deploys_to_fight_with_its_whole_front(kit) -> None:
    b = kit.battle([kit.area("hall")],
                   [kit.unit("x", "red", "hall", 4, formation="column"),
                    kit.unit("y", "blue", "hall", 4)])
    assert _order(b, "x") == Form("x", "closed")


def test_an_open_unit_closes_ranks_before_it_marches_into_melee(kit) -> None:
    # Open order routs on the first failed morale check; ruling 22 bars closing ranks
    # once in contact, so a melee unit does it on the way.
    b = kit.battle([kit.area("a"), kit.area("b")],
                   [kit.unit("x", "red", "a", 4, formation="open"),
                    kit.unit("y", "blue", "b", 4)],
                   links=[("a", "b")])
    assert _order(b, "x") == Form("x", "closed")
    b.emit(FormationChanged("x", "closed", "width"))
    assert _order(b, "x") in (Move("x", "b"), Charge("x", "y"))


def test_open_missile_troops_keep_their_order_to_shoot(kit) -> None:
    b = kit.battle([kit.area("a"), kit.area("b")],
                   [kit.unit("bows", "red", "a", 4, formation="open", **CROSSBOW),
                    kit.unit("y", "blue", "b", 4)],
                   links=[("a", "b")])
    assert not isinstance(_order(b, "bows"), Form)


# -- the examples ---------------------------------------------------------------------

@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_heuristic_fights_of_every_example_seldom_reach_the_turn_limit(path: Path) -> None:
    """At most 1 heuristic fight in 100 of each example ends at the turn limit."""
    ruleset = find_ruleset("battlesystem")
    scenario = load_scenario(path)
    initial = build_initial_state(ruleset, scenario.data, str(path))
    capped = 0
    for i in range(100):
        dice = SeededRng(derive_seed(0, i))
        enc = Encounter(ruleset, initial, rng=dice, keep_log=False)
        outcome = enc.play(scenario_policies(ruleset, enc.state), dice.spawn("policy"))
        assert outcome is not None
        capped += outcome.reason == "turn limit reached"
    assert capped <= 1
