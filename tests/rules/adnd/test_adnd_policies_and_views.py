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
    assert "  A (sword) hits B: 15 against 10" in lines
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
    assert AdndUnderground().describe_event(event, None) == "  A (sword) hits B: 15 against 10"  # type: ignore[arg-type]


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
