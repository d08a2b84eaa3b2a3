"""Load test of the GM console on loopback: N clients acting on N encounters for S seconds.

Starts a real ``fracas serve`` process on 127.0.0.1 and a free port over a fresh
SQLite file, gives every client its own encounter (a new one through the GM's
create form whenever a fight ends), and has each client take a random legal
action, wait for the answer, and repeat.  Only the action POSTs are timed.
Everything is bounded: a deadline, a cap on actions, a per-request timeout,
and the server is killed when the run ends.

    .venv/bin/python benchmarks/web_load.py --clients 1,5,20 --seconds 20 --runs 3

Reports, per number of clients, the throughput (acted requests per second) and
the p50, p95 and p99 latency of the action POSTs (median over the runs).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SCENARIO = ROOT / "examples" / "age_of_dragons" / "claw_duel.yaml"


@dataclass
class ClientResult:
    latencies: list[float] = field(default_factory=list)
    fights: int = 0
    conflicts: int = 0
    errors: list[str] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(db: Path, port: int, python: str) -> subprocess.Popen[bytes]:
    fracas = str(Path(python).parent / "fracas")
    proc = subprocess.Popen([fracas, "serve", "--db", str(db),
                             "--host", "127.0.0.1", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return proc


def read_admin_link(proc: subprocess.Popen[bytes], timeout: float = 30.0) -> str:
    """The GM link ``fracas serve`` prints when it starts."""
    deadline = time.monotonic() + timeout
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline().decode()
        if not line:
            break
        found = re.search(r"(http://\S+/gm/\S+)", line)
        if found:
            return found.group(1)
    raise RuntimeError("fracas serve did not print its GM link")


def wait_ready(url: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            httpx.get(url, timeout=1.0)
            return
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def new_fight(client: httpx.Client, admin: str, scenario: str, seed: int) -> str:
    """Create an encounter through the GM's form; returns its GM link (a path)."""
    page = client.get(admin).text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    if csrf is None:
        raise RuntimeError("no CSRF token on the GM home page")
    answer = client.post(f"{admin}/create", data={"csrf": csrf.group(1), "seed": str(seed)},
                         files={"scenario": ("load.yaml", scenario.encode(), "text/yaml")})
    if answer.status_code != 303:
        raise RuntimeError(f"create failed: {answer.status_code} {answer.text[:200]}")
    return str(answer.headers["location"])


def client_loop(base: str, admin: str, scenario: str, index: int, deadline: float,
                budget: list[int], lock: threading.Lock, result: ClientResult) -> None:
    rng = random.Random(index)
    with httpx.Client(base_url=base, timeout=10.0) as client:
        try:
            link = new_fight(client, admin, scenario, index)
            result.fights += 1
            state = client.get(f"{link}/state.json").json()
            csrf, rev, actions = state["csrf"], state["revision"], state["actions"]
            while time.monotonic() < deadline:
                with lock:
                    if budget[0] <= 0:
                        return
                    budget[0] -= 1
                if not actions:
                    link = new_fight(client, admin, scenario, index * 10_000 + result.fights)
                    result.fights += 1
                    state = client.get(f"{link}/state.json").json()
                    csrf, rev, actions = state["csrf"], state["revision"], state["actions"]
                    continue
                action = actions[rng.randrange(len(actions))]
                started = time.perf_counter()
                answer = client.post(f"{link}/act", data={"csrf": csrf, "rev": str(rev),
                                                          "action": action},
                                     headers={"accept": "application/json"})
                elapsed = time.perf_counter() - started
                body: dict[str, Any] = answer.json()
                if answer.status_code == 409:
                    result.conflicts += 1
                elif answer.status_code != 200:
                    result.errors.append(f"{answer.status_code}: {body.get('error')}")
                    return
                else:
                    result.latencies.append(elapsed)
                rev, actions = body["revision"], body["actions"]
        except (httpx.HTTPError, RuntimeError, KeyError, ValueError) as exc:
            result.errors.append(f"{type(exc).__name__}: {exc}")


def run_load(clients: int = 20, seconds: float = 30.0, scenario: Path = DEFAULT_SCENARIO,
             max_actions: int = 200_000, python: str = sys.executable) -> dict[str, Any]:
    """One bounded run; returns counts, actions per second and latency percentiles (ms)."""
    text = scenario.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start_server(Path(tmp) / "load.sqlite", port, python)
        try:
            admin_url = read_admin_link(server)
            base = f"http://127.0.0.1:{port}"
            wait_ready(base + "/")
            admin = admin_url.removeprefix(base)
            results = [ClientResult() for _ in range(clients)]
            lock = threading.Lock()
            budget = [max_actions]
            started = time.monotonic()
            deadline = started + seconds
            threads = [threading.Thread(target=client_loop, daemon=True,
                                        args=(base, admin, text, i, deadline, budget, lock,
                                              results[i])) for i in range(clients)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=seconds + 30)
            wall = time.monotonic() - started
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    latencies = sorted(x for r in results for x in r.latencies)
    return {
        "clients": clients, "seconds": round(wall, 2), "actions": len(latencies),
        "actions_per_second": round(len(latencies) / wall, 1) if wall else 0.0,
        "p50_ms": round(1000 * _percentile(latencies, 0.50), 1),
        "p95_ms": round(1000 * _percentile(latencies, 0.95), 1),
        "p99_ms": round(1000 * _percentile(latencies, 0.99), 1),
        "fights": sum(r.fights for r in results),
        "conflicts": sum(r.conflicts for r in results),
        "errors": [e for r in results for e in r.errors][:10],
    }


def _percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[index]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", default="1,5,20",
                        help="numbers of clients, comma-separated (one series each)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--max-actions", type=int, default=200_000)
    parser.add_argument("--scenario", type=Path, default=DEFAULT_SCENARIO)
    parser.add_argument("--json", action="store_true", help="print every run as JSON")
    args = parser.parse_args()
    keys = ("actions_per_second", "p50_ms", "p95_ms", "p99_ms")
    table = []
    everything = {}
    for clients in (int(c) for c in str(args.clients).split(",") if c.strip()):
        runs = []
        for n in range(args.runs):
            result = run_load(clients, args.seconds, args.scenario, args.max_actions)
            runs.append(result)
            print(f"{clients} client(s), run {n + 1}: {result['actions']} actions in "
                  f"{result['seconds']} s = {result['actions_per_second']}/s, "
                  f"p50 {result['p50_ms']} ms, p95 {result['p95_ms']} ms, "
                  f"p99 {result['p99_ms']} ms, {result['fights']} fights, "
                  f"{result['conflicts']} conflicts, errors: {result['errors'] or 'none'}",
                  flush=True)
        summary = {key: statistics.median(r[key] for r in runs) for key in keys}
        table.append((clients, summary, [r["actions_per_second"] for r in runs]))
        everything[clients] = {"runs": runs, "median": summary}
    print(f"\n| clients | actions/s (median of {args.runs}) | p50 | p95 | p99 | runs (actions/s) |")
    print("|---|---|---|---|---|---|")
    for clients, summary, rates in table:
        print(f"| {clients} | {summary['actions_per_second']} | {summary['p50_ms']} ms | "
              f"{summary['p95_ms']} ms | {summary['p99_ms']} ms | "
              f"{', '.join(str(r) for r in rates)} |")
    if args.json:
        print(json.dumps(everything, indent=2))


if __name__ == "__main__":
    main()
