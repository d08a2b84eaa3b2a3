"""Fixtures for the event store: a toy duel scenario and a fresh SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fracas.scenario import Scenario, parse_scenario
from fracas.store import EventStore

DUEL = """\
ruleset: toy
name: duel
fighters:
  - {name: ann, side: red, hp: 20}
  - {name: bob, side: blue, hp: 20}
"""


@pytest.fixture
def duel() -> Scenario:
    return parse_scenario(DUEL, "duel.yaml")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "fracas.sqlite"


@pytest.fixture
def store(db_path: Path) -> Iterator[EventStore]:
    opened = EventStore(db_path)
    yield opened
    opened.close()
