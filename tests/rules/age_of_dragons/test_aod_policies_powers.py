"""The heuristic uses what a creature has (issue 33): its pool and its attack by what pays.

A sphere rated at least Soma costs no die, so a power's sphere is always nominated with
Soma; a sphere that costs dice only when the attacks it opens are worth more on average;
a caster whose power outrates its Soma rolls the power alone.  With the power's sphere in
the pool, a ranged power beats tooth and claw where it deals more (at close quarters too),
and an area power is valued over every foe it strikes.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from aod_helpers import RULESET, act, dragon, fight, start, who

from fracas.core.encounter import Encounter
from fracas.core.policy import DecisionRequest
from fracas.core.rng import SeededRng
from fracas.core.ruleset import Action
from fracas.rules.age_of_dragons.actions import Attack, RollPool, Shoot, Spot
from fracas.rules.age_of_dragons.policies import HeuristicPolicy, pool_value
from fracas.rules.age_of_dragons.state import AgeOfDragonsState

BREATH = {"name": "storm breath", "sphere": "pneuma", "reach": "middle", "area": True}
LIGHTNING = {"name": "lightning", "sphere": "pneuma", "reach": "long", "damage_bonus": 2}


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


def queen(**kw: Any) -> dict[str, Any]:
    """A queen with an area Pneuma breath: Soma 9, Pneuma 9."""
    return dragon("Q", "red", soma=9, pneuma=9, pr=40, ranged=[BREATH], **kw)


# -- the pool ---------------------------------------------------------------------------------
def test_a_sphere_rated_as_high_as_soma_is_nominated_at_close_quarters_too() -> None:
    # Before: Soma alone while the foe was in melee reach, so the breath was never offered.
    enc = start([queen(), dragon("H", "blue")])
    assert choice(enc) == RollPool("Q", ("soma", "pneuma"))


def test_every_free_sphere_is_nominated() -> None:
    mind = {"name": "mind spike", "sphere": "sophis", "reach": "middle"}
    enc = start([dragon("A", "red", soma=6, sophis=7, pneuma=6, ranged=[BREATH, mind]),
                 dragon("B", "blue")])
    assert choice(enc) == RollPool("A", ("soma", "sophis", "pneuma"))


def test_a_sphere_that_costs_dice_is_left_out_when_tooth_and_claw_pays_more() -> None:
    # Pneuma 4 would roll 4 dice for a breath no better than a claw: Soma's 8 dice pay more.
    enc = start([dragon("A", "red", soma=8, pneuma=4, ranged=[BREATH]), dragon("B", "blue")])
    state = enc.state
    a = who(enc, "A")
    assert pool_value(state, a, ("soma",)) > pool_value(state, a, ("soma", "pneuma"))
    assert choice(enc) == RollPool("A", ("soma",))


def test_a_sphere_that_costs_a_die_is_nominated_when_only_the_power_reaches() -> None:
    # A wingless drake on the ground cannot reach a flyer at normal altitude with tooth and
    # claw; its breath spans the one level between them.  Seven dice with the breath beat
    # eight that can strike nobody.
    enc = start([dragon("A", "red", soma=8, pneuma=7, flies=False, altitude="grounded",
                        ranged=[BREATH]), dragon("B", "blue")])
    assert pool_value(enc.state, who(enc, "A"), ("soma",)) == 0.0
    assert choice(enc) == RollPool("A", ("soma", "pneuma"))


def test_a_caster_whose_power_outrates_its_soma_rolls_the_power_alone() -> None:
    # Soma 2 and Pneuma 9: the pair rolls 2 dice, Pneuma alone 9 (no claw, no manoeuvre).
    enc = start([dragon("A", "red", soma=2, pneuma=9, ranged=[LIGHTNING]),
                 dragon("B", "blue")])
    assert choice(enc) == RollPool("A", ("pneuma",))


def test_a_caster_held_in_a_grapple_keeps_soma() -> None:
    enc = start([dragon("A", "red", soma=2, pneuma=9, ranged=[LIGHTNING]),
                 dragon("B", "blue")])
    enc.state.grapples.add(("A", "B"))
    enc.state.ranges[("A", "B")] = 0
    assert "soma" in choice(enc).spheres  # type: ignore[attr-defined]


# -- the attack -------------------------------------------------------------------------------
def test_a_ranged_power_that_beats_the_claw_is_loosed_at_close_quarters() -> None:
    # Two hits against no PD: a claw deals 2, a bite nothing (TN +3), lightning 2 + 2.
    enc = fight([dragon("A", "red", soma=6, pneuma=6, ranged=[LIGHTNING]),
                 dragon("B", "blue")], 4, 4, 1, 1, 1, 1, spheres=("soma", "pneuma"))
    assert after_spots(enc)[1] == Shoot("A", "B", 2, "lightning")


def test_an_aimed_bite_still_beats_the_power_when_it_deals_more() -> None:
    # Five hits, two 3s to aim PD 2 away: a bite deals 5 - 3 + 6 = 8, lightning 5 + 2 = 7.
    enc = fight([dragon("A", "red", soma=7, pneuma=7, ranged=[LIGHTNING]),
                 dragon("B", "blue", pd=2)], 4, 4, 4, 5, 5, 3, 3, spheres=("soma", "pneuma"))
    assert after_spots(enc)[1] == Attack("A", "B", 5, "bite")


def test_an_area_power_is_valued_over_every_foe_of_the_grapple_it_strikes() -> None:
    # H1 and H2 both hold the queen.  Four hits against no PD: a bite at one deals 7, the
    # breath at H1 strikes H1 and H2 (the queen is spared) for 4 each.
    enc = fight([queen(), dragon("H1", "blue"), dragon("H2", "blue")],
                4, 4, 4, 5, 1, 1, 1, 1, 1, spheres=("soma", "pneuma"))
    state = enc.state
    for h in ("H1", "H2"):
        state.grapples.add(("H1" if h == "H1" else "H2", "Q"))
        state.ranges[(h, "Q")] = 0
    picked = after_spots(enc)[1]
    assert isinstance(picked, Shoot) and picked.weapon == "storm breath"
    assert picked.dice == 4


def test_a_lone_foe_gets_the_bite_when_the_breath_strikes_only_it() -> None:
    # The same dice with one holder: the breath deals 4, the bite 7.
    enc = fight([queen(), dragon("H1", "blue"), dragon("H2", "blue")],
                4, 4, 4, 5, 1, 1, 1, 1, 1, spheres=("soma", "pneuma"))
    enc.state.grapples.add(("H1", "Q"))
    enc.state.ranges[("H1", "Q")] = 0
    assert after_spots(enc)[1] == Attack("Q", "H1", 4, "bite")
