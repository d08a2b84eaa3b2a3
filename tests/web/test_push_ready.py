"""A click's commit wakes the event streams once its answer is made, and they push that panel."""

from __future__ import annotations

from fastapi import FastAPI
from web_helpers import Console

from fracas.web.broker import Broker
from fracas.web.console import Console as AppConsole


def test_changes_inside_holding_wake_the_streams_only_at_its_end() -> None:
    broker = Broker()
    woken: list[str] = []
    broker._wake = woken.append  # type: ignore[method-assign]

    class Loop:
        def is_closed(self) -> bool:
            return False

        def call_soon_threadsafe(self, fn: object, *args: str) -> None:
            woken.extend(args)

    broker.loop = Loop()  # type: ignore[assignment]
    with broker.holding():
        broker.changed("a")
        broker.changed("a")
        broker.changed("b")
        assert woken == []
    assert sorted(woken) == ["a", "b"]
    broker.changed("c")
    assert woken[-1] == "c"


def test_a_stream_woken_by_a_click_finds_the_panel_the_click_answered(
        console: Console, app: FastAPI) -> None:
    core: AppConsole = app.state.console
    gm = console.create("duel.yaml", seed=1)["gm"]
    enc_id, token = gm.split("/")[-2:]
    state = console.state(gm)
    answer = console.client.post(f"{gm}/act", data={
        "csrf": state["csrf"], "rev": str(state["revision"]), "action": "ann strike target=bob"},
        headers={"hx-request": "true", "x-csrf-token": state["csrf"]})
    assert answer.status_code == 200
    ready = core.ready_panel(enc_id, token)
    assert ready is not None and ready[1] == answer.text
    assert ready[0] == str(console.state(gm)["revision"])
    # What a stream asking in a worker thread would be sent is the same panel.
    assert core.fresh_panel(enc_id, token, core.known_viewer(enc_id, token).access,  # type: ignore[union-attr]
                            "") == ready
