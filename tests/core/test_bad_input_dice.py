"""Bad dice notation and oversized rolls: project errors that point at the column, never a crash."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.core.dice import MAX_NESTING, distribution, parse
from fracas.core.errors import DiceSyntaxError, FracasError, OddsTooLargeError


@pytest.mark.parametrize(("text", "column", "got"), [
    ("1d6kh0", 6, "0"),       # the caret is on the keep count refused, not past it
    ("1d6 kh 9", 8, "9"),
    ("1d0", 3, "0"),          # and on the die size refused
    ("2d 1", 4, "1"),
    ("1001d6", 1, "1001"),    # the whole number refused is named, not its first digit
    ("3d10001", 3, "10001"),
    ("1234567d6", 1, "1234567"),
])
def test_out_of_range_numbers_are_pointed_at(text: str, column: int, got: str) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        parse(text)
    assert info.value.position + 1 == column
    assert f"got {got}" in str(info.value)


@pytest.mark.parametrize("text", ["²d6", "1d²", "1d6>=²", "١d6", "1d6kh١"])
def test_digits_of_other_scripts_are_a_syntax_error_not_a_value_error(text: str) -> None:
    # str.isdigit() accepts '²' and Arabic-Indic digits; int() refuses the first.
    with pytest.raises(DiceSyntaxError):
        parse(text)


def test_deep_parentheses_are_refused_with_a_column() -> None:
    deep = "(" * 5000 + "1" + ")" * 5000
    with pytest.raises(DiceSyntaxError) as info:
        parse(deep)
    assert info.value.position == MAX_NESTING
    assert "nested parentheses" in str(info.value)
    fine = "(" * MAX_NESTING + "1d6" + ")" * MAX_NESTING
    assert distribution(fine) == distribution("1d6")


@pytest.mark.parametrize("text", ["1000d1000", "1000d6+1000d6", "1000d6kh500", "200d1000",
                                  "100d20!", "600d100 vs 600d100"])
def test_exact_odds_of_huge_rolls_are_refused_before_the_work(text: str) -> None:
    with pytest.raises(OddsTooLargeError) as info:
        distribution(text)
    assert "too much work" in str(info.value) and info.value.exit_code == 2


@pytest.mark.parametrize("text", ["1000d6>=4", "1000d6kh1", "100d6kh50", "300d100"])
def test_rolls_once_too_large_are_now_answered_exactly(text: str) -> None:
    dist = distribution(text)
    assert sum(dist.values()) == 1


def test_big_plain_rolls_are_exact() -> None:
    dist = distribution("200d20")
    assert sum(dist.values()) == 1 and min(dist) == 200 and max(dist) == 4000
    assert distribution("3d6")[10] * 216 == 27


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789dDkhlro!vs%()+-<>= \t²x.", max_size=25))
def test_any_text_parses_or_raises_a_dice_syntax_error(text: str) -> None:
    try:
        node = parse(text)
    except DiceSyntaxError:
        return
    with contextlib.suppress(FracasError):
        distribution(node)


@pytest.mark.parametrize(("text", "column", "expected"), [
    ("4d6!!", 5, "each kind of modifier once"),
    ("4d6kh3dl1", 7, "each kind of modifier once"),
    ("2d6r7", 5, "a face a d6 can show"),
    ("2d6r<=6", 7, "leaves some face of the d6 standing"),
    ("2d6r", 5, "a face to reroll after 'r'"),
    ("2d6ro>", 7, "a face to reroll after 'ro'"),
    ("1d6dl1", 6, "two or more dice"),
    ("4d6dl4", 6, "between 1 and 3"),
    ("4d6dh", 6, "how many dice to drop"),
    ("4d6x", 4, "a dice modifier"),
    ("4d6k3", 4, "a dice modifier"),
    ("3d6 vs", 7, "a roll after 'vs'"),
    ("1d6 vs 1d6 vs 1d6", 12, "'+', '-', a comparison or the end"),
    ("3d6>=10", 4, "(3d6)>=10"),
    ("2d6 vs 4d6<=6", 11, "(4d6)<=6"),
])
def test_modifier_and_versus_mistakes_say_where_and_what_was_expected(text: str, column: int,
                                                                      expected: str) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        parse(text)
    assert info.value.position + 1 == column
    assert expected in str(info.value)
