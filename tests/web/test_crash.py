"""Durability: a real server killed with SIGKILL mid-loop loses no acknowledged action.

Scripts apply actions in a loop over HTTP, one per table on three tables at once (so
their commits share fsyncs), and note each one the server acknowledged; another thread
kills the server process at a random moment.
After each kill the stored log must hold exactly the acknowledged decisions
(plus, at most, the one in flight when the kill landed, whose commit may have
finished before its answer was sent), and replaying the stored log must give
the state the restarted server reports.
"""

from __future__ import annotations

import random
import sqlite3
import threading
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
KILLS = 30
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


def act_until_killed(url: str, rng: random.Random, ready: threading.Barrier | None = None
                     ) -> tuple[list[str], str | None]:
    """Act in a loop until the server dies; returns (acknowledged actions, the one in flight).

    ``ready`` is passed once the table is loaded (the kill is timed from there)."""
    acked: list[str] = []
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
        clients = [threading.Thread(target=_play, args=(urls[n], seeds[n], found, n, ready))
                   for n in range(TABLES)]
        killer = threading.Timer(rng.uniform(0.5, 1.5), server.kill)
        try:
            for client in clients:
                client.start()
            # Every table is loaded (a long log takes a while to replay): the loops run.
            ready.wait(timeout=60)
            killer.start()
            for client in clients:
                client.join(timeout=60)
        finally:
            killer.cancel()
            server.kill()
        for n, info in enumerate(infos):
            acked, in_flight = found[n]
            assert len(acked) > 2, f"cycle {cycle}: the loop barely ran ({len(acked)} actions)"
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
          n: int, ready: threading.Barrier) -> None:
    found[n] = act_until_killed(url, random.Random(seed), ready)


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
