"""The heuristic plays to win (issue 15): each situation it used to get wrong, pinned.

Called shots where the margin allows their effect, a ranged attack when it beats closing
in, no break-out that cannot succeed, a grappler keeps the grapple it seized, and in a
team fight no turn ends while its hits could still hurt or drain a foe for a friend.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from aod_helpers import RULESET, act, dragon, fight, roll, who

from fracas.core.encounter import Encounter
from fracas.core.policy import DecisionRequest
from fracas.core.rng import SeededRng
from fracas.core.ruleset import Action
from fracas.rules.age_of_dragons import tactics
from fracas.rules.age_of_dragons.actions import (
    Attack,
    BreakOut,
    Defend,
    EndTurn,
    Grapple,
    Shoot,
    Spot,
)
from fracas.rules.age_of_dragons.policies import HeuristicPolicy
from fracas.rules.age_of_dragons.state import MAULED, AgeOfDragonsState


def choice(enc: Encounter[AgeOfDragonsState]) -> Action:
    """What the heuristic picks now; it must be legal."""
    actor = enc.current_actor()
    assert actor is not None
    picked: Action = HeuristicPolicy().choose(
        DecisionRequest(actor, enc.state, RULESET, SeededRng(1)))
    enc.check(picked)
    return picked


def after_spots(enc: Encounter[AgeOfDragonsState]) -> tuple[list[Spot], Action]:
    """The spots the heuristic takes, and the expend or end that follows them."""
    spots: list[Spot] = []
    picked = choice(enc)
    while isinstance(picked, Spot):
        spots.append(picked)
        act(enc, picked)
        picked = choice(enc)
    return spots, picked


# -- called shots ---------------------------------------------------------------------------
def test_a_six_and_a_margin_of_four_maul_a_flyers_wing() -> None:
    # Four hits, one a six, against no PD: a bite deals 7; a claw at the wing deals 1 and
    # the mauled wing brings B down from normal altitude (two dice of landing, and more).
    enc = fight([dragon("A", "red"), dragon("B", "blue")], 6, 4, 4, 4, 1, 1)
    _, picked = after_spots(enc)
    assert picked == Attack("A", "B", 4, "claw", "wing")
    act(enc, picked)
    assert who(enc, "B").wing == MAULED and not who(enc, "B").can_fly


def test_without_a_six_the_same_hits_bite() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue")], 5, 4, 4, 4, 1, 1)
    assert after_spots(enc)[1] == Attack("A", "B", 4, "bite")


def test_no_called_shot_when_the_margin_leaves_no_damage_for_its_effect() -> None:
    # Three hits and a six: the wing's +3 leaves margin 0, so the six would do nothing.
    enc = fight([dragon("A", "red"), dragon("B", "blue")], 6, 4, 4, 1, 1, 1)
    assert after_spots(enc)[1] == Attack("A", "B", 3)


def test_no_wing_shot_at_a_foe_that_already_cannot_fly() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue", flies=False, altitude="grounded")],
                6, 4, 4, 4, 1, 1, spheres=("soma",))
    # A is at normal altitude and B on the ground: A first comes down to strafing low.
    spots, picked = after_spots(enc)
    assert Spot("A", "lose_altitude") in spots
    assert picked == Attack("A", "B", 4, "bite")


def test_two_sixes_and_ten_hits_go_for_the_neck() -> None:
    faces = (6, 6, 4, 4, 4, 4, 4, 4, 4, 4)
    enc = fight([dragon("A", "red", soma=len(faces)), dragon("B", "blue", pr=40)], *faces)
    _, picked = after_spots(enc)
    assert picked == Attack("A", "B", 10, "claw", "neck")
    act(enc, picked)
    assert who(enc, "B").dead


# -- ranged attacks when they pay -----------------------------------------------------------
LIGHTNING = {"name": "lightning", "sphere": "pneuma", "reach": "long", "damage_bonus": 2}


def test_a_shot_that_beats_a_claw_is_taken_from_where_it_stands() -> None:
    # Three hits against PD 1: closing in and aiming leaves a claw for 3 (a bite needs 4);
    # lightning from middle distance deals 3 - 1 + 2 = 4.
    enc = fight([dragon("A", "red", pneuma=6, ranged=[LIGHTNING]), dragon("B", "blue", pd=1)],
                4, 4, 4, 1, 1, 1, spheres=("soma", "pneuma"),
                ranges=[{"between": ["A", "B"], "range": "middle"}])
    spots, picked = after_spots(enc)
    assert all(s.effect == "evade" for s in spots)  # it does not dive in
    assert picked == Shoot("A", "B", 3, "lightning")


def test_closing_in_wins_when_aimed_bites_deal_more() -> None:
    # Four hits and two spare 3s: close in, aim PD 2 away, bite for 7 (lightning: 4).
    enc = fight([dragon("A", "red", soma=7, pneuma=7, ranged=[LIGHTNING]),
                 dragon("B", "blue", pd=2)], 4, 4, 4, 5, 3, 3, 1, spheres=("soma", "pneuma"),
                ranges=[{"between": ["A", "B"], "range": "middle"}])
    spots, picked = after_spots(enc)
    assert spots[0] == Spot("A", "alter_range", "B", True)
    assert spots.count(Spot("A", "aim", "B")) == 2
    assert picked == Attack("A", "B", 4, "bite")


def test_an_area_power_is_not_loosed_at_a_grapple_holding_a_friend() -> None:
    fire = {"name": "fire", "sphere": "soma", "reach": "middle", "area": True}
    enc = fight([dragon("A", "red", ranged=[fire]), dragon("C", "red", pr=30),
                 dragon("B", "blue", pd=3)], 4, 1, 1, 1, 1, 1,
                ranges=[{"between": ["A", "B"], "range": "middle"},
                        {"between": ["A", "C"], "range": "middle"}])
    # C holds B (set directly): fire at B strikes C too.  Four hits: B takes 1 past its PD,
    # C (no PD) all 4, so the shot is worth 1 - 4.
    enc.state.grapples.add(("B", "C"))
    enc.state.ranges[("B", "C")] = 0
    a = who(enc, "A")
    assert tactics.ranged_value(enc.state, a, "B", a.profile.ranged[0], 4) == 1 - 4
    assert not isinstance(after_spots(enc)[1], Shoot)


# -- break-outs that can succeed, and grapples kept -----------------------------------------
def held(a: dict[str, Any], b: dict[str, Any], *faces: int) -> Encounter[AgeOfDragonsState]:
    """A has grappled B (one hit, no PD); B now rolls ``faces``."""
    enc = fight([a, b], 4, 1, 1, 1, 1, 1)
    act(enc, Grapple("A", "B", 1))
    roll(enc, *faces)
    return enc


def test_no_break_out_with_three_hits_or_fewer() -> None:
    enc = held(dragon("A", "red", pr=25), dragon("B", "blue"), 4, 4, 4, 1, 1, 1)
    assert tactics.wants_out(enc.state, who(enc, "B"))
    assert after_spots(enc)[1] == Attack("B", "A", 3)


def test_no_break_out_the_holders_pd_would_stop() -> None:
    # Four hits against a break-out's +3 and A's 5 PD (4 aims take it to 1): A would stop
    # it; B claws A instead.
    enc = held(dragon("A", "red", pd=5, pr=25), dragon("B", "blue"), 4, 4, 4, 4, 1, 1)
    assert tactics.wants_out(enc.state, who(enc, "B"))
    spots, picked = after_spots(enc)
    assert spots.count(Spot("B", "aim", "A")) == 4
    assert picked == Attack("B", "A", 4)


def test_a_grappler_keeps_the_grapple_it_seized_to_drag_its_foe_down() -> None:
    enc = fight([dragon("A", "red", pr=30), dragon("B", "blue", pr=20, altitude="normal")],
                4, 4, 1, 1, 1, 1)
    assert after_spots(enc)[1] == Grapple("A", "B", 2)
    act(enc, Grapple("A", "B", 2))
    roll(enc, 1, 1, 1, 1, 1, 1)  # B's turn: nothing
    roll(enc, 4, 4, 4, 4, 5, 1)  # A's turn: a break-out would succeed, but A holds on
    assert after_spots(enc)[1] == Attack("A", "B", 5, "bite")


def test_a_grappler_lets_go_once_it_is_the_weaker() -> None:
    enc = fight([dragon("A", "red", pr=30), dragon("B", "blue", pr=20)], 4, 4, 1, 1, 1, 1)
    act(enc, Grapple("A", "B", 2))
    who(enc, "A").pr = 15  # the fight has turned (set directly for the test)
    roll(enc, 1, 1, 1, 1, 1, 1)
    roll(enc, 4, 4, 4, 4, 5, 1)
    assert after_spots(enc)[1] == BreakOut("A", 5)


# -- team fights: hits that drain a foe's PD for a friend -----------------------------------
def test_hits_a_foe_would_stop_still_drain_its_pd_for_a_friend_acting_next() -> None:
    # Two hits against PD 5 (two aims leave 3): no damage, but B spends 2 PD that D's
    # attack, next in the order, does not meet.
    enc = fight([dragon("A", "red"), dragon("D", "red"), dragon("B", "blue", pd=5)],
                4, 4, 1, 1, 1, 1)
    picked = after_spots(enc)[1]
    assert picked == Attack("A", "B", 2)
    act(enc, picked)
    act(enc, Defend("B", 2))
    assert who(enc, "B").pd == 3


def test_in_a_duel_hits_a_foe_would_stop_are_not_thrown_away() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue", pd=5)], 4, 4, 1, 1, 1, 1)
    assert after_spots(enc)[1] == EndTurn("A")


def test_no_drain_when_the_foe_acts_before_any_friend() -> None:
    # Order A, D, B is fixed by the aggressor; D is dying, so nobody gains from B's spent PD.
    enc = fight([dragon("A", "red"), dragon("D", "red", pr=1), dragon("B", "blue", pd=5)],
                4, 4, 1, 1, 1, 1)
    who(enc, "D").pr = 0
    assert after_spots(enc)[1] == EndTurn("A")


def test_the_attack_goes_to_the_foe_it_hurts_most() -> None:
    # B (first in scenario order) has PD 3, two aims leave 1: a claw for 1; C has no PD:
    # a claw for 2.
    enc = fight([dragon("A", "red"), dragon("B", "blue", pd=3), dragon("C", "blue")],
                4, 4, 1, 1, 1, 1)
    assert after_spots(enc)[1] == Attack("A", "C", 2)
