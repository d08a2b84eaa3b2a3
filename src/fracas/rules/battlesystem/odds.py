"""Exact odds of the rule set's own rolls.

Question syntax: a kind, then ``key=value`` words (flags take ``yes``/``no``)::

    attack figures=4 rating=7 damage=2     dice of damage dealt (d10 per figure, hit on rating+,
                                           rating 2..10 as in play)
    saves figures=10 need=14 blind=yes     figures that save (d20 per figure, -4 when blind)
    morale target=12                       1 = the d20 check passes (at or under target)
    fragile chance=13 heavy=yes explosive=no   1 = the formation collapses (d100 at or under)

Every answer maps outcomes to exact :class:`~fractions.Fraction` probabilities.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

from fracas.core.errors import ActionSyntaxError
from fracas.core.forecast import Chance, Forecast
from fracas.core.probability import Distribution, Tally
from fracas.rules.battlesystem.rules import DARK_SAVE_PENALTY, fragile_chance

__all__ = ["answer", "forecast", "odds_labels"]

_KEYS: dict[str, dict[str, type]] = {
    "attack": {"figures": int, "rating": int, "damage": int},
    "saves": {"figures": int, "need": int, "blind": bool},
    "morale": {"target": int},
    "fragile": {"chance": int, "heavy": bool, "explosive": bool},
}
_DEFAULTS: dict[str, int | bool] = {"damage": 1, "blind": False, "heavy": False,
                                    "explosive": False}
_LIMITS = {"figures": (0, 500), "rating": (2, 10), "damage": (0, 100), "need": (1, 30),
           "target": (0, 20), "chance": (0, 100)}


def _parse(question: str) -> tuple[str, dict[str, int | bool]]:
    words = question.split()
    if not words:
        raise ActionSyntaxError("an odds question starts with one of: " + ", ".join(_KEYS))
    kind = words[0]
    if kind not in _KEYS:
        raise ActionSyntaxError(f"word 1 {kind!r}: expected one of {', '.join(_KEYS)}")
    keys = _KEYS[kind]
    values: dict[str, int | bool] = {}
    for position, word in enumerate(words[1:], start=2):
        key, sep, text = word.partition("=")
        if not sep or key not in keys:
            raise ActionSyntaxError(
                f"word {position} {word!r}: expected key=value with key one of {', '.join(keys)}")
        values[key] = _value(key, text, keys[key], position)
    for key in keys:
        if key not in values:
            if key not in _DEFAULTS:
                raise ActionSyntaxError(f"{kind}: {key}= is missing")
            values[key] = _DEFAULTS[key]
    return kind, values


def _value(key: str, text: str, kind: type, position: int) -> int | bool:
    if kind is bool:
        if text.lower() in ("yes", "true", "1"):
            return True
        if text.lower() in ("no", "false", "0"):
            return False
        raise ActionSyntaxError(f"word {position}: {key} takes yes or no, not {text!r}")
    try:
        number = int(text)
    except ValueError:
        raise ActionSyntaxError(f"word {position}: {key} takes a whole number, "
                                f"not {text!r}") from None
    low, high = _LIMITS[key]
    if not low <= number <= high:
        raise ActionSyntaxError(f"word {position}: {key} must lie in {low}..{high}")
    return number


def _binomial(n: int, p: Fraction, scale: int = 1) -> Distribution[int]:
    return Distribution.from_pairs((k * scale, comb(n, k) * p**k * (1 - p) ** (n - k))
                                   for k in range(n + 1))


def _bernoulli(p: Fraction) -> Distribution[int]:
    return Distribution({0: 1 - p, 1: p})


def answer(question: str) -> Distribution[int]:
    """The exact distribution asked for by ``question`` (see the module docstring)."""
    kind, v = _parse(question)
    if kind == "attack":
        p = Fraction(11 - int(v["rating"]), 10)
        return _binomial(int(v["figures"]), p, int(v["damage"]))
    if kind == "saves":
        need = int(v["need"]) + (DARK_SAVE_PENALTY if v["blind"] else 0)
        p = Fraction(min(20, max(0, 21 - need)), 20)
        return _binomial(int(v["figures"]), p)
    if kind == "morale":
        return _bernoulli(Fraction(min(20, max(0, int(v["target"]))), 20))
    chance = fragile_chance(int(v["chance"]), bool(v["heavy"]), bool(v["explosive"]))
    return _bernoulli(Fraction(min(100, chance), 100))


def odds_labels(question: str) -> dict[int, str]:
    """What each outcome of :func:`answer` means at the table: hits and the dice of damage
    they deal, figures that save, a morale check passed or failed, a formation holding
    or collapsing.

    >>> odds_labels("attack figures=2 rating=7 damage=2")
    {0: 'no hit', 2: '1 hit: 2 dice of damage', 4: '2 hits: 4 dice of damage'}
    >>> odds_labels("morale target=12")[0]
    'fails: the unit breaks or routs'
    """
    kind, v = _parse(question)
    if kind == "morale":
        return {1: "passes", 0: "fails: the unit breaks or routs"}
    if kind == "fragile":
        return {1: "collapses", 0: "holds"}
    outcomes = answer(question)
    if kind == "saves":
        return {k: "no figure saves" if k == 0 else
                f"{k} figure{'s' if k != 1 else ''} save{'' if k != 1 else 's'}"
                for k in outcomes}
    per_hit = int(v["damage"])
    if per_hit == 0:
        return {0: "no damage (no dice a hit)"}
    return {k: "no hit" if k == 0 else
            f"{k // per_hit} hit{'s' if k != per_hit else ''}: {k} "
            f"di{'ce' if k != 1 else 'e'} of damage" for k in outcomes}


# -- the odds of a choice (``Ruleset.forecast``) -------------------------------------------
def forecast(state: Any, action: Any, side: str | None) -> Forecast | None:
    """The odds of missile fire: its figures' d10s against the Attack Rating, the dice of
    damage, and the figures they take from the target (the figure Hit Dice rule).

    The target is a unit the shooter's side can see, and a unit's figures, wounds and
    statistics are on its card, so every viewer reads the same forecast.  A charge is not
    forecast: its blows fall in the melee phase, against whoever is in reach by then.
    """
    from fracas.rules.battlesystem.combat import missile_attack_rating
    from fracas.rules.battlesystem.rules import damage_figures, missile_figures, wound_threshold
    from fracas.rules.battlesystem.state import unit_footprint

    if action.verb != "fire":
        return None
    shooter, target = state.units[action.actor], state.units[action.target]
    shape = unit_footprint(shooter, state.board.areas[shooter.area])
    figures = missile_figures(shooter.figures, shape.abreast)
    rating = missile_attack_rating(state, shooter, target)
    per_hit = shooter.stats.missile_damage
    dice = answer(f"attack figures={figures} rating={rating} damage={per_hit}")
    taken: Tally[int] = Tally()
    hurt = Fraction(0)
    for count, p in dice.items():
        after = damage_figures(target.figures, target.wounded, target.stats.hd, count,
                               wound_threshold(False))
        taken.add(target.figures - after.figures, p)
        if after.figures < target.figures or after.wounded > target.wounded:
            hurt += p
    lost = taken.freeze(ordered=True)
    chances = (
        Chance("at least one hit", sum((p for k, p in dice.items() if k > 0), Fraction(0))),
        Chance(f"{target.name} takes a wound or loses a figure", hurt),
        Chance(f"{target.name} loses a figure or more",
               sum((p for k, p in lost.items() if k > 0), Fraction(0))),
        Chance(f"{target.name} is wiped out", lost.get(target.figures, Fraction(0))),
    )
    return Forecast(
        f"rolls {figures}d10 (the first two ranks), each {rating}+ a hit for {per_hit} "
        f"di{'ce' if per_hit != 1 else 'e'} of damage",
        f"{target.name} ({target.figures} figures of {target.stats.hd} Hit Dice)",
        chances, lost.mean, "figures",
        (f"expected dice of damage: {float(dice.mean):.2f}".rstrip("0").rstrip("."),),
        sure_failure=chances[0].p == 0)
