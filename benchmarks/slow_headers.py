"""Another client's latency while 1,100 connections trickle their headers (issue 34).

Starts ``fracas serve`` on 127.0.0.1 under a 1,024 open-file limit, times 200 plain GETs
(quiet), opens 1,100 connections from 127.0.0.2 that never finish their headers, and
times 200 GETs again (with ``--limits off`` the server runs without fracas.web.limits,
as before issue 34).  Run:

    PYTHONPATH=src .venv/bin/python benchmarks/slow_headers.py [--limits off]
"""

from __future__ import annotations

import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent


def _server(db: Path, port: int, limits: bool) -> subprocess.Popen[bytes]:
    code = ("import sys, uvicorn\n"
            "from fracas.cli.app import main\n"
            "main(sys.argv[1:])\n") if limits else (
            "import sys\n"
            "import fracas.web.limits as l\n"
            "l.bounded_protocol = lambda limits: 'h11'\n"
            "from fracas.cli.app import main\n"
            "main(sys.argv[1:])\n")

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

    return subprocess.Popen([sys.executable, "-c", code, "serve", "--db", str(db), "--port",
                             str(port)], preexec_fn=cap, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def _times(url: str, n: int = 200) -> list[float]:
    out = []
    with httpx.Client(timeout=10) as client:
        for _ in range(n):
            start = time.perf_counter()
            try:
                client.get(url)
                out.append(time.perf_counter() - start)
            except httpx.TransportError:
                out.append(10.0)  # a request that timed out or was refused
    return out


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] * 1000


def main() -> None:
    limits = "--limits" not in sys.argv or sys.argv[sys.argv.index("--limits") + 1] != "off"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        proc = _server(Path(tmp) / "f.sqlite", port, limits)
        url = f"http://127.0.0.1:{port}/"
        try:
            for _ in range(300):
                try:
                    httpx.get(url, timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            quiet = _times(url)
            held = []
            for _ in range(1_100):
                try:
                    sock = socket.socket()
                    sock.bind(("127.0.0.2", 0))
                    sock.settimeout(2)
                    sock.connect(("127.0.0.1", port))
                    sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                    held.append(sock)
                except OSError:
                    pass
            attacked = _times(url, 200 if limits else 20)  # (off: each can wait 10 s)
            print(f"limits {'on' if limits else 'off'}: GET / p95 quiet {_p95(quiet):.1f} ms, "
                  f"under 1,100 slow-header connections {_p95(attacked):.1f} ms "
                  f"(failed {sum(t >= 10 for t in attacked)} of {len(attacked)})")
            for sock in held:
                sock.close()
        finally:
            proc.terminate()
            proc.wait(timeout=10)


if __name__ == "__main__":
    main()
