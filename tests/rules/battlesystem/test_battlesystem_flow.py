"""The turn sequence, victory, policies, the views and the scenario file's checks."""

from __future__ import annotations

import pytest

from fracas.core.encounter import Encounter
from fracas.core.errors import IllegalActionError, ScenarioError
from fracas.core.events import FightEnded
from fracas.core.policy import DecisionRequest, HumanPolicy, RandomPolicy, ScriptedPolicy
from fracas.core.rng import ScriptedRng, SeededRng
from fracas.core.ruleset import find_ruleset
from fracas.rules.battlesystem import Battlesystem
from fracas.rules.battlesystem.actions import Form, Hold, Move
from fracas.rules.battlesystem.combat import fire, melee_phase
from fracas.rules.battlesystem.events import PhaseStarted, TurnStarted
from fracas.rules.battlesystem.policies import HeuristicPolicy
from fracas.rules.battlesystem.view import battle_map
from fracas.scenario import parse_scenario


def _encounter(kit, b, faces=()):
    return Encounter(b.ruleset, b.state, rng=ScriptedRng(list(faces), fallback=SeededRng(1)))


def test_the_rule_set_is_registered_as_battlesystem() -> None:
    assert isinstance(find_ruleset("battlesystem"), Battlesystem)


def test_a_turn_runs_gm_movement_missile_melee_morale_and_end_phases(kit) -> None:
    b = kit.battle([kit.area("a"), kit.area("b")],
                   [kit.unit("x", "red", "a", 2), kit.unit("y", "blue", "b", 2)],
                   links=[("a", "b")], gm={"cave_ins": [{"area": "b"}]})
    enc = _encounter(kit, b)
    assert enc.current_actor() == "gm"
    enc.apply(b.ruleset.parse_action("gm pass"))
    assert enc.current_actor() == "x"
    enc.apply(Hold("x"))
    enc.apply(Hold("y"))
    phases = [e.phase for e in enc.log if isinstance(e, PhaseStarted)]
    assert phases[:7] == ["gm", "move", "missile", "melee", "morale", "end", "gm"]
    assert [e.turn for e in enc.log if isinstance(e, TurnStarted)] == [1, 2]


def test_orders_out_of_turn_or_phase_are_refused_with_the_rule(kit) -> None:
    b = kit.battle([kit.area("a"), kit.area("b")],
                   [kit.unit("x", "red", "a", 2), kit.unit("y", "blue", "b", 2)],
                   links=[("a", "b")])
    enc = _encounter(kit, b)
    with pytest.raises(IllegalActionError) as refused:
        enc.apply(Hold("y"))
    assert refused.value.rule == "turn order"
    with pytest.raises(IllegalActionError) as refused:
        enc.apply(b.ruleset.parse_action("x fire target=y"))
    assert refused.value.rule == "turn sequence"
    with pytest.raises(IllegalActionError) as refused:
        enc.apply(Form("x", "wedge"))
    assert refused.value.rule == "formations"


def test_the_battle_ends_when_an_army_has_no_unit_in_good_order(kit) -> None:
    b = kit.battle([kit.area("a")], [kit.unit("x", "red", "a", 1, damage=20, thac0=10),
                                     kit.unit("y", "blue", "a", 1, morale=2)])
    enc = _encounter(kit, b, faces=[10, 1])
    enc.apply(Hold("x"))
    enc.apply(Hold("y"))
    assert enc.outcome() is not None
    assert enc.outcome().winner == "red"


def test_at_the_turn_limit_the_army_with_more_figures_in_good_order_wins(kit) -> None:
    b = kit.battle([kit.area("a"), kit.area("b")],
                   [kit.unit("x", "red", "a", 3), kit.unit("y", "blue", "b", 2)],
                   links=[("a", "b")], max_turns=1)
    enc = _encounter(kit, b)
    enc.apply(Hold("x"))
    enc.apply(Hold("y"))
    ended = [e for e in enc.log if isinstance(e, FightEnded)]
    assert [(e.winner, e.reason) for e in ended] == [("red", "turn limit reached")]


def test_policies_come_from_the_scenario(kit) -> None:
    b = kit.battle([kit.area("a")], [kit.unit("x", "red", "a", 1, policy="human"),
                                     kit.unit("y", "blue", "a", 1, policy=["y hold"]),
                                     kit.unit("z", "blue", "a", 1, policy="random")],
                   gm={"policy": "heuristic"})
    rs = b.ruleset
    assert isinstance(rs.policy_for(b.state, "x"), HumanPolicy)
    assert isinstance(rs.policy_for(b.state, "y"), ScriptedPolicy)
    assert isinstance(rs.policy_for(b.state, "z"), RandomPolicy)
    assert isinstance(rs.policy_for(b.state, "gm"), HeuristicPolicy)


def test_heuristic_forms_column_before_a_passage_too_narrow_for_its_line(kit) -> None:
    b = kit.battle([kit.area("hall"), kit.area("crack", width=0.5, length=20),
                    kit.area("den")],
                   [kit.unit("x", "red", "hall", 4, frontage=4),
                    kit.unit("y", "blue", "den", 2)],
                   links=[("hall", "crack"), ("crack", "den")])
    enc = _encounter(kit, b)
    request = DecisionRequest("x", enc.state, b.ruleset, SeededRng(0))
    assert HeuristicPolicy().choose(request) == Form("x", "column")
    enc.apply(Form("x", "column"))
    enc.apply(Hold("y"))
    assert enc.state.units["x"].formation == "column"
    assert enc.current_actor() == "x"
    order = HeuristicPolicy().choose(DecisionRequest("x", enc.state, b.ruleset, SeededRng(0)))
    assert order == Move("x", "den")


def test_heuristic_gm_uses_prepared_effects_on_their_turn(kit) -> None:
    b = kit.battle([kit.area("a"), kit.area("b")],
                   [kit.unit("x", "red", "a", 2), kit.unit("y", "blue", "b", 2)],
                   links=[("a", "b")], gm={"gases": [{"area": "b", "diameter": 2,
                                                      "duration": 1, "dice": 1, "turn": 2}]})
    enc = _encounter(kit, b)
    ask = DecisionRequest("gm", enc.state, b.ruleset, SeededRng(0))
    assert str(HeuristicPolicy().choose(ask)) == "gm pass"
    enc.apply(b.ruleset.parse_action("gm pass"))
    enc.apply(Hold("x"))
    enc.apply(Hold("y"))
    ask = DecisionRequest("gm", enc.state, b.ruleset, SeededRng(0))
    assert str(HeuristicPolicy().choose(ask)) == "gm release_gas area=b"


def test_move_order_is_refused_while_locked_in_melee(kit) -> None:
    b = kit.battle([kit.area("a"), kit.area("b")],
                   [kit.unit("x", "red", "a", 2), kit.unit("y", "blue", "a", 2)],
                   links=[("a", "b")])
    enc = _encounter(kit, b)
    with pytest.raises(IllegalActionError) as refused:
        enc.apply(Move("x", "b"))
    assert refused.value.rule == "melee"


def test_each_turn_starts_with_a_text_map_of_unit_positions(kit) -> None:
    b = kit.battle([kit.area("gate"), kit.area("crack", width=0.4, length=12)],
                   [kit.unit("file", "red", "crack", 4, formation="column"),
                    kit.unit("y", "blue", "gate", 2)],
                   links=[("gate", "crack")])
    enc = _encounter(kit, b)
    first = next(e for e in enc.log if isinstance(e, TurnStarted))
    text = b.ruleset.describe_event(first, enc.state)
    assert text == battle_map(enc.state)
    lines = text.splitlines()
    assert lines[0].startswith("=== turn 1 map")
    assert any("file (4 fig, column squeezed, 0.4x6 in)" in line for line in lines)
    assert "[" not in text  # nothing Rich could mistake for markup


def test_a_side_sees_only_the_enemies_its_units_can_see(kit) -> None:
    b = kit.battle([kit.area("a", lit=False), kit.area("b", lit=False)],
                   [kit.unit("x", "red", "a", 2), kit.unit("y", "blue", "b", 2, lights=2,
                                                          lit=True),
                    kit.unit("z", "blue", "b", 2)],
                   links=[("a", "b")])
    seen = {u["name"] for u in b.ruleset.view(b.state, "red")["units"]}
    assert seen == {"x", "y"}
    assert {u["name"] for u in b.ruleset.view(b.state)["units"]} == {"x", "y", "z"}


def test_sides_do_not_see_the_secret_collapse_chances(kit) -> None:
    b = kit.battle([kit.area("a", features=[{"name": "arch", "kind": "arch", "chance": 7}])],
                   [kit.unit("x", "red", "a", 2), kit.unit("y", "blue", "a", 2)])
    assert b.ruleset.view(b.state)["areas"][0]["features"][0]["chance"] == 7
    assert "chance" not in b.ruleset.view(b.state, "red")["areas"][0]["features"][0]


def test_table_lists_every_unit(kit) -> None:
    b = kit.battle([kit.area("a")], [kit.unit("x", "red", "a", 2), kit.unit("y", "blue", "a", 3)])
    columns, rows = b.ruleset.table(b.state)
    assert columns[0] == "unit"
    assert [row[0] for row in rows] == ["x", "y"]


def _yaml(body: str) -> str:
    return "ruleset: battlesystem\n" + body


GOOD = """areas:
  - {name: a, width: 10, length: 10}
sides:
  - {name: red, retreat: a}
  - {name: blue, retreat: a}
units:
  - {name: x, side: red, area: a, figures: 2}
  - {name: y, side: blue, area: a, figures: 2}
"""


def test_a_good_scenario_validates() -> None:
    assert parse_scenario(_yaml(GOOD), "good.yaml").ruleset.name == "battlesystem"


def test_a_bad_base_width_is_refused_with_file_line_and_field() -> None:
    text = _yaml(GOOD.replace("figures: 2}\n  - {name: y", "figures: 2, base: 0.6}\n  - {name: y"))
    with pytest.raises(ScenarioError) as bad:
        parse_scenario(text, "bad.yaml")
    assert str(bad.value).startswith("bad.yaml:")
    assert "units[x].base" in str(bad.value)
    assert "0.5, 0.75, 1 or 1.5 inch" in str(bad.value)


def test_a_one_and_a_half_inch_figure_holds_a_gap_of_its_own_width(kit) -> None:
    # The seed's bottleneck case names figures 1.5 inch wide as well as 0.75 inch ones.
    b = kit.battle([kit.area("gap", width=1.5, length=4)],
                   [kit.unit("ogre", "red", "gap", 1, hd=4, base=1.5, frontage=1),
                    kit.unit("orcs", "blue", "gap", 1, base=0.75, formation="column")])
    assert b.unit("ogre").stats.base == 1.5
    assert b.unit("ogre").formation == "closed"


def test_an_out_of_range_morale_is_refused() -> None:
    text = _yaml(GOOD.replace("figures: 2}\n  - {name: y", "figures: 2, morale: 25}\n  - {name: y"))
    with pytest.raises(ScenarioError, match="morale"):
        parse_scenario(text, "bad.yaml")


def test_a_unit_placed_wider_than_its_tunnel_is_refused() -> None:
    text = _yaml(GOOD.replace("width: 10, length: 10", "width: 1, length: 10"))
    with pytest.raises(ScenarioError, match="place it in column"):
        parse_scenario(text, "bad.yaml")


def test_unknown_areas_are_refused() -> None:
    text = _yaml(GOOD.replace("area: a, figures: 2}\n  - {name: y", "area: q, figures: 2}\n"
                              "  - {name: y"))
    with pytest.raises(ScenarioError, match="unknown area"):
        parse_scenario(text, "bad.yaml")


def test_wind_must_blow_into_a_linked_area() -> None:
    text = _yaml(GOOD.replace("{name: a, width: 10, length: 10}",
                              "{name: a, width: 10, length: 10, airflow: windy, wind_to: b}\n"
                              "  - {name: b, width: 10, length: 10}"))
    with pytest.raises(ScenarioError, match="wind_to must name a linked area"):
        parse_scenario(text, "bad.yaml")


def test_a_leader_must_be_one_of_its_own_units() -> None:
    text = _yaml(GOOD.replace("{name: red, retreat: a}", "{name: red, retreat: a, leader: y}"))
    with pytest.raises(ScenarioError, match="leader must be one of its own units"):
        parse_scenario(text, "bad.yaml")


def test_side_names_must_be_unique() -> None:
    text = _yaml(GOOD.replace("  - {name: blue, retreat: a}\n",
                              "  - {name: blue, retreat: a}\n  - {name: red, retreat: a}\n"))
    with pytest.raises(ScenarioError, match="names must be unique"):
        parse_scenario(text, "bad.yaml")


def test_a_link_must_join_two_different_areas() -> None:
    text = _yaml(GOOD.replace("sides:", "links:\n  - {a: a, b: a}\nsides:"))
    with pytest.raises(ScenarioError, match="joins an area to itself"):
        parse_scenario(text, "bad.yaml")


# -- the log a player reads (issue 14) ---------------------------------------------------

def _lines(b) -> list[str]:
    return [t for e in b.log if (t := b.ruleset.describe_event(e, b.state))]


def test_a_melee_line_names_the_target_the_attack_rating_and_the_hits(kit) -> None:
    b = kit.battle([kit.area("gap", width=0.75, length=4)],
                   [kit.unit("hero", "red", "gap", 1, formation="column", damage=2),
                    kit.unit("orcs", "blue", "gap", 1, formation="column", ac=6)])
    melee_phase(b.state, ScriptedRng([7, 1]), b.emit)  # hero needs ceil((19-6)/2) = 7
    lines = _lines(b)
    assert lines == [
        "  melee, hero against orcs: Attack Rating 7, 1 hit of 1d10 = 2 dice of damage",
        "  melee, orcs against hero: Attack Rating 6, no hits of 1d10",
        "  orcs takes 2 dice of melee damage: 1 figure left (1 wounded)"]


def test_a_volley_too_weak_to_wound_says_so(kit) -> None:
    b = kit.battle([kit.area("a"), kit.area("b")],
                   [kit.unit("slingers", "red", "a", 2, frontage=2,
                             missile={"range": 30, "damage": 1}),
                    kit.unit("ogres", "blue", "b", 1, hd=4)],  # 5 ogres a figure: 20 Hit Dice
                   links=[("a", "b")])
    fire(b.state, b.unit("slingers"), b.unit("ogres"), ScriptedRng([10, 10]), b.emit)
    assert _lines(b)[-2:] == [
        "  missiles, slingers against ogres: Attack Rating 6, 2 hits of 2d10 = 2 dice of damage",
        "  the volley's 2 dice of damage are too weak to wound ogres (a figure of 20 Hit Dice "
        "needs 5)"]


def test_the_closing_line_counts_turns(kit) -> None:
    b = kit.battle([kit.area("a"), kit.area("b")],
                   [kit.unit("x", "red", "a", 3), kit.unit("y", "blue", "b", 2)],
                   links=[("a", "b")], max_turns=1)
    enc = _encounter(kit, b)
    enc.apply(Hold("x"))
    enc.apply(Hold("y"))
    ended = next(e for e in enc.log if isinstance(e, FightEnded))
    assert b.ruleset.describe_event(ended, enc.state) == \
        "battle over after 1 turn: red won (turn limit reached)"
