"""Sharing a decision's rollouts among its moves, and picking the move to play.

Variance is what makes a duel hard to search: a fight's result is mostly dice.  The
moves are compared rollout against rollout on the same seeds (paired comparison), and a
move replaces the heuristic's only when its lead clears ``margin`` paired standard
errors.  The moves *race*: every move still in plays :data:`BATCH` more seeds at a time,
and one the leader beats by ``margin`` errors drops out; or, by *halving*, the budget is
spent in rounds, the better half kept after each.  The heuristic's move always stays
in, and a decision that settles early leaves its time to the turn's later decisions.
A decision also settles once no move still in can plausibly beat the heuristic's by
``least_gain`` (its lead plus ``margin`` paired errors falls short of it): what more
rollouts could still find is not worth their time; or once none could be shown better
in the rollouts the budget has left (:func:`_out_of_reach`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from fracas.ai.search.budget import SearchBudget
from fracas.ai.search.rollouts import Rollouts
from fracas.ai.search.tree import Candidate

__all__ = ["ALLOCATIONS", "BATCH", "LEAST_GAIN", "MARGIN", "MIN_PAIRS", "REACH", "halve", "paired",
           "pick", "race"]

#: Standard errors of the paired difference by which a move must beat the heuristic's.
MARGIN = 2.0
#: Rollouts a move needs against the heuristic's before it may be preferred.
MIN_PAIRS = 4
#: Seeds every move still in the race plays between two looks at the results.
BATCH = 2
#: The least lead over the heuristic's move (in a rollout's score, 0-1) worth more
#: rollouts: a decision settles once no move still in can plausibly lead by as much.
LEAST_GAIN = 0.02
#: Standard errors of optimism with which a move still in is judged out of reach: one
#: that even this far above its lead now could not clear ``margin`` with the rollouts
#: left stops counting (0: never).
REACH = 2.0
#: The ways a decision's rollouts may be shared among its moves.
ALLOCATIONS = ("race", "halving")


def paired(a: Candidate, b: Candidate) -> tuple[float, float, int]:
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


def _behind(c: Candidate, leader: Candidate, margin: float) -> bool:
    """Whether ``leader`` beats ``c`` by ``margin`` paired standard errors."""
    lead, err, n = paired(leader, c)
    return n >= MIN_PAIRS and lead > margin * err


def _beats(keep: Candidate, rivals: Sequence[Candidate], margin: float) -> bool:
    """Whether a rival leads the heuristic's move by ``margin + 1`` paired errors (the
    decision is settled: no need to spend the rest of its time)."""
    for c in rivals:
        lead, err, _ = paired(c, keep)
        if lead > (margin + 1) * err:
            return True
    return False


def _idle(keep: Candidate, rivals: Sequence[Candidate], margin: float,
          least_gain: float) -> bool:
    """Whether no rival can plausibly lead the heuristic's move by ``least_gain``: each
    one's lead plus ``margin`` paired errors falls short of it (over at least
    :data:`MIN_PAIRS` pairs).  ``least_gain`` 0 never settles a decision this way."""
    if least_gain <= 0:
        return False
    for c in rivals:
        lead, err, n = paired(c, keep)
        if n < MIN_PAIRS or lead + margin * err >= least_gain:
            return False
    return True


def _room(rollouts: Rollouts, budget: SearchBudget, began: float,
          deadline: float | None) -> int | None:
    """Rollouts the decision can still afford (``None``: no limit): what is left of a
    rollout budget, or of the time, timed by the mean rollout since ``began``."""
    room = budget.rollouts - rollouts.played if budget.rollouts is not None else None
    if deadline is not None and rollouts.played > 0:
        now = budget.now()
        per = (now - began) / rollouts.played
        if per > 0:
            by_time = max(0, int((deadline - now) / per))
            room = by_time if room is None else min(room, by_time)
    return room


def _out_of_reach(keep: Candidate, rivals: Sequence[Candidate], margin: float,
                  room: int | None, hope: float = 1.0) -> bool:
    """Whether no rival could be shown better than the heuristic's move with the
    rollouts left: even ``hope`` standard errors above its lead now, its lead would fall
    short of ``margin`` errors after its share of ``room`` (the race shares it evenly
    among the moves still in).  ``hope`` 0: never."""
    if room is None or hope <= 0:
        return False
    more = room / (len(rivals) + 1)
    for c in rivals:
        lead, err, n = paired(c, keep)
        if n < MIN_PAIRS:
            return False
        if lead + hope * err >= margin * err * math.sqrt(n / (n + more)):
            return False
    return True


def _fill(rollouts: Rollouts, alive: list[Candidate], target: int, budget: SearchBudget,
          began: float, deadline: float | None) -> bool:
    """Play every move of ``alive`` up to ``target`` seeds; ``False`` once the budget
    is spent (the rollout limit reached, or the next rollout, timed by the mean of
    those since ``began``, would end past ``deadline``)."""
    limit = budget.rollouts
    clock = budget.now
    for c in alive:
        while len(c.results) < target:
            if limit is not None and rollouts.played >= limit:
                return False
            if deadline is not None and rollouts.played > 0:
                now = clock()
                if now + (now - began) / rollouts.played >= deadline:
                    return False
            rollouts.play(c)
    return True


def race(rollouts: Rollouts, candidates: list[Candidate], budget: SearchBudget, margin: float,
         deadline: float | None, keep: Candidate | None, least_gain: float = 0.0,
         reach: float = 0.0) -> None:
    """Play every move still in the race on the same seeds until the budget is spent.

    After each round of :data:`BATCH` seeds a move that the current leader beats by
    ``margin`` paired standard errors drops out (``keep``, the heuristic's move, never
    does).  The decision settles early when only the heuristic's move is left, when
    one move beats it by ``margin + 1`` errors, or when none can plausibly beat it by
    ``least_gain`` (:func:`_idle`), or (``reach`` above 0) when none could be shown
    better with the rollouts left, even ``reach`` errors above its lead now
    (:func:`_out_of_reach`).
    """
    began = budget.now()
    alive = list(candidates)
    target = 0
    while True:
        target += BATCH
        if not _fill(rollouts, alive, target, budget, began, deadline):
            return
        if target < MIN_PAIRS:
            continue
        # A plan that never came into play is its single move again: drop it.
        alive = [c for c in alive if not c.sticky or c.used]
        leader = max(alive, key=lambda c: c.mean(target))
        alive = [c for c in alive if c is keep or c is leader
                 or not _behind(c, leader, margin)]
        if keep is not None:
            if alive == [keep]:
                return
            rivals = [c for c in alive if c is not keep]
            if _beats(keep, rivals, margin) or _idle(keep, rivals, margin, least_gain):
                return
            if reach > 0 and _out_of_reach(keep, rivals, margin,
                                           _room(rollouts, budget, began, deadline), reach):
                return
        if len(alive) == 1:
            return


def halve(rollouts: Rollouts, candidates: list[Candidate], budget: SearchBudget,
          margin: float, deadline: float | None, keep: Candidate | None,
          least_gain: float = 0.0) -> None:
    """Sequential halving: the budget in rounds, the better half of the moves kept each.

    Every move still in plays the same number of seeds in a round; after it the moves
    are ranked by their mean and the worse half drops out (the heuristic's move never
    does).  Each round gets an equal share of what is left of the budget (rollouts, or
    time timed by the mean rollout so far), so the last few moves get most of it.  As
    in the race, a decision settles early when one move beats the heuristic's by
    ``margin + 1`` paired errors, the heuristic's beats every other by ``margin``, or
    none can plausibly beat it by ``least_gain``.
    """
    limit = budget.rollouts
    clock = budget.now
    began = clock()
    alive = list(candidates)
    rounds_left = max(1, math.ceil(math.log2(len(alive))))
    while True:
        # What this round may spend: an equal share of what is left, in rollouts.
        room = limit - rollouts.played if limit is not None else None
        if deadline is not None:
            now = clock()
            per = (now - began) / rollouts.played if rollouts.played else None
            if per is not None:
                by_time = int((deadline - now) / per) if per > 0 else 10**9
                room = by_time if room is None else min(room, by_time)
        if room is not None and room <= 0:
            return
        if room is None or (rollouts.played == 0 and limit is None):
            each = MIN_PAIRS  # the first round of a time budget: time a few rollouts
        else:
            each = max(BATCH, room // (rounds_left * len(alive)))
        target = max(MIN_PAIRS, max(len(c.results) for c in alive) + each)
        if not _fill(rollouts, alive, target, budget, began, deadline):
            return
        # A plan that never came into play is its single move again: drop it.
        alive = [c for c in alive if not c.sticky or c.used]
        if keep is not None:
            rivals = [c for c in alive if c is not keep]
            if not rivals:
                return
            if _beats(keep, rivals, margin) or _idle(keep, rivals, margin, least_gain):
                return
            if all(_behind(c, keep, margin) for c in rivals):
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


def pick(candidates: list[Candidate], has_guess: bool, margin: float) -> Candidate:
    """The heuristic's choice (the first candidate, when ``has_guess``), unless another
    leads it by ``margin`` paired errors."""
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
        if lead > margin * err and lead > best_lead:
            best, best_lead = c, lead
    return best
