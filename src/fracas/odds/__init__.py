"""Exact probabilities: single rolls (dice notation or a rule set's own questions) and duels.

Nothing here samples: dice questions are answered with exact fractions, and
:func:`solve_duel` walks every chance outcome of a fight with fixed policies.
"""

from fracas.odds.duel import (
    DuelError,
    DuelLimits,
    DuelOdds,
    DuelProgress,
    StateSpaceTooLargeError,
    dice_outcomes,
    pool_outcomes,
    solve_duel,
    solve_from_log,
    solve_from_state,
    state_from_log,
)
from fracas.odds.questions import OddsResult, answer

__all__ = [
    "DuelError",
    "DuelLimits",
    "DuelOdds",
    "DuelProgress",
    "OddsResult",
    "StateSpaceTooLargeError",
    "answer",
    "dice_outcomes",
    "pool_outcomes",
    "solve_duel",
    "solve_from_log",
    "solve_from_state",
    "state_from_log",
]
