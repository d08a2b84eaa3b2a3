"""Writing to the store: group commit, and the rows a change writes.

Every change (an applied action with all its events, an undo, a redo, a new encounter,
a seat) is a *job*: a function writing rows worked out beforehand, in the caller's
thread.  :class:`GroupCommit` runs the jobs of every thread that asks while a
transaction is being written in the next transaction, each in its own savepoint, so one
commit (one fsync with ``synchronous=FULL``) serves them all.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from fracas.core.encounter import Encounter
from fracas.core.events import Event, encode_event
from fracas.core.presentation import wins
from fracas.store.records import StaleRevisionError

__all__ = ["GroupCommit", "Job", "Row", "bump_of", "event_rows", "status_of", "write_events"]

#: A change, run inside a transaction on the writing connection.
Job = Callable[[sqlite3.Connection], None]

#: An event's row in the ``events`` table, less its encounter: seq, kind, hidden, payload,
#: text, veil.
Row = tuple[int, str, int, str, str, str]


@dataclass(slots=True, eq=False)
class _Write:
    """One change waiting for its turn in a group commit, and how it went."""

    job: Job
    done: bool = False
    error: BaseException | None = None


class GroupCommit:
    """The store's one writing connection and the queue of changes waiting to use it.

    ``lock`` is held around each statement or transaction on ``db``; ``commits`` and
    ``changes`` count the transactions and changes written so far (their ratio is how
    many changes shared each commit's fsync).
    """

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.lock = threading.RLock()
        self.queued: list[_Write] = []
        self.writing = False
        self._turn = threading.Condition(threading.Lock())
        self.commits = 0
        self.changes = 0

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A transaction of its own, outside the group (the caller holds ``lock``)."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def write(self, job: Job) -> None:
        """Run ``job`` in a transaction, returning only once that transaction is durable.

        The changes of every thread that asks while a transaction is being written
        (other encounters' actions, undos, new tables) wait for it to end, then the
        first of them writes all of them in the next transaction, each in its own
        savepoint, so the store's write rate is not one fsync a change.  A change that
        fails (its revision check, say) is rolled back alone and its error raised in
        its own thread; if the commit fails, every change in it fails.  Nothing is
        acknowledged before the ``COMMIT`` that holds it returned.  Call it with no
        connection lock held (the encounter's lock is fine: jobs only write rows that
        were worked out beforehand).
        """
        mine = _Write(job)
        with self._turn:
            self.queued.append(mine)
            while self.writing and not mine.done:
                self._turn.wait()
            batch: list[_Write] = []
            if not mine.done:
                self.writing = True
                batch, self.queued = self.queued, []
        if batch:
            try:
                self._write_batch(batch)
            except BaseException as exc:
                for w in batch:
                    if w.error is None:
                        w.error = _again(exc)
                raise
            finally:
                with self._turn:
                    self.writing = False
                    for w in batch:
                        w.done = True
                    self._turn.notify_all()
        if mine.error is not None:
            raise mine.error

    def _write_batch(self, batch: list[_Write]) -> None:
        """One transaction for the changes in ``batch`` (each in a savepoint when several)."""
        with self.lock:
            db = self.db
            try:
                db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                for w in batch:
                    w.error = _again(exc)
                return
            written = 0
            try:
                if len(batch) == 1:
                    # A change alone needs no savepoint: if it fails, the transaction
                    # (nothing else) is rolled back (two statements fewer).
                    try:
                        batch[0].job(db)
                    except Exception as exc:
                        db.execute("ROLLBACK")
                        batch[0].error = exc
                        return
                    written = 1
                else:
                    for w in batch:
                        db.execute("SAVEPOINT change")
                        try:
                            w.job(db)
                        except Exception as exc:  # the change fails alone
                            db.execute("ROLLBACK TO change")
                            w.error = exc
                        else:
                            written += 1
                        db.execute("RELEASE change")
                db.execute("COMMIT")
            except BaseException as exc:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                for w in batch:
                    if w.error is None:
                        w.error = _again(exc)
                return
            self.commits += 1
            self.changes += written


def _again(exc: BaseException) -> BaseException:
    """A fresh copy of a failed commit's error for each change it held (each thread raises
    its own)."""
    try:
        return type(exc)(*exc.args)
    except Exception:
        return exc


def status_of(enc: Encounter[Any]) -> str:
    """The line the list of encounters shows for ``enc``: whose decision, or who won."""
    outcome = enc.outcome()
    if outcome is None:
        actor = enc.current_actor()
        return f"round {enc.ruleset.round_number(enc.state)}, {actor} to decide"
    return f"over: {wins(outcome.winner or 'nobody')} ({outcome.reason})"


def event_rows(events: Sequence[Event], start: int, texts: Sequence[str],
               veils: Sequence[str]) -> list[Row]:
    """The rows of ``events``, the first at position ``start``, with their texts and veils."""
    return [(start + i, e.kind, int(e.hidden), json.dumps(encode_event(e)), t, v)
            for i, (e, t, v) in enumerate(zip(events, texts, veils, strict=True))]


def write_events(db: sqlite3.Connection, enc_id: str, rows: Sequence[Row]) -> None:
    """Insert an encounter's event rows."""
    db.executemany(
        "INSERT INTO events (encounter_id, seq, kind, hidden, payload, text, veil)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)", [(enc_id, *row) for row in rows])


def bump_of(enc_id: str, enc: Encounter[Any], revision: int) -> Job:
    """The optimistic check: move to ``revision + 1`` only if nobody else did first (the
    encounter's new length and status are worked out now, written by the returned call)."""
    values = (len(enc.log), status_of(enc), time.time(), enc_id, revision)

    def bump(db: sqlite3.Connection) -> None:
        cur = db.execute(
            "UPDATE encounters SET revision = revision + 1, length = ?, status = ?, updated = ?"
            " WHERE id = ? AND revision = ?", values)
        if cur.rowcount != 1:
            actual = db.execute("SELECT revision FROM encounters WHERE id = ?",
                                (enc_id,)).fetchone()
            raise StaleRevisionError(revision, int(actual[0]) if actual else -1)

    return bump
