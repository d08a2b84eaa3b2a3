"""Water: penalties by depth, grappling in water, breath and drowning."""

from __future__ import annotations

from typing import Any

import pytest
from adnd_helpers import act, fighter, of, start

from fracas.core.errors import IllegalActionError
from fracas.rules.adnd.events import (
    AttackRolled,
    Breath,
    CheckRolled,
    GrappleBegan,
    GrappleEnded,
    SaveRolled,
    Slain,
    Wounded,
)

BOW = {"name": "bow", "damage": "1d6", "length_ft": 5, "hands": 2, "missile": True}


def water(depth: float) -> dict[str, Any]:
    return {"kind": "water", "depth_ft": depth}


def _swing(depth: float, faces: tuple[int, ...], **attacker: Any) -> list[Any]:
    enc = start([fighter("A", "x", terrain=water(depth), **attacker),
                 fighter("B", "y", hp=40, terrain=water(depth))])
    return act(enc, "A attack target=B weapon=sword", *faces)


def test_water_below_the_waist_gives_no_penalty() -> None:
    events = _swing(2.9, (10, 5))
    assert of(events, AttackRolled)[0].total == 10
    assert of(events, Wounded)[0].amount == 5


def test_waist_to_chest_deep_water_halves_the_penalties() -> None:
    events = _swing(4, (12, 5))
    assert of(events, AttackRolled)[0].total == 10
    assert of(events, Wounded)[0].amount == 3


def test_water_above_the_chest_gives_minus_four_to_hit_and_damage() -> None:
    events = _swing(5, (14, 5))
    assert of(events, AttackRolled)[0].total == 10
    assert of(events, Wounded)[0].amount == 1


def test_water_damage_is_never_below_one() -> None:
    events = _swing(5, (14, 2))
    assert of(events, Wounded)[0].amount == 1


@pytest.mark.parametrize("at_home", [{"swimmer": True}, {"aquatic": True}])
def test_swimmers_and_aquatic_creatures_fight_in_water_unhindered(at_home: dict[str, Any]) -> None:
    events = _swing(5, (10, 5), **at_home)
    assert of(events, AttackRolled)[0].total == 10
    assert of(events, Wounded)[0].amount == 5


def _grapple(depth: float, *faces: int, victim: dict[str, Any] | None = None,
             holder: dict[str, Any] | None = None) -> Any:
    enc = start([fighter("A", "x", terrain=water(depth), **{"constitution": 12, **(holder or {})}),
                 fighter("V", "y", constitution=10, saves={"paralyzation": 14},
                         terrain=water(depth), **(victim or {}))])
    return enc, act(enc, "A grapple target=V", *faces)


def test_grapple_in_water_takes_no_water_penalty() -> None:
    _, events = _grapple(5, 10, 14)
    rolled = of(events, AttackRolled)[0]
    assert (rolled.weapon, rolled.total, rolled.needed) == ("grapple", 10, 10)


def test_grapple_pulls_under_only_in_water_a_third_of_the_victims_height() -> None:
    _, events = _grapple(1.9, 10)
    assert of(events, GrappleBegan)[0].under is False
    enc, events = _grapple(2.0, 10, 14)
    assert of(events, GrappleBegan)[0].under is True
    assert enc.state.fighters["A"].under and enc.state.fighters["V"].under


def test_grappler_has_a_deep_breath_and_victim_needs_a_paralyzation_save() -> None:
    _enc, events = _grapple(5, 10, 14)
    save = of(events, SaveRolled)[0]
    assert (save.category, save.total, save.needed, save.success) == ("paralyzation", 14, 14, True)
    # Constitution 12 exerting: 4 rounds halved = 2; Constitution 10: 4 halved = 2.
    assert [(b.name, b.free) for b in of(events, Breath)] == [("A", 2), ("V", 2)]


def test_victim_who_fails_the_save_is_dragged_under_without_a_breath() -> None:
    enc, _ = _grapple(5, 10, 13)
    assert enc.state.fighters["V"].breath_free == 0


def test_breath_clock_then_constitution_checks_two_harder_each_round_until_he_drowns() -> None:
    enc, _ = _grapple(5, 10, 13)
    events = act(enc, "V wait", 10, 1, 2)  # round end: V's first check at 10 passes
    check = of(events, CheckRolled)[0]
    assert (check.check, check.target, check.success) == ("constitution", 10, True)
    assert enc.state.fighters["A"].breath_free == 1
    act(enc, "gm proceed")
    act(enc, "A wait")
    events = act(enc, "V wait", 9)  # second check at 8 fails: drowned
    assert of(events, CheckRolled)[0].target == 8
    assert of(events, Slain)[0].cause == "drowned"
    assert enc.state.fighters["V"].status == "drowned"
    outcome = enc.outcome()
    assert outcome is not None and outcome.winner == "x"


def test_holder_out_of_breath_must_let_go() -> None:
    enc, _ = _grapple(5, 10, 14, holder={"constitution": 3})
    act(enc, "V wait", 1, 2)
    act(enc, "gm proceed")
    act(enc, "A wait")
    events = act(enc, "V wait", 4, 1, 2)
    assert of(events, CheckRolled)[0].target == 3
    assert of(events, GrappleEnded)
    assert not enc.state.fighters["V"].under


def test_held_victim_breaks_free_by_beating_the_holder_and_both_surface() -> None:
    enc, _ = _grapple(5, 10, 14)
    events = act(enc, "V break_free", 12, 12, 1, 2)
    assert not of(events, GrappleEnded)
    act(enc, "gm proceed")
    act(enc, "A wait")
    events = act(enc, "V break_free", 13, 12, 1, 2)
    assert of(events, GrappleEnded)
    assert not enc.state.fighters["A"].under and not enc.state.fighters["V"].under


def test_held_victim_can_only_try_to_break_free() -> None:
    enc, _ = _grapple(5, 10, 14)
    with pytest.raises(IllegalActionError) as info:
        enc.check(enc.ruleset.parse_action("V attack target=A weapon=sword"))
    assert info.value.rule == "grappling"


def test_a_fighter_under_the_water_cannot_be_shot() -> None:
    enc = start([fighter("A", "x", constitution=12, terrain=water(5)),
                 fighter("V", "y", terrain=water(5)),
                 fighter("C", "x", weapons=[BOW])])
    act(enc, "A grapple target=V", 10, 14)
    with pytest.raises(IllegalActionError) as info:
        enc.check(enc.ruleset.parse_action("C attack target=V weapon=bow"))
    assert info.value.rule == "grappling in water"
