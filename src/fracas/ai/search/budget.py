"""How much the search thinks: rollouts and milliseconds a decision and a turn, on a clock."""

from __future__ import annotations

import time
from dataclasses import dataclass

__all__ = ["DEFAULT_TURN_MS", "SearchBudget", "TurnClock"]

#: CPU milliseconds of thinking a turn when a scenario or the command line names no
#: budget (:class:`SearchBudget`'s default).
DEFAULT_TURN_MS = 1000.0


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """How much thinking one decision gets: rollouts, milliseconds, or both (first reached).

    ``turn_ms`` caps the time of all of one actor's decisions in one round (its turn,
    and its reactions in others' turns): once it is spent the actor plays the
    heuristic's choice for the rest of the round.  ``horizon`` caps the decisions a
    rollout plays before the position is scored by the sides' remaining health.

    The default is time, not a count: at most :data:`DEFAULT_TURN_MS` milliseconds of
    this process's CPU time a turn (a decision may use all that its turn has left), so
    the search sees more wherever the engine plays faster, and a busy machine does not
    make it play worse.
    """

    rollouts: int | None = None
    ms: float | None = 1000.0
    horizon: int = 400
    turn_ms: float | None = DEFAULT_TURN_MS
    #: ``"wall"``: milliseconds of the wall clock; ``"cpu"``: of this process's CPU time
    #: (the same thinking on a busy machine as on an idle one).
    clock: str = "cpu"

    def __post_init__(self) -> None:
        if self.rollouts is None and self.ms is None:
            raise ValueError("a search budget needs rollouts, milliseconds or both")
        if self.rollouts is not None and self.rollouts < 1:
            raise ValueError("rollouts must be at least 1")
        if self.ms is not None and self.ms <= 0:
            raise ValueError("milliseconds must be positive")
        if self.horizon < 1:
            raise ValueError("the horizon must be at least 1 decision")
        if self.turn_ms is not None and self.turn_ms <= 0:
            raise ValueError("the time of a turn must be positive")
        if self.clock not in ("wall", "cpu"):
            raise ValueError("the clock is 'wall' or 'cpu'")

    def now(self) -> float:
        """The budget's clock, in seconds."""
        return time.process_time() if self.clock == "cpu" else time.perf_counter()


class TurnClock:
    """The time one actor has spent thinking in the current round, against the budget.

    :meth:`start` is told each decision's actor and round; a new pair begins a new turn.
    """

    __slots__ = ("_spent", "_turn", "budget")

    def __init__(self, budget: SearchBudget) -> None:
        self.budget = budget
        self._turn: tuple[str, int] | None = None
        self._spent = 0.0

    def start(self, actor: str, round_number: int) -> float:
        """A decision of ``actor`` in ``round_number`` begins; the clock's reading now."""
        turn = (actor, round_number)
        if turn != self._turn:
            self._turn, self._spent = turn, 0.0
        return self.budget.now()

    def stop(self, started: float) -> None:
        """The decision that began at ``started`` is over: its time counts to the turn."""
        self._spent += self.budget.now() - started

    def time_left(self) -> float | None:
        """Seconds this decision may think (``None``: no time limit)."""
        budget = self.budget
        left = budget.ms / 1000 if budget.ms is not None else None
        if budget.turn_ms is not None:
            turn_left = budget.turn_ms / 1000 - self._spent
            left = turn_left if left is None else min(left, turn_left)
        return left
