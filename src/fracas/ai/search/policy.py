"""The search policy: the heuristic's move, or another that clearly beats it in rollouts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fracas.ai.search.budget import SearchBudget, TurnClock
from fracas.ai.search.race import ALLOCATIONS, LEAST_GAIN, MARGIN, REACH, halve, pick, race
from fracas.ai.search.rollouts import Rollouts, distinct, hashable, replace, side_of
from fracas.ai.search.tree import MAX_CANDIDATES, Candidate, candidates
from fracas.core.action import GM
from fracas.core.decision import Value, chosen_values
from fracas.core.errors import FracasError, ScriptExhaustedError
from fracas.core.policy import DecisionRequest, Policy
from fracas.core.rng import derive_seed
from fracas.core.ruleset import TO_WIN, Action, Ruleset

__all__ = ["SearchPolicy", "SearchTuning", "search_policy"]


@dataclass(frozen=True, slots=True)
class SearchTuning:
    """The search's knobs beyond its budget; the defaults are how it plays.

    Args:
        margin: how many standard errors of the paired difference another action must
            score above the heuristic's own choice to be preferred.
        plans: also try each move as a plan, played again in its rollouts.
        allocation: ``"race"`` or ``"halving"``: how the rollouts are shared among the
            moves (:mod:`fracas.ai.search.race`).
        width: whole moves compared at most in one decision.
        to_win: our own side's rollouts play the heuristic for the win alone
            (``policy("heuristic", actor, {TO_WIN: True})``: no hero escaping a fight
            going badly), since the search scores a flight as a loss; the other sides
            play the heuristic as it is.
        least_gain: a decision stops spending rollouts once no move can plausibly beat
            the heuristic's by this much of a rollout's score (0 to 1); its time goes
            to the turn's later decisions.  0: only the budget or a clear winner stops it.
        reach: in the race, a decision also stops once no move could be shown better
            than the heuristic's with the rollouts its budget has left, even this many
            standard errors above its lead now; its time goes to the turn's later
            decisions.  0: never.
        draw: what a rollout that ends in a draw scores (a win 1, a loss 0).  1/2 makes
            the search play for the match's *score*; below 1/2 a side playing to win
            prefers a gamble to a likely draw.
    """

    margin: float = MARGIN
    plans: bool = True
    allocation: str = "race"
    width: int = MAX_CANDIDATES
    to_win: bool = True
    least_gain: float = LEAST_GAIN
    reach: float = REACH
    draw: float = 0.5

    def __post_init__(self) -> None:
        if self.allocation not in ALLOCATIONS:
            raise ValueError(f"the allocation is one of {', '.join(ALLOCATIONS)}")
        if self.width < 1:
            raise ValueError("the search needs room for at least one move (width >= 1)")
        if not 0 <= self.least_gain < 1:
            raise ValueError("the least gain is a share of a rollout's score, from 0 below 1")
        if self.reach < 0:
            raise ValueError("the reach is a number of standard errors, 0 or more")
        if not 0 <= self.draw <= 1:
            raise ValueError("a draw scores between a loss (0) and a win (1)")


class SearchPolicy:
    """Monte Carlo search over the whole legal actions of a decision, with heuristic rollouts.

    The candidates (:mod:`fracas.ai.search.tree`) are the heuristic's own choice and
    its neighbours, then each verb's first moves; moves that leave the same state under
    the same dice count once.  They are played out (:mod:`fracas.ai.search.rollouts`)
    on the same dice seeds and race (:mod:`fracas.ai.search.race`) until the budget
    (:mod:`fracas.ai.search.budget`) is spent or the decision settles; the heuristic's
    choice is played unless another beats it clearly.  A move that wins as a *plan*
    (played again wherever the heuristic would play its move of now) is kept in
    :attr:`plan` for the rest of the fight.

    Args:
        ruleset: the rules (its ``heuristic`` policy plays every rollout).
        budget: rollouts and/or milliseconds per decision.
        side: the side to play for when the actor is not a combatant (the GM of a rule
            set where the GM runs one side); a GM with no side is a referee and plays
            the heuristic.
        seed: mixes into every rollout seed (the request's rng gives the rest).
        tuning: the knobs beyond the budget (:class:`SearchTuning`).
    """

    def __init__(self, ruleset: Ruleset[Any], budget: SearchBudget | None = None, *,
                 side: str | None = None, seed: int = 0,
                 tuning: SearchTuning = SearchTuning()) -> None:
        self.ruleset = ruleset
        self.side = side
        self.seed = seed
        self.tuning = tuning
        self._clock = TurnClock(budget if budget is not None else SearchBudget())
        #: The fight's plan: the heuristic's move -> the move the search put in its place
        #: (as a plan).  Our rollouts replay it, and so does a decision with no time left.
        self.plan: dict[Action, Action] = {}
        self._last_round: int | None = None
        self._heuristics: dict[str, Policy] = {}
        #: The actors of our side (their rollouts play for the win), known from the
        #: first decision on.
        self._ours: frozenset[str] | None = None
        #: Rollouts run by the last decision (for benchmarks and tests).
        self.last_rollouts = 0
        #: The candidates of the last decision, with their rollout results.
        self.last_candidates: list[Candidate] = []

    @property
    def budget(self) -> SearchBudget:
        """Rollouts and/or milliseconds per decision."""
        return self._clock.budget

    # -- the rollout policy -------------------------------------------------------
    def heuristic(self, actor: str) -> Policy:
        """The rule set's heuristic for ``actor`` (made once and kept): for our own side,
        played for the win alone (``to_win``)."""
        policy = self._heuristics.get(actor)
        if policy is None:
            ours = self.tuning.to_win and self._ours is not None and actor in self._ours
            policy = self.ruleset.policy("heuristic", actor, {TO_WIN: True} if ours else {})
            self._heuristics[actor] = policy
        return policy

    def _know_our_side(self, state: Any, side: str) -> None:
        if self._ours is None:
            names = {s.name for s in self.ruleset.standings(state) if s.side == side}
            if self.side == side:
                names.add(GM)
            self._ours = frozenset(names)
            self._heuristics.clear()

    def _side_of(self, ruleset: Ruleset[Any], state: Any, actor: str) -> str | None:
        return self.side if actor == GM else side_of(ruleset, state, actor)

    # -- the Policy protocol ------------------------------------------------------
    def choose(self, request: DecisionRequest) -> Action:
        round_number = request.ruleset.round_number(request.state)
        started = self._clock.start(request.actor, round_number)
        if self._last_round is not None and round_number < self._last_round:
            self.plan.clear()  # a new fight: the last one's plan does not carry over
        self._last_round = round_number
        try:
            return self._choose(request)
        finally:
            self._clock.stop(started)

    def _choose(self, request: DecisionRequest) -> Action:
        ruleset, state, actor = request.ruleset, request.state, request.actor
        self.last_rollouts = 0
        self.last_candidates = []
        left = self._clock.time_left()
        deadline = self.budget.now() + left if left is not None else None
        side = side_of(ruleset, state, actor) if actor != GM else None
        if side is None:
            side = self.side
        if side is not None:
            self._know_our_side(state, side)
        guess = self._heuristic_choice(request)
        spent = left is not None and left <= 0.005  # the turn's time is used up
        if side is None:  # a referee
            return guess if guess is not None else _first(request)
        if spent and guess is not None:  # no time left: the heuristic, as the plan amends it
            return replace(request, guess, self.plan) if self.plan else guess
        prefer = chosen_values(ruleset, state, guess) if guess is not None else ()
        found = candidates(request, prefer, self.tuning.width)
        if not found:
            return guess if guess is not None else _first(request)
        base = derive_seed(self.seed, request.rng.choice_index(1 << 30))
        found = distinct(self.ruleset, request, found, base)
        if len(found) == 1:
            return _vet(request, found[0])
        has_guess = bool(prefer) and found[0].chosen == tuple(prefer)
        root = guess if has_guess and self.tuning.plans and hashable(guess) else None
        if root is not None:
            # Each other move also as a plan: played again wherever the heuristic would
            # play its move of now (a stance kept, a formation held, Hope spent again).
            found += [Candidate(c.chosen, c.action, sticky=True) for c in found[1:]]
        self.last_candidates = found
        rollouts = Rollouts(self.ruleset, request, side, base, self.heuristic, self.plan, root,
                            self.budget.horizon, self._side_of, draw=self.tuning.draw)
        keep = found[0] if has_guess else None
        try:
            if self.tuning.allocation == "halving":
                halve(rollouts, found, self.budget, self.tuning.margin, deadline, keep,
                      least_gain=self.tuning.least_gain)
            else:
                race(rollouts, found, self.budget, self.tuning.margin, deadline, keep,
                     least_gain=self.tuning.least_gain, reach=self.tuning.reach)
        finally:
            self.last_rollouts = rollouts.played
        picked = pick(found, has_guess, self.tuning.margin)
        if root is not None:
            if picked.sticky:
                self.plan[root] = picked.action
            else:
                self.plan.pop(root, None)
        return _vet(request, picked)

    def _heuristic_choice(self, request: DecisionRequest) -> Action | None:
        probe = DecisionRequest(request.actor, request.state, request.ruleset, request.rng)
        try:
            action = self.heuristic(request.actor).choose(probe)
            if not probe.vetted(action):
                request.ruleset.check(request.state, action)
        except FracasError:
            return None
        return action


def _vet(request: DecisionRequest, candidate: Candidate) -> Action:
    """The candidate's action as the request's own steps give it (so the engine knows it
    was picked from what was offered)."""
    found = request.options(candidate.chosen)
    return found.action if found.action is not None else candidate.action


def _first(request: DecisionRequest) -> Action:
    """The first whole action the steps offer (each step's usual value)."""
    chosen: list[Value] = []
    found = request.options()
    while found.action is None:
        step = found.step
        if step is None:
            raise ScriptExhaustedError(f"{request.actor} has no legal action")
        chosen.append(step.default if step.default is not None else step.values[0])
        found = request.options(chosen)
    return found.action


def search_policy(ruleset: Ruleset[Any], actor: str,
                  settings: Mapping[str, Any] | None = None) -> SearchPolicy:
    """The ``search`` policy a rule set's ``policy(name, actor, options)`` hands out.

    ``settings`` may hold ``ms`` (milliseconds per decision, on the wall clock unless
    ``clock`` says ``"cpu"``; without it or ``rollouts``, the default budget: at most
    :data:`~fracas.ai.search.budget.DEFAULT_TURN_MS` ms of CPU time a turn), ``turn_ms``
    (milliseconds for all of an actor's decisions in a round, default 800 with ``ms``),
    ``rollouts`` (a fixed number per decision instead of, or as well as, a time limit:
    alone, a seeded fight replays the same on any machine), ``horizon``
    (decisions per rollout), ``clock`` (``"wall"`` or ``"cpu"``: which clock the
    milliseconds are counted on), ``side`` (for a GM that runs one side), ``seed``,
    ``allocation`` (how a decision's rollouts are shared among its moves: ``"race"`` or
    ``"halving"``) and ``width`` (whole moves compared at most in one decision).
    """
    settings = settings or {}
    ms = settings.get("ms")
    rollouts = settings.get("rollouts")
    horizon = int(settings.get("horizon", 400))
    if ms is None and rollouts is None:  # the default: time, CPU time, a turn at most
        budget = SearchBudget(horizon=horizon)
    else:
        budget = SearchBudget(rollouts=None if rollouts is None else int(rollouts),
                              ms=None if ms is None else float(ms), horizon=horizon,
                              turn_ms=None if ms is None else float(settings.get("turn_ms",
                                                                                 800.0)),
                              clock=str(settings.get("clock", "wall")))
    side = settings.get("side")
    tuning = SearchTuning(allocation=str(settings.get("allocation", "race")),
                          width=int(settings.get("width", MAX_CANDIDATES)))
    return SearchPolicy(ruleset, budget, side=None if side is None else str(side),
                        seed=int(settings.get("seed", 0)), tuning=tuning)
