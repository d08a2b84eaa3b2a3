"""Exploring a fight for the exact solver: the graph of its decision states.

The explorer drives any rule set through the core hooks only, with an Rng that
enumerates chance instead of drawing it (:mod:`fracas.odds.chance`):

* **A decision is made once.**  At a decision state the actor's policy chooses
  (a random policy's own draws are enumerated: each is a chance point of the
  decision), the action is checked, and the state just after the decision is
  kept.  Every roll that follows is a chance point the explorer branches on from
  that kept state: it re-runs only the resolution, never the policy or the check.
* **Outcomes are walked by replay.**  Python cannot pause a function half-way, so
  the outcomes of one resolution are walked depth first by replaying the values
  chosen so far (cheap: only the resolution runs again, from a copy of the kept
  state).  Each run goes on past its replayed values down the first outcome of every
  new chance point (:class:`~fracas.odds.chance.WalkingRng`), so every run ends in a
  result and no run is spent only on finding the next chance point.
* **A turn the rule set plays at once** (``Ruleset.lean_turns``, where the policies
  decide it as pure functions of the state) is one step from a node to the next
  decision, no event built and no policy asked: the explorer plays it from a node's
  state with the solver's Rng (one turn at a time) and branches on its dice as on
  the engine's (:meth:`Explorer.lean_expand`).
* **Rounds apart.**  A resolution is told ``rounds_apart`` by the solver's Rng, so a
  rule set's ``advance`` may stop at the close of a round, before anything of the next
  round is rolled (its initiative, say), leaving a state with no decision to make and
  no result.  The opening of the next round from there is followed once for each key
  of such a state (:meth:`Explorer.open_from`), and every resolution that ends there
  takes its outcomes, each chance multiplied in: the same edges as following the
  opening within each resolution, without following it again for every outcome of
  every round's last turn.  A rule set that never stops there loses nothing
  (``tests/odds/test_rounds_apart.py``).
* **States are merged by key.**  Decision states are merged by ``(current actor,
  ruleset.state_key(state))``, ended fights by winner; only states whose decision
  leads to chance become nodes of the graph, and the chains of chance-free
  decisions between them are remembered by key, so a position reached again costs
  one lookup.

The result is a list of edges (node -> successor -> chance) that
:mod:`fracas.odds.solve` solves.  The explorer also keeps the limits: it gives up
(:class:`~fracas.odds.limits.StateSpaceTooLargeError`) once a limit passes or its
pace shows it will, saying what makes the fight large and what would make it
solvable.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from functools import partial
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from fracas.core.decision import options
from fracas.core.errors import ScriptExhaustedError
from fracas.core.events import DecisionMade
from fracas.core.loop import LeanTurns, resolve_decision
from fracas.core.policy import DecisionRequest, Policy, RandomPolicy
from fracas.core.ruleset import Action, Ruleset
from fracas.odds.chance import (
    EXACT_NO_DRAWS,
    NO_DRAWS,
    Branch,
    ChanceRng,
    ExactChanceRng,
    ExactWalkingRng,
    WalkingRng,
)
from fracas.odds.limits import (
    MIN_PATH_PROBABILITY,
    DuelError,
    DuelLimits,
    DuelProgress,
    Progress,
    StateSpaceTooLargeError,
    Watch,
)
from fracas.odds.solve import FlatEdges

__all__ = ["PRUNED", "Explorer", "Node", "sweep_young_only"]

#: The solver judges its own pace only after this share of its time limit (at least 1 s).
_WARM_UP_SHARE = 0.05
_CHAIN_LIMIT = 64
#: A state is looked up by key after the first _LOOK_TRIAL states made by its kind of
#: action only while one lookup in _LOOK_RATE finds it, and one in _LOOK_PROBE anyway.
_LOOK_TRIAL = 64
_LOOK_RATE = 8
_LOOK_PROBE = 32
#: While solving, the young objects are swept for reference cycles only once this many
#: have piled up (see :func:`sweep_young_only`).
_YOUNG_LIMIT = 1_000_000
#: The largest budget of decisions a node's lean turn is offered (see
#: :meth:`Explorer.lean_expand`): budgets 1, 2, 4, ... up to this are tried.
_LEAN_MOST = 16
#: Turns the rule set's ``lean_turns`` may decline before it has taken one; after that
#: the fight is played through the engine alone (its probes would only cost time).
_LEAN_TRIAL = 256
#: The label of pruned chance paths (no side can have this name: it is not text).
PRUNED = object()
_Run = Callable[[Any, Any], None]


#: How :attr:`Explorer.through` packs a state passed through: the rounds it took in the
#: low bits, the node or end it leads to (shifted to be positive) above them.
_ROUND_BITS = 20
_ROUND_MASK = (1 << _ROUND_BITS) - 1
_RESULT_SHIFT = 1 << 16


def _passed(result: int, rounds: int) -> Any:
    """A state passed through on the way to ``result`` (a node, or an end ``-1 - label``)
    in ``rounds`` rounds, as :attr:`Explorer.through` keeps it: one negative int (a
    node's own key holds the node, an int >= 0), or the pair when it does not fit
    (``tests/odds/test_compiled_solver.py``).
    """
    if 0 <= rounds <= _ROUND_MASK and result >= -_RESULT_SHIFT:
        return -1 - (((result + _RESULT_SHIFT) << _ROUND_BITS) | rounds)
    return (result, rounds)


def _landing(found: Any) -> tuple[int, int]:
    """Where an entry of :attr:`Explorer.through` lands: (node or end, rounds it took)."""
    if isinstance(found, int):
        if found >= 0:
            return found, 0
        code = -1 - found
        return (code >> _ROUND_BITS) - _RESULT_SHIFT, code & _ROUND_MASK
    result: tuple[int, int] = found
    return result


class _LeanTurn:
    """The kind of a step played by the rule set's ``lean_turns`` (for :meth:`Explorer.target`)."""


class _Opening:
    """The kind of a step that opens a round (for :meth:`Explorer.target`)."""


class _Declined(Exception):
    """The rule set's ``lean_turns`` did not take a turn (the engine plays it)."""


class _LeanRun:
    """One actor's lean turn with a given budget, as a function of a state and an Rng.

    Raises :class:`_Declined` when the rule set declines the turn (before drawing any
    die: it declines from the state alone, so at the first run from a state).
    """

    __slots__ = ("actor", "apply", "budget", "lean", "pick", "state")

    def __init__(self, lean: LeanTurns, actor: str, pick: Callable[[str], Policy],
                 budget: int, apply: Callable[[Any, Any], None]) -> None:
        self.lean, self.actor, self.pick, self.budget, self.apply = lean, actor, pick, budget, apply
        self.state: Any = None

    def emit(self, event: Any) -> None:
        """Apply an event of the rule set's own steps to the state being played."""
        self.apply(self.state, event)

    def __call__(self, state: Any, rng: Any) -> None:
        self.state = state
        if not self.lean(state, self.actor, self.pick, rng, self.emit, self.budget):
            raise _Declined


@contextmanager
def sweep_young_only() -> Iterator[None]:
    """Keep Python's cycle collector off the solver's graph while it grows.

    The solver builds hundreds of thousands of long-lived objects (state keys, edges)
    and almost no reference cycles, so the collector's regular passes over the older
    generations cost a fifth of a solve and free nearly nothing.  Inside this block the
    automatic collector is off; :meth:`Explorer.check_time` sweeps the youngest
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



class Node:
    """A decision state whose decision leads to chance (or to a loop without chance)."""

    __slots__ = ("actor", "decisions", "first", "state", "walked")

    def __init__(self, actor: str, state: Any, decisions: list[tuple[Action, Any]] | None,
                 first: Branch | None) -> None:
        self.actor = actor
        self.state = state  # before the decision
        self.decisions = decisions
        self.first = first  # the first chance point of the decision's one action
        #: The first run of a lean turn from ``state`` (see Explorer.lean_first_run).
        self.walked: tuple[Any, WalkingRng, int] | None = None


@mypyc_attr(allow_interpreted_subclasses=True)  # the best-response solver's, tests'
class Explorer:
    """Builds the graph of a fight's decision states (see the module's description).

    :meth:`explore` fills :attr:`edges`: for each node, successor -> chance, a negative
    successor ``-1 - k`` being an end with label ``k`` (:attr:`labels`); with a round
    limit (:attr:`limit`) each successor is ``(target, rounds it took)``.  With
    ``exact``, the chances are ``Fraction`` s.  The best-response solver subclasses it
    to keep the free side's moves apart.
    """

    #: Whether a node whose turn the rule set's ``lean_turns`` takes is expanded through
    #: it (:meth:`lean_expand`); off where every decision must be kept apart.
    use_lean: ClassVar[bool] = True
    #: Whether resolutions are told ``rounds_apart`` (see "Rounds apart").
    rounds_apart: ClassVar[bool] = True

    def __init__(self, ruleset: Ruleset[Any], policies: Callable[[str], Policy],
                 limits: DuelLimits, progress: Progress | None, watch: Watch | None,
                 exact: bool = False) -> None:
        self.rs = ruleset
        #: Who names the face classes of a roll (``face_classes``): the rule set, whose
        #: classes may lean on the fight's policies (see the best-response solver).
        self.classes: Any = ruleset
        #: Whether chances are exact ``Fraction`` s (else floats: the same sums, rounded).
        self.exact = exact
        self.one: Any = Fraction(1) if exact else 1.0
        self.rng: type[ChanceRng] = ExactChanceRng if exact else ChanceRng
        self.walker: type[WalkingRng] = ExactWalkingRng if exact else WalkingRng
        self.no_draws: ChanceRng = EXACT_NO_DRAWS if exact else NO_DRAWS
        #: The rule set's quick exact yes for a whole action (see ``decision.check``).
        self.allows: Callable[[Any, Action], bool] | None = getattr(ruleset, "allows", None)
        #: The rule set's fold of a decision without its event (see ``core.loop.play``).
        self.apply_decision: Callable[[Any, str, Action], None] | None = getattr(
            ruleset, "apply_decision", None)
        #: The rule set's whole turns at once (``core.loop.LeanTurns``; see
        #: :meth:`lean_expand`), when it offers them and :attr:`use_lean` allows.
        self.lean: LeanTurns | None = getattr(ruleset, "lean_turns", None) \
            if self.use_lean else None
        #: The budget of decisions a lean turn took (once :attr:`lean_known`).
        self.lean_budget = 1
        self.lean_known = False
        self.lean_declined = 0  # turns declined before one was taken
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
        #: The key of each node, in the nodes' order.
        self.index: list[Hashable] = []
        #: key -> where the state lands: a node's own key -> the node (an int >= 0); a state
        #: passed through on the way -> the node or end it leads to and the rounds that
        #: took, packed (see :func:`_passed`, read back by :func:`_landing`).
        self.through: dict[Hashable, Any] = {}
        #: The round limit of a key that leaves the round out (see ``Ruleset.round_limit``);
        #: ``None``: the keys keep every round that matters.
        self.limit: int | None = None
        #: The round of each node's state (only with a limit).
        self.rounds: list[int] = []
        #: The round of the state the last :meth:`target` landed on (only with a limit).
        self.landed = 0
        #: Whether the fight is explored with its round limit lifted
        #: (``Ruleset.without_round_limit``): a key that leaves the round out then plays
        #: alike in every round, at the close of a round too (see :meth:`open_from`).
        self.lifted = False
        #: The key of a state at the close of a round -> the outcomes of opening the next
        #: (target, rounds it took, chance); see :meth:`open_from`.
        self.openings: dict[Hashable, tuple[tuple[Any, ...], ...]] = {}
        self.key_of: Callable[[Any], Hashable] = ruleset.state_key
        self.nodes: list[Node | None] = []
        self.edges: list[dict[Any, Any]] = []
        #: With a round limit and float chances, each node's edges once it is expanded,
        #: packed (:class:`~fracas.odds.solve.FlatEdges`; :attr:`edges` then keeps an
        #: empty dict for it): ten times smaller than the dicts, read by the solve alone.
        self.flat: FlatEdges | None = None
        self.base_round = 0  # the round of the state being expanded (with a limit)
        self.leaves = 0
        self.done = 0
        self.mass: Any = 0.0  # share of the outcomes of the state being expanded already followed
        self.widest = (0, "")
        self.most_actions = (0, "")
        #: action class (of the action that made a state) -> [lookups, found, skipped since]
        self.looks: dict[type | None, list[int]] = {}
        #: action class -> [chance-free plays tried, of them met chance]
        self.chancy: dict[type, list[int]] = {}

    def forget(self) -> int:
        """Drop what only the exploration reads (the keys, the states passed through, the
        rounds' openings, the nodes' states) once the graph is whole, so that the solve
        runs beside the edges alone; the number of states the graph had."""
        states = len(self.index)
        self.index, self.through, self.openings = [], {}, {}
        self.nodes = []
        return states

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

        Also sweeps the young objects for cycles now and then (:func:`sweep_young_only`).
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
                 decisions: list[tuple[Action, Any]] | None, first: Branch | None,
                 ) -> int:
        """Add a decision state to the graph (within the state limit)."""
        if len(self.nodes) >= self.max_states:
            seen = self.report()
            pace = ("" if seen.at_least is None else
                    f"; at this pace the states found so far need at least "
                    f"{seen.seconds + seen.at_least:,.0f} CPU s in all (--max-seconds), "
                    "more if more appear")
            raise StateSpaceTooLargeError(
                f"the fight has more than {self.max_states:,} distinct states; it is too "
                f"large to solve exactly{self.cause()} (raise --max-states{pace}; or "
                "estimate it with 'fracas simulate')"
            )
        node = len(self.nodes)
        self.index.append(key)
        self.through[key] = node  # one lookup finds nodes and the states passed through
        if self.limit is not None:
            self.rounds.append(self.rs.round_number(state))
        self.nodes.append(Node(actor, state, decisions, first))
        self.edges.append({})
        return node

    # -- one decision -----------------------------------------------------------------
    def decisions(self, state: Any, actor: str) -> list[tuple[Action, Any]]:
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
        request = DecisionRequest(actor, state, rs, self.no_draws)
        try:
            action = policy.choose(request)
        except Branch as branch:
            self.note(branch)
            stack: list[tuple[tuple[Any, ...], Any]] = [((v,), q) for v, q in branch.outcomes]
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
            return [(action, self.one)]
        found: list[tuple[Action, Any]] = []
        while stack:
            prefix, p = stack.pop()
            request = DecisionRequest(actor, state, rs, self.rng(prefix, None, None))
            try:
                action = policy.choose(request)
            except Branch as branch:
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

    def random_decisions(self, state: Any, actor: str) -> list[tuple[Action, Any]]:
        """The core random policy's actions: uniform at each step, walked step by step.

        The same chances as enumerating its draws, but each step of the decision is
        asked once instead of once per way of reaching it.
        """
        rs = self.rs
        found: dict[Action, Any] = {}
        stack: list[tuple[tuple[Any, ...], Any]] = [((), self.one)]
        asked = 0
        while stack:
            chosen, p = stack.pop()
            asked += 1
            if asked & 63 == 0:
                self.check_time()
            where = options(rs, state, actor, chosen)
            if where.action is not None:
                found[where.action] = found.get(where.action, 0) + p
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

    def note(self, branch: Branch) -> None:
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
    def target(self, state: Any, rebuild: Callable[[], Any], after: type | None = None,
               missed: Hashable | None = None) -> int:
        """Where ``state`` lands in the graph, after the decisions that involve no chance.

        Returns a node index (>= 0) or ``-1 - label`` for an ended fight.  ``state`` is
        the solver's own copy and is played on in place; ``rebuild()`` makes it again as
        it was (needed when a decision on the way turns out to lead to chance and no
        copy of the state before it was kept: the node keeps the state before that
        decision).  ``after`` is the class of the action whose resolution made
        ``state`` (``None`` for the opening).

        Only states whose decision leads to chance become nodes; the chance-free
        decisions on the way are remembered by key (a later visit is one lookup;
        ``missed``: the key of ``state``, already looked up and not found).  A
        state is looked up by key only while lookups after its kind of action find
        something (:meth:`_worth_looking`): a state just rolled is seldom met again, and
        playing on from a state already known reaches the same node anyway (equal
        keys play alike), so a skipped lookup changes the work, never the graph.  A
        chain of chance-free decisions is cut after a fixed length, so a loop without
        chance (both sides waiting forever) still closes through a node.
        """
        rs = self.rs
        current_actor, state_key, through = rs.current_actor, self.key_of, self.through
        layered = self.limit is not None
        round_of = rs.round_number
        chancy = self.chancy
        apart = self.rounds_apart
        chain: list[tuple[Hashable, int]] = []
        played: list[Action] = []
        result: int | None = None
        landed = 0
        for _ in range(_CHAIN_LIMIT):
            actor = current_actor(state)
            if actor is None:
                result = self.ended(state)
                if layered:
                    landed = round_of(state)
                break
            key: Hashable | None = None
            looks = self.looks.get(after)
            if looks is None:
                looks = self.looks[after] = [0, 0, 0]
            if missed is not None:
                key, missed = missed, None
            elif self._worth_looking(looks):
                key = (actor, state_key(state))
                found = through.get(key)
                if found is not None:
                    looks[1] += 1
                    result, took = _landing(found)
                    if layered:
                        landed = round_of(state) + took
                    break
            if self.lean is not None:
                # A turn the rule set plays at once: a node if it meets chance, with no
                # decision worked out here (lean_expand plays the turn from this state).
                if key is None:
                    key = (actor, state_key(state))
                    found = through.get(key)
                    if found is not None:
                        result, took = _landing(found)
                        if layered:
                            landed = round_of(state) + took
                        break
                walked = self.lean_first_run(state, actor)
                if walked is not None:
                    landed = round_of(state) if layered else 0
                    result = self.new_node(key, actor, state, None, None)
                    node = self.nodes[result]
                    assert node is not None
                    node.walked = walked if walked[0] is not None else None
                    break
            decisions = self.decisions(state, actor)
            here = round_of(state) if layered else 0
            if len(decisions) != 1:
                if key is None:
                    key = (actor, state_key(state))
                    found = through.get(key)
                    if found is not None:
                        result, took = _landing(found)
                        landed = here + took
                        break
                result = self.new_node(key, actor, state, decisions, None)
                landed = here
                break
            action = decisions[0][0]
            kind = type(action)
            odds = chancy.get(kind)
            if odds is None:
                odds = chancy[kind] = [0, 0]
            odds[0] += 1
            # A copy before the decision, when this kind of action often meets chance: the
            # node keeps it (cheaper than making the state again, see replay).
            kept = rs.clone_state(state) if odds[1] * 8 >= odds[0] and odds[1] else None
            self.decide(state, actor, action)
            rng = self.rng((), self.classes, state)
            rng.rounds_apart = apart
            first: Branch | None = None
            try:
                self.play(state, action, rng)
            except Branch as branch:
                # Kept in the node: without its traceback, whose frames would tie the
                # whole graph into one reference cycle (freed only by the cycle collector).
                branch.__traceback__ = None
                first = branch
            if first is not None or (apart and current_actor(state) is None
                                     and rs.outcome(state) is None):
                # It meets chance, or stops at the close of a round (whose opening is
                # chance): the state before the decision is a node.
                odds[1] += 1
                # The resolution may have changed the state before its first roll: the
                # node keeps the state before the decision, a copy or made again.
                before = kept if kept is not None else self.replay(rebuild, played)
                if key is None:
                    key = (actor, state_key(before))
                    found = through.get(key)
                    if found is not None:
                        result, took = _landing(found)
                        landed = here + took
                        break
                result = self.new_node(key, actor, before, decisions, first)
                landed = here
                break
            if key is not None:
                chain.append((key, here))
            played.append(action)
            after = kind
        else:
            actor = rs.current_actor(state)
            if actor is None:
                return self.target(state, lambda: self.replay(rebuild, played))
            key = (actor, state_key(state))
            known = self.through.get(key)
            if isinstance(known, int) and known >= 0:  # a node's own key
                result = known
            else:
                result = self.new_node(key, actor, state, None, None)
            if layered:
                landed = round_of(state)
        assert result is not None
        for passed, at in chain:
            through[passed] = _passed(result, landed - at)
        self.landed = landed
        return result

    def open_from(self, state: Any, p: Any, out: dict[Any, Any]) -> None:
        """Add to ``out`` the outcomes of opening the next round from ``state``, at the close
        of a round (a resolution told ``rounds_apart`` stopped there), reached with chance
        ``p``: each of the opening's outcomes with ``p`` times its chance, as if followed
        within the resolution (the opening is followed once per key of such a state).
        """
        rs = self.rs
        layered = self.limit is not None
        key = self.opening_key(state)
        opened = self.openings.get(key)
        if opened is None:
            opened = self.openings[key] = self.open(state)
        here = rs.round_number(state) - self.base_round if layered else 0
        for target, took, q in opened:
            pq = p * q
            if pq < MIN_PATH_PROBABILITY or (target < 0 and self.labels[-1 - target] is PRUNED):
                self.prune(pq, out)
                continue
            node = (target, here + took) if layered else target
            out[node] = out.get(node, 0) + pq

    def opening_key(self, state: Any) -> Hashable:
        """What the opening of a round from ``state`` is remembered by: its key, and its
        round where the key leaves the round out and the limit is not lifted (the limit
        is read as a round closes)."""
        key = self.key_of(state)
        if self.limit is not None and not self.lifted:
            return (key, self.rs.round_number(state))
        return key

    def open(self, state: Any) -> tuple[tuple[Any, ...], ...]:
        """The outcomes of opening the next round from ``state`` (not changed): (target,
        rounds it took, chance) each."""
        found: dict[Any, Any] = {}
        base_round, mass = self.base_round, self.mass
        layered = self.limit is not None
        if layered:
            self.base_round = self.rs.round_number(state)
        try:
            self.follow(state, self.open_round, self.one, found, None, _Opening)
        finally:
            self.base_round, self.mass = base_round, mass
        # (the targets as the edges hold them: one int object each, not one more copy)
        if layered:
            return tuple((*move, q) for move, q in found.items())
        return tuple((target, 0, q) for target, q in found.items())

    def open_round(self, state: Any, rng: Any) -> None:
        """Open the next round from a state at the close of one: the rule set's ``advance``,
        told not to stop there again."""
        rng.rounds_apart = False
        rs = self.rs
        rs.advance(state, rng, partial(rs.apply_event, state))

    def ended(self, state: Any) -> int:
        """The graph's end ``-1 - label`` of a fight that is over (its winner's label)."""
        outcome = self.rs.outcome(state)
        return -1 - self.label(outcome.winner if outcome is not None else None)

    @staticmethod
    def _worth_looking(seen: list[int]) -> bool:
        """Whether to look up a state made by an action of a class whose lookups so far
        are ``seen``: [looked up, found, skipped since the last lookup] (updated here).

        Yes for the first :data:`_LOOK_TRIAL` such states, then while at least one
        lookup in :data:`_LOOK_RATE` finds a known state, and for one state in
        :data:`_LOOK_PROBE` even so (the fight may change).
        """
        looked, hits, skipped = seen
        if looked < _LOOK_TRIAL or hits * _LOOK_RATE >= looked or skipped >= _LOOK_PROBE:
            seen[0] = looked + 1
            seen[2] = 0
            return True
        seen[2] = skipped + 1
        return False

    def replay(self, rebuild: Callable[[], Any], played: Sequence[Action]) -> Any:
        """The state ``rebuild()`` makes, played on by the chance-free ``played`` actions."""
        rs = self.rs
        state = rebuild()
        for action in played:
            actor = rs.current_actor(state)
            assert actor is not None
            self.decide(state, actor, action)
            rng = self.rng((), self.classes, state)
            rng.rounds_apart = self.rounds_apart  # as target played it
            self.play(state, action, rng)
        return state

    def follow(self, base: Any, run: _Run, p0: Any, out: dict[Any, Any],
               first: Branch | None, after: type | None = None,
               walked: tuple[Any, WalkingRng] | None = None) -> None:
        """Add every result of ``run`` from ``base`` (reached with chance ``p0``) to ``out``.

        ``after`` is the class of the action ``run`` resolves (see :meth:`target`).
        ``walked``: the first run, already made (the state it made and its Rng).
        """
        rs = self.rs
        target, layered, walker = self.target, self.limit is not None, self.walker
        classes = self.classes
        clone, rerun = rs.clone_state, self.rerun
        current_actor, key_of, through = rs.current_actor, self.key_of, self.through
        apart, outcome = self.rounds_apart, rs.outcome
        round_of, worth_looking = rs.round_number, self._worth_looking
        looks = self.looks.get(after)
        if looks is None:
            looks = self.looks[after] = [0, 0, 0]
        stack: list[tuple[tuple[Any, ...], Any]] = []
        if walked is not None:
            pass
        elif first is None:
            stack.append(((), p0))
        else:
            self.branch((), p0, first, stack, out)
        steps = 0
        prefix: tuple[Any, ...]
        while stack or walked is not None:
            if walked is not None:
                (s, rng), walked, prefix, p = walked, None, (), p0
            else:
                prefix, p = stack.pop()
                s = clone(base)
                steps += 1
                if steps & 255 == 0:
                    self.check_time()
                # One run reaches a result down the first outcomes past the prefix; the
                # other outcomes of the points it passed wait on the stack.
                rng = walker(prefix, classes, s, p)
                rng.rounds_apart = apart
                try:
                    run(s, rng)
                except Branch as branch:  # every outcome of a point too unlikely to follow
                    self.siblings(prefix, rng, stack, out)
                    self.branch((*prefix, *rng.chosen), rng.chance, branch, stack, out)
                    continue
            if rng.points:
                self.siblings(prefix, rng, stack, out)
                prefix = (*prefix, *rng.chosen)
                p = rng.chance
            leaves = self.leaves = self.leaves + 1
            if leaves > self.max_leaves:
                raise StateSpaceTooLargeError(
                    f"solving needs more than {self.max_leaves:,} resolutions of single "
                    f"decisions (the chance trees are too bushy{self.cause()}); estimate "
                    "it with 'fracas simulate' instead"
                )
            # Most runs end the fight or at a known state: told here (see target).
            actor = current_actor(s)
            key = None
            node: Any
            if actor is None:
                if rng.rounds_apart and outcome(s) is None:  # at the close of a round
                    self.open_from(s, p, out)
                    self.mass += p
                    continue
                node = self.ended(s)
                if layered:
                    node = (node, round_of(s) - self.base_round)
                out[node] = out.get(node, 0) + p
                self.mass += p
                continue
            if worth_looking(looks):
                key = (actor, key_of(s))
                found = through.get(key)
                if found is not None:
                    looks[1] += 1
                    node, took = _landing(found)
                    if layered:
                        node = (node, round_of(s) + took - self.base_round)
                    out[node] = out.get(node, 0) + p
                    self.mass += p
                    continue
            node = target(s, partial(rerun, base, run, prefix), after, key)
            if layered:  # with the rounds it took (see solve.solve_by_rounds)
                node = (node, self.landed - self.base_round)
            out[node] = out.get(node, 0) + p
            self.mass += p

    def siblings(self, prefix: tuple[Any, ...], rng: WalkingRng,
                 stack: list[tuple[tuple[Any, ...], Any]], out: dict[Any, Any]) -> None:
        """Put the outcomes ``rng`` did not take at the points it passed on the stack."""
        chosen = rng.chosen
        for before, outcomes, taken, p, what in rng.points:
            if len(outcomes) > self.widest[0]:
                self.widest = (len(outcomes), what)
            head = (*prefix, *chosen[:before])
            for i, (value, q) in enumerate(outcomes):
                if i == taken:
                    continue
                pq = p * q
                if pq >= MIN_PATH_PROBABILITY:
                    stack.append(((*head, value), pq))
                else:
                    self.prune(pq, out)

    def rerun(self, base: Any, run: _Run, prefix: tuple[Any, ...]) -> Any:
        """The state ``run`` makes from a copy of ``base`` with the chance values ``prefix``."""
        again = self.rs.clone_state(base)
        rng = self.rng(prefix, self.classes, again)
        rng.rounds_apart = self.rounds_apart  # as the resolution it makes again
        run(again, rng)
        return again

    def branch(self, prefix: tuple[Any, ...], p: Any, branch: Branch,
               stack: list[tuple[tuple[Any, ...], Any]], out: dict[Any, Any]) -> None:
        self.note(branch)
        for value, q in branch.outcomes:
            pq = p * q
            if pq >= MIN_PATH_PROBABILITY:
                stack.append(((*prefix, value), pq))
            else:
                self.prune(pq, out)

    def prune(self, p: Any, out: dict[Any, Any]) -> None:
        """Count a chance path too unlikely to follow as pruned."""
        pruned: Any = -1 - self.label(PRUNED)
        if self.limit is not None:
            pruned = (pruned, 0)
        out[pruned] = out.get(pruned, 0) + p
        self.mass += p

    def expand(self, node: Node) -> dict[Any, Any]:
        """Every result of the decision at ``node``, with its probability."""
        rs = self.rs
        out: dict[Any, Any] = {}
        if self.limit is not None:
            self.base_round = rs.round_number(node.state)
        if self.lean is not None and self.lean_expand(node, out):
            return out
        decisions = node.decisions
        if decisions is None:
            decisions = self.decisions(node.state, node.actor)
        for chosen, p in decisions:
            after = rs.clone_state(node.state)
            self.decide(after, node.actor, chosen)
            self.follow(after, self.runner(chosen), p, out,
                        node.first if len(decisions) == 1 else None, type(chosen))
        return out

    def lean_expand(self, node: Node, out: dict[Any, Any]) -> bool:
        """Expand ``node`` through the rule set's ``lean_turns``, if it takes the turn.

        ``lean_turns`` plays the actor's turn from the state before its decision as the
        decisions and their events would, drawing the same dice, where the policies
        decide it as pure functions of the state (``core.loop.LeanTurns``); it draws its
        dice from the solver's Rng like the engine, so its outcomes are branched on as
        the engine's are, and it ends at a decision, which :meth:`target` takes from
        there.  The budget offered is the smallest of 1, 2, 4, ... that it takes, so
        it plays one turn at a time and the positions between turns are still merged.
        ``False`` (nothing added) when it declines the turn: the engine plays it.
        ``tests/odds/test_lean_solve.py`` holds the two ways to the same fractions.
        """
        walked, node.walked = node.walked, None
        if walked is not None:
            made, rng, budget = walked
            self.follow(node.state, self.lean_run(node.actor, budget), self.one,
                        out, None, _LeanTurn, (made, rng))
            return True
        for budget in self.lean_budgets():
            leaves = self.leaves
            try:
                self.follow(node.state, self.lean_run(node.actor, budget), self.one,
                            out, None, _LeanTurn)
            except _Declined:
                if out or self.leaves != leaves:  # not at the first run: not from the state
                    raise DuelError(f"the rule set's lean_turns declined {node.actor}'s "
                                    "turn after taking it from the same state") from None
                continue
            self.lean_budget, self.lean_known = budget, True
            return True
        return False

    def lean_budgets(self) -> Sequence[int]:
        """The budgets of decisions to offer a lean turn: the one it took before, once known;
        until then 1, 2, 4, ... up to :data:`_LEAN_MOST`."""
        if self.lean_known:
            return (self.lean_budget,)
        return [2**i for i in range(_LEAN_MOST.bit_length())]

    def lean_first_run(self, state: Any, actor: str) -> tuple[Any, Any, int] | None:
        """The first run of ``actor``'s lean turn from ``state`` (not changed), when the
        rule set's ``lean_turns`` takes the turn and meets chance in it: (the state it
        made, its Rng, the budget), kept in the node for :meth:`lean_expand`, or (``None``,
        ``None``, the budget) when its first outcomes are too unlikely to follow.
        ``None`` when it declines the turn or meets no chance (the engine plays it).
        """
        rs = self.rs
        for budget in self.lean_budgets():
            made = rs.clone_state(state)
            rng = self.walker((), self.classes, made, self.one)
            rng.rounds_apart = self.rounds_apart  # its first run, as the others (follow)
            try:
                self.lean_run(actor, budget)(made, rng)
            except _Declined:
                continue
            except Branch:
                self.lean_budget, self.lean_known = budget, True
                return None, None, budget
            self.lean_budget, self.lean_known = budget, True
            return (made, rng, budget) if rng.points else None
        if not self.lean_known:
            self.lean_declined += 1
            if self.lean_declined >= _LEAN_TRIAL:
                self.lean = None  # never taken so far: the engine plays this fight
        return None

    def lean_run(self, actor: str, budget: int) -> _LeanRun:
        """``actor``'s lean turn as a function of a state and an Rng (see :meth:`lean_expand`)."""
        assert self.lean is not None
        return _LeanRun(self.lean, actor, self.pick, budget, self.rs.apply_event)

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
            first: dict[Any, Any] = {}
            self.base_round = root_round = self.rs.round_number(initial)
            self.follow(self.rs.clone_state(initial), self.start, self.one, first, None)
            root = len(self.nodes)
            self.nodes.append(None)
            self.edges.append(first)
            if self.limit is not None:
                self.rounds.append(root_round)
        flat = self.flat = FlatEdges() if self.limit is not None and not self.exact else None
        packed: dict[Any, Any] = {}
        while self.done < len(self.nodes):
            done = self.done
            node = self.nodes[done]
            self.mass = 0.0
            if node is not None:
                self.edges[done] = self.expand(node)
                self.nodes[done] = None  # keep memory to the graph
            if flat is not None:
                flat.add(self.edges[done])
                self.edges[done] = packed
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

