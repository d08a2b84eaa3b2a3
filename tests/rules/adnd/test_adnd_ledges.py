"""Fighting on bridges and ledges: a hit that costs hit points calls for a Dexterity check."""

from __future__ import annotations

from typing import Any

from adnd_helpers import act, fighter, of, start

from fracas.rules.adnd.events import AttackRolled, CheckRolled, Landed, Wounded

BOW = {"name": "bow", "damage": "1d6", "length_ft": 5, "hands": 2, "missile": True}


def ledge(edge: float, behind: str, kind: str = "ledge", **kw: Any) -> dict[str, Any]:
    return {"kind": kind, "alt_ft": 60, "edge_ft": edge, "behind": behind, **kw}


def _struck(target_terrain: dict[str, Any], faces: tuple[int, ...], **attacker: Any) -> Any:
    attacker.setdefault("terrain", {"alt_ft": 60})
    enc = start([fighter("A", "x", **attacker),
                 fighter("B", "y", dexterity=10, terrain=target_terrain)])
    weapon = "bow" if "weapons" in attacker else "sword"
    return enc, act(enc, f"A attack target=B weapon={weapon}", *faces)


def test_back_to_the_wall_adds_two_and_each_foot_to_the_edge_adds_two() -> None:
    _, events = _struck(ledge(2, "wall"), (15, 3, 16))
    check = of(events, CheckRolled)[0]
    assert (check.check, check.target, check.success) == ("dexterity", 16, True)


def test_back_to_the_drop_off_costs_two() -> None:
    _, events = _struck(ledge(2, "drop"), (15, 3, 12))
    assert of(events, CheckRolled)[0].target == 12


def test_arrow_from_the_flank_pushes_a_bridge_fighter_toward_the_drop() -> None:
    flank = dict(weapons=[BOW], flanking=True,
                 terrain={"kind": "ledge", "alt_ft": 60, "across_gap": True})
    _, events = _struck(ledge(1, "open", "bridge"), (15, 3, 10), **flank)
    assert of(events, CheckRolled)[0].target == 10


def test_arrow_from_the_front_pushes_him_back_like_a_melee_blow() -> None:
    front = dict(weapons=[BOW], terrain={"kind": "ledge", "alt_ft": 60, "across_gap": True})
    _, events = _struck(ledge(1, "open", "bridge"), (15, 3, 12), **front)
    assert of(events, CheckRolled)[0].target == 12


def test_failed_dexterity_check_sends_him_over_the_edge_out_of_the_fight() -> None:
    enc, events = _struck(ledge(0, "drop"), (15, 3, 9, 1, 1, 1, 1, 1, 1))
    assert of(events, CheckRolled)[0].success is False
    landed = of(events, Landed)[0]
    assert (landed.feet, landed.out) == (60, True)
    assert [w.amount for w in of(events, Wounded)] == [3, 6]
    assert enc.state.fighters["B"].status == "fallen"
    outcome = enc.outcome()
    assert outcome is not None and outcome.winner == "x"


def test_a_miss_calls_for_no_check() -> None:
    _, events = _struck(ledge(0, "drop"), (2,))
    assert not of(events, CheckRolled)


def test_open_ground_calls_for_no_check() -> None:
    _, events = _struck({"alt_ft": 60}, (15, 3))
    assert not of(events, CheckRolled)


def test_fighting_from_a_ledge_carries_no_attack_penalty() -> None:
    enc = start([fighter("B", "y", terrain=ledge(0, "drop")), fighter("A", "x", hp=40,
                                                                       terrain={"alt_ft": 60})])
    assert of(act(enc, "B attack target=A weapon=sword", 9), AttackRolled)[0].total == 9


def test_loss_of_consciousness_on_a_ledge_calls_for_the_dexterity_check() -> None:
    enc = start([fighter("A", "x"), fighter("B", "y", dexterity=10, terrain=ledge(1, "drop"))],
                proceed=False)
    events = act(enc, "gm knock_out target=B", 13, *([1] * 6))
    check = of(events, CheckRolled)[0]
    assert (check.target, check.success) == (12, False)
    assert of(events, Landed)[0].out
    assert enc.state.fighters["B"].status == "unconscious"


def test_unconscious_climber_lets_go_of_the_wall() -> None:
    enc = start([fighter("A", "x"),
                 fighter("B", "y", terrain={"kind": "wall", "alt_ft": 20})], proceed=False)
    events = act(enc, "gm knock_out target=B", 1, 1)
    assert not of(events, CheckRolled)
    assert of(events, Landed)[0].feet == 20
