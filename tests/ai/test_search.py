"""The search policy: legal picks the engine applies unchecked, reproducible with a rollout
budget, better than a poor heuristic, and seat-swapped matches that are fair by design."""

from __future__ import annotations

import time
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from fracas.ai import SearchBudget, SearchPolicy, SearchTuning, evaluate, search_policy, side_of
from fracas.ai.duels import DUELS
from fracas.ai.match import mirror_match, wilson
from fracas.ai.search import DEFAULT_TURN_MS, paired, play_on
from fracas.ai.search.rollouts import distinct
from fracas.ai.search.tree import Candidate, candidates
from fracas.core.encounter import Encounter
from fracas.core.loop import take_decision
from fracas.core.policy import DecisionRequest, Policy
from fracas.core.rng import SeededRng
from fracas.core.ruleset import Action
from fracas.scenario import load_scenario
from toy_ruleset import Strike, Toy, ToyScenario, ToyState, Wait

ROOT = Path(__file__).resolve().parents[2]


class _AlwaysWait:
    def choose(self, request: DecisionRequest) -> Action:
        return Wait(request.actor)


class PassiveToy(Toy):
    """The toy rules with a poor heuristic: it never strikes."""

    def policy(self, name: str, actor: str, options: Mapping[str, Any]) -> Policy:
        if name == "heuristic":
            return _AlwaysWait()
        return super().policy(name, actor, options)


def _toy(hp: int = 6, max_rounds: int = 6) -> tuple[PassiveToy, ToyState]:
    rules = PassiveToy()
    model = ToyScenario(ruleset="toy", max_rounds=max_rounds, fighters=[
        {"name": "Ash", "side": "a", "hp": hp}, {"name": "Bo", "side": "b", "hp": hp}])
    return rules, rules.initial_state(model)


def _budget(rollouts: int) -> SearchBudget:
    return SearchBudget(rollouts=rollouts, ms=None)


def test_search_strikes_where_the_heuristic_only_waits() -> None:
    rules, state = _toy()
    enc = Encounter(rules, state, rng=SeededRng(1))
    request = enc.request(SeededRng(2))
    assert _AlwaysWait().choose(request).verb == "wait"
    policy = SearchPolicy(rules, _budget(100))
    action = policy.choose(request)
    assert action.verb == "strike"
    assert request.vetted(action)  # picked from the offered steps: the engine skips the check
    assert 0 < policy.last_rollouts <= 100


def test_search_beats_the_passive_heuristic_in_seat_swapped_fights() -> None:
    rules, state = _toy(hp=3)  # one strike in two thirds fells a fighter
    result = mirror_match(rules, state, lambda a: SearchPolicy(rules, _budget(16)),
                          lambda a: rules.policy("heuristic", a, {}), range(5))
    assert result.fights == 10
    assert result.wins == 10


def test_same_budget_and_seed_give_the_same_choice() -> None:
    scenario = load_scenario(ROOT / "examples/age_of_dragons/aerial_2v2.yaml")
    rules = scenario.ruleset
    picks = []
    for _ in range(2):
        enc = Encounter(rules, rules.initial_state(scenario.model), rng=SeededRng(4))
        policy = SearchPolicy(rules, _budget(12), seed=3)
        picks.append([policy.choose(enc.request(SeededRng(5)))])
    assert picks[0] == picks[1]


@pytest.mark.parametrize("ruleset", sorted(DUELS))
def test_every_duel_plays_to_the_end_with_search_on_one_side(ruleset: str) -> None:
    duel = DUELS[ruleset]
    scenario = duel.scenario()
    rules = scenario.ruleset
    state = rules.initial_state(scenario.model)
    result = mirror_match(
        rules, state, lambda a: SearchPolicy(rules, _budget(2), side=duel.gm_side),
        lambda a: rules.policy("heuristic", a, {}), range(1), gm_side=duel.gm_side)
    assert result.fights + len(result.stuck) == 2
    assert result.moves


def test_a_referee_gm_plays_the_heuristic_without_searching() -> None:
    scenario = load_scenario(ROOT / "examples/adnd/bridge_duel.yaml")
    rules = scenario.ruleset
    enc = Encounter(rules, rules.initial_state(scenario.model), rng=SeededRng(0))
    while enc.current_actor() != "gm":
        request = enc.request(SeededRng(1))
        enc.apply(rules.policy("heuristic", request.actor, {}).choose(request))
    policy = SearchPolicy(rules, _budget(50))
    request = enc.request(SeededRng(1))
    expected = rules.policy("heuristic", "gm", {}).choose(enc.request(SeededRng(1)))
    assert policy.choose(request) == expected
    assert policy.last_rollouts == 0


def test_evaluate_scores_the_end_and_the_health_lead() -> None:
    rules, state = _toy()
    assert evaluate(rules, state, "a") == 0.5
    state.hp["Bo"] = 0
    state.result = ("a", "one side left")
    assert evaluate(rules, state, "a") == 1.0
    assert evaluate(rules, state, "b") == 0.0
    scenario = load_scenario(ROOT / "examples/adnd/bridge_duel.yaml")
    start = scenario.ruleset.initial_state(scenario.model)
    assert evaluate(scenario.ruleset, start, "paladin") == pytest.approx(0.5)
    assert side_of(scenario.ruleset, start, "Vesk") == "assassins"
    assert side_of(scenario.ruleset, start, "gm") is None


def test_a_policy_against_itself_wins_exactly_half_of_the_decided_fights() -> None:
    duel = DUELS["adnd"]
    scenario = duel.scenario()
    rules = scenario.ruleset
    heuristic = lambda a: rules.policy("heuristic", a, {})  # noqa: E731
    result = mirror_match(rules, rules.initial_state(scenario.model), heuristic, heuristic,
                          range(6))
    assert 2 * result.wins == result.fights - result.draws


def test_search_policy_reads_its_settings_and_refuses_an_empty_budget() -> None:
    rules, _ = _toy()
    p = search_policy(rules, "Ash", {"rollouts": 7, "horizon": 9, "side": "a", "seed": 2})
    assert p.budget == SearchBudget(rollouts=7, ms=None, horizon=9, turn_ms=None, clock="wall")
    assert p.side == "a"
    default = search_policy(rules, "Ash").budget  # time: at most a CPU second a turn
    assert default == SearchBudget() and default.rollouts is None
    assert (default.turn_ms, default.clock) == (DEFAULT_TURN_MS, "cpu")
    assert search_policy(rules, "Ash", {"ms": 150}).budget.ms == 150.0
    assert search_policy(rules, "Ash", {"ms": 150, "clock": "cpu"}).budget.clock == "cpu"
    with pytest.raises(ValueError, match="rollouts, milliseconds or both"):
        SearchBudget(rollouts=None, ms=None)
    with pytest.raises(ValueError, match="horizon"):
        SearchBudget(horizon=0)


def test_wilson_interval() -> None:
    low, high = wilson(70, 100)
    assert 0.60 < low < 0.61 and 0.78 < high < 0.79
    assert wilson(0, 0) == (0.0, 1.0)


class _AlwaysStrike:
    def choose(self, request: DecisionRequest) -> Action:
        foe = next(n for n in request.state.names
                   if request.state.sides[n] != request.state.sides[request.actor])
        return Strike(request.actor, foe)


def test_keyed_rollouts_meet_the_same_luck_whatever_the_first_move() -> None:
    """Bo's blow rolls the same die after Ash's strike or wait: keyed dice per decision."""
    rules = Toy()
    model = ToyScenario(ruleset="toy", max_rounds=6, fighters=[
        {"name": "Ash", "side": "a", "hp": 30}, {"name": "Bo", "side": "b", "hp": 30}])
    striker = _AlwaysStrike()
    same = 0
    for seed in range(20):
        hurt = []
        for first in (Strike("Ash", "Bo"), Wait("Ash")):
            state = rules.initial_state(model)
            rng = SeededRng(seed)
            take_decision(rules, state, first, rng, partial(rules.apply_event, state))
            play_on(rules, state, rng, lambda a: striker, 1, keyed=seed)
            hurt.append(30 - state.hp["Ash"])
        assert hurt[0] == hurt[1]
        unkeyed = []
        for first in (Strike("Ash", "Bo"), Wait("Ash")):
            state = rules.initial_state(model)
            rng = SeededRng(seed)
            take_decision(rules, state, first, rng, partial(rules.apply_event, state))
            play_on(rules, state, rng, lambda a: striker, 1)
            unkeyed.append(30 - state.hp["Ash"])
        same += unkeyed[0] == unkeyed[1]
    assert same < 20  # one shared stream: the strike's die shifts Bo's


def test_paired_difference_and_its_error() -> None:
    a, b = Candidate(("x",), Wait("Ash")), Candidate(("y",), Wait("Ash"))
    a.results, b.results = [1.0, 1.0, 0.0, 1.0], [0.0, 1.0, 0.0, 0.0, 1.0]
    lead, err, n = paired(a, b)
    assert n == 4 and lead == pytest.approx(0.5)
    assert 0 < err < 0.5
    assert paired(a, Candidate(("z",), Wait("Ash"))) == (0.0, 1.0, 0)


def test_every_search_move_in_a_duel_is_legal_and_replays_the_same() -> None:
    duel = DUELS["one_ring"]
    scenario = duel.scenario()
    rules = scenario.ruleset
    moves: list[list[Action]] = []
    for _ in range(2):
        enc = Encounter(rules, rules.initial_state(scenario.model), rng=SeededRng(11))
        policy = SearchPolicy(rules, _budget(6), side=duel.gm_side, seed=1)
        heuristic = rules.policy("heuristic", "gm", {})
        rng = SeededRng(12)
        played: list[Action] = []
        while enc.current_actor() is not None and len(played) < 40:
            request = enc.request(rng)
            chooser = heuristic if request.actor == "gm" else policy
            action = chooser.choose(request)
            assert enc.is_legal(action)
            enc.apply(action)
            played.append(action)
        moves.append(played)
    assert moves[0] == moves[1]


class StrikingToy(Toy):
    """The toy rules with a heuristic that always strikes (the right move)."""

    def policy(self, name: str, actor: str, options: Mapping[str, Any]) -> Policy:
        if name == "heuristic":
            return _AlwaysStrike()
        return super().policy(name, actor, options)


def test_a_settled_decision_stops_early_and_keeps_the_heuristics_move() -> None:
    rules = StrikingToy()
    model = ToyScenario(ruleset="toy", max_rounds=6, fighters=[
        {"name": "Ash", "side": "a", "hp": 3}, {"name": "Bo", "side": "b", "hp": 3}])
    enc = Encounter(rules, rules.initial_state(model), rng=SeededRng(1))
    request = enc.request(SeededRng(2))
    policy = SearchPolicy(rules, _budget(200))
    action = policy.choose(request)
    assert action.verb == "strike"
    assert policy.last_rollouts < 200  # waiting fell clearly behind: the rest is kept


def test_moves_that_leave_the_same_state_count_once() -> None:
    rules, state = _toy()
    enc = Encounter(rules, state, rng=SeededRng(1))
    request = enc.request(SeededRng(2))
    wait, again, strike = (Candidate(("wait",), Wait("Ash")),
                           Candidate(("wait", "again"), Wait("Ash")),
                           Candidate(("strike", "Bo"), Strike("Ash", "Bo")))
    assert distinct(rules, request, [wait, again, strike], 7) == [wait, strike]
    assert distinct(rules, request, [wait, again], 7) == [wait]


def test_a_cpu_clock_budget_is_accepted_and_an_unknown_clock_refused() -> None:
    """The CPU clock is the process's CPU time (so a busy machine does not eat the budget)."""
    cpu, wall = SearchBudget(ms=100, clock="cpu"), SearchBudget(ms=100, clock="wall")
    before = time.process_time()
    read = cpu.now()
    assert before <= read <= time.process_time()
    before = time.perf_counter()
    read = wall.now()
    assert before <= read <= time.perf_counter()
    # Asleep, the wall clock runs on and the CPU clock all but stands still.
    cpu_start, wall_start = cpu.now(), wall.now()
    time.sleep(0.2)
    assert wall.now() - wall_start >= 0.19 > 4 * (cpu.now() - cpu_start)
    with pytest.raises(ValueError, match="clock"):
        SearchBudget(clock="sundial")


def test_search_judges_the_worn_down_heros_stance_by_play_that_does_not_flee() -> None:
    """One Ring duel, seed 0, round 5: Hirgon (11 of 26 Endurance) against the chieftain
    (10 of 20), and the heuristic stays Defensive.  Followed by the heuristic as it is,
    Defensive wins about one fight in ten, because the hero soon escapes (a fight not
    won), and the search leaves it for Forward.  Followed by the heuristic played for the
    win (the search's default for its own side) it wins more than half: the search keeps it.
    """
    from fracas.core.rng import fight_streams

    duel = DUELS["one_ring"]
    scenario = duel.scenario()
    rules = scenario.ruleset
    dice, stream = fight_streams(0)
    enc = Encounter(rules, rules.initial_state(scenario.model), rng=dice, keep_log=False)
    while True:
        actor = enc.current_actor()
        assert actor is not None
        action = rules.policy("heuristic", actor, {}).choose(enc.request(stream))
        if actor == "Hirgon" and action.verb == "stance" and rules.round_number(enc.state) == 5:
            break
        enc.apply(action)
    assert action.stance == "defensive"  # type: ignore[attr-defined]
    fleeing = SearchPolicy(rules, _budget(64), seed=1,
                           tuning=SearchTuning(to_win=False))
    request = enc.request(SeededRng(3))
    pick = fleeing.choose(request)
    assert pick.verb == "stance" and pick.stance == "forward"  # type: ignore[attr-defined]
    assert request.vetted(pick)
    assert fleeing.last_candidates[0].mean() < 0.2  # Defensive, then an escape
    fighting = SearchPolicy(rules, _budget(64), seed=1)
    pick = fighting.choose(enc.request(SeededRng(3)))
    assert pick.stance == "defensive"  # type: ignore[attr-defined]
    assert fighting.last_candidates[0].mean() > 0.5


def test_halving_strikes_where_the_heuristic_only_waits_within_its_budget() -> None:
    rules, state = _toy()
    enc = Encounter(rules, state, rng=SeededRng(1))
    request = enc.request(SeededRng(2))
    policy = SearchPolicy(rules, _budget(60), tuning=SearchTuning(allocation="halving"))
    action = policy.choose(request)
    assert action.verb == "strike"
    assert request.vetted(action)
    assert 0 < policy.last_rollouts <= 60


def test_halving_gives_the_last_moves_standing_most_of_the_rollouts() -> None:
    """AD&D wall duel, the first decision with more than two moves: the worse half of the
    moves drops out after a round, so the heuristic's move (always kept) and the best
    rival end with the most seeds."""
    from fracas.core.rng import fight_streams

    scenario = DUELS["adnd"].scenario()
    rules = scenario.ruleset
    dice, stream = fight_streams(3)
    enc = Encounter(rules, rules.initial_state(scenario.model), rng=dice, keep_log=False)
    policy = SearchPolicy(rules, _budget(120), tuning=SearchTuning(
        allocation="halving", plans=False, margin=50))
    for _ in range(40):
        enc.apply(policy.choose(enc.request(stream)))
        cands = policy.last_candidates
        if len(cands) > 2:
            break
    assert len(cands) > 2
    assert policy.last_rollouts <= 120
    counts = sorted((len(c.results) for c in cands), reverse=True)
    assert len(cands[0].results) == counts[0]  # the heuristic's move stays to the end
    assert counts[-1] < counts[0]  # something dropped out early
    assert counts[1] == counts[0]  # ... and one rival ran to the end beside it


def test_an_unknown_allocation_is_refused() -> None:
    rules, _ = _toy()
    with pytest.raises(ValueError, match="race, halving"):
        SearchTuning(allocation="lottery")
    assert search_policy(rules, "Ash", {"allocation": "halving"}).tuning.allocation == "halving"


def _first_decision(verb: str, seed: int = 3) -> tuple[Any, DecisionRequest, Action]:
    """The breath duel played by the heuristic up to its first ``verb`` decision."""
    scenario = DUELS["age_of_dragons"].scenario()
    rules = scenario.ruleset
    enc = Encounter(rules, rules.initial_state(scenario.model), rng=SeededRng(seed),
                    keep_log=False)
    stream = SeededRng(seed + 1)
    for _ in range(200):
        request = enc.request(stream)
        guess = rules.policy("heuristic", request.actor, {}).choose(request)
        if guess.verb == verb:
            return rules, request, guess
        enc.apply(guess)
    raise AssertionError(f"no {verb} decision")


def test_neighbours_change_one_step_of_the_heuristic_move_at_a_time() -> None:
    from fracas.core.decision import chosen_values, options

    rules, request, guess = _first_decision("shoot")
    prefer = chosen_values(rules, request.state, guess)
    found = candidates(request, prefer, 12)
    chosen = [c.chosen for c in found]
    assert chosen[0] == tuple(prefer) and len(chosen) <= 12
    assert len(set(chosen)) == len(chosen)
    for c in found:  # every candidate is a whole legal action reached through the steps
        assert options(rules, request.state, request.actor, c.chosen).action == c.action
    # Another number of dice for the same shot, and other verbs, each with the rest kept.
    _, target, dice, weapon = prefer
    assert any(c[0] == "shoot" and c[1] == target and c[2] != dice and c[3] == weapon
               for c in chosen)
    assert {"spot", "end"} <= {c[0] for c in chosen}
    # Capped short, the neighbours still reach past the heuristic's verb.
    near = candidates(request, prefer, 4)
    assert len(near) == 4 and len({c.chosen[0] for c in near}) > 1


def test_a_width_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="width"):
        SearchTuning(width=0)


def test_search_policy_takes_the_candidates_settings() -> None:
    rules, _ = _toy()
    default = search_policy(rules, "Ash", {})
    assert default.tuning == SearchTuning() and default.tuning.width == 12
    assert default.tuning.allocation == "race"
    assert search_policy(rules, "Ash", {"width": 5}).tuning.width == 5


def test_our_sides_rollouts_play_the_heuristic_for_the_win_and_the_foes_as_it_is() -> None:
    """The search scores a fight escaped as lost, so its own side's rollouts ask the
    heuristic to play for the win alone (a One Ring hero then never escapes); the foes'
    stay as they are."""
    from fracas.core.action import GM
    from fracas.rules.one_ring.policies import HeroHeuristic

    scenario = DUELS["one_ring"].scenario()
    rules = scenario.ruleset
    state = rules.initial_state(scenario.model)
    hero = next(s.name for s in rules.standings(state) if s.side == "company")
    enc = Encounter(rules, state, rng=SeededRng(1), keep_log=False)
    while enc.current_actor() != hero:
        actor = str(enc.current_actor())
        enc.apply(rules.policy("heuristic", actor, {}).choose(enc.request(SeededRng(2))))
    for to_win in (True, False):
        ours = SearchPolicy(rules, SearchBudget(rollouts=4, ms=None),
                            tuning=SearchTuning(to_win=to_win))
        ours.choose(DecisionRequest(hero, enc.state, rules, SeededRng(3)))
        played = ours.heuristic(hero)
        assert isinstance(played, HeroHeuristic) and played.to_win is to_win
    # The Loremaster's search plays the hero's rollouts with the heuristic as it is.
    theirs = SearchPolicy(rules, SearchBudget(rollouts=4, ms=None), side="enemies")
    theirs._know_our_side(enc.state, "enemies")
    played = theirs.heuristic(hero)
    assert isinstance(played, HeroHeuristic) and not played.to_win
    assert theirs._ours is not None and GM in theirs._ours
