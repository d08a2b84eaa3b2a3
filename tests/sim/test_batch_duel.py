"""The batch path plays the engine's fights: fight for fight, on random duels it accepts.

``fracas.sim.batch.duel`` restates the Age of Dragons rules and the ``claw_all`` and
heuristic policies over arrays; this file is what keeps it the same rules. Hypothesis
draws duels of every shape the batch path accepts (Soma, the other spheres, Physical
Defence and Resilience, flight, altitude, range, aggressor, initiative sphere, round
limit, spot rule, policies) and a run seed; each fight is played by the engine, alone,
under its own fight seed, and must end as the batch path's fight with that seed ends: the
same winner, the same rounds, every combatant's health and standing. A change to either
side that the other does not follow fails here. Seen once on deliberately broken copies
of the batch path: with the heuristic's evasions adding no Physical Defence the random
duels failed at their first example; with a stunned combatant losing its turn on 1-3
instead of 1-2, the called-shot test below failed (fight 125 of its run).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.core.encounter import Encounter
from fracas.core.loop import play
from fracas.core.rng import derive_seed, fight_streams
from fracas.scenario import load_scenario, parse_scenario
from fracas.sim.batch import BatchExecutor, DuelFights, batch_refusal, play_batch, run_chunk_batch
from fracas.sim.executors import InlineExecutor
from fracas.sim.fights import FightSpec, _policies, prepare, run_chunk
from fracas.sim.runner import simulate_many, spec_from_scenario

ALTITUDES = ("grounded", "strafing_low", "normal", "flying_high", "ceiling")
RANGES = ("close", "middle", "long", "disengaged")


def _spec(data: dict[str, Any]) -> FightSpec:
    return spec_from_scenario(parse_scenario(json.dumps(data), "<hypothesis duel>"))


def _engine_fight(spec: FightSpec, seed: int, i: int) -> tuple[Any, ...]:
    """Fight ``i`` of a run as ``run_chunk`` plays it, told as (winner index, rounds,
    health, standing of each combatant)."""
    prepared = prepare(spec)
    dice, policy_rng = fight_streams(derive_seed(seed, i))
    enc = Encounter(prepared.ruleset, prepared.state, rng=dice, keep_log=False, start=True)
    outcome = play(enc, _policies(prepared.ruleset, enc.state), policy_rng,
                   max_decisions=spec.max_decisions)
    assert outcome is not None
    standings = prepared.ruleset.standings(enc.state)
    sides = [s.side for s in standings]
    winner = -1 if outcome.winner is None else sides.index(outcome.winner)
    return (winner, outcome.rounds, tuple(s.health for s in standings),
            tuple(s.status for s in standings),
            tuple(f.stunned for f in enc.state.fighters.values()))


def _batch_fight(fights: DuelFights, k: int) -> tuple[Any, ...]:
    status = fights.status()[k]
    return (int(fights.winner[k]), int(fights.rounds[k]), tuple(int(x) for x in fights.pr[k]),
            tuple(str(x) for x in status), tuple(bool(x) for x in fights.stunned[k]))


@st.composite
def duels(draw: st.DrawFn) -> dict[str, Any]:
    """A duel of a shape the batch path accepts."""
    policies = [draw(st.sampled_from(("claw_all", "heuristic"))) for _ in range(2)]
    fighters = []
    for name, side, policy in zip(("Ember", "Ash"), ("red", "blue"), policies, strict=True):
        flies = draw(st.booleans())
        altitude = "grounded"
        if "heuristic" not in policies and flies:
            altitude = draw(st.sampled_from(ALTITUDES))
        fighters.append({
            "name": name, "side": side, "policy": policy, "flies": flies,
            "altitude": altitude, "soma": draw(st.one_of(st.integers(1, 12), st.integers(13, 30))),
            "sophis": draw(st.integers(0, 5)), "pneuma": draw(st.integers(0, 5)),
            "pd": draw(st.integers(0, 6)), "pr": draw(st.integers(1, 40)),
        })
    return {
        "ruleset": "age_of_dragons", "name": "hypothesis duel", "combatants": fighters,
        "ranges": [{"between": ["Ember", "Ash"],
                    "range": draw(st.sampled_from(RANGES))}],
        "aggressor": draw(st.sampled_from((None, "red", "blue"))),
        "initiative_sphere": draw(st.sampled_from(("soma", "sophis", "pneuma"))),
        "max_rounds": draw(st.integers(1, 25)),
        "options": {"spot_consumes_dice": draw(st.booleans())},
    }


FIGHTS = 12


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(duel=duels(), seed=st.integers(-(2**40), 2**66), start=st.integers(0, 20_000))
def test_batch_fights_are_the_engines_fight_for_fight(duel: dict[str, Any], seed: int,
                                                      start: int) -> None:
    spec = _spec(duel)
    assert batch_refusal(spec) is None
    fights = play_batch(spec, seed, start, start + FIGHTS)
    for k in range(FIGHTS):
        assert _batch_fight(fights, k) == _engine_fight(spec, seed, start + k), \
            f"fight {start + k}"


def test_long_heuristic_duels_agree_past_one_generator_twist() -> None:
    """Far apart, hard to hurt and slow to close: fights that read hundreds of dice."""
    duel = {
        "ruleset": "age_of_dragons", "name": "long", "max_rounds": 40,
        "combatants": [
            {"name": "Ember", "side": "red", "soma": 10, "pd": 5, "pr": 60},
            {"name": "Ash", "side": "blue", "soma": 9, "pd": 6, "pr": 60, "flies": False},
        ],
        "default_range": "long",
    }
    spec = _spec(duel)
    fights = play_batch(spec, 11, 0, 40)
    assert int(fights.rounds.max()) >= 10
    for k in range(40):
        assert _batch_fight(fights, k) == _engine_fight(spec, 11, k)


def test_called_shots_stuns_and_kills_agree() -> None:
    """A heuristic with a huge pool against a tough claw_all: bites at the neck and head
    (kills with two sixes, a stun with one), a stunned claw_all losing turns."""
    duel = {
        "ruleset": "age_of_dragons", "name": "called shots", "max_rounds": 30,
        "combatants": [
            {"name": "Ember", "side": "red", "soma": 24, "pd": 0, "pr": 90},
            {"name": "Ash", "side": "blue", "soma": 12, "pd": 0, "pr": 200,
             "policy": "claw_all"},
        ],
        "ranges": [{"between": ["Ember", "Ash"], "range": "close"}],
    }
    spec = _spec(duel)
    fights = play_batch(spec, 5, 0, 3000)
    assert (fights.status()[:, 1] == "dead").any()
    # Every fight that saw a stun (rare: one six among a dozen hits), and a hundred more.
    stunned = np.flatnonzero(fights.stunned.any(axis=1))
    assert len(stunned) >= 10
    for k in [*stunned, *range(100)]:
        assert _batch_fight(fights, k) == _engine_fight(spec, 5, k), f"fight {k}"


def _claw_duel(**changes: Any) -> dict[str, Any]:
    duel: dict[str, Any] = {
        "ruleset": "age_of_dragons", "name": "claw duel", "aggressor": "red",
        "combatants": [
            {"name": "Ember", "side": "red", "soma": 9, "pr": 20, "policy": "claw_all"},
            {"name": "Ash", "side": "blue", "soma": 9, "pr": 20, "policy": "claw_all"},
        ],
        "ranges": [{"between": ["Ember", "Ash"], "range": "close"}],
    }
    duel.update(changes)
    return duel


def test_run_chunk_batch_is_run_chunk() -> None:
    spec = _spec(_claw_duel())
    assert run_chunk_batch(spec, 4, 100, 700) == run_chunk(spec, 4, 100, 700)


def test_the_batch_executor_gives_the_engines_report_and_falls_back() -> None:
    """Chunks of one run are played together, each summarised alone; a scenario the batch
    path refuses is played by the wrapped executor, and said once."""
    duel, brawl = _spec(_claw_duel()), _spec(_claw_duel(combatants=[
        *_claw_duel()["combatants"],
        {"name": "Cinder", "side": "blue", "soma": 5, "pr": 9, "policy": "claw_all"}]))
    batch = BatchExecutor(InlineExecutor())
    fast = simulate_many([duel, brawl], 250, 9, batch)
    slow = simulate_many([duel, brawl], 250, 9, InlineExecutor())
    for a, b in zip(fast, slow, strict=True):
        assert a.to_json(timing=False) == b.to_json(timing=False)
    assert batch.path(duel) == "batch" and batch.path(brawl) == "engine"
    said: list[str] = []
    batch.tell(said.append)
    batch.tell(said.append)
    assert len(said) == 1 and "1 of 2 variants" in said[0] and "3 combatants" in said[0]


def _fighter(name: str, side: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "side": side, "soma": 6, "pr": 12, "policy": "heuristic", **more}


REFUSED = {
    "three combatants": ({"combatants": [_fighter("A", "red"), _fighter("B", "blue"),
                                         _fighter("C", "blue")]}, "not 3 combatants"),
    "random policy": ({"combatants": [_fighter("A", "red", policy="random"),
                                      _fighter("B", "blue")]}, "plays random"),
    "a script": ({"combatants": [_fighter("A", "red", policy=["A end"]),
                                 _fighter("B", "blue")]}, "plays scripted"),
    "search": ({"combatants": [_fighter("A", "red", policy="search"),
                               _fighter("B", "blue")]}, "plays search"),
    "a reroll": ({"combatants": [_fighter("A", "red", resources={"luck": 3}, rerolls=[
        {"name": "lucky", "resource": "luck", "cost": 1}]), _fighter("B", "blue")]},
        "reroll ability"),
    "a ranged weapon": ({"combatants": [_fighter("A", "red", ranged=[{"name": "breath"}]),
                                        _fighter("B", "blue")]}, "ranged weapon"),
    "no Soma": ({"combatants": [_fighter("A", "red", soma=0), _fighter("B", "blue")]},
                "no Soma"),
    "a landmark": ({"combatants": [_fighter("A", "red"), _fighter("B", "blue")],
                    "landmarks": [{"name": "Rock"}]}, "landmarks"),
    "a task": ({"combatants": [_fighter("A", "red"), _fighter("B", "blue")],
                "tasks": [{"name": "gate", "difficulty": 2}]}, "tasks"),
    "a heuristic in the air": ({"combatants": [_fighter("A", "red", altitude="normal"),
                                               _fighter("B", "blue")]}, "on the ground"),
    "a claw_all flyer against a heuristic": (
        {"combatants": [_fighter("A", "red", altitude="normal", policy="claw_all"),
                        _fighter("B", "blue")]}, "on the ground"),
    "a round limit past the decision limit": (
        {"combatants": [_fighter("A", "red", soma=30), _fighter("B", "blue")],
         "max_rounds": 10_000}, "decision limit"),
}


def test_the_support_check_refuses_every_other_shape() -> None:
    for what, (changes, reason) in REFUSED.items():
        data = {"ruleset": "age_of_dragons", "name": what, **changes}
        why = batch_refusal(_spec(data))
        assert why is not None and reason in why, (what, why)


def test_a_continued_fight_and_other_rule_sets_fall_back() -> None:
    spec = _spec(_claw_duel())
    continued = FightSpec.make(prepare(spec).ruleset, spec.scenario, "log",
                               [{"type": "note", "text": "x"}])
    assert "fresh fights" in (batch_refusal(continued) or "")
    other = spec_from_scenario(load_scenario(Path(__file__).parent / "data" / "toy_duel.yaml"))
    assert "Age of Dragons duels" in (batch_refusal(other) or "")
