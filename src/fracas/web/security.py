"""Access rules of the GM console: who may see and do what, CSRF tokens, body-size cap.

* The GM link can do everything; a side's player link may decide only for its own
  side's combatants, a *seat* (one player's link) only for the combatants it
  names; both see what their side would see; a spectator link only watches.
  Links are long random tokens compared in constant time.
* Every state change is a POST carrying a CSRF token derived from the link
  (an HMAC under the server's secret), sent by htmx as a header or by a plain
  form as a field.  Requests a browser marks as cross-site are refused.
* Request bodies above a cap are refused before they are read whole.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CSRF_HEADER", "Access", "BodySizeLimit", "SecurityHeaders", "csrf_ok", "csrf_token",
           "names_in_words"]

CSRF_HEADER = "x-csrf-token"


@dataclass(frozen=True, slots=True)
class Access:
    """What a link lets its holder do."""

    role: str
    side: str
    #: A seat's combatants (a player's own link): it acts for these alone.  Empty: the
    #: whole side (or the GM, or a spectator).
    combatants: frozenset[str] = frozenset()

    @property
    def is_gm(self) -> bool:
        """The GM sees everything and may decide for anyone."""
        return self.role == "gm"

    @property
    def viewer(self) -> str | None:
        """The key of this link's log lines in the store (``None``: the GM reads every line)."""
        if self.role == "gm":
            return None
        return f"player:{self.side}" if self.role == "player" else "spectator"

    @property
    def view_side(self) -> str | None:
        """The side whose eyes the rule set's ``view`` should use (``None``: the GM's)."""
        if self.role == "gm":
            return None
        return self.side if self.role == "player" else "spectator"

    @property
    def is_seat(self) -> bool:
        """One player's link: it acts only for its own combatants."""
        return bool(self.combatants) and self.role == "player"

    def may_act_for(self, actor: str | None, sides: Mapping[str, str]) -> bool:
        """The GM acts for anyone; a side's link only for combatants of its side; a seat
        only for its own combatants."""
        if actor is None or self.role == "spectator":
            return False
        if self.role == "gm":
            return True
        if self.combatants:
            return actor in self.combatants
        return sides.get(actor) == self.side

    def refusal(self, actor: str | None = None) -> str:
        """Why this link may not act for ``actor`` (``None``: for whoever decides now), in
        words naming only what the link's holder already knows."""
        if self.role == "spectator":
            return "a spectator link cannot act"
        if self.combatants:
            own = names_in_words(sorted(self.combatants))
            if actor is None:
                return f"this link acts only for {own}, and it is not their turn"
            return f"this link acts only for {own}, not for {actor}"
        if actor is None:
            return f"this link acts only for side {self.side!r}, and it is not that side's turn"
        return f"this link acts only for side {self.side!r}, not for {actor}"

    @property
    def sees_hidden(self) -> bool:
        """Only the GM sees hidden events (secret rolls)."""
        return self.role == "gm"


def names_in_words(names: list[str]) -> str:
    """``["Ash", "Bo", "Cy"]`` as ``Ash, Bo and Cy``."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


@lru_cache(maxsize=4096)
def csrf_token(secret: str, scope: str) -> str:
    """The CSRF token for one link (or the GM home): an HMAC of ``scope`` under ``secret``.

    Kept once made (a pure function of its arguments; every click checks one)."""
    return hmac.new(secret.encode(), b"csrf:" + scope.encode(), hashlib.sha256).hexdigest()


def csrf_ok(secret: str, scope: str, offered: str | None) -> bool:
    """True when ``offered`` is the CSRF token of ``scope`` (constant-time comparison)."""
    if not offered:
        return False
    return hmac.compare_digest(csrf_token(secret, scope).encode(), offered.encode())


class BodySizeLimit:
    """ASGI middleware: answer 413 when a request body is larger than ``max_bytes``.

    A declared ``Content-Length`` over the cap is refused at once; a streamed
    body is counted as it arrives and cut off when it passes the cap.
    """

    def __init__(self, app: ASGIApp, max_bytes: int, form_bytes: int | None = None,
                 upload_prefix: str = "/gm/") -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.form_bytes = max_bytes if form_bytes is None else min(form_bytes, max_bytes)
        self.upload_prefix = upload_prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # Only the GM's home takes files; every other form is small.
        path = str(scope.get("path", ""))
        cap = self.max_bytes if path.startswith(self.upload_prefix) else self.form_bytes
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > cap):
            await _too_large(send, cap)
            return
        seen = 0
        started = False

        async def counted_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > cap:
                    raise _BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted_receive, tracking_send)
        except _BodyTooLarge:
            if not started:
                await _too_large(send, cap)


class _BodyTooLarge(Exception):
    pass


async def _too_large(send: Send, max_bytes: int) -> None:
    body = f"request body too large (the limit is {max_bytes} bytes)\n".encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


#: Sent with every answer: no referrer (tokens live in URLs), no framing, only the server's
#: own scripts and styles.
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
     b" connect-src 'self'; frame-ancestors 'none'; form-action 'self'"),
]


class SecurityHeaders:
    """ASGI middleware: the security headers on every answer, ``no-store`` on all but
    static files and the phone headings' sheet, which depends on its address alone (a
    plain ASGI wrapper: no task group per request)."""

    #: Paths, besides the static files, whose answers a browser may keep.
    cacheable = frozenset({"/columns.css"})

    def __init__(self, app: ASGIApp, static_prefix: str = "/static/") -> None:
        self.app = app
        self.static_prefix = static_prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = list(SECURITY_HEADERS)
        path = str(scope.get("path", ""))
        if not path.startswith(self.static_prefix) and path not in self.cacheable:
            extra.append((b"cache-control", b"no-store"))
        names = {name for name, _ in extra}

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names]
                message = {**message, "headers": [*kept, *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
