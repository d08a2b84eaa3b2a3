"""The console's answers to junk form fields and query strings: plain messages, no JSON dumps."""

from __future__ import annotations

from pathlib import Path

import pytest
from web_helpers import Console

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("seed", ["abc", "-5", str(2**63), "9" * 40, "1e5"])
def test_a_bad_seed_says_which_seeds_are_allowed(console: Console, seed: str) -> None:
    answer = console.client.post(
        f"{console.home}/create", follow_redirects=False,
        data={"csrf": console.admin_csrf(), "bundled": f"{console.folder}/duel.yaml",
              "seed": seed})
    assert answer.status_code == 400
    assert "the seed must be a whole number from 0 to 2**63-1" in answer.text
    assert "duel.yaml: seed" not in answer.text  # not blamed on the scenario file


def test_the_largest_seed_is_accepted(console: Console) -> None:
    links = console.create("duel.yaml", seed=2**63 - 1)
    assert console.state(links["gm"])["revision"] == 0


def test_a_junk_query_parameter_is_a_plain_400(console: Console) -> None:
    answer = console.client.get(f"{console.home}?archived=abc")
    assert answer.status_code == 400
    assert "bad request: archived:" in answer.text and '"detail"' not in answer.text
    answer = console.client.get(f"{console.home}?archived=abc",
                                headers={"accept": "application/json"})
    assert answer.status_code == 400
    assert answer.json() == {"ok": False, "error": answer.json()["error"]}
    assert answer.json()["error"].startswith("bad request: archived:")
    # A version the page does not know is simply not the current one: the fresh panel.
    gm = console.create("duel.yaml")["gm"]
    assert console.client.get(f"{gm}/panel?rev=abc").status_code == 200


def test_typed_actions_work_for_a_name_with_a_space(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from fracas.store import EventStore
    from fracas.web import create_app

    store = EventStore(tmp_path / "db.sqlite")
    app = create_app(store, [EXAMPLES])
    console = Console(TestClient(app), app.state.admin_key, EXAMPLES.name)
    try:
        gm = console.create("age_of_dragons/grapple_brawl.yaml", seed=1)["gm"]
        while console.state(gm)["actor"] != "Left Twin":
            assert console.post(gm, "ai").status_code == 200
        for typed in ("roll", "Left Twin roll", "'Left Twin' roll"):
            answer = console.post(gm, "act", action=typed)
            assert answer.status_code in (200, 422), answer.text
            assert "unknown action 'Twin'" not in answer.json()["error"]
        assert console.state(gm)["actor"] == "Left Twin"  # rolled once; then 'already rolled'
    finally:
        store.close()
