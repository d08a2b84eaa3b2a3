"""A real GM console server for browser tests: uvicorn in a thread on 127.0.0.1 and a free port."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from web_helpers import SCENARIOS

from fracas.store import EventStore
from fracas.web import create_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class LiveServer:
    """Runs the console over ``db`` until :meth:`stop`."""

    def __init__(self, db: Path, scenario_dirs: Sequence[Path]) -> None:
        self.store = EventStore(db)
        self.app = create_app(self.store, scenario_dirs)
        self.port = free_port()
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                access_log=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 120  # eventually: a 4x overloaded machine
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def home(self) -> str:
        return f"{self.url}/gm/{self.app.state.admin_key}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=60)
        self.store.close()


@contextmanager
def toy_server(root: Path, *more: Path) -> Iterator[LiveServer]:
    """A live console over the toy scenarios (written under ``root``) and ``more`` folders."""
    folder = root / "scenarios"
    folder.mkdir()
    for name, text in SCENARIOS.items():
        (folder / name).write_text(text, encoding="utf-8")
    live = LiveServer(root / "console.sqlite", [folder, *more])
    try:
        yield live
    finally:
        live.stop()


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (imported only when a test asks)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                      args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


def revision(page: Any) -> int:
    """The table revision the page shows."""
    return int(page.get_attribute("#live", "data-revision"))


def wait_revision(page: Any, value: int, timeout: float = 60_000) -> None:
    """Wait until the page shows revision ``value``."""
    page.wait_for_selector(f'#live[data-revision="{value}"]', timeout=timeout)
