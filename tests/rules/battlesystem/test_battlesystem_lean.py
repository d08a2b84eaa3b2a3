"""The heuristic's lean decisions (``lean.heuristic_turns``) play the engine's fights exactly.

Where the play loop keeps no log and tells no listener it hands each decision to
:func:`fracas.rules.battlesystem.lean.heuristic_turns`, which takes the heuristic's
orders without a decision request.  These tests play every example, with the heuristic
alone and with some units (or the GM) on the random policy, both ways -- the engine
decision by decision (a listener keeps it off the lean path) and the lean way -- and
hold them to the same fights: the same final state, outcome, dice stream and number of
decisions, also when a decision limit cuts the fight short at any point.

Checked once against deliberately broken copies, each failing here: the lean way without
the automatic phases after a decision (``advance``), and the lean way counting one
decision too few per call.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from fracas.core.encounter import Encounter
from fracas.core.loop import play
from fracas.core.policy import Policy, RandomPolicy, scenario_policies
from fracas.core.rng import SeededRng
from fracas.core.ruleset import GM
from fracas.rules.battlesystem import lean
from fracas.scenario import load_scenario

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" /
                   "battlesystem").glob("*.yaml"))


def _fight(path: Path, seed: int, random_actors: frozenset[str], limit: int,
           lean_way: bool) -> tuple[Any, Any, Any, Any]:
    scenario = load_scenario(path)
    ruleset = scenario.ruleset
    enc: Encounter[Any] = Encounter(ruleset, ruleset.initial_state(scenario.model),
                                    rng=SeededRng(seed), keep_log=False)
    chosen = scenario_policies(ruleset, enc.state)
    chance = RandomPolicy()

    def pick(name: str) -> Policy:
        return chance if name in random_actors else chosen(name)

    listener = None if lean_way else (lambda _event, _state: None)
    outcome = play(enc, pick, SeededRng(seed).spawn("policy"), max_decisions=limit,
                   listener=listener)
    return enc.state, outcome, enc.rng._random.getstate(), len(enc.state.queue)  # type: ignore[attr-defined]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_lean_way_plays_the_engines_fights(path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = load_scenario(path)
    taken = [0]
    real = lean.heuristic_turns

    def counting(*args: Any) -> int:
        n = real(*args)
        taken[0] += n
        return n

    monkeypatch.setattr(type(scenario.ruleset), "lean_turns",
                        staticmethod(counting))
    rnd = random.Random(path.stem)
    actors = [*scenario.ruleset.initial_state(scenario.model).units, GM]
    for seed in range(12):
        random_actors = frozenset(a for a in actors if seed % 3 and rnd.random() < 0.3)
        limit = rnd.choice((1, 2, 5, 17, 40, 20_000, 20_000, 20_000))
        engine = _fight(path, seed, random_actors, limit, lean_way=False)
        before = taken[0]
        leaned = _fight(path, seed, random_actors, limit, lean_way=True)
        assert engine[0] == leaned[0], (seed, limit, random_actors)
        assert engine[1:] == leaned[1:], (seed, limit, random_actors)
        if not random_actors:
            assert taken[0] > before  # the lean way was taken
    assert taken[0] > 0
