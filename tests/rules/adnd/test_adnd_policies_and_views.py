"""The default AI, the scenario's choice of policies, and what each side may see."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from adnd_helpers import EXAMPLES, act, fighter, start

from fracas.core.encounter import Encounter
from fracas.core.policy import (
    DecisionRequest,
    HumanPolicy,
    Policy,
    RandomPolicy,
    ScriptedPolicy,
)
from fracas.core.rng import SeededRng
from fracas.rules.adnd import AdndUnderground
from fracas.rules.adnd.actions import Attack, Climb, Grab, Proceed, Turn
from fracas.scenario import load_scenario, start_encounter

DAGGER = {"name": "dagger", "damage": "1d4", "length_ft": 1.2}


def _choose(enc: Any) -> Any:
    actor = enc.current_actor()
    policy = enc.ruleset.policy("heuristic", actor, {})
    return policy.choose(DecisionRequest(actor, enc.state, enc.ruleset, SeededRng(1)))


def test_heuristic_dm_lets_the_round_run() -> None:
    enc = start([fighter("A", "x"), fighter("B", "y")], proceed=False)
    assert _choose(enc) == Proceed("gm")


def test_heuristic_pushes_the_foe_with_the_drop_at_his_back() -> None:
    ledge = {"kind": "ledge", "alt_ft": 50, "edge_ft": 0}
    enc = start([fighter("A", "x", terrain={"alt_ft": 50}),
                 fighter("W", "y", terrain={**ledge, "behind": "wall"}),
                 fighter("D", "y", terrain={**ledge, "behind": "drop"})])
    assert _choose(enc) == Attack("A", "D", "sword")


def test_heuristic_climbs_toward_foes_out_of_reach() -> None:
    enc = start([fighter("A", "x", terrain={"kind": "wall", "alt_ft": 10, "top_ft": 40}),
                 fighter("B", "y", terrain={"alt_ft": 40})])
    assert _choose(enc) == Climb("A", "up")


def test_heuristic_drags_his_foe_when_falling() -> None:
    wall = {"kind": "wall", "alt_ft": 30}
    enc = start([fighter("A", "x", climbing=10, weapons=[DAGGER], terrain=wall),
                 fighter("B", "y", terrain=wall)], init=(2, 1))
    act(enc, "B attack target=A weapon=sword", 15, 3, 99)
    assert _choose(enc) == Grab("A", "B")


def test_scenario_chooses_each_actors_policy() -> None:
    enc = start([fighter("A", "x", policy="random"), fighter("B", "y", policy="human"),
                 fighter("C", "y", policy=["C wait"])], gm_policy="heuristic")
    rs = enc.ruleset
    assert isinstance(rs, AdndUnderground)
    assert isinstance(rs.policy_for(enc.state, "A"), RandomPolicy)
    assert isinstance(rs.policy_for(enc.state, "B"), HumanPolicy)
    assert isinstance(rs.policy_for(enc.state, "C"), ScriptedPolicy)
    assert type(rs.policy_for(enc.state, "gm")).__name__ == "HeuristicPolicy"


def test_a_side_does_not_see_its_foes_hit_points_or_breath() -> None:
    enc = start([fighter("A", "x"), fighter("B", "y")])
    rs = enc.ruleset
    full = {c["name"]: c for c in rs.view(enc.state)["combatants"]}
    mine = {c["name"]: c for c in rs.view(enc.state, "x")["combatants"]}
    assert full["B"]["hp"] == 20 and mine["B"]["hp"] is None and mine["B"]["breath_free"] is None
    assert mine["A"]["hp"] == 20
    json.dumps(rs.view(enc.state, "y"))


def test_table_and_log_lines_read_like_the_game() -> None:
    enc = start([fighter("A", "x", terrain={"alt_ft": 20}),
                 fighter("B", "y", climbing=50,
                         terrain={"kind": "wall", "alt_ft": 20, "facing_wall": False})])
    events = act(enc, "A attack target=B weapon=sword", 15, 3, 60, 2, 2)
    lines = [enc.ruleset.describe_event(e, enc.state) for e in events]
    assert "  A hits B: 15 against 10" in lines
    assert "  B fails a climbing check: 60 against 50" in lines
    assert "  B falls 20 ft, at the foot of the wall" in lines
    columns, rows = enc.ruleset.table(enc.state)
    assert columns[:4] == ["name", "side", "status", "hp"]
    assert rows[1][3] == "13/20"


def test_the_log_shows_the_modifiers_behind_an_attack_total() -> None:
    enc = start([fighter("T", "x", boulders=1, terrain={"kind": "ledge", "alt_ft": 30}),
                 fighter("V", "y", climbing=50, terrain={"kind": "wall", "alt_ft": 15})])
    events = act(enc, "T boulder target=V", 16, 1, 1, 10)
    lines = [enc.ruleset.describe_event(e, enc.state) for e in events]
    # 16 on the die, +2 from above, +2 at a climber's back, -8 for a dropped boulder.
    assert ("  T brings a boulder down on V: 12 against 5 "
            "(rolled 16, +2 higher, +2 rear, -8 dropped)") in lines


def test_the_log_shows_what_a_check_target_is_made_of() -> None:
    enc = start([fighter("A", "x", terrain={"alt_ft": 20}),
                 fighter("B", "y", climbing=50, hp=4,
                         terrain={"kind": "wall", "alt_ft": 20, "facing_wall": False})])
    events = act(enc, "A attack target=B weapon=sword", 15, 2, 30)
    lines = [enc.ruleset.describe_event(e, enc.state) for e in events]
    assert "  B succeeds a climbing check: 30 against 40 (rating 50, -10 heavy blow)" in lines


def _policies(enc: Encounter[Any]) -> Callable[[str], Policy]:
    def pick(actor: str) -> Policy:
        return enc.ruleset.policy_for(enc.state, actor)

    return pick


def test_heuristic_fights_finish_quickly_and_are_reproducible() -> None:
    for path in EXAMPLES:
        outcomes = []
        for _ in range(2):
            enc: Encounter[Any] = start_encounter(load_scenario(path), 11, keep_log=False)
            outcomes.append(enc.play(_policies(enc), SeededRng(11)))
        assert outcomes[0] == outcomes[1] and outcomes[0] is not None


def test_heuristic_climbs_to_advantage_when_a_higher_foe_is_hard_to_hit() -> None:
    wall = {"kind": "wall", "alt_ft": 20, "top_ft": 40, "facing_wall": False}
    enc = start([fighter("A", "x", thac0=19, terrain=wall),
                 fighter("B", "y", ac=2, terrain={"alt_ft": 25})])
    assert _choose(enc) == Climb("A", "up")
    enc = start([fighter("A", "x", thac0=6, terrain=wall),
                 fighter("B", "y", ac=2, terrain={"alt_ft": 25})])
    assert _choose(enc) == Attack("A", "B", "sword")


def test_heuristic_turns_his_back_to_the_wall_to_strike_a_foe_off_it() -> None:
    enc = start([fighter("A", "x", terrain={"kind": "wall", "alt_ft": 20, "top_ft": 20}),
                 fighter("B", "y", terrain={"kind": "ledge", "alt_ft": 20, "edge_ft": 2})])
    assert _choose(enc) == Turn("A")


def test_a_log_saved_before_modifiers_were_recorded_still_reads() -> None:
    from fracas.core.events import decode_event
    from fracas.rules.adnd.events import AttackRolled

    old = {"type": "adnd.attack", "attacker": "A", "target": "B", "weapon": "sword",
           "total": 15, "needed": 10, "hit": True, "hidden": False}
    event = decode_event(old, AdndUnderground())
    assert isinstance(event, AttackRolled) and event.modifiers == ()
    assert AdndUnderground().describe_event(event, None) == "  A hits B: 15 against 10"  # type: ignore[arg-type]


def _cliff_with_a_slinger_across_the_gap(alt: float) -> list[dict[str, Any]]:
    """A climber below a goblin on the clifftop, and a goblin slinger across a chasm below."""
    return [fighter("W", "party", climbing=90, terrain={"kind": "wall", "alt_ft": alt,
                                                         "top_ft": 40}),
            fighter("G", "goblins", terrain={"kind": "ledge", "alt_ft": 40, "edge_ft": 2,
                                             "behind": "open"}),
            fighter("S", "goblins", weapons=[{"name": "sling", "damage": "1d4",
                                              "missile": True}],
                    terrain={"alt_ft": 0, "across_gap": True})]


def test_heuristic_climbs_toward_the_foe_he_can_reach_not_one_across_a_gap() -> None:
    # The slinger across the chasm is nearer, but no climb brings him within reach:
    # the climber closes with the goblin on the clifftop instead.
    enc = start(_cliff_with_a_slinger_across_the_gap(5))
    assert _choose(enc) == Climb("W", "up")  # not down toward the slinger and back up again


_SWORD_AND_BOW = [{"name": "sword", "damage": "1d8", "length_ft": 3.5},
                  {"name": "bow", "damage": "1d6", "length_ft": 5, "hands": 2, "missile": True}]


def _archer_below(alt: float, foe_terrain: dict[str, Any]) -> list[dict[str, Any]]:
    """An archer on a cliff (his bow needs both hands) below a goblin at its top."""
    return [fighter("W", "party", climbing=90, weapons=_SWORD_AND_BOW,
                    terrain={"kind": "wall", "alt_ft": alt, "top_ft": 40}),
            fighter("G", "goblins", terrain=foe_terrain)]


_LEDGE_AT_THE_TOP = {"kind": "ledge", "alt_ft": 40, "edge_ft": 2, "behind": "open"}


def test_heuristic_archer_climbs_down_to_shoot_at_foes_on_a_ledge_above() -> None:
    # Up there he would fight clinging at -2 against a foe 2 higher; the goblin on the
    # ledge cannot climb after him, so he goes down to where his bow works.
    enc = start(_archer_below(20, _LEDGE_AT_THE_TOP))
    assert _choose(enc) == Climb("W", "down")


def test_heuristic_archer_at_the_foot_shoots_at_the_ledge() -> None:
    enc = start(_archer_below(0, _LEDGE_AT_THE_TOP))
    assert _choose(enc) == Attack("W", "G", "bow")


def test_heuristic_archer_still_climbs_toward_a_foe_who_could_climb_after_him() -> None:
    # A foe on the wall itself could follow him down: the archer closes as before.
    enc = start(_archer_below(20, {"kind": "wall", "alt_ft": 40, "top_ft": 40}))
    assert _choose(enc) == Climb("W", "up")


def test_heuristic_climber_without_a_bow_climbs_up_to_the_ledge() -> None:
    enc = start([fighter("W", "party", climbing=90,
                         terrain={"kind": "wall", "alt_ft": 20, "top_ft": 40}),
                 fighter("G", "goblins", terrain=_LEDGE_AT_THE_TOP)])
    assert _choose(enc) == Climb("W", "up")


def _fresh_and_wounded(wounded_weapon: dict[str, Any]) -> list[dict[str, Any]]:
    """A swordsman (1d8) against a fresh foe and one with 2 hit points left."""
    return [fighter("A", "x"), fighter("B", "y"),
            fighter("C", "y", hp=2, weapons=[wounded_weapon])]


def test_heuristic_finishes_a_wounded_foe_who_still_strikes_hard() -> None:
    # 4.5 hp expected from B, 2 from C; but a hit kills C 7 times in 8, and a dead
    # swordsman deals no more 1d8 blows: A finishes him.
    enc = start(_fresh_and_wounded({"name": "sword", "damage": "1d8", "length_ft": 3.5}))
    assert _choose(enc) == Attack("A", "C", "sword")


def test_heuristic_does_not_chase_a_wounded_foe_who_barely_hurts() -> None:
    # C's dagger (2.5 a blow) is worth less than a solid blow on the fresh B.
    enc = start(_fresh_and_wounded(DAGGER))
    assert _choose(enc) == Attack("A", "B", "sword")
