"""``run_chunk`` plays the same fights as one plain encounter a fight, and sums them alike.

The worker loop spares work around each fight: a fresh fight whose first automatic steps
roll no die starts from a copy of the state they reach (worked out once), one encounter
is restarted for every fight, and the policies that keep nothing of their own serve
every fight of a chunk.  Each test here plays the same fights the plain way, a new
``Encounter`` from the scenario's starting state and new policies per fight, as
``fracas run --seed`` plays one, and sums them with :meth:`ChunkSummary.note`; the two
summaries must agree count for count, in the same order, outcome code for outcome code.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from fracas.core.encounter import Encounter
from fracas.core.loop import play
from fracas.core.policy import scenario_policies
from fracas.core.rng import Rng, derive_seed, fight_streams, policy_stream
from fracas.rules.age_of_dragons.policies import ClawAllPolicy, HeuristicPolicy
from fracas.scenario import load_scenario, parse_scenario, start_encounter
from fracas.scenario.seats import with_policies
from fracas.sim.fights import (
    FightSpec,
    _holds_nothing,
    _Seats,
    _started,
    prepare,
    run_chunk,
    spec_from_log,
    spec_from_scenario,
)
from fracas.sim.stats import ChunkSummary
from fracas.sim.streams import AlignedRng
from shipped import EXAMPLES, SCENARIOS

CLAW = EXAMPLES / "age_of_dragons" / "claw_duel.yaml"


def plain_chunk(spec: FightSpec, seed: int, start: int, stop: int) -> ChunkSummary:
    """Fights ``start .. stop-1`` played one plain encounter each, and their summary."""
    prepared = prepare(spec)
    ruleset, initial = prepared.ruleset, prepared.state
    summary = ChunkSummary()
    for s in ruleset.standings(initial):
        summary.wins.setdefault(s.side, 0)
        summary.survived.setdefault(s.name, 0)
        summary.health.setdefault(s.name, {})
    for i in range(start, stop):
        fight_seed = derive_seed(seed, i)
        dice: Rng
        dice, policy_rng = fight_streams(fight_seed)
        if spec.aligned:
            dice, policy_rng = AlignedRng(fight_seed), policy_stream(fight_seed)
        enc = Encounter(ruleset, initial, rng=dice, keep_log=False, start=prepared.fresh)
        outcome = play(enc, scenario_policies(ruleset, enc.state), policy_rng,
                       max_decisions=spec.max_decisions)
        summary.fights += 1
        summary.note(outcome.winner if outcome else None, outcome is not None)
        if outcome is None:
            summary.unfinished += 1
        else:
            if outcome.winner is None:
                summary.draws += 1
            else:
                summary.wins[outcome.winner] = summary.wins.get(outcome.winner, 0) + 1
            summary.rounds[outcome.rounds] = summary.rounds.get(outcome.rounds, 0) + 1
        for s in ruleset.standings(enc.state):
            if s.standing:
                summary.survived[s.name] = summary.survived.get(s.name, 0) + 1
            hist = summary.health.setdefault(s.name, {})
            hist[s.health] = hist.get(s.health, 0) + 1
    return summary


def told(summary: ChunkSummary) -> tuple[Any, ...]:
    """Everything a summary holds, dicts as their items in order."""
    return (summary.fights, list(summary.wins.items()), summary.draws, summary.unfinished,
            list(summary.rounds.items()), list(summary.survived.items()),
            [(name, list(hist.items())) for name, hist in summary.health.items()],
            summary.fight_outcomes())


def assert_same_fights(spec: FightSpec, seed: int, fights: int) -> None:
    assert told(run_chunk(spec, seed, 3, 3 + fights)) == told(plain_chunk(spec, seed, 3,
                                                                          3 + fights))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_example_plays_the_same_fights(path: Path) -> None:
    fights = 40 if path == CLAW else 4
    assert_same_fights(spec_from_scenario(load_scenario(path)), 11, fights)


def test_random_policies_the_aligned_dice_and_a_continued_fight(tmp_path: Path) -> None:
    random_seats = spec_from_scenario(with_policies(load_scenario(CLAW), ["red=random"]))
    assert_same_fights(random_seats, 5, 30)  # a policy that draws, and one that does not
    aligned = dataclasses.replace(spec_from_scenario(load_scenario(CLAW)), aligned=True,
                                  key="aligned claw duel")
    assert_same_fights(aligned, 5, 30)
    log = tmp_path / "fight.jsonl"
    enc = start_encounter(load_scenario(CLAW), seed=9)
    enc.play(scenario_policies(enc.ruleset, enc.state), fight_streams(9)[1],
             max_decisions=6)
    enc.save(log)
    assert_same_fights(spec_from_log(log), 5, 30)  # not fresh: nothing advanced first


DUEL = """
ruleset: age_of_dragons
{aggressor}
combatants:
  - {{name: Ember, side: red, soma: 5, pd: 1, pr: 8, altitude: normal, policy: claw_all}}
  - {{name: Ash, side: blue, soma: 5, pd: 1, pr: 8, altitude: normal, policy: heuristic}}
ranges:
  - {{between: [Ember, Ash], range: close}}
"""


def test_first_steps_taken_once_only_when_they_roll_no_die() -> None:
    fixed = parse_scenario(DUEL.format(aggressor="aggressor: red"))
    contested = parse_scenario(DUEL.format(aggressor=""))  # initiative: a contested roll
    for scenario, rolls in ((fixed, False), (contested, True)):
        spec = spec_from_scenario(scenario)
        ruleset, initial = prepare(spec).ruleset, prepare(spec).state
        started = _started(ruleset, initial)
        assert (started is None) == rolls
        if started is not None:
            plain = Encounter(ruleset, initial, keep_log=False).state
            assert ruleset.state_key(started) == ruleset.state_key(plain)
            assert started.order == plain.order and started.turn == plain.turn
        assert_same_fights(spec, 2, 25)


def test_a_policy_keeps_nothing_when_it_has_no_attribute_of_its_own() -> None:
    assert _holds_nothing(ClawAllPolicy()) and not _holds_nothing(HeuristicPolicy())


@pytest.mark.source  # sets an attribute on a policy, which a compiled one has no room for
def test_a_policy_serves_further_fights_only_while_it_keeps_nothing() -> None:
    spec = spec_from_scenario(parse_scenario(DUEL.format(aggressor="aggressor: red")))
    ruleset, state = prepare(spec).ruleset, prepare(spec).state
    seats = _Seats.first(ruleset)
    seats.state = state
    claw, heuristic = seats["Ember"], seats["Ash"]
    assert type(claw) is ClawAllPolicy and type(heuristic) is HeuristicPolicy
    assert seats.next() is not seats  # the heuristic is made anew for each fight
    later = seats.next()
    later.state = state
    assert later["Ember"] is claw and later["Ash"] is not heuristic
    claw.note = "took something on"  # type: ignore[attr-defined]
    fresh = later.next()
    fresh.state = state
    assert fresh["Ember"] is not claw and type(fresh["Ember"]) is ClawAllPolicy
