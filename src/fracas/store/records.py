"""What the store hands out and refuses with: listings, links, log lines and its errors."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from fracas.core.errors import FracasError, LogFormatError
from fracas.core.events import LogHeader
from fracas.core.rng import SeededRng, decision_dice

__all__ = [
    "ENTRIES_DECODED",
    "MAX_SEATS",
    "MAX_SEAT_COMBATANTS",
    "EncounterInfo",
    "Link",
    "LogEntry",
    "SeatError",
    "StaleRevisionError",
    "StoreOpenError",
    "UnknownEncounterError",
    "decision_rng",
    "header_from_json",
    "header_json",
    "info_of",
    "veil_set",
    "veil_text",
]

#: A seat names at most this many combatants (a player holds a few, not an army).
MAX_SEAT_COMBATANTS = 16
#: An encounter has at most this many seats.
MAX_SEATS = 64
#: How many decoded log entries :meth:`EventStore.entries` keeps (then it starts afresh).
ENTRIES_DECODED = 50_000


class StoreOpenError(FracasError):
    """The database file cannot be opened or is not a fracas store."""

    exit_code = 2


class UnknownEncounterError(FracasError, LookupError):
    """No encounter is stored under the requested id."""

    exit_code = 2


class SeatError(FracasError):
    """A seat that cannot be made as asked (no such combatant, combatants of two sides)."""

    exit_code = 2


class StaleRevisionError(FracasError):
    """The log changed since the caller looked at it: somebody else acted first."""

    exit_code = 3

    def __init__(self, expected: int, actual: int) -> None:
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"the fight moved on (you saw revision {expected}, it is now {actual}): "
            "somebody else acted first; here is the fresh view"
        )


@dataclass(frozen=True, slots=True)
class EncounterInfo:
    """One stored encounter as listed: no events, no state."""

    id: str
    title: str
    ruleset: str
    seed: int
    created: float
    updated: float
    archived: bool
    revision: int
    length: int
    status: str


@dataclass(frozen=True, slots=True)
class Link:
    """A secret link to an encounter: the GM's, one side's players', spectators', or a
    *seat*: one player's link, acting only for the ``combatants`` it names (all of one
    side, whose view it sees)."""

    encounter_id: str
    role: str
    side: str
    token: str
    combatants: tuple[str, ...] = ()

    @property
    def is_seat(self) -> bool:
        return bool(self.combatants)


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One stored event with its position, hidden flag and readable text."""

    seq: int
    kind: str
    hidden: bool
    text: str
    data: dict[str, Any]
    veil: dict[str, str | None] = field(default_factory=dict)

    def text_for(self, viewer: str | None) -> str | None:
        """What ``viewer`` (``None``: the GM) reads of this line; ``None``: nothing."""
        if viewer is None:
            return self.text
        if self.hidden:
            return None
        return self.veil.get(viewer, self.text)

    def seen_by(self, viewer: str | None) -> bool:
        """True when ``viewer`` (``None``: the GM) may read this line."""
        return self.text_for(viewer) is not None


def decision_rng(seed: int, length: int, purpose: str = "dice") -> SeededRng:
    """The dice for the decision made when the log has ``length`` events.

    Deriving the stream from the seed and the log position keeps the store free
    of generator state: a restarted server rolls the same dice, and undoing a
    decision then taking it again does not give fresh dice (no re-rolling by undo).
    The core's seeding rule: :func:`fracas.core.rng.decision_dice`.
    """
    return decision_dice(seed, length, purpose)


def info_of(row: sqlite3.Row) -> EncounterInfo:
    """The listing of an ``encounters`` row."""
    return EncounterInfo(row["id"], row["title"], row["ruleset"], row["seed"], row["created"],
                         row["updated"], bool(row["archived"]), row["revision"], row["length"],
                         row["status"])


def veil_text(seen: dict[str, str | None]) -> str:
    """A line's veil as its ``veil`` column holds it."""
    return json.dumps(seen, sort_keys=True)


def veil_set(text: str | None) -> dict[str, str | None]:
    """A ``veil`` column read back (empty: every viewer reads the GM's line)."""
    if not text:
        return {}
    found = json.loads(text)
    return found if isinstance(found, dict) else {}


def header_json(header: LogHeader) -> str:
    """A log header as the ``encounters.header`` column (and an exported log's first line)
    holds it."""
    return json.dumps({"type": "header", "ruleset": header.ruleset, "scenario": header.scenario,
                       "seed": header.seed, "format": header.format})


def header_from_json(text: str, where: str) -> LogHeader:
    """A stored header read back; a bad one is refused naming ``where``."""
    raw = json.loads(text)
    raw.pop("type", None)
    try:
        return LogHeader(**raw)
    except TypeError as exc:
        raise LogFormatError(f"{where}: bad header: {exc}") from None
