"""Another table's latency and the server's memory while one spectator link opens 1,000
push streams (issue 34, item 2).

Prepares two tables (AD&D ``bottleneck``) in a fresh database, starts ``fracas serve`` on
127.0.0.1, and times 200 GETs of the second table's panel while quiet; then opens 1,000
streams on the first table's spectator link (from twenty loopback addresses, so that the
per-address connection share is not what stops them) while the first table's AI plays
a turn every 0.2 s (each turn a push to every open stream) and times 200 GETs meanwhile
and 200 more once every stream is open; then closes every stream and reads the
server's memory once more.  ``--caps off`` runs the server with the stream caps lifted
(as before issue 34's item 2); ``--streams 0`` is the AI's play alone.  Run:

    PYTHONPATH=src .venv/bin/python benchmarks/push_flood.py [--caps off] [--streams N]
"""

from __future__ import annotations

import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import psutil
from fastapi.testclient import TestClient

from fracas.cli.serve import default_example_dirs
from fracas.store import EventStore
from fracas.web import create_app

SCENARIO = "examples/adnd/bottleneck.yaml"
STREAMS = 1_000
SOURCES = 20


def _tables(db: Path) -> list[dict[str, str]]:
    """Two tables of SCENARIO; each a mapping of link role to path."""
    store = EventStore(db)
    try:
        app = create_app(store, default_example_dirs())
        home = f"/gm/{app.state.admin_key}"
        made = []
        with TestClient(app) as client:
            for seed in (1, 2):
                found = re.search(r'name="csrf" value="([^"]+)"', client.get(home).text)
                assert found is not None
                answer = client.post(f"{home}/create", follow_redirects=False, data={
                    "csrf": found.group(1), "bundled": SCENARIO, "seed": str(seed)})
                gm = answer.headers["location"]
                links = {"gm": gm}
                page = client.get(gm).text
                links.update(re.findall(r'class="link-([a-z-]+)" href="([^"]+)"', page))
                made.append(links)
        return made
    finally:
        store.close()


def _server(db: Path, port: int, caps: bool) -> subprocess.Popen[bytes]:
    lift = "" if caps else (
        "import fracas.web.broker as b\n"
        "b.Broker.bound = lambda self, link, address: None\n"
        "b.Broker.__init__.__defaults__ = (10**9, 10**9)\n")
    code = lift + "import sys\nfrom fracas.cli.app import main\nmain(sys.argv[1:])\n"
    return subprocess.Popen([sys.executable, "-c", code, "serve", "--db", str(db), "--port",
                             str(port), "--max-connections", "1500"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _times(url: str, n: int = 200) -> list[float]:
    out = []
    with httpx.Client(timeout=10) as client:
        for _ in range(n):
            start = time.perf_counter()
            try:
                client.get(url)
                out.append(time.perf_counter() - start)
            except httpx.TransportError:
                out.append(10.0)
    return out


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] * 1000


def _mb(proc: psutil.Process) -> float:
    return float(proc.memory_info().rss) / 2**20


def _play(base: str, gm: str, stop: threading.Event) -> None:
    """The first table's AI plays a turn every 0.2 s (each a push to its streams)."""
    with httpx.Client(base_url=base, timeout=30) as client:
        while not stop.is_set():
            state = client.get(f"{gm}/state.json").json()
            client.post(f"{gm}/ai", data={"csrf": state["csrf"], "rev": str(state["revision"])},
                        headers={"accept": "application/json"})
            stop.wait(0.2)


def main() -> None:
    caps = "--caps" not in sys.argv or sys.argv[sys.argv.index("--caps") + 1] != "off"
    streams = int(sys.argv[sys.argv.index("--streams") + 1]) if "--streams" in sys.argv \
        else STREAMS
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "f.sqlite"
        first, second = _tables(db)
        proc = _server(db, port, caps)
        base = f"http://127.0.0.1:{port}"
        other = f"{base}{second['gm']}/panel"
        try:
            for _ in range(300):
                try:
                    httpx.get(base + "/", timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            server = psutil.Process(proc.pid)
            quiet = _times(other)
            mb_quiet = _mb(server)
            held: list[socket.socket] = []
            stop = threading.Event()
            peak = [mb_quiet]

            def flood() -> None:
                for i in range(streams):
                    sock = socket.socket()
                    sock.bind((f"127.0.5.{i % SOURCES + 1}", 0))
                    sock.settimeout(30)
                    try:
                        sock.connect(("127.0.0.1", port))
                        sock.sendall(f"GET {first['spectator']}/events HTTP/1.1\r\n"
                                     "Host: x\r\n\r\n".encode())
                    except OSError:
                        sock.close()
                        continue
                    held.append(sock)

            def watch() -> None:
                while not stop.wait(0.1):
                    peak[0] = max(peak[0], _mb(server))

            workers = [threading.Thread(target=flood),
                       threading.Thread(target=_play, args=(base, first["gm"], stop)),
                       threading.Thread(target=watch)]
            for worker in workers:
                worker.start()
            flooded = _times(other)
            workers[0].join()
            flooded += _times(other)  # with every stream open (or ended by the cap)
            stop.set()
            for worker in workers[1:]:
                worker.join()
            mb_flooded = peak[0]
            for sock in held:
                sock.close()
            time.sleep(5)  # the server notices the closed sockets
            mb_after = _mb(server)
            print(f"stream caps {'on' if caps else 'off'}: other table's panel p95 quiet "
                  f"{_p95(quiet):.1f} ms, under {streams:,} streams on one link "
                  f"{_p95(flooded):.1f} ms (max {max(flooded) * 1000:.0f} ms, failed "
                  f"{sum(t >= 10 for t in flooded)}); server memory {mb_quiet:.0f} MB quiet, "
                  f"peak {mb_flooded:.0f} MB flooded, {mb_after:.0f} MB after the streams closed")
        finally:
            proc.terminate()
            proc.wait(timeout=30)


if __name__ == "__main__":
    main()
