"""What the heuristic keeps between questions agrees with working the answer out afresh.

The heuristic keeps its plan and its order of the foes across an aim the plan chose
(:meth:`~fracas.rules.age_of_dragons.policies.HeuristicPolicy._kept`); a policy that
also works them out afresh plays whole fights of every example and finds them equal.
A plan that stops looking once no later foe can beat the best so far, and that prices
only the first of foes alike (``tactics.foe_likeness``), is the plan that looks at every
foe, on every decision of those fights and of crowded ones (some with breath weapons,
some held in grapples).  Checked once against a deliberately broken copy, failing here:
the likeness of a foe without the Physical Defence it can spend.  The quick plan works a
foe's spendable Physical Defence out in line, the plan over every foe asks
``rules.available_pd``: checked against two broken copies, both failing here (the aims
taken at the foe ignored; a dying foe's Defence counted).

:func:`fracas.rules.age_of_dragons.tactics.best_melee` keeps its answers by
:func:`~fracas.rules.age_of_dragons.tactics.melee_key`, the fields
:func:`~fracas.rules.age_of_dragons.tactics.melee_options` reads.  These tests ask it on
every decision of fights of every example, for every pair of combatants and for copies
of either with one field of its condition changed (so a field the options start to read and
the key leaves out shows up as two answers under one key), and compare each kept answer
with :func:`~fracas.rules.age_of_dragons.tactics.best_melee_of`.  What the dice pay for a
route (``tactics._pay``, kept by ``pay_key``) is held to ``pay_of`` alike; checked once
against a deliberately broken copy, failing here: ``pay_key`` without the ripped limb.
What a pool is worth (``policies.pool_value``, kept by ``pool_key``) is held to
``pool_value_of`` alike; checked once against a broken copy, failing here: ``pool_key``
without the grapples.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from fracas.core.encounter import Encounter
from fracas.core.policy import DecisionRequest, scenario_policies
from fracas.core.rng import SeededRng
from fracas.rules.age_of_dragons import policies, tactics
from fracas.rules.age_of_dragons.state import (
    MAULED,
    OK,
    RIPPED,
    AgeOfDragonsState,
    Fighter,
    pair,
)
from fracas.scenario import load_scenario

sys.path.insert(0, str(Path(__file__).parent))
from aod_helpers import RULESET, scenario_state

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" /
                   "age_of_dragons").glob("*.yaml"))


def _states(path: Path, fights: int) -> Iterator[AgeOfDragonsState]:
    scenario = load_scenario(path)
    ruleset = scenario.ruleset
    initial = ruleset.initial_state(scenario.model)
    for seed in range(fights):
        enc = Encounter(ruleset, initial, rng=SeededRng(seed), keep_log=False)
        own = scenario_policies(ruleset, enc.state)
        rng = SeededRng(seed).spawn("policy")
        for _ in range(300):
            actor = enc.current_actor()
            if actor is None:
                break
            yield enc.state
            enc.apply(own(actor).choose(DecisionRequest(actor, enc.state, ruleset, rng)))


def _variants(foe: Fighter, rnd: random.Random) -> Iterator[Fighter]:
    """The foe, then copies with one field of its condition changed."""
    yield foe
    for field in ("pr", "pd", "altitude", "stunned", "wing", "tail", "limbs", "dead",
                  "falling_rounds", "chose_fall"):
        copy = foe.copy()
        if field == "pr":
            copy.pr = rnd.randint(-3, 40)
        elif field == "pd":
            copy.pd = rnd.randint(0, 5)
        elif field == "altitude":
            copy.altitude = rnd.randint(0, 4)
        elif field == "stunned":
            copy.stunned = not copy.stunned
        elif field in ("wing", "tail"):
            setattr(copy, field, rnd.choice((OK, MAULED, RIPPED)))
        elif field == "limbs":
            copy.limbs = [rnd.choice((OK, MAULED, RIPPED)) for _ in range(4)]
        elif field == "dead":
            copy.dead = not copy.dead
        elif field == "falling_rounds":
            copy.falling_rounds += 1
        else:
            copy.chose_fall = not copy.chose_fall
        yield copy


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_kept_melee_answer_is_the_one_worked_out_afresh(path: Path) -> None:
    rnd = random.Random(path.stem)
    asked = 0
    for state in _states(path, 2):
        fighters = list(state.fighters.values())
        for me in fighters:
            for foe in fighters:
                if foe is me:
                    continue
                # The same dice for the pair and each variant: one key unless a field differs.
                hits = rnd.choice((0, 3, 8, 10, 12, 14, 16))
                sixes, pd = min(hits, rnd.randint(0, 3)), rnd.randint(0, 3)
                pairs = [(me, variant) for variant in _variants(foe, rnd)]
                pairs += [(variant, foe) for variant in _variants(me, rnd)]
                for mine, theirs in pairs:
                    kept = tactics.best_melee(state, mine, theirs, hits, sixes, pd)
                    fresh = tactics.best_melee_of(state, mine, theirs, hits, sixes, pd)
                    assert kept == fresh, (mine, theirs, hits, sixes, pd)
                    asked += 1
    assert asked > 100


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_kept_payment_is_the_one_worked_out_afresh(path: Path) -> None:
    """``tactics._pay`` keeps its answers by ``pay_key``: each kept answer, asked for every
    combatant and copies of it with one field changed, on routes to every other, with
    the turn's dice and with random ones, is the one ``pay_of`` works out afresh."""
    rnd = random.Random(path.stem)
    tactics._PAID.clear()
    asked = 0
    for state in _states(path, 2):
        turn = state.turn
        fighters = list(state.fighters.values())
        for me in fighters:
            pools = [[rnd.randint(1, 6) for _ in range(rnd.randint(0, 9))]]
            if turn is not None:
                pools.append([f for i, f in enumerate(turn.pool) if not turn.spotted[i]])
            for foe in fighters:
                if foe is me:
                    continue
                band = state.ranges[pair(me.name, foe.name)]
                for weapon in (None, *me.profile.ranged):
                    for mine in _variants(me, rnd):
                        route = tactics._free_route(mine, foe.altitude, band, weapon)
                        if route is None:
                            continue
                        for faces in pools:
                            kept = tactics._pay(mine, route, faces)
                            assert kept == tactics.pay_of(mine, route, faces), (route, faces)
                            asked += 1
    assert asked > 100


_POOLS = (("soma",), ("pneuma",), ("soma", "pneuma"), ("soma", "sophis", "pneuma"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_kept_pool_value_is_the_one_worked_out_afresh(path: Path) -> None:
    """``policies.pool_value`` keeps its answers by ``pool_key``: each kept answer, asked for
    every combatant and pool at the turns' pool steps, and in copies of the state with one
    combatant's condition changed, a range moved or a grapple formed, is the one
    ``pool_value_of`` works out afresh."""
    rnd = random.Random(path.stem)
    policies._POOL_VALUES.clear()
    asked = 0
    for state in _states(path, 2):
        if state.turn is None or state.turn.step != "pool":
            continue
        copies = [state]
        for name in state.fighters:
            for variant in _variants(state.fighters[name], rnd):
                copy = state.copy()
                copy.fighters[name] = variant
                copies.append(copy)
        moved = state.copy()
        key = rnd.choice(list(moved.ranges))
        moved.ranges[key] = rnd.choice([b for b in range(5) if b != moved.ranges[key]])
        grappled = state.copy()
        names = list(grappled.fighters)
        grappled.grapples.add(pair(names[0], names[-1]))
        copies += [moved, grappled]
        for view in copies:
            for me in view.fighters.values():
                if me.dead:
                    continue
                for spheres in _POOLS:
                    kept = policies.pool_value(view, me, spheres)
                    assert kept == policies.pool_value_of(view, me, spheres), (me.name, spheres)
                    asked += 1
    assert asked > 50


class _Checked(policies.HeuristicPolicy):
    """The heuristic, comparing what it keeps with the plan and order worked out afresh."""

    kept = 0

    def _kept(self, state: AgeOfDragonsState, fighter: Fighter) -> tactics.Plan | None:
        plan = super()._kept(state, fighter)
        if plan is not None:
            assert plan == tactics.plan(state, fighter), (state.turn, plan)
            _Checked.kept += 1
        return plan


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_plan_kept_after_its_aim_is_the_plan_worked_out_afresh(path: Path) -> None:
    scenario = load_scenario(path)
    ruleset = scenario.ruleset
    initial = ruleset.initial_state(scenario.model)
    before = _Checked.kept
    for seed in range(12):
        enc = Encounter(ruleset, initial, rng=SeededRng(seed), keep_log=False)
        own = scenario_policies(ruleset, enc.state)
        seats = {name: _Checked() if isinstance(own(name), policies.HeuristicPolicy)
                 else own(name) for name in initial.fighters}
        enc.play(seats, SeededRng(seed).spawn("policy"))
    # The breath duel's dragons shoot from afar and the claw duel's claw: no aims to keep.
    assert _Checked.kept > before or path.stem in ("breath_duel", "claw_duel")


def _crowd(n: int, armed: bool = False) -> AgeOfDragonsState:
    """``n`` dragons on two sides at mixed heights, middle distance apart (``armed``: some
    breathe fire, some over an area; pairs of them start grappled)."""
    heights = ("normal", "flying_high", "grounded", "strafing_low")
    breath = [{"name": "fire", "sphere": "soma", "reach": "middle", "area": False},
              {"name": "storm", "sphere": "soma", "reach": "long", "area": True}]
    dragons = [{"name": f"D{i}", "side": ("red", "blue")[i % 2], "soma": 6 + i % 4,
                "sophis": 4, "pneuma": 4, "pd": i % 3, "pr": 14 + i % 7,
                "altitude": heights[i % 4] if not armed or i % 5 else "normal",
                **({"ranged": [breath[i % 2]]} if armed and i % 3 == 0 else {})}
               for i in range(n)]
    state = scenario_state(dragons, default_range="middle", max_rounds=12)
    if armed:  # a grapple, as GrappleFormed leaves it
        for i in range(0, n - 1, 5):
            key = pair(f"D{i}", f"D{i + 1}")
            state.grapples.add(key)
            state.ranges[key] = 0
    return state


@pytest.mark.parametrize(("n", "armed"), [(4, False), (9, False), (16, False), (12, True),
                                          (24, True)])
def test_a_plan_that_stops_early_is_the_plan_over_every_foe(n: int, armed: bool) -> None:
    initial = _crowd(n, armed)
    compared = stopped = 0
    for seed in range(3):
        enc = Encounter(RULESET, initial, rng=SeededRng(seed), keep_log=False)
        own = scenario_policies(RULESET, enc.state)
        rng = SeededRng(seed).spawn("policy")
        for _ in range(400):
            actor = enc.current_actor()
            if actor is None:
                break
            state = enc.state
            if state.turn is not None and state.turn.actor == actor:
                me = state.fighters[actor]
                quick = tactics.plan(state, me)
                assert quick == tactics.plan(state, me, every_foe=True)
                compared += 1
                stopped += quick is not None and quick.target != \
                    tactics.target_order(state, me)[-1].name
            enc.apply(own(actor).choose(DecisionRequest(actor, state, RULESET, rng)))
    assert compared > 50 and stopped > 0
