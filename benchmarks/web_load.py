"""Load test of the GM console on loopback: N clients acting on N encounters for S seconds.

Starts a real ``fracas serve`` process on 127.0.0.1 and a free port over a fresh
SQLite file, gives every client its own encounter (a new one through the GM's
create form whenever a fight ends), and has each client decide as a page does
and repeat: choose a verb at random, ask ``decide`` (JSON) for its steps, pick a
random offered value for every step and ask ``decide`` again (the server keeps
the values still offered), then post the whole action to ``act`` and wait for
the answer.  Since 2026-12-01 (second session) ``state.json`` and each answer to
an action carry ``next``: the usual verb's steps at their defaults, exactly as
``decide`` answers them, so a client that picks the usual verb skips the first
``decide`` (a script reads them; a page shows that form open, below).  Against
an older server, which sends no ``next``, the clients ask as before.
``--protocol list`` instead picks from the whole list of legal actions (the old
way: ``state.json``/answers' ``actions``, or ``actions.json`` where the answers
no longer carry it).  Everything is bounded: a deadline, a cap
on actions, a per-request timeout, and the server is killed when the run ends.

``--protocol page`` does what a person's page in a browser does instead: it loads
the table's page, keeps its event stream open (each commit pushes the fresh panel
to it), and posts each click as htmx does, getting HTML back (the Decide
fragment, then the whole panel as ``act``'s answer).  Where the panel opens the
usual verb's form (newer servers), a click of that verb is not needed: the page
changes the values in the open form, as a person would.

What "N clients" means here: N people at N tables, each with a browser of their
own (one kept-alive connection each) who never pause between clicks
(``--think`` adds a person's pauses), so the server always has N requests in
hand: a much heavier load than N people at a table.  The clients are threads
spread over load-generating processes, five to a process (``--client-processes``),
so that they do not queue behind one another for one interpreter lock to read
their answers, and they speak HTTP through the standard library's client
(``--http httpx`` for the old one, which used twice the CPU); they still share
the machine's cores with the server, and their CPU time is reported beside the
server's.

    .venv/bin/python benchmarks/web_load.py --clients 1,5,20 --seconds 20 --runs 3
    .venv/bin/python benchmarks/web_load.py --tree before=/work/today/src --tree after=src \
        --clients 1,5,20 --seconds 10 --runs 3

Reports, per tree and number of clients, the throughput (acted requests per
second) and the p50, p95 and p99 latency of the ``act`` POSTs and of all
requests (median over the runs).  With several ``--tree`` options the trees are
run one after the other for each number of clients (the server runs with
``PYTHONPATH`` set to the tree's ``src``), so a before/after comparison shares
one machine state.  ``--sync normal`` runs the server's store with SQLite's
``synchronous=NORMAL`` (an experiment: it shows what the fsync of each commit
costs; the store itself uses ``FULL``).
"""

from __future__ import annotations

import argparse
import html
import http.client
import json
import multiprocessing
import os
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
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SCENARIO = ROOT / "examples" / "age_of_dragons" / "claw_duel.yaml"

#: Run by the server process with ``--sync normal``: the store's pragma is changed after it
#: opens its database, then ``fracas serve`` runs as usual.
_SYNC_BOOT = """\
import sys
from fracas.store import sqlite as _s
_open = _s.EventStore.__init__
def _init(self, *a, **k):
    _open(self, *a, **k)
    self._db.execute("PRAGMA synchronous=NORMAL")
_s.EventStore.__init__ = _init
from fracas.cli.app import main
sys.argv[0] = "fracas"
main()
"""


@dataclass
class ClientResult:
    latencies: list[float] = field(default_factory=list)
    every: list[float] = field(default_factory=list)
    fights: int = 0
    conflicts: int = 0
    errors: list[str] = field(default_factory=list)


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(db: Path, port: int, python: str, src: Path | None = None,
                 sync: str = "full") -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    args = ["serve", "--db", str(db), "--host", "127.0.0.1", "--port", str(port)]
    command = ([python, "-c", _SYNC_BOOT, *args] if sync == "normal" else
               [python, "-m", "fracas", *args])
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            cwd=tempfile.gettempdir())


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


class StdlibWire:
    """A client's one kept-alive connection, through the standard library's HTTP client.

    It costs the load generator about a third of httpx's CPU time a request, time the
    server would otherwise lose on the shared cores: browsers run on other machines.
    """

    def __init__(self, base: str) -> None:
        where = urllib.parse.urlsplit(base)
        self.conn = http.client.HTTPConnection(where.hostname or "127.0.0.1", where.port,
                                               timeout=10.0)

    def get(self, path: str) -> tuple[int, bytes]:
        return self._send("GET", path, None, {})

    def post(self, path: str, data: dict[str, str], headers: dict[str, str]
             ) -> tuple[int, bytes]:
        return self._send("POST", path, urllib.parse.urlencode(data).encode(),
                          {"content-type": "application/x-www-form-urlencoded", **headers})

    def _send(self, method: str, path: str, body: bytes | None, headers: dict[str, str]
              ) -> tuple[int, bytes]:
        try:
            self.conn.request(method, path, body, headers)
            answer = self.conn.getresponse()
            return answer.status, answer.read()
        except (OSError, http.client.HTTPException) as exc:
            self.conn.close()
            raise RuntimeError(f"{method} {path}: {type(exc).__name__}: {exc}") from None

    def close(self) -> None:
        self.conn.close()


class HttpxWire:
    """The same through httpx (the benchmark's client before 2026-12-01's second session)."""

    def __init__(self, client: httpx.Client) -> None:
        self.client = client

    def get(self, path: str) -> tuple[int, bytes]:
        answer = self.client.get(path)
        return answer.status_code, answer.content

    def post(self, path: str, data: dict[str, str], headers: dict[str, str]
             ) -> tuple[int, bytes]:
        answer = self.client.post(path, data=data, headers=headers)
        return answer.status_code, answer.content

    def close(self) -> None:
        pass


Wire = StdlibWire | HttpxWire


class Table:
    """One client's encounter, as a script sees it over HTTP."""

    def __init__(self, client: Wire, link: str, result: ClientResult,
                 think: float = 0.0, rng: random.Random | None = None) -> None:
        self.client, self.link, self.result = client, link, result
        self.think, self.rng = think, rng or random.Random(0)
        state = self.get("state.json")
        self.csrf: str = state["csrf"]
        self.rev: Any = state["revision"]
        self.verbs: list[str] = list(state.get("verbs") or [])
        self.actions: list[str] | None = state.get("actions")
        self.over = state.get("outcome") is not None or not self.verbs
        #: The usual verb's steps, when the server sends them (state.json's and each
        #: answer's ``next``): that verb needs no ``decide`` for its steps.
        self.usual: dict[str, Any] | None = state.get("next")

    def get(self, what: str) -> dict[str, Any]:
        started = time.perf_counter()
        _, raw = self.client.get(f"{self.link}/{what}")
        self.result.every.append(time.perf_counter() - started)
        body: dict[str, Any] = json.loads(raw)
        return body

    def pause(self) -> None:
        """A person's pause before a click (exponential, mean ``think`` seconds; 0: none)."""
        if self.think > 0:
            time.sleep(self.rng.expovariate(1 / self.think))

    def post(self, what: str, data: dict[str, str]) -> tuple[int, dict[str, Any], float]:
        self.pause()
        started = time.perf_counter()
        status, raw = self.client.post(f"{self.link}/{what}",
                                       {"csrf": self.csrf, "rev": str(self.rev), **data},
                                       {"accept": "application/json"})
        elapsed = time.perf_counter() - started
        self.result.every.append(elapsed)
        body: dict[str, Any] = json.loads(raw)
        return status, body, elapsed

    def choose_by_steps(self, rng: random.Random) -> dict[str, str]:
        """A random action walked through ``decide``, as a person clicks it."""
        form = {"verb": rng.choice(self.verbs)}
        if self.usual is not None and self.usual.get("verb") == form["verb"]:
            body = self.usual  # its steps came with the table's last answer
        else:
            status, body, _ = self.post("decide", form)
            if status != 200:
                raise RuntimeError(f"decide: {status} {body.get('error')}")
        for f in body["fields"]:
            if "choices" in f:
                form[f"f_{f['name']}"] = rng.choice(f["choices"])["value"]
            else:
                form[f"f_{f['name']}"] = str(rng.randint(int(f["low"]), int(f["high"])))
        if body["fields"]:
            status, body, _ = self.post("decide", form)
            if status != 200:
                raise RuntimeError(f"decide: {status} {body.get('error')}")
            form = {"verb": form["verb"],
                    **{f"f_{f['name']}": str(f["value"]) for f in body["fields"]}}
        return form

    def choose_from_list(self, rng: random.Random) -> dict[str, str]:
        """A random action from the whole list of legal actions (the old way)."""
        if self.actions is None:
            self.actions = list(self.get("actions.json")["actions"])
        return {"action": self.actions[rng.randrange(len(self.actions))]}

    def close(self) -> None:
        """Nothing to let go (a page's event stream, see :class:`PageTable`)."""

    def act(self, form: dict[str, str]) -> tuple[int, dict[str, Any], float]:
        status, body, elapsed = self.post("act", form)
        if status < 400 or status == 409:
            self.rev = body["revision"]
            self.actions = body.get("actions")
            self.usual = body.get("next")
            if "verbs" in body:
                self.verbs = list(body["verbs"])
            elif self.actions is not None:  # an older server: verbs from the action list
                self.verbs = sorted({a.split()[1] for a in self.actions if len(a.split()) > 1})
            self.over = body.get("outcome") is not None or not self.verbs
        return status, body, elapsed


_VERB_BUTTON = re.compile(r'<button type="submit" name="verb" value="([^"]*)"')
_SELECT = re.compile(r'<select name="(f_[^"]+)"[^>]*>(.*?)</select>', re.S)
_OPEN_VERB = re.compile(r'id="steps">.*?<input type="hidden" name="verb" value="([^"]*)"',
                        re.S)
_OPTION = re.compile(r'<option value="([^"]*)"( selected)?')
_NUMBER = re.compile(r'<input type="number" name="(f_[^"]+)"[^>]*min="(-?\d+)" '
                     r'max="(-?\d+)" value="(-?\d+)"')


class PageTable(Table):
    """One client's encounter as its page in a browser uses it (``--protocol page``).

    The page's HTML (read once), its event stream kept open on a second connection
    (every commit pushes the fresh panel to it), and each click as htmx posts it: the
    verb's ``decide``, the values' ``decide`` (HTML fragments), then ``act``, whose
    answer is the whole panel.
    """

    def __init__(self, client: Wire, link: str, result: ClientResult, think: float = 0.0,
                 rng: random.Random | None = None, base: str = "") -> None:
        self.client, self.link, self.result = client, link, result
        self.think, self.rng = think, rng or random.Random(0)
        self.actions = None
        started = time.perf_counter()
        status, raw = client.get(link)
        self.result.every.append(time.perf_counter() - started)
        if status != 200:
            raise RuntimeError(f"page: {status}")
        page = raw.decode()
        found = re.search(r'name="csrf" value="([^"]+)"', page)
        if found is None:
            raise RuntimeError("no CSRF token on the table's page")
        self.csrf = found.group(1)
        self.read_panel(page)
        self.stream = _EventStream(base, f"{link}/events")

    def read_panel(self, text: str) -> None:
        found = re.search(r'name="rev" value="([^"]*)"', text)
        if found is not None:
            self.rev = html.unescape(found.group(1))
        self.verbs = [html.unescape(v) for v in _VERB_BUTTON.findall(text)]
        self.over = not self.verbs
        # A Decide form the panel opens on its own (the usual verb's, at its defaults).
        shown = _OPEN_VERB.search(text)
        self.open_form = (html.unescape(shown.group(1)), text) if shown else None

    def click(self, what: str, data: dict[str, str]) -> tuple[int, str, float]:
        self.pause()
        started = time.perf_counter()
        status, raw = self.client.post(f"{self.link}/{what}",
                                       {"csrf": self.csrf, "rev": str(self.rev), **data},
                                       {"hx-request": "true", "x-csrf-token": self.csrf})
        elapsed = time.perf_counter() - started
        self.result.every.append(elapsed)
        return status, raw.decode(), elapsed

    def choose_by_page(self, rng: random.Random) -> dict[str, str]:
        """A random action clicked through the Decide form's HTML."""
        form = {"verb": rng.choice(self.verbs)}
        if self.open_form is not None and self.open_form[0] == form["verb"]:
            text = self.open_form[1]  # the panel already shows this verb's steps
        else:
            status, text, _ = self.click("decide", form)
            if status != 200:
                raise RuntimeError(f"decide: {status}")
        steps = _steps(text)
        for name, (values, low, high, _) in steps.items():
            form[name] = rng.choice(values) if values else str(rng.randint(low, high))
        if steps:
            status, text, _ = self.click("decide", form)
            if status != 200:
                raise RuntimeError(f"decide: {status}")
            form = {"verb": form["verb"],
                    **{name: step[3] for name, step in _steps(text).items()}}
        return form

    def act_page(self, form: dict[str, str]) -> tuple[int, dict[str, Any], float]:
        status, text, elapsed = self.click("act", form)
        if status < 400 or status == 409:
            self.read_panel(text)
        return status, {"error": text[:200] if status >= 400 else ""}, elapsed

    def close(self) -> None:
        self.stream.close()


def _steps(text: str) -> dict[str, tuple[list[str], int, int, str]]:
    """The Decide form's steps: name -> (menu values, low, high, the value shown)."""
    steps: dict[str, tuple[list[str], int, int, str]] = {}
    for name, body in _SELECT.findall(text):
        options = _OPTION.findall(body)
        values = [html.unescape(v) for v, _ in options]
        chosen = next((html.unescape(v) for v, mark in options if mark), values[0])
        steps[name] = (values, 0, 0, chosen)
    for name, low, high, value in _NUMBER.findall(text):
        steps[name] = ([], int(low), int(high), value)
    return steps


class _EventStream:
    """A page's server-sent event stream, read (and thrown away) by a thread of its own."""

    def __init__(self, base: str, path: str) -> None:
        where = urllib.parse.urlsplit(base)
        self.conn = http.client.HTTPConnection(where.hostname or "127.0.0.1", where.port,
                                               timeout=30.0)
        self.conn.request("GET", path)
        self.answer = self.conn.getresponse()
        self.thread = threading.Thread(target=self._drain, daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        try:
            while self.answer.readline():
                pass
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            pass  # closed under the reader (AttributeError: http.client's closed file)

    def close(self) -> None:
        try:
            if self.conn.sock is not None:
                self.conn.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.conn.close()


def client_loop(base: str, admin: str, scenario: str, index: int, deadline: float,
                budget: list[int], lock: threading.Lock, result: ClientResult,
                protocol: str = "steps", think: float = 0.0, http_client: str = "stdlib"
                ) -> None:
    rng = random.Random(index)
    # One connection per client, kept open (HTTP keep-alive), as a browser keeps its own;
    # the GM's uploads (a new encounter when a fight ends) go through httpx, untimed.
    with httpx.Client(base_url=base, timeout=10.0) as client:
        wire: Wire = StdlibWire(base) if http_client == "stdlib" else HttpxWire(client)
        page = protocol == "page"

        def open_table(seed: int, rng: random.Random) -> Table:
            link = new_fight(client, admin, scenario, seed)
            if page:
                return PageTable(wire, link, result, think, rng, base)
            return Table(wire, link, result, think, rng)

        table: Table | None = None
        try:
            table = open_table(index, random.Random(-index))
            result.fights += 1
            while time.monotonic() < deadline:
                with lock:
                    if budget[0] <= 0:
                        return
                    budget[0] -= 1
                if table.over:
                    table.close()
                    table = open_table(index * 10_000 + result.fights, table.rng)
                    result.fights += 1
                    continue
                if isinstance(table, PageTable):
                    status, body, elapsed = table.act_page(table.choose_by_page(rng))
                else:
                    form = (table.choose_from_list(rng) if protocol == "list" else
                            table.choose_by_steps(rng))
                    status, body, elapsed = table.act(form)
                if status == 409:
                    result.conflicts += 1
                elif status != 200:
                    result.errors.append(f"{status}: {body.get('error')}")
                    return
                else:
                    result.latencies.append(elapsed)
        except (httpx.HTTPError, RuntimeError, KeyError, ValueError) as exc:
            result.errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            if table is not None:
                table.close()
            wire.close()


#: Client threads per load-generating process (``--client-processes`` overrides the count).
CLIENTS_PER_PROCESS = 5


def run_clients(base: str, admin: str, text: str, indices: list[int], seconds: float,
                max_actions: int, protocol: str, think: float, http_client: str = "stdlib",
                ready: Any = None) -> tuple[list[ClientResult], float]:
    """One load-generating process's clients, a thread each; returns their results and the
    process's CPU time.  ``ready`` (a barrier) is passed before the clock starts."""
    if ready is not None:
        ready.wait(timeout=120)
    own_before = time.process_time()
    deadline = time.monotonic() + seconds
    results = [ClientResult() for _ in indices]
    lock = threading.Lock()
    budget = [max_actions]
    threads = [threading.Thread(target=client_loop, daemon=True,
                                args=(base, admin, text, i, deadline, budget, lock, result,
                                      protocol, think, http_client))
               for i, result in zip(indices, results, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=seconds + 30)
    return results, time.process_time() - own_before


def _client_process(queue: Any, ready: Any, n: int, args: tuple[Any, ...]) -> None:
    queue.put((n, *run_clients(*args, ready=ready)))


def _in_processes(base: str, admin: str, text: str, groups: list[list[int]], seconds: float,
                  max_actions: int, protocol: str, think: float, http_client: str
                  ) -> tuple[list[ClientResult], float, float]:
    """Run the client groups in processes of their own (each with its own interpreter lock,
    as separate browsers are); returns every result, their CPU time and the start time."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    ready = context.Barrier(len(groups) + 1)
    share = max(1, max_actions // len(groups))
    workers = [context.Process(target=_client_process, daemon=True,
                               args=(queue, ready, n, (base, admin, text, group, seconds, share,
                                                       protocol, think, http_client)))
               for n, group in enumerate(groups)]
    for w in workers:
        w.start()
    try:
        ready.wait(timeout=120)  # every process has started and imported what it needs
        started = time.monotonic()
        found = [queue.get(timeout=seconds + 120) for _ in workers]
    finally:
        for w in workers:
            w.join(timeout=10)
            if w.is_alive():
                w.kill()
    results = [r for _, rs, _ in sorted(found, key=lambda f: f[0]) for r in rs]
    return results, sum(cpu for _, _, cpu in found), started


def run_load(clients: int = 20, seconds: float = 30.0, scenario: Path = DEFAULT_SCENARIO,
             max_actions: int = 200_000, python: str = sys.executable,
             src: Path | None = None, protocol: str = "steps",
             sync: str = "full", think: float = 0.0, processes: int = 0,
             http_client: str = "stdlib") -> dict[str, Any]:
    """One bounded run; returns counts, actions per second and latency percentiles (ms).

    The clients run as threads in ``processes`` load-generating processes (0: one per
    :data:`CLIENTS_PER_PROCESS` clients), so that they do not queue for one interpreter lock
    to read their answers (which the latencies would count)."""
    text = scenario.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start_server(Path(tmp) / "load.sqlite", port, python, src, sync)
        try:
            admin_url = read_admin_link(server)
            base = f"http://127.0.0.1:{port}"
            wait_ready(base + "/")
            admin = admin_url.removeprefix(base)
            procs = max(1, min(clients, processes or -(-clients // CLIENTS_PER_PROCESS)))
            groups = [list(range(clients))[p::procs] for p in range(procs)]
            cpu_before = cpu_seconds(server.pid)
            if procs == 1:
                started = time.monotonic()
                results, own = run_clients(base, admin, text, groups[0], seconds, max_actions,
                                           protocol, think, http_client)
            else:
                results, own, started = _in_processes(base, admin, text, groups, seconds,
                                                      max_actions, protocol, think, http_client)
            wall = time.monotonic() - started
            cpu = cpu_seconds(server.pid) - cpu_before
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    latencies = sorted(x for r in results for x in r.latencies)
    every = sorted(x for r in results for x in r.every)
    return {
        "clients": clients, "seconds": round(wall, 2), "actions": len(latencies),
        "actions_per_second": round(len(latencies) / wall, 1) if wall else 0.0,
        "requests_per_second": round(len(every) / wall, 1) if wall else 0.0,
        "p50_ms": round(1000 * _percentile(latencies, 0.50), 1),
        "p95_ms": round(1000 * _percentile(latencies, 0.95), 1),
        "p99_ms": round(1000 * _percentile(latencies, 0.99), 1),
        "all_p95_ms": round(1000 * _percentile(every, 0.95), 1),
        # The server's CPU time per acted request (every request of the cycle included).
        "cpu_ms_per_action": round(1000 * cpu / len(latencies), 2) if latencies else 0.0,
        # The load generator's own CPU time per action: it shares the machine's cores with
        # the server (on loopback), so it is part of what the latencies pay for.
        "client_cpu_ms_per_action": round(1000 * own / len(latencies), 2) if latencies else 0.0,
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
    parser.add_argument("--tree", action="append", default=[], metavar="NAME=SRC",
                        help="run the server from this src folder (repeat to compare trees)")
    parser.add_argument("--protocol", choices=("steps", "page", "list"), default="steps",
                        help="steps: walk decide as a script does (JSON); page: as a browser's "
                             "page does (HTML fragments, htmx headers, the panel as the act's "
                             "answer, an event stream open); list: the whole action list")
    parser.add_argument("--sync", choices=("full", "normal"), default="full",
                        help="the store's SQLite synchronous setting (normal: an experiment)")
    parser.add_argument("--think", type=float, default=0.0, metavar="SECONDS",
                        help="each client pauses before every request, exponentially "
                             "distributed with this mean, as a person between clicks "
                             "(default 0: clients that never pause, the heaviest load)")
    parser.add_argument("--client-processes", type=int, default=0, metavar="N",
                        help="load-generating processes the clients are spread over (default: "
                             f"one per {CLIENTS_PER_PROCESS} clients; 1: all in this one, as "
                             "before 2026-12-01's second session)")
    parser.add_argument("--http", choices=("stdlib", "httpx"), default="stdlib",
                        help="the clients' HTTP library for the timed requests (stdlib: the "
                             "lighter; httpx: as before 2026-12-01's second session)")
    parser.add_argument("--json", action="store_true", help="print every run as JSON")
    args = parser.parse_args()
    # A tree's value may list several folders (``src:/extra/site``), joined as PYTHONPATH.
    trees: list[tuple[str, Path | None]] = [
        (t.partition("=")[0], Path(os.pathsep.join(
            str(Path(p).resolve()) for p in t.partition("=")[2].split(os.pathsep))))
        for t in args.tree
    ] or [("this tree", None)]
    keys = ("actions_per_second", "p50_ms", "p95_ms", "p99_ms", "all_p95_ms", "cpu_ms_per_action",
            "client_cpu_ms_per_action")
    table = []
    everything: dict[str, Any] = {}
    for clients in (int(c) for c in str(args.clients).split(",") if c.strip()):
        for name, src in trees:
            runs = []
            for n in range(args.runs):
                result = run_load(clients, args.seconds, args.scenario, args.max_actions,
                                  src=src, protocol=args.protocol, sync=args.sync,
                                  think=args.think, processes=args.client_processes,
                                  http_client=args.http)
                runs.append(result)
                print(f"{name}, {clients} client(s), run {n + 1}: {result['actions']} actions "
                      f"in {result['seconds']} s = {result['actions_per_second']}/s "
                      f"({result['requests_per_second']} requests/s), "
                      f"act p50 {result['p50_ms']} ms, p95 {result['p95_ms']} ms, "
                      f"p99 {result['p99_ms']} ms, all requests p95 {result['all_p95_ms']} ms, "
                      f"server CPU {result['cpu_ms_per_action']} ms/action, "
                      f"client CPU {result['client_cpu_ms_per_action']} ms/action, "
                      f"{result['fights']} fights, {result['conflicts']} conflicts, "
                      f"errors: {result['errors'] or 'none'}", flush=True)
            summary = {key: round(statistics.median(r[key] for r in runs), 1) for key in keys}
            table.append((name, clients, summary, [r["actions_per_second"] for r in runs]))
            everything[f"{name}/{clients}"] = {"runs": runs, "median": summary}
    print(f"\nprotocol {args.protocol}, sync {args.sync}, think {args.think:g} s, "
          f"{args.http} clients in {args.client_processes or 'one per five clients'} process(es), "
          f"{args.seconds:g} s per run, median of {args.runs}")
    print("| tree | clients | actions/s | act p50 | act p95 | act p99 | all requests p95 "
          "| server CPU/action | client CPU/action | runs (actions/s) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, clients, summary, rates in table:
        print(f"| {name} | {clients} | {summary['actions_per_second']} | {summary['p50_ms']} ms "
              f"| {summary['p95_ms']} ms | {summary['p99_ms']} ms | {summary['all_p95_ms']} ms "
              f"| {summary['cpu_ms_per_action']} ms | {summary['client_cpu_ms_per_action']} ms "
              f"| {', '.join(str(r) for r in rates)} |")
    if args.json:
        print(json.dumps(everything, indent=2))


if __name__ == "__main__":
    main()
