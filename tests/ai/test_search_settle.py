"""When a decision stops spending rollouts, what a draw is worth, and a match's score.

The race is played here on rollouts whose scores are set by hand (each candidate's
k-th rollout scores what its list says), so every stop is exact and nothing is timed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import pytest

from fracas.ai import SearchBudget, SearchTuning, evaluate
from fracas.ai.duels import DUELS
from fracas.ai.match import MatchResult, mirror_match, normal_interval
from fracas.ai.search.race import LEAST_GAIN, REACH, _out_of_reach, race
from fracas.ai.search.rollouts import Rollouts
from fracas.ai.search.tree import Candidate
from fracas.core.action import Action
from toy_ruleset import Toy, ToyScenario, Wait


class _Scripted:
    """Stands in for :class:`Rollouts`: a candidate's k-th rollout scores ``score(c, k)``."""

    def __init__(self, score: Callable[[Candidate, int], float]) -> None:
        self.score = score
        self.played = 0

    def play(self, candidate: Candidate) -> None:
        candidate.results.append(self.score(candidate, len(candidate.results)))
        self.played += 1


def _moves() -> tuple[Candidate, Candidate]:
    keep = Candidate(("wait",), cast(Action, Wait("Ash")))
    rival = Candidate(("wait", "again"), cast(Action, Wait("Ash")))
    return keep, rival


def _race(score: Callable[[Candidate, int], float], rollouts: int, **kwargs: Any) -> int:
    """Rollouts the race played between the heuristic's move and one rival."""
    keep, rival = _moves()
    scripted = _Scripted(score)
    race(cast(Rollouts, scripted), [keep, rival], SearchBudget(rollouts=rollouts, ms=None),
         2.0, None, keep, **kwargs)
    return scripted.played


def test_two_moves_that_score_alike_settle_once_no_gain_worth_having_is_left() -> None:
    alike = lambda c, k: 0.5  # noqa: E731
    assert _race(alike, 1000) == 1000  # without a least gain the race runs its budget
    settled = _race(alike, 1000, least_gain=LEAST_GAIN)
    # Equal scores on every seed: the lead is 0 and its error 1/(2n), so the rival's
    # plausible lead (2 errors) falls below 0.02 once each has played more than 50.
    assert settled == 2 * 52


def test_a_rival_that_cannot_be_shown_better_in_the_rollouts_left_stops_the_race() -> None:
    def noisy(c: Candidate, k: int) -> float:  # the rival wins or loses what keep draws
        return 0.5 if c.chosen == ("wait",) else float(k % 2)

    assert _race(noisy, 40) == 40
    # After 6 pairs: lead 0 and error 0.22; with 28 rollouts left (14 each) the error
    # would shrink to 0.12, and one error of optimism (0.22) is short of 2 x 0.12.
    assert _race(noisy, 40, reach=1.0) == 12
    # Two errors of optimism: the rival is still in reach there (and the race runs on).
    assert _race(noisy, 40, reach=2.0) > 12


def test_out_of_reach_needs_a_limit_and_pairs() -> None:
    keep, rival = _moves()
    keep.results, rival.results = [0.5] * 6, [1.0, 0.0] * 3
    assert not _out_of_reach(keep, [rival], 2.0, None)  # no limit: anything may come
    assert not _out_of_reach(keep, [rival], 2.0, 10_000)  # room enough to show it
    assert _out_of_reach(keep, [rival], 2.0, 28)
    rival.results = [1.0, 1.0]  # too few pairs to judge
    assert not _out_of_reach(keep, [rival], 2.0, 0)


def test_a_drawn_rollout_scores_what_a_draw_is_worth() -> None:
    rules = Toy()
    state = rules.initial_state(ToyScenario(ruleset="toy", fighters=[
        {"name": "Ash", "side": "a", "hp": 3}, {"name": "Bo", "side": "b", "hp": 3}]))
    state.result = (None, "both down")
    assert evaluate(rules, state, "a") == 0.5
    assert evaluate(rules, state, "a", draw=0.25) == 0.25


def test_the_tuning_refuses_a_least_gain_or_a_draw_out_of_range() -> None:
    assert (SearchTuning().least_gain, SearchTuning().reach, SearchTuning().draw) == \
        (LEAST_GAIN, REACH, 0.5)
    with pytest.raises(ValueError, match="reach"):
        SearchTuning(reach=-1)
    with pytest.raises(ValueError, match="least gain"):
        SearchTuning(least_gain=-0.1)
    with pytest.raises(ValueError, match="a draw scores"):
        SearchTuning(draw=1.5)


def test_the_score_counts_a_draw_as_half_and_its_interval_is_over_seeds() -> None:
    res = MatchResult(fights=4, wins=2, draws=2, pair_scores=[1.0, 0.5])
    assert res.rate == 0.5 and res.score == 0.75
    # Two seeds, 1 and 1/2: mean 0.75, standard error 0.25, so 0.75 +- 0.49, cut at 1.
    assert res.score_interval == pytest.approx((0.26, 1.0))
    assert normal_interval([0.5] * 5) == (0.5, 0.5)
    assert normal_interval([]) == (0.0, 1.0)


def test_a_policy_against_itself_scores_exactly_half_on_every_seed() -> None:
    duel = DUELS["adnd"]
    scenario = duel.scenario()
    rules = scenario.ruleset
    heuristic = lambda a: rules.policy("heuristic", a, {})  # noqa: E731
    result = mirror_match(rules, rules.initial_state(scenario.model), heuristic, heuristic,
                          range(4))
    assert result.pair_scores == [0.5] * 4
    assert result.score == 0.5
