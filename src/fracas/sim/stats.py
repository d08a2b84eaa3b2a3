"""Summaries of many fights: mergeable per-chunk counts and the statistics built from them.

Workers never send back fights, only a :class:`ChunkSummary` of counts and
histograms.  Summaries add up in any order to the same totals, so a run gives
the same report whatever the number of workers or the executor; every mean
and median is computed from the merged histograms, never from float sums that
depend on the order of the additions.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Z95", "ChunkSummary", "histogram_mean", "histogram_median", "wilson_interval"]

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
    """

    fights: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    unfinished: int = 0
    rounds: dict[int, int] = field(default_factory=dict)
    survived: dict[str, int] = field(default_factory=dict)
    health: dict[str, dict[float, int]] = field(default_factory=dict)

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
