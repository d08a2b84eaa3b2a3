"""Exact probabilities: single rolls (dice notation or a rule set's own questions) and duels.

Nothing here samples: dice questions are answered with exact fractions, and
:func:`solve_duel` walks every chance outcome of a fight with fixed policies.
"""

from fracas.odds.duel import (
    DuelError,
    DuelLimits,
    DuelOdds,
    StateSpaceTooLargeError,
    dice_outcomes,
    solve_duel,
    solve_from_state,
)
from fracas.odds.questions import OddsResult, answer

__all__ = [
    "DuelError",
    "DuelLimits",
    "DuelOdds",
    "OddsResult",
    "StateSpaceTooLargeError",
    "answer",
    "dice_outcomes",
    "solve_duel",
    "solve_from_state",
]
