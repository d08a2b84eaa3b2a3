"""The live encounters a store keeps rebuilt in memory, and each encounter's lock.

An encounter is never stored whole: it is rebuilt by replaying its events and kept
here under the revision it was rebuilt or last changed at.  Each encounter has its own
lock, so the work of one table never waits for another's; one small lock guards the
table of locks and the cache itself.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from fracas.core.cache import Lru
from fracas.core.encounter import Encounter

__all__ = ["Live", "LiveCache"]


@dataclass(slots=True)
class Live:
    """A live encounter at a revision."""

    revision: int
    encounter: Encounter[Any]
    #: The redo stack is known to be empty at this revision (``False``: not known).
    no_redo: bool = False


class LiveCache:
    """The most recently used live encounters (at most ``size``) and every encounter's lock."""

    def __init__(self, size: int) -> None:
        self.guard = threading.Lock()  # the table of locks and the cache
        self._locks: dict[str, threading.RLock] = {}
        self.kept: Lru[str, Live] = Lru(size)

    def lock(self, enc_id: str) -> threading.RLock:
        """The encounter's own lock (made on first use)."""
        with self.guard:
            lock = self._locks.get(enc_id)
            if lock is None:
                lock = self._locks[enc_id] = threading.RLock()
            return lock

    def get(self, enc_id: str, revision: int | None = None) -> Live | None:
        """The live encounter (now the most recently used), if kept, and at ``revision``
        when one is given."""
        with self.guard:
            live = self.kept.peek(enc_id)
            if live is None or (revision is not None and live.revision != revision):
                return None
            return self.kept.get(enc_id)

    def peek(self, enc_id: str) -> Live | None:
        """The live encounter if kept, without counting it as used."""
        with self.guard:
            return self.kept.peek(enc_id)

    def remember(self, enc_id: str, live: Live) -> None:
        """Keep ``live`` as the encounter's live encounter."""
        with self.guard:
            self.kept.put(enc_id, live)

    def forget(self, enc_id: str) -> None:
        """Drop the encounter's live encounter (it may be half changed)."""
        with self.guard:
            self.kept.pop(enc_id)

    def no_redo(self, enc_id: str) -> bool:
        """The redo stack is known to be empty (the live encounter's revision says so)."""
        live = self.peek(enc_id)
        return live is not None and live.no_redo

    def clear(self) -> None:
        """Drop every live encounter."""
        with self.guard:
            self.kept.clear()
