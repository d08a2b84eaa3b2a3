"""Fixtures for the GM console: toy scenarios, a store, the app and a test client."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import web_secret_ruleset  # noqa: F401  (registers "toy_secret")
from fastapi import FastAPI
from fastapi.testclient import TestClient
from web_helpers import SCENARIOS, Console

from fracas.store import EventStore
from fracas.web import create_app


@pytest.fixture
def scenario_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    for name, text in SCENARIOS.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EventStore]:
    opened = EventStore(tmp_path / "console.sqlite")
    yield opened
    opened.close()


@pytest.fixture
def app(store: EventStore, scenario_dir: Path) -> FastAPI:
    return create_app(store, [scenario_dir], max_body=64 * 1024)


@pytest.fixture
def console(app: FastAPI, scenario_dir: Path) -> Console:
    return Console(TestClient(app), app.state.admin_key, scenario_dir.name)
