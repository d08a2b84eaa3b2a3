"""Dragging a foe into a fall: the grab, hanging on, regaining a hold, falling together."""

from __future__ import annotations

from typing import Any

import pytest
from adnd_helpers import act, fighter, of, start

from fracas.core.encounter import Encounter
from fracas.core.errors import IllegalActionError
from fracas.rules.adnd.events import (
    AttackRolled,
    CheckRolled,
    FallBegan,
    Grabbed,
    GrappleBegan,
    GrappleEnded,
    Landed,
    Regained,
    WeaponDropped,
)

DAGGER = {"name": "dagger", "damage": "1d4", "length_ft": 1.2, "magic": 3}
BOW = {"name": "bow", "damage": "1d6", "length_ft": 5, "hands": 2, "missile": True}


def wall(alt: float = 30) -> dict[str, Any]:
    return {"kind": "wall", "alt_ft": alt, "top_ft": 40}


def _knocked_off(a_weapons: list[dict[str, Any]] | None = None,
                 extra: tuple[Any, ...] = ()) -> Any:
    """B (who acts first) strikes A off the wall; returns the encounter and events."""
    a = fighter("A", "x", climbing=50, terrain=wall(), weapons=a_weapons or [DAGGER])
    b = fighter("B", "y", climbing=60, dex_ac=2, ac=3, terrain=wall())
    enc = start([a, b, *extra], init=(2, 1))
    return enc, act(enc, "B attack target=A weapon=sword", 15, 3, 80)


def test_falling_fighter_with_a_short_weapon_may_grab_his_foe() -> None:
    enc, events = _knocked_off()
    assert of(events, FallBegan)[0].choices == ("B",)
    assert enc.current_actor() == "A"
    assert [str(a) for a in enc.legal_actions()] == ["A grab target=B", "A plummet"]


def test_with_only_long_weapons_and_no_grapple_he_falls_at_once() -> None:
    _enc, events = _knocked_off([{"name": "sword", "damage": "1d8", "length_ft": 3.5}],)
    assert not of(events, FallBegan)
    assert of(events, Landed)[0].name == "A"


def test_grab_is_a_d20_against_ac_ten_less_dexterity_without_magic() -> None:
    a = fighter("A", "x", climbing=50, terrain=wall(), weapons=[DAGGER])
    b = fighter("B", "y", dex_ac=2, ac=3, terrain={"kind": "ledge", "alt_ft": 30})
    enc = start([a, b], init=(2, 1))
    act(enc, "B attack target=A weapon=sword", 15, 3, 80)
    events = act(enc, "A grab target=B", 7, 5)
    grab = of(events, AttackRolled)[0]
    # THAC0 15 against AC 10 - 2 = 8: 7 needed; the dagger's +3 does not count.
    assert (grab.weapon, grab.total, grab.needed, grab.hit) == ("grab", 7, 7, True)
    assert of(events, WeaponDropped)[0].weapon == "dagger"


def test_grab_at_a_climber_finds_no_dexterity_bonus_he_lost_to_the_wall() -> None:
    enc, _ = _knocked_off()
    events = act(enc, "A grab target=B", 5, 30)
    grab = of(events, AttackRolled)[0]
    # B clings to the wall: his Dexterity part is lost, so THAC0 15 against AC 10 needs 5.
    assert (grab.total, grab.needed, grab.hit) == (5, 5, True)


def test_grabbed_foe_who_keeps_his_hold_leaves_the_faller_hanging() -> None:
    enc, _ = _knocked_off()
    events = act(enc, "A grab target=B", 7, 60)
    check = of(events, CheckRolled)[0]
    assert (check.name, check.check, check.target, check.success) == ("B", "climbing", 60, True)
    assert of(events, Grabbed)[0].holder == "B"
    assert enc.state.fighters["A"].hanging_on == "B"
    assert enc.state.fighters["A"].alt == 30


def test_grabbed_foe_who_fails_his_check_falls_with_him() -> None:
    enc, _ = _knocked_off()
    events = act(enc, "A grab target=B", 7, 61, 1, 1, 1, 1, 1, 1)
    assert [e.name for e in of(events, Landed)] == ["A", "B"]
    assert enc.state.fighters["B"].alt == 0


def test_missed_grab_means_he_falls_alone() -> None:
    enc, _ = _knocked_off()
    events = act(enc, "A grab target=B", 4, 1, 1, 1)
    assert [e.name for e in of(events, Landed)] == ["A"]
    assert enc.state.fighters["B"].alt == 30


def _hanging() -> Encounter[Any]:
    enc: Encounter[Any] = _knocked_off()[0]
    act(enc, "A grab target=B", 7, 60)
    return enc


def test_hanging_fighter_cannot_attack() -> None:
    enc = _hanging()
    with pytest.raises(IllegalActionError) as info:
        enc.check(enc.ruleset.parse_action("A attack target=B weapon=fist"))
    assert info.value.rule == "dragging"


def test_hanging_fighter_regains_his_hold_with_a_climbing_check_at_minus_twenty() -> None:
    enc = _hanging()
    events = act(enc, "A regain", 30, 2, 1)
    assert of(events, CheckRolled)[0].target == 30
    assert of(events, Regained)
    assert enc.state.fighters["A"].hanging_on is None


def test_failed_regain_leaves_him_hanging() -> None:
    enc = _hanging()
    act(enc, "A regain", 31, 2, 1)
    assert enc.state.fighters["A"].hanging_on == "B"


def test_hit_on_the_hanging_fighter_calls_for_minus_twenty_check_or_he_falls_alone() -> None:
    enc = _hanging()
    act(enc, "A wait", 2, 1)
    act(enc, "gm proceed")
    events = act(enc, "B attack target=A weapon=sword", 15, 3, 31, 1, 1, 1)
    assert of(events, CheckRolled)[0].target == 30
    assert [e.name for e in of(events, Landed)] == ["A"]
    assert enc.state.fighters["B"].alt == 30


def test_when_the_holder_falls_both_fall() -> None:
    helper = fighter("C", "x", climbing=50, terrain=wall())
    enc, _ = _knocked_off(extra=(helper,))
    act(enc, "A grab target=B", 7, 60)
    act(enc, "A wait")
    events = act(enc, "C attack target=B weapon=sword", 15, 3, 61, 1, 1, 1, 1, 1, 1)
    assert [e.name for e in of(events, Landed)] == ["B", "A"]


def test_grappled_fighters_separate_when_they_fall() -> None:
    on_ledge = {"kind": "ledge", "alt_ft": 50, "edge_ft": 0, "behind": "drop"}
    enc = start([fighter("A", "x", terrain=on_ledge),
                 fighter("B", "y", terrain=on_ledge),
                 fighter("C", "y", weapons=[BOW],
                         terrain={"kind": "ledge", "alt_ft": 50, "across_gap": True})])
    assert of(act(enc, "A grapple target=B", 10), GrappleBegan)
    act(enc, "B wait")
    act(enc, "C wait", 2, 1)
    act(enc, "gm proceed")
    act(enc, "B wait")
    events = act(enc, "C attack target=A weapon=bow", 12, 2, 9)
    assert of(events, FallBegan)[0].choices == ("B",)
    assert of(events, GrappleEnded)  # at once, before the grab
    act(enc, "A grab target=B", 5, 11, *([1] * 10))
    a, b = enc.state.fighters["A"], enc.state.fighters["B"]
    assert a.holding is None and b.held_by is None
    assert (a.status, b.status) == ("fallen", "fallen")


def test_when_the_holder_is_knocked_senseless_the_hanging_fighter_falls() -> None:
    enc = _hanging()
    act(enc, "A wait", 1, 2)
    # B is on the wall: knocked out, he lets go and both fall.
    events = act(enc, "gm knock_out target=B", 1, 1, 1, 1, 1, 1)
    assert sorted(e.name for e in of(events, Landed)) == ["A", "B"]


def test_a_holder_knocked_senseless_on_a_ledge_drops_the_one_hanging_from_him() -> None:
    enc = start([fighter("A", "x", weapons=[DAGGER],
                         terrain={"kind": "ledge", "alt_ft": 30, "edge_ft": 0, "behind": "drop"}),
                 fighter("B", "y",
                         terrain={"kind": "ledge", "alt_ft": 30, "edge_ft": 5, "behind": "wall"})],
                init=(2, 1))
    assert of(act(enc, "B attack target=A weapon=sword", 15, 3, 9), FallBegan)
    assert of(act(enc, "A grab target=B", 5, 1), Grabbed)
    act(enc, "A wait", 1, 2)
    events = act(enc, "gm knock_out target=B", 1, 1, 1, 1)
    assert of(events, CheckRolled)[0].success
    assert [e.name for e in of(events, Landed)] == ["A"]


def test_a_foe_standing_at_the_foot_of_the_wall_cannot_be_dragged() -> None:
    a = fighter("A", "x", climbing=50, terrain=wall(5), weapons=[DAGGER])
    b = fighter("B", "y", terrain=wall(0))
    enc = start([a, b], init=(2, 1))
    events = act(enc, "B attack target=A weapon=sword", 15, 3, 80)
    assert not of(events, FallBegan)
    assert of(events, Landed)[0].name == "A"


def test_the_one_hanging_hangs_at_his_holders_level_and_falls_from_there() -> None:
    a = fighter("A", "x", climbing=50, terrain=wall(30), weapons=[DAGGER])
    b = fighter("B", "y", climbing=60, dex_ac=2, ac=3, terrain=wall(25))
    c = fighter("C", "x", terrain={"alt_ft": 25})
    enc = start([a, b, c], init=(2, 1))
    act(enc, "B attack target=A weapon=sword", 15, 3, 80)
    act(enc, "A grab target=B", 7, 60)
    assert enc.state.fighters["A"].alt == 25
    act(enc, "A wait")
    events = act(enc, "C attack target=B weapon=sword", 15, 3, 61, 1, 1, 1, 1)
    assert [(e.name, e.feet) for e in of(events, Landed)] == [("B", 25), ("A", 25)]


def test_a_grapple_ends_as_the_fall_begins_even_if_the_faller_then_hangs_on() -> None:
    on_ledge = {"kind": "ledge", "alt_ft": 50, "edge_ft": 0, "behind": "drop"}
    enc = start([fighter("A", "x", terrain=on_ledge),
                 fighter("B", "y", terrain={**on_ledge, "edge_ft": 5, "behind": "wall"}),
                 fighter("C", "y", weapons=[BOW],
                         terrain={"kind": "ledge", "alt_ft": 50, "across_gap": True})])
    act(enc, "A grapple target=B", 10)
    act(enc, "B wait")
    act(enc, "C wait", 2, 1)
    act(enc, "gm proceed")
    act(enc, "B wait")
    events = act(enc, "C attack target=A weapon=bow", 12, 2, 9)
    assert of(events, FallBegan)[0].choices == ("B",)
    assert of(events, GrappleEnded)
    assert of(act(enc, "A grab target=B", 5, 3), Grabbed)
    a, b = enc.state.fighters["A"], enc.state.fighters["B"]
    assert (a.hanging_on, a.holding, b.held_by) == ("B", None, None)
    act(enc, "A wait", 2, 1)
    act(enc, "gm proceed")
    enc.check(enc.ruleset.parse_action("B attack target=A weapon=sword"))
