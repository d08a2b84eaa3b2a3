"""A real GM console server for browser tests: uvicorn in a thread on 127.0.0.1 and a free port."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import uvicorn

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
