"""Secrets: what a player or spectator link is sent is derived from its side's view alone.

For every example of every rule set, random fights are played through the store;
at every few decisions each player link and the spectator link fetch their page,
their panel, their whole log and ``state.json``, and nothing they get may name a
combatant or unit that the link's view has not held at some moment so far
(a unit seen once may be named afterwards; one still waiting in ambush may not).
The log they read has no numbering gaps.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.shipped import SCENARIOS, example_id

from fracas.scenario import load_scenario
from fracas.store import EventStore
from fracas.store.text import names_in
from fracas.web import create_app
from fracas.web.app import ai_choice

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ALL = SCENARIOS
AMBUSH = EXAMPLES / "battlesystem" / "dwarf_column_ambush.yaml"


def _words(text: str, names: set[str]) -> set[str]:
    found = set()
    for name in names:
        if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
            found.add(name)
    return found


def _links(client: TestClient, gm: str) -> dict[str, str]:
    page = client.get(gm).text
    return {role: url for role, url in re.findall(r'class="link-([a-z]+(?:-[^"]+)?)" '
                                                  r'href="([^"]+)"', page)}


def _create(client: TestClient, key: str, example: Path, seed: int) -> tuple[str, str]:
    home = client.get(f"/gm/{key}").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', home)
    assert csrf is not None
    answer = client.post(f"/gm/{key}/create", follow_redirects=False, data={
        "csrf": csrf.group(1), "bundled": f"examples/{example.parent.name}/{example.name}",
        "seed": str(seed)})
    assert answer.status_code == 303, answer.text[:500]
    gm = answer.headers["location"]
    return gm, gm.split("/")[2]


def _seen_names(store: EventStore, enc_id: str, sides: dict[str, str]) -> tuple[
        set[str], dict[str, set[str]]]:
    """Every name of the fight, and per link every name its view has held at any event."""
    with store.live(enc_id) as (enc, _):
        ruleset, initial, log = enc.ruleset, enc.initial_state, list(enc.log)
    shadow = ruleset.clone_state(initial)
    everyone: set[str] = set()
    held: dict[str, set[str]] = {key: set() for key in sides}

    def look() -> None:
        everyone.update(names_in(ruleset.view(shadow)))
        everyone.update(s.name for s in ruleset.standings(shadow))
        for key, side in sides.items():
            held[key].update(names_in(ruleset.view(shadow, side)))

    look()
    for event in log:
        ruleset.apply_event(shadow, event)
        look()
    return everyone, held


def _check(client: TestClient, store: EventStore, enc_id: str, links: dict[str, str],
           where: str) -> None:
    sides = {role: role.removeprefix("player-") if role.startswith("player-") else "spectator"
             for role in links if role != "gm"}
    everyone, held = _seen_names(store, enc_id, sides)
    side_names = {s.removeprefix("player-") for s in links}
    for role, url in links.items():
        if role == "gm":
            continue
        secret = everyone - held[role] - side_names
        if not secret:
            continue
        state = client.get(f"{url}/state.json")
        assert state.status_code == 200
        body = state.json()
        assert [e["seq"] for e in body["log"]] == list(range(len(body["log"]))), \
            f"{where}: {role} sees gaps in its log numbering"
        for what, text in (("page", client.get(url).text),
                           ("panel", client.get(f"{url}/panel?rev=x").text),
                           ("log", client.get(f"{url}/log").text),
                           ("state.json", state.text)):
            leaked = _words(text, secret)
            assert not leaked, f"{where}: the {role} {what} names {sorted(leaked)}"


def _play(client: TestClient, store: EventStore, enc_id: str, links: dict[str, str],
          rng: random.Random, decisions: int, every: int, where: str) -> None:
    for n in range(decisions):
        if n % every == 0:
            _check(client, store, enc_id, links, f"{where} after {n} decisions")
        with store.live(enc_id) as (enc, revision):
            if enc.is_over:
                break
        if rng.random() < 0.5:
            store.apply(enc_id, revision, ai_choice)
        else:
            from fracas.core.policy import RandomPolicy
            from fracas.store import decision_rng

            def pick(enc: Any, n: int = n) -> Any:
                return RandomPolicy().choose(enc.request(decision_rng(n, len(enc.log), "t")))
            store.apply(enc_id, revision, pick)
    _check(client, store, enc_id, links, f"{where} at the end")


def test_the_ambush_is_not_given_away(tmp_path: Path) -> None:
    """The dwarves' and spectators' pages hold no orc unit while the orcs wait unseen."""
    store = EventStore(tmp_path / "s.sqlite")
    app = create_app(store, [EXAMPLES])
    client = TestClient(app)
    gm, _ = _create(client, app.state.admin_key, AMBUSH, 1)
    links = {"gm": gm, **_links(client, gm)}
    assert "player-dwarves" in links and "spectator" in links
    for role in ("player-dwarves", "spectator"):
        page = client.get(links[role]).text
        state = client.get(f"{links[role]}/state.json").text
        for unit in ("orc-warband", "orc-archers"):
            assert unit not in page and unit not in state, f"{role} sees {unit}"
        # The opening turn map is still read, without the lines of the hidden units.
        assert "turn 1 map" in page and "pillared-hall" in page
    gm_page = client.get(gm).text
    assert "orc-warband" in gm_page and "orc-archers" in gm_page
    store.close()


@pytest.mark.slow
@pytest.mark.parametrize("example", ALL, ids=example_id)
def test_no_page_names_what_the_side_has_not_seen(tmp_path: Path, example: Path) -> None:
    load_scenario(example)
    store = EventStore(tmp_path / "s.sqlite")
    app = create_app(store, [EXAMPLES])
    client = TestClient(app)
    for seed in (1, 2):
        gm, enc_id = _create(client, app.state.admin_key, example, seed)
        links = {"gm": gm, **_links(client, gm)}
        _play(client, store, enc_id, links, random.Random(seed), decisions=60, every=7,
              where=f"{example.name} seed {seed}")
    store.close()
