"""Dice notation: parsing, rolling with every die kept, exact distributions."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.core.dice import at_least, distribution, mean, parse, roll
from fracas.core.errors import DiceSyntaxError
from fracas.core.rng import ScriptedRng, SeededRng


def brute_force(count: int, sides: int, value) -> dict[int, Fraction]:  # type: ignore[no-untyped-def]
    tally: Counter[int] = Counter(value(faces)
                                  for faces in itertools.product(range(1, sides + 1), repeat=count))
    total = sides**count
    return {k: Fraction(v, total) for k, v in sorted(tally.items())}


@pytest.mark.parametrize("text", ["2d8+3", "9d6>=4", "1d20+5", "d100", "d%", "4d6kh3",
                                  "2d20kl1", "1d20+5>=15", "(2d6)>=7", "3d6-2", "-1d4+10"])
def test_valid_expressions_parse_and_print_back(text: str) -> None:
    node = parse(text)
    assert parse(str(node)) == node


@pytest.mark.parametrize(("text", "column", "expected"), [
    ("2d", 3, "a die size"),
    ("2d6+", 5, "a number, a die such as d6"),
    ("2x6", 2, "'+', '-', a comparison, 'vs' or the end"),
    ("", 1, "a dice expression"),
    ("3d6kh4", 6, "between 1 and 3"),  # the caret sits on the number refused
    ("0d6", 1, "a dice count"),
    ("2d1", 3, "a die size between 2"),
    ("(2d6", 5, "')'"),
    ("9d6>=", 6, "a target number"),
])
def test_syntax_errors_say_where_and_what_was_expected(text: str, column: int,
                                                       expected: str) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        parse(text)
    assert info.value.position + 1 == column
    assert expected in str(info.value)
    assert f"column {column}" in str(info.value)


def test_roll_keeps_every_die_including_dropped_ones() -> None:
    record = roll("4d6kh3+2", ScriptedRng([1, 6, 5, 2]))
    assert record.faces == (1, 6, 5, 2)
    assert [d.kept for d in record.dice] == [False, True, True, True]
    assert record.total == 6 + 5 + 2 + 2


def test_pool_counts_successes_per_die() -> None:
    record = roll("5d6>=4", ScriptedRng([4, 3, 6, 1, 5]))
    assert record.total == 3
    assert [d.success for d in record.dice] == [True, False, True, False, True]


def test_comparison_after_a_sum_tests_the_total() -> None:
    assert roll("1d20+5>=15", ScriptedRng([10])).total == 1
    assert roll("1d20+5>=15", ScriptedRng([9])).total == 0


def test_d100_and_d_percent_are_the_same_die() -> None:
    assert parse("d100") == parse("d%")
    assert roll("d%", ScriptedRng([100])).total == 100


@pytest.mark.parametrize(("text", "count", "sides", "value"), [
    ("3d6", 3, 6, sum),
    ("4d6kh3", 4, 6, lambda f: sum(sorted(f)[1:])),
    ("3d4kl2", 3, 4, lambda f: sum(sorted(f)[:2])),
    ("5d6>=4", 5, 6, lambda f: sum(x >= 4 for x in f)),
    ("4d6kh2>5", 4, 6, lambda f: sum(x > 5 for x in sorted(f)[2:])),
    ("(2d6)>=7", 2, 6, lambda f: int(sum(f) >= 7)),
    ("2d8+3", 2, 8, lambda f: sum(f) + 3),
    ("2d6-1d4", 3, 6, None),
])
def test_exact_distribution_equals_brute_force(text: str, count: int, sides: int,
                                               value) -> None:  # type: ignore[no-untyped-def]
    if value is None:  # mixed dice: enumerate directly
        tally: Counter[int] = Counter()
        for a, b, c in itertools.product(range(1, 7), range(1, 7), range(1, 5)):
            tally[a + b - c] += 1
        expected = {k: Fraction(v, 144) for k, v in sorted(tally.items())}
    else:
        expected = brute_force(count, sides, value)
    assert distribution(text) == expected


def test_mean_and_at_least() -> None:
    dist = distribution("1d6")
    assert mean(dist) == Fraction(7, 2)
    assert at_least(dist)[5] == Fraction(1, 3)
    assert at_least(distribution("9d6>=4"))[0] == 1


@settings(max_examples=60, deadline=None)
@given(count=st.integers(1, 6), sides=st.sampled_from([2, 4, 6, 8]), keep=st.integers(1, 6),
       seed=st.integers(0, 10_000))
def test_rolled_totals_are_always_possible_outcomes(count: int, sides: int, keep: int,
                                                    seed: int) -> None:
    text = f"{count}d{sides}kh{min(keep, count)}"
    dist = distribution(text)
    assert sum(dist.values()) == 1
    assert roll(text, SeededRng(seed)).total in dist
