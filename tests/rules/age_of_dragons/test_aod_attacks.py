"""The expend step: Tooth and Claw, ranged attacks, Physical Defence, margin and damage,
bites and slaps, the TN of called shots, and non-attack battle actions."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))

from aod_helpers import HOLD, RULESET, act, dragon, end, fight, of, pd_choices, refused, who

from fracas.core.encounter import Encounter
from fracas.rules.age_of_dragons import rules
from fracas.rules.age_of_dragons.actions import Attack, Defend, Shoot, UseTask
from fracas.rules.age_of_dragons.events import (
    AttackResolved,
    DiceExpended,
    TaskAttempted,
)
from fracas.rules.age_of_dragons.state import AgeOfDragonsState


def duel(faces: tuple[int, ...], a: dict[str, Any] | None = None,
         b: dict[str, Any] | None = None, **extra: Any) -> Encounter[AgeOfDragonsState]:
    """A (red, Soma = number of faces) has just rolled ``faces`` against B at close quarters."""
    me = dict(a or dragon("A", "red"), soma=len(faces))
    return fight([me, b or dragon("B", "blue")], *faces, **extra)


def hits(n: int, misses: int = 1) -> tuple[int, ...]:
    """A pool with ``n`` dice showing 4 or 5 (never six) and ``misses`` ones."""
    return tuple([4, 5] * (n // 2) + [4] * (n % 2) + [1] * misses)


def resolved(events: list[Any]) -> AttackResolved:
    found: list[AttackResolved] = of(events, AttackResolved)
    assert len(found) == 1
    return found[0]


# -- Tooth and Claw -------------------------------------------------------------------------
def test_each_claw_die_expended_deals_one_damage() -> None:
    enc = duel(hits(3, misses=2))
    result = resolved(act(enc, Attack("A", "B", 3)))
    assert (result.margin, result.success, result.damage) == (3, True, 3)
    assert who(enc, "B").pr == 17


def test_claw_dice_must_show_four_or_more() -> None:
    enc = duel((3, 3, 3, 4), tasks=HOLD)
    assert refused(enc, Attack("A", "B", 2)) == "expend step"
    assert refused(enc, Attack("A", "B", 0)) == "expend step"
    events = act(enc, Attack("A", "B", 1))
    assert of(events, DiceExpended)[0].dice == (3,)


def test_expended_dice_leave_the_pool() -> None:
    enc = duel((*hits(2, misses=0), 3), tasks=HOLD)
    act(enc, Attack("A", "B", 2))
    assert refused(enc, Attack("A", "B", 1)) == "expend step"


def test_tooth_and_claw_needs_close_quarters() -> None:
    enc = duel(hits(2), ranges=[{"between": ["A", "B"], "range": "middle"}], tasks=HOLD)
    assert refused(enc, Attack("A", "B", 1)) == "tooth and claw"


def test_tooth_and_claw_needs_the_same_altitude() -> None:
    enc = duel(hits(2), b=dragon("B", "blue", altitude="flying_high"), tasks=HOLD)
    assert refused(enc, Attack("A", "B", 1)) == "tooth and claw"


def test_grounded_and_strafing_low_count_as_the_same_height_for_melee() -> None:
    enc = duel(hits(2), a=dragon("A", "red", altitude="strafing_low"),
               b=dragon("B", "blue", altitude="grounded"))
    assert resolved(act(enc, Attack("A", "B", 2))).damage == 2
    enc = duel(hits(2), a=dragon("A", "red", altitude="strafing_low"),
               b=dragon("B", "blue", altitude="normal"), tasks=HOLD)
    assert refused(enc, Attack("A", "B", 1)) == "tooth and claw"


def test_attacks_target_living_enemies_only() -> None:
    enc = fight([dragon("A", "red", soma=2), dragon("C", "red"), dragon("B", "blue")], 4, 4)
    assert refused(enc, Attack("A", "C", 1)) == "targets"
    assert refused(enc, Attack("A", "Nobody", 1)) == "targets"
    enc = fight([dragon("A", "red", soma=2), dragon("B", "blue"), dragon("D", "blue")], 4, 4,
                tasks=HOLD)
    who(enc, "B").dead = True
    assert refused(enc, Attack("A", "B", 1)) == "targets"
    enc.check(Attack("A", "D", 1))


def test_pd_spent_refills_to_passive_at_the_start_of_the_defenders_own_turn() -> None:
    enc = duel(hits(2), b=dragon("B", "blue", pd=3))
    act(enc, Attack("A", "B", 2))
    act(enc, Defend("B", 2))  # A has nothing left but the choice to fall
    end(enc)
    assert enc.state.turn is not None and enc.state.turn.actor == "B"
    assert who(enc, "B").pd == 3


# -- Physical Defence -------------------------------------------------------------------------
def test_the_defender_chooses_how_much_pd_to_spend_and_each_point_cancels_a_hit() -> None:
    enc = duel(hits(4), b=dragon("B", "blue", pd=3), tasks=HOLD)
    act(enc, Attack("A", "B", 4))
    assert enc.current_actor() == "B"
    assert pd_choices(enc) == [0, 1, 2, 3]
    result = resolved(act(enc, Defend("B", 2)))
    assert (result.pd_spent, result.margin, result.damage) == (2, 2, 2)
    assert who(enc, "B").pd == 1


def test_not_defending_is_always_allowed() -> None:
    enc = duel(hits(2), b=dragon("B", "blue", pd=3))
    act(enc, Attack("A", "B", 2))
    result = resolved(act(enc, Defend("B", 0)))
    assert (result.pd_spent, result.damage) == (0, 2)
    assert who(enc, "B").pd == 3


def test_pd_cannot_be_overspent() -> None:
    enc = duel(hits(2), b=dragon("B", "blue", pd=1))
    act(enc, Attack("A", "B", 2))
    assert refused(enc, Defend("B", 2)) == "physical defence"
    assert refused(enc, Defend("B", -1)) == "physical defence"


def test_spent_pd_is_gone_until_the_defenders_own_turn() -> None:
    enc = duel(hits(4), b=dragon("B", "blue", pd=3))
    act(enc, Attack("A", "B", 2))
    act(enc, Defend("B", 2))
    act(enc, Attack("A", "B", 2))
    assert pd_choices(enc) == [0, 1]


def test_enough_pd_stops_an_attack_entirely() -> None:
    enc = duel(hits(2), b=dragon("B", "blue", pd=2))
    act(enc, Attack("A", "B", 2))
    result = resolved(act(enc, Defend("B", 2)))
    assert (result.margin, result.success, result.damage) == (0, False, 0)
    assert who(enc, "B").pr == 20


# -- margin and damage ----------------------------------------------------------------------
@pytest.mark.parametrize(("k", "d", "m", "bonus", "damage"), [
    (3, 0, 0, 0, 3), (3, 2, 0, 0, 1), (3, 3, 0, 0, 0), (4, 0, 3, 6, 7), (3, 0, 3, 6, 0),
    (1, 0, -3, -6, 0), (4, 0, -3, -6, 1), (13, 0, 12, 15, 16), (12, 0, 12, 15, 0),
])
def test_margin_is_hits_less_pd_less_tn_and_damage_adds_the_bonus(
        k: int, d: int, m: int, bonus: int, damage: int) -> None:
    n = rules.margin(k, d, m)
    assert n == k - d - m
    assert rules.damage_dealt(n, bonus) == damage


@pytest.mark.parametrize(("style", "called", "tn", "bonus"), [
    ("claw", None, 0, 0), ("bite", None, 3, 6), ("wing", None, -3, -6), ("tail", None, -3, -6),
    ("claw", "wing", 3, 0), ("claw", "torso", 3, 0), ("claw", "fore_left", 6, 0),
    ("claw", "hind_right", 6, 0), ("claw", "tail", 6, 0), ("claw", "neck", 9, 9),
    ("claw", "head", 9, 6), ("bite", "neck", 12, 15), ("wing", "torso", 0, -6),
    ("tail", "head", 6, 0),
])
def test_style_and_called_shot_modifiers_add_up(
        style: str, called: str | None, tn: int, bonus: int) -> None:
    assert rules.attack_numbers(style, called) == (tn, bonus)


def test_a_bite_needs_three_more_hits_and_deals_six_more() -> None:
    enc = duel(hits(3))
    result = resolved(act(enc, Attack("A", "B", 3, "bite")))
    assert (result.margin, result.success, result.damage) == (0, False, 0)
    enc = duel(hits(4))
    result = resolved(act(enc, Attack("A", "B", 4, "bite")))
    assert (result.margin, result.success, result.damage) == (1, True, 7)


@pytest.mark.parametrize("style", ["wing", "tail"])
def test_a_wing_or_tail_slap_lands_easier_and_deals_six_less(style: str) -> None:
    enc = duel(hits(1))
    result = resolved(act(enc, Attack("A", "B", 1, style)))
    assert (result.margin, result.success, result.damage) == (4, True, 0)
    enc = duel(hits(4))
    result = resolved(act(enc, Attack("A", "B", 4, style)))
    assert (result.margin, result.damage) == (7, 1)


@pytest.mark.parametrize(("called", "tn", "bonus"), [
    ("wing", 3, 0), ("torso", 3, 0), ("fore_left", 6, 0), ("fore_right", 6, 0),
    ("hind_left", 6, 0), ("hind_right", 6, 0), ("tail", 6, 0), ("neck", 9, 9), ("head", 9, 6),
])
def test_a_called_shot_adds_its_tn_and_damage(called: str, tn: int, bonus: int) -> None:
    enc = duel(hits(tn))
    result = resolved(act(enc, Attack("A", "B", tn, "claw", called)))
    assert (result.margin, result.success, result.damage) == (0, False, 0)
    enc = duel(hits(tn + 1))
    result = resolved(act(enc, Attack("A", "B", tn + 1, "claw", called)))
    assert (result.margin, result.success, result.damage) == (1, True, 1 + bonus)


def test_a_bite_to_the_neck_is_twelve_tn_and_fifteen_damage() -> None:
    enc = duel(hits(12), b=dragon("B", "blue", pr=40))
    result = resolved(act(enc, Attack("A", "B", 12, "bite", "neck")))
    assert (result.margin, result.success) == (0, False)
    enc = duel(hits(13), b=dragon("B", "blue", pr=40))
    result = resolved(act(enc, Attack("A", "B", 13, "bite", "neck")))
    assert (result.margin, result.damage) == (1, 16)
    assert who(enc, "B").pr == 24


def test_unknown_styles_and_locations_are_refused() -> None:
    enc = duel(hits(2), tasks=HOLD)
    assert refused(enc, Attack("A", "B", 1, "horn")) == "non-claw attacks"
    assert refused(enc, Attack("A", "B", 1, "claw", "belly")) == "called shots"


# -- ranged attacks ---------------------------------------------------------------------------
BOW = {"name": "breath", "damage_bonus": 0}


def archer(**kw: Any) -> dict[str, Any]:
    spec = dragon("A", "red", ranged=[BOW])
    spec.update(kw)
    return spec


def _shoot_fight(a_alt: str, b_alt: str, band: str = "middle",
                 weapon: dict[str, Any] | None = None) -> Encounter[AgeOfDragonsState]:
    return duel(hits(2), a=archer(altitude=a_alt, ranged=[weapon or BOW]),
                b=dragon("B", "blue", altitude=b_alt), tasks=HOLD,
                ranges=[{"between": ["A", "B"], "range": band}])


def test_a_ranged_attack_deals_one_damage_per_die_like_a_claw() -> None:
    enc = _shoot_fight("normal", "normal")
    result = resolved(act(enc, Shoot("A", "B", 2, "breath")))
    assert (result.margin, result.damage) == (2, 2)


def test_a_ranged_attack_needs_a_ranged_weapon_or_power() -> None:
    enc = duel(hits(2), tasks=HOLD, ranges=[{"between": ["A", "B"], "range": "middle"}])
    assert refused(enc, Shoot("A", "B", 1, "breath")) == "ranged attacks"


@pytest.mark.parametrize(("band", "allowed"), [
    ("close", True), ("middle", True), ("long", False),
])
def test_a_ranged_attack_reaches_middle_distance_or_closer(band: str, allowed: bool) -> None:
    enc = _shoot_fight("normal", "normal", band)
    if allowed:
        enc.check(Shoot("A", "B", 1, "breath"))
    else:
        assert refused(enc, Shoot("A", "B", 1, "breath")) == "ranged attacks"


def test_a_war_engine_with_long_reach_strikes_at_long_distance() -> None:
    enc = _shoot_fight("normal", "normal", "long", {"name": "ballista", "reach": "long"})
    enc.check(Shoot("A", "B", 1, "ballista"))


@pytest.mark.parametrize(("a_alt", "b_alt", "allowed"), [
    ("normal", "grounded", True), ("grounded", "normal", True),
    ("flying_high", "normal", True), ("ceiling", "flying_high", True),
    ("strafing_low", "grounded", True), ("strafing_low", "normal", True),
    ("flying_high", "grounded", False), ("grounded", "flying_high", False),
    ("ceiling", "normal", False), ("strafing_low", "flying_high", False),
])
def test_a_ranged_attack_spans_at_most_one_altitude_level(
        a_alt: str, b_alt: str, allowed: bool) -> None:
    enc = _shoot_fight(a_alt, b_alt)
    if allowed:
        enc.check(Shoot("A", "B", 1, "breath"))
    else:
        assert refused(enc, Shoot("A", "B", 1, "breath")) == "ranged attacks"


def test_a_weapons_damage_bonus_is_added() -> None:
    enc = _shoot_fight("normal", "normal", weapon={"name": "fire", "damage_bonus": 2})
    assert resolved(act(enc, Shoot("A", "B", 2, "fire"))).damage == 4


def test_pd_stops_ranged_hits_too() -> None:
    enc = duel(hits(3), a=archer(), b=dragon("B", "blue", pd=2),
               ranges=[{"between": ["A", "B"], "range": "middle"}])
    act(enc, Shoot("A", "B", 3, "breath"))
    result = resolved(act(enc, Defend("B", 2)))
    assert (result.margin, result.damage) == (1, 1)


# -- non-attack battle actions -----------------------------------------------------------------
GATE = {"name": "smash the gate", "difficulty": 3, "description": "batter the castle gate"}


def test_a_battle_action_succeeds_with_as_many_hits_as_the_gms_difficulty() -> None:
    enc = duel(hits(3), tasks=[GATE])
    events = act(enc, UseTask("A", "smash the gate", 3))
    done = of(events, TaskAttempted)[0]
    assert (done.hits, done.difficulty, done.success) == (3, 3, True)


def test_a_battle_action_is_logged_with_the_gms_description() -> None:
    enc = duel(hits(3), tasks=[GATE])
    done = of(act(enc, UseTask("A", "smash the gate", 3)), TaskAttempted)[0]
    line = RULESET.describe_event(done, enc.state)
    assert line is not None and "smash the gate (batter the castle gate)" in line


def test_a_battle_action_with_too_few_hits_fails() -> None:
    enc = duel(hits(3), tasks=[GATE])
    done = of(act(enc, UseTask("A", "smash the gate", 2)), TaskAttempted)[0]
    assert (done.hits, done.success) == (2, False)


def test_a_battle_action_uses_its_own_threshold_and_sphere() -> None:
    cow = {"name": "cow the soldiers", "difficulty": 1, "sphere": "sophis", "threshold": 5}
    enc = duel((4, 4, 1), tasks=[cow, *HOLD])
    assert refused(enc, UseTask("A", "cow the soldiers", 1)) == "dice pools"
    enc = fight([dragon("A", "red", sophis=3), dragon("B", "blue")], 4, 5, 1,
                spheres=("sophis",), tasks=[cow])
    assert refused(enc, UseTask("A", "cow the soldiers", 2)) == "expend step"
    done = of(act(enc, UseTask("A", "cow the soldiers", 1)), TaskAttempted)[0]
    assert done.success


def test_a_battle_action_must_be_one_the_gm_set_up() -> None:
    enc = duel(hits(2), tasks=HOLD)
    assert refused(enc, UseTask("A", "dance", 1)) == "non-attack battle actions"


# -- a property over many pools ------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(faces=st.lists(st.integers(1, 6), min_size=1, max_size=8), pd=st.integers(0, 4),
       spend=st.integers(0, 4))
def test_any_claw_deals_its_hits_less_the_pd_spent(faces: list[int], pd: int,
                                                   spend: int) -> None:
    k = sum(f >= 4 for f in faces)
    assume(k >= 1)
    enc = duel(tuple(faces), b=dragon("B", "blue", pd=pd, pr=50), tasks=HOLD)
    events = act(enc, Attack("A", "B", k))
    if pd:
        events = act(enc, Defend("B", min(spend, pd)))
    result = resolved(events)
    d = min(spend, pd) if pd else 0
    assert (result.margin, result.damage) == (k - d, max(0, k - d))
    assert who(enc, "B").pr == 50 - max(0, k - d)


def test_the_state_key_ignores_expended_dice_but_not_the_dice_left() -> None:
    """Two turns that differ only in the faces they have expended go on alike."""
    from fracas.rules.age_of_dragons.key import state_key

    after = []
    for faces in ((6, 4, 2, 1), (5, 5, 2, 1), (4, 6, 1, 2)):
        enc = duel(faces)
        act(enc, Attack("A", "B", 2))
        after.append(state_key(enc.state))
    assert after[0] == after[1] == after[2]
    other = duel((6, 4, 4, 1))
    act(other, Attack("A", "B", 2))
    assert state_key(other.state) != after[0]  # a hit left is not a 2 left


def test_an_expend_keeps_the_hits_it_did_not_use_lowest_first() -> None:
    enc = duel((6, 4, 5, 1, 4))
    turn = enc.state.turn
    assert turn is not None
    assert rules.qualifying_dice(turn, 4) == [1, 4, 2, 0]
    act(enc, Attack("A", "B", 1))
    assert rules.qualifying_dice(turn, 4) == [4, 2, 0]  # the first 4 went
    turn.hits = None  # worked out afresh: the same
    assert rules.qualifying_dice(turn, 4) == [4, 2, 0]
