"""Group commit: changes that queue while a transaction is written share the next one."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from fracas.scenario import Scenario
from fracas.store import EventStore


def _wait_for(condition: Callable[[], bool]) -> None:
    """Wait (bounded) until ``condition`` holds; the test fails if it never does."""
    deadline = time.monotonic() + 30
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
