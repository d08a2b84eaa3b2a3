"""Exact odds of the rule set's own rolls, for ``fracas odds --ruleset pools "attack N vs G"``."""

from fractions import Fraction
from itertools import product

from fracas.core.errors import ActionSyntaxError
from fracas.core.probability import Distribution, Tally
from pools import rules


def attack(dice: int, guard: int = 0) -> Distribution[int]:
    """Wounds dealt by ``dice`` d6 against a target keeping ``guard`` dice back."""
    tally: Tally[int] = Tally()
    each = Fraction(1, 6 ** dice)
    for faces in product(range(1, 7), repeat=dice):
        tally.add(rules.wounds_dealt(rules.hits(faces), guard), each)
    return tally.freeze(ordered=True)


def odds(text: str) -> dict[int, Fraction]:
    """Read ``attack N`` or ``attack N vs G`` and answer it: wounds and their chances."""
    words = text.split()
    if (len(words) not in (2, 4) or words[0] != "attack" or words[2:3] not in ([], ["vs"])
            or not all(w.isdigit() for w in words[1::2]) or not 1 <= int(words[1]) <= 8):
        raise ActionSyntaxError(f"cannot read {text!r}: write attack N [vs G], N from 1 to 8")
    return attack(int(words[1]), int(words[3]) if len(words) == 4 else 0).to_dict()
