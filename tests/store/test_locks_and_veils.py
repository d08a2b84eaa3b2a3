"""One lock per encounter; each stored line's veil (what every viewer reads of it)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

from fracas.core.events import Event, Note
from fracas.core.presentation import Presentation, Same
from fracas.scenario import Scenario
from fracas.store import EventStore
from fracas.store.text import veil


def test_one_encounter_s_lock_does_not_hold_up_another(store: EventStore,
                                                       duel: Scenario) -> None:
    a = store.create(duel, seed=1)
    b = store.create(duel, seed=2)
    done = threading.Event()

    def act_on_b() -> None:
        store.apply(b.id, 0, lambda enc: enc.ruleset.parse_action("ann wait"))
        done.set()

    with store.locked(a.id):
        worker = threading.Thread(target=act_on_b)
        worker.start()
        # B's change commits while A is held (the wait ends as soon as it does).
        assert done.wait(timeout=120)  # eventually: allows a machine several times overloaded
    worker.join()
    assert store.info(b.id).revision == 1 and store.info(a.id).revision == 0


def test_listeners_hear_of_each_committed_change(store: EventStore, duel: Scenario) -> None:
    info = store.create(duel, seed=1)
    heard: list[str] = []
    store.listeners.append(heard.append)
    store.apply(info.id, 0, lambda enc: enc.ruleset.parse_action("ann wait"))
    store.undo(info.id, 1)
    store.redo(info.id, 2)
    assert heard == [info.id] * 3


class _Sighted:
    """A stand-in rule set whose sides see only their own combatants."""

    def view(self, state: Any, side: str | None = None) -> dict[str, Any]:
        people = [{"name": "ann", "side": "red"}, {"name": "bob", "side": "blue"}]
        return {"combatants": [p for p in people if side is None or p["side"] == side]}

    def standings(self, state: Any) -> list[Any]:
        return []


VIEWERS = [("player:blue", "blue"), ("player:red", "red"), ("spectator", "spectator")]


def test_a_line_naming_what_a_viewer_cannot_see_is_withheld_from_it_line_by_line() -> None:
    rules: Any = _Sighted()
    event: Event = Note("x")
    assert veil(rules, event, None, "ann waits", VIEWERS) == {
        "player:blue": None, "spectator": None}
    assert veil(rules, event, None, "the wind howls", VIEWERS) == {}
    # A many-line text keeps the lines a viewer may read; "annex" is not "ann".
    text = "map\n  annex: empty\n  ann in the hall\n  bob in the hall"
    seen = veil(rules, event, None, text, VIEWERS)
    assert seen["player:blue"] == "map\n  annex: empty\n  bob in the hall"
    assert seen["player:red"] == "map\n  annex: empty\n  ann in the hall"
    assert seen["spectator"] == "map\n  annex: empty"
    hidden = Note("ann waits", hidden=True)
    assert veil(rules, hidden, None, "ann waits", VIEWERS) == {k: None for k, _ in VIEWERS}


class _Worded(Presentation):
    """Words a note for each side from its own view: "you see ann" / "you see bob"."""

    def describe_for(self, event: Any, state: Any, side: str) -> str | Same | None:
        if side == "spectator":
            return None
        return "you see " + ("ann" if side == "red" else "bob")


class _SightedAndWorded(_Sighted):
    presentation = _Worded()


def test_a_line_the_rule_set_words_for_a_side_is_read_in_those_words() -> None:
    rules: Any = _SightedAndWorded()
    seen = veil(rules, Note("x"), None, "ann and bob wait", VIEWERS)
    assert seen == {"player:blue": "you see bob", "player:red": "you see ann",
                    "spectator": None}
    hidden = Note("x", hidden=True)
    assert veil(rules, hidden, None, "ann and bob wait", VIEWERS) == {
        k: None for k, _ in VIEWERS}


def test_a_store_from_before_veils_gets_them_when_opened(db_path: Path, duel: Scenario) -> None:
    store = EventStore(db_path)
    info = store.create(duel, seed=3)
    store.apply(info.id, 0, lambda enc: enc.ruleset.parse_action("ann strike target=bob"))
    texts = [e.text for e in store.entries(info.id)]
    store.close()
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE events SET veil = NULL")
    reopened = EventStore(db_path)
    try:
        entries = reopened.entries(info.id)
        assert [e.text for e in entries] == texts
        with sqlite3.connect(db_path) as conn:
            assert conn.execute("SELECT COUNT(*) FROM events WHERE veil IS NULL"
                                ).fetchone()[0] == 0
    finally:
        reopened.close()
