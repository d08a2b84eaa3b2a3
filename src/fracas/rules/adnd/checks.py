"""Rolling the checks of the rules: d20 rolls, damage dice, climbing and Dexterity checks.

Every face is recorded in a ``DiceRolled`` event before it is used.  A roll site that
knows which faces its rule tells apart says so (``classes``, see
:func:`fracas.core.rng.roll_pool`): a d20 against a number needed is read as a miss or
a hit only.  The exact duel solver then branches on those classes instead of on every
face; every other Rng rolls exactly as before (``dice(1, 20)`` draws what ``die(20)``
draws, so a seeded Rng is asked for ``die`` directly), and seeded fights and scripted
tests are unchanged.  Handed a :class:`.events.Quiet` emitter (a play nobody reads) the
rolls and checks make no report events: the fold changes nothing on them.
"""

from __future__ import annotations

import math
from functools import cache

from fracas.core.events import DiceRolled
from fracas.core.rng import Rng, SeededRng, roll_pool
from fracas.core.ruleset import Emit
from fracas.rules.adnd import rules
from fracas.rules.adnd.events import CheckRolled, Quiet, interned
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
    if classes is None or type(rng) is SeededRng:  # it draws for dice(1, 20) what die(20) does
        face = rng.die(20)
    else:
        face = roll_pool(rng, 1, 20, classes)[0]
    if type(emit) is not Quiet:  # a report (see Quiet)
        emit(_dice_rolled(who, purpose, 20, (face,), hidden))
    return face


def roll_dice(rng: Rng, emit: Emit, who: str, purpose: str, count: int, sides: int,
              classes: Classes | None = None) -> int:
    """Roll and record ``count`` dice of ``sides``; return the sum.

    ``classes``: faces of each die nothing after the roll tells apart, or ``None``.
    """
    if classes is None or type(rng) is SeededRng:
        if count == 1:
            face = rng.die(sides)  # what dice(1, sides) draws
            if type(emit) is not Quiet:
                emit(_dice_rolled(who, purpose, sides, (face,), False))
            return face
        faces = rng.dice(count, sides)
    else:
        faces = roll_pool(rng, count, sides, classes)
    if type(emit) is not Quiet:
        emit(_dice_rolled(who, purpose, sides, tuple(faces), False))
    return sum(faces)


def climbing_check(state: AdndUndergroundState, name: str, modifier: int, rng: Rng, emit: Emit,
                   why: str = "") -> bool:
    """d100 at or under the climbing rating plus ``modifier`` (``why`` names it in the log)."""
    target = state.profile(name).climbing + modifier
    roll = rng.die(100) if type(rng) is SeededRng else \
        roll_pool(rng, 1, 100, at_most(100, target))[0]
    ok = roll <= target
    if type(emit) is not Quiet:
        emit(_dice_rolled(name, "climbing check", 100, (roll,), False))
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
    roll = rng.die(20) if type(rng) is SeededRng else \
        roll_pool(rng, 1, 20, at_most(20, target))[0]
    ok = roll <= target
    if type(emit) is not Quiet:
        emit(_dice_rolled(name, "dexterity check", 20, (roll,), False))
        edge = 2 * math.floor(p.edge_ft)
        emit(_check_rolled(name, "dexterity", roll, target, ok, False,
                           rules.labels(((edge, _edge(p.edge_ft)), (push, why or "push")))))
    return ok


@cache
def _edge(feet: float) -> str:
    return f"for {feet:g} ft to the edge"
