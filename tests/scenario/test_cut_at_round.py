"""Cutting a saved fight at round N: just before that round's first decision, one message.

``simulate --from LOG --round N`` cuts with :func:`fracas.scenario.logs.cut_at_round`;
the exact odds from a saved fight (``fracas.odds.duel.state_from_log``) still cut with a
copy of their own, held to it here: the two must give the same position for every round.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.core.encounter import Encounter
from fracas.core.events import DecisionMade
from fracas.core.policy import scenario_policies
from fracas.core.rng import SeededRng
from fracas.odds.duel import state_from_log
from fracas.scenario import load_scenario
from fracas.scenario.logs import RoundNotInLogError, cut_at_round
from fracas.sim.fights import spec_from_log
from fracas_cli import run_fracas

DATA = Path(__file__).resolve().parents[1] / "sim" / "data"


def _played(decisions: int) -> Encounter:
    scenario = load_scenario(DATA / "toy_skirmish.yaml")
    rules = scenario.ruleset
    enc = Encounter(rules, rules.initial_state(scenario.model), rng=SeededRng(5),
                    header=scenario.header(5))
    enc.play(scenario_policies(rules, enc.state), SeededRng(6), max_decisions=decisions)
    return enc


def test_the_cut_is_just_before_the_first_decision_of_the_round() -> None:
    enc = _played(1000)
    rules, log = enc.ruleset, enc.log
    outcome = enc.outcome()
    assert outcome is not None and outcome.rounds >= 2
    for n in range(1, outcome.rounds + 1):
        state, kept = cut_at_round(rules, enc.initial_state, log, n, "fight")
        assert isinstance(log[kept], DecisionMade)
        assert rules.round_number(state) == n and rules.current_actor(state) is not None
        earlier = [i for i, e in enumerate(log[:kept]) if isinstance(e, DecisionMade)]
        # Every decision kept was made in an earlier round.
        replay = Encounter.replay(rules, enc.initial_state, list(log[:earlier[-1]])) \
            if earlier else None
        assert replay is None or rules.round_number(replay.state) < n
    assert rules.round_number(enc.initial_state) == 1  # the initial state is not changed


def test_a_log_that_stops_at_the_rounds_first_decision_is_cut_at_its_end() -> None:
    enc = _played(1000)
    rules = enc.ruleset
    state, kept = cut_at_round(rules, enc.initial_state, enc.log, 2, "fight")
    stopped = enc.log[:kept]
    again, at = cut_at_round(rules, enc.initial_state, stopped, 2, "fight")
    assert at == len(stopped) and rules.state_key(again) == rules.state_key(state)


def test_a_round_the_log_never_reaches_is_refused_saying_where_it_stops() -> None:
    short = _played(2)
    rules = short.ruleset
    with pytest.raises(RoundNotInLogError, match=r"fight: no decision of round 9 in this log "
                       r"\(the log stops in round 1\); give an earlier --round"):
        cut_at_round(rules, short.initial_state, short.log, 9, "fight")
    done = _played(1000)
    with pytest.raises(RoundNotInLogError, match="the fight ended in round"):
        cut_at_round(rules, done.initial_state, done.log, 999, "fight")
    with pytest.raises(RoundNotInLogError, match="--round must be 1 or more, got 0"):
        cut_at_round(rules, done.initial_state, done.log, 0, "fight")


def test_simulate_and_the_exact_odds_cut_a_saved_fight_at_the_same_place(
        tmp_path: Path) -> None:
    enc = _played(1000)
    path = tmp_path / "brawl.jsonl"
    enc.save(path)
    rules = enc.ruleset
    outcome = enc.outcome()
    assert outcome is not None
    for n in range(1, outcome.rounds + 1):
        state, kept = cut_at_round(rules, enc.initial_state, enc.log, n, str(path))
        _, solver_state, _ = state_from_log(path, n)
        assert rules.state_key(solver_state) == rules.state_key(state)
        assert len(spec_from_log(path, n).events) == kept


def test_simulate_from_a_round_past_the_log_says_so(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    enc = _played(2)
    path = tmp_path / "short.jsonl"
    enc.save(path)
    code, _, err = run_fracas(["simulate", "--from", str(path), "--round", "9", "-n", "5"],
                              capsys, flat=True)
    assert code == 2 and "no decision of round 9 in this log" in err
