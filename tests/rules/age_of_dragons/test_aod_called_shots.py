"""Called shots: the effect of one six and of two or more sixes on each location."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from aod_helpers import HOLD, act, dragon, end, fight, of, refused, roll, who

from fracas.core.encounter import Encounter
from fracas.core.events import DiceRolled
from fracas.rules.age_of_dragons import rules
from fracas.rules.age_of_dragons.actions import Attack, EndTurn, Grapple, Spot
from fracas.rules.age_of_dragons.events import (
    AttackDeclared,
    AttackResolved,
    DieSpotted,
    GrappleBroken,
    Killed,
    PartInjured,
    Stunned,
    TurnLost,
)
from fracas.rules.age_of_dragons.state import LIMBS, MAULED, OK, RIPPED, AgeOfDragonsState

TN = {"wing": 3, "torso": 3, "tail": 6, "neck": 9, "head": 9, **dict.fromkeys(LIMBS, 6)}


def shot(called: str, sixes: int, *, margin: int = 1, style: str = "claw",
         b: dict[str, Any] | None = None,
         **extra: Any) -> tuple[Encounter[AgeOfDragonsState], list[Any]]:
    """A makes a called shot on B at ``called`` with ``sixes`` sixes among its hits.

    A expends just enough hits for the given margin (B has no PD); the events are returned.
    """
    tn = TN[called] + (3 if style == "bite" else -3 if style in ("wing", "tail") else 0)
    n = tn + margin
    faces = [6] * sixes + [5] * (n - sixes) + [1]
    enc = fight([dragon("A", "red", soma=len(faces)), b or dragon("B", "blue", pr=40)],
                *faces, **extra)
    return enc, act(enc, Attack("A", "B", n, style, called))


def test_the_sixes_counted_are_among_the_expended_dice() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue", pr=40)], 6, 4, 4, 4, 4, 1, tasks=HOLD)
    events = act(enc, Attack("A", "B", 4))  # a plain attack keeps the six for later
    assert of(events, AttackDeclared)[0].sixes == 0
    events = act(enc, Attack("A", "B", 1, "wing", "torso"))  # a called shot takes sixes first
    assert of(events, AttackDeclared)[0].sixes == 1


def test_a_called_shot_that_misses_has_no_effect_whatever_its_sixes() -> None:
    enc, events = shot("wing", 2, margin=0)
    assert not of(events, AttackResolved)[0].success
    assert who(enc, "B").wing == OK and not of(events, PartInjured)


@pytest.mark.parametrize("called", ["wing", "tail", *LIMBS])
def test_a_hit_without_a_six_only_deals_damage(called: str) -> None:
    _enc, events = shot(called, 0)
    assert of(events, AttackResolved)[0].damage == 1
    assert not of(events, PartInjured)


# -- wing ---------------------------------------------------------------------------------------
def test_one_six_on_a_wing_mauls_it_and_ends_its_flying() -> None:
    enc, events = shot("wing", 1, tasks=HOLD)
    assert [(e.part, e.severity) for e in of(events, PartInjured)] == [("wing", MAULED)]
    assert not who(enc, "B").can_fly
    act(enc, EndTurn("A"))
    roll(enc, 6, 6, 5, 5, 3, 1)
    assert refused(enc, Spot("B", "gain_altitude")) == "manoeuvres"
    assert refused(enc, Spot("B", "alter_range", "A", False)) == "manoeuvres"


def test_two_sixes_on_a_wing_rip_it_out() -> None:
    enc, _events = shot("wing", 2)
    assert who(enc, "B").wing == RIPPED and not who(enc, "B").can_fly


def test_a_grounded_dragon_with_a_mauled_wing_cannot_take_off() -> None:
    enc = fight([dragon("A", "red", altitude="grounded", soma=5),
                 dragon("B", "blue", altitude="grounded")], 6, 5, 5, 5, 1, tasks=HOLD)
    act(enc, Attack("A", "B", 4, "claw", "wing"))
    act(enc, EndTurn("A"))
    roll(enc, 6, 6, 5, 5, 3, 1)
    assert refused(enc, Spot("B", "take_off")) == "manoeuvres"


def test_torso_has_no_special_effect() -> None:
    _enc, events = shot("torso", 3)
    assert of(events, AttackResolved)[0].damage == 1
    assert not of(events, PartInjured) and not of(events, Stunned)
    assert not of(events, Killed)


# -- limbs --------------------------------------------------------------------------------------
@pytest.mark.parametrize("limb", LIMBS)
def test_one_six_on_a_limb_mauls_that_limb(limb: str) -> None:
    enc, _events = shot(limb, 1)
    limbs = who(enc, "B").limbs
    assert limbs[LIMBS.index(limb)] == MAULED
    assert limbs.count(OK) == 3


def test_two_sixes_on_a_limb_rip_it_off() -> None:
    enc, _ = shot("hind_left", 2)
    assert who(enc, "B").limbs == [OK, OK, RIPPED, OK]


def test_with_all_four_limbs_injured_no_claw_attack_is_possible() -> None:
    enc2 = fight([dragon("B", "blue"), dragon("A", "red")], 4, 4, 4, 4, 1, 1, tasks=HOLD)
    enc2.state.fighters["B"].limbs[:] = [RIPPED, MAULED, MAULED, MAULED]
    assert not rules.can_claw(enc2.state.fighters["B"])
    assert refused(enc2, Attack("B", "A", 1)) == "called shots"
    # A bite or a slap still works.
    enc2.check(Attack("B", "A", 4, "bite"))
    enc2.check(Attack("B", "A", 1, "wing"))


def test_a_dragon_with_some_limbs_left_can_still_claw() -> None:
    enc = fight([dragon("B", "blue"), dragon("A", "red")], 4, 4, 1, 1, 1, 1, tasks=HOLD)
    enc.state.fighters["B"].limbs[:3] = [MAULED, RIPPED, MAULED]
    enc.check(Attack("B", "A", 1))


def test_a_ripped_limb_makes_a_ground_range_step_take_two_sixes() -> None:
    enc = fight([dragon("B", "blue", altitude="grounded"), dragon("A", "red", altitude="grounded")],
                6, 5, 1, 1, 1, 1, tasks=HOLD)
    enc.state.fighters["B"].limbs[0] = RIPPED
    assert refused(enc, Spot("B", "alter_range", "A", False)) == "spotting step"
    enc = fight([dragon("B", "blue", altitude="grounded"), dragon("A", "red", altitude="grounded")],
                6, 6, 1, 1, 1, 1, tasks=HOLD)
    enc.state.fighters["B"].limbs[0] = RIPPED
    events = act(enc, Spot("B", "alter_range", "A", False))
    assert of(events, DieSpotted)[0].dice == (0, 1)


def test_a_ripped_limb_does_not_slow_a_flyer() -> None:
    enc = fight([dragon("B", "blue"), dragon("A", "red")], 3, 1, 1, 1, 1, 1, tasks=HOLD)
    enc.state.fighters["B"].limbs[0] = RIPPED
    act(enc, Spot("B", "alter_range", "A", False))


# -- tail ----------------------------------------------------------------------------------------
def test_one_six_on_the_tail_mauls_it_and_ends_tail_attacks() -> None:
    enc, _ = shot("tail", 1)
    assert who(enc, "B").tail == MAULED
    enc2 = fight([dragon("B", "blue"), dragon("A", "red")], 4, 4, 1, 1, 1, 1, tasks=HOLD)
    enc2.state.fighters["B"].tail = MAULED
    assert refused(enc2, Attack("B", "A", 1, "tail")) == "called shots"
    enc2.check(Attack("B", "A", 1, "wing"))


def test_two_sixes_on_the_tail_rip_it_off() -> None:
    enc, _ = shot("tail", 2)
    assert who(enc, "B").tail == RIPPED


# -- ripped parts cannot be targeted again --------------------------------------------------------
@pytest.mark.parametrize("part", ["wing", "tail", "fore_right"])
def test_no_called_shot_at_a_ripped_off_part(part: str) -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue")], *[5] * 6, tasks=HOLD)
    b = enc.state.fighters["B"]
    if part == "wing":
        b.wing = RIPPED
    elif part == "tail":
        b.tail = RIPPED
    else:
        b.limbs[LIMBS.index(part)] = RIPPED
    assert refused(enc, Attack("A", "B", 6, "claw", part)) == "called shots"


# -- neck and head ---------------------------------------------------------------------------
def test_a_neck_shot_deals_nine_more_damage() -> None:
    enc, events = shot("neck", 1)
    assert of(events, AttackResolved)[0].damage == 10
    assert not who(enc, "B").dead


def test_two_sixes_on_the_neck_kill_outright() -> None:
    enc, events = shot("neck", 2, b=dragon("B", "blue", pr=200))
    assert [e.cause for e in of(events, Killed)] == ["head ripped off"]
    assert who(enc, "B").dead


def test_a_head_shot_deals_six_more_damage() -> None:
    enc, events = shot("head", 0)
    assert of(events, AttackResolved)[0].damage == 7
    assert not who(enc, "B").stunned


def test_one_six_on_the_head_stuns_for_the_rest_of_the_fight() -> None:
    enc, events = shot("head", 1, tasks=HOLD)
    assert of(events, Stunned) and who(enc, "B").stunned and not who(enc, "B").dead


def test_two_sixes_on_the_head_kill_outright() -> None:
    _enc, events = shot("head", 3, b=dragon("B", "blue", pr=200))
    assert [e.cause for e in of(events, Killed)] == ["head demolished"]


def test_called_shot_effects_combine_with_a_bite() -> None:
    enc, events = shot("neck", 2, style="bite", b=dragon("B", "blue", pr=200))
    assert of(events, AttackResolved)[0].damage == 16
    assert who(enc, "B").dead


@pytest.mark.parametrize(("face", "loses"), [(1, True), (2, True), (3, False), (6, False)])
def test_a_stunned_dragon_loses_its_turn_on_one_or_two(face: int, loses: bool) -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue"), dragon("C", "red")], *[1] * 6)
    end(enc)  # nothing to use (but the choice to fall); C is next, then B.
    enc.state.fighters["B"].stunned = True
    assert enc.current_actor() == "C"
    events = act(enc, EndTurn("C"), face)
    assert of(events, DiceRolled)[-1].faces == (face,)
    lost = [e.reason for e in of(events, TurnLost)]
    assert lost == (["stunned"] if loses else [])
    if not loses:
        assert enc.current_actor() == "B"


def test_a_kill_ends_the_victims_grapple() -> None:
    enc = fight([dragon("A", "red"), dragon("C", "red", soma=11), dragon("B", "blue", pr=200)],
                4, 1, 1, 1, 1, 1)
    act(enc, Grapple("A", "B", 1))
    roll(enc, 6, 6, 5, 5, 5, 5, 5, 5, 5, 5, 1)
    events = act(enc, Attack("C", "B", 10, "claw", "neck"))
    assert [e.reason for e in of(events, GrappleBroken)] == ["death"]
    assert not rules.is_locked(enc.state, "A")


# -- effects belong to a damage-dealing hit (issue 14) ----------------------------------------
def test_a_called_shot_that_hits_for_no_damage_has_no_effect() -> None:
    # A wing slap at the wing: TN +0 but -6 damage, so one six lands for 0 damage.
    enc = fight([dragon("A", "red"), dragon("B", "blue")], 6, 1, 1, 1, 1, 1)
    events = act(enc, Attack("A", "B", 1, "wing", "wing"))
    resolved = of(events, AttackResolved)[0]
    assert resolved.success and resolved.damage == 0
    assert not of(events, PartInjured)
    assert who(enc, "B").wing == OK and who(enc, "B").can_fly


def test_a_tail_slap_needs_seven_over_its_tn_to_maul_a_limb() -> None:
    # Tail slap (-3) at a limb (+6): TN +3, damage margin - 6.
    _enc, events = shot("fore_left", 1, margin=6, style="tail")
    assert of(events, AttackResolved)[0].damage == 0 and not of(events, PartInjured)
    enc, events = shot("fore_left", 1, margin=7, style="tail")
    assert of(events, AttackResolved)[0].damage == 1
    assert who(enc, "B").limbs[0] == MAULED
