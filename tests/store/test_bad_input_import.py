"""Imports of reordered or duplicated logs are refused, and nothing is stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.core.errors import LogFormatError
from fracas.scenario import load_scenario
from fracas.store import EventStore

DUEL = Path(__file__).resolve().parents[2] / "examples" / "age_of_dragons" / "claw_duel.yaml"


def _played(store: EventStore) -> str:
    from fracas.web.app import ai_choice

    info = store.create(load_scenario(DUEL), 3)
    rev = info.revision
    while not store.info(info.id).status.startswith("over"):  # played to the end
        rev = store.apply(info.id, rev, ai_choice)
    return store.export_log(info.id)


@pytest.mark.parametrize("how", ["reversed", "twice"])
def test_a_tampered_import_is_refused(how: str, store: EventStore) -> None:
    lines = _played(store).splitlines()
    tampered = [lines[0], *lines[:0:-1]] if how == "reversed" else lines + lines[1:]
    with pytest.raises(LogFormatError, match=r"fight\.jsonl:\d+: the events do not replay"):
        store.import_log("\n".join(tampered) + "\n", "fight.jsonl")
    assert len(store.encounters()) == 1
    assert store.import_log("\n".join(lines) + "\n", "fight.jsonl").title == "Claw duel"
