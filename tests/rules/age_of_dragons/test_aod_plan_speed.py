"""What the heuristic keeps or works out the short way agrees with the long way.

- ``tactics._kept_route`` keeps a free combatant's route to a foe by ``route_key``: every
  kept route, asked for every pair of combatants and weapon on every decision of fights
  of every example (and for copies of the mover at every altitude, its wing whole or
  mauled), is the one ``_free_route`` works out afresh.  Checked once against a broken
  copy, failing here: the key without whether the wings work.
- ``policies.pool_value_of`` hands each typical pool to the plan as the numbers it reads
  of the dice, no turn made for it: it is ``policies.pool_value_by_plans``, which asks
  ``tactics.plan`` itself of a state whose turn rolled each pool, on every pool step of
  fights of every example and of crowds (breath weapons, area powers, grapples).
  Checked once against a broken copy, failing here: the typical pool's 3s left out of
  the dice the spots and aims are paid with.
- The fold counts every event but those of ``fold.STANDING_KEPT`` in
  ``AgeOfDragonsState.standing``: each event of that set, in whole logged fights, leaves
  every combatant's Resilience, death, altitude and side, the ranges and the grapples as
  they were.  Checked once against a broken copy, failing here: ``RangeChanged`` in the
  set.
- The heuristic keeps the order of its foes within a turn while ``standing`` stays
  (``HeuristicPolicy._foes``): a policy that also works the order out afresh, every time
  it is kept, plays fights of every example and of random crowds (``claw_all`` among
  the heuristic, whose turns are played without events) and finds them equal.  Checked
  once against a broken copy, failing here: the kept order used whatever the count.
- Once the plan settles (no move or aim left) the heuristic offers the plan's attack
  without pricing every foe again (``HeuristicPolicy._settled_plan``): a policy that
  also prices them, every time, plays fights of every example and of crowds and finds
  the same attack first.  Checked once against a broken copy, failing here: the settled
  plan's tooth and claw offered as a plain claw (its style and called shot not asked).
- ``policies.choose_spheres`` keeps its answer for a combatant whose pool needs no pricing
  in any state (``policies._UNPRICED``): asked of every combatant on every decision of
  fights of every example and of crowds, and of copies held in a grapple, the kept
  answer is the one worked out afresh.  Checked once against a broken copy, failing
  here: the answer kept also for a combatant with a sphere rated above its Soma (a
  pool without Soma then depends on the grapples).
- The plan works out a shot that strikes its target alone in line (no grapple for an
  area power to catch); ``test_aod_heuristic_cache.py`` holds the quick plan to the plan
  over every foe, which asks ``tactics.ranged_value``.  Checked once against a broken
  copy, failing there: the aims left out of the target's Physical Defence.  What a
  payment reads of the dice, only the faces of 3 or more
  (``tactics.PAID_FACE``), is held there to ``pay_of`` on every face: checked once
  against a broken copy (4 or more), failing there.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.core.encounter import Encounter
from fracas.core.loop import play
from fracas.core.policy import DecisionRequest, scenario_policies
from fracas.core.rng import SeededRng, derive_seed, fight_streams
from fracas.rules.age_of_dragons import actions, fold, policies, tactics
from fracas.rules.age_of_dragons.state import (
    MAULED,
    OK,
    AgeOfDragonsState,
    Fighter,
    pair,
)
from fracas.scenario import load_scenario

sys.path.insert(0, str(Path(__file__).parent))
from aod_helpers import RULESET, scenario_state

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" /
                   "age_of_dragons").glob("*.yaml"))


def _states(initial: AgeOfDragonsState, fights: int) -> Iterator[AgeOfDragonsState]:
    """Every decision's state of ``fights`` fights, each actor on its scenario's policy."""
    for seed in range(fights):
        enc = Encounter(RULESET, initial, rng=SeededRng(seed), keep_log=False)
        own = scenario_policies(RULESET, enc.state)
        rng = SeededRng(seed).spawn("policy")
        for _ in range(300):
            actor = enc.current_actor()
            if actor is None:
                break
            yield enc.state
            enc.apply(own(actor).choose(DecisionRequest(actor, enc.state, RULESET, rng)))


def _example(path: Path) -> AgeOfDragonsState:
    scenario = load_scenario(path)
    return scenario.ruleset.initial_state(scenario.model)


def _crowd(n: int, seed: int, claw_all: int = 0) -> AgeOfDragonsState:
    """``n`` dragons on two sides at mixed heights and ranges, some breathing fire (some
    over an area, some on a costly sphere), a pair of them grappled; every
    ``claw_all``-th one (0: none) plays ``claw_all``, the rest the heuristic."""
    rnd = random.Random(seed)
    heights = ("grounded", "strafing_low", "normal", "flying_high", "ceiling")
    dragons: list[dict[str, Any]] = []
    for i in range(n):
        dragon: dict[str, Any] = {
            "name": f"D{i}", "side": ("red", "blue")[i % 2], "soma": rnd.randint(3, 9),
            "sophis": rnd.randint(2, 7), "pneuma": rnd.randint(2, 9), "pd": rnd.randint(0, 3),
            "pr": rnd.randint(8, 26), "altitude": rnd.choice(heights),
            "policy": "claw_all" if claw_all and i % claw_all == claw_all - 1 else "heuristic"}
        if rnd.random() < 0.5:
            dragon["ranged"] = [{"name": "breath", "sphere": rnd.choice(("soma", "pneuma")),
                                 "reach": rnd.choice(("close", "middle", "long")),
                                 "area": rnd.random() < 0.5}]
        dragons.append(dragon)
    names = [d["name"] for d in dragons]
    ranges = [{"between": [a, b], "range": rnd.choice(("close", "middle", "long"))}
              for j, a in enumerate(names) for b in names[j + 1:]]
    state = scenario_state(dragons, ranges=ranges, max_rounds=8,
                           options={"spot_consumes_dice": rnd.random() < 0.3})
    key = pair("D0", "D1")
    state.grapples.add(key)
    state.ranges[key] = 0
    return state


def _movers(me: Fighter) -> Iterator[Fighter]:
    """``me``, then copies at every altitude with the wing whole and mauled."""
    yield me
    for altitude in range(5):
        for wing in (OK, MAULED):
            copy = me.copy()
            copy.altitude, copy.wing = altitude, wing
            yield copy


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_kept_route_is_the_route_worked_out_afresh(path: Path) -> None:
    tactics._ROUTES.clear()
    asked = 0
    for state in _states(_example(path), 2):
        fighters = list(state.fighters.values())
        for me in fighters:
            for foe in fighters:
                if foe is me:
                    continue
                band = state.ranges[pair(me.name, foe.name)]
                for weapon in (None, *me.profile.ranged):
                    for mover in _movers(me):
                        kept = tactics._kept_route(mover, mover.altitude, mover.can_fly,
                                                   foe.altitude, band, weapon)
                        assert kept == tactics._free_route(mover, foe.altitude, band, weapon)
                        asked += 1
    assert asked > 100


_CASES = [path.stem for path in EXAMPLES] + ["crowd 0", "crowd 1", "crowd 2"]


def _initial(case: str) -> AgeOfDragonsState:
    if case.startswith("crowd"):
        seed = int(case.split()[1])
        return _crowd(6 + 2 * seed, seed)
    return _example(next(path for path in EXAMPLES if path.stem == case))


@pytest.mark.parametrize("case", _CASES)
def test_a_pool_is_worth_what_its_plans_are_worth(case: str) -> None:
    asked = 0
    for state in _states(_initial(case), 1 if case.startswith("crowd") else 2):
        if state.turn is None or state.turn.step != "pool" or state.pending is not None:
            continue
        for me in state.fighters.values():
            if me.dead:
                continue
            for spheres in (("soma",), ("pneuma",), ("soma", "pneuma"),
                            ("soma", "sophis", "pneuma")):
                fast = policies.pool_value_of(state, me, spheres)
                assert fast == policies.pool_value_by_plans(state, me, spheres), \
                    (me.name, spheres)
                asked += 1
    assert asked > 40


def _standing(state: AgeOfDragonsState) -> tuple[object, ...]:
    return (tuple((f.pr, f.dead, f.altitude, f.profile.side) for f in state.fighters.values()),
            tuple(sorted(state.ranges.items())), tuple(sorted(state.grapples)))


def test_the_events_the_fold_does_not_count_leave_the_standing_alone() -> None:
    initials = [_example(path) for path in EXAMPLES] + [_crowd(8, s) for s in range(3)]
    kept_seen: set[type] = set()
    for i, initial in enumerate(initials):
        for fight in range(6):
            dice, policy_rng = fight_streams(derive_seed(i, fight))
            enc = Encounter(RULESET, initial, rng=dice, keep_log=True)
            play(enc, scenario_policies(RULESET, enc.state), policy_rng, max_decisions=400)
            state = initial.copy()
            for event in enc.log:
                before = _standing(state)
                counted = state.standing
                fold.apply_event(state, event)
                if type(event) in fold.STANDING_KEPT:
                    assert _standing(state) == before, event
                    assert state.standing == counted
                    kept_seen.add(type(event))
                else:
                    assert state.standing == counted + 1
    assert len(kept_seen) >= 6  # the commonest of them were seen


class _Checked(policies.HeuristicPolicy):
    """The heuristic, comparing every kept order of its foes with one worked out afresh."""

    kept = 0

    def _first_foe(self, state: AgeOfDragonsState, fighter: Fighter) -> str | None:
        before = self._priced
        found = super()._first_foe(state, fighter)
        if before is not None and self._priced is before:
            order = tactics.target_order(state, fighter)
            assert found == (order[0].name if order else None), (state.turn, fighter.name)
            _Checked.kept += 1
        return found


def _checked_seats(initial: AgeOfDragonsState) -> dict[str, Any]:
    own = scenario_policies(RULESET, initial)
    return {name: _Checked() if isinstance(own(name), policies.HeuristicPolicy) else own(name)
            for name in initial.fighters}


def test_a_kept_order_of_the_foes_is_the_order_worked_out_afresh() -> None:
    before = _Checked.kept
    initials = [_example(path) for path in EXAMPLES] + [_crowd(9, 7)] + \
        [_crowd(7, s, claw_all=3) for s in range(3)]
    for i, initial in enumerate(initials):
        for fight in range(8):
            dice, policy_rng = fight_streams(derive_seed(i, fight))
            enc = Encounter(RULESET, initial, rng=dice, keep_log=False)
            seats = _checked_seats(enc.state)
            play(enc, seats.__getitem__, policy_rng, max_decisions=600)
    assert _Checked.kept - before > 100


class _CheckedExpends(policies.HeuristicPolicy):
    """The heuristic, comparing the settled plan's attack with every foe priced afresh."""

    compared = 0

    @staticmethod
    def _expends(state: AgeOfDragonsState, fighter: Fighter, target: str | None,
                 foes: list[Fighter], settled: tactics.Plan | None = None
                 ) -> Iterator[actions.Action]:
        wishes = list(policies.HeuristicPolicy._expends(state, fighter, target, foes, settled))
        if settled is not None:
            full = list(policies.HeuristicPolicy._expends(state, fighter, target, foes))
            first = (actions.BreakOut, actions.Grapple)
            lead = [w for w in full if not isinstance(w, first)]
            mine = [w for w in wishes if not isinstance(w, first)]
            assert lead and mine[0] == lead[0], (state.turn, settled)
            _CheckedExpends.compared += 1
        return iter(wishes)


@pytest.mark.source  # overrides a static method the compiled heuristic calls directly
def test_a_settled_plan_s_attack_is_the_attack_worth_the_most() -> None:
    before = _CheckedExpends.compared
    initials = [_example(path) for path in EXAMPLES] + [_crowd(9, s) for s in range(3)]
    for i, initial in enumerate(initials):
        for fight in range(8):
            dice, policy_rng = fight_streams(derive_seed(i, fight))
            enc = Encounter(RULESET, initial, rng=dice, keep_log=False)
            own = scenario_policies(RULESET, enc.state)
            seats = {name: _CheckedExpends() if isinstance(own(name), policies.HeuristicPolicy)
                     else own(name) for name in initial.fighters}
            play(enc, seats.__getitem__, policy_rng, max_decisions=600)
    assert _CheckedExpends.compared - before > 100


def _sphere_crowd(seed: int) -> AgeOfDragonsState:
    """Dragons whose breath is rated above, at and below their Soma."""
    rnd = random.Random(seed)
    dragons = [{"name": f"D{i}", "side": ("red", "blue")[i % 2], "soma": rnd.randint(2, 7),
                "sophis": rnd.randint(0, 8), "pneuma": rnd.randint(0, 8), "pd": 1, "pr": 15,
                "ranged": [{"name": "breath", "sphere": rnd.choice(("sophis", "pneuma")),
                            "reach": "long"}]} for i in range(6)]
    return scenario_state(dragons, default_range="middle", max_rounds=6)


def test_a_kept_pool_choice_is_the_choice_worked_out_afresh() -> None:
    initials = [_example(path) for path in EXAMPLES] + [_sphere_crowd(s) for s in (2, 3)]
    kept_answers = 0
    for initial in initials:
        for state in _states(initial, 1):
            held = state.copy()
            names = list(held.fighters)
            held.grapples.add(pair(names[0], names[1]))
            for view in (state, held):
                for fighter in view.fighters.values():
                    kept_answers += id(fighter.profile) in policies._UNPRICED
                    kept = policies.choose_spheres(view, fighter)  # as kept from before
                    saved = dict(policies._UNPRICED)
                    policies._UNPRICED.clear()
                    fresh = policies.choose_spheres(view, fighter)
                    policies._UNPRICED.clear()
                    policies._UNPRICED.update(saved)
                    assert kept == fresh, fighter.name
    assert kept_answers > 100
