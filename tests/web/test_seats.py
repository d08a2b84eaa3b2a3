"""Seats (a link per player), the links' QR codes and addresses, the AI's whole turn and the
GM's own One Ring table, through the app (FastAPI's test client, a real SQLite store)."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest
import segno
from fastapi.testclient import TestClient
from web_helpers import Console

from fracas.store import EventStore, SeatError
from fracas.web import create_app
from fracas.web.hosts import origins, public_hosts

ROOT = Path(__file__).resolve().parents[2]

#: A company played by people (two heroes ``human``), the Loremaster's rolls hidden, a troll.
TROLL = """\
ruleset: one_ring
name: Troll at the ford
gm_rolls_hidden: true
heroes:
  - {name: Hirgon, policy: human, strength: 6, heart: 4, wits: 4, endurance: 26, hope: 10,
     armour: mail_shirt, helm: true, shield: shield, weapons: [long_sword],
     proficiencies: {swords: 3}}
  - {name: Beran, policy: human, strength: 7, heart: 3, wits: 3, endurance: 28, hope: 8,
     armour: leather_corslet, weapons: [great_axe], proficiencies: {axes: 3}}
adversaries:
  - {name: troll, kind: hill_troll}
"""


def seat_form(console: Console, gm: str, *names: str) -> dict[str, str]:
    page = console.client.get(gm).text
    csrf = re.search(r'<form method="post" action="[^"]+/seats" class="new-seat"[^>]*>\s*'
                     r'<input type="hidden" name="csrf" value="([^"]+)"', page)
    assert csrf is not None
    picks = dict(re.findall(r'<input type="checkbox" name="(pick\d+)" value="([^"]+)"', page))
    chosen = {key: name for key, name in picks.items() if name in names}
    assert len(chosen) == len(names), picks
    return {"csrf": csrf.group(1), **chosen}


def make_seat(console: Console, gm: str, *names: str) -> str:
    """The GM ticks ``names`` on the table page and makes the seat; returns its link."""
    answer = console.client.post(f"{gm}/seats", data=seat_form(console, gm, *names),
                                 follow_redirects=False)
    assert answer.status_code == 303, answer.text
    page = console.client.get(answer.headers["location"]).text
    assert "A new seat was made" in page
    found = re.findall(r'class="seat-link" href="([^"]+)" data-combatants="([^"]*)"', page)
    return next(url for url, who in reversed(found) if who == ",".join(sorted(names)))


def test_a_seat_acts_for_its_own_combatant_only_and_says_so(console: Console) -> None:
    links = console.create("skirmish.yaml", seed=3)
    gm = links["gm"]
    first = console.state(gm)["actor"]
    mate = {"ann": "cid", "cid": "ann", "bob": "dee", "dee": "bob"}[first]
    mine = make_seat(console, gm, first)
    other = make_seat(console, gm, mate)
    state = console.state(mine)
    assert state["role"] == "player" and state["can_act"] and state["next"] is not None
    assert not console.state(other)["can_act"], "a seat does not act for its side-mate"
    page = console.client.get(mine).text
    assert f"{first}&#39;s seat" in page or f"{first}'s seat" in page
    assert 'id="your-turn"' in page and "<title>Your turn" in page
    assert 'id="your-turn"' not in console.client.get(other).text

    # The side-mate's seat is refused, naming whom it acts for.
    refused = console.post(other, "act", action=f"{first} wait")
    assert refused.status_code == 403
    assert refused.json()["error"] == f"this link acts only for {mate}, and it is not their turn"
    # Its own seat cannot act for the side-mate either, even on its own turn.
    refused = console.post(mine, "act", action=f"{mate} wait")
    assert refused.status_code == 403
    assert refused.json()["error"] == f"this link acts only for {first}, not for {mate}"
    assert console.state(gm)["revision"] == 0
    # And it acts for its own combatant through the form's steps.
    acted = console.post(mine, "act", verb="wait")
    assert acted.status_code == 200 and acted.json()["ok"]
    assert console.state(gm)["revision"] == 1


def test_one_seat_holds_several_combatants_of_one_side(console: Console) -> None:
    links = console.create("skirmish.yaml", seed=3)
    gm = links["gm"]
    both = make_seat(console, gm, "ann", "cid")
    for _ in range(12):
        state = console.state(gm)
        if state["outcome"]:
            break
        seen = console.state(both)
        assert seen["can_act"] == (state["actor"] in {"ann", "cid"})
        console.post(gm, "ai")


def test_a_seat_must_name_combatants_of_one_side(console: Console) -> None:
    gm = console.create("skirmish.yaml")["gm"]
    two_sides = console.client.post(f"{gm}/seats", data=seat_form(console, gm, "ann", "bob"))
    assert two_sides.status_code == 400
    assert "must all be of one side" in two_sides.text and "Traceback" not in two_sides.text
    csrf = seat_form(console, gm)["csrf"]
    nobody = console.client.post(f"{gm}/seats", data={"csrf": csrf})
    assert nobody.status_code == 400 and "choose at least one combatant" in nobody.text
    stranger = console.client.post(f"{gm}/seats", data={"csrf": csrf, "pick1": "zed"})
    assert stranger.status_code == 400 and "no combatant named &#39;zed&#39;" in stranger.text


def test_only_the_gm_makes_or_revokes_seats_and_a_revoked_seat_is_gone(
        console: Console) -> None:
    links = console.create("skirmish.yaml")
    gm, red = links["gm"], links["player-red"]
    red_csrf = console.state(red)["csrf"]
    assert console.client.post(f"{red}/seats", data={"csrf": red_csrf, "pick1": "ann"}
                               ).status_code == 403
    form = seat_form(console, gm, "ann")
    assert console.client.post(f"{gm}/seats", data={**form, "csrf": "forged"}
                               ).status_code == 403
    seat = make_seat(console, gm, "ann")
    token = seat.rsplit("/", 1)[1]
    assert console.client.post(f"{red}/seats/remove", data={"csrf": red_csrf, "seat": token}
                               ).status_code == 403
    assert console.client.get(seat).status_code == 200
    answer = console.client.post(f"{gm}/seats/remove",
                                 data={"csrf": form["csrf"], "seat": token},
                                 follow_redirects=False)
    assert answer.status_code == 303
    assert console.client.get(seat).status_code == 404
    assert console.client.get(f"{seat}/state.json").status_code == 404
    # A side's link is not a seat: it cannot be revoked that way.
    side_token = red.rsplit("/", 1)[1]
    console.client.post(f"{gm}/seats/remove", data={"csrf": form["csrf"], "seat": side_token})
    assert console.client.get(red).status_code == 200


def test_seats_are_kept_across_a_restart(tmp_path: Path, scenario_dir: Path) -> None:
    db = tmp_path / "seats.sqlite"
    store = EventStore(db)
    console = Console(TestClient(create_app(store, [scenario_dir])),
                      store.secret("admin"), scenario_dir.name)
    gm = console.create("skirmish.yaml")["gm"]
    seat = make_seat(console, gm, "bob", "dee")
    store.close()
    again = EventStore(db)
    try:
        client = TestClient(create_app(again, [scenario_dir]))
        state = client.get(f"{seat}/state.json").json()
        assert state["role"] == "player" and state["side"] == "blue"
        enc_id = seat.split("/")[2]
        found = [link for link in again.links(enc_id) if link.is_seat]
        assert [link.combatants for link in found] == [("bob", "dee")]
    finally:
        again.close()


def test_the_store_refuses_a_bad_seat_by_name(store: EventStore, scenario_dir: Path) -> None:
    from fracas.scenario import load_scenario

    info = store.create(load_scenario(scenario_dir / "skirmish.yaml"))
    with pytest.raises(SeatError, match="no combatant named 'zed'"):
        store.add_seat(info.id, ["zed"])
    with pytest.raises(SeatError, match="one side"):
        store.add_seat(info.id, ["ann", "dee"])
    seat = store.add_seat(info.id, ["cid", "ann", "ann"])
    assert seat.combatants == ("ann", "cid") and seat.side == "red" and len(seat.token) >= 43
    assert store.find_link(info.id, seat.token) == seat


def test_every_link_has_a_copy_box_and_a_qr_code_of_its_whole_url(console: Console) -> None:
    links = console.create("duel.yaml")
    gm = links["gm"]
    make_seat(console, gm, "ann")
    page = console.client.get(gm).text
    rows = re.findall(r'<li[^>]*><span class="tag">[^<]+</span> <a class="[a-z-]+" href="([^"]+)"'
                      r'[^>]*>([^<]+)</a> <button type="button" class="copy">Copy</button> '
                      r'<button type="button" class="qr">QR code</button>', page)
    assert len(rows) == 5  # GM, spectators, two sides, the seat
    images = []
    for path, url in rows:
        assert url == f"http://testserver{path}"
        images.append(f"{gm}/qr/{path.rsplit('/', 1)[1]}.svg")
        answer = console.client.get(images[-1])
        assert answer.status_code == 200 and answer.headers["content-type"] == "image/svg+xml"
        size = re.search(r'<svg xmlns="http://www.w3.org/2000/svg" width="(\d+)" height="(\d+)"',
                         answer.text)
        assert size is not None, answer.text[:200]
        # The code is the URL's own: its size is that of the URL's QR code (3 pixels a
        # module, a border of 4), and its version is the one the URL needs.
        code = segno.make(url, error="m", micro=False)
        assert (int(size[1]), int(size[2])) == code.symbol_size(scale=3, border=4)
    assert f'data-qr="{gm}/qr/"' in page
    # Only the GM's link draws them, and only for this encounter's links.
    token = images[0].rsplit("/", 1)[1]
    assert console.client.get(f"{links['player-red']}/qr/{token}").status_code == 403
    assert console.client.get(f"{gm}/qr/not-a-link.svg").status_code == 404


def test_the_links_use_the_servers_own_addresses_when_given(
        store: EventStore, scenario_dir: Path) -> None:
    app = create_app(store, [scenario_dir],
                     origins=["http://192.168.1.20:8000", "http://10.0.0.5:8000"])
    console = Console(TestClient(app), app.state.admin_key, scenario_dir.name)
    gm = console.create("duel.yaml")["gm"]
    page = console.client.get(gm).text
    assert '>http://192.168.1.20:8000/e/' in page and "testserver/e/" not in page
    assert f'<a href="{gm}?at=1#links">http://10.0.0.5:8000</a>' in page
    other = console.client.get(f"{gm}?at=1").text
    assert '>http://10.0.0.5:8000/e/' in other and f'data-qr="{gm}/qr/?at=1"' in other
    token = gm.rsplit("/", 1)[1]
    qr = console.client.get(f"{gm}/qr/{token}.svg?at=1").text
    code = segno.make(f"http://10.0.0.5:8000{gm}", error="m", micro=False)
    assert f'width="{code.symbol_size(scale=3, border=4)[0]}"' in qr


INTERFACES = {
    "lo": [(socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")],
    "eth0": [(socket.AF_INET, "93.184.216.34"), (socket.AF_INET6, "fe80::1%eth0"),
             (socket.AF_INET6, "fd00::2"), (17, "02:fc:00:00:00:01")],
    "wlan0": [(socket.AF_INET, "192.168.1.20"), (socket.AF_INET, "169.254.3.4")],
}


def test_the_addresses_other_machines_can_reach() -> None:
    # Every interface: private (a home network) first, no loopback, link-local or MAC.
    assert public_hosts("0.0.0.0", INTERFACES) == ["192.168.1.20", "93.184.216.34"]
    assert public_hosts("::", INTERFACES) == ["192.168.1.20", "93.184.216.34", "[fd00::2]"]
    assert public_hosts("", INTERFACES) == ["192.168.1.20", "93.184.216.34"]
    # Loopback stays loopback; an address or name given is kept.
    assert public_hosts("127.0.0.1", INTERFACES) == ["127.0.0.1"]
    assert public_hosts("localhost", INTERFACES) == ["127.0.0.1"]
    assert public_hosts("::1", INTERFACES) == ["[::1]"]
    assert public_hosts("192.168.1.20", INTERFACES) == ["192.168.1.20"]
    assert public_hosts("fd00::2", INTERFACES) == ["[fd00::2]"]
    assert public_hosts("table.local", INTERFACES) == ["table.local"]
    # A machine with nothing but loopback: the links still work here.
    assert public_hosts("0.0.0.0", {"lo": [(socket.AF_INET, "127.0.0.1")]}) == ["127.0.0.1"]
    assert origins("0.0.0.0", 8000, INTERFACES) == ["http://192.168.1.20:8000",
                                                     "http://93.184.216.34:8000"]


def test_serve_prints_links_other_machines_can_open(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    """``fracas serve --host 0.0.0.0`` prints this machine's addresses, not 127.0.0.1."""
    import uvicorn
    from typer.testing import CliRunner

    import fracas.web.hosts as hosts
    from fracas.cli.app import app as cli_app

    monkeypatch.setattr(hosts, "interface_addresses", lambda: INTERFACES)
    started: dict[str, object] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: started.update(kw, app=app))
    # A port nobody listens on (``serve`` checks it can listen before it starts).
    with socket.socket() as probe:
        probe.bind(("0.0.0.0", 0))
        port = probe.getsockname()[1]
    result = CliRunner().invoke(cli_app, ["serve", "--db", str(tmp_path / "s.sqlite"),
                                          "--host", "0.0.0.0", "--port", str(port)])
    assert result.exit_code == 0, result.output
    assert f"GM link (keep it secret): http://192.168.1.20:{port}/gm/" in result.output
    assert f"http://93.184.216.34:{port}/gm/" in result.output
    assert "127.0.0.1" not in result.output and started["host"] == "0.0.0.0"
    app = started["app"]
    assert app.state.console.origins == [  # type: ignore[attr-defined]
        f"http://192.168.1.20:{port}", f"http://93.184.216.34:{port}"]


def test_let_the_ai_play_this_turn_plays_the_whole_turn(console: Console, store: EventStore
                                                        ) -> None:
    """An Age of Dragons turn is several decisions (spend dice, then more): all of them."""
    from fracas.scenario import load_scenario

    info = store.create(load_scenario(ROOT / "examples/age_of_dragons/claw_duel.yaml"), 3)
    gm = links_of(store, info.id)["gm"]
    for _ in range(3):
        before = console.state(gm)
        actor = before["actor"]
        answer = console.post(gm, "ai")
        assert answer.status_code == 200
        after = answer.json()
        made = after["revision"] - before["revision"]
        with store.live(info.id) as (enc, _):
            decisions = [e for e in enc.log if type(e).__name__ == "DecisionMade"][-made:]
        assert made > 1, "a claw duel's turn is more than one decision"
        assert {d.action.actor for d in decisions} == {actor}
        assert after["actor"] != actor or after["outcome"] is not None


def test_a_player_lets_the_ai_play_its_own_turn_only(console: Console) -> None:
    links = console.create("skirmish.yaml", seed=3)
    gm = links["gm"]
    actor = console.state(gm)["actor"]
    mate = {"ann": "cid", "cid": "ann", "bob": "dee", "dee": "bob"}[actor]
    refused = console.post(make_seat(console, gm, mate), "ai")
    assert refused.status_code == 403 and "acts only for" in refused.json()["error"]
    assert console.post(make_seat(console, gm, actor), "ai").status_code == 200
    assert console.state(gm)["actor"] != actor


def links_of(store: EventStore, enc_id: str) -> dict[str, str]:
    return {f"{link.role}{'-' + link.side if link.side else ''}":
            f"/e/{enc_id}/{link.token}" for link in store.links(enc_id) if not link.is_seat}


def test_the_gms_one_ring_table_shows_the_foes_numbers_when_rolls_are_hidden(
        console: Console, store: EventStore) -> None:
    """With the Company at the table and the Loremaster's rolls hidden, the GM still reads
    the troll's Endurance, Hate and Wounds; the Company's links do not."""
    from fracas.scenario import parse_scenario

    links = links_of(store, store.create(parse_scenario(TROLL, "troll.yaml"), 2).id)
    gm, company = links["gm"], links["player-company"]
    for _ in range(25):
        if console.state(gm)["outcome"] or not console.post(gm, "ai").json()["ok"]:
            break
    table = re.search(r'<table [^>]*\bid="table"[^>]*>.*?</table>',
                      console.client.get(gm).text, re.S)
    assert table is not None
    troll = re.search(r"<tr[^>]*><td>troll</td>(.*?)</tr>", table.group(0), re.S)
    assert troll is not None
    # A cell's text (a health cell also draws its figures as a bar: ``<meter>``).
    cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", troll.group(1))]
    assert "?" not in cells and "? Hate" not in cells
    assert any(re.fullmatch(r"\d+/40", c) for c in cells), cells
    assert any(re.fullmatch(r"\d+ Hate", c) for c in cells), cells
    seen = console.state(company)["view"]
    assert "endurance" not in seen["adversaries"][0] and "wounds" not in seen["adversaries"][0]
    company_table = re.search(r'<table [^>]*\bid="table"[^>]*>.*?</table>',
                              console.client.get(company).text, re.S)
    assert company_table is not None and "/40" not in company_table.group(0)


def claw_duel(store: EventStore) -> dict[str, str]:
    from fracas.scenario import load_scenario

    return links_of(store, store.create(
        load_scenario(ROOT / "examples/age_of_dragons/claw_duel.yaml"), 3).id)


def test_the_adjust_panel_applies_an_override_and_undo_takes_it_back(
        console: Console, store: EventStore) -> None:
    links = claw_duel(store)
    gm = links["gm"]
    page = console.client.get(gm).text
    assert 'id="adjust"' in page and 'value="adjust"' in page
    assert 'id="adjust"' not in console.client.get(links["player-red"]).text
    # The steps, as the panel's form asks for them.
    steps = console.post(gm, "adjust", verb="adjust", f_target="Ash", f_what="pr")
    assert steps.status_code == 200
    body = steps.json()
    by = next(f for f in body["fields"] if f["name"] == "by")
    assert (by["low"], by["high"]) == (-40, 0) and body["action"].startswith("gm adjust")
    state = console.state(gm)
    fragment = console.client.post(f"{gm}/adjust", headers={"HX-Request": "true"}, data={
        "csrf": state["csrf"], "rev": str(state["revision"]), "verb": "adjust",
        "f_target": "Ash", "f_what": "pr", "f_by": "-3"})
    assert fragment.status_code == 200
    assert 'id="adjust-confirm"' in fragment.text and "by=-3" in fragment.text
    assert 'id="live"' not in fragment.text
    # Without JavaScript: the whole page, the override's steps open in it.
    plain = console.client.post(f"{gm}/adjust", data={
        "csrf": state["csrf"], "rev": str(state["revision"]), "verb": "condition"})
    assert plain.status_code == 200 and 'id="live"' in plain.text
    assert 'id="adjust-steps"' in plain.text
    assert '<details class="card adjust" id="adjust" open' in plain.text
    before = console.state(gm)
    applied = console.post(gm, "act", override="yes", verb="adjust", f_target="Ash",
                           f_what="pr", f_by="-3")
    assert applied.status_code == 200 and applied.json()["ok"], applied.text
    after = console.state(gm)
    assert after["revision"] == before["revision"] + 1
    assert after["actor"] == before["actor"], "an override takes nobody's turn"
    assert "The GM wounds Ash: Physical Resilience 20 → 17" in [e["text"] for e in after["log"]]
    ash = next(f for f in after["view"]["fighters"] if f["name"] == "Ash")
    assert ash["pr"] == 17
    assert console.post(gm, "undo").status_code == 200
    undone = console.state(gm)
    assert undone["view"] == before["view"] and undone["revision"] == before["revision"] + 2


def test_only_the_gm_adjusts_and_a_value_no_longer_offered_is_named(
        console: Console, store: EventStore) -> None:
    links = claw_duel(store)
    gm, red = links["gm"], links["player-red"]
    assert console.post(red, "adjust", verb="adjust").status_code == 403
    forged = console.post(red, "act", override="yes", verb="adjust", f_target="Ash",
                          f_what="pr", f_by="-3")
    assert forged.status_code == 403 and "only the GM" in forged.json()["error"]
    too_much = console.post(gm, "act", override="yes", verb="adjust", f_target="Ash",
                            f_what="pr", f_by="-99")
    assert too_much.status_code == 422
    assert too_much.json()["error"].startswith("adjust: by '-99' is not offered now")
    unknown = console.post(gm, "act", override="yes", verb="bless", f_target="Ash")
    assert unknown.status_code == 422
    assert unknown.json()["error"].startswith("the GM cannot bless now; choose one of: adjust")
    assert console.state(gm)["revision"] == 0
    chosen = console.post(gm, "adjust", verb="bless").json()
    assert not chosen["ok"] and chosen["error"].startswith("the GM cannot bless now")


def test_a_rule_set_without_overrides_shows_no_adjust_panel(console: Console) -> None:
    gm = console.create("duel.yaml")["gm"]
    assert 'id="adjust"' not in console.client.get(gm).text
    answer = console.post(gm, "act", override="yes", verb="adjust", f_target="ann")
    assert answer.status_code == 422 and "offers no GM overrides" in answer.json()["error"]


def test_a_newcomer_is_named_or_typed_in_whole_through_the_panel(
        console: Console, store: EventStore) -> None:
    gm = claw_duel(store)["gm"]
    steps = console.post(gm, "adjust", verb="add", f_like="Ash", f_name="Wyrm").json()
    name = next(f for f in steps["fields"] if f["name"] == "name")
    assert name["value"] == "Wyrm" and name.get("typed") is True
    assert steps["action"] == "gm add like=Ash name=Wyrm"
    taken = console.post(gm, "adjust", verb="add", f_like="Ash", f_name="Ember").json()
    assert not taken["ok"] and "Ember" in taken["error"]
    assert console.post(gm, "act", override="yes", verb="add", f_like="Ash",
                        f_name="Wyrm").json()["ok"]
    assert "Wyrm" in [f["name"] for f in console.state(gm)["view"]["fighters"]]
    # A whole combatant typed in as the scenario writes one: the suggestion, renamed.
    entry = console.post(gm, "adjust", verb="enter").json()
    spec = next(f for f in entry["fields"] if f["name"] == "spec")["value"]
    assert spec.startswith("{") and "name:" in spec
    renamed = re.sub(r"name: [^,}]+", "name: Drake", spec, count=1)
    answer = console.post(gm, "act", override="yes", verb="enter", f_spec=renamed)
    assert answer.json()["ok"], answer.text
    log = [e["text"] for e in console.state(gm)["log"]]
    assert any("Drake" in line for line in log), log
