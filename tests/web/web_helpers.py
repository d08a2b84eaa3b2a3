"""Helpers for driving the GM console through a test client."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from fastapi.testclient import TestClient

SCENARIOS = {
    "duel.yaml": """\
ruleset: toy
name: Duel at dawn
fighters:
  - {name: ann, side: red, hp: 30}
  - {name: bob, side: blue, hp: 30}
""",
    "secret.yaml": """\
ruleset: toy_secret
name: Ambush
fighters:
  - {name: ann, side: red, hp: 30}
  - {name: bob, side: blue, hp: 30}
""",
    "skirmish.yaml": """\
ruleset: toy
name: Skirmish
fighters:
  - {name: ann, side: red, hp: 8}
  - {name: cid, side: red, hp: 8}
  - {name: bob, side: blue, hp: 8}
  - {name: dee, side: blue, hp: 8}
""",
}


@dataclass
class Console:
    """A test client with helpers for the GM's home and one encounter's links."""

    client: TestClient
    key: str
    folder: str

    @property
    def home(self) -> str:
        return f"/gm/{self.key}"

    def admin_csrf(self) -> str:
        page = self.client.get(self.home)
        found = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert found is not None
        return found.group(1)

    def create(self, scenario: str, seed: int = 0) -> dict[str, str]:
        """Create an encounter from a bundled scenario; returns link URLs by role/side."""
        answer = self.client.post(
            f"{self.home}/create", follow_redirects=False,
            data={"csrf": self.admin_csrf(), "bundled": f"{self.folder}/{scenario}",
                  "seed": str(seed)})
        assert answer.status_code == 303, answer.text
        gm = answer.headers["location"]
        page = self.client.get(gm).text
        links = {"gm": gm}
        for role, url in re.findall(r'class="link-([a-z-]+)" href="([^"]+)"', page):
            links[role] = url
        return links

    def state(self, url: str) -> dict[str, Any]:
        answer = self.client.get(f"{url}/state.json")
        assert answer.status_code == 200
        body: dict[str, Any] = answer.json()
        return body

    def post(self, url: str, what: str, *, json: bool = True, **data: Any) -> Any:
        state = self.state(url)
        fields = {"csrf": state["csrf"], "rev": str(state["revision"]), **data}
        headers = {"accept": "application/json"} if json else {}
        return self.client.post(f"{url}/{what}", data=fields, headers=headers,
                                follow_redirects=False)
