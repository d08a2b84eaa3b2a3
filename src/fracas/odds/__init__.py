"""Exact probabilities: single rolls (dice notation or a rule set's own questions) and duels.

Nothing here samples: dice questions are answered with exact fractions, and
:func:`solve_duel` walks every chance outcome of a fight with fixed policies;
:func:`best_response` lets one side choose its best move at each of its decisions.

The names are loaded on first use: ``fracas odds "9d6>=4"`` reads
:mod:`fracas.odds.questions` only, never the duel solver, numpy or the scenario layer.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fracas.odds.best_response import BestResponse, best_response, best_response_from_state
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
    "BestResponse",
    "DuelError",
    "DuelLimits",
    "DuelOdds",
    "DuelProgress",
    "OddsResult",
    "StateSpaceTooLargeError",
    "answer",
    "best_response",
    "best_response_from_state",
    "dice_outcomes",
    "pool_outcomes",
    "solve_duel",
    "solve_from_log",
    "solve_from_state",
    "state_from_log",
]

_HOME = {name: "fracas.odds.questions" for name in ("OddsResult", "answer")}
_HOME.update({name: "fracas.odds.best_response"
              for name in ("BestResponse", "best_response", "best_response_from_state")})


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'fracas.odds' has no attribute {name!r}")
    value = getattr(import_module(_HOME.get(name, "fracas.odds.duel")), name)
    globals()[name] = value
    return value
