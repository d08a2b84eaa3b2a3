"""The lean ``claw_all`` turns (``lean.claw_turns``) play the engine's fights exactly.

Where the play loop keeps no log and tells no listener it hands a plain ``claw_all`` turn
to :func:`fracas.rules.age_of_dragons.lean.claw_turns`, which changes the state as the
turn's decisions and events would.  These tests play random scenarios (two to five
combatants, ``claw_all`` mixed with the heuristic, every altitude and range, Physical
Defence or none, short round limits, tasks that keep a turn open) both
ways -- the engine decision by decision (a listener keeps it off the lean path) and the
lean way -- and hold them to the same fights: the same final state, outcome and dice
stream, also when a decision limit cuts the fight short at any point.

Two-dragon ``claw_all`` duels, which the lean way plays to the end in a few local
variables (``lean._duel``), are played the same way on their own random set-ups.

Checked once against deliberately broken copies, each failing here: the lean turn
without the foe's Physical Defence decision counted (a limit cut elsewhere); the end
phase passed over a falling combatant (a different state); the lean turn taking a
turn whose foe spends Physical Defence by the heuristic; the lean duel without the foe's
Physical Defence decision counted, and without the round limit tested at a round's end;
the lean duel counting a roll's 4+ dice at another edge (``least_draw``), and without
the end of a round's resets of a dragon that fell before the duel began.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from fracas.core.encounter import Encounter
from fracas.core.loop import play
from fracas.core.policy import scenario_policies
from fracas.core.rng import SeededRng, derive_seed, fight_streams
from fracas.rules.age_of_dragons.state import AgeOfDragonsState

sys.path.insert(0, str(Path(__file__).parent))
from aod_helpers import RULESET, scenario_state

ALTITUDES = ("grounded", "strafing_low", "normal", "flying_high", "ceiling")
RANGES = ("zero", "close", "close", "close", "middle", "long", "disengaged")


def _scenario(rnd: random.Random) -> dict[str, Any]:
    n = rnd.randint(2, 5)
    sides = ["red", "blue"] + [rnd.choice(("red", "blue", "green")) for _ in range(n - 2)]
    combatants = []
    for i, side in enumerate(sides):
        flies = rnd.random() < 0.8
        combatants.append({
            "name": f"D{i}", "side": side, "soma": rnd.choice((0, 1, 3, 6, 9, 12)),
            "pd": rnd.choice((0, 0, 0, 1, 3)), "pr": rnd.choice((1, 4, 12, 20, 30)),
            "altitude": rnd.choice(ALTITUDES) if flies else "grounded", "flies": flies,
            "policy": "claw_all" if rnd.random() < 0.75 else "heuristic"})
    names = [c["name"] for c in combatants]
    ranges = [{"between": [a, b], "range": rnd.choice(RANGES)}
              for j, a in enumerate(names) for b in names[j + 1:] if rnd.random() < 0.7]
    ranges = [r for r in ranges if r["range"] != "zero"]  # zero range is a grapple's
    extra: dict[str, Any] = {"ranges": ranges, "max_rounds": rnd.choice((1, 3, 10, 100)),
                             "default_range": rnd.choice(("close", "middle"))}
    if rnd.random() < 0.3:
        extra["aggressor"] = None
    if rnd.random() < 0.2:
        extra["tasks"] = [{"name": "gate", "difficulty": 2, "threshold": 3}]
    return {"combatants": combatants, **extra}


def _play(initial: AgeOfDragonsState, seed: int, lean: bool,
          max_decisions: int) -> tuple[Any, AgeOfDragonsState, Any]:
    dice, policy_rng = fight_streams(seed)
    enc = Encounter(RULESET, initial, rng=dice, keep_log=False)
    listener = None if lean else (lambda event, state: None)  # a listener: no lean path
    outcome = play(enc, scenario_policies(RULESET, enc.state), policy_rng,
                   max_decisions=max_decisions, listener=listener)
    return outcome, enc.state, dice._random.getstate()


@pytest.mark.parametrize("case", range(40))
def test_the_lean_turns_play_the_engine_s_fights(case: int) -> None:
    rnd = random.Random(f"lean {case}")
    data = _scenario(rnd)
    initial = scenario_state(data.pop("combatants"), **data)
    for fight in range(12):
        seed = derive_seed(case, fight)
        limit = rnd.choice((1_000_000, rnd.randint(1, 12), rnd.randint(1, 80)))
        engine = _play(initial, seed, False, limit)
        lean = _play(initial, seed, True, limit)
        assert lean[0] == engine[0], f"fight {fight}: outcome {lean[0]} != {engine[0]}"
        assert lean[1] == engine[1], f"fight {fight} (limit {limit}): the states part"
        assert lean[2] == engine[2], f"fight {fight}: the dice streams part"


def _duel(rnd: random.Random) -> dict[str, Any]:
    """Two ``claw_all`` dragons at close quarters, mostly flying free (the lean duel)."""
    altitude = rnd.choice(("strafing_low", "normal", "flying_high", "ceiling"))
    combatants = [{
        "name": name, "side": side, "soma": rnd.choice((1, 2, 5, 9, 14)),
        "pd": rnd.choice((0, 0, 1, 4)), "pr": rnd.choice((1, 6, 20, 45)),
        "altitude": altitude if rnd.random() < 0.9 else "grounded",
        "policy": "claw_all"} for name, side in (("Ember", "red"), ("Ash", "blue"))]
    extra: dict[str, Any] = {"max_rounds": rnd.choice((1, 2, 5, 100))}
    if rnd.random() < 0.3:
        extra["aggressor"] = None
    return {"combatants": combatants, **extra}


@pytest.mark.parametrize("case", range(30))
def test_the_lean_duel_plays_the_engine_s_fights(case: int) -> None:
    rnd = random.Random(f"lean duel {case}")
    data = _duel(rnd)
    initial = scenario_state(data.pop("combatants"), **data)
    for fighter in initial.fighters.values():
        if rnd.random() < 0.25:  # it chose to fall last round: its count ends this round
            fighter.falling_rounds = rnd.choice((1, 2))
    for fight in range(12):
        seed = derive_seed(case, fight, "duel")
        limit = rnd.choice((1_000_000, rnd.randint(1, 12), rnd.randint(1, 80)))
        engine = _play(initial, seed, False, limit)
        lean = _play(initial, seed, True, limit)
        assert lean[0] == engine[0], f"fight {fight}: outcome {lean[0]} != {engine[0]}"
        assert lean[1] == engine[1], f"fight {fight} (limit {limit}): the states part"
        assert lean[2] == engine[2], f"fight {fight}: the dice streams part"


def test_the_lean_path_is_taken() -> None:
    """The claw duel's turns do go the lean way (else the test above proves nothing)."""
    from fracas.rules.age_of_dragons import lean

    taken: list[int] = []
    real = lean.claw_turns

    def counting(*args: Any) -> int:
        got = real(*args)
        taken.append(got)
        return got

    path = Path(__file__).resolve().parents[3] / "examples" / "age_of_dragons" / \
        "claw_duel.yaml"
    from fracas.scenario import load_scenario

    initial = RULESET.initial_state(load_scenario(path).model)
    rs = type(RULESET)()
    rs.lean_turns = counting  # type: ignore[method-assign]  # this rule set only
    enc = Encounter(rs, initial, rng=SeededRng(1), keep_log=False)
    assert play(enc, scenario_policies(rs, enc.state), SeededRng(2)) is not None
    assert sum(taken) > 10
