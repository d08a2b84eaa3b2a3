"""Dice notation: parsing, rolling with every die kept, exact distributions."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.core.dice import at_least, distribution, explosion_tail, mean, parse, roll
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


# ----------------------------------------------------------------- modifiers, traps and vs
class _NeedFace(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class _Branch:
    """Faces from a fixed prefix; asking past it raises, so the caller can branch on it."""

    def __init__(self, prefix: tuple[int, ...]) -> None:
        self.prefix = prefix
        self.pos = 0

    def die(self, sides: int) -> int:
        if self.pos >= len(self.prefix):
            raise _NeedFace(sides)
        self.pos += 1
        return self.prefix[self.pos - 1]

    def dice(self, count: int, sides: int) -> list[int]:
        return [self.die(sides) for _ in range(count)]


def enumerate_rolls(text: str, never: frozenset[int] = frozenset()) -> dict[int, Fraction]:
    """Every way ``roll`` can go, each sequence of faces weighed by its chance.

    Faces in ``never`` are left out (rerolling a face until it stops is the same as
    never rolling it; enumerating the rerolls themselves would never end).
    """
    tally: Counter[int] = Counter()
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, chance = stack.pop()
        try:
            total = roll(text, _Branch(prefix)).total  # type: ignore[arg-type]
        except _NeedFace as need:
            faces = [f for f in range(1, need.sides + 1) if f not in never]
            stack.extend(((*prefix, f), chance / len(faces)) for f in faces)
            continue
        tally[total] += chance  # type: ignore[assignment]
    return {k: Fraction(v) for k, v in sorted(tally.items())}


@pytest.mark.parametrize("text", [
    "1d6!", "2d4!", "1d6!>=5", "2d4!>=3", "2d6ro<3", "2d4ro>=3", "4d4dl1", "3d4dh1",
    "3d3!kh2", "2d4!kl1>=2", "1d6 vs 1d4+1", "2d4>=3 vs 1d4>=2", "(2d4!)>=6",
    "1d4!-1d4", "3d3ro=3kh2 vs 2d4dl1", "1d3ro1!",
])
def test_exact_odds_of_modified_dice_equal_every_way_the_roll_can_go(text: str) -> None:
    assert distribution(text) == enumerate_rolls(text)


@pytest.mark.parametrize(("text", "never"), [
    ("3d4r1", {1}), ("2d4r1!", {1}), ("3d6r<3kh2", {1, 2}), ("2d4r4!", {4}), ("3d4r1>=3", {1}),
])
def test_rerolling_until_a_face_stops_is_never_rolling_it(text: str, never: set[int]) -> None:
    assert distribution(text) == enumerate_rolls(text, frozenset(never))


def test_exploding_die_by_hand() -> None:
    dist = distribution("1d6!")
    assert all(dist[f] == Fraction(1, 6) for f in range(1, 6))
    assert 6 not in dist and 12 not in dist  # a six always rolls on
    assert dist[7] == Fraction(1, 36) and dist[13] == Fraction(1, 216)
    assert max(dist) == 66 and dist[66] == Fraction(1, 6**11)  # eleven sixes: the cap
    assert explosion_tail("1d6!") == Fraction(1, 6**11)
    assert explosion_tail("2d6!+1d4") == 1 - (1 - Fraction(1, 6**11)) ** 2
    assert explosion_tail("3d6kh2") == 0
    # a pool counts each roll: a 5, or a 6 and then 1-4, is one success
    assert distribution("1d6!>=5")[0] == Fraction(4, 6)
    assert distribution("1d6!>=5")[1] == Fraction(1, 6) + Fraction(1, 6) * Fraction(4, 6)


def test_rerolls_by_hand() -> None:
    assert distribution("1d6r1") == {f: Fraction(1, 5) for f in range(2, 7)}
    once = distribution("1d6ro1")
    assert once[1] == Fraction(1, 36) and once[2] == Fraction(7, 36)
    assert distribution("1d6r<3") == {f: Fraction(1, 4) for f in range(3, 7)}


def test_drop_is_keep_the_rest() -> None:
    assert distribution("4d6dl1") == distribution("4d6kh3")
    assert distribution("4d6dh1") == distribution("4d6kl3")
    assert str(parse("4D6 DL 1")) == "4d6dl1"


def test_versus_by_hand_ties_are_their_own_outcome() -> None:
    assert distribution("1d6 vs 1d6") == {-1: Fraction(15, 36), 0: Fraction(6, 36),
                                          1: Fraction(15, 36)}
    dist = distribution("1d20+4 vs 1d20+2")
    assert dist[0] == Fraction(18, 400) and dist[1] == Fraction(229, 400)
    record = roll("2d6 vs 1d6+3", ScriptedRng([6, 5, 4]))
    assert record.total == 1 and record.faces == (6, 5, 4)
    assert roll("1d6 vs 1d6", ScriptedRng([3, 3])).total == 0


@pytest.mark.parametrize(("text", "column", "words", "spelling"), [
    ("3d6>=10", 4, "no die can", "(3d6)>=10"),
    ("4d6<=6", 4, "every die does", "(4d6)<=6"),
    ("6d10kh3>10", 8, "no die can", "(6d10kh3)>10"),
    ("3d6!>=7", 5, "no die can", "(3d6!)>=7"),   # a pool counts each roll, and a roll shows 1-6
    ("2d6r1>=2", 6, "every die does", "(2d6r1)>=2"),
    ("1d20 vs 3d6>=10", 12, "no die can", "(3d6)>=10"),
])
def test_a_pool_comparison_no_die_can_meet_is_refused_with_the_sum_spelling(
        text: str, column: int, words: str, spelling: str) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        parse(text)
    assert info.value.position + 1 == column
    assert words in str(info.value) and f"write {spelling}" in str(info.value)


def test_the_sum_spellings_and_single_dice_are_answered() -> None:
    assert distribution("(3d6)>=10") == {0: Fraction(81, 216), 1: Fraction(135, 216)}
    assert distribution("3d6+0>=10") == distribution("(3d6)>=10")
    assert distribution("1d6>=7") == {0: Fraction(1)}  # one die: counting is the total
    assert distribution("2d20kh1>=21") == {0: Fraction(1)}


def test_rolling_records_rerolls_and_explosions() -> None:
    record = roll("2d6r1!", ScriptedRng([1, 6, 2, 4]))
    assert record.total == 6 + 2 + 4
    assert [(d.face, d.kept, d.rerolled, d.exploded) for d in record.dice] == [
        (1, False, True, False), (6, True, False, True), (2, True, False, False),
        (4, True, False, False)]
    assert str(record) == "2d6!r1: [~1r 6! 2 4] = 12"  # modifiers print in one order
    capped = roll("1d6!", ScriptedRng([6] * 11))
    assert capped.total == 66 and not capped.dice[-1].exploded


_MODIFIERS = st.sampled_from(["", "!", "r1", "ro1", "r<2", "!r1", "ro>=3!"])


@settings(max_examples=60, deadline=None)
@given(count=st.integers(1, 5), sides=st.sampled_from([3, 4, 6, 10]), mod=_MODIFIERS,
       keep=st.sampled_from(["", "kh", "kl", "dh", "dl"]), n=st.integers(1, 4),
       seed=st.integers(0, 10_000))
def test_any_modified_pool_sums_to_one_and_rolls_inside_it(count: int, sides: int, mod: str,
                                                           keep: str, n: int, seed: int) -> None:
    if keep:
        n = min(n, count - 1) if keep[0] == "d" else min(n, count)
        if n < 1:
            keep = ""
    text = f"{count}d{sides}{mod}" + (f"{keep}{n}" if keep else "")
    dist = distribution(text)
    assert sum(dist.values()) == 1
    assert roll(text, SeededRng(seed)).total in dist


@settings(max_examples=40, deadline=None)
@given(count=st.integers(1, 5), sides=st.sampled_from([2, 3, 4, 6]), data=st.data())
def test_keep_and_drop_equal_brute_force_for_small_pools(count: int, sides: int,
                                                         data: st.DataObject) -> None:
    keep = data.draw(st.integers(1, count))
    assert distribution(f"{count}d{sides}kh{keep}") == brute_force(
        count, sides, lambda f: sum(sorted(f)[count - keep:]))
    assert distribution(f"{count}d{sides}kl{keep}") == brute_force(
        count, sides, lambda f: sum(sorted(f)[:keep]))
    if keep < count:
        assert distribution(f"{count}d{sides}dl{count - keep}") == distribution(
            f"{count}d{sides}kh{keep}")


def test_keep_highest_of_many_dice_matches_a_slow_recursion() -> None:
    # the kept sum of n dice by recursion over the dice, in sorted order
    from functools import cache

    @cache
    def ways(n: int, k: int, top: int) -> Counter[int]:
        """Ways for n dice all showing at most ``top``, summing their k highest."""
        if n == 0:
            return Counter({0: 1})
        out: Counter[int] = Counter()
        for face in range(1, top + 1):  # the highest of them shows face: c dice show it
            for c in range(1, n + 1):
                rest = ways(n - c, max(0, k - c), face - 1)
                for total, w in rest.items():
                    out[total + min(c, k) * face] += comb(n, c) * w
        return out

    expected = ways(12, 4, 10)
    assert distribution("12d10kh4") == {t: Fraction(w, 10**12) for t, w in sorted(expected.items())}
