"""Bounded connections for ``fracas serve``: no client can hold the server's sockets.

uvicorn closes an idle kept-alive connection (``timeout_keep_alive``) but waits forever
for a request whose headers or body trickle in, and accepts any number of connections
from one address.  :func:`bounded_protocol` gives uvicorn an HTTP/1.1 protocol (its own
h11 one) that also

* closes a connection whose request (headers, then body) has not wholly arrived
  ``request_seconds`` after the connection opened or its last answer was sent;
* closes at once a new connection beyond ``per_address`` open ones from the same client
  address, or beyond ``total`` open ones in all (kept under the usual limit of 1,024
  open files, so the server can always open its database and answer).

A request that has arrived is never cut short: a slow answer and a push stream
(server-sent events) run as long as they need.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, ClassVar

__all__ = ["Limits", "bounded_protocol"]


@dataclass(frozen=True, slots=True)
class Limits:
    """The bounds ``fracas serve`` puts on connections (each one an option)."""

    #: Seconds a request's headers and body may take to arrive.
    request_seconds: float = 10.0
    #: Seconds a kept-alive connection may wait idle for its next request.
    idle_seconds: float = 5.0
    #: Open connections one client address may hold.
    per_address: int = 64
    #: Open connections in all.
    total: int = 800


def bounded_protocol(limits: Limits) -> type[Any]:
    """uvicorn's h11 protocol class, bounded by ``limits`` (pass it as ``http=``)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    waiting = (h11.IDLE, h11.SEND_BODY)  # the client still owes (part of) a request

    class BoundedH11Protocol(H11Protocol):
        """An h11 connection with a request deadline and a share of the connections."""

        bounds: ClassVar[Limits] = limits
        open_per_address: ClassVar[dict[str, int]] = {}

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._address: str | None = None
            self._deadline: asyncio.TimerHandle | None = None
            address = self.client[0] if self.client else "?"
            held = self.open_per_address.get(address, 0)
            if held >= self.bounds.per_address or len(self.connections) > self.bounds.total:
                transport.abort()
                return
            self._address = address
            self.open_per_address[address] = held + 1
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            address = getattr(self, "_address", None)
            if address is not None:
                self._address = None
                left = self.open_per_address.get(address, 1) - 1
                if left > 0:
                    self.open_per_address[address] = left
                else:
                    self.open_per_address.pop(address, None)
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(self.bounds.request_seconds, self._too_slow)

        def _disarm(self) -> None:
            deadline = getattr(self, "_deadline", None)
            if deadline is not None:
                deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self.conn.their_state in waiting and not self.transport.is_closing():
                self.transport.abort()

    return BoundedH11Protocol
