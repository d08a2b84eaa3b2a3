"""Summaries of many fights: mergeable per-chunk counts and the statistics built from them.

Workers never send back fights, only a :class:`ChunkSummary` of counts and
histograms.  Summaries add up in any order to the same totals, so a run gives
the same report whatever the number of workers or the executor; every mean
and median is computed from the merged histograms, never from float sums that
depend on the order of the additions.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "DRAW",
    "UNFINISHED",
    "Z95",
    "ChunkSummary",
    "half_width",
    "histogram_mean",
    "histogram_median",
    "joint_outcomes",
    "paired_difference",
    "unpaired_difference",
    "wilson_interval",
]

#: The outcome name of a fight that ended with no winner.
DRAW = "(draw)"
#: The outcome name of a fight stopped by the decision limit.
UNFINISHED = "(unfinished)"

#: The two-sided 95% quantile of the standard normal distribution.
Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion.

    Unlike the textbook ``p +- z*sqrt(p(1-p)/n)`` interval it never leaves
    [0, 1] and stays sensible when a side wins always or never.

    Args:
        successes: how many trials succeeded (for example fights won).
        trials: how many trials were run; 0 gives the uninformative (0, 1).
        z: the normal quantile; the default gives a 95% interval.
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be between 0 and {trials}, got {successes}")
    n = float(trials)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # At 0 or n successes the exact bound is 0 or 1; rounding must not move it.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def half_width(rate: float, interval: tuple[float, float]) -> float:
    """How far ``interval`` reaches from ``rate`` on its wider side: the answer is ``rate``
    within plus or minus this.

    >>> round(half_width(0.5, wilson_interval(50, 100)), 4)
    0.0962
    """
    low, high = interval
    return max(rate - low, high - rate, 0.0)


def _newcombe(p1: float, p2: float, i1: tuple[float, float], i2: tuple[float, float],
              phi: float) -> tuple[float, float]:
    l1, u1 = i1
    l2, u2 = i2
    d1, e1, d2, e2 = p1 - l1, u1 - p1, p2 - l2, u2 - p2
    delta = math.sqrt(max(0.0, d1 * d1 - 2 * phi * d1 * e2 + e2 * e2))
    epsilon = math.sqrt(max(0.0, e1 * e1 - 2 * phi * e1 * d2 + d2 * d2))
    theta = p1 - p2
    return (max(-1.0, theta - delta), min(1.0, theta + epsilon))


def unpaired_difference(s1: int, n1: int, s2: int, n2: int,
                        ) -> tuple[float, tuple[float, float]]:
    """The difference ``s1/n1 - s2/n2`` of two independent proportions and its 95% interval.

    Newcombe's hybrid score interval: built from the two Wilson intervals, so it agrees
    with them and stays inside [-1, 1].  Newcombe's own example (56/70 against 48/80):

    >>> d, (low, high) = unpaired_difference(56, 70, 48, 80)
    >>> round(d, 2), round(low, 4), round(high, 4)
    (0.2, 0.0524, 0.3339)
    """
    p1 = s1 / n1 if n1 else 0.0
    p2 = s2 / n2 if n2 else 0.0
    return p1 - p2, _newcombe(p1, p2, wilson_interval(s1, n1), wilson_interval(s2, n2), 0.0)


def paired_difference(both: int, only_first: int, only_second: int, neither: int,
                      ) -> tuple[float, tuple[float, float]]:
    """The difference of two proportions measured on the same trials, with its 95% interval.

    Each trial is counted in one cell of the 2x2 table: a success under both, under the
    first only, under the second only, or under neither.  The difference is
    ``(only_first - only_second) / n``; its interval is Newcombe's score interval for
    paired proportions (his method 10), which narrows as the two outcomes agree more
    often: the gain of playing variants of a sweep on the same dice.

    >>> d, (low, high) = paired_difference(40, 20, 10, 30)
    >>> round(d, 2), round(low, 4), round(high, 4)
    (0.1, -0.0056, 0.2017)
    """
    n = both + only_first + only_second + neither
    if n == 0:
        return 0.0, (-1.0, 1.0)
    first, second = both + only_first, both + only_second
    p1, p2 = first / n, second / n
    denominator = float(first) * (n - first) * second * (n - second)
    phi = ((both * neither - only_first * only_second) / math.sqrt(denominator)
           if denominator > 0 else 0.0)
    return p1 - p2, _newcombe(p1, p2, wilson_interval(first, n), wilson_interval(second, n),
                              phi)


def joint_outcomes(first: ChunkSummary, second: ChunkSummary) -> dict[tuple[str, str], int]:
    """How often each pair of outcomes came up in the same fights of two chunks.

    Both chunks must cover the same fight indices (and so the same fight seeds) and
    have kept their per-fight outcomes (:meth:`ChunkSummary.note`).
    """
    if len(first.outcomes) != len(second.outcomes):
        raise ValueError("the two chunks did not keep the same number of fight outcomes")
    counts: dict[tuple[str, str], int] = {}
    for (a, b), count in Counter(zip(first.outcomes, second.outcomes, strict=True)).items():
        key = (first.outcome_names[a], second.outcome_names[b])
        counts[key] = counts.get(key, 0) + count
    return counts


def histogram_mean(hist: Mapping[Any, int]) -> float:
    """The mean of a histogram ``value -> count`` (0.0 when empty), summed in sorted order."""
    total = sum(hist.values())
    if total == 0:
        return 0.0
    return math.fsum(float(v) * c for v, c in sorted(hist.items())) / total


def histogram_median(hist: Mapping[Any, int]) -> float:
    """The median of a histogram ``value -> count`` (the mean of the two middle values if even)."""
    total = sum(hist.values())
    if total == 0:
        return 0.0
    items = sorted(hist.items())

    def nth(k: int) -> float:
        seen = 0
        for value, count in items:
            seen += count
            if seen > k:
                return float(value)
        return float(items[-1][0])

    if total % 2:
        return nth(total // 2)
    return (nth(total // 2 - 1) + nth(total // 2)) / 2


def _add(into: dict[Any, int], other: Mapping[Any, int]) -> None:
    for key, count in other.items():
        into[key] = into.get(key, 0) + count


@dataclass
class ChunkSummary:
    """Counts for a block of fights; summaries of disjoint blocks merge by addition.

    Attributes:
        fights: how many fights were played.
        wins: side -> fights that side won.
        draws: fights that ended with no winner.
        unfinished: fights stopped by the decision limit before they ended.
        rounds: rounds the fight lasted -> fights.
        survived: combatant -> fights it ended still standing.
        health: combatant -> (health left at the end -> fights).
        outcomes: per fight of the chunk, in order, an index into ``outcome_names``
            (the winning side, :data:`DRAW` or :data:`UNFINISHED`); kept so that variants
            played on the same fights can be compared fight by fight; neither merged nor
            compared (the counts say the same).
        outcome_names: what the indices of ``outcomes`` stand for.
    """

    fights: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    unfinished: int = 0
    rounds: dict[int, int] = field(default_factory=dict)
    survived: dict[str, int] = field(default_factory=dict)
    health: dict[str, dict[float, int]] = field(default_factory=dict)
    outcomes: bytearray = field(default_factory=bytearray, compare=False)
    outcome_names: list[str] = field(default_factory=list, compare=False)

    def fight_outcomes(self) -> list[str]:
        """The kept outcome of each fight of the chunk, in order."""
        return [self.outcome_names[code] for code in self.outcomes]

    def note(self, winner: str | None, finished: bool) -> None:
        """Keep the outcome of the chunk's next fight (counted separately, in ``wins``)."""
        name = winner if winner is not None else (DRAW if finished else UNFINISHED)
        try:
            code = self.outcome_names.index(name)
        except ValueError:
            code = len(self.outcome_names)
            if code > 255:
                raise ValueError("more than 256 different outcomes in one chunk") from None
            self.outcome_names.append(name)
        self.outcomes.append(code)

    def merge(self, other: ChunkSummary) -> ChunkSummary:
        """Add ``other``'s counts to this summary (in place) and return it."""
        self.fights += other.fights
        _add(self.wins, other.wins)
        self.draws += other.draws
        self.unfinished += other.unfinished
        _add(self.rounds, other.rounds)
        _add(self.survived, other.survived)
        for name, hist in other.health.items():
            _add(self.health.setdefault(name, {}), hist)
        return self
