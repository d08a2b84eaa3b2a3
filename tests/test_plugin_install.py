"""The template rule set installed as its own package is a first-class rule set.

A real ``pip install`` of ``examples/template_ruleset`` into a folder of its own, then
every command and the web console run in child processes that see that folder and
fracas's source, never the template's source tree: ``pools`` is found through the
installed entry point's metadata, its examples and schema through ``Pools.examples``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "examples" / "template_ruleset"

pytestmark = pytest.mark.slow


class Installed:
    """Runs ``fracas`` with the template installed in ``site`` (cwd: an empty folder)."""

    def __init__(self, site: Path, work: Path) -> None:
        self.work = work
        self.env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT / "src")]),
                    "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}

    def command(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "fracas", *args]

    def run(self, *args: str, code: int = 0) -> str:
        done = subprocess.run(self.command(*args), cwd=self.work, env=self.env,
                              capture_output=True, text=True, check=False)
        assert done.returncode == code, (args, done.stdout, done.stderr)
        return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("plugin")
    source = base / "template"
    shutil.copytree(TEMPLATE, source, ignore=shutil.ignore_patterns(
        "build", "*.egg-info", "__pycache__"))
    site = base / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--disable-pip-version-check", "--target", str(site), str(source)],
                   check=True, capture_output=True)
    shutil.rmtree(source)  # nothing but the installed copy is left to find
    work = base / "work"
    work.mkdir()
    return Installed(site, work)


def test_it_is_found_through_its_installed_entry_point(installed: Installed) -> None:
    probe = ("from importlib.metadata import entry_points\n"
             "import pools\n"
             "print([e.value for e in entry_points(group='fracas.rulesets') "
             "if e.name == 'pools'], pools.__file__)")
    done = subprocess.run([sys.executable, "-c", probe], cwd=installed.work,
                          env=installed.env, capture_output=True, text=True, check=True)
    assert "['pools:Pools']" in done.stdout
    assert str(ROOT / "examples") not in done.stdout


def test_every_command_through_it(installed: Installed) -> None:
    work = installed.work
    out = installed.run("new", "pools", "fight.yaml")
    assert "wrote fight.yaml" in out
    text = (work / "fight.yaml").read_text(encoding="utf-8")
    assert "from the example duel.yaml" in text and "pools.schema.json" in text
    assert "ok" in installed.run("validate", "fight.yaml")

    schema = json.loads(installed.run("schema", "pools"))
    assert schema["properties"]["ruleset"]["const"] == "pools"
    assert "fighters" in schema["properties"]

    out = installed.run("run", "fight.yaml", "--seed", "3", "--save", "fight.jsonl")
    assert "won after" in out or "draw" in out
    replayed = installed.run("replay", "fight.jsonl")
    assert "Ada" in replayed and "Bo" in replayed
    installed.run("replay", "fight.jsonl", "--json")

    report = json.loads(installed.run("simulate", "fight.yaml", "-n", "40", "--json"))
    assert report["ruleset"] == "pools"
    assert sum(side["wins"] for side in report["sides"].values()) + report["draws"] + \
        report["unfinished"] == 40, report

    searched = json.loads(installed.run("simulate", "fight.yaml", "-n", "3", "--json",
                                        "--policy", "red=search", "--search-rollouts", "2"))
    assert searched["runs"] == 3, searched

    odds = installed.run("odds", "pools: attack 3 vs 1")
    assert "37.5%" in odds and "12.5%" in odds, odds
    duel = installed.run("odds", "duel", "fight.yaml")
    assert "red wins" in duel and "blue wins" in duel, duel


def test_the_console_offers_its_examples_and_makes_a_table(installed: Installed,
                                                             tmp_path: Path) -> None:
    for server in _serve(installed, tmp_path / "console.sqlite"):
        url, key = server
        home = httpx.get(f"{url}/gm/{key}", timeout=30)
        assert home.status_code == 200
        assert 'value="pools/duel.yaml"' in home.text
        csrf = re.search(r'name="csrf" value="([^"]+)"', home.text)
        assert csrf is not None
        made = httpx.post(f"{url}/gm/{key}/create", timeout=30, files={
            "csrf": (None, csrf.group(1)), "bundled": (None, "pools/duel.yaml"),
            "title": (None, "pools from its package"), "seed": (None, "3")})
        assert made.status_code == 303, made.text
        table = httpx.get(url + made.headers["location"], timeout=30)
        assert table.status_code == 200
        assert "Ada" in table.text and "Bo" in table.text


def _serve(installed: Installed, db: Path) -> Iterator[tuple[str, str]]:
    """A real ``fracas serve`` on a free port: yields its URL and the GM's key, then stops."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen(installed.command("serve", "--db", str(db), "--port", str(port)),
                            cwd=installed.work, env=installed.env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        key = None
        assert proc.stdout is not None
        for line in proc.stdout:  # the GM link is printed before the server listens
            found = re.search(r"/gm/(\S+)", line)
            if found:
                key = found.group(1)
                break
        assert key is not None, proc.stderr.read() if proc.stderr else ""
        url = f"http://127.0.0.1:{port}"
        while True:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            try:
                httpx.get(f"{url}/", timeout=5)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        yield url, key
    finally:
        proc.terminate()
        proc.wait(timeout=60)
