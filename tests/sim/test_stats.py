"""Statistics of simulated fights: Wilson intervals and mergeable summaries."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fracas.sim.stats import ChunkSummary, histogram_mean, histogram_median, wilson_interval


def test_wilson_interval_matches_the_textbook_values() -> None:
    # Known values of the 95% Wilson score interval.
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2365931, abs=1e-6)
    assert high == pytest.approx(0.7634069, abs=1e-6)
    low, high = wilson_interval(0, 10)
    assert low == 0.0
    assert high == pytest.approx(0.2775328, abs=1e-6)


def test_wilson_interval_stays_inside_zero_and_one_when_a_side_always_wins() -> None:
    low, high = wilson_interval(20, 20)
    assert 0.8 < low < 1.0
    assert high == 1.0


def test_wilson_interval_without_trials_says_nothing() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_interval_refuses_more_successes_than_trials() -> None:
    with pytest.raises(ValueError, match="between 0 and 3"):
        wilson_interval(4, 3)


@given(st.integers(1, 10_000), st.data())
def test_wilson_interval_contains_the_observed_rate(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    low, high = wilson_interval(k, n)
    assert 0.0 <= low <= k / n <= high <= 1.0
    assert high - low <= 2 * 1.96 * math.sqrt(0.25 / n) + 1e-12


def test_histogram_mean_and_median() -> None:
    hist = {1: 2, 2: 1, 10: 1}
    assert histogram_mean(hist) == pytest.approx(3.5)
    assert histogram_median(hist) == 1.5
    assert histogram_median({3: 3}) == 3.0
    assert histogram_mean({}) == 0.0
    assert histogram_median({}) == 0.0


counts = st.dictionaries(st.sampled_from(["red", "blue"]), st.integers(0, 50))
rounds = st.dictionaries(st.integers(1, 9), st.integers(0, 50))
health = st.dictionaries(st.sampled_from(["Ash", "Oak"]),
                         st.dictionaries(st.floats(-5, 20, allow_nan=False), st.integers(0, 9)))


@st.composite
def summaries(draw: st.DrawFn) -> ChunkSummary:
    return ChunkSummary(draw(st.integers(0, 100)), draw(counts), draw(st.integers(0, 9)),
                        draw(st.integers(0, 9)), draw(rounds), draw(counts), draw(health))


@given(summaries(), summaries(), summaries())
def test_summaries_merge_to_the_same_totals_in_any_order(
    a: ChunkSummary, b: ChunkSummary, c: ChunkSummary
) -> None:
    def copy(s: ChunkSummary) -> ChunkSummary:
        return ChunkSummary().merge(s)

    left = copy(a).merge(copy(b)).merge(copy(c))
    right = copy(c).merge(copy(b).merge(copy(a)))
    assert left == right
    assert left.fights == a.fights + b.fights + c.fights
