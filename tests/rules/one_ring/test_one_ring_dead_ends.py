"""No hero is left holding the decision with nothing legal to do (found by the search policy)."""

from __future__ import annotations

from fracas.ai.duels import DUELS
from fracas.core.encounter import Encounter
from fracas.core.policy import DecisionRequest, RandomPolicy
from fracas.core.rng import SeededRng
from fracas.rules.one_ring.actions import Draw
from fracas.rules.one_ring.state import CLOSE_STANCES


def test_a_bow_drawn_in_close_combat_ends_the_turn_instead_of_stalling_it() -> None:
    scenario = DUELS["one_ring"].scenario()
    ruleset = scenario.ruleset
    drawn_in_close_combat = 0
    for seed in range(12):
        dice = SeededRng(seed)
        enc = Encounter(ruleset, ruleset.initial_state(scenario.model), rng=dice)
        policy_rng = dice.spawn("policy")
        while (actor := enc.current_actor()) is not None:
            assert enc.has_options(), f"seed {seed}: {actor} must decide but can do nothing"
            request = DecisionRequest(actor, enc.state, ruleset, policy_rng)
            action = RandomPolicy().choose(request)
            hero = enc.state.heroes.get(actor)
            bow_in_melee = isinstance(action, Draw) and action.weapon == "bow" and \
                hero is not None and hero.stance in CLOSE_STANCES
            enc.apply(action, checked=True)
            if bow_in_melee:
                drawn_in_close_combat += 1
    assert drawn_in_close_combat  # the situation really arose
