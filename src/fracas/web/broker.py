"""Wakes the event streams of an encounter when the store commits a change to it."""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

__all__ = ["Broker"]


class Broker:
    """Wakes the event streams of an encounter when the store commits a change to it."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.waiters: dict[str, set[asyncio.Event]] = {}
        self.closing = False
        self._hooked = False
        self._held = threading.local()

    def hook_signals(self) -> None:
        """End every stream when the server is asked to stop (SIGINT, SIGTERM).

        The server waits for open responses before it stops, and an event stream
        never ends by itself; so the server's own handlers are chained behind one
        that closes the streams.  Only possible in the main thread (else a stream
        simply ends after :data:`STREAM_SECONDS`).
        """
        if self._hooked or threading.current_thread() is not threading.main_thread():
            return
        self._hooked = True
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous = signal.getsignal(sig)

            def handler(signum: int, frame: FrameType | None, previous: Any = previous) -> None:
                self.closing = True
                loop = self.loop
                if loop is not None and not loop.is_closed():
                    loop.call_soon_threadsafe(self._wake_all)
                if callable(previous):
                    previous(signum, frame)

            signal.signal(sig, handler)

    def _wake_all(self) -> None:
        for events in self.waiters.values():
            for event in events:
                event.set()

    @contextmanager
    def holding(self) -> Iterator[None]:
        """Wake the streams of the encounters changed inside (in this thread) only at its
        end: a click's answer renders the fresh panel first, so the streams woken then
        find it ready instead of asking for it at once (and each in a worker thread)."""
        held: set[str] = set()
        self._held.ids = held
        try:
            yield
        finally:
            self._held.ids = None
            for enc_id in held:
                self.changed(enc_id)

    def changed(self, enc_id: str) -> None:
        """Called by the store, from any thread, after a commit."""
        held = getattr(self._held, "ids", None)
        if held is not None:
            held.add(enc_id)
            return
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake, enc_id)

    def _wake(self, enc_id: str) -> None:
        for event in self.waiters.get(enc_id, ()):
            event.set()

    def listen(self, enc_id: str) -> asyncio.Event:
        self.loop = asyncio.get_running_loop()
        self.hook_signals()
        event = asyncio.Event()
        self.waiters.setdefault(enc_id, set()).add(event)
        return event

    def leave(self, enc_id: str, event: asyncio.Event) -> None:
        found = self.waiters.get(enc_id)
        if found is not None:
            found.discard(event)
            if not found:
                self.waiters.pop(enc_id, None)
