"""Rolling the checks of the rules: d20 rolls, damage dice, climbing and Dexterity checks.

Every face is recorded in a ``DiceRolled`` event before it is used.  A roll site that
knows which faces its rule tells apart says so (``classes``, see
:func:`fracas.core.rng.roll_pool`): a d20 against a number needed is read as a miss or
a hit only.  The exact duel solver then branches on those classes instead of on every
face; every other Rng rolls exactly as before (``dice(1, 20)`` draws what ``die(20)``
draws), so seeded fights and scripted tests are unchanged.
"""

from __future__ import annotations

import math
from functools import cache

from fracas.core.events import DiceRolled
from fracas.core.rng import Rng, roll_pool
from fracas.core.ruleset import Emit
from fracas.rules.adnd import rules
from fracas.rules.adnd.events import CheckRolled, interned
from fracas.rules.adnd.state import AdndUndergroundState

__all__ = ["Classes", "at_least", "at_most", "climbing_check", "dexterity_check", "roll_d20",
           "roll_dice"]

_dice_rolled = interned(DiceRolled)
_check_rolled = interned(CheckRolled)

#: A partition of a die's faces into classes the rule reading it cannot tell apart.
Classes = tuple[tuple[int, ...], ...]


@cache
def at_least(sides: int, low: int) -> Classes:
    """The faces of a d``sides`` split into those under ``low`` and those at or over it.

    One class when every face falls on the same side (``low`` at most 1, or above
    ``sides``): the roll cannot change anything.
    """
    if low <= 1 or low > sides:
        return (tuple(range(1, sides + 1)),)
    return tuple(range(1, low)), tuple(range(low, sides + 1))


def at_most(sides: int, high: int) -> Classes:
    """The faces of a d``sides`` split into those at or under ``high`` and those over it."""
    return at_least(sides, high + 1)


def roll_d20(rng: Rng, emit: Emit, who: str, purpose: str, hidden: bool = False,
             classes: Classes | None = None) -> int:
    """Roll and record one d20 (``hidden`` for the DM's secret rolls).

    ``classes``: the faces the caller's rule tells apart (see :func:`at_least`).
    """
    face = rng.die(20) if classes is None else roll_pool(rng, 1, 20, classes)[0]
    emit(_dice_rolled(who, purpose, 20, (face,), hidden))
    return face


def roll_dice(rng: Rng, emit: Emit, who: str, purpose: str, count: int, sides: int,
              classes: Classes | None = None) -> int:
    """Roll and record ``count`` dice of ``sides``; return the sum.

    ``classes``: faces of each die nothing after the roll tells apart, or ``None``.
    """
    faces = tuple(rng.dice(count, sides) if classes is None
                  else roll_pool(rng, count, sides, classes))
    emit(_dice_rolled(who, purpose, sides, faces, False))
    return sum(faces)


def climbing_check(state: AdndUndergroundState, name: str, modifier: int, rng: Rng, emit: Emit,
                   why: str = "") -> bool:
    """d100 at or under the climbing rating plus ``modifier`` (``why`` names it in the log)."""
    target = state.profile(name).climbing + modifier
    roll = roll_pool(rng, 1, 100, at_most(100, target))[0]
    emit(_dice_rolled(name, "climbing check", 100, (roll,), False))
    ok = roll <= target
    emit(_check_rolled(name, "climbing", roll, target, ok, False,
                       rules.labels(((modifier, why or "modifier"),))))
    return ok


def dexterity_check(state: AdndUndergroundState, name: str, push: int, rng: Rng, emit: Emit,
                    why: str = "") -> bool:
    """d20 at or under Dexterity, +2 per foot to the drop-off, plus the push modifier.

    ``why`` names the push in the log.
    """
    p = state.profile(name)
    target = rules.dex_check_target(p.dexterity, p.edge_ft, push)
    roll = roll_pool(rng, 1, 20, at_most(20, target))[0]
    emit(_dice_rolled(name, "dexterity check", 20, (roll,), False))
    ok = roll <= target
    edge = 2 * math.floor(p.edge_ft)
    emit(_check_rolled(name, "dexterity", roll, target, ok, False,
                       rules.labels(((edge, _edge(p.edge_ft)), (push, why or "push")))))
    return ok


@cache
def _edge(feet: float) -> str:
    return f"for {feet:g} ft to the edge"
