"""The exact solver's limits, errors and progress reports (shared by its parts).

A solve gives up with :class:`StateSpaceTooLargeError` when a :class:`DuelLimits`
bound is passed, and reports where it stands through :data:`Progress` and
:data:`Watch` callbacks.  Limits are in CPU seconds of this process
(``time.process_time``), so a loaded machine refuses no fight an idle one solves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fracas.core.errors import FracasError

__all__ = [
    "DEFAULT_MAX_LEAVES",
    "DEFAULT_MAX_SECONDS",
    "DEFAULT_MAX_STATES",
    "MAX_OUTCOMES_PER_ROLL",
    "MIN_PATH_PROBABILITY",
    "DuelError",
    "DuelLimits",
    "DuelProgress",
    "Progress",
    "StateSpaceTooLargeError",
    "Watch",
]

#: Distinct states (graph nodes) before the solver gives up: the limit keeps a solve's
#: memory to what an ordinary machine has.  A state costs about 1.9 KB at the peak on the
#: AD&D duels (the node keys, the states passed through packed into one int each, the
#: rounds' openings, the edges packed flat; ``docs/odds.md``), so 600,000 states take
#: about 1.1 GB; that is about as many states as the default 60 CPU s reach at the pace of
#: those duels.  A fight that passes through many states between its nodes (the Age of
#: Dragons breath duel: a dozen a node) costs more a state, but reaches fewer states in
#: the same CPU seconds, so the time limit stops it first.
DEFAULT_MAX_STATES = 600_000
DEFAULT_MAX_LEAVES = 20_000_000
#: CPU seconds of this process (``time.process_time``: the same on a loaded machine as on
#: an idle one) before the solver gives up (and it gives up earlier when its
#: own pace shows it cannot finish in time).
DEFAULT_MAX_SECONDS = 60.0
#: A chance path less likely than this is not followed (its mass is reported as pruned);
#: this keeps rules that reroll ties until they differ from branching forever.
MIN_PATH_PROBABILITY = 1e-15
#: Largest number of chance outcomes one roll may branch into.
MAX_OUTCOMES_PER_ROLL = 100_000


class DuelError(FracasError):
    """The fight cannot be solved exactly as set up (human or scripted policies, ...)."""

    exit_code = 2


class StateSpaceTooLargeError(DuelError):
    """The fight has too many states (or chance outcomes) to solve exactly."""



@dataclass(frozen=True, slots=True)
class DuelProgress:
    """Where the solver stands, for a live status line.

    Attributes:
        done: graph states expanded.
        found: graph states found so far (``done`` of them expanded).
        leaves: resolutions run.
        seconds: CPU seconds so far.
        at_least: a lower bound on the seconds still needed at the pace so far
            (every state found must still be expanded; more may appear), or ``None``
            before there is a pace to judge.
        widest: the chance point with the most outcomes met so far, in words.
    """

    done: int
    found: int
    leaves: int
    seconds: float
    at_least: float | None
    widest: str

    def line(self) -> str:
        """One line for a status display."""
        text = (f"solving: {self.done:,} of {self.found:,} states, {self.leaves:,} "
                f"resolutions, {self.seconds:.1f} s")
        if self.at_least is not None and self.done < self.found:
            text += f"; at least {self.at_least:.1f} s more"
        return text


#: Progress callback: (states expanded, states found, resolutions run).
Progress = Callable[[int, int, int], None]
#: Richer progress callback: a :class:`DuelProgress` after each state expanded.
Watch = Callable[[DuelProgress], None]


@dataclass(frozen=True, slots=True)
class DuelLimits:
    """When the solver gives up (each with a message saying which limit was hit).

    Attributes:
        max_states: distinct decision states (graph nodes).
        max_leaves: resolutions run (the chance trees' leaves).
        max_seconds: CPU seconds (``time.process_time``, so that a loaded machine
            refuses no fight an idle one solves); ``None`` for no limit.  Once a twentieth of it has
            passed (at least a second), the solver also stops as soon as its pace
            shows it cannot finish in time.
    """

    max_states: int = DEFAULT_MAX_STATES
    max_leaves: int = DEFAULT_MAX_LEAVES
    max_seconds: float | None = DEFAULT_MAX_SECONDS

    def __post_init__(self) -> None:
        for name in ("max_states", "max_leaves"):
            if getattr(self, name) < 1:
                raise DuelError(f"--{name.replace('_', '-')} must be at least 1, "
                                f"got {getattr(self, name)}")
        if self.max_seconds is not None and not self.max_seconds >= 0:  # refuses NaN too
            raise DuelError(f"--max-seconds must be 0 or more, got {self.max_seconds:g}")

