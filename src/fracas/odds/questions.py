"""Exact odds of single rolls: dice expressions and each rule set's own questions.

A question is either plain dice notation (``9d6>=4``, ``2d8+3``, ``1d20+5>=15``,
``4d6kh3``; see :mod:`fracas.core.dice`) or ``RULESET: QUESTION``, which is handed
to that rule set's :meth:`~fracas.core.ruleset.Ruleset.odds` (each rule set
documents its own question syntax).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fracas.core import dice
from fracas.core.errors import ActionSyntaxError, UnknownRulesetError
from fracas.core.ruleset import find_ruleset

__all__ = ["OddsResult", "answer"]

_RULESET_QUESTION = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*)$", re.DOTALL)


@dataclass(frozen=True, slots=True)
class OddsResult:
    """An exact distribution: outcome -> probability (as fractions)."""

    expression: str
    distribution: dict[int, Fraction]

    @property
    def mean(self) -> Fraction:
        """The expected outcome."""
        return dice.mean(self.distribution)

    def at_least(self) -> dict[int, Fraction]:
        """Outcome -> the probability of that outcome or more."""
        return dice.at_least(self.distribution)

    def to_json(self) -> dict[str, Any]:
        """``expression``, ``distribution`` and ``at_least`` (floats), ``mean``, exact fractions."""
        return {
            "expression": self.expression,
            "distribution": {str(k): float(p) for k, p in self.distribution.items()},
            "mean": float(self.mean),
            "at_least": {str(k): float(p) for k, p in self.at_least().items()},
            "exact": {str(k): str(p) for k, p in self.distribution.items()},
        }


def answer(question: str) -> OddsResult:
    """The exact distribution asked for by ``question``.

    Raises:
        DiceSyntaxError: bad dice notation (the message points at the column).
        ActionSyntaxError: a rule set could not read its question, or there is no
            such rule set.
    """
    match = _RULESET_QUESTION.match(question)
    if match is None:
        node = dice.parse(question.strip())
        return OddsResult(str(node), dice.distribution(node))
    name, rest = match.group(1), match.group(2).strip()
    try:
        ruleset = find_ruleset(name)
    except UnknownRulesetError as exc:
        raise ActionSyntaxError(exc.reason) from None
    if not rest:
        raise ActionSyntaxError(f"ask {name} a question after the colon, e.g. '{name}: ...'")
    dist = ruleset.odds(rest)
    return OddsResult(f"{name}: {rest}", dict(sorted(dist.items())))
