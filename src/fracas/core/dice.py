"""Dice notation: parse, roll (keeping every die), and exact distributions.

Grammar (whitespace ignored, case-insensitive)::

    expression := roll ["vs" roll]
    roll       := sum [compare INT]
    sum        := [sign] term (sign term)*
    term       := dice | INT | "(" sum ")"
    dice       := [INT] "d" (INT | "%") modifier*
    modifier   := "!"                       explode: a die showing its highest face rolls again
                | ("r" | "ro") [compare] INT  reroll faces (``r``: until none; ``ro``: once)
                | ("kh" | "kl") INT         keep the highest / lowest dice
                | ("dh" | "dl") INT         drop the highest / lowest dice
    compare    := ">=" | ">" | "<=" | "<" | "="

A comparison after a *bare pool* (``9d6>=4``, ``6d10kh3>7``) counts the kept
dice that satisfy it: that is a dice pool with success counting (each roll of
an exploding die counts on its own, as the extra dice of a pool would).  A
comparison after anything else (``1d20+5>=15``, ``(3d6)>=10``) tests the total
and yields 1 (success) or 0 (failure): parentheses are how to compare the sum of
a pool.  A pool comparison no die can meet (``3d6>=10``) or that every die meets
(``4d6<=6``) is refused, with the parenthesised spelling in the message.

``A vs B`` yields 1 when A is higher, 0 on a tie and -1 when B is higher.

An exploding die explodes at most :data:`MAX_EXPLOSIONS` times (its last roll
then stands even on the highest face), both when rolled and in exact odds;
:func:`explosion_tail` is the chance that this cap changed the roll.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache, reduce
from math import comb, gcd

from fracas.core.errors import DiceSyntaxError, OddsTooLargeError
from fracas.core.probability import Distribution
from fracas.core.rng import Rng

__all__ = [
    "MAX_EXPLOSIONS",
    "Compare",
    "Const",
    "DiceTerm",
    "DieResult",
    "Expression",
    "RollRecord",
    "Sum",
    "Versus",
    "at_least",
    "distribution",
    "explosion_tail",
    "mean",
    "parse",
    "roll",
]

MAX_DICE = 1000
MAX_SIDES = 10_000
#: Parentheses nest at most this deep (deeper input is refused, not a RecursionError).
MAX_NESTING = 100
#: An exploding die rolls at most this many extra times (the last roll stands even if highest).
MAX_EXPLOSIONS = 10
#: Exact odds are refused beyond this much estimated work (the estimate runs high), so
#: that the largest roll accepted still answers in seconds.
MAX_ODDS_WORK = 6e10
_DIGITS = frozenset("0123456789")

_OPS: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt, "=": operator.eq,
}
_OP_ORDER = (">=", "<=", ">", "<", "=")


def _describe(op: str, target: int) -> str:
    return {">=": f"{target} or more", ">": f"more than {target}", "<=": f"{target} or less",
            "<": f"less than {target}", "=": f"exactly {target}"}[op]


@dataclass(frozen=True, slots=True)
class Const:
    """A whole-number constant."""

    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """``count`` dice of ``sides`` faces with their modifiers.

    ``keep`` dice are kept (the highest when ``keep_highest``), ``None`` keeping all;
    ``drop`` only records that it was written as ``dl``/``dh``.  ``reroll`` is the
    comparison a face must meet to be rerolled (until it no longer does, or just
    once with ``reroll_once``); ``explode`` rolls a die showing its highest face
    again and adds the rolls, at most :data:`MAX_EXPLOSIONS` times.
    """

    count: int
    sides: int
    keep: int | None = None
    keep_highest: bool = True
    explode: bool = False
    reroll: tuple[str, int] | None = None
    reroll_once: bool = False
    drop: bool = False

    def __str__(self) -> str:
        sides = "%" if self.sides == 100 else str(self.sides)
        text = f"{self.count}d{sides}"
        if self.explode:
            text += "!"
        if self.reroll is not None:
            op, face = self.reroll
            text += ("ro" if self.reroll_once else "r") + ("" if op == "=" else op) + str(face)
        if self.keep is not None:
            if self.drop:
                text += f"{'dl' if self.keep_highest else 'dh'}{self.count - self.keep}"
            else:
                text += f"{'kh' if self.keep_highest else 'kl'}{self.keep}"
        return text

    @property
    def kept(self) -> int:
        """How many dice count towards the result."""
        return self.count if self.keep is None else self.keep

    def rerolls(self, face: int) -> bool:
        """True when a roll showing ``face`` is rolled again."""
        return self.reroll is not None and _OPS[self.reroll[0]](face, self.reroll[1])

    def roll_faces(self) -> list[int]:
        """The faces a single roll of one of these dice can end on (after rerolls)."""
        faces = range(1, self.sides + 1)
        if self.reroll_once:
            return list(faces)
        return [f for f in faces if not self.rerolls(f)]

    def kept_indices(self, values: Sequence[int]) -> set[int]:
        """Indices of the dice kept from their ``values`` (all of them without keep or drop)."""
        if self.keep is None:
            return set(range(len(values)))
        order = sorted(range(len(values)), key=lambda i: values[i], reverse=self.keep_highest)
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


@dataclass(frozen=True, slots=True)
class Versus:
    """``left vs right``: 1 when the left result is higher, 0 on a tie, -1 when lower."""

    left: Sum | Compare
    right: Sum | Compare

    def __str__(self) -> str:
        return f"{self.left} vs {self.right}"


Expression = Sum | Compare | Versus


# --------------------------------------------------------------------------- parsing
class _Parser:
    def __init__(self, text: str) -> None:
        self.original = text
        self.text = text.lower()
        self.pos = 0
        self.depth = 0

    def fail(self, expected: str, got: str | None = None) -> DiceSyntaxError:
        return DiceSyntaxError(self.original, self.pos, expected, got)

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
            digits = self.text[start:self.pos]
            self.pos = start
            raise self.fail("a number of at most 6 digits", digits)
        return int(self.text[start:self.pos])

    def compare_op(self) -> str | None:
        for op in _OP_ORDER:
            if self.take(op):
                return op
        return None

    def expression(self) -> Expression:
        self.skip()
        if self.pos >= len(self.text):
            raise self.fail("a dice expression such as 2d6+1")
        left = self.roll()
        result: Expression = left
        if self.take("vs"):
            self.skip()
            if self.pos >= len(self.text):
                raise self.fail("a roll after 'vs', such as 2d6")
            result = Versus(left, self.roll())
            self.skip()
            if self.pos < len(self.text):
                raise self.fail("'+', '-', a comparison or the end")
        self.skip()
        if self.pos < len(self.text):
            raise self.fail("'+', '-', a comparison, 'vs' or the end")
        return result

    def roll(self) -> Sum | Compare:
        total = self.sum()
        self.skip()
        at = self.pos
        op = self.compare_op()
        if op is None:
            return total
        node = Compare(total, op, self.integer("a target number after " + op))
        if node.per_die:
            self.check_pool(node, at)
        return node

    def check_pool(self, node: Compare, at: int) -> None:
        """Refuse a pool comparison no die can meet or every die meets (the sum was meant)."""
        term = node.operand.terms[0][1]
        assert isinstance(term, DiceTerm)
        if term.kept < 2 and not term.explode:
            return  # one die: counting it and testing the total are the same thing
        faces = term.roll_faces()
        meets = [f for f in faces if _OPS[node.op](f, node.target)]
        if meets and len(meets) < len(faces):
            return
        total = Compare(Sum(node.operand.terms, grouped=True), node.op, node.target)
        what = "no die can" if not meets else "every die does"
        self.pos = at
        raise self.fail(
            f"a comparison some die can {'meet' if not meets else 'fail'}: {node} counts the "
            f"dice showing {_describe(node.op, node.target)}, and {what} (a roll shows "
            f"{faces[0]} to {faces[-1]}); to compare the total, write {total}")

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
            raise self.fail(f"a dice count between 1 and {MAX_DICE}", str(count))
        return self.dice(1 if count is None else count)

    def dice(self, count: int) -> DiceTerm:
        self.skip()
        start = self.pos
        sides = 100 if self.take("%") else self.integer("a die size after 'd'")
        if not 1 < sides <= MAX_SIDES:
            self.pos = start
            raise self.fail(f"a die size between 2 and {MAX_SIDES}", str(sides))
        term = DiceTerm(count, sides)
        seen: set[str] = set()
        while True:
            self.skip()
            at = self.pos
            if self.take("!"):
                kind = "!"
            elif self.take("ro") or self.take("r"):
                kind = "r"
            elif any(self.take(t) for t in ("kh", "kl", "dh", "dl")):
                kind = "k"
            else:
                break
            if kind in seen:
                self.pos = at
                raise self.fail("each kind of modifier once (one '!', one reroll, one keep or "
                                "drop)")
            seen.add(kind)
            token = self.text[at:self.pos]
            if kind == "!":
                term = replace(term, explode=True)
            elif kind == "r":
                term = self.reroll(term, token)
            else:
                term = self.keep(term, token)
        if self.pos < len(self.text) and self.text[self.pos].isalpha() and not self.peek("vs"):
            raise self.fail("a dice modifier (!, r1, ro1, kh3, kl3, dh1 or dl1), '+', '-', "
                            "a comparison, 'vs' or the end")
        return term

    def reroll(self, term: DiceTerm, token: str) -> DiceTerm:
        op = self.compare_op() or "="
        self.skip()
        start = self.pos
        face = self.integer(f"a face to reroll after '{token}', such as {token}1 or {token}<3")
        new = replace(term, reroll=(op, face), reroll_once=token == "ro")
        hit = sum(new.rerolls(f) for f in range(1, term.sides + 1))
        if not hit or hit == term.sides:
            self.pos = start
            raise self.fail(f"a face a d{term.sides} can show (1 to {term.sides}) to reroll"
                            if not hit else
                            f"a reroll that leaves some face of the d{term.sides} standing",
                            str(face))
        return new

    def keep(self, term: DiceTerm, token: str) -> DiceTerm:
        self.skip()
        start = self.pos
        dropping = token[0] == "d"
        number = self.integer(f"how many dice to {'drop' if dropping else 'keep'} after "
                              f"'{token}'")
        if dropping:
            if not 1 <= number < term.count:
                self.pos = start
                raise self.fail(f"a number of dice to drop between 1 and {term.count - 1}"
                                if term.count > 1 else
                                "a pool of two or more dice to drop from (one die is rolled)",
                                str(number))
            return replace(term, keep=term.count - number, keep_highest=token == "dl",
                            drop=True)
        if not 1 <= number <= term.count:
            self.pos = start
            raise self.fail(f"a number of dice to keep between 1 and {term.count}", str(number))
        return replace(term, keep=number, keep_highest=token == "kh")


@lru_cache(maxsize=512)
def parse(text: str) -> Expression:
    """Parse dice notation; raises :class:`DiceSyntaxError` naming the column that fails.

    The tree prints back as canonical notation, so a parsed roll can be shown or logged:

    >>> str(parse("4d6kh3")), str(parse("9d6 >= 4")), str(parse("1d20+5 vs 1d20+3"))
    ('4d6kh3', '9d6>=4', '1d20+5 vs 1d20+3')
    >>> parse("2d6+3").terms[0][1].sides
    6
    >>> parse("3d6+")
    Traceback (most recent call last):
        ...
    fracas.core.errors.DiceSyntaxError: bad dice expression '3d6+' at column 5: expected ...
      3d6+
          ^
    """
    return _Parser(text).expression()


# --------------------------------------------------------------------------- rolling
@dataclass(frozen=True, slots=True)
class DieResult:
    """One roll of a die as made.

    ``kept``: it counts towards the result (false for dice dropped by keep or drop,
    and for rolls ``rerolled`` away); ``success``: it met a pool's comparison;
    ``exploded``: it showed the highest face and made the die roll again.
    """

    sides: int
    face: int
    kept: bool = True
    success: bool | None = None
    rerolled: bool = False
    exploded: bool = False


@dataclass(frozen=True, slots=True)
class RollRecord:
    """The full result of rolling an expression: every die, kept or dropped, and the total.

    Printed, a dropped die is marked ``~``, a pool success ``*``, an explosion ``!``:

    >>> from fracas.core.rng import ScriptedRng
    >>> record = roll("4d6kh3", ScriptedRng([6, 2, 5, 1]))
    >>> print(record)
    4d6kh3: [6 2 5 ~1] = 13
    >>> record.faces, [d.kept for d in record.dice]
    ((6, 2, 5, 1), [True, True, True, False])
    """

    expression: str
    dice: tuple[DieResult, ...]
    total: int

    @property
    def faces(self) -> tuple[int, ...]:
        """The faces of every roll, in the order rolled (rerolled ones included)."""
        return tuple(d.face for d in self.dice)

    def __str__(self) -> str:
        shown = []
        for d in self.dice:
            mark = "" if d.kept else "~"
            star = "*" if d.success else ""
            shown.append(f"{mark}{d.face}{'!' if d.exploded else ''}{'r' if d.rerolled else ''}"
                         f"{star}")
        return f"{self.expression}: [{' '.join(shown)}] = {self.total}"


def _roll_one(term: DiceTerm, rng: Rng) -> list[tuple[int, bool]]:
    """The rolls of one die: (face, rerolled away) pairs, explosions following their die."""
    rolls: list[tuple[int, bool]] = []
    explosions = 0
    while True:
        face = rng.dice(1, term.sides)[0]
        while term.rerolls(face):
            rolls.append((face, True))
            face = rng.dice(1, term.sides)[0]
            if term.reroll_once:
                break
        rolls.append((face, False))
        if not (term.explode and face == term.sides and explosions < MAX_EXPLOSIONS):
            return rolls
        explosions += 1


def _roll_dice(term: DiceTerm, rng: Rng, out: list[DieResult],
               check: tuple[str, int] | None) -> int:
    if term.explode or term.reroll is not None:
        dice = [_roll_one(term, rng) for _ in range(term.count)]
    else:
        dice = [[(face, False)] for face in rng.dice(term.count, term.sides)]
    totals = [sum(face for face, away in rolls if not away) for rolls in dice]
    kept = term.kept_indices(totals)
    value = 0
    for i, rolls in enumerate(dice):
        last = len(rolls) - 1
        for n, (face, away) in enumerate(rolls):
            success = None
            if check is not None and i in kept and not away:
                success = _OPS[check[0]](face, check[1])
                value += success
            exploded = term.explode and not away and n < last
            out.append(DieResult(term.sides, face, i in kept and not away, success, away,
                                 exploded))
        if check is None and i in kept:
            value += totals[i]
    return value


def _roll_sum(node: Sum, rng: Rng, out: list[DieResult], check: tuple[str, int] | None) -> int:
    total = 0
    for sign, term in node.terms:
        if isinstance(term, Const):
            total += sign * term.value
        elif isinstance(term, Sum):
            total += sign * _roll_sum(term, rng, out, None)
        else:
            total += sign * _roll_dice(term, rng, out, check)
    return total


def _roll_side(node: Sum | Compare, rng: Rng, out: list[DieResult]) -> int:
    if isinstance(node, Sum):
        return _roll_sum(node, rng, out, None)
    if node.per_die:
        return _roll_sum(node.operand, rng, out, (node.op, node.target))
    return int(_OPS[node.op](_roll_sum(node.operand, rng, out, None), node.target))


def roll(expression: str | Expression, rng: Rng) -> RollRecord:
    """Roll ``expression`` with ``rng``, keeping a record of every die.

    A pool comparison counts the dice that meet it; ``vs`` gives 1, 0 or -1; scripted
    dice pin the outcome exactly, and a seeded stream repeats it:

    >>> from fracas.core.rng import ScriptedRng, SeededRng
    >>> print(roll("9d6>=4", ScriptedRng([1, 2, 3, 4, 5, 6, 6, 4, 1])))
    9d6>=4: [1 2 3 4* 5* 6* 6* 4* 1] = 5
    >>> print(roll("3d6!", ScriptedRng([6, 3, 2, 5])))
    3d6!: [6! 3 2 5] = 16
    >>> roll("1d20+4 vs 1d20+2", ScriptedRng([11, 12])).total
    1
    >>> roll("2d6+3", SeededRng(7)) == roll("2d6+3", SeededRng(7))
    True
    """
    node = parse(expression) if isinstance(expression, str) else expression
    out: list[DieResult] = []
    if isinstance(node, Versus):
        left = _roll_side(node.left, rng, out)
        right = _roll_side(node.right, rng, out)
        total = (left > right) - (left < right)
    else:
        total = _roll_side(node, rng, out)
    return RollRecord(str(node), tuple(out), total)


# --------------------------------------------------------------------------- exact odds
#
# Every part of an expression becomes integer weights over a dense run of results:
# (offset, weights, denominator), weights[i] being the ways to get offset + i out of
# ``denominator``.  Products of such polynomials are taken with Kronecker substitution:
# a polynomial is packed into one big integer (a fixed number of bytes per weight,
# enough for the largest possible weight) and CPython's big-integer multiplication
# does the convolution.
_Counts = tuple[int, list[int], int]

#: Weight, in the work estimate, of one bit-by-bit step of big-integer multiplication.
_NS = 12


class _Budget:
    """Adds up estimated work and refuses a computation that would take too long."""

    __slots__ = ("expression", "left")

    def __init__(self, expression: str) -> None:
        self.expression = expression
        self.left = MAX_ODDS_WORK

    def spend(self, work: float) -> None:
        self.left -= work
        if self.left < 0:
            raise OddsTooLargeError(
                f"exact odds of {self.expression!r} need too much work (an estimated "
                f"{MAX_ODDS_WORK - self.left:.2g} steps, over the {MAX_ODDS_WORK:.0e} allowed); "
                "use fewer dice or smaller dice, or simulate the roll")


def _mul_cost(a_bits: int, b_bits: int) -> float:
    small, big = sorted((max(a_bits, 64), max(b_bits, 64)))
    cost: float = big * float(small) ** 0.585
    return cost


def _pack(weights: Sequence[int], nb: int) -> int:
    return int.from_bytes(b"".join(w.to_bytes(nb, "little") for w in weights), "little")


def _unpack(value: int, slots: int, nb: int) -> list[int]:
    data = value.to_bytes(slots * nb, "little")
    return [int.from_bytes(data[i:i + nb], "little") for i in range(0, slots * nb, nb)]


def _slot_bytes(den: int) -> int:
    return den.bit_length() // 8 + 1


def _die_table(term: DiceTerm, check: tuple[str, int] | None) -> tuple[list[tuple[int, int, int]],
                                                                       int]:
    """One die's outcomes as (total shown, weight, value counted), and the weights' sum.

    The value counted is the total, or with ``check`` the number of rolls meeting it.
    """
    sides = term.sides
    faces = range(1, sides + 1)
    rerolled = sum(term.rerolls(f) for f in faces)
    if term.reroll is None:
        weight = dict.fromkeys(faces, 1)
    elif term.reroll_once:
        weight = {f: (0 if term.rerolls(f) else sides) + rerolled for f in faces}
    else:
        weight = {f: 0 if term.rerolls(f) else 1 for f in faces}
    weight = {f: w for f, w in weight.items() if w}

    def meets(face: int) -> int:
        return 1 if check is None else int(_OPS[check[0]](face, check[1]))

    def counted(total: int, hits: int) -> int:
        return total if check is None else hits

    top = weight.get(sides, 0)
    if not term.explode or not top:
        table = [(f, w, counted(f, meets(f))) for f, w in weight.items()]
    else:
        whole = sum(weight.values())
        table = []
        for q in range(MAX_EXPLOSIONS + 1):  # q highest faces, then one that stands
            for f, w in weight.items():
                if f != sides:
                    table.append((q * sides + f, top**q * w * whole**(MAX_EXPLOSIONS - q),
                                  counted(q * sides + f, q * meets(sides) + meets(f))))
        cap = MAX_EXPLOSIONS + 1  # the last roll stands even on the highest face
        table.append((cap * sides, top**cap, counted(cap * sides, cap * meets(sides))))
    g = reduce(gcd, (w for _, w, _ in table))
    table = [(t, w // g, v) for t, w, v in table]
    return table, sum(w for _, w, _ in table)


def _power_counts(weight: list[int], n: int, budget: _Budget) -> list[int]:
    """Weights of the sum of ``n`` dice that show 0, 1, ... with ``weight`` (weight[0] > 0).

    The coefficients of P(x)**n follow J. C. P. Miller's recurrence
    ``k p0 a[k] = sum((n + 1) i - k) p[i] a[k - i]``, linear in the result's size; when
    all faces weigh the same the sums slide along in constant time per result.  For
    small results the packed power of P is quicker, and is used instead.
    """
    d = len(weight) - 1
    slots = n * d + 1
    bits = n * sum(weight).bit_length() + 8
    uniform = all(w == weight[0] for w in weight)
    per_step = _NS * (300 + bits / 6) * (6 if uniform else 2 * d)
    packed = 2 * _mul_cost(slots * bits, slots * bits)
    if packed < slots * per_step:
        budget.spend(packed)
        nb = _slot_bytes(sum(weight) ** n)
        return _unpack(_pack(weight, nb) ** n, slots, nb)
    budget.spend(slots * per_step)
    p0 = weight[0]
    a = [p0**n] + [0] * (slots - 1)
    if uniform:  # p0 == 1 after the gcd: s0, s1 are sums of a[k - i] and of i * a[k - i]
        s0 = s1 = 0
        for k in range(1, slots):
            old = a[k - 1 - d] if k - 1 >= d else 0
            s1 += a[k - 1] + s0 - (d + 1) * old
            s0 += a[k - 1] - old
            a[k] = ((n + 1) * s1 - k * s0) // k
        return a
    for k in range(1, slots):
        total = 0
        for i in range(1, min(k, d) + 1):
            if weight[i]:
                total += ((n + 1) * i - k) * weight[i] * a[k - i]
        a[k] = total // (k * p0)
    return a


def _pool_counts(term: DiceTerm, check: tuple[str, int] | None, budget: _Budget) -> _Counts:
    """Weights of the result of one dice term (kept dice summed, or their hits counted)."""
    table, whole = _die_table(term, check)
    n, k = term.count, term.kept
    low = min(v for _, _, v in table)
    span = max(v for _, _, v in table) - low + 1
    if k == n:
        weight = [0] * span
        for _, w, v in table:
            weight[v - low] += w
        g = reduce(gcd, weight)
        weight = [w // g for w in weight]
        return n * low, _power_counts(weight, n, budget), (whole // g) ** n
    return (k * low, _keep_counts(table, whole, n, k, term.keep_highest, low, span, budget),
            whole**n)


def _keep_counts(table: list[tuple[int, int, int]], whole: int, n: int, k: int, highest: bool,
                 low: int, span: int, budget: _Budget) -> list[int]:
    """Weights of the value summed over the ``k`` best of ``n`` dice.

    For each outcome t a die can show, and each j < k: the k-th best die shows t
    with exactly j dice better than it.  The j better dice are any of the better
    outcomes (a polynomial raised to the j-th power); at least k - j dice show t;
    the rest are worse.  Summing over t and j covers every roll exactly once.
    """
    nb = _slot_bytes(whole**n)
    bits = nb * 8
    slots = k * (span - 1) + 1
    m = len(table)
    budget.spend(m * min(k, n) * (_mul_cost(slots * bits // 2, span * bits) + slots * bits / 8
                                  + min(k, n - k + 1) * _mul_cost(bits, bits)))
    order = sorted(table, reverse=highest)
    result = 0
    better = 0  # packed: better outcomes seen so far, by value counted
    better_weight = 0
    for _, w, v in order:
        worse = whole - better_weight - w
        shift = (v - low) * bits
        power = 1  # better ** j
        for j in range(min(k, n)):
            if j:
                power *= better
                if not power:
                    break
            rest = n - j
            # ways for the rest: at least k - j of them show t, the others are worse
            need = k - j
            if need <= rest - need:
                ways = (w + worse) ** rest - sum(comb(rest, i) * w**i * worse ** (rest - i)
                                                 for i in range(need))
            else:
                ways = sum(comb(rest, i) * w**i * worse ** (rest - i)
                           for i in range(need, rest + 1))
            if ways:
                result += (power * (comb(n, j) * ways)) << (shift * need)
        better += w << shift
        better_weight += w
    return _unpack(result, slots, nb)


def _multiply(a: _Counts, b: _Counts, budget: _Budget) -> _Counts:
    (oa, wa, da), (ob, wb, db) = a, b
    den = da * db
    if len(wa) * len(wb) <= 4096:
        out = [0] * (len(wa) + len(wb) - 1)
        for i, x in enumerate(wa):
            if x:
                for j, y in enumerate(wb):
                    out[i + j] += x * y
        return oa + ob, out, den
    nb = _slot_bytes(den)
    slots = len(wa) + len(wb) - 1
    budget.spend(_mul_cost(len(wa) * nb * 8, len(wb) * nb * 8))
    return oa + ob, _unpack(_pack(wa, nb) * _pack(wb, nb), slots, nb), den


def _sum_counts(node: Sum, check: tuple[str, int] | None, budget: _Budget) -> _Counts:
    acc: _Counts = (0, [1], 1)
    for sign, term in node.terms:
        if isinstance(term, Const):
            part: _Counts = (term.value, [1], 1)
        elif isinstance(term, Sum):
            part = _sum_counts(term, None, budget)
        else:
            part = _pool_counts(term, check, budget)
        if sign < 0:
            offset, weights, den = part
            part = (-(offset + len(weights) - 1), weights[::-1], den)
        acc = _multiply(acc, part, budget)
    return acc


def _side_counts(node: Sum | Compare, budget: _Budget) -> _Counts:
    if isinstance(node, Sum):
        return _sum_counts(node, None, budget)
    if node.per_die:
        return _sum_counts(node.operand, (node.op, node.target), budget)
    offset, weights, den = _sum_counts(node.operand, None, budget)
    op, target = _OPS[node.op], node.target
    hit = sum(w for i, w in enumerate(weights) if op(offset + i, target))
    return 0, [den - hit, hit], den


def _versus_counts(node: Versus, budget: _Budget) -> _Counts:
    oa, wa, da = _side_counts(node.left, budget)
    ob, wb, db = _side_counts(node.right, budget)
    above = [0] * (len(wa) + 1)  # above[i]: left weight at results offset + i and higher
    for i in range(len(wa) - 1, -1, -1):
        above[i] = above[i + 1] + wa[i]
    win = tie = 0
    for j, w in enumerate(wb):
        i = ob + j - oa  # the left index of the same result
        if i < 0:
            win += w * da
        elif i < len(wa):
            win += w * above[i + 1]
            tie += w * wa[i]
    return -1, [da * db - win - tie, tie, win], da * db


def _shape(node: Expression | Const | DiceTerm, check: tuple[str, int] | None) -> tuple[int, int]:
    """At most how many results ``node`` has, and the bits of their denominator."""
    if isinstance(node, Const):
        return 1, 0
    if isinstance(node, DiceTerm):
        table, whole = _die_table(node, check)
        span = max(v for _, _, v in table) - min(v for _, _, v in table) + 1
        return node.kept * (span - 1) + 1, node.count * whole.bit_length()
    if isinstance(node, Sum):
        shapes = [_shape(term, check) for _, term in node.terms]
        return sum(n - 1 for n, _ in shapes) + 1, sum(b for _, b in shapes)
    if isinstance(node, Compare):
        if node.per_die:
            return _shape(node.operand, (node.op, node.target))
        return 2, _shape(node.operand, None)[1]
    return 3, _shape(node.left, None)[1] + _shape(node.right, None)[1]


@lru_cache(maxsize=128)
def _exact(node: Expression) -> tuple[tuple[int, Fraction], ...]:
    budget = _Budget(str(node))
    slots, bits = _shape(node, None)  # the fractions at the end, reckoned before any work
    budget.spend(slots * _NS * (5000 + 15 * bits + bits * bits / 200))
    if isinstance(node, Versus):
        offset, weights, den = _versus_counts(node, budget)
    else:
        offset, weights, den = _side_counts(node, budget)
    return tuple((offset + i, Fraction(w, den)) for i, w in enumerate(weights) if w)


def distribution(expression: str | Expression) -> dict[int, Fraction]:
    """The exact probability of every result of ``expression``, as fractions.

    Exploding dice follow the cap of :data:`MAX_EXPLOSIONS` (see :func:`explosion_tail`).

    >>> distribution("2d6")[7]
    Fraction(1, 6)
    >>> distribution("3d6>=5")
    {0: Fraction(8, 27), 1: Fraction(4, 9), 2: Fraction(2, 9), 3: Fraction(1, 27)}
    >>> distribution("4d6kh3")[18]
    Fraction(7, 432)
    >>> distribution("1d20 vs 1d20")
    {-1: Fraction(19, 40), 0: Fraction(1, 20), 1: Fraction(19, 40)}

    The work is estimated first, and a roll too large to answer in seconds is refused
    before any is done:

    >>> distribution("1000d1000")
    Traceback (most recent call last):
        ...
    fracas.core.errors.OddsTooLargeError: exact odds of '1000d1000' need too much work ...

    Raises:
        OddsTooLargeError: the exact answer would take more than some seconds of work.
    """
    node = parse(expression) if isinstance(expression, str) else expression
    return dict(_exact(node))  # a plain dict: callers build on it (Distribution(...) freezes)


def _dice_terms(node: Expression | Const | DiceTerm) -> list[DiceTerm]:
    if isinstance(node, DiceTerm):
        return [node]
    if isinstance(node, Versus):
        return _dice_terms(node.left) + _dice_terms(node.right)
    if isinstance(node, Compare):
        return _dice_terms(node.operand)
    if isinstance(node, Sum):
        return [d for _, term in node.terms for d in _dice_terms(term)]
    return []


def explosion_tail(expression: str | Expression) -> Fraction:
    """The chance that some exploding die reached :data:`MAX_EXPLOSIONS` and showed its
    highest face again, so that without the cap it would have gone on (0 without ``!``).

    >>> explosion_tail("1d6!")
    Fraction(1, 362797056)
    >>> explosion_tail("3d6")
    Fraction(0, 1)
    """
    node = parse(expression) if isinstance(expression, str) else expression
    untouched = Fraction(1)
    for term in _dice_terms(node):
        if term.explode:
            table, whole = _die_table(term, None)
            top = Fraction(max(table)[1], whole)  # the chain of highest faces to the cap
            untouched *= (1 - top) ** term.count
    return 1 - untouched


def mean(dist: Mapping[int, Fraction]) -> Fraction:
    """The expected value of a distribution.

    >>> mean(distribution("2d6")), mean(distribution("4d6kh3"))
    (Fraction(7, 1), Fraction(15869, 1296))
    """
    return Distribution(dist).mean


def at_least(dist: Mapping[int, Fraction]) -> dict[int, Fraction]:
    """For every outcome ``k``, the probability of rolling ``k`` or more.

    >>> at_least(distribution("2d6"))[10]
    Fraction(1, 6)
    >>> at_least(distribution("9d6>=4"))[0]
    Fraction(1, 1)
    """
    return Distribution(dist).at_least().to_dict()
