"""The moves a decision's search compares: whole legal actions found through its steps.

A decision is a tree of steps (:func:`fracas.core.decision.options`: the verb, then
each field); its leaves are whole actions.  The search takes the heuristic's own leaf
first, then its neighbours (one step changed, the rest kept), then each verb's first
leaves, at most :data:`PER_VERB` under one verb (a numeric span is tried at its
default, both ends, its middle and the heuristic's number), at most ``width`` in all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from fracas.core.decision import Options, Value, options
from fracas.core.errors import FracasError
from fracas.core.policy import DecisionRequest
from fracas.core.ruleset import Action

__all__ = ["MAX_CANDIDATES", "PER_VERB", "Candidate", "candidates", "span_values"]

#: Whole actions the search compares at most in one decision (the heuristic's among them).
MAX_CANDIDATES = 12
#: Whole actions tried at most under one verb.
PER_VERB = 3


class Candidate:
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
        """The mean score of the first ``n`` rollouts (all when ``None``)."""
        values = self.results if n is None else self.results[:n]
        return sum(values) / len(values) if values else 0.0


def span_values(low: int, high: int, default: int | None, extra: Value) -> list[int]:
    """The numbers of a span worth trying: its default, both ends, its middle, and
    ``extra`` (the heuristic's number) first when it is in the span."""
    picks = [default if default is not None else high, low, high, (low + high) // 2]
    if isinstance(extra, int) and not isinstance(extra, bool) and low <= extra <= high:
        picks.insert(0, extra)
    out: list[int] = []
    for v in picks:
        if v not in out:
            out.append(v)
    return out


def candidates(request: DecisionRequest, prefer: Sequence[Value], width: int
               ) -> list[Candidate]:
    """Whole legal actions found through the steps, the heuristic's path (``prefer``) first,
    then its neighbours, then each verb's first moves; at most ``width``."""
    out: list[Candidate] = []
    seen: set[tuple[Value, ...]] = set()

    def values(found: Options, chosen: tuple[Value, ...]) -> list[Value]:
        step = found.step
        if step is None:
            return []
        hint = prefer[len(chosen)] if len(prefer) > len(chosen) and \
            tuple(prefer[:len(chosen)]) == chosen else None
        if step.span is not None:
            return list(span_values(step.span.low, step.span.high, step.span.default, hint))
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
            out.append(Candidate(chosen, found.action))
            return 1
        added = 0
        for value in values(found, chosen):
            if added >= room or len(out) >= width:
                break
            added += walk((*chosen, value), room - added)
        return added

    if prefer:
        walk(tuple(prefer), 1)  # the heuristic's own choice, first
    if out:
        _neighbours(request, tuple(prefer), out, seen, values, width)
    try:
        top = options(request.ruleset, request.state, request.actor, ())
    except FracasError:
        return out
    for verb in values(top, ()):
        if len(out) >= width:
            break
        walk((verb,), PER_VERB)
    return out


def _neighbours(request: DecisionRequest, prefer: tuple[Value, ...], out: list[Candidate],
                seen: set[tuple[Value, ...]],
                values: Callable[[Options, tuple[Value, ...]], list[Value]], width: int
                ) -> None:
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
    while len(out) < width and any(turn < len(d) for d in by_depth):
        for level in by_depth:
            if turn >= len(level) or len(out) >= width:
                continue
            leaf = _complete(request, level[turn], prefer)
            if leaf is not None and leaf[0] not in seen:
                seen.add(leaf[0])
                out.append(Candidate(*leaf))
        turn += 1


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
