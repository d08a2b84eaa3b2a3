"""The event store keeps every committed action whole, in order, and rebuilds fights by replay."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from fracas.core.encounter import Encounter
from fracas.core.errors import (
    IllegalActionError,
    LogFormatError,
    NothingToUndoError,
    ScenarioError,
)
from fracas.core.events import DecisionMade, DiceRolled, decode_event, encode_event
from fracas.core.rng import SeededRng, derive_seed
from fracas.core.ruleset import Action
from fracas.scenario import Scenario
from fracas.store import EventStore, StaleRevisionError, UnknownEncounterError, decision_rng
from fracas.store.sqlite import parse_log_text
from fracas.store.text import plain

GOLDEN = Path(__file__).parent / "data" / "toy_duel_v1.jsonl"


def act(text: str) -> Any:
    """A chooser that parses ``text`` with the encounter's rule set."""
    return lambda enc: enc.ruleset.parse_action(text)


def stored_events(store: EventStore, enc_id: str) -> list[dict[str, Any]]:
    return [e.data for e in store.entries(enc_id)]


def live_events(store: EventStore, enc_id: str) -> list[dict[str, Any]]:
    with store.live(enc_id) as (enc, _):
        return [encode_event(e) for e in enc.log]


def test_create_stores_the_header_the_opening_events_and_four_kinds_of_link(
        store: EventStore, duel: Scenario) -> None:
    info = store.create(duel, seed=7, title="first blood")
    assert (info.title, info.ruleset, info.seed, info.revision) == ("first blood", "toy", 7, 0)
    links = {(link.role, link.side): link.token for link in store.links(info.id)}
    assert set(links) == {("gm", ""), ("spectator", ""), ("player", "blue"), ("player", "red")}
    assert len(set(links.values())) == 4
    assert all(len(token) >= 43 for token in links.values())  # 32 random bytes, base64
    header = json.loads(store.export_log(info.id).splitlines()[0])
    assert header["type"] == "header" and header["seed"] == 7 and header["ruleset"] == "toy"


def test_find_link_accepts_only_the_exact_token_of_that_encounter(
        store: EventStore, duel: Scenario) -> None:
    a = store.create(duel)
    b = store.create(duel)
    gm_a = next(link for link in store.links(a.id) if link.role == "gm")
    assert store.find_link(a.id, gm_a.token) == gm_a
    assert store.find_link(b.id, gm_a.token) is None
    assert store.find_link(a.id, gm_a.token[:-1]) is None
    assert store.find_link(a.id, "") is None


def test_an_applied_action_stores_its_decision_and_every_event_it_caused(
        store: EventStore, duel: Scenario) -> None:
    info = store.create(duel, seed=3)
    revision = store.apply(info.id, 0, act("ann strike target=bob"))
    assert revision == 1
    kinds = [e.kind for e in store.entries(info.id)]
    assert kinds == ["decision", "dice", "toy.wounded", "toy.turn"]
    assert stored_events(store, info.id) == live_events(store, info.id)
    assert store.info(info.id).length == 4


def test_the_dice_of_a_decision_come_from_the_seed_and_the_log_position(
        store: EventStore, duel: Scenario) -> None:
    info = store.create(duel, seed=11)
    store.apply(info.id, 0, act("ann strike target=bob"))
    dice = [e.data for e in store.entries(info.id) if e.kind == "dice"]
    expected = SeededRng(derive_seed(11, "dice", 0)).dice(1, 6)
    assert dice[0]["faces"] == expected
    assert decision_rng(11, 0).dice(1, 6) == expected


def test_a_stale_revision_is_refused_and_nothing_is_written(
        store: EventStore, duel: Scenario) -> None:
    info = store.create(duel)
    store.apply(info.id, 0, act("ann wait"))
    before = stored_events(store, info.id)
    with pytest.raises(StaleRevisionError, match="you saw revision 0, it is now 1"):
        store.apply(info.id, 0, act("bob wait"))
    assert stored_events(store, info.id) == before
    assert store.info(info.id).revision == 1


def test_an_illegal_action_names_its_rule_and_nothing_is_written(
        store: EventStore, duel: Scenario) -> None:
    info = store.create(duel)
    with pytest.raises(IllegalActionError) as raised:
        store.apply(info.id, 0, act("bob wait"))
    assert raised.value.rule == "turn order"
    assert store.info(info.id).revision == 0
    assert [e.kind for e in store.entries(info.id)] == []


def test_two_writers_racing_for_one_decision_cannot_both_win(
        store: EventStore, duel: Scenario) -> None:
    info = store.create(duel)
    results: list[str] = []
    barrier = threading.Barrier(8)

    def writer() -> None:
        barrier.wait()
        try:
            store.apply(info.id, 0, act("ann wait"))
            results.append("won")
        except StaleRevisionError:
            results.append("stale")

    threads = [threading.Thread(target=writer) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["stale"] * 7 + ["won"]
    assert [e.kind for e in store.entries(info.id)].count("decision") == 1


def test_a_second_process_holding_an_old_view_is_refused(
        db_path: Path, duel: Scenario) -> None:
    first, second = EventStore(db_path), EventStore(db_path)
    try:
        info = first.create(duel)
        with second.live(info.id) as (_, revision):
            assert revision == 0
        first.apply(info.id, 0, act("ann wait"))
        with pytest.raises(StaleRevisionError):
            second.apply(info.id, 0, act("ann wait"))
        # The second store notices the new revision and rebuilds from the file.
        second.apply(info.id, 1, act("bob wait"))
        assert stored_events(first, info.id) == live_events(first, info.id)
        assert [e.kind for e in first.entries(info.id)].count("decision") == 2
    finally:
        first.close()
        second.close()


def test_a_failed_commit_rolls_back_and_the_live_fight_is_rebuilt(
        store: EventStore, duel: Scenario, monkeypatch: pytest.MonkeyPatch) -> None:
    info = store.create(duel, seed=5)
    store.apply(info.id, 0, act("ann wait"))
    before = stored_events(store, info.id)

    def broken(*args: Any, **kwargs: Any) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(EventStore, "_write_events", staticmethod(broken))
    with pytest.raises(sqlite3.OperationalError):
        store.apply(info.id, 1, act("bob strike target=ann"))
    monkeypatch.undo()
    assert store.info(info.id).revision == 1
    assert stored_events(store, info.id) == before
    assert live_events(store, info.id) == before


def test_reopening_the_file_replays_to_the_same_state(
        db_path: Path, duel: Scenario) -> None:
    store = EventStore(db_path)
    info = store.create(duel, seed=2)
    for revision, text in enumerate(["ann strike target=bob", "bob strike target=ann",
                                     "ann wait", "bob strike target=ann"]):
        store.apply(info.id, revision, act(text))
    with store.live(info.id) as (enc, _):
        state, view = enc.ruleset.clone_state(enc.state), enc.ruleset.view(enc.state)
    store.close()
    reopened = EventStore(db_path)
    try:
        with reopened.live(info.id) as (enc, revision):
            assert revision == 4
            assert enc.state == state
            assert enc.ruleset.view(enc.state) == view
    finally:
        reopened.close()


def test_undo_removes_the_last_decision_and_redo_restores_the_same_dice(
        store: EventStore, duel: Scenario) -> None:
    info = store.create(duel, seed=9)
    store.apply(info.id, 0, act("ann strike target=bob"))
    after_strike = stored_events(store, info.id)
    assert store.undo(info.id, 1) == 2
    assert stored_events(store, info.id) == [] == live_events(store, info.id)
    assert store.can_redo(info.id)
    assert store.redo(info.id, 2) == 3
    assert stored_events(store, info.id) == after_strike == live_events(store, info.id)
    assert not store.can_redo(info.id)


def test_undo_survives_a_restart_and_a_new_action_clears_redo(
        db_path: Path, duel: Scenario) -> None:
    store = EventStore(db_path)
    info = store.create(duel)
    store.apply(info.id, 0, act("ann wait"))
    store.apply(info.id, 1, act("bob wait"))
    store.undo(info.id, 2)
    store.close()
    store = EventStore(db_path)
    try:
        assert [e.data.get("action") for e in store.entries(info.id)
                if e.kind == "decision"] == ["ann wait"]
        assert store.can_redo(info.id)
        store.apply(info.id, 3, act("bob strike target=ann"))
        assert not store.can_redo(info.id)
        with pytest.raises(NothingToUndoError):
            store.redo(info.id, 4)
    finally:
        store.close()


def test_undo_with_no_decision_says_so(store: EventStore, duel: Scenario) -> None:
    info = store.create(duel)
    with pytest.raises(NothingToUndoError, match="nothing to undo"):
        store.undo(info.id, 0)


def test_undo_then_the_same_action_rolls_the_same_dice(
        store: EventStore, duel: Scenario) -> None:
    """Ruling: dice follow the seed and the log position, so undo cannot re-roll."""
    info = store.create(duel, seed=4)
    store.apply(info.id, 0, act("ann strike target=bob"))
    first = stored_events(store, info.id)
    store.undo(info.id, 1)
    store.apply(info.id, 2, act("ann strike target=bob"))
    assert stored_events(store, info.id) == first


def test_export_then_import_gives_an_equal_fight(store: EventStore, duel: Scenario) -> None:
    info = store.create(duel, seed=6)
    for revision, text in enumerate(["ann strike target=bob", "bob strike target=ann"]):
        store.apply(info.id, revision, act(text))
    exported = store.export_log(info.id)
    copy = store.import_log(exported, "fight.jsonl")
    assert copy.id != info.id and copy.revision == 0
    assert store.export_log(copy.id) == exported
    with store.live(info.id) as (a, _), store.live(copy.id) as (b, _):
        assert a.state == b.state


@pytest.mark.parametrize(("text", "message"), [
    ("", r"fight.jsonl:1: a fracas log starts with a header line"),
    ('{"type": "header", "ruleset": "toy"}\n', r"fight.jsonl:1: the header needs scenario"),
    ("not json\n", r"fight.jsonl:1: not JSON"),
    ('{"type": "header", "ruleset": "toy", "scenario": {}, "format": 99}\n',
     r"log format 99 is not supported"),
])
def test_a_bad_import_says_which_line_is_wrong(store: EventStore, text: str,
                                               message: str) -> None:
    with pytest.raises(LogFormatError, match=message):
        store.import_log(text, "fight.jsonl")
    assert store.encounters() == []


def test_an_import_whose_scenario_is_invalid_names_the_field(store: EventStore) -> None:
    text = json.dumps({"type": "header", "ruleset": "toy", "scenario": {"ruleset": "toy"},
                       "seed": 0, "format": 1}) + "\n"
    with pytest.raises(ScenarioError, match="fighters"):
        store.import_log(text, "fight.jsonl")


def test_an_import_with_an_impossible_event_is_refused(store: EventStore,
                                                       duel: Scenario) -> None:
    info = store.create(duel)
    text = store.export_log(info.id) + '{"type": "no.such.event"}\n'
    with pytest.raises(LogFormatError, match=r"fight\.jsonl:2: unknown event type"):
        store.import_log(text, "fight.jsonl")


def test_an_import_whose_dice_or_results_were_edited_is_refused(store: EventStore,
                                                                duel: Scenario) -> None:
    info = store.create(duel, seed=6)
    store.apply(info.id, 0, act("ann strike target=bob"))
    exported = store.export_log(info.id)
    lines = exported.splitlines(keepends=True)
    dice = next(i for i, line in enumerate(lines) if '"faces"' in line)
    face = json.loads(lines[dice])["faces"][0]
    other = 1 if face != 1 else 2
    edited = [*lines[:dice], lines[dice].replace(f'"faces": [{face}]', f'"faces": [{other}]'),
              *lines[dice + 1:]]
    assert edited != lines
    with pytest.raises(LogFormatError, match=rf"fight\.jsonl:{dice + 2}:"):  # the wound
        store.import_log("".join(edited), "fight.jsonl")
    seven = [*lines[:dice], lines[dice].replace(f'"faces": [{face}]', '"faces": [7]'),
             *lines[dice + 1:]]
    with pytest.raises(LogFormatError, match=rf"fight\.jsonl:{dice + 1}:"):  # no d6 shows 7
        store.import_log("".join(seven), "fight.jsonl")
    assert [e.id for e in store.encounters()] == [info.id]


def test_archived_encounters_leave_the_list_but_keep_their_log(
        store: EventStore, duel: Scenario) -> None:
    info = store.create(duel)
    store.apply(info.id, 0, act("ann wait"))
    store.set_archived(info.id, True)
    assert store.encounters() == []
    assert [e.id for e in store.encounters(include_archived=True)] == [info.id]
    assert store.info(info.id).archived and len(store.entries(info.id)) == 2
    store.set_archived(info.id, False)
    assert [e.id for e in store.encounters()] == [info.id]


def test_unknown_encounters_are_a_clear_error(store: EventStore) -> None:
    with pytest.raises(UnknownEncounterError, match="no encounter 'nope'"):
        store.info("nope")
    with pytest.raises(UnknownEncounterError):
        store.apply("nope", 0, act("ann wait"))
    with pytest.raises(UnknownEncounterError):
        store.set_archived("nope", True)


def test_the_cache_keeps_only_the_most_recent_fights_but_all_stay_playable(
        db_path: Path, duel: Scenario) -> None:
    store = EventStore(db_path, cache_size=1)
    try:
        a, b = store.create(duel), store.create(duel)
        store.apply(a.id, 0, act("ann wait"))
        store.apply(b.id, 0, act("ann strike target=bob"))
        store.apply(a.id, 1, act("bob wait"))
        assert len(store._cache) == 1
        assert stored_events(store, a.id) == live_events(store, a.id)
        assert stored_events(store, b.id) == live_events(store, b.id)
    finally:
        store.close()


def test_the_log_text_says_what_happened(store: EventStore, duel: Scenario) -> None:
    info = store.create(duel, seed=1)
    store.apply(info.id, 0, act("ann strike target=bob"))
    entries = store.entries(info.id)
    faces = entries[1].data["faces"]
    assert entries[0].text == "ann: strike, target bob"  # words, not the typed syntax
    assert entries[1].text == f"ann rolls 1d6 for damage: {faces[0]}"


def test_the_database_is_in_wal_mode(store: EventStore, db_path: Path) -> None:
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_stored_fight_from_format_1_still_replays_to_the_same_state(
        store: EventStore) -> None:
    """A log written by this version is pinned; later versions must replay it identically."""
    info = store.import_log(GOLDEN.read_text(encoding="utf-8"), GOLDEN.name)
    with store.live(info.id) as (enc, _):
        assert enc.state.hp == {"ann": 3, "bob": -3}
        assert enc.outcome() is not None and enc.outcome().winner == "red"
        _header, records = parse_log_text(GOLDEN.read_text(encoding="utf-8"), "golden")
        events = [decode_event(data, enc.ruleset) for _, data in records]
        assert [encode_event(e) for e in enc.log] == [encode_event(e) for e in events]
        decisions = [e.action for e in events if isinstance(e, DecisionMade)]
        assert all(isinstance(a, Action) for a in decisions)
        faces = [f for e in events if isinstance(e, DiceRolled) for f in e.faces]
        replayed = Encounter.replay(enc.ruleset, enc.initial_state, events)
        assert replayed.state == enc.state and sum(faces) == 40


def test_events_nobody_describes_are_logged_with_their_kind_and_fields_in_words(
        store: EventStore, duel: Scenario) -> None:
    info = store.create(duel, seed=1)
    store.apply(info.id, 0, act("ann strike target=bob"))
    wounded = store.entries(info.id)[2]
    assert wounded.text == f"wounded: target bob, amount {wounded.data['amount']}"


@pytest.mark.parametrize(("markup", "text"), [
    ("[bold]round 2[/bold] begins", "round 2 begins"),
    ("[bold red]Azure[/] falls", "Azure falls"),
    ("[Azure] keeps [1, 2]", "[Azure] keeps [1, 2]"),
])
def test_rich_style_tags_are_removed_from_stored_text(markup: str, text: str) -> None:
    assert plain(markup) == text


def test_a_seed_outside_what_sqlite_stores_is_a_scenario_error(
        store: EventStore, duel: Scenario) -> None:
    with pytest.raises(ScenarioError, match="seed"):
        store.create(duel, seed=2**63)
    with pytest.raises(ScenarioError, match="seed"):
        store.create(duel, seed=-1)


def test_an_import_with_a_bad_seed_is_refused(store: EventStore, duel: Scenario) -> None:
    info = store.create(duel)
    lines = store.export_log(info.id).splitlines()
    header = json.loads(lines[0])
    header["seed"] = "abc"
    with pytest.raises(LogFormatError, match="seed"):
        store.import_log(json.dumps(header) + "\n", "fight.jsonl")


def test_an_import_whose_events_break_the_fold_is_a_clear_error(
        store: EventStore, duel: Scenario) -> None:
    info = store.create(duel)
    text = store.export_log(info.id)
    text += json.dumps({"type": "toy.wounded", "target": "nobody", "amount": 3,
                        "hidden": False}) + "\n"
    with pytest.raises(LogFormatError,
                       match=r"fight\.jsonl:2: the events do not replay by the rules"):
        store.import_log(text, "fight.jsonl")
    assert len(store.encounters()) == 1
