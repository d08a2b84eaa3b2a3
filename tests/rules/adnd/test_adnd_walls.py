"""Fighting on walls and other sheer surfaces, and boulders rolled down on climbers."""

from __future__ import annotations

from typing import Any

import pytest
from adnd_helpers import act, fighter, of, start

from fracas.core.errors import IllegalActionError
from fracas.core.events import DiceRolled
from fracas.rules.adnd.events import (
    AttackRolled,
    CheckRolled,
    Climbed,
    Landed,
    SaveRolled,
    Secured,
    Turned,
    Wounded,
)

BOW = {"name": "bow", "damage": "1d6", "length_ft": 5, "hands": 2, "missile": True}
DAGGER = {"name": "dagger", "damage": "1d4", "length_ft": 1.2}
SWORD = {"name": "sword", "damage": "1d8", "length_ft": 3.5}


def wall(alt: float, **kw: Any) -> dict[str, Any]:
    return {"kind": "wall", "alt_ft": alt, "top_ft": 40, **kw}


def test_climber_suffers_minus_two_to_attack_and_damage() -> None:
    enc = start([fighter("A", "x", terrain=wall(20, facing_wall=False)),
                 fighter("B", "y", climbing=50, terrain=wall(20, facing_wall=False))])
    events = act(enc, "A attack target=B weapon=sword", 12, 5, 10)
    rolled = of(events, AttackRolled)[0]
    assert (rolled.total, rolled.needed, rolled.hit) == (10, 10, True)
    assert of(events, Wounded)[0].amount == 3


def test_climber_damage_never_drops_below_one() -> None:
    enc = start([fighter("A", "x", terrain=wall(20, facing_wall=False)),
                 fighter("B", "y", climbing=50, terrain=wall(20, facing_wall=False))])
    events = act(enc, "A attack target=B weapon=sword", 15, 1, 10)
    assert of(events, Wounded)[0].amount == 1


def test_climber_loses_shield_and_dexterity_bonus_to_armor_class() -> None:
    target = dict(ac=2, shield_ac=1, dex_ac=2, climbing=50)
    enc = start([fighter("A", "x", terrain={"alt_ft": 20}),
                 fighter("B", "y", terrain=wall(20, facing_wall=False), **target)])
    assert of(act(enc, "A attack target=B weapon=sword", 9), AttackRolled)[0].needed == 10
    enc = start([fighter("A", "x"), fighter("B", "y", **target)])
    assert of(act(enc, "A attack target=B weapon=sword", 9), AttackRolled)[0].needed == 13


def test_climber_cannot_use_a_two_handed_weapon() -> None:
    enc = start([fighter("A", "x", weapons=[SWORD, BOW], terrain=wall(20, facing_wall=False)),
                 fighter("B", "y", terrain={"alt_ft": 0})])
    with pytest.raises(IllegalActionError) as info:
        enc.check(enc.ruleset.parse_action("A attack target=B weapon=bow"))
    assert info.value.rule == "sheer surfaces"


def test_climber_cannot_fight_with_two_weapons() -> None:
    two = dict(weapons=[SWORD, DAGGER], two_weapons=True)
    enc = start([fighter("A", "x", **two), fighter("B", "y", hp=50)])
    assert len(of(act(enc, "A attack target=B weapon=sword", 2, 2), AttackRolled)) == 2
    enc = start([fighter("A", "x", terrain=wall(20, facing_wall=False), **two),
                 fighter("B", "y", hp=50, terrain={"alt_ft": 20})])
    assert len(of(act(enc, "A attack target=B weapon=sword", 2), AttackRolled)) == 1


def test_higher_climber_gains_two_and_lower_suffers_two() -> None:
    enc = start([fighter("A", "x", terrain=wall(25, facing_wall=False)),
                 fighter("B", "y", climbing=50, terrain=wall(20, facing_wall=False))])
    assert of(act(enc, "A attack target=B weapon=sword", 10), AttackRolled)[0].total == 10
    assert of(act(enc, "B attack target=A weapon=sword", 10), AttackRolled)[0].total == 6


def test_climber_facing_the_wall_shows_his_back_to_attackers_off_the_wall() -> None:
    enc = start([fighter("A", "x", terrain={"alt_ft": 20}),
                 fighter("B", "y", climbing=50, terrain=wall(20))])
    assert of(act(enc, "A attack target=B weapon=sword", 5), AttackRolled)[0].total == 7


def test_climber_beside_him_on_the_wall_gets_no_rear_bonus() -> None:
    enc = start([fighter("A", "x", terrain=wall(20, facing_wall=False)),
                 fighter("B", "y", climbing=50, terrain=wall(20))])
    assert of(act(enc, "A attack target=B weapon=sword", 5), AttackRolled)[0].total == 3


def test_climber_facing_the_wall_cannot_strike_foes_below_behind_him_until_he_turns() -> None:
    enc = start([fighter("A", "x", terrain=wall(20)), fighter("B", "y", terrain={"alt_ft": 15})],
                init=(1, 2))
    with pytest.raises(IllegalActionError) as info:
        enc.check(enc.ruleset.parse_action("A attack target=B weapon=sword"))
    assert info.value.rule == "sheer surfaces"
    assert of(act(enc, "A turn"), Turned)[0].facing_wall is False


def test_struck_climber_who_passes_his_climbing_check_holds_on() -> None:
    enc = start([fighter("A", "x", terrain={"alt_ft": 20}),
                 fighter("B", "y", climbing=50, terrain=wall(20, facing_wall=False))])
    events = act(enc, "A attack target=B weapon=sword", 15, 3, 50)
    check = of(events, CheckRolled)[0]
    assert (check.check, check.roll, check.target, check.success) == ("climbing", 50, 50, True)
    assert enc.state.fighters["B"].alt == 20


def test_struck_climber_who_fails_falls_and_takes_a_d6_per_ten_feet() -> None:
    enc = start([fighter("A", "x", terrain={"alt_ft": 20}),
                 fighter("B", "y", climbing=50, terrain=wall(20, facing_wall=False))])
    events = act(enc, "A attack target=B weapon=sword", 15, 3, 51, 4, 5)
    assert [e.amount for e in of(events, Wounded)] == [3, 9]
    landed = of(events, Landed)[0]
    assert (landed.feet, landed.out) == (20, False)
    b = enc.state.fighters["B"]
    assert (b.alt, b.hp, b.status) == (0, 8, "ok")


def test_blow_of_half_the_hit_points_rounded_up_costs_ten_percent() -> None:
    enc = start([fighter("A", "x", terrain={"alt_ft": 20}),
                 fighter("B", "y", hp=9, climbing=50, terrain=wall(20, facing_wall=False))])
    events = act(enc, "A attack target=B weapon=sword", 15, 5, 40)
    assert of(events, CheckRolled)[0].target == 40
    enc = start([fighter("A", "x", terrain={"alt_ft": 20}),
                 fighter("B", "y", hp=9, climbing=50, terrain=wall(20, facing_wall=False))])
    events = act(enc, "A attack target=B weapon=sword", 15, 4, 40)
    assert of(events, CheckRolled)[0].target == 50


def test_a_fall_from_great_height_is_capped_at_twenty_dice() -> None:
    enc = start([fighter("A", "x", terrain={"alt_ft": 250}),
                 fighter("B", "y", hp=200, climbing=50,
                         terrain={"kind": "wall", "alt_ft": 250, "facing_wall": False})])
    events = act(enc, "A attack target=B weapon=sword", 15, 3, 99, *([1] * 20))
    fall = next(e for e in of(events, DiceRolled) if e.purpose == "falling damage")
    assert len(fall.faces) == 20


def test_dm_can_rule_a_climber_secure_cancelling_the_penalties() -> None:
    enc = start([fighter("A", "x", ac=2, shield_ac=1, terrain=wall(20, facing_wall=False)),
                 fighter("B", "y", terrain={"alt_ft": 20})], proceed=False)
    assert of(act(enc, "gm secure target=A"), Secured)[0].secure
    rolled = of(act(enc, "A attack target=B weapon=sword", 10, 4), AttackRolled)[0]
    assert rolled.total == 10
    assert of(act(enc, "B attack target=A weapon=sword", 10), AttackRolled)[0].needed == 13


def test_climbing_clears_the_dms_ruling_of_security() -> None:
    enc = start([fighter("A", "x", terrain=wall(20, facing_wall=False)),
                 fighter("B", "y", terrain={"alt_ft": 40})], proceed=False)
    act(enc, "gm secure target=A")
    act(enc, "A climb direction=up")
    assert enc.state.fighters["A"].secure is False


def test_climber_saves_at_minus_two() -> None:
    saves = {"spell": 17}
    enc = start([fighter("A", "x", saves=saves, terrain=wall(20)), fighter("B", "y")],
                proceed=False)
    save = of(act(enc, "gm call_save target=A category=spell", 18), SaveRolled)[0]
    assert (save.total, save.needed, save.success, save.hidden) == (16, 17, False, True)


def test_climbing_moves_one_step_and_stops_at_top_and_foot() -> None:
    enc = start([fighter("A", "x", terrain={"kind": "wall", "alt_ft": 5, "top_ft": 10}),
                 fighter("B", "y", terrain={"alt_ft": 60})], init=(1, 2), climb_step_ft=5)
    assert of(act(enc, "A climb direction=up"), Climbed)[0].alt == 10
    act(enc, "B wait", 1, 2)
    act(enc, "gm proceed")
    with pytest.raises(IllegalActionError, match="top of the wall"):
        enc.check(enc.ruleset.parse_action("A climb direction=up"))
    act(enc, "A climb direction=down")
    act(enc, "B wait", 1, 2)
    act(enc, "gm proceed")
    act(enc, "A climb direction=down")
    act(enc, "B wait", 1, 2)
    act(enc, "gm proceed")
    with pytest.raises(IllegalActionError, match="foot of the wall"):
        enc.check(enc.ruleset.parse_action("A climb direction=down"))


def _boulder_fight(can_hurl: bool, **victim: Any) -> Any:
    return start([
        fighter("T", "x", thac0=16, boulders=1, can_hurl=can_hurl,
                terrain={"kind": "ledge", "alt_ft": 40, "edge_ft": 3, "behind": "open"}),
        fighter("V", "y", ac=0, climbing=50, **victim,
                terrain=wall(20, facing_wall=False)),
    ])


def test_dropped_boulder_is_minus_eight_against_ac_ten_for_2d8() -> None:
    enc = _boulder_fight(False)
    events = act(enc, "T boulder target=V", 13, 4, 5, 20)
    rolled = of(events, AttackRolled)[0]
    # needs 16 - 10 = 6; +2 for the higher fighter, -8 for a dropped boulder.
    assert (rolled.total, rolled.needed, rolled.hit) == (7, 6, True)
    assert of(events, Wounded)[0].amount == 9
    damage = next(e for e in of(events, DiceRolled) if e.purpose == "damage")
    assert (damage.sides, damage.faces) == (8, (4, 5))
    assert enc.state.fighters["T"].boulders == 0


def test_hurled_boulder_has_no_minus_eight() -> None:
    enc = _boulder_fight(True)
    rolled = of(act(enc, "T boulder target=V", 4), AttackRolled)[0]
    assert (rolled.total, rolled.needed, rolled.hit) == (6, 6, True)


def test_boulder_can_knock_a_climber_off_the_wall() -> None:
    enc = _boulder_fight(True)
    events = act(enc, "T boulder target=V", 10, 2, 3, 51, 1, 1)
    assert of(events, CheckRolled)[0].success is False
    assert of(events, Landed)[0].feet == 20
    assert enc.state.fighters["V"].alt == 0


def test_boulders_need_a_boulder_at_hand_and_a_foe_below() -> None:
    enc = start([fighter("T", "x", terrain={"alt_ft": 40}),
                 fighter("V", "y", terrain=wall(20))])
    with pytest.raises(IllegalActionError, match="no boulder"):
        enc.check(enc.ruleset.parse_action("T boulder target=V"))
    enc = start([fighter("T", "x", boulders=2, terrain={"alt_ft": 20}),
                 fighter("V", "y", terrain=wall(20))])
    with pytest.raises(IllegalActionError, match="not below"):
        enc.check(enc.ruleset.parse_action("T boulder target=V"))


def test_dms_called_save_is_a_hidden_roll() -> None:
    enc = start([fighter("A", "x"), fighter("B", "y")], proceed=False)
    events = act(enc, "gm call_save target=A category=breath", 18)
    assert all(e.hidden for e in of(events, DiceRolled))


DARTS = {"name": "darts", "damage": "1d3", "length_ft": 0.5, "missile": True}


@pytest.mark.parametrize("foe_terrain", [
    {"kind": "ledge", "alt_ft": 20, "edge_ft": 2},
    {"alt_ft": 25},
])
def test_climber_facing_the_wall_cannot_strike_any_foe_off_the_wall(
        foe_terrain: dict[str, Any]) -> None:
    # Every attacker off the wall is at his back, level with him or above him too.
    enc = start([fighter("A", "x", weapons=[SWORD, DARTS], terrain=wall(20)),
                 fighter("B", "y", terrain=foe_terrain)], init=(1, 2))
    for text in ("A attack target=B weapon=sword", "A attack target=B weapon=darts"):
        with pytest.raises(IllegalActionError) as info:
            enc.check(enc.ruleset.parse_action(text))
        assert info.value.rule == "sheer surfaces"
    act(enc, "A turn")
    act(enc, "B wait", 1, 2)
    act(enc, "gm proceed")
    enc.check(enc.ruleset.parse_action("A attack target=B weapon=sword"))
    enc.check(enc.ruleset.parse_action("A attack target=B weapon=darts"))


def test_climber_facing_the_wall_still_strikes_a_foe_beside_him_on_it() -> None:
    enc = start([fighter("A", "x", terrain=wall(20)),
                 fighter("B", "y", terrain=wall(25, facing_wall=False))])
    enc.check(enc.ruleset.parse_action("A attack target=B weapon=sword"))


def test_at_the_foot_of_the_wall_there_is_no_higher_or_lower_modifier() -> None:
    enc = start([fighter("A", "x", terrain=wall(0)), fighter("B", "y", terrain={"alt_ft": 5})])
    assert of(act(enc, "A attack target=B weapon=sword", 15, 1), AttackRolled)[0].total == 15
    # A boulder dropped on a climber already knocked to the foot: -8 only.
    enc = start([fighter("T", "x", thac0=16, boulders=1,
                         terrain={"kind": "ledge", "alt_ft": 40, "edge_ft": 3}),
                 fighter("V", "y", ac=0, terrain=wall(0, facing_wall=False))])
    assert of(act(enc, "T boulder target=V", 14, 1, 1), AttackRolled)[0].total == 6
