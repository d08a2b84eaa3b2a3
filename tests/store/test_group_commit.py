"""Group commit: changes that queue while a transaction is written share the next one."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from fracas.scenario import Scenario
from fracas.store import EventStore


def _wait_for(condition: Callable[[], bool]) -> None:
    """Wait (bounded) until ``condition`` holds; the test fails if it never does."""
    deadline = time.monotonic() + 120  # allows a machine several times overloaded
    while not condition():
        assert time.monotonic() < deadline, "the writers never queued"
        time.sleep(0.005)


@contextmanager
def _queued_behind_a_commit(store: EventStore, writers: list[Callable[[], object]]
                            ) -> Iterator[list[BaseException]]:
    """Run ``writers`` in threads: the first one's commit is held up (the connection's lock
    is taken here) until every other one has queued behind it."""
    errors: list[BaseException] = []

    def run(write: Callable[[], object]) -> None:
        try:
            write()
        except BaseException as exc:  # reported to the test
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(w,)) for w in writers]
    with store._lock:
        threads[0].start()
        _wait_for(lambda: store._writing)
        for t in threads[1:]:
            t.start()
        _wait_for(lambda: len(store._queued) == len(threads) - 1)
    for t in threads:
        t.join(timeout=60)
    yield errors


def _wait(enc_id: str, store: EventStore) -> Callable[[], object]:
    return lambda: store.apply(enc_id, 0, lambda enc: enc.ruleset.parse_action("ann wait"))


def _undo(enc_id: str, store: EventStore) -> Callable[[], object]:
    return lambda: store.undo(enc_id, 1)


def test_changes_of_several_encounters_share_one_commit(store: EventStore,
                                                        duel: Scenario) -> None:
    tables = [store.create(duel, seed=n) for n in range(6)]
    commits, changes = store.commits, store.changes
    with _queued_behind_a_commit(store, [_wait(t.id, store) for t in tables]) as errors:
        assert errors == []
    # The first change had the transaction to itself; the five queued behind it shared one.
    assert (store.commits - commits, store.changes - changes) == (2, 6)
    for t in tables:
        info = store.info(t.id)
        assert (info.revision, info.length) == (1, len(store.entries(t.id)))
    # What was acknowledged is on disk: a second store on the file reads it all.
    other = EventStore(store.path)
    try:
        assert [other.info(t.id).revision for t in tables] == [1] * 6
    finally:
        other.close()


def test_a_change_that_fails_in_a_shared_commit_fails_alone(store: EventStore,
                                                            duel: Scenario) -> None:
    tables = [store.create(duel, seed=n) for n in range(3)]

    def broken() -> None:
        def job(db: sqlite3.Connection) -> None:
            db.execute("UPDATE encounters SET title = 'broken' WHERE id = ?", (tables[1].id,))
            raise RuntimeError("this change fails")
        store._write(job)

    writers = [_wait(tables[0].id, store), broken, _wait(tables[1].id, store),
               _wait(tables[2].id, store)]
    with _queued_behind_a_commit(store, writers) as errors:
        assert [str(e) for e in errors] == ["this change fails"]
    assert [store.info(t.id).revision for t in tables] == [1, 1, 1]
    assert store.info(tables[1].id).title != "broken"


@pytest.mark.parametrize("n", [1, 8])
def test_undo_redo_and_new_tables_go_through_the_same_commits(store: EventStore,
                                                              duel: Scenario, n: int) -> None:
    tables = [store.create(duel, seed=s) for s in range(n)]
    for t in tables:
        _wait(t.id, store)()
    undo = [_undo(t.id, store) for t in tables]
    with _queued_behind_a_commit(store, [*undo, lambda: store.create(duel, seed=99)]) as errors:
        assert errors == []
    assert [store.info(t.id).revision for t in tables] == [2] * n
    assert len(store.encounters()) == n + 1


def _random_choice(enc: Any) -> Any:
    from fracas.core.policy import RandomPolicy
    from fracas.store import decision_rng

    return RandomPolicy().choose(enc.request(decision_rng(7, len(enc.log), "policy")))


def test_decisions_of_one_table_applied_together_share_one_commit(store: EventStore,
                                                                   duel: Scenario) -> None:
    one_by_one = store.create(duel, seed=5)
    together = store.create(duel, seed=5)
    for revision in range(12):
        store.apply(one_by_one.id, revision, _random_choice)
    commits = store.commits
    revision, made = store.apply_many(together.id, 0, _random_choice, decisions=12,
                                      seconds=60)
    assert (revision, made, store.commits - commits) == (12, 12, 1)
    # The same dice, events, lines and veils as twelve separate applies.
    assert [(e.seq, e.kind, e.text, e.data, e.veil) for e in store.entries(together.id)] == \
        [(e.seq, e.kind, e.text, e.data, e.veil) for e in store.entries(one_by_one.id)]
    reopened = EventStore(store.path)
    try:
        with reopened.live(together.id) as (enc, at):
            assert at == 12
            assert enc.state == store_state(store, one_by_one.id)
    finally:
        reopened.close()


def store_state(store: EventStore, enc_id: str) -> Any:
    with store.live(enc_id) as (enc, _):
        return enc.state


def test_a_failing_decision_keeps_those_before_it(store: EventStore, duel: Scenario) -> None:
    info = store.create(duel, seed=5)
    calls = []

    def choose(enc: Any) -> Any:
        calls.append(len(enc.log))
        if len(calls) == 4:
            raise RuntimeError("the policy broke")
        return _random_choice(enc)

    with pytest.raises(RuntimeError, match="the policy broke"):
        store.apply_many(info.id, 0, choose, decisions=10, seconds=60)
    assert store.info(info.id).revision == 3
    assert sum(e.kind == "decision" for e in store.entries(info.id)) == 3
    with store.live(info.id) as (enc, revision):
        assert revision == 3 and len(enc.log) == store.info(info.id).length
