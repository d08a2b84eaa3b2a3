"""Whatever mix of actions, undos and redos a table makes, the file and the live fight agree."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.core.encounter import Encounter
from fracas.core.errors import FightOverError, NothingToUndoError
from fracas.core.events import encode_event
from fracas.core.ruleset import Action
from fracas.scenario import parse_scenario
from fracas.store import EventStore

SHORT_DUEL = """\
ruleset: toy
fighters:
  - {name: ann, side: red, hp: 9}
  - {name: bob, side: blue, hp: 9}
"""

def pick(index: int) -> Callable[[Encounter[Any]], Action]:
    """Choose the ``index``-th legal action (the fight being over is an error, as in play)."""
    def choose(enc: Encounter[Any]) -> Action:
        legal = list(enc.legal_actions())
        if not legal:
            raise FightOverError("the fight is over")
        return legal[index % len(legal)]
    return choose


steps = st.lists(st.sampled_from(["act0", "act1", "undo", "redo"]), min_size=1, max_size=25)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps, st.integers(min_value=0, max_value=1000))
def test_stored_log_equals_live_log_and_replays_after_reopening(moves: list[str],
                                                                seed: int) -> None:
    scenario = parse_scenario(SHORT_DUEL, "short.yaml")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "p.sqlite"
        store = EventStore(db)
        info = store.create(scenario, seed=seed)
        revision = 0
        for move in moves:
            try:
                if move == "undo":
                    revision = store.undo(info.id, revision)
                elif move == "redo":
                    revision = store.redo(info.id, revision)
                else:
                    revision = store.apply(info.id, revision, pick(int(move[-1])))
            except (NothingToUndoError, FightOverError):
                pass
        stored = [e.data for e in store.entries(info.id)]
        with store.live(info.id) as (enc, live_revision):
            assert live_revision == revision
            assert [encode_event(e) for e in enc.log] == stored
            state = enc.ruleset.clone_state(enc.state)
        store.close()
        reopened = EventStore(db)
        try:
            with reopened.live(info.id) as (enc, _):
                assert enc.state == state
                fresh = Encounter.replay(enc.ruleset, enc.initial_state, enc.log)
                assert fresh.state == state
        finally:
            reopened.close()
