"""A search policy: Monte Carlo tree search over the engine's own step-by-step choices.

The tree is the decision being made, one step at a time: the verb, then each field
the rule set asks for (:func:`fracas.core.decision.options`).  A leaf is a whole
legal action.  Each iteration walks down the tree by UCB1, applies the leaf's
action to a private copy of the state (``ruleset.clone_state``) with fresh dice
(a :class:`~fracas.core.rng.SeededRng`, so chance is sampled from the rules
themselves, never read from the fight's own dice), and plays on with the rule
set's ``heuristic`` policy for every actor until the fight ends or the horizon
is reached.  The result, seen from the searching actor's side, is backed up
along the path.

Rollouts of different actions share their dice stream by visit number (the
k-th rollout of every action uses the same seed: common random numbers), so
actions are compared under the same luck.

The heuristic's own choice is tried first and kept unless the rollouts show
another action does better by more than ``margin`` standard errors: the search
deviates from the heuristic only where it measurably pays.

The search reads the state its :class:`~fracas.core.policy.DecisionRequest`
carries, which is what every policy (the heuristic included) sees.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fracas.core.decision import Options, Value, chosen_values, options
from fracas.core.errors import FracasError, ScriptExhaustedError
from fracas.core.events import DecisionMade
from fracas.core.policy import DecisionRequest, Policy
from fracas.core.rng import SeededRng, derive_seed
from fracas.core.ruleset import GM, Action, Ruleset

__all__ = [
    "SearchBudget",
    "SearchPolicy",
    "evaluate",
    "play_on",
    "search_policy",
    "side_of",
]

#: UCB1 exploration constant for results in [0, 1].
EXPLORATION = 0.7


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """How much thinking one decision gets: rollouts, milliseconds, or both (first reached).

    ``turn_ms`` caps the time of all of one actor's decisions in one round (its turn,
    and its reactions in others' turns): once it is spent the actor plays the
    heuristic's choice for the rest of the round.  ``horizon`` caps the decisions a
    rollout plays before the position is scored by the sides' remaining health.
    """

    rollouts: int | None = None
    ms: float | None = 200.0
    horizon: int = 400
    turn_ms: float | None = None

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


def apply_action(ruleset: Ruleset[Any], state: Any, action: Action, rng: SeededRng) -> None:
    """Resolve ``action`` on ``state`` in place and run the automatic steps after it."""
    emit = _emitter(ruleset, state)
    emit(DecisionMade(action.actor, action))
    ruleset.resolve(state, action, rng, emit)
    ruleset.advance(state, rng, emit)


def _emitter(ruleset: Ruleset[Any], state: Any) -> Callable[[Any], None]:
    fold = ruleset.apply_event

    def emit(event: Any) -> None:
        fold(state, event)

    return emit


def play_on(ruleset: Ruleset[Any], state: Any, rng: SeededRng,
            pick: Callable[[str], Policy], limit: int) -> str | None:
    """Let ``pick(actor)`` decide on ``state`` (in place) for at most ``limit`` decisions.

    Returns ``None``, or the actor left stuck: a policy that fails (no legal action
    left, or an illegal pick) ends the rollout where it stands.
    """
    for _ in range(limit):
        actor = ruleset.current_actor(state)
        if actor is None:
            return None
        request = DecisionRequest(actor, state, ruleset, rng)
        try:
            action = pick(actor).choose(request)
            if not request.vetted(action):
                ruleset.check(state, action)
            apply_action(ruleset, state, action, rng)
        except FracasError:
            return actor
    return None


class _Node:
    """One step of the decision: the values chosen so far and the candidates for the next."""

    __slots__ = ("action", "children", "n", "order", "sq", "total")

    def __init__(self) -> None:
        self.children: dict[Value, _Node] | None = None
        self.order: list[Value] = []
        self.action: Action | None = None
        self.n = 0
        self.total = 0.0
        self.sq = 0.0

    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    def var(self) -> float:
        if self.n < 2:
            return 0.25
        m = self.mean()
        return max(0.0, self.sq / self.n - m * m)

    def add(self, value: float) -> None:
        self.n += 1
        self.total += value
        self.sq += value * value


def _span_values(low: int, high: int, default: int | None, extra: Value) -> list[int]:
    picks = [default if default is not None else high, low, high, (low + high) // 2]
    if isinstance(extra, int) and not isinstance(extra, bool) and low <= extra <= high:
        picks.insert(0, extra)
    out: list[int] = []
    for v in picks:
        if v not in out:
            out.append(v)
    return out


class SearchPolicy:
    """Monte Carlo tree search over the steps of a decision, with heuristic rollouts.

    Args:
        ruleset: the rules (its ``heuristic`` policy plays every rollout).
        budget: rollouts and/or milliseconds per decision.
        side: the side to play for when the actor is not a combatant (the GM of a rule
            set where the GM runs one side); a GM with no side is a referee and plays
            the heuristic.
        margin: how many standard errors better than the heuristic's own choice another
            action must score to be preferred.
        seed: mixes into every rollout seed (the request's rng gives the rest).
    """

    def __init__(self, ruleset: Ruleset[Any], budget: SearchBudget | None = None, *,
                 side: str | None = None, margin: float = 1.0, seed: int = 0,
                 exploration: float = EXPLORATION) -> None:
        self.ruleset = ruleset
        self.budget = budget if budget is not None else SearchBudget()
        self.side = side
        self.margin = margin
        self.seed = seed
        self.exploration = exploration
        self._heuristics: dict[str, Policy] = {}
        #: Rollouts run by the last decision (for benchmarks and tests).
        self.last_rollouts = 0
        self._turn: tuple[str, int] | None = None
        self._turn_spent = 0.0

    # -- the rollout policy -------------------------------------------------------
    def heuristic(self, actor: str) -> Policy:
        """The rule set's heuristic for ``actor`` (made once and kept)."""
        policy = self._heuristics.get(actor)
        if policy is None:
            policy = self.ruleset.policy("heuristic", actor, {})
            self._heuristics[actor] = policy
        return policy

    # -- the Policy protocol ------------------------------------------------------
    def choose(self, request: DecisionRequest) -> Action:
        start = time.perf_counter()
        turn = (request.actor, request.ruleset.round_number(request.state))
        if turn != self._turn:
            self._turn, self._turn_spent = turn, 0.0
        try:
            return self._choose(request)
        finally:
            self._turn_spent += time.perf_counter() - start

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
        left = self._time_left()
        deadline = time.perf_counter() + left if left is not None else None
        side = side_of(ruleset, state, actor) if actor != GM else None
        if side is None:
            side = self.side
        guess = self._heuristic_choice(request)
        spent = left is not None and left <= 0.005  # the turn's time is used up
        if side is None or (spent and guess is not None):  # a referee, or no time left
            return guess if guess is not None else self._first(request)
        prefer = chosen_values(ruleset, state, guess) if guess is not None else ()
        root = _Node()
        self._expand(root, request, (), prefer)
        chosen: list[Value] = []
        node = root
        while node.action is None and len(node.order) == 1:  # forced steps
            chosen.append(node.order[0])
            node = self._child(node, request, tuple(chosen), prefer)
        if node.action is not None:
            return self._vet(request, tuple(chosen), node.action)
        top = tuple(chosen)
        base = derive_seed(self.seed, request.rng.choice_index(1 << 30))
        limit = self.budget.rollouts
        rollouts = 0
        began = time.perf_counter()
        # Stop when the next rollout (timed by the mean so far) would run past the deadline.
        while (limit is None or rollouts < limit) and \
                (deadline is None or rollouts == 0 or
                 time.perf_counter() + (time.perf_counter() - began) / rollouts < deadline):
            self._iterate(node, request, top, prefer, side, base)
            rollouts += 1
        self.last_rollouts = rollouts
        pick = self._best(node, top, prefer)
        found = request.options(pick)
        if found.action is None:  # cannot happen: the path ends at a whole action
            return self._first(request)
        return found.action

    # -- the tree -----------------------------------------------------------------
    def _expand(self, node: _Node, request: DecisionRequest, chosen: tuple[Value, ...],
                prefer: Sequence[Value]) -> None:
        found: Options = options(request.ruleset, request.state, request.actor, chosen)
        node.children = {}
        if found.action is not None:
            node.action = found.action
            return
        step = found.step
        if step is None:
            return
        hint = prefer[len(chosen)] if len(prefer) > len(chosen) and \
            tuple(prefer[:len(chosen)]) == chosen else None
        if step.span is not None:
            values: list[Value] = list(_span_values(step.span.low, step.span.high,
                                                    step.span.default, hint))
        else:
            values = [c.value for c in step.choices]
            if hint in values:
                values.remove(hint)
                values.insert(0, hint)
        node.order = values

    def _child(self, node: _Node, request: DecisionRequest, chosen: tuple[Value, ...],
               prefer: Sequence[Value]) -> _Node:
        assert node.children is not None
        child = node.children.get(chosen[-1])
        if child is None:
            child = node.children[chosen[-1]] = _Node()
            self._expand(child, request, chosen, prefer)
        return child

    def _iterate(self, root: _Node, request: DecisionRequest, top: tuple[Value, ...],
                 prefer: Sequence[Value], side: str, base: int) -> None:
        path = [root]
        node = root
        chosen = list(top)
        while node.action is None:
            if not node.order:  # a dead end (a rule-set slip): score it as a loss
                for n in path:
                    n.add(0.0)
                return
            value = self._select(node)
            chosen.append(value)
            node = self._child(node, request, tuple(chosen), prefer)
            path.append(node)
        ruleset = self.ruleset
        state = ruleset.clone_state(request.state)
        rng = SeededRng(derive_seed(base, node.n))  # same dice for the k-th try of each action
        try:
            apply_action(ruleset, state, node.action, rng)
            stuck = play_on(ruleset, state, rng, self.heuristic, self.budget.horizon)
            if stuck is not None and self._side_of(ruleset, state, stuck) == side:
                result = 0.0  # a dead end of our own making: never worth choosing
            else:
                result = evaluate(ruleset, state, side)
        except FracasError:
            result = 0.0
        for n in path:
            n.add(result)

    def _select(self, node: _Node) -> Value:
        children = node.children
        assert children is not None
        for value in node.order:
            child = children.get(value)
            if child is None or child.n == 0:
                return value
        log_n = math.log(node.n)
        c = self.exploration
        best, best_score = node.order[0], -1.0
        for value in node.order:
            child = children[value]
            score = child.mean() + c * math.sqrt(log_n / child.n)
            if score > best_score:
                best, best_score = value, score
        return best

    def _best(self, root: _Node, top: tuple[Value, ...], prefer: Sequence[Value]) -> list[Value]:
        """The most visited path; the heuristic's choice unless another clearly scores more."""
        chosen = list(top)
        node = root
        while node.action is None and node.children:
            visited = [(v, c) for v, c in node.children.items() if c.n > 0]
            if not visited:
                chosen.append(node.order[0])
                break
            value, node = max(visited, key=lambda vc: (vc[1].n, vc[1].mean()))
            chosen.append(value)
        leaf = node
        if prefer and tuple(prefer[:len(top)]) == top:
            h = self._find(root, top, prefer)
            if h is not None and h is not leaf and h.n > 0 and leaf.n > 0:
                err = math.sqrt(leaf.var() / leaf.n + h.var() / h.n)
                if leaf.mean() - h.mean() <= self.margin * err:
                    return list(prefer)
            elif h is not None and h.n > 0 and leaf.n == 0:
                return list(prefer)
        return chosen

    @staticmethod
    def _find(root: _Node, top: tuple[Value, ...], prefer: Sequence[Value]) -> _Node | None:
        node: _Node | None = root
        for value in prefer[len(top):]:
            if node is None or node.children is None:
                return None
            node = node.children.get(value)
        return node

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
    def _vet(request: DecisionRequest, chosen: tuple[Value, ...], action: Action) -> Action:
        found = request.options(chosen)
        return found.action if found.action is not None else action

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


#: Rollouts a decision when a scenario or the command line names no budget.
DEFAULT_ROLLOUTS = 32


def search_policy(ruleset: Ruleset[Any], actor: str,
                  settings: Mapping[str, Any] | None = None) -> SearchPolicy:
    """The ``search`` policy a rule set's ``policy(name, actor, options)`` hands out.

    ``settings`` may hold ``ms`` (milliseconds per decision; without it or ``rollouts``,
    a fixed :data:`DEFAULT_ROLLOUTS` rollouts a decision, so fights replay), ``turn_ms``
    (milliseconds for all of an actor's decisions in a round, default 800), ``rollouts``
    (a fixed number per decision instead of, or as well as, a time limit), ``horizon``
    (decisions per rollout), ``side`` (for a GM that runs one side) and ``seed``.
    """
    settings = settings or {}
    # With no budget named, a fixed number of rollouts: a seeded fight then replays
    # identically on any machine (a time budget depends on the machine's speed).
    ms = settings.get("ms")
    rollouts = settings.get("rollouts", None if ms is not None else DEFAULT_ROLLOUTS)
    budget = SearchBudget(rollouts=None if rollouts is None else int(rollouts),
                          ms=None if ms is None else float(ms),
                          horizon=int(settings.get("horizon", 400)),
                          turn_ms=None if ms is None else float(settings.get("turn_ms", 800.0)))
    side = settings.get("side")
    return SearchPolicy(ruleset, budget, side=None if side is None else str(side),
                        seed=int(settings.get("seed", 0)))
