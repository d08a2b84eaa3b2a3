"""Reading a store: its encounters, links and log lines, on each thread's own connection."""

from __future__ import annotations

import json
import sqlite3
import threading
from hmac import compare_digest
from typing import Any

from fracas.core.encounter import Encounter
from fracas.scenario.logs import encounter_from_log
from fracas.store.records import (
    ENTRIES_DECODED,
    EncounterInfo,
    Link,
    LogEntry,
    UnknownEncounterError,
    header_from_json,
    info_of,
    veil_set,
)
from fracas.store.schema import open_reader
from fracas.store.text import viewers_of

__all__ = ["StoreReader"]


class StoreReader:
    """What a store file holds, read on a read-only connection per thread (in WAL mode a
    read never waits for a commit).

    The reading half of :class:`~fracas.store.EventStore`: listings, links, log lines
    and the exported log, and an encounter rebuilt from its rows.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        # Log entries already decoded, by their whole stored row (see :meth:`entries`).
        self._decoded: dict[tuple[Any, ...], LogEntry] = {}
        # Each encounter's non-GM viewers (its links never change once made).
        self._viewer_sets: dict[str, list[tuple[str, str]]] = {}

    def _reader(self) -> sqlite3.Connection:
        """This thread's read-only connection."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = open_reader(self.path)
            with self._readers_lock:
                self._readers.append(conn)
        return conn

    def _close_readers(self) -> None:
        with self._readers_lock:
            readers, self._readers = self._readers, []
        for conn in readers:
            conn.close()

    def encounters(self, include_archived: bool = False) -> list[EncounterInfo]:
        """Every stored encounter, newest first (archived ones only when asked)."""
        query = "SELECT * FROM encounters"
        if not include_archived:
            query += " WHERE archived = 0"
        rows = self._reader().execute(query + " ORDER BY created DESC, id").fetchall()
        return [info_of(r) for r in rows]

    def info(self, enc_id: str) -> EncounterInfo:
        """The listing of one encounter; raises :class:`UnknownEncounterError`."""
        row = self._reader().execute("SELECT * FROM encounters WHERE id = ?", (enc_id,)).fetchone()
        if row is None:
            raise UnknownEncounterError(f"no encounter {enc_id!r} is stored")
        return info_of(row)

    def links(self, enc_id: str) -> list[Link]:
        """The secret links of an encounter: GM, spectators, one per side, then the seats
        (oldest first)."""
        reader = self._reader()
        rows = reader.execute(
            "SELECT * FROM links WHERE encounter_id = ? ORDER BY role, side",
            (enc_id,)).fetchall()
        found = [Link(r["encounter_id"], r["role"], r["side"], r["token"]) for r in rows]
        seats = reader.execute("SELECT * FROM seats WHERE encounter_id = ? ORDER BY created, token",
                               (enc_id,)).fetchall()
        found += [Link(r["encounter_id"], "player", r["side"], r["token"],
                       tuple(json.loads(r["combatants"]))) for r in seats]
        return found

    def find_link(self, enc_id: str, token: str) -> Link | None:
        """The link of ``enc_id`` whose token is ``token``, compared in constant time."""
        found = None
        for link in self.links(enc_id):
            if compare_digest(link.token.encode(), token.encode()):
                found = link
        return found

    def entries(self, enc_id: str, start: int = 0) -> list[LogEntry]:
        """The stored events from position ``start`` on, with their readable text and veil.

        Rows read before are not decoded again (a page shows the newest sixty lines at
        every change).  The entries are shared: read them, do not change their ``data``.
        """
        rows = self._reader().execute(
            "SELECT seq, kind, hidden, payload, text, veil FROM events"
            " WHERE encounter_id = ? AND seq >= ? ORDER BY seq", (enc_id, start)).fetchall()
        decoded = self._decoded
        out: list[LogEntry] = []
        for seq, kind, hidden, payload, text, veiled in rows:
            key = (enc_id, seq, kind, hidden, payload, text, veiled)
            entry = decoded.get(key)
            if entry is None:
                entry = LogEntry(seq, kind, bool(hidden), text or "", json.loads(payload),
                                 veil_set(veiled))
                if len(decoded) >= ENTRIES_DECODED:
                    decoded.clear()
                decoded[key] = entry
            out.append(entry)
        return out

    def last_seen(self, enc_id: str, viewer: str | None) -> int:
        """The position of the newest line ``viewer`` may read (``-1``: none)."""
        rows = self._reader().execute(
            "SELECT seq, hidden, veil FROM events WHERE encounter_id = ?"
            " ORDER BY seq DESC", (enc_id,))
        for row in rows:
            entry = LogEntry(row["seq"], "", bool(row["hidden"]), ".", {},
                             veil_set(row["veil"]))
            if entry.seen_by(viewer):
                return int(row["seq"])
        return -1

    def export_log(self, enc_id: str) -> str:
        """The fight as JSON lines: a header line then one event a line (GM's full log)."""
        row = self._reader().execute("SELECT header FROM encounters WHERE id = ?",
                                     (enc_id,)).fetchone()
        if row is None:
            raise UnknownEncounterError(f"no encounter {enc_id!r} is stored")
        payloads = [r["payload"] for r in self._reader().execute(
            "SELECT payload FROM events WHERE encounter_id = ? ORDER BY seq", (enc_id,))]
        return "".join(line + "\n" for line in [row["header"], *payloads])

    def _viewers(self, enc_id: str) -> list[tuple[str, str]]:
        """The encounter's non-GM viewers (read once: links never change once made)."""
        found = self._viewer_sets.get(enc_id)
        if found is None:
            rows = self._reader().execute("SELECT role, side FROM links WHERE encounter_id = ?"
                                          " AND role != 'gm'", (enc_id,)).fetchall()
            found = self._viewer_sets[enc_id] = viewers_of(
                sorted(r["side"] for r in rows if r["role"] == "player"))
        return found

    def _rebuild(self, enc_id: str, header_text: str) -> Encounter[Any]:
        """The encounter replayed from its stored rows."""
        header = header_from_json(header_text, f"encounter {enc_id}")
        rows = self._reader().execute("SELECT seq, payload FROM events WHERE encounter_id = ?"
                                      " ORDER BY seq", (enc_id,)).fetchall()
        # The store's own rows, written by the engine: applied as they are, not re-verified.
        enc, _ = encounter_from_log(header, [(r["seq"], json.loads(r["payload"])) for r in rows],
                                    f"encounter {enc_id}", verify=False,
                                    where=lambda seq: f"encounter {enc_id} event {seq}: ")
        return enc
