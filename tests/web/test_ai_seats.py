"""The console's AI keeps a search seat's policy between the decisions of a fight (its
plan and its turn's clock), and starts it afresh after an undo."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fracas.ai.search import SearchPolicy
from fracas.core.encounter import Encounter
from fracas.scenario import parse_scenario
from fracas.store import EventStore
from fracas.web.autoplay import Seats, ai_choice, play_to_the_end

ROOT = Path(__file__).resolve().parents[2]
WALL = ROOT / "examples" / "adnd" / "wall_duel.yaml"


def _fight(store: EventStore) -> str:
    text = WALL.read_text(encoding="utf-8") + "search: {rollouts: 4}\n"
    text = text.replace("  - name: Dorn\n", "  - name: Dorn\n    policy: search\n", 1)
    scenario = parse_scenario(text, "wall_duel.yaml")
    return store.create(scenario, seed=5).id


def _until(store: EventStore, enc_id: str, seats: Seats, decided: int) -> Any:
    """Let the AI decide until Dorn (the search seat) has decided ``decided`` times."""
    seen = 0
    while True:
        with store.live(enc_id) as (enc, revision):
            actor = enc.current_actor()
            if actor == "Dorn" and seen == decided:
                return seats.policy(enc_id, enc, "Dorn"), revision
        store.apply(enc_id, None, lambda enc: ai_choice(enc, seats, enc_id))
        seen += actor == "Dorn"


def test_a_search_seat_is_the_same_policy_from_one_decision_to_the_next(
        store: EventStore) -> None:
    seats = Seats()
    enc_id = _fight(store)
    first, _ = _until(store, enc_id, seats, 1)
    assert isinstance(first, SearchPolicy)
    again, _ = _until(store, enc_id, seats, 1)  # Dorn decides once more meanwhile
    assert again is first
    assert len(seats) == 1  # the heuristic seat (Corvin) is built each time, not kept


def test_after_an_undo_the_search_seat_starts_afresh(store: EventStore) -> None:
    seats = Seats()
    enc_id = _fight(store)
    first, revision = _until(store, enc_id, seats, 2)
    store.undo(enc_id, revision)
    with store.live(enc_id) as (enc, _):
        assert seats.policy(enc_id, enc, "Dorn") is not first


def test_other_fights_and_old_seats_are_kept_apart(store: EventStore) -> None:
    seats = Seats(size=1)
    one, two = _fight(store), _fight(store)
    a, _ = _until(store, one, seats, 0)
    b, _ = _until(store, two, seats, 0)
    assert a is not b and len(seats) == 1  # the older seat was let go


def test_play_to_the_end_plays_a_search_seat_through_the_seats(
        store: EventStore, monkeypatch: pytest.MonkeyPatch) -> None:
    # To the end within the cap of decisions, however slow the machine (no cap of seconds).
    monkeypatch.setattr("fracas.web.autoplay.AUTO_SECONDS", 600.0)
    seats = Seats()
    enc_id = _fight(store)
    said = play_to_the_end(store, enc_id, None, seats)
    assert "the AI played" in said
    with store.live(enc_id) as (enc, _):
        assert isinstance(enc, Encounter) and enc.is_over
    assert len(seats) == 1
