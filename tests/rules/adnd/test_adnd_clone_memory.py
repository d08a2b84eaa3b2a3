"""A copy made by ``clone_state`` carries the fighters' numbers (:class:`.memory.Ids`) of
its original: they must stand for the copy's own fighters, when made and as it plays on."""

from __future__ import annotations

from functools import partial

import pytest
import yaml
from adnd_helpers import EXAMPLES

from fracas.core.policy import DecisionRequest, scenario_policies
from fracas.core.rng import SeededRng
from fracas.rules.adnd import AdndScenario, AdndUnderground, AdndUndergroundState, memory

RS = AdndUnderground()


def _numbers_hold(state: AdndUndergroundState) -> None:
    kept = state.remembered[memory.Ids]
    now = kept.update(state)
    whole = memory.table(state.setup, "fighter ids")
    part = memory.table(state.setup, "fighter ids but hp")
    for name, f in state.fighters.items():
        assert whole[f.key()] == now.ids[name], name
        assert part[f.key_but_hp()] == now.but_hp[name], name
    assert now.front == tuple(state.front.items())


@pytest.mark.parametrize("seed", range(3))
def test_a_copy_carries_numbers_that_stand_for_its_own_fighters(seed: int) -> None:
    checked = 0
    for path in EXAMPLES:
        state = RS.initial_state(AdndScenario.model_validate(yaml.safe_load(path.read_text())))
        policies = scenario_policies(RS, state)
        rng = SeededRng(seed)
        RS.advance(state, rng, partial(RS.apply_event, state))
        for step in range(80):
            actor = RS.current_actor(state)
            if actor is None:
                break
            copy = RS.clone_state(state)
            _numbers_hold(copy)
            action = policies(actor).choose(DecisionRequest(actor, copy, RS, SeededRng(step)))
            emit = partial(RS.apply_event, copy)
            RS.resolve(copy, action, rng, emit)
            RS.advance(copy, rng, emit)
            state = copy  # its numbers now lag its fighters: the next copy catches up

            checked += 1
    assert checked > 50
