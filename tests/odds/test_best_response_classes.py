"""The best-response solver reads a free side's dice as the rules do, not as its policy does.

``Ruleset.face_classes`` may lean on the fight's policies: Age of Dragons reads a
heuristic roller's pool only where the heuristic's turn can tell dice apart (a 5 merges
with a 4 unless a climb is worth making).  The best-response solver sets one side's choices
free, so a free roller might use a face its policy never would: it asks
``Ruleset.rule_face_classes`` instead, the classes of the rules alone.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from fracas.core.action import Action
from fracas.odds.best_response import best_response
from fracas.rules.age_of_dragons import odds
from fracas.rules.age_of_dragons.ruleset import AgeOfDragons
from fracas.scenario import load_scenario
from fracas.testing.walk import decisions

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"


def _as_if_random(state: Any, name: str) -> Any:
    """A copy of ``state`` where ``name`` plays a policy the classes know nothing of."""
    copy = state.copy()
    fighter = copy.fighters[name]
    fighter.profile = dataclasses.replace(fighter.profile, policy="random")
    return copy


@pytest.mark.parametrize("example", ["breath_duel", "aerial_2v2", "landmark_rock"])
def test_rule_classes_are_the_rules_whatever_the_policy(example: str) -> None:
    scenario = load_scenario(ROOT / "examples" / "age_of_dragons" / f"{example}.yaml")
    ruleset = scenario.ruleset
    initial = ruleset.initial_state(scenario.model)
    pools = coarser = 0
    for seed in range(3):
        for here in decisions(ruleset, initial, seed, limit=200):
            state = here.state
            turn = state.turn
            if turn is None or turn.step != "pool" or state.pending is not None \
                    or not state.order or state.fighters[turn.actor].dying:
                continue
            count = len(turn.pool) or 4
            rules = odds.rule_face_classes(state, count, 6)
            assert rules == odds.face_classes(_as_if_random(state, turn.actor), count, 6)
            pools += 1
            coarser += odds.face_classes(state, count, 6) != rules
    assert pools > 0
    if example == "breath_duel":
        assert coarser > 0  # the heuristic's own classes were coarser here


@pytest.mark.slow
def test_a_free_side_is_never_read_by_its_policy_s_classes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []

    def policy_classes(self: Any, state: Any, count: int, sides: int) -> Any:
        raise AssertionError("the best-response solver asked the policy-leaning classes")

    def rule_classes(self: Any, state: Any, count: int, sides: int) -> Any:
        asked.append(count)
        return odds.rule_face_classes(state, count, sides)

    monkeypatch.setattr(AgeOfDragons, "face_classes", policy_classes)
    monkeypatch.setattr(AgeOfDragons, "rule_face_classes", rule_classes)

    def strikes(state: Any, action: Action) -> bool:
        return action.verb in ("roll", "reroll", "defend", "end", "attack") or (
            action.verb == "spot" and getattr(action, "effect", None) in ("evade", "aim"))

    result = best_response(load_scenario(DATA / "claw_duel_tiny.yaml"), "red", allow=strikes)
    assert asked and result.best >= result.fixed
