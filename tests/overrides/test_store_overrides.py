"""GM overrides survive the SQLite event store: applied, described, undone, redone, reopened."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from override_helpers import EXAMPLES, same

from fracas.scenario import load_scenario
from fracas.store import EventStore


@pytest.mark.parametrize(("ruleset", "example", "text", "line"), [
    ("age_of_dragons", "claw_duel", "gm adjust target=Ash what=pr by=-3",
     "The GM wounds Ash: Physical Resilience 20 → 17"),
    ("one_ring", "company_vs_orcs", "gm condition target=Beran condition=knocked_back",
     "The Loremaster sets a condition of Beran: knocked back"),
    ("adnd", "bottleneck", "gm add like=orc8 name=orc9",
     "The DM brings orc9 into the fight (like orc8)"),
    ("battlesystem", "dwarf_column_ambush", "gm delay target=hearthguard",
     "The GM delays a turn: hearthguard acts last in this move phase"),
])
def test_an_override_in_the_store(tmp_path: Path, ruleset: str, example: str, text: str,
                                  line: str) -> None:
    path = tmp_path / "fracas.sqlite"
    store = EventStore(path)
    try:
        info = store.create(load_scenario(EXAMPLES / ruleset / f"{example}.yaml"), seed=2)
        start = info.revision
        revision = store.apply(info.id, start, lambda enc: enc.ruleset.parse_action(text))
        entries = store.entries(info.id)
        told = [e for e in entries if e.kind.startswith("gm.")]
        assert [e.text for e in told] == [line]
        assert told[0].text_for(None) == line  # the GM reads it (players: as any line, veiled)
        with store.live(info.id) as (enc, _):
            after = enc.ruleset.clone_state(enc.state)
            rs = enc.ruleset
        revision = store.undo(info.id, revision)
        assert not any(e.kind.startswith("gm.") for e in store.entries(info.id))
        revision = store.redo(info.id, revision)
    finally:
        store.close()
    reopened = EventStore(path)
    try:
        with reopened.live(info.id) as (enc, _):
            assert same(enc, enc.state, after)
            assert enc.ruleset is rs or enc.ruleset.name == rs.name
        assert [e.text for e in reopened.entries(info.id) if e.kind.startswith("gm.")] == [line]
        exported = reopened.export_log(info.id)
        assert text in exported
    finally:
        reopened.close()
