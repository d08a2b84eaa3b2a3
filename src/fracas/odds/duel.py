"""Exact win probabilities of a whole fight by dynamic programming over its states.

The solver drives any rule set through the core hooks only, with an Rng that
enumerates chance instead of drawing it:

* **A decision is made once.**  At a decision state the actor's policy chooses
  (a random policy's own draws are enumerated: each is a chance point of the
  decision), the action is checked, and the state just after the decision is
  kept.  Every roll that follows is a chance point the solver branches on from
  that kept state: it re-runs only the resolution, never the policy or the check.
* **A pool branches on face classes.**  ``rng.dice(count, sides)`` asks the rule
  set which faces the fight can tell apart
  (:meth:`~fracas.core.ruleset.Ruleset.face_classes`) and branches on how many
  dice fall in each class, with exact multinomial weights (Fractions): 9d6 read
  as 1-3 / 4-5 / 6 gives 55 outcomes instead of 2,002 sorted faces.  A rule set
  that says nothing keeps every face distinct (sorted multisets: the result may
  depend on which faces were rolled, not on their order).  ``die`` and
  ``choice_index`` branch into their equally likely results.

Python cannot pause a function half-way, so the outcomes of one resolution are
walked depth first by replaying the values chosen so far (cheap: only the
resolution runs again, from a copy of the kept state).  Decision states are
merged by ``(current actor, ruleset.state_key(state))``, ended fights by winner;
only states whose decision leads to chance become nodes of the graph, and the
chains of chance-free decisions between them are remembered by key, so a
position reached again costs one lookup.  The graph may have cycles (a round in
which nobody hurts anybody); it is solved strongly connected component by
component, sinks first: by substitution, a dense linear solve (up to 1,500
states) or iteration to a change below ``1e-12``.  Probabilities are floating
point: exact up to rounding (about 1e-12), not sampled.

States are merged only as far as the rule set's key allows (``Ruleset.state_key``,
by default the whole state: sound by construction; the conformance kit checks any
key that merges more).  A key that leaves the round out comes with the round limit
(``Ruleset.round_limit``): its graph is then solved round by round, the value of each
state with ``n`` rounds left from the values with fewer, so that draws at the limit
are exact while the positions of different rounds are explored once (if a state was
first met so near the limit that its own play passed it, the fight is solved again
with the round in the key).

Policies must be fixed: a function of the state (and of their Rng, whose draws
are enumerated).  Scripted and human-played combatants are refused.  Limits are in
CPU seconds of this process (``time.process_time``), so a loaded machine refuses no
fight an idle one solves.  A fight too large to solve within its limit is refused
early, with what makes it large and what would make it solvable.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, partial
from math import comb, factorial
from pathlib import Path
from typing import Any

import numpy as np

from fracas.core.decision import options
from fracas.core.errors import FracasError, ScriptExhaustedError
from fracas.core.events import DecisionMade
from fracas.core.loop import resolve_decision
from fracas.core.policy import (
    DecisionRequest,
    HumanPolicy,
    Policy,
    RandomPolicy,
    ScriptedPolicy,
    scenario_policies,
)
from fracas.core.ruleset import Action, Ruleset
from fracas.scenario import Scenario

__all__ = [
    "DEFAULT_MAX_LEAVES",
    "DEFAULT_MAX_SECONDS",
    "DEFAULT_MAX_STATES",
    "MIN_PATH_PROBABILITY",
    "DuelError",
    "DuelLimits",
    "DuelOdds",
    "DuelProgress",
    "Progress",
    "StateSpaceTooLargeError",
    "Watch",
    "dice_outcomes",
    "pool_outcomes",
    "solve_duel",
    "solve_from_log",
    "solve_from_state",
    "state_from_log",
]

DEFAULT_MAX_STATES = 200_000
DEFAULT_MAX_LEAVES = 20_000_000
#: CPU seconds of this process (``time.process_time``: the same on a loaded machine as on
#: an idle one) before the solver gives up (and it gives up earlier when its
#: own pace shows it cannot finish in time).
DEFAULT_MAX_SECONDS = 60.0
#: A chance path less likely than this is not followed (its mass is reported as pruned);
#: this keeps rules that reroll ties until they differ from branching forever.
MIN_PATH_PROBABILITY = 1e-15
#: Largest number of chance outcomes one roll may branch into.
MAX_OUTCOMES_PER_ROLL = 100_000
#: The solver judges its own pace only after this share of its time limit (at least 1 s).
_WARM_UP_SHARE = 0.05
_DENSE_LIMIT = 1_500
_TOLERANCE = 1e-12
_CHAIN_LIMIT = 64
#: While solving, the young objects are swept for reference cycles only once this many
#: have piled up (see :func:`_sweep_young_only`).
_YOUNG_LIMIT = 1_000_000


class DuelError(FracasError):
    """The fight cannot be solved exactly as set up (human or scripted policies, ...)."""

    exit_code = 2


class StateSpaceTooLargeError(DuelError):
    """The fight has too many states (or chance outcomes) to solve exactly."""


# --------------------------------------------------------------------------- chance outcomes
Faces = tuple[int, ...]
Classes = tuple[tuple[int, ...], ...]


def _refuse_size(count: int, sides: int, size: int, classes: Classes | None) -> None:
    if size > MAX_OUTCOMES_PER_ROLL:
        told = ("every face told apart" if classes is None
                else f"{len(classes)} classes of faces told apart")
        raise StateSpaceTooLargeError(
            f"a roll of {count}d{sides} has {size:,} distinct outcomes ({told}), more than "
            f"the {MAX_OUTCOMES_PER_ROLL:,} the exact solver allows for one roll; estimate "
            "the fight with 'fracas simulate' instead"
        )


@lru_cache(maxsize=1024)
def pool_outcomes(count: int, sides: int, classes: Classes | None = None,
                  ) -> tuple[tuple[Faces, Fraction], ...]:
    """Every distinguishable result of ``count`` dice of ``sides`` faces, with its exact chance.

    With ``classes`` (a partition of ``1..sides``), a result is how many dice fall in
    each class, shown as that many copies of the class's lowest face; its chance is
    the multinomial ``count! / prod(k_i!) * prod(|class_i| ** k_i) / sides ** count``.
    Without, every face is its own class: the sorted multisets of faces.  Faces come in
    ascending order.

    Raises:
        StateSpaceTooLargeError: more than :data:`MAX_OUTCOMES_PER_ROLL` results.
    """
    groups = classes if classes is not None else tuple((f,) for f in range(1, sides + 1))
    if count == 0:
        return (((), Fraction(1)),)
    _refuse_size(count, sides, comb(count + len(groups) - 1, len(groups) - 1), classes)
    order = sorted(groups, key=min)
    shown = [min(g) for g in order]
    weights = [len(g) for g in order]
    total = sides**count
    out: list[tuple[Faces, Fraction]] = []
    faces: list[int] = []

    def place(i: int, left: int, ways: int) -> None:
        if i == len(order) - 1:
            faces.extend([shown[i]] * left)
            out.append((tuple(faces), Fraction(ways * weights[i]**left, factorial(left) * total)))
            del faces[len(faces) - left:]
            return
        for k in range(left + 1):
            faces.extend([shown[i]] * k)
            place(i + 1, left - k, ways * weights[i]**k // factorial(k))
            del faces[len(faces) - k:]

    place(0, count, factorial(count))
    return tuple(out)


@lru_cache(maxsize=256)
def dice_outcomes(count: int, sides: int) -> tuple[tuple[Faces, float], ...]:
    """Every sorted multiset of ``count`` faces of a ``sides``-sided die, with its probability.

    The weight of a multiset is the number of orderings that show it,
    ``count! / prod(m_f!)``, out of ``sides ** count`` (see :func:`pool_outcomes`).

    Raises:
        StateSpaceTooLargeError: more than :data:`MAX_OUTCOMES_PER_ROLL` multisets.
    """
    return tuple((faces, float(p)) for faces, p in pool_outcomes(count, sides))


@lru_cache(maxsize=1024)
def _pool_branches(count: int, sides: int, classes: Classes | None,
                   ) -> tuple[tuple[Faces, float], ...]:
    return tuple((faces, float(p)) for faces, p in pool_outcomes(count, sides, classes))


@lru_cache(maxsize=256)
def _uniform(n: int, first: int) -> tuple[tuple[int, float], ...]:
    return tuple((first + i, 1.0 / n) for i in range(n))


_CHECKED_CLASSES: dict[tuple[Any, int], Classes] = {}


def _normalise_classes(who: str, raw: Any, sides: int) -> Classes:
    """The rule set's face classes as a sorted tuple, checked to be a partition of the faces."""
    try:
        cached = _CHECKED_CLASSES.get((raw, sides))
    except TypeError:  # unhashable (lists): checked every time
        cached = None
    if cached is not None:
        return cached
    try:
        groups = [tuple(sorted(int(f) for f in group)) for group in raw]
    except (TypeError, ValueError):
        groups = []
    if any(not g for g in groups) or \
            sorted(f for g in groups for f in g) != list(range(1, sides + 1)):
        raise DuelError(f"{who}: face classes for a d{sides} must split the "
                        f"faces 1..{sides} into non-empty classes, each face once; got {raw!r}")
    classes = tuple(sorted(groups))
    with suppress(TypeError):  # unhashable: not remembered
        _CHECKED_CLASSES[(raw, sides)] = classes
    return classes


class _Branch(BaseException):
    """Raised by the chance Rng at a chance point not yet decided.

    A ``BaseException`` so that a rule set's ``except Exception`` cannot swallow it.
    """

    def __init__(self, outcomes: Sequence[tuple[Any, float]], what: str) -> None:
        super().__init__()
        self.outcomes = outcomes
        self.what = what


class _ChanceRng:
    """Replays the chance values chosen so far, then branches at the next chance point.

    ``state`` is the state the rules are changing (to ask the rule set's face classes
    at a pool); ``None`` for a policy's own draws (every face distinct).
    """

    __slots__ = ("_pos", "_prefix", "_ruleset", "_state")

    def __init__(self, prefix: tuple[Any, ...], ruleset: Ruleset[Any] | None,
                 state: Any) -> None:
        self._prefix = prefix
        self._pos = 0
        self._ruleset = ruleset
        self._state = state

    def die(self, sides: int) -> int:
        pos = self._pos
        if pos < len(self._prefix):
            self._pos = pos + 1
            return int(self._prefix[pos])
        raise _Branch(_uniform(sides, 1), f"a d{sides}")

    def dice(self, count: int, sides: int) -> list[int]:
        pos = self._pos
        if pos < len(self._prefix):
            self._pos = pos + 1
            return list(self._prefix[pos])
        raw = None if self._ruleset is None else \
            self._ruleset.face_classes(self._state, count, sides)
        return self._branch_pool(count, sides, raw)

    def dice_in_classes(self, count: int, sides: int, named: Sequence[Sequence[int]]) -> list[int]:
        """A pool whose roll site names its classes (see :func:`fracas.core.rng.roll_pool`)."""
        pos = self._pos
        if pos < len(self._prefix):
            self._pos = pos + 1
            return list(self._prefix[pos])
        return self._branch_pool(count, sides, named)

    def _branch_pool(self, count: int, sides: int, raw: Any) -> list[int]:
        classes: Classes | None = None
        if raw is not None:
            who = "a policy" if self._ruleset is None else f"rule set {self._ruleset.name}"
            classes = _normalise_classes(who, raw, sides)
        outcomes = _pool_branches(count, sides, classes)
        told = ("every face told apart" if classes is None or len(classes) == sides
                else "faces told apart as " + " / ".join(
                    f"{g[0]}-{g[-1]}" if len(g) > 1 else str(g[0]) for g in classes))
        raise _Branch(outcomes, f"{count}d{sides} ({told})")

    def choice_index(self, n: int) -> int:
        pos = self._pos
        if pos < len(self._prefix):
            self._pos = pos + 1
            return int(self._prefix[pos])
        raise _Branch(_uniform(n, 0), f"a random choice among {n}")


@contextmanager
def _sweep_young_only() -> Iterator[None]:
    """Keep Python's cycle collector off the solver's graph while it grows.

    The solver builds hundreds of thousands of long-lived objects (state keys, edges)
    and almost no reference cycles, so the collector's regular passes over the older
    generations cost a fifth of a solve and free nearly nothing.  Inside this block the
    automatic collector is off; :meth:`_Explorer.check_time` sweeps the youngest
    generation itself once :data:`_YOUNG_LIMIT` objects have piled up (each object is
    looked at about once), and the older ones wait until the block ends, when the
    collector is switched back on as it was.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


#: A policy's Rng before its first draw: with nothing to replay it changes nothing, so
#: one serves every decision (a draw raises the chance point to enumerate).
_NO_DRAWS = _ChanceRng((), None, None)


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
        states: distinct decision states explored (graph nodes and the chance-free
            decisions between them).
        leaves: resolutions the solver ran to the end (the chance trees' leaves).
        seconds: CPU seconds of the solve (``time.process_time``).
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


@dataclass(frozen=True, slots=True)
class DuelProgress:
    """Where the solver stands, for a live status line.

    Attributes:
        done: graph states expanded.
        found: graph states found so far (``done`` of them expanded).
        leaves: resolutions run.
        seconds: CPU seconds so far.
        at_least: a lower bound on the seconds still needed at the pace so far
            (every state found must still be expanded; more may appear), or ``None``
            before there is a pace to judge.
        widest: the chance point with the most outcomes met so far, in words.
    """

    done: int
    found: int
    leaves: int
    seconds: float
    at_least: float | None
    widest: str

    def line(self) -> str:
        """One line for a status display."""
        text = (f"solving: {self.done:,} of {self.found:,} states, {self.leaves:,} "
                f"resolutions, {self.seconds:.1f} s")
        if self.at_least is not None and self.done < self.found:
            text += f"; at least {self.at_least:.1f} s more"
        return text


_Run = Callable[[Any, Any], None]
#: Progress callback: (states expanded, states found, resolutions run).
Progress = Callable[[int, int, int], None]
#: Richer progress callback: a :class:`DuelProgress` after each state expanded.
Watch = Callable[[DuelProgress], None]
#: The label of pruned chance paths (no side can have this name: it is not text).
_PRUNED = object()


@dataclass(frozen=True, slots=True)
class DuelLimits:
    """When the solver gives up (each with a message saying which limit was hit).

    Attributes:
        max_states: distinct decision states (graph nodes).
        max_leaves: resolutions run (the chance trees' leaves).
        max_seconds: CPU seconds (``time.process_time``, so that a loaded machine
            refuses no fight an idle one solves); ``None`` for no limit.  Once a twentieth of it has
            passed (at least a second), the solver also stops as soon as its pace
            shows it cannot finish in time.
    """

    max_states: int = DEFAULT_MAX_STATES
    max_leaves: int = DEFAULT_MAX_LEAVES
    max_seconds: float | None = DEFAULT_MAX_SECONDS

    def __post_init__(self) -> None:
        for name in ("max_states", "max_leaves"):
            if getattr(self, name) < 1:
                raise DuelError(f"--{name.replace('_', '-')} must be at least 1, "
                                f"got {getattr(self, name)}")
        if self.max_seconds is not None and not self.max_seconds >= 0:  # refuses NaN too
            raise DuelError(f"--max-seconds must be 0 or more, got {self.max_seconds:g}")


class _Node:
    """A decision state whose decision leads to chance (or to a loop without chance)."""

    __slots__ = ("actor", "decisions", "first", "state")

    def __init__(self, actor: str, state: Any, decisions: list[tuple[Action, float]] | None,
                 first: _Branch | None) -> None:
        self.actor = actor
        self.state = state  # before the decision
        self.decisions = decisions
        self.first = first  # the first chance point of the decision's one action


class _Explorer:
    def __init__(self, ruleset: Ruleset[Any], policies: Callable[[str], Policy],
                 limits: DuelLimits, progress: Progress | None, watch: Watch | None) -> None:
        self.rs = ruleset
        #: The rule set's quick exact yes for a whole action (see ``decision.check``).
        self.allows: Callable[[Any, Action], bool] | None = getattr(ruleset, "allows", None)
        #: The rule set's fold of a decision without its event (see ``core.loop.play``).
        self.apply_decision: Callable[[Any, str, Action], None] | None = getattr(
            ruleset, "apply_decision", None)
        self.pick = policies
        self.limits = limits
        self.max_states = limits.max_states
        self.max_leaves = limits.max_leaves
        self.max_seconds = limits.max_seconds
        self.began = time.process_time()
        self.deadline = (None if limits.max_seconds is None
                         else self.began + limits.max_seconds)
        self.warm_up = (0.0 if limits.max_seconds is None
                        else max(1.0, _WARM_UP_SHARE * limits.max_seconds))
        self.progress = progress
        self.watch = watch
        self.last_watch = time.perf_counter()  # the display's pace is wall time
        self.labels: list[object] = []
        self.label_index: dict[object, int] = {}
        self.index: dict[Hashable, int] = {}
        #: key -> (node, rounds from that state to the node's): states passed through.
        self.through: dict[Hashable, tuple[int, int]] = {}
        #: The round limit of a key that leaves the round out (see ``Ruleset.round_limit``);
        #: ``None``: the keys keep every round that matters.
        self.limit: int | None = None
        #: The round of each node's state (only with a limit).
        self.rounds: list[int] = []
        #: The round of the state the last :meth:`target` landed on (only with a limit).
        self.landed = 0
        self.key_of: Callable[[Any], Hashable] = ruleset.state_key
        self.nodes: list[_Node | None] = []
        self.edges: list[dict[Any, float]] = []
        self.base_round = 0  # the round of the state being expanded (with a limit)
        self.leaves = 0
        self.done = 0
        self.mass = 0.0  # share of the outcomes of the state being expanded already followed
        self.widest = (0, "")
        self.most_actions = (0, "")

    # -- bookkeeping ------------------------------------------------------------------
    def label(self, winner: object) -> int:
        if winner not in self.label_index:
            self.label_index[winner] = len(self.labels)
            self.labels.append(winner)
        return self.label_index[winner]

    def report(self) -> DuelProgress:
        now = time.process_time()
        elapsed = now - self.began
        units = self.done + self.mass
        at_least = (elapsed / units * max(0.0, len(self.nodes) - units)
                    if units > 0 and elapsed > 0 else None)
        return DuelProgress(self.done, len(self.nodes), self.leaves, elapsed, at_least,
                            self.widest[1])

    def check_time(self) -> None:
        """Give up once the time limit has passed, or as soon as the pace shows it will.

        Also sweeps the young objects for cycles now and then (:func:`_sweep_young_only`).
        """
        if gc.get_count()[0] > _YOUNG_LIMIT:
            gc.collect(0)
        if self.watch is not None:
            now = time.perf_counter()
            if now - self.last_watch > 0.1:
                self.last_watch = now
                self.watch(self.report())
        if self.deadline is None or self.max_seconds is None:
            return
        now = time.process_time()
        if now > self.deadline:
            raise StateSpaceTooLargeError(
                f"gave up after {self.max_seconds:g} CPU s with {self.done:,} of the "
                f"{len(self.nodes):,} states found so far solved ({self.leaves:,} "
                f"resolutions): the fight is too large to solve exactly in that time"
                f"{self.cause()}{self.remedy(None)}"
            )
        if now - self.began < self.warm_up:
            return
        seen = self.report()
        if seen.at_least is not None and seen.seconds + seen.at_least > 1.25 * self.max_seconds:
            raise StateSpaceTooLargeError(
                f"too large to solve exactly within {self.max_seconds:g} CPU s: after "
                f"{seen.seconds:.1f} s, {self.done:,} of the {len(self.nodes):,} states found "
                f"so far are solved ({self.leaves:,} resolutions) and at this pace the rest "
                f"needs at least {seen.at_least:,.0f} s more{self.cause()}"
                f"{self.remedy(seen.seconds + seen.at_least)}"
            )

    def remedy(self, needed: float | None) -> str:
        """What would make the fight solvable, in words (the end of a refusal)."""
        ways = []
        if needed is not None and needed < 24 * 3600:
            ways.append(f"allow at least {needed * 1.2:,.0f} CPU s (--max-seconds; more "
                        "states may still appear)")
        elif needed is None:
            ways.append("allow more time (--max-seconds)")
        if self.widest[0] > 20:
            ways.append(f"smaller rolls: the rule set's face_classes can name the faces of "
                        f"{self.widest[1]} that its rules never tell apart")
        if len(self.nodes) > 1000:
            ways.append("fewer positions: fewer combatants, less health, or a state key "
                        "that merges what nothing reads again (docs/DEVELOPING.md, 'The "
                        "state key')")
        if self.most_actions[0] > 4:
            ways.append(f"a policy for {self.most_actions[1]} that picks one action "
                        "instead of one at random")
        ways.append("or estimate it with 'fracas simulate'")
        return "; to solve it: " + ", ".join(ways)

    def cause(self) -> str:
        """What makes the fight large, in words (for the messages that give up)."""
        parts = []
        found = len(self.nodes)
        if found > 1000:
            # Many distinct positions: the state count, not one roll, is what is large.
            parts.append(f"{found:,} distinct states found and counting, {found - self.done:,} "
                         "of them not yet solved (positions the fight's state tells apart: "
                         "health, places, rounds...)")
        if self.widest[0] and (found <= 1000 or self.widest[0] > 100):
            parts.append(f"its chance points branch into up to {self.widest[0]:,} outcomes "
                         f"(the widest: {self.widest[1]})")
        if self.done < len(self.nodes) and 0 < self.mass < 0.5:
            node = self.nodes[self.done]
            who = f"{node.actor}'s" if node is not None else "the opening"
            parts.append(f"{who} decision now being solved has covered only "
                         f"{100 * self.mass:.2g}% of its outcomes")
        if self.most_actions[0] > 1:
            parts.append(f"{self.most_actions[1]}'s policy picks at random among up to "
                         f"{self.most_actions[0]:,} actions in one decision")
        return "; what makes it large: " + ", ".join(parts) if parts else ""

    def new_node(self, key: Hashable, actor: str, state: Any,
                 decisions: list[tuple[Action, float]] | None, first: _Branch | None,
                 ) -> int:
        """Add a decision state to the graph (within the state limit)."""
        if len(self.nodes) >= self.max_states:
            raise StateSpaceTooLargeError(
                f"the fight has more than {self.max_states:,} distinct states; it is too "
                f"large to solve exactly{self.cause()} (raise --max-states, or estimate it "
                "with 'fracas simulate')"
            )
        node = len(self.nodes)
        self.index[key] = node
        self.through[key] = (node, 0)  # one lookup finds nodes and the states passed through
        if self.limit is not None:
            self.rounds.append(self.rs.round_number(state))
        self.nodes.append(_Node(actor, state, decisions, first))
        self.edges.append({})
        return node

    # -- one decision -----------------------------------------------------------------
    def decisions(self, state: Any, actor: str) -> list[tuple[Action, float]]:
        """The actions ``actor``'s policy takes in ``state``, with their chances, checked.

        A policy that draws from its Rng is enumerated over its draws (each draw
        re-runs the policy: its steps are its own).  Built-in policies that picked from
        the offered steps are not checked again.
        """
        rs = self.rs
        policy = self.pick(actor)
        if type(policy) is RandomPolicy:
            return self.random_decisions(state, actor)
        # The usual case first: a policy that draws nothing chooses once.
        request = DecisionRequest(actor, state, rs, _NO_DRAWS)
        try:
            action = policy.choose(request)
        except _Branch as branch:
            self.note(branch)
            stack: list[tuple[tuple[Any, ...], float]] = [((v,), q) for v, q in branch.outcomes]
        else:
            if action is not request._vetted or action.actor != actor:  # not found legal
                if action.actor != actor:
                    raise DuelError(f"{actor}'s policy chose an action for {action.actor}: "
                                    f"{action}")
                allows = self.allows
                if allows is None or not allows(state, action):
                    rs.check(state, action)
            if not self.most_actions[0]:
                self.most_actions = (1, actor)
            return [(action, 1.0)]
        found: list[tuple[Action, float]] = []
        while stack:
            prefix, p = stack.pop()
            request = DecisionRequest(actor, state, rs, _ChanceRng(prefix, None, None))
            try:
                action = policy.choose(request)
            except _Branch as branch:
                self.note(branch)
                stack.extend(((*prefix, v), p * q) for v, q in branch.outcomes)
                if len(stack) > 64:
                    self.check_time()
                continue
            if not request.vetted(action):
                if action.actor != actor:
                    raise DuelError(f"{actor}'s policy chose an action for {action.actor}: "
                                    f"{action}")
                rs.check(state, action)
            for i, (known, q) in enumerate(found):
                if known == action:
                    found[i] = (known, q + p)
                    break
            else:
                found.append((action, p))
        if len(found) > self.most_actions[0]:
            self.most_actions = (len(found), actor)
        return found

    def random_decisions(self, state: Any, actor: str) -> list[tuple[Action, float]]:
        """The core random policy's actions: uniform at each step, walked step by step.

        The same chances as enumerating its draws, but each step of the decision is
        asked once instead of once per way of reaching it.
        """
        rs = self.rs
        found: dict[Action, float] = {}
        stack: list[tuple[tuple[Any, ...], float]] = [((), 1.0)]
        asked = 0
        while stack:
            chosen, p = stack.pop()
            asked += 1
            if asked & 63 == 0:
                self.check_time()
            where = options(rs, state, actor, chosen)
            if where.action is not None:
                found[where.action] = found.get(where.action, 0.0) + p
                continue
            step = where.step
            if step is None:
                raise ScriptExhaustedError(f"{actor} has no legal action")
            values: Sequence[Any] = (range(step.span.low, step.span.high + 1)
                                     if step.span is not None
                                     else [c.value for c in step.choices])
            if len(values) > self.widest[0]:
                self.widest = (len(values), f"a random choice among {len(values)}")
            q = p / len(values)
            stack.extend(((*chosen, v), q) for v in values)
        if len(found) > self.most_actions[0]:
            self.most_actions = (len(found), actor)
        return list(found.items())

    def note(self, branch: _Branch) -> None:
        if len(branch.outcomes) > self.widest[0]:
            self.widest = (len(branch.outcomes), branch.what)

    def decide(self, state: Any, actor: str, action: Action) -> None:
        """Apply ``actor``'s decision ``action`` to ``state`` (the event itself is not kept)."""
        if self.apply_decision is not None:
            self.apply_decision(state, actor, action)
        else:
            self.rs.apply_event(state, DecisionMade(actor, action))

    def play(self, state: Any, action: Action, rng: Any) -> None:
        """Resolve ``action`` (its decision already applied) and advance to the next decision."""
        # the engine's own step; each event applied at once (no Python frame in between)
        resolve_decision(self.rs, state, action, rng, partial(self.rs.apply_event, state))


    def start(self, state: Any, rng: Any) -> None:
        self.rs.advance(state, rng, lambda event: self.rs.apply_event(state, event))

    # -- the graph --------------------------------------------------------------------
    def target(self, state: Any, rebuild: Callable[[], Any]) -> int:
        """Where ``state`` lands in the graph, after the decisions that involve no chance.

        Returns a node index (>= 0) or ``-1 - label`` for an ended fight.  ``state`` is
        the solver's own copy and is played on in place; ``rebuild()`` makes it again as
        it was (needed when a decision on the way turns out to lead to chance: the node
        keeps the state before that decision).  Only states whose decision leads to
        chance become nodes; the chance-free decisions on the way are remembered by key
        (a later visit is one lookup).  A chain of chance-free decisions is cut after a
        fixed length, so a loop without chance (both sides waiting forever) still closes
        through a node.
        """
        rs = self.rs
        current_actor, state_key, seen = rs.current_actor, self.key_of, self.through.get
        layered = self.limit is not None
        round_of = rs.round_number
        chain: list[tuple[Hashable, int]] = []
        played: list[Action] = []
        result: int | None = None
        landed = 0
        for _ in range(_CHAIN_LIMIT):
            actor = current_actor(state)
            if actor is None:
                outcome = rs.outcome(state)
                result = -1 - self.label(outcome.winner if outcome is not None else None)
                if layered:
                    landed = round_of(state)
                break
            key = (actor, state_key(state))
            found = seen(key)
            if found is not None:
                result = found[0]
                if layered:
                    landed = round_of(state) + found[1]
                break
            decisions = self.decisions(state, actor)
            if len(decisions) != 1:
                result = self.new_node(key, actor, state, decisions, None)
                if layered:
                    landed = round_of(state)
                break
            action = decisions[0][0]
            here = round_of(state) if layered else 0
            self.decide(state, actor, action)
            try:
                self.play(state, action, _ChanceRng((), rs, state))
            except _Branch as branch:
                # Kept in the node: without its traceback, whose frames would tie the
                # whole graph into one reference cycle (freed only by the cycle collector).
                branch.__traceback__ = None
                # The resolution may have changed the state before its first roll: the
                # node keeps the state before the decision, made again (once per node,
                # cheaper than counting every event of every resolution on the way).
                result = self.new_node(key, actor, self.replay(rebuild, played), decisions,
                                       branch)
                landed = here
                break
            chain.append((key, here))
            played.append(action)
        else:
            actor = rs.current_actor(state)
            if actor is None:
                return self.target(state, lambda: self.replay(rebuild, played))
            key = (actor, state_key(state))
            result = self.index.get(key)
            if result is None:
                result = self.new_node(key, actor, state, None, None)
            if layered:
                landed = round_of(state)
        assert result is not None
        through = self.through
        for passed, at in chain:
            through[passed] = (result, landed - at)
        self.landed = landed
        return result

    def replay(self, rebuild: Callable[[], Any], played: Sequence[Action]) -> Any:
        """The state ``rebuild()`` makes, played on by the chance-free ``played`` actions."""
        rs = self.rs
        state = rebuild()
        for action in played:
            actor = rs.current_actor(state)
            assert actor is not None
            self.decide(state, actor, action)
            self.play(state, action, _ChanceRng((), rs, state))
        return state

    def follow(self, base: Any, run: _Run, p0: float, out: dict[int, float],
               first: _Branch | None) -> None:
        """Add every result of ``run`` from ``base`` (reached with chance ``p0``) to ``out``."""
        rs = self.rs
        stack: list[tuple[tuple[Any, ...], float]] = []
        if first is None:
            stack.append(((), p0))
        else:
            self.branch((), p0, first, stack, out)
        steps = 0
        while stack:
            prefix, p = stack.pop()
            s = rs.clone_state(base)
            steps += 1
            if steps & 255 == 0:
                self.check_time()
            try:
                run(s, _ChanceRng(prefix, rs, s))
            except _Branch as branch:
                self.branch(prefix, p, branch, stack, out)
                continue
            self.leaves += 1
            if self.leaves > self.max_leaves:
                raise StateSpaceTooLargeError(
                    f"solving needs more than {self.max_leaves:,} resolutions of single "
                    f"decisions (the chance trees are too bushy{self.cause()}); estimate "
                    "it with 'fracas simulate' instead"
                )

            def rebuild(prefix: tuple[Any, ...] = prefix) -> Any:
                again = rs.clone_state(base)
                run(again, _ChanceRng(prefix, rs, again))
                return again

            node: Any = self.target(s, rebuild)
            if self.limit is not None:  # with the rounds it took (see _solve_by_rounds)
                node = (node, self.landed - self.base_round)
            out[node] = out.get(node, 0.0) + p
            self.mass += p

    def branch(self, prefix: tuple[Any, ...], p: float, branch: _Branch,
               stack: list[tuple[tuple[Any, ...], float]], out: dict[int, float]) -> None:
        self.note(branch)
        for value, q in branch.outcomes:
            pq = p * q
            if pq >= MIN_PATH_PROBABILITY:
                stack.append(((*prefix, value), pq))
            else:
                pruned: Any = -1 - self.label(_PRUNED)
                if self.limit is not None:
                    pruned = (pruned, 0)
                out[pruned] = out.get(pruned, 0.0) + pq
                self.mass += pq

    def expand(self, node: _Node) -> dict[int, float]:
        """Every result of the decision at ``node``, with its probability."""
        rs = self.rs
        out: dict[Any, float] = {}
        decisions = node.decisions
        if decisions is None:
            decisions = self.decisions(node.state, node.actor)
        if self.limit is not None:
            self.base_round = rs.round_number(node.state)
        for chosen, p in decisions:
            after = rs.clone_state(node.state)
            self.decide(after, node.actor, chosen)
            self.follow(after, self.runner(chosen), p, out,
                        node.first if len(decisions) == 1 else None)
        return out

    def runner(self, action: Action) -> _Run:
        """Resolving ``action`` as a function of a state and an Rng."""

        def run(state: Any, rng: Any) -> None:
            self.play(state, action, rng)

        return run

    def explore(self, initial: Any, started: bool) -> int:
        """Build the whole graph; returns the root's target index.

        With a round limit, :attr:`landed` is then the round the root's value is taken
        at (the root's own round, or the round of the state the opening led to).
        """
        if started:
            root = self.target(self.rs.clone_state(initial),
                               lambda: self.rs.clone_state(initial))
            root_round = self.landed
        else:
            first: dict[Any, float] = {}
            self.base_round = root_round = self.rs.round_number(initial)
            self.follow(self.rs.clone_state(initial), self.start, 1.0, first, None)
            root = len(self.nodes)
            self.nodes.append(None)
            self.edges.append(first)
            if self.limit is not None:
                self.rounds.append(root_round)
        while self.done < len(self.nodes):
            done = self.done
            node = self.nodes[done]
            self.mass = 0.0
            if node is not None:
                self.edges[done] = self.expand(node)
                self.nodes[done] = None  # keep memory to the graph
            self.done = done + 1
            self.mass = 0.0
            if self.progress is not None:
                self.progress(self.done, len(self.nodes), self.leaves)
            if self.watch is not None:
                self.last_watch = time.perf_counter()
                self.watch(self.report())
            self.check_time()
        self.landed = root_round
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
        solve_cycle(component, members, edges.__getitem__, values)
    return values


def solve_cycle(component: Sequence[int], members: set[int],
                out: Callable[[int], dict[int, float]], values: np.ndarray[Any, Any]) -> None:
    """Solve one strongly connected component in place: ``values[v]`` for each member.

    ``out(v)`` gives node ``v``'s successors with their chances (a negative successor
    ``-1 - k`` is the end with label ``k``); nodes outside the component must already
    hold their values.
    """
    labels = values.shape[1]
    local = {v: i for i, v in enumerate(component)}
    m = len(component)
    rhs = np.zeros((m, labels))
    rows: list[int] = []
    cols: list[int] = []
    probs: list[float] = []
    for v in component:
        i = local[v]
        for w, p in out(v).items():
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
    watch: Watch | None = None,
) -> DuelOdds:
    """Exact outcome probabilities of the fight starting at ``initial``.

    Args:
        ruleset: the rules.
        initial: the starting state (not changed).
        started: ``False`` for a fresh scenario state (the rule set's ``advance`` runs
            first, as when an encounter starts); ``True`` for a state at a decision.
        limits: when to give up (:class:`DuelLimits`; by default after 60 s, or
            earlier once the pace shows that is not enough).
        progress: called after each state is expanded with (states expanded,
            states found, resolutions run).
        watch: called after each state expanded, and every tenth of a second inside a
            long expansion, with a :class:`DuelProgress` (counts, time, an estimate).

    Raises:
        StateSpaceTooLargeError: the fight is too large; the message says which limit
            and what makes it large.
        DuelError: a combatant is played by a human or by a script.
    """
    policies = _fixed_policies(ruleset, initial)
    # The graph is dropped when _explore_and_solve returns, before the cycle collector
    # is on again: it never walks the solver's hundreds of thousands of dead objects.
    with _sweep_young_only():
        labels, chances, states, leaves, began = _explore_and_solve(
            _Explorer(ruleset, policies, limits or DuelLimits(), progress, watch),
            initial, started)
    result = {label: float(chances[i]) for i, label in enumerate(labels)}
    draw = result.pop(None)
    pruned = result.pop(_PRUNED, 0.0)
    wins = {str(k): v for k, v in result.items()}
    unresolved = max(0.0, 1.0 - draw - pruned - sum(wins.values()))
    return DuelOdds(wins, draw, unresolved, pruned, states, leaves,
                    time.process_time() - began)


def _explore_and_solve(explorer: _Explorer, initial: Any, started: bool,
                       ) -> tuple[list[object], np.ndarray[Any, Any], int, int, float]:
    """Build the graph and solve it: (labels, chance of each label, states, leaves, start)."""
    rs = explorer.rs
    sides = list(dict.fromkeys(s.side for s in rs.standings(initial)))
    for side in sides:
        explorer.label(side)
    draw = explorer.label(None)
    explorer.limit = rs.round_limit(initial)
    root = explorer.explore(initial, started)
    chances: np.ndarray[Any, Any] | None
    if root < 0:
        chances = np.zeros(len(explorer.labels))
        chances[-1 - root] = 1.0
    elif explorer.limit is None:
        chances = _solve(explorer.edges, len(explorer.labels))[root]
    else:
        chances = _solve_by_rounds(explorer.edges, explorer.rounds, explorer.limit, root,
                                   explorer.landed, len(explorer.labels), draw)
        if chances is None:
            # A state was first met so near the limit that its own play passed it: the
            # merged rounds cannot be told apart there, so solve again keeping the round.
            again = _Explorer(rs, explorer.pick, explorer.limits, explorer.progress,
                              explorer.watch)
            again.began = explorer.began
            again.leaves = explorer.leaves
            again.deadline = explorer.deadline
            key_of, round_of = rs.state_key, rs.round_number
            again.key_of = lambda state: (key_of(state), round_of(state))
            return _explore_and_solve_plain(again, initial, started)
    return explorer.labels, chances, len(explorer.index), explorer.leaves, explorer.began


def _explore_and_solve_plain(explorer: _Explorer, initial: Any, started: bool,
                             ) -> tuple[list[object], np.ndarray[Any, Any], int, int, float]:
    """:func:`_explore_and_solve` with every round kept in the key (no round layers)."""
    sides = list(dict.fromkeys(s.side for s in explorer.rs.standings(initial)))
    for side in sides:
        explorer.label(side)
    explorer.label(None)
    root = explorer.explore(initial, started)
    if root < 0:
        chances = np.zeros(len(explorer.labels))
        chances[-1 - root] = 1.0
    else:
        chances = _solve(explorer.edges, len(explorer.labels))[root]
    return explorer.labels, chances, len(explorer.index), explorer.leaves, explorer.began


#: The most states solved round by round, and the most passes of the moves within one
#: round (a chain of moves longer than this, or a loop, keeps the round in the key).
_LAYERED_LIMIT = 200_000
_ROUND_PASSES = 64


def _solve_by_rounds(edges: Sequence[dict[Any, float]], rounds: Sequence[int], limit: int,
                     root: int, root_round: int, labels: int, draw: int,
                     ) -> np.ndarray[Any, Any] | None:
    """The root's chance of each label when the keys leave the round out, round by round.

    Each edge is ``(target, rounds it took) -> chance``.  ``V[n]``, the value of every
    state with ``n`` rounds left before the limit, is ``W V[n] + (the edges that take
    d >= 1 rounds: V[n - d], or a draw when d > n)``, where ``W`` holds the edges
    within a round; the root has ``limit - root_round`` rounds left.  Once ``V`` stops
    changing over as many layers as the longest edge, it stays so (each layer is the
    same function of the ones before), and the rest is skipped.  ``None`` when a
    state's own play already passed the limit (its edges are not those of its key at
    other rounds) or when the moves within a round can loop: the caller then keeps the
    round in the key.
    """
    n = len(edges)
    if n > _LAYERED_LIMIT:
        return None
    src: list[int] = []
    dst: list[int] = []
    took: list[int] = []
    chance: list[float] = []
    end_src: list[int] = []
    end_label: list[int] = []
    end_took: list[int] = []
    end_chance: list[float] = []
    for v, out in enumerate(edges):
        here = rounds[v]
        for (w, d), p in out.items():
            if here + d > limit or (here + d == limit and w == -1 - draw):
                # this state's own play met the limit (a rule set may end the fight at
                # the close of the last round, still counting it): not the key's play
                return None
            if w < 0:
                end_src.append(v)
                end_label.append(-1 - w)
                end_took.append(d)
                end_chance.append(p)
            else:
                src.append(v)
                dst.append(w)
                took.append(d)
                chance.append(p)
    s_arr, d_arr = np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64)
    t_arr, p_arr = np.array(took, dtype=np.int64), np.array(chance)
    within = t_arr == 0
    ws, wd, wp = s_arr[within], d_arr[within], p_arr[within]
    later = [(int(d), s_arr[t_arr == d], d_arr[t_arr == d], p_arr[t_arr == d])
             for d in sorted(set(took)) if d > 0]
    passed = {d: np.bincount(fs, weights=fp, minlength=n) for d, fs, _, fp in later}
    es, el = np.array(end_src, dtype=np.int64), np.array(end_label, dtype=np.int64)
    et, ep = np.array(end_took, dtype=np.int64), np.array(end_chance)
    longest = max([d for d, *_ in later] + [int(et.max()) if len(et) else 0])

    def ends(left: int) -> np.ndarray[Any, Any]:
        """The ends' share of each state's value with ``left`` rounds left."""
        rhs = np.zeros((n, labels))
        now = et <= left
        for label in range(labels):
            mine = now & (el == label)
            if mine.any():
                rhs[:, label] += np.bincount(es[mine], weights=ep[mine], minlength=n)
        if not now.all():
            rhs[:, draw] += np.bincount(es[~now], weights=ep[~now], minlength=n)
        return rhs

    settled = ends(longest)
    layers: list[np.ndarray[Any, Any]] = []
    steady = 0
    wanted = limit - root_round
    if wanted < 0:
        ended = np.zeros(labels)
        ended[draw] = 1.0
        return ended
    for left in range(wanted + 1):
        rhs = settled.copy() if left >= longest else ends(left)
        for d, fs, fd, fp in later:
            if d > left:
                rhs[:, draw] += passed[d]
            else:
                before = layers[-d]
                for label in range(labels):
                    rhs[:, label] += np.bincount(fs, weights=fp * before[fd, label],
                                                 minlength=n)
        # x = W x + rhs within the round: exact after as many passes as the longest
        # chain of moves within a round (when no move leads back); a loop is refused.
        value = rhs
        for _ in range(_ROUND_PASSES):
            new = rhs.copy()
            for label in range(labels):
                new[:, label] += np.bincount(ws, weights=wp * value[wd, label], minlength=n)
            if np.array_equal(new, value):
                break
            value = new
        else:
            return None
        if layers and np.array_equal(value, layers[-1]):
            steady += 1
        else:
            steady = 0
        layers.append(value)
        if len(layers) > longest + 1:
            layers.pop(0)
        if steady > longest:
            break
    return np.asarray(layers[-1][root])


def solve_duel(
    scenario: Scenario, *, limits: DuelLimits | None = None, progress: Progress | None = None,
    watch: Watch | None = None,
) -> DuelOdds:
    """Exact win probabilities of a loaded scenario under the policies it names.

    See :func:`solve_from_state` for the limits, callbacks and errors.

    >>> from fracas.scenario import load_scenario
    >>> odds = solve_duel(load_scenario("examples/age_of_dragons/claw_duel.yaml"))
    >>> round(odds.sides["red"], 6), round(odds.sides["blue"], 6), odds.states
    (0.686474, 0.313526, 800)
    """
    ruleset = scenario.ruleset
    return solve_from_state(ruleset, ruleset.initial_state(scenario.model), started=False,
                            limits=limits, progress=progress, watch=watch)


def state_from_log(path: str | Path, round_number: int | None = None,
                   ) -> tuple[Ruleset[Any], Any, bool]:
    """The rule set and the state of a saved fight, to solve from; and whether it has started.

    The log is read through the one verified loader every door uses
    (:func:`fracas.scenario.logs.load_log`, as ``fracas replay``, ``play --from``,
    ``simulate --from`` and the console's import do): its decisions are replayed with
    its recorded dice and every event must be what the rules give.  With
    ``round_number``, the state is the one just before the first decision of that
    round; without, the state where the log ends (a log cut inside its last decision's
    results is refused there: that state is not at a decision).

    Raises:
        LogFormatError: the log cannot be read or does not replay by the rules.
        DuelError: the round is not in the log.
    """
    from fracas.scenario.logs import load_log

    loaded = load_log(path)
    encounter = loaded.encounter
    ruleset = encounter.ruleset
    if round_number is None:
        if not loaded.complete:
            loaded.continuable(str(path))  # raises: no decision to solve from
        return ruleset, encounter.state, bool(encounter.log)
    if round_number < 1:
        raise DuelError(f"--round must be at least 1, got {round_number}")
    state = encounter.initial_state
    last = 0
    for event in encounter.log:
        if type(event) is DecisionMade:
            last = ruleset.round_number(state)
            if last >= round_number:
                return ruleset, state, True
        ruleset.apply_event(state, event)
    if ruleset.current_actor(state) is not None and ruleset.round_number(state) >= round_number:
        return ruleset, state, True  # the log stops at the first decision of that round
    ended = ruleset.outcome(state)
    where = (f"the fight ended in round {ended.rounds}" if ended is not None
             else f"the log stops in round {max(last, ruleset.round_number(state))}")
    raise DuelError(f"{path}: no decision of round {round_number} in this log ({where}); "
                    "give an earlier --round, or none to solve from where the log ends")


def solve_from_log(
    path: str | Path, *, round_number: int | None = None, limits: DuelLimits | None = None,
    progress: Progress | None = None, watch: Watch | None = None,
) -> DuelOdds:
    """Exact odds of a saved fight from where its log ends, or from the start of a round.

    The policies are those the log's scenario names (a human-played combatant is
    refused, as in :func:`solve_duel`).  See :func:`state_from_log` and
    :func:`solve_from_state`.
    """
    ruleset, state, started = state_from_log(path, round_number)
    return solve_from_state(ruleset, state, started=started, limits=limits,
                            progress=progress, watch=watch)
