"""The heuristic and claw_all policies make legal, sensible choices in small set-ups."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from aod_helpers import RULESET, act, dragon, fight, roll, start

from fracas.core.encounter import Encounter
from fracas.core.policy import DecisionRequest, HumanPolicy, ScriptedPolicy
from fracas.core.rng import SeededRng
from fracas.core.ruleset import Action
from fracas.rules.age_of_dragons.actions import (
    Attack,
    BreakOut,
    DeclareFall,
    Defend,
    EndTurn,
    Grapple,
    RollPool,
    Spot,
)
from fracas.rules.age_of_dragons.policies import ClawAllPolicy, HeuristicPolicy
from fracas.rules.age_of_dragons.state import AgeOfDragonsState


def choice(enc: Encounter[AgeOfDragonsState], policy: Any = None) -> Action:
    """What the policy picks now; it must be legal."""
    actor = enc.current_actor()
    assert actor is not None
    picked: Action = (policy or HeuristicPolicy()).choose(
        DecisionRequest(actor, enc.state, RULESET, SeededRng(1)))
    enc.check(picked)
    return picked


def _after_spots(enc: Encounter[AgeOfDragonsState]) -> Action:
    """The heuristic's first expend or end, after any spots it takes (spotted dice stay)."""
    picked = choice(enc)
    while isinstance(picked, Spot):
        act(enc, picked)
        picked = choice(enc)
    return picked


# -- heuristic --------------------------------------------------------------------------------
def test_heuristic_rolls_soma_to_fight() -> None:
    enc = start([dragon("A", "red"), dragon("B", "blue")])
    assert choice(enc) == RollPool("A", ("soma",))


def test_heuristic_closes_the_range_toward_its_foe() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue")], 3, 3, 1, 1, 1, 1,
                ranges=[{"between": ["A", "B"], "range": "long"}])
    assert choice(enc) == Spot("A", "alter_range", "B", True)


def test_heuristic_matches_altitude_before_closing() -> None:
    enc = fight([dragon("A", "red", altitude="flying_high"), dragon("B", "blue")],
                4, 3, 1, 1, 1, 1, ranges=[{"between": ["A", "B"], "range": "middle"}])
    assert choice(enc) == Spot("A", "lose_altitude")
    act(enc, Spot("A", "lose_altitude"))
    assert choice(enc) == Spot("A", "alter_range", "B", True)


def test_heuristic_claws_a_foe_in_reach_with_every_hit() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue")], 4, 5, 1, 1, 1, 1)
    assert _after_spots(enc) == Attack("A", "B", 2)


def test_heuristic_bites_when_the_margin_allows() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue")], 4, 4, 5, 5, 1, 1,
                options={"spot_consumes_dice": True})
    assert choice(enc) == Attack("A", "B", 4, "bite")


@pytest.mark.parametrize(("hits", "pd", "spend"), [(2, 3, 2), (1, 3, 1), (3, 3, 3), (5, 3, 3)])
def test_heuristic_defends_with_just_enough_pd(hits: int, pd: int, spend: int) -> None:
    faces = [4] * hits + [1]
    enc = fight([dragon("A", "red", soma=len(faces)), dragon("B", "blue", pd=pd)], *faces)
    act(enc, Attack("A", "B", hits))
    assert choice(enc) == Defend("B", spend)


def test_heuristic_does_not_waste_pd_on_a_grapple_it_cannot_stop() -> None:
    faces = [4] * 5 + [1]
    enc = fight([dragon("A", "red"), dragon("B", "blue", pd=2)], *faces)
    act(enc, Grapple("A", "B", 5))
    assert choice(enc) == Defend("B", 0)


def test_heuristic_breaks_out_when_held_while_airborne() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue")], 4, 1, 1, 1, 1, 1)
    act(enc, Grapple("A", "B", 1))
    roll(enc, 4, 4, 4, 5, 1, 1)
    assert _after_spots(enc) == BreakOut("B", 4)


# -- claw_all -----------------------------------------------------------------------------------
def test_claw_all_rolls_soma_and_expends_every_four_on_a_claw() -> None:
    enc = start([dragon("A", "red"), dragon("B", "blue")])
    assert choice(enc, ClawAllPolicy()) == RollPool("A", ("soma",))
    roll(enc, 6, 4, 3, 5, 1, 4)
    assert choice(enc, ClawAllPolicy()) == Attack("A", "B", 4)


def test_claw_all_never_spots_and_ends_its_turn_without_a_foe_in_reach() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue")], 6, 6, 3, 1, 1, 1,
                ranges=[{"between": ["A", "B"], "range": "middle"}])
    assert choice(enc, ClawAllPolicy()) == EndTurn("A")


def test_claw_all_never_defends() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue", pd=4)], 4, 4, 1, 1, 1, 1)
    act(enc, Attack("A", "B", 2))
    assert choice(enc, ClawAllPolicy()) == Defend("B", 0)


def test_claw_all_with_no_soma_ends_its_turn_instead_of_rolling_an_empty_pool() -> None:
    enc = start([dragon("A", "red", soma=0), dragon("B", "blue")])
    assert choice(enc, ClawAllPolicy()) == EndTurn("A")


# -- the scenario names the policy ------------------------------------------------------------
def test_the_scenario_chooses_each_combatants_policy() -> None:
    enc = start([dragon("A", "red", policy="claw_all"), dragon("B", "blue"),
                 dragon("C", "blue", policy="human"),
                 dragon("D", "blue", policy=["D roll spheres=soma", "D end"])])
    kinds = {n: type(RULESET.policy_for(enc.state, n)) for n in "ABCD"}
    assert kinds == {"A": ClawAllPolicy, "B": HeuristicPolicy, "C": HumanPolicy,
                     "D": ScriptedPolicy}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_heuristic_fights_end_and_every_choice_is_legal(seed: int) -> None:
    enc = start([dragon("A", "red", pd=1, pr=12, ranged=[{"name": "breath"}]),
                 dragon("B", "blue", pd=1, pr=12, altitude="flying_high")],
                ranges=[{"between": ["A", "B"], "range": "long"}], max_rounds=30)
    enc.rng = SeededRng(seed)
    outcome = enc.play(lambda _name: HeuristicPolicy(), SeededRng(seed + 100),
                       max_decisions=3000)
    assert outcome is not None


# -- the choice to fall (issue 14) ----------------------------------------------------------------
def test_heuristic_ends_an_idle_flyer_turn_rather_than_fall() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue")], 2, 2, 1, 1, 1, 1)
    assert choice(enc) == EndTurn("A")


def test_heuristic_falls_toward_a_foe_below_when_it_cannot_spot_the_way_down() -> None:
    enc = fight([dragon("A", "red"), dragon("B", "blue", altitude="grounded")],
                2, 2, 1, 1, 1, 1)
    assert _after_spots(enc) == DeclareFall("A")


def test_heuristic_falls_one_level_at_a_time_from_high_above() -> None:
    enc = fight([dragon("A", "red", altitude="ceiling"), dragon("B", "blue")],
                2, 2, 1, 1, 1, 1, ranges=[{"between": ["A", "B"], "range": "long"}])
    assert _after_spots(enc) == DeclareFall("A")
    act(enc, DeclareFall("A"))
    assert enc.current_actor() == "B"  # nothing left to choose: A's turn ended
