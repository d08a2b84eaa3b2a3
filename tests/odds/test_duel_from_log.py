"""Solving from a saved fight: where its log ends, or from the start of a round."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from fracas.core.encounter import Encounter
from fracas.core.policy import scenario_policies
from fracas.core.rng import SeededRng
from fracas.odds import solve_duel
from fracas.odds.duel import DuelProgress, solve_from_log, solve_from_state, state_from_log
from fracas.scenario import load_scenario
from fracas.scenario.logs import RoundNotInLogError

DATA = Path(__file__).parent / "data"


def _played(tmp_path: Path, decisions: int) -> tuple[Path, Encounter]:
    scenario = load_scenario(DATA / "toy_brawl.yaml")
    rs = scenario.ruleset
    enc = Encounter(rs, rs.initial_state(scenario.model), rng=SeededRng(5),
                    header=scenario.header(5))
    pick = scenario_policies(rs, enc.state)
    enc.play(pick, SeededRng(6), max_decisions=decisions)
    path = tmp_path / "brawl.jsonl"
    enc.save(path)
    return path, enc


def test_from_where_the_log_ends_equals_solving_that_state(tmp_path: Path) -> None:
    path, enc = _played(tmp_path, 3)
    assert enc.current_actor() is not None
    from_log = solve_from_log(path)
    direct = solve_from_state(enc.ruleset, enc.state, started=True)
    assert from_log.sides == pytest.approx(direct.sides, abs=1e-15)


def test_from_round_one_is_the_whole_fight(tmp_path: Path) -> None:
    path, _ = _played(tmp_path, 6)
    whole = solve_duel(load_scenario(DATA / "toy_brawl.yaml"))
    assert solve_from_log(path, round_number=1).sides["red"] == \
        pytest.approx(whole.sides["red"], abs=1e-12)


def test_from_a_later_round_starts_at_its_first_decision(tmp_path: Path) -> None:
    path, _ = _played(tmp_path, 6)
    ruleset, state, started = state_from_log(path, 2)
    assert started
    assert ruleset.round_number(state) == 2
    assert ruleset.current_actor(state) == "Ash"  # the first to act each round
    odds = solve_from_log(path, round_number=2)
    assert odds.sides["red"] + odds.sides["blue"] == pytest.approx(1.0, abs=1e-12)


def test_a_round_the_log_never_reaches_is_refused_with_where_it_stops(tmp_path: Path) -> None:
    path, _ = _played(tmp_path, 2)
    with pytest.raises(RoundNotInLogError, match=r"no decision of round 9 .*log stops in round 2"):
        solve_from_log(path, round_number=9)
    with pytest.raises(RoundNotInLogError, match="--round must be 1 or more"):
        solve_from_log(path, round_number=0)


def test_an_ended_fight_is_certain(tmp_path: Path) -> None:
    path, enc = _played(tmp_path, 1000)
    outcome = enc.outcome()
    assert outcome is not None and outcome.winner is not None
    odds = solve_from_log(path)
    assert odds.sides[outcome.winner] == 1.0
    with pytest.raises(RoundNotInLogError, match="the fight ended in round"):
        solve_from_log(path, round_number=999)


def test_the_watch_callback_gets_counts_an_estimate_and_a_line() -> None:
    seen: list[DuelProgress] = []
    solve_duel(load_scenario(DATA / "toy_random_duel.yaml"), watch=seen.append)
    assert seen and seen[-1].done == seen[-1].found
    assert all(a.done <= b.done and a.seconds <= b.seconds for a, b in pairwise(seen))
    middle = [p for p in seen if p.done < p.found]
    assert middle and all(p.at_least is not None and p.at_least >= 0 for p in middle)
    assert "at least" in middle[0].line() and "states" in seen[-1].line()
