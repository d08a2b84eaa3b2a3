"""Exact odds of an Age of Dragons attack.

Question syntax: ``key=value`` words, all optional but ``pool``::

    pool=9 pd=2 tn=3 bonus=6 threshold=4 measure=damage

The attacker rolls ``pool`` d6 and expends every die showing ``threshold`` or more
(default 4); the defender spends up to ``pd`` points, as many as there are hits
(the most it can usefully spend); ``tn`` is the TN modifier and ``bonus`` the
damage bonus.  ``measure`` picks what is counted: ``damage`` (default: damage to
Physical Resilience, 0 on a miss), ``hits`` (dice expended), ``margin`` (hits less
PD spent and TN), ``sixes`` (sixes among the expended dice of a successful attack,
0 on a failure: the count that drives called-shot effects).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise
from math import comb

from fracas.core.distribution import Tally
from fracas.core.errors import ActionSyntaxError
from fracas.rules.age_of_dragons.rules import (
    ATTACK_THRESHOLD,
    SPOT_THRESHOLDS,
    damage_dealt,
    margin,
)
from fracas.rules.age_of_dragons.state import AgeOfDragonsState

__all__ = ["attack_distribution", "face_classes", "parse_question"]

_KEYS = {"pool": 0, "pd": 0, "tn": 0, "bonus": 0, "threshold": 4}
_MEASURES = ("damage", "hits", "margin", "sixes")


def parse_question(question: str) -> tuple[dict[str, int], str]:
    """Read ``key=value`` words; errors name the word and what was expected."""
    values = dict(_KEYS)
    measure = "damage"
    seen_pool = False
    for position, word in enumerate(question.split(), start=1):
        key, sep, raw = word.partition("=")
        if not sep:
            raise ActionSyntaxError(f"word {position} ({word!r}): expected key=value")
        if key == "measure":
            if raw not in _MEASURES:
                raise ActionSyntaxError(f"word {position}: measure is one of {_MEASURES}")
            measure = raw
            continue
        if key not in values:
            raise ActionSyntaxError(f"word {position}: unknown key {key!r}; known: "
                                    f"{', '.join([*_KEYS, 'measure'])}")
        try:
            values[key] = int(raw.lstrip("+"))
        except ValueError:
            raise ActionSyntaxError(f"word {position}: {key} needs a whole number, got {raw!r}")\
                from None
        seen_pool |= key == "pool"
    if not seen_pool or not 0 <= values["pool"] <= 60:
        raise ActionSyntaxError("give pool=N with 0 <= N <= 60 dice")
    if not 1 <= values["threshold"] <= 6 or values["pd"] < 0:
        raise ActionSyntaxError("threshold is 1 to 6 and pd is not negative")
    return values, measure


def attack_distribution(pool: int, pd: int, tn: int, bonus: int, threshold: int = 4,
                        measure: str = "damage") -> dict[int, Fraction]:
    """The exact distribution of one attack's ``measure`` (see the module docstring)."""
    p_hit = Fraction(7 - threshold, 6)
    p_six_given_hit = Fraction(1, 7 - threshold)
    out: Tally[int] = Tally()
    for hits in range(pool + 1):
        p = comb(pool, hits) * p_hit**hits * (1 - p_hit) ** (pool - hits)
        m = margin(hits, min(pd, hits), tn)
        if measure == "hits":
            out.add(hits, p)
        elif measure == "margin":
            out.add(m, p)
        elif measure == "damage":
            out.add(damage_dealt(m, bonus), p)
        elif m < 1:
            out.add(0, p)
        else:
            out.add_all(((sixes, comb(hits, sixes) * p_six_given_hit**sixes
                          * (1 - p_six_given_hit) ** (hits - sixes))
                         for sixes in range(hits + 1)), p)
    return {k: v for k, v in out.freeze(ordered=True).items() if v}


def face_classes(state: AgeOfDragonsState, count: int, sides: int,
                 ) -> tuple[tuple[int, ...], ...] | None:
    """Faces of a d6 roll that nothing in the fight tells apart (for the exact solver).

    Initiative and death checks count 4+ only.  A ``claw_all`` roller claws with
    every 4+ and never calls a shot (sixes matter only to called shots), so its
    pool is read as 1-3 / 4-6.  Any other pool is read against the attack
    threshold (4+), sixes and every spot and task threshold; a roller whose
    rerolls a random choice picks (one die per face shown) keeps every face.
    Landings add the faces up: every face counts.
    """
    if sides != 6:
        return None
    turn = state.turn
    if not state.order:
        cuts = {ATTACK_THRESHOLD}  # initiative
    elif turn is None:
        return None  # a landing
    elif state.fighters[turn.actor].dying:
        cuts = {ATTACK_THRESHOLD}  # the death check
    elif turn.step != "pool" or state.pending is not None:
        return None
    else:
        profile = state.fighters[turn.actor].profile
        if profile.policy == "claw_all":
            cuts = {ATTACK_THRESHOLD}
        elif profile.rerolls and profile.policy != "heuristic":
            return None
        else:
            cuts = {ATTACK_THRESHOLD, 6, *SPOT_THRESHOLDS.values(),
                    *(task.threshold for task in state.tasks.values())}
    bounds = [1, *sorted(c for c in cuts if 1 < c <= sides), sides + 1]
    return tuple(tuple(range(a, b)) for a, b in pairwise(bounds))
