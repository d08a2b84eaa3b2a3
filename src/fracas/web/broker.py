"""Wakes the event streams of an encounter when the store commits a change to it, and
keeps their number bounded: a few a link and a few a client address, the oldest closed
first."""

from __future__ import annotations

import asyncio
import signal
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

__all__ = ["STARTING", "Broker", "Stream"]

#: How many new streams work out their first answer at one time.
STARTING = 4


class Stream:
    """One open event stream: whom it serves, and the event that wakes it.

    ``ended`` is set when the broker closes the stream to make room for a newer one
    (or the server stops): the stream's loop then says goodbye and returns.
    """

    __slots__ = ("address", "enc_id", "ended", "link", "wake")

    def __init__(self, enc_id: str, link: str, address: str) -> None:
        self.enc_id = enc_id
        self.link = link
        self.address = address
        self.wake = asyncio.Event()
        self.ended = False


class Broker:
    """Wakes the event streams of an encounter when the store commits a change to it.

    At most ``per_link`` streams are open for one link (from any address) and
    ``per_address`` for one client address (over every link): a new stream beyond
    either closes the oldest of that link or address first, so a page that opens its
    stream again (a reload, a phone waking up) never finds itself locked out, while
    a client opening streams by the thousand holds only the cap.  Nothing of a
    closed stream is kept.
    """

    def __init__(self, per_link: int = 8, per_address: int = 32) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.per_link = per_link
        self.per_address = per_address
        # The open streams of each encounter, link and address, oldest first.
        self.waiters: dict[str, dict[Stream, None]] = {}
        self.by_link: dict[str, OrderedDict[Stream, None]] = {}
        self.by_address: dict[str, OrderedDict[Stream, None]] = {}
        #: Streams working out their first answer (in a worker thread) at one time: a
        #: thousand opened at once wait here, and those replaced meanwhile never start.
        self.starting = asyncio.Semaphore(STARTING)
        self.closing = False
        self._hooked = False
        self._held = threading.local()

    def bound(self, per_link: int, per_address: int) -> None:
        """Set the caps (``fracas serve``'s options); streams already open stay."""
        if per_link < 1 or per_address < 1:
            raise ValueError("a stream cap is at least 1")
        self.per_link, self.per_address = per_link, per_address

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
        for streams in self.waiters.values():
            for stream in streams:
                stream.wake.set()

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
        for stream in self.waiters.get(enc_id, ()):
            stream.wake.set()

    def open(self, enc_id: str, link: str, address: str) -> Stream:
        """A new stream of ``link`` (a key naming the link) for a client at ``address``.

        Called on the event loop.  The oldest streams of the link and of the address
        beyond their caps are ended (woken with ``ended`` set) before it counts.
        """
        loop = asyncio.get_running_loop()
        if loop is not self.loop:  # a new server loop (tests run several): a fresh gate
            self.loop, self.starting = loop, asyncio.Semaphore(STARTING)
        self.hook_signals()
        stream = Stream(enc_id, link, address)
        self._make_room(self.by_link.get(link), self.per_link)
        self._make_room(self.by_address.get(address), self.per_address)
        self.waiters.setdefault(enc_id, {})[stream] = None
        self.by_link.setdefault(link, OrderedDict())[stream] = None
        self.by_address.setdefault(address, OrderedDict())[stream] = None
        return stream

    def _make_room(self, streams: OrderedDict[Stream, None] | None, cap: int) -> None:
        while streams is not None and len(streams) >= cap:
            oldest = next(iter(streams))
            self.close(oldest)

    def close(self, stream: Stream) -> None:
        """End ``stream``: it is forgotten now and its loop returns when next scheduled."""
        stream.ended = True
        stream.wake.set()
        self._forget(self.waiters, stream.enc_id, stream)
        self._forget(self.by_link, stream.link, stream)
        self._forget(self.by_address, stream.address, stream)

    @staticmethod
    def _forget(table: dict[str, Any], key: str, stream: Stream) -> None:
        found = table.get(key)
        if found is not None:
            found.pop(stream, None)
            if not found:
                del table[key]

    def open_streams(self) -> int:
        """How many streams are open now."""
        return sum(len(streams) for streams in self.waiters.values())
