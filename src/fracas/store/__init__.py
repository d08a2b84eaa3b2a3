"""The durable event store: encounters and their logs in one SQLite file (WAL)."""

from fracas.core.events import parse_log_text
from fracas.store.sqlite import (
    EncounterInfo,
    EventStore,
    Link,
    LogEntry,
    SeatError,
    StaleRevisionError,
    StoreOpenError,
    UnknownEncounterError,
    decision_rng,
)

__all__ = [
    "EncounterInfo",
    "EventStore",
    "Link",
    "LogEntry",
    "SeatError",
    "StaleRevisionError",
    "StoreOpenError",
    "UnknownEncounterError",
    "decision_rng",
    "parse_log_text",
]
