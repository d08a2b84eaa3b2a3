"""Exact odds of a One Ring test, for ``fracas odds one_ring: <question>``.

Question syntax (words in any order after the dice)::

    [hero|adversary] <N>d vs <TN> [favoured|ill-favoured] [weary] [miserable]

``N`` is the number of Success dice (0-20) and ``TN`` the target number.  The
answer maps a degree of result to its exact probability:

* ``0`` failure,
* ``1`` plain success (no tengwar),
* ``2`` great success (one tengwar),
* ``3`` extraordinary success (two or more tengwars).

Example: ``3d vs 14 favoured weary``.  ``miserable`` applies to heroes only.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from fracas.core.distribution import Distribution, Tally
from fracas.core.errors import ActionSyntaxError
from fracas.rules.one_ring.dice import (
    BAD,
    FEAT_SIDES,
    GOOD,
    SUCCESS_SIDES,
    TENGWAR_FACE,
    feat_dice_count,
    feat_rank,
    keep_feat,
)

__all__ = ["FAILURE", "OddsQuestion", "degree", "parse_question", "roll_odds"]

FAILURE, SUCCESS, GREAT, EXTRAORDINARY = 0, 1, 2, 3
MAX_DICE = 20


class OddsQuestion:
    """A parsed odds question (see the module docstring for the syntax)."""

    __slots__ = ("adversary", "dice", "favoured", "ill_favoured", "miserable", "tn", "weary")

    def __init__(self, dice: int, tn: int, *, adversary: bool = False, favoured: bool = False,
                 ill_favoured: bool = False, weary: bool = False, miserable: bool = False) -> None:
        self.dice = dice
        self.tn = tn
        self.adversary = adversary
        self.favoured = favoured
        self.ill_favoured = ill_favoured
        self.weary = weary
        self.miserable = miserable


def _fail(question: str, index: int, words: list[str], expected: str) -> ActionSyntaxError:
    got = repr(words[index]) if index < len(words) else "the end of the question"
    return ActionSyntaxError(
        f"cannot read odds question {question!r}: at word {index + 1} expected {expected}, "
        f"got {got}"
    )


def _number(question: str, words: list[str], index: int, what: str, low: int,
            high: int) -> int:
    if index >= len(words) or not words[index].isdigit():
        raise _fail(question, index, words, what)
    value = int(words[index])
    if not low <= value <= high:
        raise _fail(question, index, words, f"{what} between {low} and {high}")
    return value


def parse_question(question: str) -> OddsQuestion:
    """Read a question such as ``"hero 3d vs 14 favoured weary"``.

    Raises:
        ActionSyntaxError: naming the word that could not be read and what was expected.
    """
    words = question.lower().replace("-", "_").split()
    i = 0
    adversary = False
    if i < len(words) and words[i] in ("hero", "adversary"):
        adversary = words[i] == "adversary"
        i += 1
    if i >= len(words) or not words[i].endswith("d"):
        raise _fail(question, i, words, "a number of Success dice such as '3d'")
    words_dice = [words[i][:-1]]
    dice = _number(question, words_dice, 0, "a number of Success dice such as '3d'", 0, MAX_DICE)
    i += 1
    if i >= len(words) or words[i] != "vs":
        raise _fail(question, i, words, "'vs'")
    tn = _number(question, words, i + 1, "a target number", 0, 60)
    i += 2
    flags = {"favoured": False, "ill_favoured": False, "weary": False, "miserable": False}
    for j in range(i, len(words)):
        if words[j] not in flags:
            raise _fail(question, j, words, "favoured, ill-favoured, weary or miserable")
        flags[words[j]] = True
    if flags["miserable"] and adversary:
        raise _fail(question, words.index("miserable"), words,
                    "no 'miserable' for an adversary (only heroes are Miserable)")
    return OddsQuestion(dice, tn, adversary=adversary, **flags)


def degree(success: bool, tengwars: int) -> int:
    """The degree key for a result: failure, success, great or extraordinary."""
    if not success:
        return FAILURE
    return min(SUCCESS + tengwars, EXTRAORDINARY)


@cache
def _success_dice(count: int, weary: bool) -> Distribution[tuple[int, int]]:
    """Distribution of (counted total, tengwars capped at 2) for ``count`` Success dice."""
    dist: Distribution[tuple[int, int]] = Distribution({(0, 0): Fraction(1)})
    p = Fraction(1, SUCCESS_SIDES)
    for _ in range(count):
        nxt: Tally[tuple[int, int]] = Tally()
        for (total, sixes), q in dist.items():
            for face in range(1, SUCCESS_SIDES + 1):
                nxt.add((total + (0 if weary and face <= 3 else face),
                         min(2, sixes + (face == TENGWAR_FACE))), q * p)
        dist = nxt.freeze()
    return dist


def _feat_ranks(q: OddsQuestion) -> Distribution[int]:
    count = feat_dice_count(q.favoured, q.ill_favoured)
    faces = range(1, FEAT_SIDES + 1)
    out: Tally[int] = Tally()
    p = Fraction(1, FEAT_SIDES) ** count
    if count == 1:
        for f in faces:
            out.add(feat_rank(f, q.adversary), p)
        return out.freeze()
    for a in faces:
        for b in faces:
            out.add(keep_feat((feat_rank(a, q.adversary), feat_rank(b, q.adversary)),
                              q.favoured, q.ill_favoured), p)
    return out.freeze()


def roll_odds(q: OddsQuestion) -> dict[int, Fraction]:
    """The exact probability of each degree of result for question ``q``."""
    out: Tally[int] = Tally()
    for key in (FAILURE, SUCCESS, GREAT, EXTRAORDINARY):
        out.add(key, 0)
    dice = _success_dice(q.dice, q.weary)
    for rank, p_rank in _feat_ranks(q).items():
        numeric = rank if 1 <= rank <= 10 else 0
        for (total, sixes), p_dice in dice.items():
            ok = not (rank == BAD and q.miserable) and (rank == GOOD or numeric + total >= q.tn)
            out.add(degree(ok, sixes), p_rank * p_dice)
    return dict(out.freeze())
