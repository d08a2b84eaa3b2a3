"""Bounded push (issue 34, item 2), against a real ``fracas serve`` on 127.0.0.1.

A thousand streams opened one after another on one spectator link leave only the link's
cap open (each new one ends the oldest, which is told to wait before reconnecting); one
client address holds at most its cap over every link; the streams left open still get
their pushes and another table still answers.  No timing is asserted: each socket read
has a generous bound that only turns a hung server into a failure (the latency under
such an attack is measured by ``benchmarks/push_flood.py``).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from test_connection_limits import SERVE, Server
from web_helpers import SCENARIOS, Console

from fracas.store import EventStore
from fracas.web import create_app

PER_LINK = 3
PER_ADDRESS = 5
ENDED = b"replaced by a newer stream"


@dataclass
class Tables:
    """Two encounters' links (role -> path) in a database a server is then started on."""

    db: Path
    first: dict[str, str]
    second: dict[str, str]


@pytest.fixture
def tables(tmp_path: Path) -> Tables:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    for name, text in SCENARIOS.items():
        (folder / name).write_text(text, encoding="utf-8")
    db = tmp_path / "fracas.sqlite"
    store = EventStore(db)
    try:
        app = create_app(store, [folder])
        with TestClient(app) as client:
            helper = Console(client, app.state.admin_key, folder.name)
            return Tables(db, helper.create("duel.yaml", 1), helper.create("duel.yaml", 2))
    finally:
        store.close()


@pytest.fixture
def server(tables: Tables) -> Iterator[Server]:
    live = Server(tables.db, "--max-streams-per-link", str(PER_LINK),
                  "--max-streams-per-address", str(PER_ADDRESS))
    yield live
    live.stop()


class Stream:
    """One ``.../events`` request on its own socket, read by hand."""

    def __init__(self, port: int, path: str, source: str) -> None:
        self.sock = socket.socket()
        self.sock.bind((source, 0))
        self.sock.settimeout(60)  # a hung server fails the test; nothing is timed
        self.sock.connect(("127.0.0.1", port))
        self.sock.sendall(f"GET {path}/events HTTP/1.1\r\nHost: x\r\n"
                          "Accept: text/event-stream\r\n\r\n".encode())
        self.seen = b""
        self.ended = False

    def until(self, marker: bytes) -> bool:
        """Read until ``marker`` arrives (True) or the server closes the stream (False)."""
        while marker not in self.seen:
            if self.ended:
                return False
            try:
                data = self.sock.recv(65536)
            except ConnectionResetError:
                data = b""
            if not data:
                self.ended = True
            self.seen += data
        return True

    def to_the_end(self) -> bytes:
        self.until(b"\0never\0")
        return self.seen

    def close(self) -> None:
        self.sock.close()


def _act(server: Server, gm: str) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as client:
        state = client.get(f"{gm}/state.json").json()
        answer = client.post(f"{gm}/act", data={
            "csrf": state["csrf"], "rev": str(state["revision"]),
            "action": "ann strike target=bob"}, headers={"accept": "application/json"})
        assert answer.status_code == 200, answer.text


@pytest.mark.slow
def test_a_thousand_streams_on_one_link_leave_only_its_cap_open(
        server: Server, tables: Tables) -> None:
    link = tables.first["spectator"]
    open_now: list[Stream] = []
    replaced = 0
    try:
        for i in range(1_000):
            # From twenty addresses, so that the link's cap (not an address's) is what binds.
            stream = Stream(server.port, link, f"127.0.1.{i % 20 + 1}")
            assert stream.until(b"event: version")  # the server holds it: the oldest goes
            open_now.append(stream)
            if len(open_now) > PER_LINK:
                oldest = open_now.pop(0)
                said = oldest.to_the_end()
                assert ENDED in said and b"retry: 15000" in said
                oldest.close()
                replaced += 1
        assert replaced == 1_000 - PER_LINK
        # The streams left are live: a change on the table reaches each of them.
        _act(server, tables.first["gm"])
        assert all(s.until(b"event: panel") for s in open_now)
        # and the other table answers.
        with httpx.Client(base_url=server.url, timeout=60) as client:
            assert client.get(f"{tables.second['gm']}/panel").status_code == 200
    finally:
        for stream in open_now:
            stream.close()


def test_one_address_holds_at_most_its_cap_of_streams_over_every_link(
        server: Server, tables: Tables) -> None:
    links = [*tables.first.values(), *tables.second.values()]  # 8 links, one stream each
    assert len(links) > PER_ADDRESS
    streams = []
    try:
        for link in links:
            stream = Stream(server.port, link, "127.0.2.1")
            assert stream.until(b"event: version")
            streams.append(stream)
        gone, kept = streams[:-PER_ADDRESS], streams[-PER_ADDRESS:]
        assert all(ENDED in s.to_the_end() for s in gone)  # the oldest first
        # Another address is not held back by the first one's cap.
        other = Stream(server.port, tables.first["spectator"], "127.0.2.2")
        assert other.until(b"event: version")
        kept.append(other)
        _act(server, tables.first["gm"])
        _act(server, tables.second["gm"])
        assert all(s.until(b"event: panel") for s in kept)
        assert not any(ENDED in s.seen for s in kept)
    finally:
        for stream in streams:
            stream.close()


def test_a_stream_that_ends_closes_its_connection(server: Server, tables: Tables) -> None:
    """An ended stream gives its socket back (nothing kept alive for a page that left)."""
    first = Stream(server.port, tables.first["spectator"], "127.0.3.1")
    later: list[Stream] = []
    try:
        assert first.until(b"event: version")
        for _ in range(PER_LINK):
            later.append(Stream(server.port, tables.first["spectator"], "127.0.3.1"))
            assert later[-1].until(b"event: version")
        said = first.to_the_end()
        assert first.ended and said.rstrip().endswith(b"0")  # the last chunk, then closed
        assert re.search(rb"(?i)connection: close", said)
    finally:
        for stream in (first, *later):
            stream.close()


def test_the_stream_caps_are_options_of_serve() -> None:
    out = subprocess.run([sys.executable, str(SERVE), "serve", "--help"], capture_output=True,
                         text=True, env={**os.environ, "COLUMNS": "200"}, check=True).stdout
    for option in ("--max-streams-per-link", "--max-streams-per-address"):
        assert option in out


def test_the_broker_ends_the_oldest_of_a_link_or_an_address_and_keeps_nothing_of_it() -> None:
    """The caps' bookkeeping on its own: which stream a new one ends, and that an ended
    stream is no longer woken or counted anywhere."""
    import asyncio

    from fracas.web.broker import Broker

    broker = Broker(per_link=2, per_address=3)
    broker._hooked = True  # no signal handlers in the test process

    async def scenario() -> None:
        a1 = broker.open("e", "link-a", "10.0.0.1")
        a2 = broker.open("e", "link-a", "10.0.0.2")
        a3 = broker.open("e", "link-a", "10.0.0.3")  # the link's third: a1 ends
        assert (a1.ended, a2.ended, a3.ended) == (True, False, False)
        b1 = broker.open("f", "link-b", "10.0.0.2")
        b2 = broker.open("f", "link-c", "10.0.0.2")
        assert not a2.ended  # the address's third: within its cap
        b3 = broker.open("f", "link-d", "10.0.0.2")  # its fourth: a2, its oldest, ends
        assert a2.ended and not (b1.ended or b2.ended or b3.ended)
        assert broker.open_streams() == 4
        broker.changed("e")
        await asyncio.sleep(0)
        assert a3.wake.is_set() and not b1.wake.is_set()
        for stream in (a3, b1, b2, b3):
            broker.close(stream)
        assert broker.open_streams() == 0
        assert not (broker.waiters or broker.by_link or broker.by_address)

    asyncio.run(scenario())
