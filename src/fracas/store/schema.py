"""The store's tables, opening its file, and bringing an older file up to date."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from fracas.core.errors import FracasError
from fracas.store.records import StoreOpenError
from fracas.store.text import veil_all

if TYPE_CHECKING:
    from fracas.store.sqlite import EventStore

__all__ = ["SCHEMA", "backfill_veils", "open_reader", "open_writer"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS encounters (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    header TEXT NOT NULL,
    seed INTEGER NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    archived INTEGER NOT NULL DEFAULT 0,
    revision INTEGER NOT NULL DEFAULT 0,
    length INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS events (
    encounter_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    hidden INTEGER NOT NULL,
    payload TEXT NOT NULL,
    text TEXT,
    veil TEXT,
    PRIMARY KEY (encounter_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS redo (
    encounter_id TEXT NOT NULL,
    depth INTEGER NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (encounter_id, depth)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS links (
    encounter_id TEXT NOT NULL,
    role TEXT NOT NULL,
    side TEXT NOT NULL,
    token TEXT NOT NULL,
    PRIMARY KEY (encounter_id, role, side)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seats (
    encounter_id TEXT NOT NULL,
    token TEXT NOT NULL,
    side TEXT NOT NULL,
    combatants TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (encounter_id, token)
) WITHOUT ROWID;
"""


def open_writer(path: str) -> sqlite3.Connection:
    """The writing connection of the store file ``path`` (WAL, full sync), its tables
    made and brought up to date; :class:`StoreOpenError` when it cannot be."""
    if Path(path).is_dir():
        raise StoreOpenError(f"{path}: cannot open the database: it is a folder")
    try:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30.0)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(SCHEMA)
        columns = {r["name"] for r in db.execute("PRAGMA table_info(events)")}
        if "veil" not in columns:  # a file from before veils were kept
            db.execute("ALTER TABLE events ADD COLUMN veil TEXT")
    except sqlite3.Error as exc:
        raise StoreOpenError(f"{path}: cannot open the database: {exc}") from None
    return db


def open_reader(path: str) -> sqlite3.Connection:
    """A read-only connection to the store file (in WAL mode reads never wait for a commit)."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30.0)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA query_only=1")
    return conn


def backfill_veils(store: EventStore) -> None:
    """Stores written before veils existed: work them out once by replaying each log."""
    writer = store._writer
    with writer.lock:
        ids = [r[0] for r in writer.db.execute(
            "SELECT DISTINCT encounter_id FROM events WHERE veil IS NULL")]
    for enc_id in ids:
        try:
            with writer.lock:
                row = writer.db.execute("SELECT header FROM encounters WHERE id = ?",
                                        (enc_id,)).fetchone()
            if row is None:
                continue
            enc = store._rebuild(enc_id, row["header"])
            veils = veil_all(enc.ruleset, enc.initial_state, enc.log,
                             [e.text for e in store.entries(enc_id)], store._viewers(enc_id))
            with writer.lock, writer.transaction() as db:
                db.executemany("UPDATE events SET veil = ? WHERE encounter_id = ? AND seq = ?",
                               [(v, enc_id, i) for i, v in enumerate(veils)])
        except FracasError:
            continue
