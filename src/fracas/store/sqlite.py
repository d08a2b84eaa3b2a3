"""A durable event store for encounters: one SQLite file in WAL mode.

Each encounter is stored as its log header (rule set, scenario, seed) and the
events of its log, in order.  The live :class:`~fracas.core.encounter.Encounter`
is never stored: it is rebuilt by replaying the events (``Encounter.replay``)
and kept in a small LRU cache.  Every change to a log (an applied action with
all its events, an undo, a redo) is one SQLite transaction guarded by the
encounter's *revision*: the sequence number of changes the caller last saw.
A caller holding an old revision is refused with :class:`StaleRevisionError`,
so two clients can never both decide the same turn.

Each encounter has its own lock: the work of one table (replaying, checking,
resolving, a long "play to the end") never waits for another's.  The SQLite
connection has a separate lock held only around each statement or transaction.

Beside each event the store keeps its readable text and its *veil*: the viewers
(``player:<side>``, ``spectator``) from whom the line is withheld because it is
hidden or names a combatant that viewer's ``view`` does not hold at that moment
(see :func:`fracas.store.text.veil`).  The GM sees every line.

Dice for a web decision come from a stream derived from the encounter's seed
and the length of its log, so the store keeps no random-generator state and a
restarted server rolls exactly what the old one would have.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from hmac import compare_digest
from pathlib import Path
from typing import Any

from fracas.core.encounter import Encounter
from fracas.core.errors import FracasError, LogFormatError, NothingToUndoError, ScenarioError
from fracas.core.events import (
    MAX_SEED,
    DecisionMade,
    Event,
    LogHeader,
    decode_event,
    encode_event,
    parse_log_text,
)
from fracas.core.loop import fold
from fracas.core.rng import SeededRng, decision_dice
from fracas.core.ruleset import Action, Ruleset
from fracas.scenario import Scenario
from fracas.scenario.logs import encounter_from_log
from fracas.store.text import describe, veil, viewers_of

__all__ = [
    "EncounterInfo",
    "EventStore",
    "Link",
    "LogEntry",
    "SeatError",
    "StaleRevisionError",
    "UnknownEncounterError",
]

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

#: A seat names at most this many combatants (a player holds a few, not an army).
MAX_SEAT_COMBATANTS = 16
#: An encounter has at most this many seats.
MAX_SEATS = 64

class StoreOpenError(FracasError):
    """The database file cannot be opened or is not a fracas store."""

    exit_code = 2


class UnknownEncounterError(FracasError, LookupError):
    """No encounter is stored under the requested id."""

    exit_code = 2


class SeatError(FracasError):
    """A seat that cannot be made as asked (no such combatant, combatants of two sides)."""

    exit_code = 2


class StaleRevisionError(FracasError):
    """The log changed since the caller looked at it: somebody else acted first."""

    exit_code = 3

    def __init__(self, expected: int, actual: int) -> None:
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"the fight moved on (you saw revision {expected}, it is now {actual}): "
            "somebody else acted first; here is the fresh view"
        )


@dataclass(frozen=True, slots=True)
class EncounterInfo:
    """One stored encounter as listed: no events, no state."""

    id: str
    title: str
    ruleset: str
    seed: int
    created: float
    updated: float
    archived: bool
    revision: int
    length: int
    status: str


@dataclass(frozen=True, slots=True)
class Link:
    """A secret link to an encounter: the GM's, one side's players', spectators', or a
    *seat*: one player's link, acting only for the ``combatants`` it names (all of one
    side, whose view it sees)."""

    encounter_id: str
    role: str
    side: str
    token: str
    combatants: tuple[str, ...] = ()

    @property
    def is_seat(self) -> bool:
        return bool(self.combatants)


#: How many decoded log entries :meth:`EventStore.entries` keeps (then it starts afresh).
ENTRIES_DECODED = 50_000


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One stored event with its position, hidden flag and readable text."""

    seq: int
    kind: str
    hidden: bool
    text: str
    data: dict[str, Any]
    veil: dict[str, str | None] = field(default_factory=dict)

    def text_for(self, viewer: str | None) -> str | None:
        """What ``viewer`` (``None``: the GM) reads of this line; ``None``: nothing."""
        if viewer is None:
            return self.text
        if self.hidden:
            return None
        return self.veil.get(viewer, self.text)

    def seen_by(self, viewer: str | None) -> bool:
        """True when ``viewer`` (``None``: the GM) may read this line."""
        return self.text_for(viewer) is not None


@dataclass(slots=True, eq=False)
class _Write:
    """One change waiting for its turn in a group commit, and how it went."""

    job: Callable[[sqlite3.Connection], None]
    done: bool = False
    error: BaseException | None = None


@dataclass(slots=True)
class _Live:
    revision: int
    encounter: Encounter[Any]
    #: The redo stack is known to be empty at this revision (``False``: not known).
    no_redo: bool = False


def decision_rng(seed: int, length: int, purpose: str = "dice") -> SeededRng:
    """The dice for the decision made when the log has ``length`` events.

    Deriving the stream from the seed and the log position keeps the store free
    of generator state: a restarted server rolls the same dice, and undoing a
    decision then taking it again does not give fresh dice (no re-rolling by undo).
    The core's seeding rule: :func:`fracas.core.rng.decision_dice`.
    """
    return decision_dice(seed, length, purpose)


def _info(row: sqlite3.Row) -> EncounterInfo:
    return EncounterInfo(row["id"], row["title"], row["ruleset"], row["seed"], row["created"],
                         row["updated"], bool(row["archived"]), row["revision"], row["length"],
                         row["status"])


def _status(enc: Encounter[Any]) -> str:
    outcome = enc.outcome()
    if outcome is None:
        actor = enc.current_actor()
        return f"round {enc.ruleset.round_number(enc.state)}, {actor} to decide"
    return f"over: {outcome.winner or 'nobody'} wins ({outcome.reason})"


class EventStore:
    """Encounters and their event logs in one SQLite file (WAL, full sync).

    Args:
        path: the database file (created when missing).
        cache_size: how many live encounters to keep rebuilt in memory.

    The store is safe to share between threads: each encounter has its own lock
    (held while its live encounter is read or changed) and the connection has one
    held only around each statement.  Several processes may share the file; the
    revision check in each transaction keeps them from overwriting each other.
    ``listeners`` are called with an encounter's id after each committed change
    (from the thread that made it).
    """

    def __init__(self, path: str | Path, *, cache_size: int = 64) -> None:
        self.path = str(path)
        self.cache_size = cache_size
        self._lock = threading.RLock()  # the connection
        self._guard = threading.Lock()  # the per-encounter lock table and the cache
        self._enc_locks: dict[str, threading.RLock] = {}
        # Log entries already decoded, by their whole stored row (see :meth:`entries`).
        self._decoded: dict[tuple[Any, ...], LogEntry] = {}
        # Each encounter's non-GM viewers (its links never change once made).
        self._viewer_sets: dict[str, list[tuple[str, str]]] = {}
        # Group commit: changes waiting for the next transaction, and whether one is running.
        self._queued: list[_Write] = []
        self._writing = False
        self._write_turn = threading.Condition(threading.Lock())
        #: Transactions and changes written so far (a change per applied action, undo, redo
        #: or new encounter): their ratio is how many changes shared each commit's fsync.
        self.commits = 0
        self.changes = 0
        self.listeners: list[Callable[[str], None]] = []
        if Path(self.path).is_dir():
            raise StoreOpenError(f"{self.path}: cannot open the database: it is a folder")
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None,
                                       check_same_thread=False, timeout=30.0)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
            columns = {r["name"] for r in self._db.execute("PRAGMA table_info(events)")}
            if "veil" not in columns:
                self._db.execute("ALTER TABLE events ADD COLUMN veil TEXT")
        except sqlite3.Error as exc:
            raise StoreOpenError(f"{self.path}: cannot open the database: {exc}") from None
        self._cache: OrderedDict[str, _Live] = OrderedDict()
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._backfill_veils()

    def _reader(self) -> sqlite3.Connection:
        """This thread's read-only connection: in WAL mode reads never wait for a commit."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                   timeout=30.0)
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA query_only=1")
            self._local.conn = conn
            with self._guard:
                self._readers.append(conn)
        return conn

    def _enc_lock(self, enc_id: str) -> threading.RLock:
        with self._guard:
            lock = self._enc_locks.get(enc_id)
            if lock is None:
                lock = self._enc_locks[enc_id] = threading.RLock()
            return lock

    def _notify(self, enc_id: str) -> None:
        for listener in list(self.listeners):
            listener(enc_id)

    def _viewers(self, enc_id: str) -> list[tuple[str, str]]:
        """The encounter's non-GM viewers (read once: links never change once made)."""
        found = self._viewer_sets.get(enc_id)
        if found is None:
            found = self._viewer_sets[enc_id] = self._read_viewers(enc_id)
        return found

    def _read_viewers(self, enc_id: str) -> list[tuple[str, str]]:
        rows = self._reader().execute("SELECT role, side FROM links WHERE encounter_id = ?"
                                      " AND role != 'gm'", (enc_id,)).fetchall()
        return viewers_of(sorted(r["side"] for r in rows if r["role"] == "player"))

    def _backfill_veils(self) -> None:
        """Stores written before veils existed: work them out once by replaying each log."""
        with self._lock:
            ids = [r[0] for r in self._db.execute(
                "SELECT DISTINCT encounter_id FROM events WHERE veil IS NULL")]
        for enc_id in ids:
            try:
                with self._lock:
                    row = self._db.execute("SELECT header FROM encounters WHERE id = ?",
                                           (enc_id,)).fetchone()
                if row is None:
                    continue
                enc = self._rebuild(enc_id, row["header"])
                veils = _veil_all(enc.ruleset, enc.initial_state, enc.log,
                                  [e.text for e in self.entries(enc_id)], self._viewers(enc_id))
                with self._lock, self._transaction() as db:
                    db.executemany("UPDATE events SET veil = ? WHERE encounter_id = ? AND seq = ?",
                                   [(v, enc_id, i) for i, v in enumerate(veils)])
            except FracasError:
                continue

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            with self._guard:
                self._cache.clear()
                readers, self._readers = self._readers, []
            for conn in readers:
                conn.close()
            self._db.close()

    # -- plumbing ----------------------------------------------------------
    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _write(self, job: Callable[[sqlite3.Connection], None]) -> None:
        """Run ``job`` in a transaction, returning only once that transaction is durable.

        Group commit: the changes of every thread that asks while a transaction is
        being written (other encounters' actions, undos, new tables) wait for it to
        end, then the first of them writes all of them in the next transaction, each
        in its own savepoint, so one commit (one fsync with ``synchronous=FULL``)
        serves them all rather than one fsync a change.
        A change that fails (its revision check, say) is rolled back alone and its
        error raised in its own thread; if the commit fails, every change in it
        fails.  Nothing is acknowledged before the ``COMMIT`` that holds it returned.
        Call it with no connection lock held (the encounter's lock is fine: jobs
        only write rows that were worked out beforehand).
        """
        mine = _Write(job)
        with self._write_turn:
            self._queued.append(mine)
            while self._writing and not mine.done:
                self._write_turn.wait()
            batch: list[_Write] = []
            if not mine.done:
                self._writing = True
                batch, self._queued = self._queued, []
        if batch:
            try:
                self._write_batch(batch)
            except BaseException as exc:
                for w in batch:
                    if w.error is None:
                        w.error = _again(exc)
                raise
            finally:
                with self._write_turn:
                    self._writing = False
                    for w in batch:
                        w.done = True
                    self._write_turn.notify_all()
        if mine.error is not None:
            raise mine.error

    def _write_batch(self, batch: list[_Write]) -> None:
        """One transaction for the changes in ``batch`` (each in a savepoint when several)."""
        with self._lock:
            db = self._db
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

    def secret(self, key: str) -> str:
        """A long random value kept in the database (created on first use)."""
        with self._lock, self._transaction() as db:
            row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
            if row is not None:
                return str(row["value"])
            value = secrets.token_urlsafe(32)
            db.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (key, value))
            return value

    # -- creating ----------------------------------------------------------
    def create(self, scenario: Scenario, seed: int = 0, title: str = "") -> EncounterInfo:
        """Start a fight from a validated scenario and store it with fresh links."""
        if not 0 <= seed < MAX_SEED:
            raise ScenarioError("the seed must be a whole number from 0 to 2**63-1",
                                file=scenario.source, field="seed")
        ruleset = scenario.ruleset
        header = scenario.header(seed)
        enc = Encounter(ruleset, ruleset.initial_state(scenario.model), rng=SeededRng(seed),
                        header=header)
        name = title or str(getattr(scenario.model, "name", "")) or Path(scenario.source).stem
        return self._insert(enc, header, name)

    def import_log(self, text: str, source: str = "<import>", title: str = "") -> EncounterInfo:
        """Store a fight from an exported log (JSON lines); the log is checked by replaying it."""
        header, records = parse_log_text(text, source)
        # An uploaded log is untrusted input: its decisions are replayed with its recorded
        # dice and every event must be what the rules give (fracas.scenario.logs).
        enc, _ = encounter_from_log(header, records, source)
        name = title or str(header.scenario.get("name") or "") or "imported fight"
        return self._insert(enc, header, name)

    def _insert(self, enc: Encounter[Any], header: LogHeader, title: str) -> EncounterInfo:
        sides = sorted({s.side for s in enc.ruleset.standings(enc.state)})
        texts, veils = _describe_all(enc.ruleset, enc.initial_state, enc.log, viewers_of(sides))
        now = time.time()
        rows = _event_rows(enc.log, 0, texts, veils)
        status = _status(enc)
        links = [("gm", ""), ("spectator", "")] + [("player", s) for s in sides]
        tokens = [(role, side, secrets.token_urlsafe(32)) for role, side in links]
        made: list[str] = []

        def job(db: sqlite3.Connection) -> None:
            enc_id = self._new_id()
            db.execute(
                "INSERT INTO encounters (id, title, ruleset, header, seed, created, updated,"
                " revision, length, status) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)",
                (enc_id, title, header.ruleset, _header_json(header), header.seed or 0, now,
                 now, len(enc.log), status))
            self._write_events(db, enc_id, rows)
            db.executemany(
                "INSERT INTO links (encounter_id, role, side, token) VALUES (?, ?, ?, ?)",
                [(enc_id, role, side, token) for role, side, token in tokens])
            made.append(enc_id)

        self._write(job)
        enc_id = made[-1]
        self._remember(enc_id, _Live(0, enc, no_redo=True))
        return self.info(enc_id)

    def _new_id(self) -> str:
        while True:
            enc_id = secrets.token_hex(4)
            row = self._db.execute("SELECT 1 FROM encounters WHERE id = ?", (enc_id,)).fetchone()
            if row is None:
                return enc_id

    @staticmethod
    def _write_events(db: sqlite3.Connection, enc_id: str, rows: Sequence[_Row]) -> None:
        db.executemany(
            "INSERT INTO events (encounter_id, seq, kind, hidden, payload, text, veil)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)", [(enc_id, *row) for row in rows])

    # -- reading -----------------------------------------------------------
    def encounters(self, include_archived: bool = False) -> list[EncounterInfo]:
        """Every stored encounter, newest first (archived ones only when asked)."""
        query = "SELECT * FROM encounters"
        if not include_archived:
            query += " WHERE archived = 0"
        rows = self._reader().execute(query + " ORDER BY created DESC, id").fetchall()
        return [_info(r) for r in rows]

    def info(self, enc_id: str) -> EncounterInfo:
        """The listing of one encounter; raises :class:`UnknownEncounterError`."""
        row = self._reader().execute("SELECT * FROM encounters WHERE id = ?", (enc_id,)).fetchone()
        if row is None:
            raise UnknownEncounterError(f"no encounter {enc_id!r} is stored")
        return _info(row)

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

    def add_seat(self, enc_id: str, combatants: Sequence[str]) -> Link:
        """A new seat: a secret link acting only for ``combatants`` (all of one side).

        Kept in the database like every link (it survives restarts); its holder sees
        its side's view.  Raises :class:`SeatError` naming what is wrong.
        """
        wanted = sorted(set(combatants))
        if not wanted:
            raise SeatError("choose at least one combatant for the seat")
        if len(wanted) > MAX_SEAT_COMBATANTS:
            raise SeatError(f"a seat holds at most {MAX_SEAT_COMBATANTS} combatants")
        with self.live(enc_id) as (enc, _):
            sides = {s.name: s.side for s in enc.ruleset.standings(enc.state)}
        unknown = [n for n in wanted if n not in sides]
        if unknown:
            raise SeatError(f"no combatant named {unknown[0]!r} in this fight")
        found = sorted({sides[n] for n in wanted})
        if len(found) > 1:
            raise SeatError("a seat's combatants must all be of one side (they see that "
                            f"side's view): {', '.join(found)}")
        side = found[0]
        token = secrets.token_urlsafe(32)

        def job(db: sqlite3.Connection) -> None:
            count = db.execute("SELECT COUNT(*) FROM seats WHERE encounter_id = ?",
                               (enc_id,)).fetchone()[0]
            if count >= MAX_SEATS:
                raise SeatError(f"an encounter has at most {MAX_SEATS} seats")
            db.execute("INSERT INTO seats (encounter_id, token, side, combatants, created)"
                       " VALUES (?, ?, ?, ?, ?)",
                       (enc_id, token, side, json.dumps(wanted), time.time()))

        self._write(job)
        return Link(enc_id, "player", side, token, tuple(wanted))

    def remove_seat(self, enc_id: str, token: str) -> bool:
        """Revoke a seat (its link stops working at once); ``False`` if there was none."""
        found = self.find_link(enc_id, token)
        if found is None or not found.is_seat:
            return False
        removed: list[int] = []

        def job(db: sqlite3.Connection) -> None:
            cur = db.execute("DELETE FROM seats WHERE encounter_id = ? AND token = ?",
                             (enc_id, found.token))
            removed.append(cur.rowcount)

        self._write(job)
        return bool(removed and removed[0])

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
        every change, and decoding them again would be a large part of its work).  The entries are
        shared: read them, do not change their ``data``.
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
                                 _veil_set(veiled))
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
                             _veil_set(row["veil"]))
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

    def can_redo(self, enc_id: str) -> bool:
        """True when an undone decision is waiting to be restored."""
        with self._guard:
            live = self._cache.get(enc_id)
            if live is not None and live.no_redo:
                return False
        row = self._reader().execute("SELECT 1 FROM redo WHERE encounter_id = ? LIMIT 1",
                                     (enc_id,)).fetchone()
        return row is not None

    def set_archived(self, enc_id: str, archived: bool) -> EncounterInfo:
        """Archive (hide from the list) or restore an encounter; its log is kept."""
        with self._lock, self._transaction() as db:
            cur = db.execute("UPDATE encounters SET archived = ? WHERE id = ?",
                             (int(archived), enc_id))
            if cur.rowcount == 0:
                raise UnknownEncounterError(f"no encounter {enc_id!r} is stored")
        return self.info(enc_id)

    # -- the live encounter -----------------------------------------------
    def known_revision(self, enc_id: str) -> int | None:
        """The revision of the encounter as this store object last read or wrote it
        (``None``: not in hand); no file is read, so another process's newer change
        is not seen."""
        with self._guard:
            live = self._cache.get(enc_id)
        return None if live is None else live.revision

    @contextmanager
    def live(self, enc_id: str, *, trust: bool = False
             ) -> Iterator[tuple[Encounter[Any], int]]:
        """Hold the encounter's lock and yield its live encounter and revision (read only!).

        ``trust``: take the encounter as this store last wrote or read it, without
        reading its revision from the file (which another process may have moved on):
        for the answer to a change this store has just made.  The read is a statement,
        and with many tables at once each statement lets another thread have the
        interpreter (two context switches).
        """
        with self._enc_lock(enc_id):
            yield self._live(enc_id, trust)

    @contextmanager
    def locked(self, enc_id: str) -> Iterator[None]:
        """Hold the encounter's lock (other encounters are not held up)."""
        with self._enc_lock(enc_id):
            yield

    def held_revision(self, enc_id: str, enc: Encounter[Any]) -> int | None:
        """The revision at which ``enc`` is the live encounter of ``enc_id`` (``None``: it is
        not, or no longer cached).  Call it holding the encounter's lock, e.g. from the
        ``choose`` of :meth:`apply`: what is worked out from ``enc`` may then be kept
        under that revision."""
        with self._guard:
            live = self._cache.get(enc_id)
            return live.revision if live is not None and live.encounter is enc else None

    def _live(self, enc_id: str, trust: bool = False) -> tuple[Encounter[Any], int]:
        """The live encounter (the caller holds the encounter's lock).

        Its revision is read from the file (another process may have changed it),
        unless ``trust``: then the cached encounter is taken as it is, i.e. as this
        store last wrote or read it.
        """
        if trust:
            with self._guard:
                live = self._cache.get(enc_id)
                if live is not None:
                    self._cache.move_to_end(enc_id)
                    return live.encounter, live.revision
        row = self._reader().execute("SELECT revision, header FROM encounters WHERE id = ?",
                                     (enc_id,)).fetchone()
        if row is None:
            raise UnknownEncounterError(f"no encounter {enc_id!r} is stored")
        with self._guard:
            live = self._cache.get(enc_id)
            if live is not None and live.revision == row["revision"]:
                self._cache.move_to_end(enc_id)
                return live.encounter, live.revision
        enc = self._rebuild(enc_id, row["header"])
        self._remember(enc_id, _Live(row["revision"], enc))
        return enc, row["revision"]

    def _rebuild(self, enc_id: str, header_text: str) -> Encounter[Any]:
        header = _header_from_json(header_text, f"encounter {enc_id}")
        rows = self._reader().execute("SELECT seq, payload FROM events WHERE encounter_id = ?"
                                      " ORDER BY seq", (enc_id,)).fetchall()
        # The store's own rows, written by the engine: applied as they are, not re-verified.
        enc, _ = encounter_from_log(header, [(r["seq"], json.loads(r["payload"])) for r in rows],
                                    f"encounter {enc_id}", verify=False,
                                    where=lambda seq: f"encounter {enc_id} event {seq}: ")
        return enc

    def _remember(self, enc_id: str, live: _Live) -> None:
        with self._guard:
            self._cache[enc_id] = live
            self._cache.move_to_end(enc_id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def _no_redo(self, enc_id: str) -> bool:
        """The redo stack is known to be empty (the live encounter's revision says so)."""
        with self._guard:
            live = self._cache.get(enc_id)
            return live is not None and live.no_redo

    def _forget(self, enc_id: str) -> None:
        with self._guard:
            self._cache.pop(enc_id, None)

    # -- changing ----------------------------------------------------------
    def apply(self, enc_id: str, expected_revision: int | None,
              choose: Callable[[Encounter[Any]], Action]) -> int:
        """Apply the action ``choose`` picks, with all its events, in one transaction.

        Raises :class:`StaleRevisionError` when the encounter is no longer at
        ``expected_revision`` (``None``: ``choose`` makes its own check), and
        whatever ``choose`` or the rules raise (an
        :class:`~fracas.core.errors.IllegalActionError` names the rule); in every
        failure case nothing is written.  Returns the new revision.
        """
        with self._enc_lock(enc_id):
            enc, revision = self._live(enc_id)
            if expected_revision is not None and revision != expected_revision:
                raise StaleRevisionError(expected_revision, revision)
            no_redo = self._no_redo(enc_id)
            action = choose(enc)
            start = len(enc.log)
            seed = enc.header.seed if enc.header and enc.header.seed is not None else 0
            texts: list[str] = []
            veils: list[str] = []
            # Each line's text and veil, worked out in the state right after its event.
            listener = _describer(enc.ruleset, self._viewers(enc_id), texts, veils)
            try:
                events = enc.apply(action, rng=decision_rng(seed, start), listener=listener)
                new = self._commit(enc_id, enc, revision, start, events, texts, veils,
                                   clear_redo=not no_redo)
            except BaseException:
                if len(enc.log) != start:
                    self._forget(enc_id)
                raise
        self._notify(enc_id)
        return new

    def apply_many(self, enc_id: str, expected_revision: int | None,
                   choose: Callable[[Encounter[Any]], Action], *, decisions: int,
                   seconds: float, stop: Callable[[Encounter[Any]], bool] | None = None
                   ) -> tuple[int, int]:
        """Apply what ``choose`` picks, decision after decision, and commit them together.

        For the AI playing a table on its own ("play to the end"): up to
        ``decisions`` decisions, or as many as fit in ``seconds`` (at least one),
        until the fight is over, each adding one to the revision with its own
        events and dice exactly as :meth:`apply` would, then one write holds them
        all (one fsync, not one a decision).  The encounter stays locked meanwhile,
        so nobody sees a decision before it is durable.  If ``choose`` or the rules
        fail after some decisions, those are still written, then the error raised.
        ``stop``, if given, is asked before each decision after the first: ``True``
        ends the group there (the AI's turn is over, say).
        Returns the new revision and how many decisions were written.
        """
        with self._enc_lock(enc_id):
            enc, revision = self._live(enc_id)
            if expected_revision is not None and revision != expected_revision:
                raise StaleRevisionError(expected_revision, revision)
            seed = enc.header.seed if enc.header and enc.header.seed is not None else 0
            viewers = self._viewers(enc_id)
            made: list[tuple[Callable[[sqlite3.Connection], None], list[_Row]]] = []
            failure: BaseException | None = None
            deadline = time.monotonic() + seconds
            at = revision
            while len(made) < decisions and not enc.is_over and (
                    not made or time.monotonic() < deadline) and not (
                    made and stop is not None and stop(enc)):
                start = len(enc.log)
                texts: list[str] = []
                veils: list[str] = []
                try:
                    action = choose(enc)
                    events = enc.apply(action, rng=decision_rng(seed, start),
                                       listener=_describer(enc.ruleset, viewers, texts, veils))
                except BaseException as exc:
                    if len(enc.log) != start or not made:
                        self._forget(enc_id)
                    if not made:
                        raise
                    failure = exc
                    break
                made.append((_bump_of(enc_id, enc, at), _event_rows(events, start, texts,
                                                                     veils)))
                at += 1
                time.sleep(0)  # other tables' threads may have the interpreter meanwhile
            if not made:
                return revision, 0

            def job(db: sqlite3.Connection) -> None:
                db.execute("DELETE FROM redo WHERE encounter_id = ?", (enc_id,))
                for bump, rows in made:
                    bump(db)
                    self._write_events(db, enc_id, rows)

            try:
                self._write(job)
            except BaseException:
                self._forget(enc_id)
                raise
            if failure is None:
                self._remember(enc_id, _Live(at, enc, no_redo=True))
            else:  # the failed decision may have left the live encounter half changed
                self._forget(enc_id)
        self._notify(enc_id)
        if failure is not None:
            raise failure
        return at, len(made)

    def undo(self, enc_id: str, expected_revision: int) -> int:
        """Take back the last decision and everything it caused (kept for redo)."""
        with self._enc_lock(enc_id):
            enc, revision = self._live(enc_id)
            if revision != expected_revision:
                raise StaleRevisionError(expected_revision, revision)
            if not enc.can_undo:
                raise NothingToUndoError("nothing to undo: no decision has been made yet")
            cut = max(i for i, e in enumerate(enc.log) if isinstance(e, DecisionMade))
            removed = enc.log[cut:]
            stored = self.entries(enc_id, cut)
            try:
                enc.undo()
                bump = _bump_of(enc_id, enc, revision)
                payload = json.dumps([[encode_event(e), x.text, x.veil]
                                      for e, x in zip(removed, stored, strict=True)])

                def job(db: sqlite3.Connection) -> None:
                    bump(db)
                    db.execute("DELETE FROM events WHERE encounter_id = ? AND seq >= ?",
                               (enc_id, cut))
                    depth = db.execute("SELECT COALESCE(MAX(depth), 0) + 1 FROM redo"
                                       " WHERE encounter_id = ?", (enc_id,)).fetchone()[0]
                    db.execute("INSERT INTO redo (encounter_id, depth, payload) VALUES (?, ?, ?)",
                               (enc_id, depth, payload))

                self._write(job)
            except BaseException:
                self._forget(enc_id)
                raise
            self._remember(enc_id, _Live(revision + 1, enc))
        self._notify(enc_id)
        return revision + 1

    def redo(self, enc_id: str, expected_revision: int) -> int:
        """Restore the last undone decision with exactly the dice it had."""
        with self._enc_lock(enc_id):
            enc, revision = self._live(enc_id)
            if revision != expected_revision:
                raise StaleRevisionError(expected_revision, revision)
            row = self._reader().execute("SELECT depth, payload FROM redo WHERE encounter_id = ?"
                                         " ORDER BY depth DESC LIMIT 1", (enc_id,)).fetchone()
            if row is None:
                raise NothingToUndoError("nothing to redo")
            items = json.loads(row["payload"])
            events = [decode_event(item[0], enc.ruleset, f"encounter {enc_id} redo: ")
                      for item in items]
            start = len(enc.log)
            try:
                if all(len(item) > 2 for item in items):
                    veils = [_veil_text(item[2]) for item in items]
                    for event in events:
                        enc.emit(event)
                else:  # kept by an older version: work the veils out again on the way
                    veils = []
                    enc.listener = _describer(enc.ruleset, self._viewers(enc_id), [], veils)
                    try:
                        for event in events:
                            enc.emit(event)
                    finally:
                        enc.listener = None
                bump = _bump_of(enc_id, enc, revision)
                rows = _event_rows(events, start, [i[1] for i in items], veils)
                depth = row["depth"]

                def job(db: sqlite3.Connection) -> None:
                    db.execute("DELETE FROM redo WHERE encounter_id = ? AND depth = ?",
                               (enc_id, depth))
                    bump(db)
                    self._write_events(db, enc_id, rows)

                self._write(job)
            except BaseException:
                self._forget(enc_id)
                raise
            self._remember(enc_id, _Live(revision + 1, enc))
        self._notify(enc_id)
        return revision + 1

    def _commit(self, enc_id: str, enc: Encounter[Any], revision: int, start: int,
                events: Sequence[Event], texts: Sequence[str], veils: Sequence[str], *,
                clear_redo: bool) -> int:
        # Everything is worked out here, in the caller's thread; the job only writes it.
        bump = _bump_of(enc_id, enc, revision)
        rows = _event_rows(events, start, texts, veils)

        def job(db: sqlite3.Connection) -> None:
            bump(db)
            if clear_redo:
                db.execute("DELETE FROM redo WHERE encounter_id = ?", (enc_id,))
            self._write_events(db, enc_id, rows)

        self._write(job)
        self._remember(enc_id, _Live(revision + 1, enc, no_redo=True))
        return revision + 1


#: An event's row in the ``events`` table, less its encounter: seq, kind, hidden, payload,
#: text, veil.
_Row = tuple[int, str, int, str, str, str]


def _event_rows(events: Sequence[Event], start: int, texts: Sequence[str],
                veils: Sequence[str]) -> list[_Row]:
    return [(start + i, e.kind, int(e.hidden), json.dumps(encode_event(e)), t, v)
            for i, (e, t, v) in enumerate(zip(events, texts, veils, strict=True))]


def _bump_of(enc_id: str, enc: Encounter[Any], revision: int
             ) -> Callable[[sqlite3.Connection], None]:
    """The optimistic check: move to ``revision + 1`` only if nobody else did first (the
    encounter's new length and status are worked out now, written by the returned call)."""
    values = (len(enc.log), _status(enc), time.time(), enc_id, revision)

    def bump(db: sqlite3.Connection) -> None:
        cur = db.execute(
            "UPDATE encounters SET revision = revision + 1, length = ?, status = ?, updated = ?"
            " WHERE id = ? AND revision = ?", values)
        if cur.rowcount != 1:
            actual = db.execute("SELECT revision FROM encounters WHERE id = ?",
                                (enc_id,)).fetchone()
            raise StaleRevisionError(revision, int(actual[0]) if actual else -1)

    return bump


def _again(exc: BaseException) -> BaseException:
    """A fresh copy of a failed commit's error for each change it held (each thread raises
    its own)."""
    try:
        return type(exc)(*exc.args)
    except Exception:
        return exc


def _veil_text(seen: dict[str, str | None]) -> str:
    return json.dumps(seen, sort_keys=True)


def _veil_set(text: str | None) -> dict[str, str | None]:
    if not text:
        return {}
    found = json.loads(text)
    return found if isinstance(found, dict) else {}


def _describer(ruleset: Ruleset[Any], viewers: Sequence[tuple[str, str]], texts: list[str],
               veils: list[str]) -> Callable[[Event, Any], None]:
    """A listener (see :mod:`fracas.core.loop`) adding each event's text and veil to the lists."""

    def listener(event: Event, state: Any) -> None:
        text = describe(ruleset, event, state)
        texts.append(text)
        veils.append(_veil_text(veil(ruleset, event, state, text, viewers)))

    return listener


def _describe_all(ruleset: Ruleset[Any], before: Any, events: Sequence[Event],
                  viewers: Sequence[tuple[str, str]]) -> tuple[list[str], list[str]]:
    """Readable text and veil for each event of a log already played, each worked out in the
    state just after it (``before`` is not changed)."""
    texts: list[str] = []
    veils: list[str] = []
    fold(ruleset, ruleset.clone_state(before), events,
         _describer(ruleset, viewers, texts, veils))
    return texts, veils


def _veil_all(ruleset: Ruleset[Any], before: Any, events: Sequence[Event], texts: Sequence[str],
              viewers: Sequence[tuple[str, str]]) -> list[str]:
    """The veils of stored lines (their texts kept as stored)."""
    veils: list[str] = []
    stored = iter(texts)

    def listener(event: Event, state: Any) -> None:
        veils.append(_veil_text(veil(ruleset, event, state, next(stored), viewers)))

    fold(ruleset, ruleset.clone_state(before), events, listener)
    return veils


def _header_json(header: LogHeader) -> str:
    return json.dumps({"type": "header", "ruleset": header.ruleset, "scenario": header.scenario,
                       "seed": header.seed, "format": header.format})


def _header_from_json(text: str, where: str) -> LogHeader:
    raw = json.loads(text)
    raw.pop("type", None)
    try:
        return LogHeader(**raw)
    except TypeError as exc:
        raise LogFormatError(f"{where}: bad header: {exc}") from None


