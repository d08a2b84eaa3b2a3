"""Durability: a real server killed with SIGKILL mid-loop loses no acknowledged action.

Scripts apply actions in a loop over HTTP, one per table on three tables at once (so
their commits share fsyncs), and note each one the server acknowledged; another thread
kills the server process at a random moment, counted in work rather than time: once every
table has had a random number of actions acknowledged (so the kill lands mid-loop however
busy the machine is), while the other tables' requests are in flight.
After each kill the stored log must hold exactly the acknowledged decisions
(plus, at most, the one in flight when the kill landed, whose commit may have
finished before its answer was sent), and replaying the stored log must give
the state the restarted server reports.
"""

from __future__ import annotations

import random
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_server_process import ServerProcess

from fracas.core.encounter import Encounter
from fracas.core.events import decode_event
from fracas.core.ruleset import find_ruleset
from fracas.scenario import build_initial_state, parse_scenario
from fracas.store import EventStore
from fracas.store.sqlite import parse_log_text

pytestmark = pytest.mark.slow

#: How many times the server is killed (each time at a random moment of the action loop).
KILLS = 8
#: Tables played at once, one client each, in every cycle.
TABLES = 3

ENDLESS = """\
ruleset: toy
name: Endless duel
max_rounds: 1000000
fighters:
  - {name: ann, side: red, hp: 1000000}
  - {name: bob, side: blue, hp: 1000000}
"""


def stored_decisions(db: Path, enc_id: str) -> list[str]:
    store = EventStore(db)
    try:
        return [str(e.data["action"]) for e in store.entries(enc_id) if e.kind == "decision"]
    finally:
        store.close()


def act_until_killed(url: str, rng: random.Random, ready: threading.Barrier | None = None,
                     acked: list[str] | None = None) -> tuple[list[str], str | None]:
    """Act in a loop until the server dies; returns (acknowledged actions, the one in flight).

    ``ready`` is passed once the table is loaded; ``acked``, if given, is filled as the
    answers come (the killer watches it)."""
    acked = [] if acked is None else acked
    with httpx.Client(timeout=60.0) as client:
        state = client.get(f"{url}/state.json").json()
        if ready is not None:
            ready.wait(timeout=60)
        csrf, rev, actor = state["csrf"], state["revision"], state["actor"]
        # The toy's actions depend only on who decides (nobody falls): list them once each.
        known: dict[str, list[str]] = {}
        while True:
            if actor not in known:
                try:
                    known[actor] = client.get(f"{url}/actions.json").json()["actions"]
                except httpx.TransportError:
                    return acked, None
            actions = known[actor]
            action = actions[rng.randrange(len(actions))]
            try:
                answer = client.post(f"{url}/act", data={"csrf": csrf, "rev": str(rev),
                                                         "action": action},
                                     headers={"accept": "application/json"})
            except httpx.TransportError:
                return acked, action
            if answer.status_code != 200:
                raise AssertionError(f"the server refused {action}: {answer.text}")
            body: dict[str, Any] = answer.json()
            acked.append(action)
            rev, actor = body["revision"], body["actor"]


def replayed_view(exported: str) -> tuple[dict[str, Any], Any]:
    header, records = parse_log_text(exported, "export")
    ruleset = find_ruleset(header.ruleset)
    initial = build_initial_state(ruleset, header.scenario, source="export")
    events = [decode_event(data, ruleset) for _, data in records]
    enc = Encounter.replay(ruleset, initial, events)
    return ruleset.view(enc.state), enc.state


def test_sigkill_mid_loop_keeps_exactly_the_acknowledged_actions(tmp_path: Path) -> None:
    db = tmp_path / "crash.sqlite"
    store = EventStore(db)
    scenario = parse_scenario(ENDLESS, "endless.yaml")
    infos = [store.create(scenario, seed=17 + n) for n in range(TABLES)]
    gms = [next(link for link in store.links(i.id) if link.role == "gm") for i in infos]
    store.close()
    rng = random.Random(20261130)
    expected: dict[str, list[str]] = {i.id: [] for i in infos}
    for cycle in range(KILLS):
        server = ServerProcess(db)
        urls = [f"{server.url}/e/{i.id}/{gm.token}" for i, gm in zip(infos, gms, strict=True)]
        # One client per table, acting at once: their commits share fsyncs (group commit).
        found: dict[int, tuple[list[str], str | None]] = {}
        seeds = [rng.random() for _ in urls]
        ready = threading.Barrier(TABLES + 1)
        progress: list[list[str]] = [[] for _ in urls]
        clients = [threading.Thread(target=_play,
                                    args=(urls[n], seeds[n], found, n, ready, progress[n]))
                   for n in range(TABLES)]
        at_least = rng.randint(2, 8)
        killer = threading.Thread(target=_kill_after, args=(server, progress, at_least,
                                                            rng.uniform(0.0, 0.01)))
        try:
            for client in clients:
                client.start()
            # Every table is loaded (a long log takes a while to replay): the loops run.
            ready.wait(timeout=120)
            killer.start()
            for client in clients:
                client.join(timeout=300)
        finally:
            server.kill()
            killer.join(timeout=300)
        for n, info in enumerate(infos):
            acked, in_flight = found[n]
            assert len(acked) >= at_least, f"cycle {cycle}: killed early ({len(acked)} actions)"
            stored = stored_decisions(db, info.id)
            before = expected[info.id] + acked
            # The action in flight at the kill is either wholly stored or wholly absent.
            assert stored in (before, [*before, in_flight]), f"cycle {cycle}, table {n}"
            expected[info.id] = stored
        with sqlite3.connect(db) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

    server = ServerProcess(db)
    try:
        for info, gm in zip(infos, gms, strict=True):
            _check_restarted(db, f"{server.url}/e/{info.id}/{gm.token}", info.id,
                             expected[info.id])
    finally:
        server.kill()


def _play(url: str, seed: float, found: dict[int, tuple[list[str], str | None]],
          n: int, ready: threading.Barrier, acked: list[str]) -> None:
    found[n] = act_until_killed(url, random.Random(seed), ready, acked)


def _kill_after(server: ServerProcess, progress: list[list[str]], at_least: int,
                pause: float) -> None:
    """SIGKILL once every table has ``at_least`` acknowledged actions (then ``pause`` more)."""
    while server.proc.poll() is None and min(len(acked) for acked in progress) < at_least:
        time.sleep(0.001)
    time.sleep(pause)
    server.kill()


def _check_restarted(db: Path, url: str, enc_id: str, expected: list[str]) -> None:
    """The restarted server reports the replayed log's state, and the table plays on."""
    with httpx.Client(timeout=60.0) as client:
        state = client.get(f"{url}/state.json").json()
        exported = client.get(f"{url}/export").text
    view, replayed_state = replayed_view(exported)
    assert state["view"] == view
    reopened = EventStore(db)
    try:
        with reopened.live(enc_id) as (enc, revision):
            assert enc.state == replayed_state
            assert revision == state["revision"]
        assert [str(e.data["action"]) for e in reopened.entries(enc_id)
                if e.kind == "decision"] == expected
    finally:
        reopened.close()
    # Every decision is whole: its events end where the next decision begins.
    with httpx.Client(timeout=60.0) as client:
        listed = client.get(f"{url}/actions.json").json()["actions"]
        answer = client.post(f"{url}/act", data={"csrf": state["csrf"],
                                                 "rev": str(state["revision"]),
                                                 "action": listed[0]},
                             headers={"accept": "application/json"})
    assert answer.status_code == 200
