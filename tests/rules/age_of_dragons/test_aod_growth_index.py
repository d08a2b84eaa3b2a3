"""The heuristic's index of the foes (``tactics.FoeIndex``) and the foes it reads from it
(``tactics.foes_that_matter``), held to the rules they speed up.

- The index the fold keeps up to date, event by event, holds what one built afresh from
  the state holds: every pair's range band and every living combatant's group.
- The foes the heuristic keeps (``HeuristicPolicy._foes``) are those worked out afresh; they
  are :func:`tactics.target_order` less some foes, in the same order, the first kept.
- The plan over them, and over the fewer foes a plan prices (``tactics.foes_to_price``),
  is the plan over every foe (each priced, none left out as alike); so are the attack
  worth the most and the drain the heuristic offers at the expend step, and what each
  pool is worth; ``tactics.first_foe`` is the first of the order.
- Whole fights played with the index are the fights played without it, event for event.

Every check runs at each decision of seeded fights of every example (the index forced on,
though they are small) and of random crowds: mixed heights and bands, breath and area
powers, a grapple, ``claw_all`` seats, spotting that uses up dice.

Checked once against deliberately broken copies: with ``events.AttackResolved`` left out
of ``tactics.TOUCHES`` the index test fails; keeping only the first of each group (not
the one with the most Resilience) fails the plan test.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
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
from fracas.rules.age_of_dragons.state import AgeOfDragonsState, Fighter, pair
from fracas.scenario import load_scenario

sys.path.insert(0, str(Path(__file__).parent))
from aod_helpers import RULESET, scenario_state

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" /
                   "age_of_dragons").glob("*.yaml"))


def _example(path: Path) -> AgeOfDragonsState:
    scenario = load_scenario(path)
    return scenario.ruleset.initial_state(scenario.model)


def _crowd(n: int, seed: int, claw_all: int = 0, alike: bool = False) -> AgeOfDragonsState:
    """``n`` dragons on two sides, most pairs at one band and some at others, mixed heights,
    Resilience and Defence (``alike``: two heights, no Defence, so many share a group, and
    pools large enough for a called shot's kill, so their Resilience tells); some breathe
    (some over an area, some on a costly sphere), a pair of them grappled; every
    ``claw_all``-th one (0: none) plays ``claw_all``."""
    rnd = random.Random(seed)
    heights = ("grounded", "strafing_low", "normal", "flying_high", "ceiling")
    dragons: list[dict[str, Any]] = []
    for i in range(n):
        dragon: dict[str, Any] = {
            "name": f"D{i}", "side": ("red", "blue")[i % 2],
            "soma": rnd.randint(13, 16) if alike else rnd.randint(3, 9),
            "sophis": rnd.randint(2, 7), "pneuma": rnd.randint(2, 9),
            "pd": 0 if alike else rnd.randint(0, 3), "pr": rnd.randint(8, 26),
            "altitude": rnd.choice(("normal", "flying_high") if alike else
                                   heights[:rnd.randint(1, 5)]),
            "policy": "claw_all" if claw_all and i % claw_all == claw_all - 1 else "heuristic"}
        if rnd.random() < 0.3:
            dragon["ranged"] = [{"name": "breath", "sphere": rnd.choice(("soma", "pneuma")),
                                 "reach": rnd.choice(("close", "middle", "long")),
                                 "area": rnd.random() < 0.5}]
        dragons.append(dragon)
    names = [d["name"] for d in dragons]
    common = rnd.choice(("close", "middle", "long"))
    ranges = [{"between": [a, b], "range": rnd.choice(("close", "middle", "long"))}
              for a, b in combinations(names, 2) if rnd.random() < 0.15]
    state = scenario_state(dragons, ranges=ranges, default_range=common, max_rounds=6,
                           options={"spot_consumes_dice": rnd.random() < 0.2})
    if rnd.random() < 0.7:
        key = pair("D0", "D1")
        state.grapples.add(key)
        state.ranges[key] = 0
    return state


def _bands(index: tactics.FoeIndex, state: AgeOfDragonsState) -> dict[tuple[str, str], int]:
    """Every pair's band as the index tells it."""
    return {pair(a, b): index.odd[a].get(b, index.band)
            for a, b in combinations(list(state.fighters), 2)}


def _groups(index: tactics.FoeIndex) -> dict[str, dict[tuple[object, ...], list[Any]]]:
    return {side: {key: list(members) for key, members in groups.items() if members}
            for side, groups in index.groups.items() if any(groups.values())}


def _subsequence(part: list[Fighter], whole: list[Fighter]) -> bool:
    it = iter(whole)
    return all(any(f is g for g in it) for f in part)


def _spheres(fighter: Fighter) -> Iterator[tuple[str, ...]]:
    extra = sorted({w.sphere for w in fighter.profile.ranged} - {"soma"})
    for k in range(len(extra) + 1):
        for chosen in combinations(extra, k):
            yield ("soma", *chosen)
            if chosen:
                yield tuple(chosen)


class _Held(policies.HeuristicPolicy):
    """The heuristic, holding at each decision of its turn what it reads from the index to
    the same worked out from every foe."""

    checks = 0

    def decide(self, state: AgeOfDragonsState, me: str) -> tuple[actions.Action, bool]:
        turn, fighter = state.turn, state.fighters[me]
        if turn is not None and turn.actor == me and state.pending is None and \
                tactics.indexed(state, fighter):
            _hold(self, state, fighter)
        return super().decide(state, me)


def _hold(policy: policies.HeuristicPolicy, state: AgeOfDragonsState, me: Fighter) -> None:
    kept_index = tactics._index(state, False)
    fresh_index = tactics.FoeIndex.of(state)
    assert _bands(kept_index, state) == {
        p: state.ranges[p] for p in _bands(fresh_index, state)}, state.turn
    assert _groups(kept_index) == _groups(fresh_index), state.turn
    assert {side: fams for side, fams in kept_index.fams.items() if fams} == \
        {side: fams for side, fams in fresh_index.fams.items() if fams}, state.turn
    foes = policy._foes(state, me)
    assert foes == tactics.foes_that_matter(state, me, fresh=True), state.turn
    whole = tactics.target_order(state, me)
    assert _subsequence(foes, whole) and (foes[:1] == whole[:1]), state.turn
    turn = state.turn
    assert turn is not None
    if turn.step == "pool":
        for spheres in _spheres(me):
            assert policies.pool_value_of(state, me, spheres, foes) == \
                policies.pool_value_of(state, me, spheres, whole), spheres
        _Held.checks += 1
        return
    planned = tactics.plan(state, me)  # over tactics.foes_to_price
    assert planned == tactics.plan(state, me, foes) == tactics.plan(state, me, whole) == \
        tactics.plan(state, me, every_foe=True), state.turn
    first = tactics.first_foe(state, me)
    assert (first is None and not whole) or first is whole[0], state.turn
    dice = rules.qualifying_dice(turn, ATTACK_THRESHOLD)
    if dice:
        first = (actions.BreakOut, actions.Grapple)
        got = [w for w in policies.HeuristicPolicy._expends(
            state, me, whole[0].name if whole else None, foes) if not isinstance(w, first)]
        soma = "soma" in turn.spheres
        weapons = [w for w in me.profile.ranged if w.sphere in turn.spheres]
        sixes = sum(1 for i in dice if turn.pool[i] == 6)
        best, drain = policies._priced(state, me, whole, len(dice), sixes, soma, weapons)
        wanted: list[actions.Action] = []
        if best is not None:
            wanted.append(actions.Attack(me.name, best[1], len(dice), best[3], best[4])
                          if best[2] is None else
                          actions.Shoot(me.name, best[1], len(dice), best[2].name))
        if drain is not None:
            wanted.append(drain)
        assert got == wanted, state.turn
    _Held.checks += 1


def _seats(initial: AgeOfDragonsState, everyone: bool = False) -> Any:
    """The scenario's policies, the heuristic's holding (``everyone``: all on it)."""
    own = scenario_policies(RULESET, initial)
    seats = {name: _Held() if everyone or isinstance(own(name), policies.HeuristicPolicy)
             else own(name) for name in initial.fighters}
    return seats.__getitem__


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_index_and_the_foes_read_from_it_hold_on_every_example(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tactics, "INDEXED_FROM", 0)  # an index even for a duel
    initial = _example(path)
    before = _Held.checks
    for fight in range(6):
        dice, policy_rng = fight_streams(derive_seed(71, fight))
        enc = Encounter(RULESET, initial, rng=dice, keep_log=False)
        play(enc, _seats(enc.state, everyone=True), policy_rng, max_decisions=400)
    assert _Held.checks - before > 20


@pytest.mark.parametrize(("n", "seed", "claw_all", "alike"),
                         [(12, 1, 0, False), (14, 2, 0, False), (16, 3, 4, False),
                          (20, 4, 0, False), (24, 5, 5, False), (30, 9, 0, True),
                          (40, 10, 0, True), (36, 11, 7, True)])
def test_the_index_and_the_foes_read_from_it_hold_in_a_crowd(
        n: int, seed: int, claw_all: int, alike: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tactics, "INDEXED_FROM", 0)  # an index whatever the crowd's size
    initial = _crowd(n, seed, claw_all, alike)
    before = _Held.checks
    for fight in range(3):
        dice, policy_rng = fight_streams(derive_seed(seed, fight))
        enc = Encounter(RULESET, initial, rng=dice, keep_log=False)
        play(enc, _seats(enc.state), policy_rng, max_decisions=500)
    assert _Held.checks - before > 50


def _log(initial: AgeOfDragonsState, fight: int) -> list[Any]:
    dice, policy_rng = fight_streams(fight)
    enc = Encounter(RULESET, initial, rng=dice, keep_log=True)
    play(enc, scenario_policies(RULESET, enc.state), policy_rng, max_decisions=700)
    return list(enc.log)


@pytest.mark.parametrize("seed", [6, 7, 8])
def test_a_crowd_fights_the_same_fights_with_the_index_as_without(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    initial = _crowd(16, seed, claw_all=6 if seed == 8 else 0)
    monkeypatch.setattr(tactics, "INDEXED_FROM", 0)  # an index whatever the crowd's size
    with_index = [_log(initial, fight) for fight in range(2)]
    monkeypatch.setattr(tactics, "INDEXED_FROM", 10 ** 9)  # every foe read, every time
    without = [_log(initial, fight) for fight in range(2)]
    assert with_index == without
    assert all(len(log) > 100 for log in with_index)
