"""The heuristic's plan kept across the move it takes (``HeuristicPolicy._kept``), and its
first foe carried across its own moves and attacks (``_carry``, ``_after_strike``), are what
it would work out afresh.

When the heuristic spots the first move of its plan (a change of altitude in the air, or
of the range band to its target) it keeps the plan with the rest of its moves for its next
decision, instead of pricing every foe again; the foes it priced, and the first of them,
are carried across the move, and the first foe across its attack.  These tests hold the
kept plan to the plan worked out afresh (over the foes a plan prices, and over every foe,
each priced) at every decision it is used, and the foes and first foe kept for the
standing to those worked out afresh at every decision, in whole fights of every example
and of random crowds: mixed heights and bands, grounded dragons with a ripped-off limb (a
range step on the ground costs them two dice), breath and area powers, a grapple,
spotting that uses up dice, a crowd as large as ``benchmarks/growth.py``'s (the foes read
from the index).  Whole fights played by a heuristic that never keeps a plan are the
fights played by the one that does, event for event.

Checked once against deliberately broken copies, each failing here: the kept plan not
dropping the move just taken; a plan kept across a move when spotting uses up dice, across
a take-off, or for a pool that can shoot; the first foe after an attack not weighing the
foe struck; the first foe after a range step not weighing the target; the foes kept across
a change of altitude left in their old order.
"""

from __future__ import annotations

import random
import sys
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from fracas.core.encounter import Encounter
from fracas.core.loop import play
from fracas.core.policy import scenario_policies
from fracas.core.rng import derive_seed, fight_streams
from fracas.rules.age_of_dragons import actions, policies, rules, tactics
from fracas.rules.age_of_dragons.rules import ATTACK_THRESHOLD
from fracas.rules.age_of_dragons.state import OK, RIPPED, AgeOfDragonsState, Fighter, pair
from fracas.scenario import load_scenario

sys.path.insert(0, str(Path(__file__).parent))
from aod_helpers import RULESET, scenario_state

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" /
                   "age_of_dragons").glob("*.yaml"))
MOVES = frozenset({"alter_range", "lose_altitude", "gain_altitude", "take_off"})


class _Checked(policies.HeuristicPolicy):
    """The heuristic, holding every plan it keeps to the plan worked out afresh."""

    moves = 0  # plans kept after a move, over every instance
    aims = 0
    foes = 0  # foes kept for this standing and held to those afresh
    leads = 0  # first foes carried across a range step

    def __init__(self) -> None:
        super().__init__()
        self.last: actions.Action | None = None

    def decide(self, state: AgeOfDragonsState, me: str) -> tuple[actions.Action, bool]:
        _hold_foes(self, state, state.fighters[me])
        action, vetted = super().decide(state, me)
        _hold_foes(self, state, state.fighters[me])  # and what it kept deciding
        self.last = action
        return action, vetted

    def _kept(self, state: AgeOfDragonsState, fighter: Fighter) -> tactics.Plan | None:
        plan = super()._kept(state, fighter)
        if plan is not None:
            fresh = tactics.plan(state, fighter)
            assert plan == fresh == tactics.plan(state, fighter, every_foe=True), \
                (state.turn, self.last, plan, fresh)
            last = self.last
            if isinstance(last, actions.Spot) and last.effect in MOVES:
                _Checked.moves += 1
            else:
                _Checked.aims += 1
        return plan


def _hold_foes(policy: policies.HeuristicPolicy, state: AgeOfDragonsState, me: Fighter
               ) -> None:
    """What the policy keeps for this standing (its foes, the first foe: what
    ``_first_foe`` reads) is what it would work out afresh (read only: asking would keep
    more)."""
    turn, name = state.turn, me.profile.name
    if turn is None:
        return
    whole = tactics.target_order(state, me)
    priced = policy._priced
    if priced is not None and priced[0] is turn and priced[1] == state.standing and \
            priced[2] == name:
        if priced[3] is None:  # every foe
            assert priced[5] == whole, turn
        else:
            dice = rules.qualifying_dice(turn, ATTACK_THRESHOLD)
            hits, sixes = len(dice), sum(1 for i in dice if turn.pool[i] == 6)
            if priced[4] == tactics.can_kill(hits, sixes) and \
                    priced[3] == sum(turn.aims.values()):
                assert priced[5] == tactics.foes_to_price(state, me, hits, sixes), turn
                _Checked.foes += 1
        assert priced[5][:1] == whole[:1], turn
    lead = policy._lead
    if lead is not None and lead[0] is turn and lead[1] == state.standing and \
            lead[2] == name:
        assert lead[3] is whole[0], turn
        _Checked.leads += 1


class _Afresh(policies.HeuristicPolicy):
    """The heuristic keeping no plan across a spot: every plan worked out afresh."""

    def _kept(self, state: AgeOfDragonsState, fighter: Fighter) -> tactics.Plan | None:
        super()._kept(state, fighter)  # (forgets what it kept)
        return None


def _seats(initial: AgeOfDragonsState, kind: type[policies.HeuristicPolicy]) -> Any:
    own = scenario_policies(RULESET, initial)
    seats = {name: kind() if isinstance(own(name), policies.HeuristicPolicy) else own(name)
             for name in initial.fighters}
    return seats.__getitem__


def _example(path: Path) -> AgeOfDragonsState:
    scenario = load_scenario(path)
    return scenario.ruleset.initial_state(scenario.model)


def _crowd(n: int, seed: int, consumes: bool = False) -> AgeOfDragonsState:
    """``n`` dragons on two sides at mixed heights, most pairs at one band, some at others;
    some breathe (some over an area), some grounded with a ripped-off limb, maybe a pair
    grappled."""
    rnd = random.Random(seed)
    heights = ("grounded", "strafing_low", "normal", "flying_high", "ceiling")
    dragons: list[dict[str, Any]] = []
    for i in range(n):
        dragon: dict[str, Any] = {
            "name": f"D{i}", "side": ("red", "blue")[i % 2], "soma": rnd.randint(4, 12),
            "sophis": rnd.randint(2, 7), "pneuma": rnd.randint(2, 9),
            "pd": rnd.randint(0, 3), "pr": rnd.randint(8, 26), "altitude": rnd.choice(heights)}
        if rnd.random() < 0.25:
            dragon["ranged"] = [{"name": "breath", "sphere": rnd.choice(("soma", "pneuma")),
                                 "reach": rnd.choice(("close", "middle", "long")),
                                 "area": rnd.random() < 0.5}]
        dragons.append(dragon)
    names = [d["name"] for d in dragons]
    ranges = [{"between": [a, b], "range": rnd.choice(("close", "middle", "long"))}
              for a, b in combinations(names, 2) if rnd.random() < 0.2]
    state = scenario_state(dragons, ranges=ranges,
                           default_range=rnd.choice(("middle", "long")),
                           max_rounds=8, options={"spot_consumes_dice": consumes})
    for fighter in state.fighters.values():
        if rnd.random() < 0.3:
            fighter.limbs = [RIPPED, OK, OK, OK]
    if rnd.random() < 0.5:
        key = pair("D0", "D1")
        state.grapples.add(key)
        state.ranges[key] = 0
    return state


def _growth(n: int) -> AgeOfDragonsState:
    """``benchmarks/growth.py``'s crowd of ``n``."""
    return scenario_state(
        [{"name": f"D{i}", "side": ("red", "blue")[i % 2], "soma": 7 + i % 3, "sophis": 5,
          "pneuma": 5, "pd": 2, "pr": 20 + i % 5,
          "altitude": ("normal", "flying_high", "grounded")[i % 3]} for i in range(n)],
        default_range="middle", max_rounds=30)


def _fights(initial: AgeOfDragonsState, kind: type[policies.HeuristicPolicy], fights: int,
            seed: int, decisions: int, keep_log: bool = False) -> list[list[Any]]:
    logs = []
    for fight in range(fights):
        dice, policy_rng = fight_streams(derive_seed(seed, fight))
        enc = Encounter(RULESET, initial, rng=dice, keep_log=keep_log)
        play(enc, _seats(enc.state, kind), policy_rng, max_decisions=decisions)
        logs.append(list(enc.log) if keep_log else [])
    return logs


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_plan_kept_after_its_move_is_the_plan_worked_out_afresh_on_every_example(
        path: Path) -> None:
    before = _Checked.moves
    _fights(_example(path), _Checked, 12, 29, 400)
    # The claw duel's dragons meet at close quarters, the breath duel's shoot from afar.
    assert _Checked.moves > before or path.stem in ("breath_duel", "claw_duel")


@pytest.mark.parametrize(("n", "seed", "consumes"),
                         [(6, 1, False), (10, 2, False), (14, 3, True), (20, 4, False),
                          (24, 5, False), (30, 6, False), (44, 7, False), (52, 8, False),
                          (48, 9, True)])
def test_a_plan_kept_after_its_move_is_the_plan_worked_out_afresh_in_a_crowd(
        n: int, seed: int, consumes: bool) -> None:
    before = _Checked.moves
    _fights(_crowd(n, seed, consumes), _Checked, 4, seed, 400)
    if consumes:  # a spotted die is no hit: no plan is kept across a move
        assert _Checked.moves == before
    else:
        assert _Checked.moves - before > 10


@pytest.mark.parametrize(("n", "seed"), [(8, 11), (14, 12), (20, 13)])
def test_the_first_foe_carried_is_the_first_worked_out_afresh_in_a_small_crowd(
        n: int, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tactics, "INDEXED_FROM", 0)  # carried (and the index read) anyway
    before = _Checked.leads
    _fights(_crowd(n, seed), _Checked, 4, seed, 400)
    assert _Checked.leads - before > 10


def test_a_plan_kept_after_its_move_is_the_plan_worked_out_afresh_in_the_growth_crowd(
        ) -> None:
    before = _Checked.moves, _Checked.foes, _Checked.leads
    _fights(_growth(60), _Checked, 2, 60, 300)  # the foes read from the index (60 > 40)
    assert _Checked.moves - before[0] > 20
    assert _Checked.foes - before[1] > 5 and _Checked.leads - before[2] > 50


@pytest.mark.parametrize("initial", [_growth(8), _crowd(12, 7), _crowd(16, 8, True),
                                     _crowd(42, 10)],
                         ids=["growth8", "crowd12", "crowd16-consumes", "crowd42"])
def test_fights_are_the_same_with_plans_kept_across_moves_as_without(
        initial: AgeOfDragonsState) -> None:
    kept = _fights(initial, policies.HeuristicPolicy, 2, 5, 500, keep_log=True)
    afresh = _fights(initial, _Afresh, 2, 5, 500, keep_log=True)
    assert kept == afresh
    assert all(len(log) > 100 for log in kept)
