"""A durable event store for encounters: one SQLite file in WAL mode.

Each encounter is stored as its log header (rule set, scenario, seed) and the
events of its log, in order.  The live :class:`~fracas.core.encounter.Encounter`
is never stored: it is rebuilt by replaying the events (``Encounter.replay``)
and kept in a small LRU cache (:mod:`fracas.store.live`).  Every change to a log
(an applied action with all its events, an undo, a redo) is one SQLite transaction
guarded by the encounter's *revision*: the sequence number of changes the caller
last saw.  A caller holding an old revision is refused with
:class:`StaleRevisionError`, so two clients can never both decide the same turn.

Each encounter has its own lock: the work of one table (replaying, checking,
resolving, a long "play to the end") never waits for another's.  The SQLite
connection has a separate lock held only around each statement or transaction, and
changes asked for at the same time share a commit (:mod:`fracas.store.commit`).

Beside each event the store keeps its readable text and its *veil*: the viewers
(``player:<side>``, ``spectator``) from whom the line is withheld because it is
hidden or names a combatant that viewer's ``view`` does not hold at that moment
(see :func:`fracas.store.text.veil`).  The GM sees every line.

Dice for a web decision come from a stream derived from the encounter's seed
and the length of its log, so the store keeps no random-generator state and a
restarted server rolls exactly what the old one would have.

The store's pieces: :mod:`~fracas.store.records` (what it hands out),
:mod:`~fracas.store.schema` (its tables), :mod:`~fracas.store.reading`,
:mod:`~fracas.store.commit` (writing), :mod:`~fracas.store.live` (the cache) and
:mod:`~fracas.store.text` (the lines' text and veils); this module changes logs.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fracas.core.encounter import Encounter
from fracas.core.errors import NothingToUndoError, ScenarioError
from fracas.core.events import (
    MAX_SEED,
    DecisionMade,
    Event,
    LogHeader,
    decode_event,
    encode_event,
    parse_log_text,
)
from fracas.core.rng import SeededRng
from fracas.core.ruleset import Action
from fracas.scenario import Scenario
from fracas.scenario.logs import encounter_from_log
from fracas.store.commit import (
    GroupCommit,
    Job,
    Row,
    bump_of,
    event_rows,
    status_of,
    write_events,
)
from fracas.store.live import Live, LiveCache
from fracas.store.reading import StoreReader
from fracas.store.records import (
    MAX_SEAT_COMBATANTS,
    MAX_SEATS,
    EncounterInfo,
    Link,
    LogEntry,
    SeatError,
    StaleRevisionError,
    StoreOpenError,
    UnknownEncounterError,
    decision_rng,
    header_json,
    veil_text,
)
from fracas.store.schema import backfill_veils, open_writer
from fracas.store.text import describe_all, describer, viewers_of

__all__ = [
    "EncounterInfo",
    "EventStore",
    "Link",
    "LogEntry",
    "SeatError",
    "StaleRevisionError",
    "StoreOpenError",
    "UnknownEncounterError",
    "decision_rng",
    "parse_log_text",
]


class EventStore(StoreReader):
    """Encounters and their event logs in one SQLite file (WAL, full sync).

    Args:
        path: the database file (created when missing).
        cache_size: how many live encounters to keep rebuilt in memory.

    The store is safe to share between threads: each encounter has its own lock
    (held while its live encounter is read or changed) and the connection has one
    held only around each statement.  Several processes may share the file; the
    revision check in each transaction keeps them from overwriting each other.
    ``listeners`` are called with an encounter's id after each committed change
    (from the thread that made it).  Reading (listings, links, log lines) is
    :class:`~fracas.store.reading.StoreReader`'s.
    """

    def __init__(self, path: str | Path, *, cache_size: int = 64) -> None:
        super().__init__(str(path))
        self.listeners: list[Callable[[str], None]] = []
        self._writer = GroupCommit(open_writer(self.path))
        self._db = self._writer.db
        self._lock = self._writer.lock  # the connection
        self._write = self._writer.write
        self._live_cache = LiveCache(cache_size)
        self._cache = self._live_cache.kept
        backfill_veils(self)

    @property
    def cache_size(self) -> int:
        """How many live encounters are kept rebuilt in memory."""
        return self._cache.size

    @cache_size.setter
    def cache_size(self, size: int) -> None:
        self._cache.size = size

    @property
    def commits(self) -> int:
        """Transactions written so far (with :attr:`changes`: how many changes shared each
        commit's fsync)."""
        return self._writer.commits

    @property
    def changes(self) -> int:
        """Changes written so far: one per applied action, undo, redo or new encounter."""
        return self._writer.changes

    # The group commit's state, as the tests that hold a commit up watch it.
    @property
    def _writing(self) -> bool:
        return self._writer.writing

    @property
    def _queued(self) -> list[Any]:
        return self._writer.queued

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._live_cache.clear()
            self._close_readers()
            self._db.close()

    #: Inserts an encounter's event rows (every job writing events goes through it).
    _write_events = staticmethod(write_events)

    def _enc_lock(self, enc_id: str) -> threading.RLock:
        return self._live_cache.lock(enc_id)

    def _notify(self, enc_id: str) -> None:
        for listener in list(self.listeners):
            listener(enc_id)

    def secret(self, key: str) -> str:
        """A long random value kept in the database (created on first use)."""
        with self._lock, self._writer.transaction() as db:
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
        texts, veils = describe_all(enc.ruleset, enc.initial_state, enc.log, viewers_of(sides))
        now = time.time()
        rows = event_rows(enc.log, 0, texts, veils)
        status = status_of(enc)
        links = [("gm", ""), ("spectator", "")] + [("player", s) for s in sides]
        tokens = [(role, side, secrets.token_urlsafe(32)) for role, side in links]
        made: list[str] = []

        def job(db: sqlite3.Connection) -> None:
            enc_id = self._new_id()
            db.execute(
                "INSERT INTO encounters (id, title, ruleset, header, seed, created, updated,"
                " revision, length, status) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)",
                (enc_id, title, header.ruleset, header_json(header), header.seed or 0, now,
                 now, len(enc.log), status))
            self._write_events(db, enc_id, rows)
            db.executemany(
                "INSERT INTO links (encounter_id, role, side, token) VALUES (?, ?, ?, ?)",
                [(enc_id, role, side, token) for role, side, token in tokens])
            made.append(enc_id)

        self._write(job)
        enc_id = made[-1]
        self._live_cache.remember(enc_id, Live(0, enc, no_redo=True))
        return self.info(enc_id)

    def _new_id(self) -> str:
        while True:
            enc_id = secrets.token_hex(4)
            row = self._db.execute("SELECT 1 FROM encounters WHERE id = ?", (enc_id,)).fetchone()
            if row is None:
                return enc_id

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

    def can_redo(self, enc_id: str) -> bool:
        """True when an undone decision is waiting to be restored."""
        if self._live_cache.no_redo(enc_id):
            return False
        row = self._reader().execute("SELECT 1 FROM redo WHERE encounter_id = ? LIMIT 1",
                                     (enc_id,)).fetchone()
        return row is not None

    def set_archived(self, enc_id: str, archived: bool) -> EncounterInfo:
        """Archive (hide from the list) or restore an encounter; its log is kept."""
        with self._lock, self._writer.transaction() as db:
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
        live = self._live_cache.peek(enc_id)
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
        live = self._live_cache.peek(enc_id)
        return live.revision if live is not None and live.encounter is enc else None

    def _live(self, enc_id: str, trust: bool = False) -> tuple[Encounter[Any], int]:
        """The live encounter (the caller holds the encounter's lock).

        Its revision is read from the file (another process may have changed it),
        unless ``trust``: then the cached encounter is taken as it is, i.e. as this
        store last wrote or read it.
        """
        if trust:
            live = self._live_cache.get(enc_id)
            if live is not None:
                return live.encounter, live.revision
        row = self._reader().execute("SELECT revision, header FROM encounters WHERE id = ?",
                                     (enc_id,)).fetchone()
        if row is None:
            raise UnknownEncounterError(f"no encounter {enc_id!r} is stored")
        live = self._live_cache.get(enc_id, row["revision"])
        if live is not None:
            return live.encounter, live.revision
        enc = self._rebuild(enc_id, row["header"])
        self._live_cache.remember(enc_id, Live(row["revision"], enc))
        return enc, row["revision"]

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
            no_redo = self._live_cache.no_redo(enc_id)
            action = choose(enc)
            start = len(enc.log)
            seed = enc.header.seed if enc.header and enc.header.seed is not None else 0
            texts: list[str] = []
            veils: list[str] = []
            # Each line's text and veil, worked out in the state right after its event.
            listener = describer(enc.ruleset, self._viewers(enc_id), texts, veils)
            try:
                events = enc.apply(action, rng=decision_rng(seed, start), listener=listener)
                new = self._commit(enc_id, enc, revision, start, events, texts, veils,
                                   clear_redo=not no_redo)
            except BaseException:
                if len(enc.log) != start:
                    self._live_cache.forget(enc_id)
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
            made: list[tuple[Job, list[Row]]] = []
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
                                       listener=describer(enc.ruleset, viewers, texts, veils))
                except BaseException as exc:
                    if len(enc.log) != start or not made:
                        self._live_cache.forget(enc_id)
                    if not made:
                        raise
                    failure = exc
                    break
                made.append((bump_of(enc_id, enc, at), event_rows(events, start, texts,
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
                self._live_cache.forget(enc_id)
                raise
            if failure is None:
                self._live_cache.remember(enc_id, Live(at, enc, no_redo=True))
            else:  # the failed decision may have left the live encounter half changed
                self._live_cache.forget(enc_id)
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
                bump = bump_of(enc_id, enc, revision)
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
                self._live_cache.forget(enc_id)
                raise
            self._live_cache.remember(enc_id, Live(revision + 1, enc))
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
                    veils = [veil_text(item[2]) for item in items]
                    for event in events:
                        enc.emit(event)
                else:  # kept by an older version: work the veils out again on the way
                    veils = []
                    enc.listener = describer(enc.ruleset, self._viewers(enc_id), [], veils)
                    try:
                        for event in events:
                            enc.emit(event)
                    finally:
                        enc.listener = None
                bump = bump_of(enc_id, enc, revision)
                rows = event_rows(events, start, [i[1] for i in items], veils)
                depth = row["depth"]

                def job(db: sqlite3.Connection) -> None:
                    db.execute("DELETE FROM redo WHERE encounter_id = ? AND depth = ?",
                               (enc_id, depth))
                    bump(db)
                    self._write_events(db, enc_id, rows)

                self._write(job)
            except BaseException:
                self._live_cache.forget(enc_id)
                raise
            self._live_cache.remember(enc_id, Live(revision + 1, enc))
        self._notify(enc_id)
        return revision + 1

    def _commit(self, enc_id: str, enc: Encounter[Any], revision: int, start: int,
                events: Sequence[Event], texts: Sequence[str], veils: Sequence[str], *,
                clear_redo: bool) -> int:
        # Everything is worked out here, in the caller's thread; the job only writes it.
        bump = bump_of(enc_id, enc, revision)
        rows = event_rows(events, start, texts, veils)

        def job(db: sqlite3.Connection) -> None:
            bump(db)
            if clear_redo:
                db.execute("DELETE FROM redo WHERE encounter_id = ?", (enc_id,))
            self._write_events(db, enc_id, rows)

        self._write(job)
        self._live_cache.remember(enc_id, Live(revision + 1, enc, no_redo=True))
        return revision + 1
