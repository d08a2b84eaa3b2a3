"""Bounded connections and pushes for ``fracas serve``: no client can hold the server.

uvicorn closes an idle kept-alive connection (``timeout_keep_alive``) but waits forever
for a request whose headers or body trickle in, and accepts any number of connections
from one address.  :func:`bounded_protocol` gives uvicorn an HTTP/1.1 protocol (its own
h11 one) that also

* closes a connection whose request headers have not wholly arrived ``header_seconds``
  after the connection opened or its last answer was sent;
* closes a connection whose request body has not wholly arrived ``body_seconds`` after
  its headers did (a separate, longer deadline: an upload from a phone may be slow, a
  request line never is); time the server itself keeps the body waiting (its reading
  paused while a route is busy) does not count against the client;
* closes at once a new connection beyond ``per_address`` open ones from the same client
  address, or beyond ``total`` open ones in all (kept under the usual limit of 1,024
  open files, so the server can always open its database and answer).

A request that has arrived is never cut short: a slow answer and a push stream
(server-sent events) run as long as they need.  Push streams are bounded by number
instead (``streams_per_link``, ``streams_per_address``: see
:class:`fracas.web.broker.Broker`).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, ClassVar

__all__ = ["Limits", "bounded_protocol"]


@dataclass(frozen=True, slots=True)
class Limits:
    """The bounds ``fracas serve`` puts on connections and pushes (each one an option)."""

    #: Seconds a request's headers may take to arrive.
    header_seconds: float = 10.0
    #: Seconds a request's body may take to arrive once its headers have.
    body_seconds: float = 30.0
    #: Seconds a kept-alive connection may wait idle for its next request.
    idle_seconds: float = 5.0
    #: Open connections one client address may hold.
    per_address: int = 64
    #: Open connections in all.
    total: int = 800
    #: Open push streams (``.../events``) one link may hold, from any address.
    streams_per_link: int = 8
    #: Open push streams one client address may hold, over every link.
    streams_per_address: int = 32


def bounded_protocol(limits: Limits) -> type[Any]:
    """uvicorn's h11 protocol class, bounded by ``limits`` (pass it as ``http=``)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class BoundedH11Protocol(H11Protocol):
        """An h11 connection with header and body deadlines and a share of the connections."""

        bounds: ClassVar[Limits] = limits
        open_per_address: ClassVar[dict[str, int]] = {}
        #: Connections kept (not those turned away): a burst accepted in one go aborts
        #: many before their ``connection_lost`` runs, and uvicorn's own set still holds
        #: them until then, so it would count refused connections against later clients.
        open_in_all: ClassVar[list[int]] = [0]

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._address: str | None = None
            self._deadline: asyncio.TimerHandle | None = None
            self._waiting_for: Any = None  # h11.IDLE (headers) or h11.SEND_BODY (body)
            address = self.client[0] if self.client else "?"
            held = self.open_per_address.get(address, 0)
            if held >= self.bounds.per_address or self.open_in_all[0] >= self.bounds.total:
                transport.abort()
                return
            self._address = address
            self.open_per_address[address] = held + 1
            self.open_in_all[0] += 1
            self._arm(h11.IDLE)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            address = getattr(self, "_address", None)
            if address is not None:
                self._address = None
                self.open_in_all[0] -= 1
                left = self.open_per_address.get(address, 1) - 1
                if left > 0:
                    self.open_per_address[address] = left
                else:
                    self.open_per_address.pop(address, None)
            super().connection_lost(exc)

        def handle_events(self) -> None:
            super().handle_events()
            # The headers arrived: their deadline gives way to the body's (if one follows).
            if self._waiting_for is h11.IDLE and self.conn.their_state is not h11.IDLE:
                self._disarm()
            if self.conn.their_state is h11.SEND_BODY and self._waiting_for is None:
                self._arm(h11.SEND_BODY)
            elif self._waiting_for is h11.SEND_BODY and \
                    self.conn.their_state is not h11.SEND_BODY:
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.transport.is_closing():
                return
            if self.conn.their_state is h11.IDLE:  # the next request's headers
                self._arm(h11.IDLE)
            elif self.conn.their_state is h11.SEND_BODY and \
                    self._waiting_for is not h11.SEND_BODY:
                # Answered before its body was read (a refusal): the body is still owed.
                self._arm(h11.SEND_BODY)

        def _arm(self, waiting_for: Any) -> None:
            self._disarm()
            seconds = self.bounds.header_seconds if waiting_for is h11.IDLE \
                else self.bounds.body_seconds
            self._waiting_for = waiting_for
            self._deadline = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            deadline = getattr(self, "_deadline", None)
            if deadline is not None:
                deadline.cancel()
                self._deadline = None
            self._waiting_for = None

        def _too_slow(self) -> None:
            waiting_for, self._deadline = self._waiting_for, None
            if self.transport.is_closing() or self.conn.their_state is not waiting_for:
                self._waiting_for = None
                return
            if waiting_for is h11.SEND_BODY and self.flow.read_paused:
                # The server keeps the body waiting (a busy route): not the client's delay.
                self._arm(h11.SEND_BODY)
                return
            self.transport.abort()

    return BoundedH11Protocol
