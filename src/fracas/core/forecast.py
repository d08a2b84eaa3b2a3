"""The odds of one choice, shown while it is being made: :class:`Forecast`.

A rule set answers :meth:`fracas.core.ruleset.Ruleset.forecast` for a decision being
put together (a partial action from the steps, or a whole one): what it rolls, against
what, the exact chance of each outcome that matters and the expected damage, all from
the rule set's own roll odds (its ``odds`` module).  Front ends print it beside the
choice (``fracas play``, the console's Decide form); :meth:`Forecast.lines` is the
words they show.

    >>> from fractions import Fraction
    >>> f = Forecast("rolls 3d6, each 4+ a hit", "Bo's PD 1",
    ...              (Chance("the attack gets through", Fraction(1, 2)),),
    ...              Fraction(3, 4), "PR")
    >>> for line in f.lines():
    ...     print(line)
    rolls 3d6, each 4+ a hit
    against Bo's PD 1
    the attack gets through: 50.0%
    expected damage: 0.75 PR
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Chance", "Forecast", "number", "percent"]


def percent(p: Fraction) -> str:
    """A probability as a person reads it: ``50.0%``; a sure or impossible one says so
    only when it is exactly 0 or 1 (``0%``, ``100%``), never by rounding."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    text = f"{float(p) * 100:.1f}%"
    if text == "0.0%":
        return "under 0.1%"
    if text == "100.0%":
        return "over 99.9%"
    return text


def number(x: Fraction) -> str:
    """A mean as a person reads it: at most two decimals, no trailing zeros (``0.75``, ``2``)."""
    text = f"{float(x):.2f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


@dataclass(frozen=True, slots=True)
class Chance:
    """One outcome that matters and its exact probability."""

    what: str
    p: Fraction

    def line(self) -> str:
        """``what: 12.5%``."""
        return f"{self.what}: {percent(self.p)}"


@dataclass(frozen=True, slots=True)
class Forecast:
    """The odds of one choice.

    Attributes:
        rolls: what the choice rolls, in words (``"rolls the Feat die and 2 Success
            dice"``), or what it spends when its dice are already rolled.
        against: what it rolls against (a target number, a defence).
        chances: the outcomes that matter with their exact probabilities (hit first).
        expected_damage: the mean damage over every outcome (a miss counts 0), or
            ``None`` when the choice deals none.
        unit: what the damage is counted in (``"PR"``, ``"Endurance"``, ``"hit points"``).
        notes: anything a person should know to read it (assumptions, what is left out).
        sure_failure: the choice cannot succeed: front ends offer it with a warning.
    """

    rolls: str
    against: str
    chances: tuple[Chance, ...] = ()
    expected_damage: Fraction | None = None
    unit: str = ""
    notes: tuple[str, ...] = ()
    sure_failure: bool = False

    def chance(self, what: str) -> Fraction | None:
        """The probability of the outcome called ``what``, or ``None`` if it is not listed."""
        for c in self.chances:
            if c.what == what:
                return c.p
        return None

    def lines(self) -> tuple[str, ...]:
        """The forecast in words, one line each (a sure failure's warning first)."""
        out: list[str] = []
        if self.sure_failure:
            out.append("warning: this cannot succeed")
        out.append(self.rolls)
        if self.against:
            out.append(f"against {self.against}")
        out += [c.line() for c in self.chances]
        if self.expected_damage is not None:
            unit = f" {self.unit}" if self.unit else ""
            out.append(f"expected damage: {number(self.expected_damage)}{unit}")
        out += self.notes
        return tuple(out)

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict: probabilities as ``"num/den"`` strings and as floats."""
        return {
            "rolls": self.rolls, "against": self.against,
            "chances": [{"what": c.what, "p": str(c.p), "float": float(c.p)}
                        for c in self.chances],
            "expected_damage": None if self.expected_damage is None else
            str(self.expected_damage),
            "unit": self.unit, "notes": list(self.notes), "sure_failure": self.sure_failure,
        }
