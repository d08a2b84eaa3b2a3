"""Isolated: one table's long work does not hold up another; changes are pushed at once.

A real server (uvicorn in a thread on 127.0.0.1).  The figures are printed (run
with ``-s``) and recorded in ``src/fracas/web/README.md``; nothing here asserts a
time: what is asserted is counted (answers served while the long work ran, one push
per change), so the tests hold on a machine several times overloaded.
"""

from __future__ import annotations

import re
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_helpers import SCENARIOS
from web_live_server import LiveServer

from fracas.web.autoplay import AUTO_DECISIONS

pytestmark = pytest.mark.slow

ENDLESS = """\
ruleset: toy
name: Endless duel
max_rounds: 1000000
fighters:
  - {name: ann, side: red, hp: 1000000}
  - {name: bob, side: blue, hp: 1000000}
"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    for name, text in {**SCENARIOS, "endless.yaml": ENDLESS}.items():
        (folder / name).write_text(text, encoding="utf-8")
    live = LiveServer(tmp_path / "iso.sqlite", [folder])
    yield live
    live.stop()


def _create(client: httpx.Client, server: LiveServer, name: str) -> dict[str, str]:
    home = client.get(server.home).text
    csrf = re.search(r'name="csrf" value="([^"]+)"', home)
    assert csrf is not None
    answer = client.post(f"{server.home}/create", data={
        "csrf": csrf.group(1), "bundled": f"scenarios/{name}", "seed": "1"})
    assert answer.status_code == 303
    gm = answer.headers["location"]
    links = {"gm": gm}
    for role, url in re.findall(r'class="link-([a-z-]+)" href="([^"]+)"', client.get(gm).text):
        links[role] = url
    return links


def test_play_to_the_end_on_one_table_does_not_hold_up_another(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url, timeout=60.0, follow_redirects=False) as client:
        a = _create(client, server, "endless.yaml")
        b = _create(client, server, "duel.yaml")
        state = client.get(f"{a['gm']}/state.json").json()
        result: dict[str, Any] = {}

        def auto() -> None:
            # "Play to the end" again and again (each stops at its cap of decisions, a few
            # seconds on a quiet machine) until the other table has been read for 3 s.
            with httpx.Client(base_url=server.url, timeout=60.0) as other:
                started = time.monotonic()
                runs: list[tuple[float, int, httpx.Response]] = []
                revision = 0
                while not runs or time.monotonic() - started < 3.0:
                    began = time.monotonic()
                    answer = other.post(f"{a['gm']}/auto",
                                        data={"csrf": state["csrf"], "rev": str(revision)},
                                        headers={"accept": "application/json"})
                    runs.append((time.monotonic() - began, revision, answer))
                    if answer.status_code != 200:
                        break
                    revision = answer.json()["revision"]
                result["seconds"] = time.monotonic() - started
                result["runs"] = runs

        runner = threading.Thread(target=auto)
        runner.start()
        time.sleep(0.5)
        latencies = []
        while runner.is_alive() and len(latencies) < 2000:
            started = time.perf_counter()
            page = client.get(b["spectator"] + "/panel?rev=x")
            latencies.append(time.perf_counter() - started)
            assert page.status_code == 200
            time.sleep(0.02)
        runner.join()
    # Each long run really ran: to its 20 s limit, or (on a quiet machine, in a few
    # seconds) to its cap of decisions; the other table answered all along.
    for seconds, before, answer in result["runs"]:
        assert answer.status_code == 200
        assert answer.json()["revision"] == before + AUTO_DECISIONS or seconds > 15
    assert result["seconds"] > 3.0
    # Served alongside, not in turn: a server that ran one table's work before the next
    # request would answer about one panel per run of play.
    assert len(latencies) > 30 and len(latencies) >= 10 * len(result["runs"])
    latencies.sort()
    p50 = statistics.median(latencies) * 1000
    p95 = latencies[int(0.95 * len(latencies))] * 1000
    print(f"\nanother table during {result['seconds']:.1f} s of play to the end "
          f"({len(result['runs'])} run(s) of {AUTO_DECISIONS} decisions or 20 s): "
          f"{len(latencies)} panels, p50 {p50:.1f} ms, p95 {p95:.1f} ms, "
          f"max {latencies[-1] * 1000:.1f} ms")


def test_a_change_is_pushed_to_the_event_stream(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url, timeout=60.0, follow_redirects=False) as client:
        links = _create(client, server, "duel.yaml")
        gm = client.get(f"{links['gm']}/state.json").json()
        delays = []
        with client.stream("GET", f"{links['spectator']}/events") as stream:
            lines = stream.iter_lines()
            seen = [next(lines) for _ in range(4)]  # retry, event, data, blank
            version = next(line for line in seen if line.startswith("data:"))
            for n in range(10):
                acting = httpx.Client(base_url=server.url, timeout=60.0)
                started = time.perf_counter()
                answer = acting.post(f"{links['gm']}/act", data={
                    "csrf": gm["csrf"], "rev": str(n), "action": "wait"})
                acted = time.perf_counter()
                assert answer.status_code in (200, 303)
                for line in lines:
                    if line.startswith("data:") and line != version:
                        version = line
                        break
                else:
                    pytest.fail(f"the stream ended before change {n + 1} was pushed")
                pushed = time.perf_counter()
                delays.append((pushed - started, pushed - acted))
                acting.close()
    commit_to_push = [d for d, _ in delays]
    print(f"\npush to a spectator's stream, from the POST: median "
          f"{statistics.median(commit_to_push) * 1000:.1f} ms, max "
          f"{max(commit_to_push) * 1000:.1f} ms")
    assert len(commit_to_push) == 10  # every change reached the open stream, unasked


def test_an_open_event_stream_does_not_keep_the_server_from_stopping(tmp_path: Path) -> None:
    import signal
    import subprocess

    from web_server_process import ServerProcess

    from fracas.scenario import parse_scenario
    from fracas.store import EventStore

    db = tmp_path / "stop.sqlite"
    store = EventStore(db)
    info = store.create(parse_scenario(ENDLESS, "endless.yaml"), seed=1)
    spectator = next(link for link in store.links(info.id) if link.role == "spectator")
    store.close()
    server = ServerProcess(db)
    try:
        with httpx.Client(base_url=server.url, timeout=30.0) as client, client.stream(
                "GET", f"/e/{info.id}/{spectator.token}/events") as stream:
            assert next(stream.iter_lines()).startswith("retry:")
            server.proc.send_signal(signal.SIGTERM)
            # A stream lasts 60 s; the server stops on SIGTERM without waiting for it
            # (eventually: the wait allows a busy machine, and is not a measurement).
            server.proc.wait(timeout=50)
    except subprocess.TimeoutExpired:
        pytest.fail("the server waited for the event stream to end")
    finally:
        server.kill()
