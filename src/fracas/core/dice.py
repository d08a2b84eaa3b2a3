"""Dice notation: parse, roll (keeping every die), and exact distributions.

Grammar (whitespace ignored, case-insensitive)::

    expression := sum [compare INT]
    sum        := [sign] term (sign term)*
    term       := dice | INT | "(" sum ")"
    dice       := [INT] "d" (INT | "%") [("kh" | "kl") INT]
    compare    := ">=" | ">" | "<=" | "<" | "="

A comparison after a *bare pool* (``9d6>=4``, ``6d10kh3>7``) counts the kept
dice that satisfy it: that is a dice pool with success counting.  A
comparison after anything else (``1d20+5>=15``, ``(2d6)>=7``) tests the total
and yields 1 (success) or 0 (failure).  ``d100`` and ``d%`` are the same die.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from fracas.core.errors import DiceSyntaxError, OddsTooLargeError
from fracas.core.rng import Rng

__all__ = [
    "Compare",
    "Const",
    "DiceTerm",
    "DieResult",
    "Expression",
    "RollRecord",
    "Sum",
    "at_least",
    "distribution",
    "mean",
    "parse",
    "roll",
]

MAX_DICE = 1000
MAX_SIDES = 10_000
#: Parentheses nest at most this deep (deeper input is refused, not a RecursionError).
MAX_NESTING = 100
#: Exact odds are refused beyond about this many arithmetic steps (some seconds of work).
MAX_ODDS_STEPS = 10_000_000
_DIGITS = frozenset("0123456789")

_OPS: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt, "=": operator.eq,
}


@dataclass(frozen=True, slots=True)
class Const:
    """A whole-number constant."""

    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """``count`` dice of ``sides`` faces, optionally keeping the ``keep`` highest or lowest."""

    count: int
    sides: int
    keep: int | None = None
    keep_highest: bool = True

    def __str__(self) -> str:
        sides = "%" if self.sides == 100 else str(self.sides)
        text = f"{self.count}d{sides}"
        if self.keep is not None:
            text += f"{'kh' if self.keep_highest else 'kl'}{self.keep}"
        return text

    def kept_indices(self, faces: list[int]) -> set[int]:
        """Indices of the dice kept from ``faces`` (all of them without a keep clause)."""
        if self.keep is None:
            return set(range(len(faces)))
        order = sorted(range(len(faces)), key=lambda i: faces[i], reverse=self.keep_highest)
        return set(order[: self.keep])


@dataclass(frozen=True, slots=True)
class Sum:
    """Signed terms added together; ``grouped`` when written in parentheses."""

    terms: tuple[tuple[int, Const | DiceTerm | Sum], ...]
    grouped: bool = False

    def __str__(self) -> str:
        parts: list[str] = []
        for i, (sign, term) in enumerate(self.terms):
            if i or sign < 0:
                parts.append("-" if sign < 0 else "+")
            parts.append(str(term))
        text = "".join(parts)
        return f"({text})" if self.grouped else text


@dataclass(frozen=True, slots=True)
class Compare:
    """A comparison: per die (success counting) on a bare pool, otherwise on the total."""

    operand: Sum
    op: str
    target: int

    @property
    def per_die(self) -> bool:
        """True when this counts successes die by die rather than testing the total."""
        terms = self.operand.terms
        return (
            not self.operand.grouped and len(terms) == 1 and terms[0][0] > 0
            and isinstance(terms[0][1], DiceTerm)
        )

    def __str__(self) -> str:
        return f"{self.operand}{self.op}{self.target}"


Expression = Sum | Compare


# --------------------------------------------------------------------------- parsing
class _Parser:
    def __init__(self, text: str) -> None:
        self.original = text
        self.text = text.lower()
        self.pos = 0
        self.depth = 0

    def fail(self, expected: str) -> DiceSyntaxError:
        return DiceSyntaxError(self.original, self.pos, expected)

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t":
            self.pos += 1

    def peek(self, token: str) -> bool:
        self.skip()
        return self.text.startswith(token, self.pos)

    def take(self, token: str) -> bool:
        if self.peek(token):
            self.pos += len(token)
            return True
        return False

    def integer(self, expected: str) -> int:
        self.skip()
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in _DIGITS:
            self.pos += 1
        if start == self.pos:
            raise self.fail(expected)
        if self.pos - start > 6:
            self.pos = start
            raise self.fail("a number of at most 6 digits")
        return int(self.text[start:self.pos])

    def expression(self) -> Expression:
        self.skip()
        if self.pos >= len(self.text):
            raise self.fail("a dice expression such as 2d6+1")
        total = self.sum()
        result: Expression = total
        for op in (">=", "<=", ">", "<", "="):
            if self.take(op):
                result = Compare(total, op, self.integer("a target number after " + op))
                break
        self.skip()
        if self.pos < len(self.text):
            raise self.fail("'+', '-', a comparison or the end")
        return result

    def sum(self, grouped: bool = False) -> Sum:
        sign = -1 if self.take("-") else (self.take("+") and 1) or 1
        terms = [(sign, self.term())]
        while True:
            if self.take("+"):
                terms.append((1, self.term()))
            elif self.take("-"):
                terms.append((-1, self.term()))
            else:
                return Sum(tuple(terms), grouped)

    def term(self) -> Const | DiceTerm | Sum:
        self.skip()
        if self.peek("("):
            if self.depth >= MAX_NESTING:
                raise self.fail(f"at most {MAX_NESTING} nested parentheses")
            self.take("(")
            self.depth += 1
            inner = self.sum(grouped=True)
            if not self.take(")"):
                raise self.fail("')'")
            self.depth -= 1
            return inner
        count: int | None = None
        start = self.pos
        if self.pos < len(self.text) and self.text[self.pos] in _DIGITS:
            count = self.integer("a number")
        if not self.take("d"):
            if count is None:
                raise self.fail("a number, a die such as d6, or '('")
            return Const(count)
        if count is not None and not 1 <= count <= MAX_DICE:
            self.pos = start
            raise self.fail(f"a dice count between 1 and {MAX_DICE}")
        return self.dice(1 if count is None else count)

    def dice(self, count: int) -> DiceTerm:
        self.skip()
        start = self.pos
        sides = 100 if self.take("%") else self.integer("a die size after 'd'")
        if not 1 < sides <= MAX_SIDES:
            self.pos = start
            raise self.fail(f"a die size between 2 and {MAX_SIDES}")
        for token, highest in (("kh", True), ("kl", False)):
            if self.take(token):
                self.skip()
                start = self.pos
                keep = self.integer(f"how many dice to keep after '{token}'")
                if not 1 <= keep <= count:
                    self.pos = start
                    raise self.fail(f"a number of dice to keep between 1 and {count}")
                return DiceTerm(count, sides, keep, highest)
        return DiceTerm(count, sides)


@lru_cache(maxsize=512)
def parse(text: str) -> Expression:
    """Parse dice notation; raises :class:`DiceSyntaxError` naming the column that fails."""
    return _Parser(text).expression()


# --------------------------------------------------------------------------- rolling
@dataclass(frozen=True, slots=True)
class DieResult:
    """One die as rolled: its face, whether it was kept, and whether it counted as a success."""

    sides: int
    face: int
    kept: bool = True
    success: bool | None = None


@dataclass(frozen=True, slots=True)
class RollRecord:
    """The full result of rolling an expression: every die, kept or dropped, and the total."""

    expression: str
    dice: tuple[DieResult, ...]
    total: int

    @property
    def faces(self) -> tuple[int, ...]:
        """The faces of every die, in the order rolled."""
        return tuple(d.face for d in self.dice)

    def __str__(self) -> str:
        shown = []
        for d in self.dice:
            mark = "" if d.kept else "~"
            star = "*" if d.success else ""
            shown.append(f"{mark}{d.face}{star}")
        return f"{self.expression}: [{' '.join(shown)}] = {self.total}"


def _roll_sum(node: Sum, rng: Rng, out: list[DieResult], check: tuple[str, int] | None) -> int:
    total = 0
    for sign, term in node.terms:
        if isinstance(term, Const):
            total += sign * term.value
        elif isinstance(term, Sum):
            total += sign * _roll_sum(term, rng, out, None)
        else:
            faces = rng.dice(term.count, term.sides)
            kept = term.kept_indices(faces)
            value = 0
            for i, face in enumerate(faces):
                success = None
                if check is not None and i in kept:
                    success = _OPS[check[0]](face, check[1])
                    value += success
                elif i in kept:
                    value += face
                out.append(DieResult(term.sides, face, i in kept, success))
            total += sign * value
    return total


def roll(expression: str | Expression, rng: Rng) -> RollRecord:
    """Roll ``expression`` with ``rng``, keeping a record of every die."""
    node = parse(expression) if isinstance(expression, str) else expression
    out: list[DieResult] = []
    if isinstance(node, Compare):
        if node.per_die:
            total = _roll_sum(node.operand, rng, out, (node.op, node.target))
        else:
            total = int(_OPS[node.op](_roll_sum(node.operand, rng, out, None), node.target))
    else:
        total = _roll_sum(node, rng, out, None)
    return RollRecord(str(node), tuple(out), total)


# --------------------------------------------------------------------------- exact odds
Distribution = dict[int, Fraction]


class _Budget:
    """Counts the steps of an exact computation and refuses one that would take too long."""

    __slots__ = ("expression", "left")

    def __init__(self, expression: str) -> None:
        self.expression = expression
        self.left = MAX_ODDS_STEPS

    def spend(self, steps: int) -> None:
        self.left -= steps
        if self.left < 0:
            raise OddsTooLargeError(
                f"exact odds of {self.expression!r} need too much work (over "
                f"{MAX_ODDS_STEPS:,} steps); use fewer dice or smaller dice")


def _convolve(a: Mapping[int, int], b: Mapping[int, int],
              budget: _Budget | None = None) -> dict[int, int]:
    if budget is not None:
        budget.spend(len(a) * len(b))
    out: dict[int, int] = {}
    for x, wx in a.items():
        for y, wy in b.items():
            out[x + y] = out.get(x + y, 0) + wx * wy
    return out


def _kept_counts(term: DiceTerm, value: Callable[[int], int],
                 budget: _Budget | None = None) -> dict[int, int]:
    """Ways (out of sides**count) for each total of ``value`` over the kept dice.

    Walks the faces from the most to the least preferred, deciding how many dice
    show each face; the first ``keep`` dice placed are the kept ones.
    """
    keep = term.count if term.keep is None else term.keep
    faces = range(term.sides, 0, -1) if term.keep_highest else range(1, term.sides + 1)
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    # Each step multiplies numbers of about count * log2(sides) bits: weigh it by their size.
    weight = 1 + term.count * term.sides.bit_length() // 256
    for face in faces:
        nxt: dict[tuple[int, int], int] = {}
        if budget is not None:
            budget.spend(len(states) * (term.count + 1) * weight)
        v = value(face)
        for (placed, total), ways in states.items():
            left = term.count - placed
            for c in range(left + 1):
                kept = min(c, max(0, keep - placed))
                key = (placed + c, total + kept * v)
                nxt[key] = nxt.get(key, 0) + ways * comb(left, c)
        states = nxt
    return {total: ways for (placed, total), ways in states.items() if placed == term.count}


def _plain_counts(count: int, sides: int, budget: _Budget | None) -> dict[int, int]:
    """Ways of each total of ``count`` plain dice: one running window sum per die."""
    if budget is not None:  # the exact number of steps below, refused before any is taken
        budget.spend(count * (count - 1) // 2 * (sides - 1) + count * (sides + 1))
    ways = [1]  # ways[j]: ways to total (dice so far) + j
    for _ in range(count):
        prefix = [0]
        for w in ways:
            prefix.append(prefix[-1] + w)
        size = len(ways)
        ways = [prefix[min(j + 1, size)] - prefix[max(0, j - sides + 1)]
                for j in range(size + sides - 1)]
    return {count + j: w for j, w in enumerate(ways)}


def _sum_counts(node: Sum, value: Callable[[int], int] | None,
                budget: _Budget | None = None) -> tuple[dict[int, int], int]:
    """Integer weights of each total and the denominator they are out of."""
    acc: dict[int, int] = {0: 1}
    denominator = 1
    for sign, term in node.terms:
        if isinstance(term, Const):
            part, den = {term.value: 1}, 1
        elif isinstance(term, Sum):
            part, den = _sum_counts(term, None, budget)
        elif term.keep is None and value is None:
            part = _plain_counts(term.count, term.sides, budget)
            den = term.sides**term.count
        else:
            part = _kept_counts(term, value or (lambda f: f), budget)
            den = term.sides**term.count
        if sign < 0:
            part = {-k: w for k, w in part.items()}
        acc = _convolve(acc, part, budget)
        denominator *= den
    return acc, denominator


def distribution(expression: str | Expression) -> Distribution:
    """The exact probability of every result of ``expression``, as fractions.

    Raises:
        OddsTooLargeError: the exact answer would take more than some seconds of work.
    """
    node = parse(expression) if isinstance(expression, str) else expression
    budget = _Budget(str(node))
    if isinstance(node, Compare):
        op, target = _OPS[node.op], node.target
        if node.per_die:
            counts, den = _sum_counts(node.operand, lambda f: int(op(f, target)), budget)
        else:
            totals, den = _sum_counts(node.operand, None, budget)
            hit = sum(w for t, w in totals.items() if op(t, target))
            counts = {1: hit, 0: den - hit}
    else:
        counts, den = _sum_counts(node, None, budget)
    return {k: Fraction(w, den) for k, w in sorted(counts.items()) if w}


def mean(dist: Mapping[int, Fraction]) -> Fraction:
    """The expected value of a distribution."""
    return sum((k * p for k, p in dist.items()), Fraction(0))


def at_least(dist: Mapping[int, Fraction]) -> dict[int, Fraction]:
    """For every outcome ``k``, the probability of rolling ``k`` or more."""
    out: dict[int, Fraction] = {}
    running = Fraction(0)
    for k in sorted(dist, reverse=True):
        running += dist[k]
        out[k] = running
    return dict(sorted(out.items()))
