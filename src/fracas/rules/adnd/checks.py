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

__all__ = ["JOINT_MOST", "Classes", "at_least", "at_most", "climbing_check", "dexterity_check",
           "joint_faces", "roll_d20", "roll_dice", "roll_sum", "sum_classes"]

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


#: The most faces a pool read by its sum is branched on as one die of (see :func:`roll_sum`).
JOINT_MOST = 256


@cache
def sum_classes(count: int, sides: int, alike_from: int | None) -> Classes:
    """The faces of one die of ``sides ** count`` faces standing for ``count`` dice of
    ``sides`` (:func:`joint_faces`), split by the dice's sum: every sum its own class,
    but every sum at or over ``alike_from`` in one class (``None``: no such sums).
    """
    groups: dict[int, list[int]] = {}
    for face in range(1, sides**count + 1):
        total = sum(joint_faces(face, count, sides))
        if alike_from is not None and total >= alike_from:
            total = alike_from
        groups.setdefault(total, []).append(face)
    return tuple(tuple(g) for _, g in sorted(groups.items()))


def joint_faces(face: int, count: int, sides: int) -> tuple[int, ...]:
    """The ``count`` faces of ``sides`` that face ``face`` of the joint die stands for: its
    digits in base ``sides`` (face 1 is every die on 1, the last face every die on ``sides``)."""
    left, faces = face - 1, []
    for _ in range(count):
        left, digit = divmod(left, sides)
        faces.append(digit + 1)
    return tuple(faces)


def roll_sum(rng: Rng, emit: Emit, who: str, purpose: str, count: int, sides: int,
             alike_from: int | None, classes: Classes | None = None) -> int:
    """Roll and record ``count`` dice of ``sides`` whose rules read only their sum (and read
    every sum at or over ``alike_from`` alike); return the sum.

    The dice of every Rng are those :func:`roll_dice` rolls with ``classes`` (a seeded or
    scripted fight is unchanged).  An Rng that enumerates (the exact duel solver's, told by
    its ``dice_in_classes``) is asked instead for one die of ``sides ** count`` faces, each
    face one way the dice can fall (:func:`joint_faces`), in the classes of
    :func:`sum_classes`: it branches on the sums the rules tell apart, each with the exact
    chance of that sum (2d4: 7 sums instead of 10 sorted pairs), not on the faces.
    """
    if count > 1 and type(rng) is not SeededRng and sides**count <= JOINT_MOST:
        in_classes = getattr(rng, "dice_in_classes", None)
        if in_classes is not None:
            face = in_classes(1, sides**count, sum_classes(count, sides, alike_from))[0]
            faces = joint_faces(face, count, sides)
            if type(emit) is not Quiet:
                emit(_dice_rolled(who, purpose, sides, faces, False))
            return sum(faces)
    return roll_dice(rng, emit, who, purpose, count, sides, classes)


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
