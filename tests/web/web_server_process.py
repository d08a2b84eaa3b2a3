"""Start and kill real ``fracas serve`` processes on 127.0.0.1 (crash and load tests)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
from web_live_server import free_port

SERVE = Path(__file__).resolve().parent / "serve_toy.py"


class ServerProcess:
    """A ``fracas serve`` child process over ``db``; :meth:`kill` sends SIGKILL."""

    def __init__(self, db: Path, port: int | None = None) -> None:
        self.db = db
        self.port = port or free_port()
        self.proc = subprocess.Popen(
            [sys.executable, str(SERVE), "serve", "--db", str(db), "--host", "127.0.0.1",
             "--port", str(self.port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ,
                                                                     "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + 120  # eventually: a 4x overloaded machine
        while True:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"fracas serve exited early: {err}")
            try:
                httpx.get(f"{self.url}/", timeout=1.0)
                return
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    self.kill()
                    raise RuntimeError("fracas serve did not answer within 120 s") from None
                time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """SIGKILL: no clean-up, no flushing, exactly like a crash."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=60)
        if self.proc.stderr:
            self.proc.stderr.close()
