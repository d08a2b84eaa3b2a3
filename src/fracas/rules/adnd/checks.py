"""Rolling the checks of the rules: d20 rolls, damage dice, climbing and Dexterity checks.

Every face is recorded in a ``DiceRolled`` event before it is used.
"""

from __future__ import annotations

import math
from functools import cache

from fracas.core.events import DiceRolled
from fracas.core.rng import Rng
from fracas.core.ruleset import Emit
from fracas.rules.adnd import rules
from fracas.rules.adnd.events import CheckRolled
from fracas.rules.adnd.state import AdndUndergroundState

__all__ = ["climbing_check", "dexterity_check", "roll_d20", "roll_dice"]


def roll_d20(rng: Rng, emit: Emit, who: str, purpose: str, hidden: bool = False) -> int:
    """Roll and record one d20 (``hidden`` for the DM's secret rolls)."""
    face = rng.die(20)
    emit(DiceRolled(who, purpose, 20, (face,), hidden))
    return face


def roll_dice(rng: Rng, emit: Emit, who: str, purpose: str, count: int, sides: int) -> int:
    """Roll and record ``count`` dice of ``sides``; return the sum."""
    faces = tuple(rng.dice(count, sides))
    emit(DiceRolled(who, purpose, sides, faces))
    return sum(faces)


def climbing_check(state: AdndUndergroundState, name: str, modifier: int, rng: Rng, emit: Emit,
                   why: str = "") -> bool:
    """d100 at or under the climbing rating plus ``modifier`` (``why`` names it in the log)."""
    target = state.profile(name).climbing + modifier
    roll = rng.die(100)
    emit(DiceRolled(name, "climbing check", 100, (roll,)))
    ok = roll <= target
    emit(CheckRolled(name, "climbing", roll, target, ok,
                     modifiers=rules.labels(((modifier, why or "modifier"),))))
    return ok


def dexterity_check(state: AdndUndergroundState, name: str, push: int, rng: Rng, emit: Emit,
                    why: str = "") -> bool:
    """d20 at or under Dexterity, +2 per foot to the drop-off, plus the push modifier.

    ``why`` names the push in the log.
    """
    p = state.profile(name)
    target = rules.dex_check_target(p.dexterity, p.edge_ft, push)
    roll = rng.die(20)
    emit(DiceRolled(name, "dexterity check", 20, (roll,)))
    ok = roll <= target
    edge = 2 * math.floor(p.edge_ft)
    emit(CheckRolled(name, "dexterity", roll, target, ok,
                     modifiers=rules.labels(((edge, _edge(p.edge_ft)),
                                             (push, why or "push")))))
    return ok


@cache
def _edge(feet: float) -> str:
    return f"for {feet:g} ft to the edge"
