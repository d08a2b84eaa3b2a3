"""Bounded connections (issue 34, item 1), against a real ``fracas serve`` on 127.0.0.1.

A thousand connections that never finish their headers (from another loopback address)
leave a second client answered; a silent connection is closed by the request deadline;
a client address holds at most its share of connections.  No timing is asserted: each
wait is a bound on a loop, never a measured figure (see benchmarks/README.md for those).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from web_live_server import free_port

SERVE = Path(__file__).resolve().parent / "serve_toy.py"
ATTACKER = "127.0.0.2"  # every 127.x address is this machine: the attack is local too


class Server:
    def __init__(self, db: Path, *options: str) -> None:
        self.port = free_port()
        self.proc = subprocess.Popen(
            [sys.executable, str(SERVE), "serve", "--db", str(db), "--host", "127.0.0.1",
             "--port", str(self.port), *options],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for _ in range(600):  # at most some 30 s to start
            if self.proc.poll() is not None:
                raise RuntimeError(self.proc.stderr.read().decode() if self.proc.stderr else "")
            try:
                httpx.get(self.url, timeout=1.0)
                return
            except httpx.TransportError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("fracas serve did not start")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        if self.proc.stderr:
            self.proc.stderr.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    live = Server(tmp_path / "fracas.sqlite", "--header-timeout", "4", "--idle-timeout", "2",
                  "--max-connections-per-address", "50", "--max-connections", "700")
    yield live
    live.stop()


def _connect(port: int, source: str) -> socket.socket:
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(30)
    sock.connect(("127.0.0.1", port))
    return sock


def _closed(sock: socket.socket) -> bool:
    """Read until the server closes (True) or answers (False); at most 30 s."""
    try:
        data = sock.recv(65536)
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False
    return data == b""


@pytest.mark.slow
def test_slow_headers_from_one_address_leave_other_clients_answered(server: Server) -> None:
    held: list[socket.socket] = []
    try:
        for _ in range(1_100):  # each sends a request line and never ends its headers
            try:
                sock = _connect(server.port, ATTACKER)
                sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                held.append(sock)
            except OSError:
                pass  # refused at once: past the address's share
        with httpx.Client(timeout=20) as client:
            answers = [client.get(server.url).status_code for _ in range(20)]
        assert answers == [200] * 20
        # every slow connection ends: beyond the share at once, the rest at the deadline
        assert all(_closed(sock) for sock in held)
    finally:
        for sock in held:
            sock.close()


def test_a_burst_of_refused_connections_does_not_crowd_out_a_client(server: Server) -> None:
    # The server is frozen while a burst beyond every bound queues up, then one client
    # joins the queue: the server accepts them all in one go on waking.  Connections it
    # turns away must not count against the client that comes after them.
    burst: list[socket.socket] = []
    os.kill(server.proc.pid, signal.SIGSTOP)
    try:
        for _ in range(800):  # past the share of 50 and the total of 700
            burst.append(_connect(server.port, ATTACKER))
        client = _connect(server.port, "127.0.0.5")
        client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)
    try:
        assert client.recv(12).startswith(b"HTTP/1.1 200")
    finally:
        client.close()
        for sock in burst:
            sock.close()


def test_a_silent_connection_is_closed_by_the_request_deadline(server: Server) -> None:
    sock = _connect(server.port, "127.0.0.3")
    try:
        assert _closed(sock)
    finally:
        sock.close()


def test_an_address_holds_at_most_its_share(server: Server) -> None:
    socks = [_connect(server.port, "127.0.0.4") for _ in range(51)]
    try:
        last = socks[-1]
        with contextlib.suppress(OSError):
            last.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert _closed(last)  # the 51st, past the share of 50: closed without an answer
        first = socks[0]
        first.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert first.recv(12).startswith(b"HTTP/1.1 200")
    finally:
        for sock in socks:
            sock.close()


def test_the_limits_are_options_of_serve() -> None:
    from fracas.web.limits import Limits

    out = subprocess.run([sys.executable, str(SERVE), "serve", "--help"], capture_output=True,
                         text=True, env={**os.environ, "COLUMNS": "200"}, check=True).stdout
    for option in ("--header-timeout", "--body-timeout", "--idle-timeout",
                   "--max-connections-per-address", "--max-connections"):
        assert option in out
    assert Limits().total < 1024  # under the usual open-file limit
