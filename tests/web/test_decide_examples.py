"""Every example of every rule set can be played through the Decide form, pages stay small."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.shipped import SCENARIOS, example_id

from fracas.store import EventStore
from fracas.web import create_app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FILES = SCENARIOS
#: A turn's page (the Decide panel included) stays under this many bytes.
PAGE_LIMIT = 20_000


@pytest.mark.slow
@pytest.mark.parametrize("example", FILES, ids=example_id)
def test_each_verb_opens_a_form_whose_defaults_confirm(tmp_path: Path, example: Path) -> None:
    store = EventStore(tmp_path / "c.sqlite")
    app = create_app(store, [EXAMPLES])
    client = TestClient(app)
    home = f"/gm/{app.state.admin_key}"
    csrf = re.search(r'name="csrf" value="([^"]+)"', client.get(home).text)
    assert csrf is not None
    answer = client.post(f"{home}/create", follow_redirects=False, data={
        "csrf": csrf.group(1), "bundled": f"examples/{example.parent.name}/{example.name}",
        "seed": "1"})
    assert answer.status_code == 303, answer.text
    gm = answer.headers["location"]
    json = {"accept": "application/json"}
    for turn in range(8):
        state = client.get(f"{gm}/state.json").json()
        if state["outcome"] or not state["verbs"]:
            break
        assert len(client.get(gm).content) < PAGE_LIMIT
        keys = {"csrf": state["csrf"], "rev": str(state["revision"])}
        forms = {}
        for verb in state["verbs"]:
            body = client.post(f"{gm}/decide", data={**keys, "verb": verb}, headers=json).json()
            assert body["ok"] and body["action"], (verb, body)
            assert all(len(f.get("choices", [])) <= 12 for f in body["fields"]), body
            forms[verb] = {f"f_{f['name']}": f["value"] for f in body["fields"]}
        verb = state["verbs"][turn % len(state["verbs"])]
        answer = client.post(f"{gm}/act", data={**keys, "verb": verb, **forms[verb]},
                             headers=json)
        assert answer.status_code == 200, answer.text
    store.close()
