"""The odds beside the Decide form: the forecast of the choice being built (for the link
that may make it, as its side may read it) and the win chance from here (worked out in a
background worker process; the GM's always, a side's only while its view hides nothing)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_helpers import Console

from fracas.store import EventStore
from fracas.web import create_app
from fracas.web.routes.odds import _ESTIMATES, _Estimates

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def examples(tmp_path: Path, scenario_dir: Path) -> Iterator[TestClient]:
    store = EventStore(tmp_path / "odds.sqlite")
    app = create_app(store, [scenario_dir, EXAMPLES])
    with TestClient(app) as client:
        client.app_key = app.state.admin_key  # type: ignore[attr-defined]
        yield client
    store.close()


def _console(client: TestClient, folder: str) -> Console:
    return Console(client, client.app_key, folder)  # type: ignore[attr-defined]


def _win(client: TestClient, url: str, shown: str = "") -> tuple[int, str]:
    """The win-chance panel once its estimate is done (waits for the worker's answer)."""
    answer = client.get(f"{url}/odds/win", params={"shown": shown})
    for future in list(_ESTIMATES.found.values()):
        future.result()
    answer = client.get(f"{url}/odds/win", params={"shown": shown})
    return answer.status_code, answer.text


def test_the_decide_form_includes_the_odds_placeholders(examples: TestClient) -> None:
    links = _console(examples, "examples/age_of_dragons").create("claw_duel.yaml", seed=1)
    page = examples.get(links["gm"]).text
    assert 'id="odds"' in page and f'hx-get="{links["gm"]}/odds"' in page
    assert 'id="win-chance"' in page
    # A link that cannot decide now gets the win-chance panel and no forecast.
    waiting = examples.get(links["player-blue"]).text
    assert 'id="odds"' not in waiting and 'id="win-chance"' in waiting


def test_the_forecast_follows_the_form_and_warns_of_a_sure_failure(examples: TestClient,
                                                                   ) -> None:
    c = _console(examples, "examples/age_of_dragons")
    gm = c.create("claw_duel.yaml", seed=1)["gm"]
    roll = examples.get(f"{gm}/odds", params={"verb": "roll", "f_spheres": "soma"}).text
    assert "rolls 9d6 (Soma), each 4+ a hit" in roll and "99.8%" in roll
    assert 'hx-swap-oob="true"' in roll  # the account goes to the panel's body
    assert c.post(gm, "act", verb="roll", f_spheres="soma").json()["ok"]
    claw = examples.get(f"{gm}/odds", params={"verb": "attack", "f_target": "Ash",
                                              "f_dice": "4"}).text
    assert "expends 4 hits already rolled" in claw and "sure-failure" not in claw
    neck = examples.get(f"{gm}/odds", params={"verb": "attack", "f_target": "Ash", "f_dice": "4",
                                              "f_style": "bite", "f_called": "neck"}).text
    assert 'id="sure-failure"' in neck and "cannot succeed" in neck
    # The other side's link cannot decide now: it gets nothing.
    blue = c.create("claw_duel.yaml", seed=1)["player-blue"]
    assert examples.get(f"{blue}/odds", params={"verb": "roll"}).status_code == 204


def test_a_side_reads_no_odds_that_need_the_dms_secrets(examples: TestClient) -> None:
    c = _console(examples, "examples/adnd")
    links = c.create("bridge_duel.yaml", seed=2)
    state = c.state(links["gm"])
    while state["actor"] == "gm":  # the DM lets the round begin
        assert c.post(links["gm"], "act", verb="proceed").json()["ok"]
        state = c.state(links["gm"])
    actor = state["actor"]
    side = next(row for row in state["view"]["combatants"] if row["name"] == actor)["side"]
    own = links[f"player-{side}"]
    target = next(row["name"] for row in state["view"]["combatants"] if row["side"] != side)
    verbs = state["verbs"]
    assert "attack" in verbs
    query = {"verb": "attack", "f_target": target}
    gm = examples.get(f"{links['gm']}/odds", params=query).text
    player = examples.get(f"{own}/odds", params=query).text
    assert "hit:" in gm and "hit:" in player
    assert "slain" in gm and "slain" not in player
    assert "the DM&#39;s to know" in player


def test_the_win_chance_is_estimated_then_kept_until_the_table_moves(examples: TestClient,
                                                                    ) -> None:
    c = _console(examples, "examples/age_of_dragons")
    links = c.create("claw_duel.yaml", seed=1)
    gm = links["gm"]
    status, text = _win(examples, gm)
    assert status == 200 and "Win chance from here" in text
    assert re.search(r"red: \d+\.\d% exactly \(an estimate: \d+% to \d+%", text), text
    assert re.search(r'win <span id="win-summary" title="exact">red \d+%, blue \d+%', text), text
    tag = re.search(r"shown=([0-9a-f]+)", text)
    assert tag is not None
    assert examples.get(f"{gm}/odds/win", params={"shown": tag[1]}).status_code == 204
    # Age of Dragons hides nothing: a player's link sees it too.
    assert "exactly" in _win(examples, links["player-blue"])[1]
    # A decision moves the table on: a new estimate, a new tag.
    assert c.post(gm, "act", verb="roll", f_spheres="soma").json()["ok"]
    status, again = _win(examples, gm, tag[1])
    assert status == 200 and "Win chance from here" in again and tag[1] not in again
    assert 'id="win-body" hx-swap-oob="true"' in again


def test_a_view_with_secrets_leaves_the_win_chance_to_the_gm(console: Console) -> None:
    links = console.create("secret.yaml")
    player = links["player-red"]
    text = console.client.get(f"{player}/odds/win").text
    assert "shown to the GM only" in text and "GM only" in text
    assert "exactly" not in text and "estimate" not in text


def test_stopping_the_server_ends_an_estimate_under_way() -> None:
    """An estimate still running would hold the interpreter's exit (the pool's own
    shutdown only cancels waiting work): closing ends its worker process."""
    estimates = _Estimates()

    def start(pool: ProcessPoolExecutor) -> Future[None]:
        return pool.submit(time.sleep, 3600)

    future = estimates.get(("table", 1), start)
    pool = estimates.pool
    assert pool is not None
    while not future.running():
        time.sleep(0.05)
    workers = list(pool._processes.values())
    assert workers and all(w.is_alive() for w in workers)
    estimates.close()
    # The pool's own thread may reap the process first, so its exit code is awaited
    # rather than joined (the deadline is a guard against hanging, not a timing check).
    deadline = time.monotonic() + 600
    while any(w.exitcode is None for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(w.exitcode is not None for w in workers)
    with pytest.raises(Exception):  # noqa: B017 -- broken pool or cancelled, either ends it
        future.result(timeout=600)
    assert estimates.pool is None


def test_a_span_of_numbers_is_worded_from_low_to_high(examples: TestClient) -> None:
    """A number step shows its bounds in words ('from 1 to 9'), which reads well even when
    a bound is negative (a dash between '-37' and '3' did not)."""
    c = _console(examples, "examples/age_of_dragons")
    gm = c.create("claw_duel.yaml", seed=1)["gm"]
    assert c.post(gm, "act", verb="roll", f_spheres="soma").json()["ok"]
    state = c.state(gm)
    html = examples.post(f"{gm}/decide", data={"csrf": state["csrf"],
                                               "rev": str(state["revision"]),
                                               "verb": "attack", "f_target": "Ash"},
                         headers={"hx-request": "true"}).text
    found = re.search(r'id="f_dice" min="(-?\d+)" max="(-?\d+)"', html)
    assert found is not None, html
    assert f'<small class="muted">from {found.group(1)} to {found.group(2)}</small>' in html
    assert "&ndash;" not in html
