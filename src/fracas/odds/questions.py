"""Exact odds of single rolls: dice expressions and each rule set's own questions.

A question is either plain dice notation (``9d6>=4``, ``2d8+3``, ``1d20+5>=15``,
``(3d6)>=10``, ``4d6kh3``, ``4d6dl1``, ``10d10!>=8``, ``2d6r1``, ``1d20+4 vs 1d20+2``;
see :mod:`fracas.core.dice`) or ``RULESET: QUESTION``, which is handed
to that rule set's :meth:`~fracas.core.ruleset.Ruleset.odds` (each rule set
documents its own question syntax).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from fracas.core import dice
from fracas.core.errors import ActionSyntaxError, UnknownRulesetError
from fracas.core.probability import Distribution
from fracas.core.ruleset import find_ruleset

__all__ = ["OddsResult", "answer"]

_RULESET_QUESTION = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*)$", re.DOTALL)


@dataclass(frozen=True, slots=True)
class OddsResult:
    """An exact distribution: outcome -> probability (as fractions)."""

    expression: str
    #: A :class:`~fracas.core.probability.Distribution` (read-only), outcomes in order.
    distribution: Mapping[int, Fraction]
    #: Words for some outcomes (``A vs B``: 1 = the left roll wins, 0 = a tie, -1 = it loses).
    labels: dict[int, str] = field(default_factory=dict)
    #: With exploding dice: the chance that the cap on explosions cut some die short.
    explosion_tail: Fraction = Fraction(0)

    @property
    def mean(self) -> Fraction:
        """The expected outcome."""
        return Distribution(self.distribution).mean

    def at_least(self) -> Distribution[int]:
        """Outcome -> the probability of that outcome or more."""
        return Distribution(self.distribution).at_least()

    def to_json(self) -> dict[str, Any]:
        """``expression``, ``distribution`` and ``at_least`` (floats), ``mean``, exact fractions."""
        return {
            "expression": self.expression,
            "distribution": {str(k): float(p) for k, p in self.distribution.items()},
            "mean": float(self.mean),
            "at_least": {str(k): float(p) for k, p in self.at_least().items()},
            "exact": {str(k): str(p) for k, p in self.distribution.items()},
            **({"labels": {str(k): v for k, v in self.labels.items()}} if self.labels else {}),
            **({"explosion_cap": dice.MAX_EXPLOSIONS,
                "explosion_tail": float(self.explosion_tail)} if self.explosion_tail else {}),
        }


def answer(question: str) -> OddsResult:
    """The exact distribution asked for by ``question``.

    >>> result = answer("9d6>=4")
    >>> result.distribution[4], result.mean
    (Fraction(63, 256), Fraction(9, 2))
    >>> answer("1d20+4 vs 1d20+2").labels
    {1: '1d20+4 wins', 0: 'tie', -1: '1d20+2 wins'}
    >>> answer("age_of_dragons: pool=3 measure=hits").distribution
    Distribution({0: Fraction(1, 8), 1: Fraction(3, 8), 2: Fraction(3, 8), 3: Fraction(1, 8)})
    >>> answer("gurps: 3d6")
    Traceback (most recent call last):
        ...
    fracas.core.errors.ActionSyntaxError: unknown rule set 'gurps' (known: ...)

    Raises:
        DiceSyntaxError: bad dice notation (the message points at the column), including
            a pool comparison no die can meet or every die meets (``3d6>=10``).
        OddsTooLargeError: exact dice odds would take too long.
        ActionSyntaxError: a rule set could not read its question, or there is no
            such rule set.
    """
    match = _RULESET_QUESTION.match(question)
    if match is None:
        node = dice.parse(question.strip())
        labels: dict[int, str] = {}
        if isinstance(node, dice.Versus):
            left, right = str(node.left), str(node.right)
            if left == right:
                left, right = f"first {left}", f"second {right}"
            labels = {1: f"{left} wins", 0: "tie", -1: f"{right} wins"}
        return OddsResult(str(node), Distribution(dice.distribution(node)), labels,
                          dice.explosion_tail(node))
    name, rest = match.group(1), match.group(2).strip()
    try:
        ruleset = find_ruleset(name)
    except UnknownRulesetError as exc:
        raise ActionSyntaxError(exc.reason) from None
    if not rest:
        raise ActionSyntaxError(f"ask {name} a question after the colon, e.g. '{name}: ...'")
    dist = ruleset.odds(rest)
    labels = ruleset.odds_labels(rest)
    return OddsResult(f"{name}: {rest}", Distribution(dist).sorted(),
                      {k: v for k, v in labels.items() if k in dist})
