"""A body that trickles in (issue 34, item 1), against a real ``fracas serve`` on 127.0.0.1.

The body has its own deadline, counted from the headers' arrival and separate from the
headers' deadline: a POST whose headers arrived but whose body never ends is closed
without an answer, whether its route waits for the body (the GM's upload) or refused it
at once (a wrong key: the refusal is sent, then the connection closed); a body sent in
slow pieces that ends inside its deadline is answered.  Each wait is a bound on a read,
never a measured figure.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_connection_limits import Server

from fracas.store import EventStore
from fracas.web import create_app

HEADER_SECONDS = 2
BODY_SECONDS = 6


@dataclass
class Live:
    server: Server
    key: str  # the GM's key: its upload route reads the body


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Live]:
    db = tmp_path / "fracas.sqlite"
    store = EventStore(db)
    try:
        key = create_app(store).state.admin_key  # kept in the database the server opens
    finally:
        store.close()
    server = Server(db, "--header-timeout", str(HEADER_SECONDS),
                    "--body-timeout", str(BODY_SECONDS), "--idle-timeout", "2")
    yield Live(server, key)
    server.stop()


def _post_headers(port: int, source: str, path: str, length: int) -> socket.socket:
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(60)  # a hung server fails the test; nothing is timed
    sock.connect(("127.0.0.1", port))
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\n"
                 f"Content-Type: application/x-www-form-urlencoded\r\n"
                 f"Content-Length: {length}\r\n\r\n".encode())
    return sock


def _answer(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    got = b""
    while True:
        try:
            data = sock.recv(65536)
        except ConnectionResetError:
            return got
        if not data:
            return got
        got += data


def test_a_body_that_never_ends_is_closed_without_an_answer(live: Live) -> None:
    sock = _post_headers(live.server.port, "127.0.4.1", f"/gm/{live.key}/create", 1000)
    try:
        sock.sendall(b"csrf=")  # a first piece, then nothing
        assert _answer(sock) == b""
    finally:
        sock.close()


@pytest.mark.slow
def test_a_body_refused_at_once_then_trickled_is_closed_after_the_refusal(
        live: Live) -> None:
    """A wrong key is answered before the body is read; a client that goes on sending
    the body a byte at a time (each byte would reset an idle timer) is still closed."""
    sock = _post_headers(live.server.port, "127.0.4.2", "/gm/nobody/create", 1000)
    closed = False
    try:
        for _ in range(200):  # 100 s of trickling: far past the body's deadline
            try:
                sock.sendall(b"a")
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            time.sleep(0.5)
        assert closed
    finally:
        sock.close()


def test_a_slow_body_inside_its_deadline_is_answered(live: Live) -> None:
    """Headers and body together take longer than the header deadline: still answered,
    since the body's deadline starts when the headers arrive."""
    body = b"csrf=x&bundled=y"
    sock = _post_headers(live.server.port, "127.0.4.3", f"/gm/{live.key}/create", len(body))
    try:
        for i in range(0, len(body), 4):
            sock.sendall(body[i:i + 4])
            time.sleep(HEADER_SECONDS / 3)  # all of it takes longer than the headers may
        assert _answer(sock).startswith(b"HTTP/1.1 ")
    finally:
        sock.close()
