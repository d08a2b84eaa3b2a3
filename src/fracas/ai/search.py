"""A search policy: Monte Carlo search over the whole moves the engine's steps offer.

The candidates are whole legal actions found through the decision's steps
(:func:`fracas.core.decision.options`: the verb, then each field), the heuristic's
own choice first, then the moves that change one of its steps.  Each rollout applies
a candidate to a private copy of the state (``ruleset.clone_state``) with fresh dice (a
:class:`~fracas.core.rng.SeededRng`, so chance is sampled from the rules themselves,
never read from the fight's own dice) and plays on with the rule set's ``heuristic``
policy for every actor until the fight ends or the horizon is reached (our own side's
asked to play for the win alone, :data:`fracas.core.ruleset.TO_WIN`).  The result is
scored from the searching actor's side.
Every decision of a rollout goes through the engine's own decision step
(:func:`fracas.core.loop.take_decision`), events applied at once and no log kept.

Variance is what makes a duel hard to search: a fight's result is mostly dice.  Two
things keep the comparison of moves out of that noise:

* **common random numbers, keyed per decision**: the k-th rollout of every candidate
  uses the same seed, and inside a rollout each decision draws its dice from a stream
  keyed by that seed, the round, the actor and its count of decisions in the round,
  so the foe's next blow rolls the same dice whatever move we tried first;
* **paired comparison**: a move replaces the heuristic's only when its lead over the
  heuristic's move, rollout against rollout on the same seeds, clears ``margin``
  standard errors.

Moves that leave the same state under the same dice are one move (the first kept), so
a decision with one distinct move costs no rollout.  The rest race: every move still in
plays two more seeds at a time, and one that the leader beats by ``margin`` paired
standard errors drops out; the heuristic's move always stays in.  A decision that
settles early (only the heuristic's move left, or one move clearly ahead of it) leaves
its time to the turn's later decisions.  The budget's clock may be the process's CPU
time, so a busy machine does not make the search play worse.

The search reads the state its :class:`~fracas.core.policy.DecisionRequest`
carries, which is what every policy (the heuristic included) sees.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from fracas.core.action import GM
from fracas.core.decision import Options, Value, chosen_values, options
from fracas.core.errors import FracasError, ScriptExhaustedError
from fracas.core.loop import take_decision
from fracas.core.policy import DecisionRequest, Policy
from fracas.core.rng import SeededRng, derive_seed
from fracas.core.ruleset import TO_WIN, Action, Emit, Ruleset

__all__ = [
    "SearchBudget",
    "SearchPolicy",
    "evaluate",
    "play_on",
    "search_policy",
    "side_of",
]

#: UCB1 exploration constant of the earlier tree search (kept for callers; unused).
EXPLORATION = 0.7
#: Standard errors of the paired difference by which a move must beat the heuristic's.
MARGIN = 2.0


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """How much thinking one decision gets: rollouts, milliseconds, or both (first reached).

    ``turn_ms`` caps the time of all of one actor's decisions in one round (its turn,
    and its reactions in others' turns): once it is spent the actor plays the
    heuristic's choice for the rest of the round.  ``horizon`` caps the decisions a
    rollout plays before the position is scored by the sides' remaining health.

    The default is time, not a count: at most :data:`DEFAULT_TURN_MS` milliseconds of
    this process's CPU time a turn (a decision may use all that its turn has left), so
    the search sees more wherever the engine plays faster, and a busy machine does not
    make it play worse.
    """

    rollouts: int | None = None
    ms: float | None = 1000.0
    horizon: int = 400
    turn_ms: float | None = 1000.0
    #: ``"wall"``: milliseconds of the wall clock; ``"cpu"``: of this process's CPU time
    #: (the same thinking on a busy machine as on an idle one).
    clock: str = "cpu"

    def __post_init__(self) -> None:
        if self.rollouts is None and self.ms is None:
            raise ValueError("a search budget needs rollouts, milliseconds or both")
        if self.rollouts is not None and self.rollouts < 1:
            raise ValueError("rollouts must be at least 1")
        if self.ms is not None and self.ms <= 0:
            raise ValueError("milliseconds must be positive")
        if self.horizon < 1:
            raise ValueError("the horizon must be at least 1 decision")
        if self.turn_ms is not None and self.turn_ms <= 0:
            raise ValueError("the time of a turn must be positive")
        if self.clock not in ("wall", "cpu"):
            raise ValueError("the clock is 'wall' or 'cpu'")

    def now(self) -> float:
        """The budget's clock, in seconds."""
        return time.process_time() if self.clock == "cpu" else time.perf_counter()


def side_of(ruleset: Ruleset[Any], state: Any, actor: str) -> str | None:
    """The side ``actor`` fights for (``None`` for the GM or an unknown name)."""
    for s in ruleset.standings(state):
        if s.name == actor:
            return s.side
    return None


def evaluate(ruleset: Ruleset[Any], state: Any, side: str) -> float:
    """How good ``state`` is for ``side``, from 0 (lost) to 1 (won).

    A finished fight scores 1, 0 or 1/2 (draw).  Otherwise each side's share of its
    health still standing is compared: 1/2 plus half the lead over the best other side.
    """
    outcome = ruleset.outcome(state)
    if outcome is not None and ruleset.current_actor(state) is None:
        if outcome.winner is None:
            return 0.5
        return 1.0 if outcome.winner == side else 0.0
    share: dict[str, list[float]] = {}
    for s in ruleset.standings(state):
        part = s.health / s.health_max if s.standing and s.health_max > 0 else 0.0
        share.setdefault(s.side, []).append(max(0.0, min(1.0, part)))
    mine = share.get(side)
    others = [sum(v) / len(v) for k, v in share.items() if k != side and v]
    if not mine or not others:
        return 0.5
    lead = sum(mine) / len(mine) - max(others)
    return 0.5 + 0.5 * max(-1.0, min(1.0, lead))


def _folding(ruleset: Ruleset[Any], state: Any) -> Emit:
    """An ``emit`` that applies each event to ``state`` at once (a rollout keeps no log)."""
    return partial(ruleset.apply_event, state)


def play_on(ruleset: Ruleset[Any], state: Any, rng: SeededRng,
            pick: Callable[[str], Policy], limit: int, *,
            keyed: int | None = None) -> str | None:
    """Let ``pick(actor)`` decide on ``state`` (in place) for at most ``limit`` decisions.

    With ``keyed``, each decision gets dice of its own, seeded by ``keyed``, the round,
    the actor and how many decisions that actor has made in the round: rollouts that
    start with different moves then meet the same luck at the same moments (the foe's
    next blow rolls the same dice whatever we did first), so their comparison is not
    drowned in dice noise.  Returns ``None``, or the actor left stuck: a policy that
    fails (no legal action left, or an illegal pick) ends the rollout where it stands.
    """
    counts: dict[tuple[str, int], int] = {}
    emit = _folding(ruleset, state)
    for _ in range(limit):
        actor = ruleset.current_actor(state)
        if actor is None:
            return None
        if keyed is not None:
            key = (actor, ruleset.round_number(state))
            n = counts[key] = counts.get(key, 0) + 1
            rng = SeededRng(derive_seed(keyed, key[1], actor, n))
        request = DecisionRequest(actor, state, ruleset, rng)
        try:
            action = pick(actor).choose(request)
            if not request.vetted(action):
                ruleset.check(state, action)
            take_decision(ruleset, state, action, rng, emit)
        except FracasError:
            return actor
    return None


class _Candidate:
    """One whole legal action at the root, with the result of each of its rollouts.

    ``results[k]`` is the score of the rollout played with the k-th dice seed, the
    same seed for every candidate (common random numbers): two candidates are
    compared on the seeds both have played, rollout against rollout.
    """

    __slots__ = ("action", "chosen", "results", "sticky", "used")

    def __init__(self, chosen: tuple[Value, ...], action: Action, sticky: bool = False) -> None:
        self.chosen = chosen
        self.action = action
        self.results: list[float] = []
        #: A plan, not one move: in its rollouts the actor plays this action again
        #: wherever the heuristic would play the heuristic's move at the root.
        self.sticky = sticky
        #: Rollouts in which the plan came into play (a plan never used is its one move).
        self.used = 0

    def mean(self, n: int | None = None) -> float:
        values = self.results if n is None else self.results[:n]
        return sum(values) / len(values) if values else 0.0


def paired(a: _Candidate, b: _Candidate) -> tuple[float, float, int]:
    """Mean and standard error of ``a``'s lead over ``b`` on the seeds both have played.

    The variance carries a small prior (as if one more pair had differed by 1/2), so a
    handful of identical differences is not read as certainty.
    """
    n = min(len(a.results), len(b.results))
    if n == 0:
        return 0.0, 1.0, 0
    diffs = [x - y for x, y in zip(a.results[:n], b.results[:n], strict=True)]
    mean = sum(diffs) / n
    var = (sum((d - mean) ** 2 for d in diffs) + 0.25) / n
    return mean, math.sqrt(var / n), n


def _span_values(low: int, high: int, default: int | None, extra: Value) -> list[int]:
    picks = [default if default is not None else high, low, high, (low + high) // 2]
    if isinstance(extra, int) and not isinstance(extra, bool) and low <= extra <= high:
        picks.insert(0, extra)
    out: list[int] = []
    for v in picks:
        if v not in out:
            out.append(v)
    return out


#: Whole actions the search compares at most in one decision (the heuristic's among them).
MAX_CANDIDATES = 12
#: Rollouts a move needs against the heuristic's before it may be preferred.
MIN_PAIRS = 4
#: Whole actions tried at most under one verb.
PER_VERB = 3
#: Dice seeds on which two moves must leave the same state to count as one move.
PROBES = 3
#: Seeds every move still in the race plays between two looks at the results.
BATCH = 2
#: The ways a decision's rollouts may be shared among its moves.
ALLOCATIONS = ("race", "halving")


def _behind(c: _Candidate, leader: _Candidate, margin: float) -> bool:
    """Whether ``leader`` beats ``c`` by ``margin`` paired standard errors."""
    lead, err, n = paired(leader, c)
    return n >= MIN_PAIRS and lead > margin * err


class _Planned:
    """The heuristic with a plan: where it would play a key of ``plan``, play its value.

    A value is played only where it is legal; elsewhere the heuristic's own move stands.
    """

    __slots__ = ("heuristic", "plan", "root", "used")

    def __init__(self, heuristic: Callable[[str], Policy], plan: Mapping[Action, Action],
                 root: Action | None = None) -> None:
        self.heuristic = heuristic
        self.plan = plan
        self.root = root
        #: Decisions at which the move planned for ``root`` was played.
        self.used = 0

    def choose(self, request: DecisionRequest) -> Action:
        action = self.heuristic(request.actor).choose(request)
        other = _replace(request, action, self.plan)
        if other is not action and action == self.root:
            self.used += 1
        return other

    def __call__(self, actor: str) -> Policy:
        return self


def _hashable(action: Action | None) -> bool:
    try:
        hash(action)
    except TypeError:
        return False
    return action is not None


def _replace(request: DecisionRequest, action: Action,
             plan: Mapping[Action, Action]) -> Action:
    """``plan``'s move for ``action`` where it is legal now, else ``action``."""
    try:
        other = plan.get(action)
    except TypeError:  # an action holding something unhashable: never planned
        return action
    if other is None or other == action or not request.is_legal(other):
        return action
    return other


class SearchPolicy:
    """Monte Carlo search over the whole legal actions of a decision, with heuristic rollouts.

    The candidates are found through the decision's steps (the verb, then each field),
    the heuristic's own choice first, then its neighbours (one step changed, the rest
    kept: :meth:`_neighbours`), then each verb's first moves, at most :data:`PER_VERB`
    under one verb (a numeric span is tried at its default, both ends, its middle and
    the heuristic's number); at most ``width`` of them.  Moves that leave the same state
    under the same dice count once.  They race on the same dice seeds (common random numbers):
    a move the leader beats by ``margin`` paired errors drops out, until the budget is
    spent or the decision settles.  The heuristic's choice always stays in.

    Args:
        ruleset: the rules (its ``heuristic`` policy plays every rollout).
        budget: rollouts and/or milliseconds per decision.
        side: the side to play for when the actor is not a combatant (the GM of a rule
            set where the GM runs one side); a GM with no side is a referee and plays
            the heuristic.
        margin: how many standard errors of the paired difference another action must
            score above the heuristic's own choice to be preferred.
        seed: mixes into every rollout seed (the request's rng gives the rest).
        exploration: kept for callers of the earlier tree search; unused.
        keyed: dice keyed per decision inside a rollout (see :func:`play_on`).
        plans: also try each move as a plan, played again in its rollouts.
        allocation: ``"race"`` (the default) or ``"halving"``: how the rollouts are
            shared among the moves.
        neighbours: put the moves one step from the heuristic's first (the default);
            ``False`` walks each verb's steps in order only.
        width: whole moves compared at most in one decision.
        to_win: our own side's rollouts play the heuristic for the win alone
            (``policy("heuristic", actor, {TO_WIN: True})``: no hero escaping a fight
            going badly), since the search scores a flight as a loss; the other sides
            play the heuristic as it is.
    """

    def __init__(self, ruleset: Ruleset[Any], budget: SearchBudget | None = None, *,
                 side: str | None = None, margin: float = MARGIN, seed: int = 0,
                 exploration: float = EXPLORATION, keyed: bool = True,
                 plans: bool = True, allocation: str = "race",
                 neighbours: bool = True, width: int = MAX_CANDIDATES,
                 to_win: bool = True) -> None:
        if allocation not in ALLOCATIONS:
            raise ValueError(f"the allocation is one of {', '.join(ALLOCATIONS)}")
        if width < 1:
            raise ValueError("the search needs room for at least one move (width >= 1)")
        self.ruleset = ruleset
        #: Moves one step from the heuristic's first (see :meth:`_neighbours`).
        self.neighbours = neighbours
        #: Whole actions compared at most in one decision (the heuristic's among them).
        self.width = width
        self.keyed = keyed
        self.plans = plans
        #: How the rollouts are shared among the moves: ``"race"`` or ``"halving"``.
        self.allocation = allocation
        #: The fight's plan: the heuristic's move -> the move the search put in its place
        #: (as a plan).  Our rollouts replay it, and so does a decision with no time left.
        self.plan: dict[Action, Action] = {}
        self._root: Action | None = None
        self._last_round: int | None = None
        self.budget = budget if budget is not None else SearchBudget()
        self.side = side
        self.margin = margin
        self.seed = seed
        self.exploration = exploration
        self._heuristics: dict[str, Policy] = {}
        self.to_win = to_win
        #: The actors of our side (their rollouts play for the win), known from the
        #: first decision on.
        self._ours: frozenset[str] | None = None
        #: Rollouts run by the last decision (for benchmarks and tests).
        self.last_rollouts = 0
        #: The candidates of the last decision, with their rollout results.
        self.last_candidates: list[_Candidate] = []
        self._turn: tuple[str, int] | None = None
        self._turn_spent = 0.0

    # -- the rollout policy -------------------------------------------------------
    def heuristic(self, actor: str) -> Policy:
        """The rule set's heuristic for ``actor`` (made once and kept): for our own side,
        played for the win alone (``to_win``)."""
        policy = self._heuristics.get(actor)
        if policy is None:
            ours = self.to_win and self._ours is not None and actor in self._ours
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

    # -- the Policy protocol ------------------------------------------------------
    def choose(self, request: DecisionRequest) -> Action:
        start = self.budget.now()
        turn = (request.actor, request.ruleset.round_number(request.state))
        if self._last_round is not None and turn[1] < self._last_round:
            self.plan.clear()  # a new fight: the last one's plan does not carry over
        self._last_round = turn[1]
        if turn != self._turn:
            self._turn, self._turn_spent = turn, 0.0
        try:
            return self._choose(request)
        finally:
            self._turn_spent += self.budget.now() - start

    def _time_left(self) -> float | None:
        """Seconds this decision may think (``None``: no time limit)."""
        budget = self.budget
        left = budget.ms / 1000 if budget.ms is not None else None
        if budget.turn_ms is not None:
            turn_left = budget.turn_ms / 1000 - self._turn_spent
            left = turn_left if left is None else min(left, turn_left)
        return left

    def _choose(self, request: DecisionRequest) -> Action:
        ruleset, state, actor = request.ruleset, request.state, request.actor
        self.last_rollouts = 0
        self.last_candidates = []
        self._root = None
        left = self._time_left()
        deadline = self.budget.now() + left if left is not None else None
        side = side_of(ruleset, state, actor) if actor != GM else None
        if side is None:
            side = self.side
        if side is not None:
            self._know_our_side(state, side)
        guess = self._heuristic_choice(request)
        spent = left is not None and left <= 0.005  # the turn's time is used up
        if side is None:  # a referee
            return guess if guess is not None else self._first(request)
        if spent and guess is not None:  # no time left: the heuristic, as the plan amends it
            return _replace(request, guess, self.plan) if self.plan else guess
        prefer = chosen_values(ruleset, state, guess) if guess is not None else ()
        candidates = self._candidates(request, prefer)
        if not candidates:
            return guess if guess is not None else self._first(request)
        base = derive_seed(self.seed, request.rng.choice_index(1 << 30))
        candidates = self._distinct(request, candidates, base)
        if len(candidates) == 1:
            return self._vet(request, candidates[0])
        has_guess = bool(prefer) and candidates[0].chosen == tuple(prefer)
        self._root = guess if has_guess and self.plans and _hashable(guess) else None
        if self._root is not None:
            # Each other move also as a plan: played again wherever the heuristic would
            # play its move of now (a stance kept, a formation held, Hope spent again).
            candidates += [_Candidate(c.chosen, c.action, sticky=True) for c in candidates[1:]]
        self.last_candidates = candidates
        share = self._halve if self.allocation == "halving" else self._race
        share(request, candidates, side, base, deadline,
              keep=candidates[0] if has_guess else None)
        picked = self._pick(candidates, has_guess)
        if self._root is not None:
            if picked.sticky:
                self.plan[self._root] = picked.action
            else:
                self.plan.pop(self._root, None)
        return self._vet(request, picked)

    # -- the candidates -----------------------------------------------------------
    def _candidates(self, request: DecisionRequest,
                    prefer: Sequence[Value]) -> list[_Candidate]:
        """Whole legal actions found through the steps, the heuristic's path first."""
        out: list[_Candidate] = []
        seen: set[tuple[Value, ...]] = set()

        def values(found: Options, chosen: tuple[Value, ...]) -> list[Value]:
            step = found.step
            if step is None:
                return []
            hint = prefer[len(chosen)] if len(prefer) > len(chosen) and \
                tuple(prefer[:len(chosen)]) == chosen else None
            if step.span is not None:
                return list(_span_values(step.span.low, step.span.high, step.span.default,
                                         hint))
            listed = [c.value for c in step.choices]
            if hint in listed:
                listed.remove(hint)
                listed.insert(0, hint)
            return listed

        def walk(chosen: tuple[Value, ...], room: int) -> int:
            """Add up to ``room`` leaves under ``chosen``; how many were added."""
            try:
                found = options(request.ruleset, request.state, request.actor, chosen)
            except FracasError:
                return 0
            if found.action is not None:
                if chosen in seen:
                    return 0
                seen.add(chosen)
                out.append(_Candidate(chosen, found.action))
                return 1
            added = 0
            for value in values(found, chosen):
                if added >= room or len(out) >= self.width:
                    break
                added += walk((*chosen, value), room - added)
            return added

        if prefer:
            walk(tuple(prefer), 1)  # the heuristic's own choice, first
        if self.neighbours and out:
            self._neighbours(request, tuple(prefer), out, seen, values)
        try:
            top = options(request.ruleset, request.state, request.actor, ())
        except FracasError:
            return out
        for verb in values(top, ()):
            if len(out) >= self.width:
                break
            walk((verb,), PER_VERB)
        return out

    def _neighbours(self, request: DecisionRequest, prefer: tuple[Value, ...],
                    out: list[_Candidate], seen: set[tuple[Value, ...]],
                    values: Callable[[Options, tuple[Value, ...]], list[Value]]) -> None:
        """Add the moves one step away from the heuristic's: one value changed, the rest kept.

        For each step along the heuristic's choice (the verb, then each field) every other
        value that step offers is tried, and the later steps are filled as the heuristic
        filled them where that value is still offered, else with the step's usual value.
        They are taken in turns across the steps (a second verb, a second target, another
        number of dice, another style, then each step's next value), so a capped list
        still reaches every field of the heuristic's move.
        """
        ruleset, state, actor = request.ruleset, request.state, request.actor
        by_depth: list[list[tuple[Value, ...]]] = []
        for depth in range(len(prefer)):
            try:
                found = options(ruleset, state, actor, prefer[:depth])
            except FracasError:
                break
            alternatives = [v for v in values(found, prefer[:depth]) if v != prefer[depth]]
            by_depth.append([(*prefer[:depth], v) for v in alternatives])
        turn = 0
        while len(out) < self.width and any(turn < len(d) for d in by_depth):
            for level in by_depth:
                if turn >= len(level) or len(out) >= self.width:
                    continue
                leaf = self._complete(request, level[turn], prefer)
                if leaf is not None and leaf[0] not in seen:
                    seen.add(leaf[0])
                    out.append(_Candidate(*leaf))
            turn += 1

    @staticmethod
    def _complete(request: DecisionRequest, chosen: tuple[Value, ...],
                  prefer: tuple[Value, ...]) -> tuple[tuple[Value, ...], Action] | None:
        """``chosen`` filled out to a whole action: the heuristic's value where offered,
        else the step's usual one (every offered value completes, so this ends)."""
        ruleset, state, actor = request.ruleset, request.state, request.actor
        try:
            found = options(ruleset, state, actor, chosen)
            while found.action is None:
                step = found.step
                if step is None:
                    return None
                hint = prefer[len(chosen)] if len(prefer) > len(chosen) else None
                if step.span is not None:
                    offered = hint in step.span
                else:
                    offered = any(c.value == hint for c in step.choices)
                if hint is not None and offered:
                    value = hint
                elif step.default is not None:
                    value = step.default
                else:
                    value = step.values[0]
                chosen = (*chosen, value)
                found = options(ruleset, state, actor, chosen)
        except FracasError:
            return None
        return chosen, found.action

    # -- the rollouts -------------------------------------------------------------
    def _rollout(self, request: DecisionRequest, candidate: _Candidate, side: str,
                 base: int) -> None:
        ruleset = self.ruleset
        state = ruleset.clone_state(request.state)
        seed = derive_seed(base, len(candidate.results))  # the k-th seed for all
        rng = SeededRng(seed)
        plan = self.plan
        root = self._root
        if root is not None and (candidate.sticky or root in plan):
            plan = dict(plan)
            if candidate.sticky:
                plan[root] = candidate.action
            else:
                del plan[root]
        planned = _Planned(self.heuristic, plan, root if candidate.sticky else None) \
            if plan else None
        try:
            take_decision(ruleset, state, candidate.action, rng, _folding(ruleset, state))
            stuck = play_on(ruleset, state, rng, planned or self.heuristic,
                            self.budget.horizon, keyed=seed if self.keyed else None)
            if planned is not None and planned.used:
                candidate.used += 1
            if stuck is not None and self._side_of(ruleset, state, stuck) == side:
                result = 0.0  # a dead end of our own making: never worth choosing
            else:
                result = evaluate(ruleset, state, side)
        except FracasError:
            result = 0.0
        candidate.results.append(result)
        self.last_rollouts += 1

    def _distinct(self, request: DecisionRequest, candidates: list[_Candidate],
                  base: int) -> list[_Candidate]:
        """The candidates that lead somewhere different, the first of each kind kept.

        Each candidate is applied to copies of the state with the same :data:`PROBES`
        dice seeds; moves that leave the same state (by ``ruleset.state_key``) under every
        seed are one move for the search (two weapons of the same reach and damage, a
        stance the rules then override), so their rollouts are not spent twice.  A
        decision left with one distinct move is decided without a rollout.
        """
        ruleset = self.ruleset
        kept: dict[Any, _Candidate] = {}
        for i, c in enumerate(candidates):
            keys: list[Any] = []
            for k in range(PROBES):
                state = ruleset.clone_state(request.state)
                try:
                    take_decision(ruleset, state, c.action,
                                  SeededRng(derive_seed(base, "probe", k)),
                                  _folding(ruleset, state))
                    keys.append(ruleset.state_key(state))
                except FracasError:
                    keys.append(("refused", i))
                    break
            kept.setdefault(tuple(keys), c)
        return list(kept.values())

    def _fill(self, request: DecisionRequest, alive: list[_Candidate], target: int,
              side: str, base: int, began: float, deadline: float | None) -> bool:
        """Play every move of ``alive`` up to ``target`` seeds; ``False`` once the budget
        is spent (the rollout limit reached, or the next rollout, timed by the mean of
        those since ``began``, would end past ``deadline``)."""
        limit = self.budget.rollouts
        clock = self.budget.now
        for c in alive:
            while len(c.results) < target:
                if limit is not None and self.last_rollouts >= limit:
                    return False
                if deadline is not None and self.last_rollouts > 0:
                    now = clock()
                    if now + (now - began) / self.last_rollouts >= deadline:
                        return False
                self._rollout(request, c, side, base)
        return True

    def _beats(self, keep: _Candidate, rivals: Sequence[_Candidate]) -> bool:
        """Whether a rival leads the heuristic's move by ``margin + 1`` paired errors (the
        decision is settled: no need to spend the rest of its time)."""
        for c in rivals:
            lead, err, _ = paired(c, keep)
            if lead > (self.margin + 1) * err:
                return True
        return False

    def _race(self, request: DecisionRequest, candidates: list[_Candidate], side: str,
              base: int, deadline: float | None, keep: _Candidate | None) -> None:
        """Play every move still in the race on the same seeds until the budget is spent.

        After each round of :data:`BATCH` seeds a move that the current leader beats by
        ``margin`` paired standard errors drops out (the heuristic's move never does).
        The decision settles early when only the heuristic's move is left, or when one
        move beats it by ``margin + 1`` errors: the time not spent goes to the turn's
        later decisions.
        """
        began = self.budget.now()
        alive = list(candidates)
        target = 0
        while True:
            target += BATCH
            if not self._fill(request, alive, target, side, base, began, deadline):
                return
            if target < MIN_PAIRS:
                continue
            # A plan that never came into play is its single move again: drop it.
            alive = [c for c in alive if not c.sticky or c.used]
            leader = max(alive, key=lambda c: c.mean(target))
            alive = [c for c in alive if c is keep or c is leader
                     or not _behind(c, leader, self.margin)]
            if keep is not None:
                if alive == [keep]:
                    return
                if self._beats(keep, [c for c in alive if c is not keep]):
                    return
            if len(alive) == 1:
                return

    def _halve(self, request: DecisionRequest, candidates: list[_Candidate], side: str,
               base: int, deadline: float | None, keep: _Candidate | None) -> None:
        """Sequential halving: the budget in rounds, the better half of the moves kept each.

        Every move still in plays the same number of seeds in a round; after it the moves
        are ranked by their mean and the worse half drops out (the heuristic's move never
        does).  Each round gets an equal share of what is left of the budget (rollouts, or
        time timed by the mean rollout so far), so the last few moves get most of it.  As
        in the race, a decision settles early when one move beats the heuristic's by
        ``margin + 1`` paired errors, or the heuristic's beats every other by ``margin``.
        """
        limit = self.budget.rollouts
        clock = self.budget.now
        began = clock()
        alive = list(candidates)
        rounds_left = max(1, math.ceil(math.log2(len(alive))))
        while True:
            # What this round may spend: an equal share of what is left, in rollouts.
            room = limit - self.last_rollouts if limit is not None else None
            if deadline is not None:
                now = clock()
                per = (now - began) / self.last_rollouts if self.last_rollouts else None
                if per is not None:
                    by_time = int((deadline - now) / per) if per > 0 else 10**9
                    room = by_time if room is None else min(room, by_time)
            if room is not None and room <= 0:
                return
            if room is None or (self.last_rollouts == 0 and limit is None):
                each = MIN_PAIRS  # the first round of a time budget: time a few rollouts
            else:
                each = max(BATCH, room // (rounds_left * len(alive)))
            target = max(MIN_PAIRS, max(len(c.results) for c in alive) + each)
            if not self._fill(request, alive, target, side, base, began, deadline):
                return
            # A plan that never came into play is its single move again: drop it.
            alive = [c for c in alive if not c.sticky or c.used]
            if keep is not None:
                rivals = [c for c in alive if c is not keep]
                if not rivals:
                    return
                if self._beats(keep, rivals):
                    return
                if all(_behind(c, keep, self.margin) for c in rivals):
                    return
            if len(alive) <= 2 and (keep is None or keep in alive):
                if len(alive) == 1:
                    return
                rounds_left = 1
                continue
            ranked = sorted((c for c in alive if c is not keep),
                            key=lambda c: c.mean(target), reverse=True)
            half = max(1, math.ceil(len(alive) / 2) - (1 if keep is not None else 0))
            alive = ([keep] if keep is not None else []) + ranked[:half]
            rounds_left = max(1, rounds_left - 1)

    def _pick(self, candidates: list[_Candidate], has_guess: bool) -> _Candidate:
        """The heuristic's choice, unless another leads it by ``margin`` paired errors."""
        played = [c for c in candidates if c.results]
        if not played:
            return candidates[0]
        if not has_guess:
            return max(played, key=lambda c: (len(c.results), c.mean()))
        guess = candidates[0]
        others = [c for c in played if c is not guess]
        if not others:
            return guess
        # Only moves that ran long enough: one dropped early in the race is no rival.
        most = max(len(c.results) for c in others)
        best, best_lead = guess, 0.0
        for c in others:
            if len(c.results) < max(MIN_PAIRS, most // 2):
                continue
            lead, err, _ = paired(c, guess)
            if lead > self.margin * err and lead > best_lead:
                best, best_lead = c, lead
        return best

    def _side_of(self, ruleset: Ruleset[Any], state: Any, actor: str) -> str | None:
        return self.side if actor == GM else side_of(ruleset, state, actor)

    # -- fallbacks ----------------------------------------------------------------
    def _heuristic_choice(self, request: DecisionRequest) -> Action | None:
        probe = DecisionRequest(request.actor, request.state, request.ruleset, request.rng)
        try:
            action = self.heuristic(request.actor).choose(probe)
            if not probe.vetted(action):
                request.ruleset.check(request.state, action)
        except FracasError:
            return None
        return action

    @staticmethod
    def _vet(request: DecisionRequest, candidate: _Candidate) -> Action:
        found = request.options(candidate.chosen)
        return found.action if found.action is not None else candidate.action

    @staticmethod
    def _first(request: DecisionRequest) -> Action:
        chosen: list[Value] = []
        found = request.options()
        while found.action is None:
            step = found.step
            if step is None:
                raise ScriptExhaustedError(f"{request.actor} has no legal action")
            chosen.append(step.default if step.default is not None else step.values[0])
            found = request.options(chosen)
        return found.action


#: CPU milliseconds of thinking a turn when a scenario or the command line names no
#: budget (:class:`SearchBudget`'s default).
DEFAULT_TURN_MS = 1000.0


def search_policy(ruleset: Ruleset[Any], actor: str,
                  settings: Mapping[str, Any] | None = None) -> SearchPolicy:
    """The ``search`` policy a rule set's ``policy(name, actor, options)`` hands out.

    ``settings`` may hold ``ms`` (milliseconds per decision, on the wall clock unless
    ``clock`` says ``"cpu"``; without it or ``rollouts``, the default budget: at most
    :data:`DEFAULT_TURN_MS` ms of CPU time a turn), ``turn_ms``
    (milliseconds for all of an actor's decisions in a round, default 800 with ``ms``),
    ``rollouts`` (a fixed number per decision instead of, or as well as, a time limit:
    alone, a seeded fight replays the same on any machine), ``horizon``
    (decisions per rollout), ``clock`` (``"wall"`` or ``"cpu"``: which clock the
    milliseconds are counted on), ``side`` (for a GM that runs one side), ``seed``,
    ``allocation`` (how a decision's rollouts are shared among its moves: ``"race"`` or
    ``"halving"``), ``neighbours`` (true: the moves one step from the heuristic's are
    the candidates first) and ``width`` (whole moves compared at most in one decision).
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
    return SearchPolicy(ruleset, budget, side=None if side is None else str(side),
                        seed=int(settings.get("seed", 0)),
                        allocation=str(settings.get("allocation", "race")),
                        neighbours=bool(settings.get("neighbours", True)),
                        width=int(settings.get("width", MAX_CANDIDATES)))
