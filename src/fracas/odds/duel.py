"""Exact win probabilities of a whole fight by dynamic programming over its states.

The solver drives any rule set through the core hooks only.  From each decision
point it plays one decision (the actor's policy chooses, the rule set resolves
and advances) with a *forcing* Rng that enumerates every chance outcome instead
of drawing one:

* ``die(sides)`` and ``choice_index(n)`` branch into their ``sides`` / ``n``
  equally likely results (so a random policy is a chance node too);
* ``dice(count, sides)`` branches into the *sorted multisets* of faces, each with
  its multinomial weight: 2,002 outcomes for 9d6 instead of 10,077,696 sequences.
  This assumes the rule set's result depends on which faces were rolled and not
  on their order, which holds for dice pools and totals.  Faces come in
  ascending order.

Python cannot pause a function half-way, so a chance point is explored by
running the decision again from a copy of the state with the outcomes chosen so
far forced (a depth-first walk over the chance tree of that one decision).  The
states reached are merged by ``(current actor, ruleset.state_key(state))``;
ended fights are merged by winner.  The resulting graph may have cycles (a fight
that can come back to the same position); it is solved strongly connected
component by component, sinks first: components without a cycle by direct
substitution, cyclic ones by a dense linear solve (up to 1,500 states) or by
iteration to a change below ``1e-12``.  Probabilities are floating point: exact
up to rounding (about 1e-12), not sampled.

Policies must be fixed: a function of the state (and of the Rng, whose draws are
enumerated).  Scripted and human-played combatants are refused.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb, factorial
from typing import Any

import numpy as np

from fracas.core.errors import FracasError
from fracas.core.events import DecisionMade, Event
from fracas.core.policy import (
    DecisionRequest,
    HumanPolicy,
    Policy,
    ScriptedPolicy,
    scenario_policies,
)
from fracas.core.ruleset import Ruleset
from fracas.scenario import Scenario

__all__ = [
    "DEFAULT_MAX_LEAVES",
    "DEFAULT_MAX_STATES",
    "MIN_PATH_PROBABILITY",
    "DuelError",
    "DuelLimits",
    "DuelOdds",
    "StateSpaceTooLargeError",
    "dice_outcomes",
    "solve_duel",
    "solve_from_state",
]

DEFAULT_MAX_STATES = 200_000
DEFAULT_MAX_LEAVES = 20_000_000
#: A chance path less likely than this is not followed (its mass is reported as pruned);
#: this keeps rules that reroll ties until they differ from branching forever.
MIN_PATH_PROBABILITY = 1e-15
#: Largest number of chance outcomes one roll may branch into.
MAX_OUTCOMES_PER_ROLL = 100_000
_DENSE_LIMIT = 1_500
_TOLERANCE = 1e-12
_CHAIN_LIMIT = 64


class DuelError(FracasError):
    """The fight cannot be solved exactly as set up (human or scripted policies, ...)."""

    exit_code = 2


class StateSpaceTooLargeError(DuelError):
    """The fight has too many states (or chance outcomes) to solve exactly."""


# --------------------------------------------------------------------------- chance outcomes
@lru_cache(maxsize=256)
def dice_outcomes(count: int, sides: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every sorted multiset of ``count`` faces of a ``sides``-sided die, with its probability.

    The weight of a multiset is the number of orderings that show it,
    ``count! / prod(m_f!)``, out of ``sides ** count``.

    Raises:
        StateSpaceTooLargeError: more than :data:`MAX_OUTCOMES_PER_ROLL` multisets.
    """
    if count == 0:
        return (((), 1.0),)
    size = comb(count + sides - 1, sides - 1)
    if size > MAX_OUTCOMES_PER_ROLL:
        raise StateSpaceTooLargeError(
            f"a roll of {count}d{sides} has {size:,} distinct outcomes, more than the "
            f"{MAX_OUTCOMES_PER_ROLL:,} the exact solver allows for one roll"
        )
    total = sides**count
    top = factorial(count)
    out: list[tuple[tuple[int, ...], float]] = []

    def place(face: int, left: int, faces: list[int], ways: int) -> None:
        if face == sides:
            faces.extend([face] * left)
            out.append((tuple(faces), ways // factorial(left) / total))
            del faces[len(faces) - left:]
            return
        for k in range(left + 1):
            faces.extend([face] * k)
            place(face + 1, left - k, faces, ways // factorial(k))
            del faces[len(faces) - k:]

    place(1, count, [], top)
    return tuple(out)


@lru_cache(maxsize=256)
def _uniform(n: int) -> tuple[tuple[int, float], ...]:
    return tuple((i, 1.0 / n) for i in range(n))


class _Branch(BaseException):
    """Raised by the forcing Rng at an unexplored chance point.

    A ``BaseException`` so that a rule set's ``except Exception`` cannot swallow it.
    """

    def __init__(self, outcomes: Sequence[tuple[Any, float]]) -> None:
        super().__init__()
        self.outcomes = outcomes


class _ForcingRng:
    """An Rng replaying forced outcome indices, then branching at the next chance point."""

    __slots__ = ("_pos", "_prefix")

    def __init__(self, prefix: tuple[int, ...]) -> None:
        self._prefix = prefix
        self._pos = 0

    def _take(self, outcomes: Sequence[tuple[Any, float]]) -> Any:
        if self._pos < len(self._prefix):
            value = outcomes[self._prefix[self._pos]][0]
            self._pos += 1
            return value
        raise _Branch(outcomes)

    def die(self, sides: int) -> int:
        return int(self._take(_uniform(sides))) + 1

    def dice(self, count: int, sides: int) -> list[int]:
        return list(self._take(dice_outcomes(count, sides)))

    def choice_index(self, n: int) -> int:
        return int(self._take(_uniform(n)))


# --------------------------------------------------------------------------- results
@dataclass(frozen=True, slots=True)
class DuelOdds:
    """The exact result of a fight under fixed policies.

    Attributes:
        sides: side -> probability that it wins.
        draw: probability that the fight ends with no winner.
        unresolved: probability that it never ends (a loop nobody can leave).
        pruned: probability of the chance paths too unlikely to follow (below
            :data:`MIN_PATH_PROBABILITY` each); 0 unless a rule can reroll without end.
        states: distinct decision states explored.
        leaves: complete decision resolutions the solver ran.
        seconds: wall time.
    """

    sides: dict[str, float]
    draw: float
    unresolved: float
    pruned: float
    states: int
    leaves: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of the result."""
        return {"sides": dict(self.sides), "draw": self.draw, "unresolved": self.unresolved,
                "pruned": self.pruned, "states": self.states, "leaves": self.leaves,
                "seconds": self.seconds}


# --------------------------------------------------------------------------- exploring
_Step = Callable[[Any, Any], None]
#: Progress callback: (states expanded, states found, single-decision resolutions run).
Progress = Callable[[int, int, int], None]
#: The label of pruned chance paths (no side can have this name: it is not text).
_PRUNED = object()


@dataclass(frozen=True, slots=True)
class DuelLimits:
    """When the solver gives up (each with a message saying which limit was hit).

    Attributes:
        max_states: distinct decision states.
        max_leaves: single-decision resolutions run (the chance trees' leaves).
        max_seconds: wall time; ``None`` for no limit.
    """

    max_states: int = DEFAULT_MAX_STATES
    max_leaves: int = DEFAULT_MAX_LEAVES
    max_seconds: float | None = None

    def __post_init__(self) -> None:
        for name in ("max_states", "max_leaves"):
            if getattr(self, name) < 1:
                raise DuelError(f"--{name.replace('_', '-')} must be at least 1, "
                                f"got {getattr(self, name)}")
        if self.max_seconds is not None and not self.max_seconds >= 0:  # refuses NaN too
            raise DuelError(f"--max-seconds must be 0 or more, got {self.max_seconds:g}")


class _Explorer:
    def __init__(self, ruleset: Ruleset[Any], policies: Callable[[str], Policy],
                 limits: DuelLimits) -> None:
        self.rs = ruleset
        self.pick = policies
        self.max_states = limits.max_states
        self.max_leaves = limits.max_leaves
        self.deadline = (None if limits.max_seconds is None
                         else time.perf_counter() + limits.max_seconds)
        self.max_seconds = limits.max_seconds
        self.labels: list[object] = []
        self.label_index: dict[object, int] = {}
        self.index: dict[Hashable, int] = {}
        self.states: list[Any] = []
        self.edges: list[dict[int, float]] = []
        self.leaves = 0
        self.done = 0

    def check_deadline(self) -> None:
        """Give up once the time limit has passed (checked inside long expansions too)."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise StateSpaceTooLargeError(
                f"gave up after {self.max_seconds:g} s with {self.done:,} of the "
                f"{len(self.states):,} states found so far solved ({self.leaves:,} "
                "resolutions): the fight is too large to solve exactly in that time; "
                "allow more time or estimate it with 'fracas simulate'"
            )

    def label(self, winner: object) -> int:
        if winner not in self.label_index:
            self.label_index[winner] = len(self.labels)
            self.labels.append(winner)
        return self.label_index[winner]

    def decide(self, state: Any, rng: Any) -> None:
        rs = self.rs
        actor = rs.current_actor(state)
        if actor is None:
            return
        action = self.pick(actor).choose(DecisionRequest(actor, state, rs, rng))
        rs.check(state, action)

        def emit(event: Event) -> None:
            rs.apply_event(state, event)

        emit(DecisionMade(actor, action))
        rs.resolve(state, action, rng, emit)
        rs.advance(state, rng, emit)

    def start(self, state: Any, rng: Any) -> None:
        self.rs.advance(state, rng, lambda event: self.rs.apply_event(state, event))

    def target(self, state: Any) -> int:
        """Where ``state`` lands in the graph, after the decisions that involve no chance.

        Returns a node index (>= 0) or ``-1 - label`` for an ended fight.  Only states
        just before a chance point (or the end) become nodes, so positions that differ
        only in, say, the faces of a pool already spent never multiply.  The walk stops
        early at a state that is already a node, and a chain of chance-free decisions
        is cut after a fixed length, so a loop without chance (both sides waiting
        forever) still closes through a node.
        """
        rs = self.rs
        for _ in range(_CHAIN_LIMIT):
            actor = rs.current_actor(state)
            if actor is None:
                outcome = rs.outcome(state)
                return -1 - self.label(outcome.winner if outcome is not None else None)
            key = (actor, rs.state_key(state))
            node = self.index.get(key)
            if node is not None:
                return node
            trial = rs.clone_state(state)
            try:
                self.decide(trial, _ForcingRng(()))
            except _Branch:
                return self.new_node(key, state)
            state = trial
        actor = rs.current_actor(state)
        if actor is None:
            return self.target(state)
        key = (actor, rs.state_key(state))
        node = self.index.get(key)
        return node if node is not None else self.new_node(key, state)

    def new_node(self, key: Hashable, state: Any) -> int:
        """Add a decision state to the graph (within the state limit)."""
        if len(self.states) >= self.max_states:
            raise StateSpaceTooLargeError(
                f"the fight has more than {self.max_states:,} distinct states; it is too "
                "large to solve exactly (raise --max-states, or estimate it with "
                "'fracas simulate')"
            )
        node = len(self.states)
        self.index[key] = node
        self.states.append(state)
        self.edges.append({})
        return node

    def expand(self, state: Any, step: _Step) -> dict[int, float]:
        """Every result of one ``step`` from ``state``, with its probability."""
        rs = self.rs
        out: dict[int, float] = {}
        stack: list[tuple[tuple[int, ...], float]] = [((), 1.0)]
        steps = 0
        while stack:
            steps += 1
            if steps % 256 == 0:
                self.check_deadline()
            prefix, p = stack.pop()
            s = rs.clone_state(state)
            try:
                step(s, _ForcingRng(prefix))
            except _Branch as branch:
                for i, (_, q) in enumerate(branch.outcomes):
                    if p * q >= MIN_PATH_PROBABILITY:
                        stack.append(((*prefix, i), p * q))
                    else:
                        pruned = -1 - self.label(_PRUNED)
                        out[pruned] = out.get(pruned, 0.0) + p * q
                continue
            self.leaves += 1
            if self.leaves > self.max_leaves:
                raise StateSpaceTooLargeError(
                    f"solving needs more than {self.max_leaves:,} resolutions of single "
                    "decisions (the chance trees are too bushy); estimate it with "
                    "'fracas simulate' instead"
                )
            node = self.target(s)
            out[node] = out.get(node, 0.0) + p
        return out

    def explore(self, initial: Any, started: bool, progress: Progress | None) -> int:
        """Build the whole graph; returns the root's target index."""
        if started:
            root = self.target(self.rs.clone_state(initial))
        else:
            first = self.expand(initial, self.start)
            root = len(self.states)
            self.states.append(None)
            self.edges.append(first)
        while self.done < len(self.states):
            done = self.done
            if self.states[done] is not None:
                self.edges[done] = self.expand(self.states[done], self.decide)
                self.states[done] = None  # keep memory to the graph
            self.done = done + 1
            if progress is not None:
                progress(self.done, len(self.states), self.leaves)
            self.check_deadline()
        return root


# --------------------------------------------------------------------------- solving
def _components(edges: Sequence[dict[int, float]]) -> list[list[int]]:
    """Tarjan's strongly connected components, sinks first (iterative)."""
    n = len(edges)
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in range(n):
        if index[root] != -1:
            continue
        work: list[tuple[int, Any]] = [(root, iter(edges[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            v, children = work[-1]
            advanced = False
            for w in children:
                if w < 0:
                    continue
                if index[w] == -1:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, iter(edges[w])))
                    advanced = True
                    break
                if on_stack[w]:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
            if low[v] == index[v]:
                component: list[int] = []
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    component.append(w)
                    if w == v:
                        break
                out.append(component)
    return out


def _solve(edges: Sequence[dict[int, float]], labels: int) -> np.ndarray[Any, Any]:
    """Probability of ending with each label from every node."""
    values = np.zeros((len(edges), labels))
    for component in _components(edges):
        members = set(component)
        if len(component) == 1 and component[0] not in edges[component[0]]:
            v = component[0]
            row = values[v]
            for w, p in edges[v].items():
                if w < 0:
                    row[-1 - w] += p
                else:
                    row += p * values[w]
            continue
        local = {v: i for i, v in enumerate(component)}
        m = len(component)
        rhs = np.zeros((m, labels))
        rows: list[int] = []
        cols: list[int] = []
        probs: list[float] = []
        for v in component:
            i = local[v]
            for w, p in edges[v].items():
                if w < 0:
                    rhs[i, -1 - w] += p
                elif w in members:
                    rows.append(i)
                    cols.append(local[w])
                    probs.append(p)
                else:
                    rhs[i] += p * values[w]
        solution = _solve_component(m, rhs, np.array(rows, dtype=np.int64),
                                    np.array(cols, dtype=np.int64), np.array(probs))
        for v in component:
            values[v] = solution[local[v]]
    return values


def _solve_component(m: int, rhs: np.ndarray[Any, Any], rows: np.ndarray[Any, Any],
                     cols: np.ndarray[Any, Any], probs: np.ndarray[Any, Any],
                     ) -> np.ndarray[Any, Any]:
    """Solve ``x = Q x + rhs`` for one cyclic component (Q given as coordinates)."""
    if m <= _DENSE_LIMIT:
        q = np.zeros((m, m))
        np.add.at(q, (rows, cols), probs)
        try:
            x = np.linalg.solve(np.eye(m) - q, rhs)
            if np.all(np.isfinite(x)) and x.min() > -1e-9 and x.sum(axis=1).max() < 1 + 1e-9:
                return np.clip(x, 0.0, 1.0)
        except np.linalg.LinAlgError:
            pass  # a loop nobody can leave: the iteration below finds the reachable part
    x = np.zeros_like(rhs)
    for _ in range(10_000_000 // max(1, m) + 1000):
        spread = probs[:, None] * x[cols]
        new = rhs.copy()
        for label in range(rhs.shape[1]):
            new[:, label] += np.bincount(rows, weights=spread[:, label], minlength=m)
        change = float(np.abs(new - x).max())
        x = new
        if change < _TOLERANCE:
            break
    return x


# --------------------------------------------------------------------------- entry points
def _refuse_unfixed(actor: str, policy: Policy) -> None:
    if isinstance(policy, HumanPolicy):
        raise DuelError(f"{actor} is played by a human; exact odds need fixed policies")
    if isinstance(policy, ScriptedPolicy):
        raise DuelError(f"{actor} follows a script, which depends on the fight's "
                        "history; exact odds need policies that depend on the state only")


def _fixed_policies(ruleset: Ruleset[Any], state: Any) -> Callable[[str], Policy]:
    return scenario_policies(ruleset, state, _refuse_unfixed)


def solve_from_state(
    ruleset: Ruleset[Any], initial: Any, *, started: bool = False,
    limits: DuelLimits | None = None, progress: Progress | None = None,
) -> DuelOdds:
    """Exact outcome probabilities of the fight starting at ``initial``.

    Args:
        ruleset: the rules.
        initial: the starting state (not changed).
        started: ``False`` for a fresh scenario state (the rule set's ``advance`` runs
            first, as when an encounter starts); ``True`` for a state at a decision.
        limits: when to give up (:class:`DuelLimits`; by default on states and
            resolutions, not on time).
        progress: called after each state is expanded with (states expanded,
            states found, resolutions run).

    Raises:
        StateSpaceTooLargeError: the fight is too large; the message says which limit.
        DuelError: a combatant is played by a human or by a script.
    """
    began = time.perf_counter()
    explorer = _Explorer(ruleset, _fixed_policies(ruleset, initial), limits or DuelLimits())
    sides = list(dict.fromkeys(s.side for s in ruleset.standings(initial)))
    for side in sides:
        explorer.label(side)
    explorer.label(None)
    root = explorer.explore(initial, started, progress)
    if root < 0:
        chances = np.zeros(len(explorer.labels))
        chances[-1 - root] = 1.0
    else:
        chances = _solve(explorer.edges, len(explorer.labels))[root]
    result = {label: float(chances[i]) for i, label in enumerate(explorer.labels)}
    draw = result.pop(None)
    pruned = result.pop(_PRUNED, 0.0)
    wins = {str(k): v for k, v in result.items()}
    unresolved = max(0.0, 1.0 - draw - pruned - sum(wins.values()))
    return DuelOdds(wins, draw, unresolved, pruned, len(explorer.index), explorer.leaves,
                    time.perf_counter() - began)


def solve_duel(
    scenario: Scenario, *, limits: DuelLimits | None = None, progress: Progress | None = None,
) -> DuelOdds:
    """Exact win probabilities of a loaded scenario under the policies it names.

    See :func:`solve_from_state` for the limits and errors.
    """
    ruleset = scenario.ruleset
    return solve_from_state(ruleset, ruleset.initial_state(scenario.model), started=False,
                            limits=limits, progress=progress)
