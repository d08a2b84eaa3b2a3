"""The heuristic's remembered and unrolled readings agree with the rules they stand for.

``OneRingState.load`` remembers a hero card's Load for each set of items dropped, and the
heuristic's ``_weakest`` picks the least Endurance in one loop instead of ``min`` with a
key.  These tests hold both to the rule written out here, at every decision of fights of
every example played by the heuristic and at random (so every drop a fight makes is met,
before and after it is remembered).  (Checked once on broken copies: a memory keyed
without the items dropped, and a ``_weakest`` that kept the last of equals, each failed
here.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.core.encounter import Encounter
from fracas.core.policy import DecisionRequest, RandomPolicy, scenario_policies
from fracas.core.rng import SeededRng
from fracas.rules.one_ring import policies
from fracas.rules.one_ring.state import OneRingState
from fracas.scenario import load_scenario

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "one_ring").glob("*.yaml"))


def _load_by_the_rule(state: OneRingState, hero: str) -> int:
    """Armour and fatigue, plus the Load of every item the hero has not dropped."""
    card = state.roster.heroes[hero]
    dropped = state.heroes[hero].dropped
    return card.base_load + sum(load for item, load in card.item_loads.items()
                                if item not in dropped)


def _weakest_by_the_rule(state: OneRingState, names: list[str]) -> str:
    return min(names, key=lambda n: (state.heroes.get(n) or state.foes[n]).endurance)


@pytest.mark.parametrize("random_play", [False, True], ids=["heuristic", "random"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_remembered_loads_and_the_weakest_follow_the_rule(path: Path,
                                                          random_play: bool) -> None:
    scenario = load_scenario(path)
    ruleset = scenario.ruleset
    initial = ruleset.initial_state(scenario.model)
    dropped_seen = 0
    for seed in range(6):
        enc = Encounter(ruleset, initial, rng=SeededRng(seed), keep_log=False)
        own = scenario_policies(ruleset, enc.state)
        rng = SeededRng(seed).spawn("policy")
        for _ in range(400):
            actor = enc.current_actor()
            if actor is None:
                break
            state: OneRingState = enc.state
            for hero in state.heroes:
                assert state.load(hero) == _load_by_the_rule(state, hero), hero
                dropped_seen += bool(state.heroes[hero].dropped)
            names = [*state.heroes, *state.foes]
            for cut in range(1, len(names) + 1):
                assert policies._weakest(state, names[:cut]) == \
                    _weakest_by_the_rule(state, names[:cut])
                assert policies._weakest(state, names[-cut:]) == \
                    _weakest_by_the_rule(state, names[-cut:])
            policy = RandomPolicy() if random_play else own(actor)
            enc.apply(policy.choose(DecisionRequest(actor, state, ruleset, rng)))
    if random_play:
        assert dropped_seen > 0  # a hero dropped something: the memory met two keys
