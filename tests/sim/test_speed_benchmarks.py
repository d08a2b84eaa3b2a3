"""The speed benchmarks' own pieces: the hand-written claw duel plays the engine's fights,
and the growth scenarios are valid fights of every rule set (nothing here is timed)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from fracas.core.encounter import Encounter
from fracas.core.loop import play
from fracas.core.policy import scenario_policies
from fracas.core.rng import fight_streams
from fracas.core.ruleset import find_ruleset
from fracas.scenario import build_initial_state

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import growth
import hand_duel


def test_the_hand_loop_plays_the_engines_claw_duels_fight_by_fight() -> None:
    assert hand_duel.check(7, 150) == 0


def test_a_hand_loop_that_rolls_otherwise_is_caught() -> None:
    mine: list[Any] = []
    numbers = dict(hand_duel.duel_numbers())
    numbers["soma"] = tuple(s - 1 for s in numbers["soma"])  # one die short: other fights
    hand_duel.hand_fights(7, 0, 40, numbers, mine)
    theirs = hand_duel.engine_results(7, 40)
    assert sum(a != b for a, b in zip(mine, theirs, strict=True)) > 0


@pytest.mark.parametrize("ruleset", growth.RULESETS)
@pytest.mark.parametrize("n", [2, 7, 60])
def test_a_growth_scenario_is_a_fight_of_n_that_plays(ruleset: str, n: int) -> None:
    rules = find_ruleset(ruleset)
    initial = build_initial_state(rules, growth.scenario(ruleset, n), f"growth {n}")
    assert len(rules.standings(initial)) == n
    dice, policy_rng = fight_streams(3)
    enc = Encounter(rules, initial, rng=dice, keep_log=False)
    play(enc, scenario_policies(rules, enc.state), policy_rng, max_decisions=40)
    assert len(rules.standings(enc.state)) == n
