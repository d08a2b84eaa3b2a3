"""The GM console over HTTP: encounters, the table view, turns, undo, links and their limits."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner
from web_helpers import Console

from fracas.cli.app import app as cli_app
from fracas.store import EventStore
from fracas.web import create_app, find_bundled


def test_the_landing_page_shows_no_encounters_and_the_home_needs_the_key(
        console: Console) -> None:
    landing = console.client.get("/")
    assert landing.status_code == 200 and "/e/" not in landing.text
    assert console.client.get("/gm/not-the-key").status_code == 404
    assert console.client.get(console.home).status_code == 200


def test_the_gm_creates_an_encounter_from_a_bundled_scenario(console: Console) -> None:
    links = console.create("duel.yaml", seed=5)
    assert set(links) == {"gm", "player-red", "player-blue", "spectator"}
    page = console.client.get(links["gm"]).text
    assert "Duel at dawn" in page and 'name="verb" value="strike"' in page
    home = console.client.get(console.home).text
    assert "Duel at dawn" in home and "toy" in home


def test_an_uploaded_scenario_is_validated_with_file_line_and_field(console: Console) -> None:
    bad = "ruleset: toy\nfighters:\n  - {name: ann, side: red, hp: lots}\n"
    answer = console.client.post(
        f"{console.home}/create", data={"csrf": console.admin_csrf()},
        files={"scenario": ("broken.yaml", bad.encode(), "application/x-yaml")})
    assert answer.status_code == 400
    assert "broken.yaml:3: fighters[ann].hp:" in answer.text
    assert "Traceback" not in answer.text


def test_a_good_upload_starts_a_fight(console: Console) -> None:
    text = "ruleset: toy\nname: Uploaded\nfighters:\n  - {name: x, side: a, hp: 3}\n" \
           "  - {name: y, side: b, hp: 3}\n"
    answer = console.client.post(
        f"{console.home}/create", data={"csrf": console.admin_csrf(), "seed": "2"},
        files={"scenario": ("mine.yaml", text.encode(), "application/x-yaml")},
        follow_redirects=False)
    assert answer.status_code == 303
    assert 'name="verb" value="strike"' in console.client.get(answer.headers["location"]).text


def test_a_scenario_that_is_not_text_or_not_offered_is_refused(console: Console) -> None:
    answer = console.client.post(
        f"{console.home}/create", data={"csrf": console.admin_csrf()},
        files={"scenario": ("x.yaml", b"\xff\xfe\x00", "application/x-yaml")})
    assert answer.status_code == 400 and "not UTF-8" in answer.text
    answer = console.client.post(f"{console.home}/create",
                                 data={"csrf": console.admin_csrf(),
                                       "bundled": "../../etc/passwd"})
    assert answer.status_code == 400 and "choose a bundled scenario" in answer.text


def test_acting_takes_the_turn_and_shows_the_dice(console: Console) -> None:
    gm = console.create("duel.yaml", seed=1)["gm"]
    answer = console.post(gm, "act", action="ann strike target=bob")
    assert answer.status_code == 200 and answer.json()["actor"] == "bob"
    state = console.state(gm)
    dice = [e for e in state["log"] if e["kind"] == "dice"]
    assert len(dice) == 1 and dice[0]["text"].startswith("ann rolls 1d6 for damage: ")
    page = console.client.get(gm).text
    assert re.search(r'<span class="die d6[^"]*">\d</span>', page)


def test_typed_actions_may_leave_out_the_actor(console: Console) -> None:
    gm = console.create("duel.yaml")["gm"]
    assert console.post(gm, "act", action="strike target=bob").status_code == 200
    assert console.state(gm)["actor"] == "bob"


def test_an_illegal_action_names_the_rule_and_changes_nothing(console: Console) -> None:
    gm = console.create("duel.yaml")["gm"]
    answer = console.post(gm, "act", action="bob wait")
    assert answer.status_code == 422
    assert "rule: turn order" in answer.json()["error"]
    answer = console.post(gm, "act", action="ann dance")
    assert answer.status_code == 422 and "unknown action 'dance'" in answer.json()["error"]
    assert console.state(gm)["revision"] == 0


def test_a_typed_verb_missing_its_fields_out_of_turn_names_the_turn_order(
        console: Console) -> None:
    gm = console.create("duel.yaml")["gm"]
    answer = console.post(gm, "act", action="bob strike")
    assert answer.status_code == 422
    assert answer.json()["error"] == ("illegal action 'bob strike': it is ann's decision now "
                                      "(rule: turn order)")
    answer = console.post(gm, "act", action="strike")  # ann's verb: only the field is missing
    assert answer.status_code == 422 and answer.json()["error"] == "'strike' needs target=..."
    assert console.state(gm)["revision"] == 0


def test_two_clients_cannot_both_decide_the_same_turn(console: Console) -> None:
    gm = console.create("duel.yaml")["gm"]
    red = console.create("duel.yaml")  # another encounter must not interfere
    state = console.state(gm)
    fields = {"csrf": state["csrf"], "rev": str(state["revision"]), "action": "ann wait"}
    first = console.client.post(f"{gm}/act", data=fields, headers={"accept": "application/json"})
    second = console.client.post(f"{gm}/act", data=fields,
                                 headers={"accept": "application/json"})
    assert first.status_code == 200
    assert second.status_code == 409 and "somebody else acted first" in second.json()["error"]
    assert second.json()["revision"] == 1 and second.json()["actor"] == "bob"
    assert console.state(red["gm"])["revision"] == 0


def test_the_loser_of_a_race_gets_the_message_and_a_fresh_panel(console: Console) -> None:
    gm = console.create("duel.yaml")["gm"]
    state = console.state(gm)
    fields = {"csrf": state["csrf"], "rev": "0", "action": "ann wait"}
    console.client.post(f"{gm}/act", data=fields, headers={"hx-request": "true"})
    stale = console.client.post(f"{gm}/act", data=fields, headers={"hx-request": "true"})
    assert stale.status_code == 409
    assert 'class="flash conflict"' in stale.text and 'data-revision="1"' in stale.text


def test_every_change_needs_the_csrf_token(console: Console) -> None:
    gm = console.create("duel.yaml")["gm"]
    for fields in ({"rev": "0", "action": "ann wait"},
                   {"rev": "0", "action": "ann wait", "csrf": "forged"}):
        answer = console.client.post(f"{gm}/act", data=fields)
        assert answer.status_code == 403 and "CSRF" in answer.text
    assert console.client.post(f"{console.home}/create",
                               data={"bundled": "x"}).status_code == 403
    assert console.state(gm)["revision"] == 0


def test_the_csrf_token_of_one_link_does_not_work_on_another(console: Console) -> None:
    links = console.create("duel.yaml")
    red_csrf = console.state(links["player-red"])["csrf"]
    answer = console.client.post(f"{links['gm']}/act",
                                 data={"csrf": red_csrf, "rev": "0", "action": "ann wait"})
    assert answer.status_code == 403


def test_a_request_a_browser_marks_cross_site_is_refused(console: Console) -> None:
    gm = console.create("duel.yaml")["gm"]
    state = console.state(gm)
    answer = console.client.post(f"{gm}/act", headers={"sec-fetch-site": "cross-site"},
                                 data={"csrf": state["csrf"], "rev": "0", "action": "ann wait"})
    assert answer.status_code == 403 and console.state(gm)["revision"] == 0


def test_no_get_request_changes_anything(console: Console) -> None:
    gm = console.create("duel.yaml")["gm"]
    for what in ("act", "ai", "undo", "redo", "auto"):
        assert console.client.get(f"{gm}/{what}?action=ann+wait&rev=0").status_code == 405
    assert console.state(gm)["revision"] == 0


def test_request_bodies_over_the_cap_are_refused(console: Console) -> None:
    gm = console.create("duel.yaml")["gm"]
    state = console.state(gm)
    answer = console.client.post(
        f"{gm}/act", data={"csrf": state["csrf"], "rev": "0", "action": "x" * 70_000})
    assert answer.status_code == 413 and "too large" in answer.text
    upload = console.client.post(
        f"{console.home}/create", data={"csrf": console.admin_csrf()},
        files={"scenario": ("big.yaml", b"#" * 100_000, "application/x-yaml")})
    assert upload.status_code == 413


def test_a_player_link_acts_only_for_its_own_side(console: Console) -> None:
    links = console.create("duel.yaml")
    blue, red = links["player-blue"], links["player-red"]
    assert console.state(blue)["can_act"] is False and console.state(blue)["verbs"] == []
    assert console.client.get(f"{blue}/actions.json").json()["actions"] == []
    assert "ann strike" not in console.client.get(blue).text
    answer = console.post(blue, "act", action="ann strike target=bob")
    assert answer.status_code == 403 and "only for side 'blue'" in answer.json()["error"]
    assert console.post(blue, "ai").status_code == 403
    assert console.state(links["gm"])["revision"] == 0
    assert console.post(red, "act", action="ann strike target=bob").status_code == 200
    assert console.state(blue)["can_act"] is True


def test_only_the_gm_link_undoes_plays_to_the_end_or_exports(console: Console) -> None:
    links = console.create("duel.yaml")
    console.post(links["player-red"], "act", action="ann wait")
    for link in (links["player-red"], links["player-blue"], links["spectator"]):
        for what in ("undo", "redo", "auto"):
            assert console.post(link, what).status_code == 403
        assert console.client.get(f"{link}/export").status_code == 403
    assert console.state(links["gm"])["revision"] == 1


def test_a_spectator_watches_but_cannot_act(console: Console) -> None:
    links = console.create("duel.yaml")
    spectator = links["spectator"]
    assert console.state(spectator)["can_act"] is False
    answer = console.post(spectator, "act", action="ann wait")
    assert answer.status_code == 403 and "spectator" in answer.json()["error"]
    assert 'id="undo"' not in console.client.get(spectator).text


def test_players_never_see_hidden_gm_rolls_or_hidden_statistics(console: Console) -> None:
    links = console.create("secret.yaml", seed=3)
    console.post(links["gm"], "act", action="ann strike target=bob")
    gm_log = console.state(links["gm"])["log"]
    assert any("secret ambush check" in e["text"] for e in gm_log)
    for link in (links["player-red"], links["player-blue"], links["spectator"]):
        state = console.state(link)
        assert not any("ambush" in e["text"] for e in state["log"])
        page = console.client.get(link).text
        assert "secret ambush check" not in page and "die d20" not in page
    blue_view = console.state(links["player-blue"])["view"]["combatants"]
    assert blue_view[0] == {"name": "ann", "side": "red", "hp": "?"}
    assert isinstance(blue_view[1]["hp"], int)
    gm_page = console.client.get(links["gm"]).text
    assert "secret ambush check" in gm_page and 'class="tag hidden"' in gm_page


def test_a_wrong_token_or_encounter_is_simply_not_found(console: Console) -> None:
    a = console.create("duel.yaml")
    b = console.create("duel.yaml")
    a_id, a_token = a["gm"].split("/")[2:4]
    b_id = b["gm"].split("/")[2]
    assert console.client.get(f"/e/{a_id}/{a_token[:-2]}").status_code == 404
    assert console.client.get(f"/e/{b_id}/{a_token}").status_code == 404
    assert console.client.get(f"/e/nothing/{a_token}/state.json").status_code == 404


def test_the_panel_answers_204_until_the_log_changes(console: Console) -> None:
    gm = console.create("duel.yaml")["gm"]
    assert console.client.get(f"{gm}/panel?rev=0").status_code == 204
    console.post(gm, "act", action="ann wait")
    changed = console.client.get(f"{gm}/panel?rev=0")
    assert changed.status_code == 200 and 'data-revision="1"' in changed.text
    assert 'hx-trigger="every' not in changed.text  # pushed, not polled


def test_undo_and_redo_from_the_console(console: Console) -> None:
    gm = console.create("duel.yaml", seed=2)["gm"]
    console.post(gm, "act", action="ann strike target=bob")
    before = console.state(gm)
    assert console.post(gm, "undo").status_code == 200
    assert console.state(gm)["actor"] == "ann" and console.state(gm)["log_length"] == 0
    assert console.post(gm, "redo").status_code == 200
    after = console.state(gm)
    assert after["log"] == before["log"] and after["view"] == before["view"]
    assert console.post(gm, "redo").status_code == 409


def test_the_ai_plays_one_turn_or_the_whole_fight(console: Console,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # The fight must end within the cap of decisions, however slow the machine: the cap of
    # seconds (a guard for the server, not a rule) is lifted.
    monkeypatch.setattr("fracas.web.autoplay.AUTO_SECONDS", 600.0)
    gm = console.create("skirmish.yaml", seed=4)["gm"]
    answer = console.post(gm, "ai")
    assert answer.status_code == 200 and answer.json()["revision"] == 1
    answer = console.post(gm, "auto")
    assert answer.status_code == 200 and answer.json()["outcome"] is not None
    assert console.post(gm, "ai").status_code == 409


def test_export_and_import_through_the_console(console: Console) -> None:
    gm = console.create("duel.yaml", seed=8)["gm"]
    console.post(gm, "act", action="ann strike target=bob")
    exported = console.client.get(f"{gm}/export")
    assert exported.status_code == 200 and "attachment" in exported.headers[
        "content-disposition"]
    answer = console.client.post(
        f"{console.home}/import", data={"csrf": console.admin_csrf()},
        files={"log": ("fight.jsonl", exported.content, "application/x-ndjson")},
        follow_redirects=False)
    assert answer.status_code == 303
    copy = answer.headers["location"]
    assert console.client.get(f"{copy}/export").text == exported.text
    broken = console.client.post(
        f"{console.home}/import", data={"csrf": console.admin_csrf()},
        files={"log": ("bad.jsonl", b'{"type": "dice"}\n', "application/x-ndjson")})
    assert broken.status_code == 400 and "bad.jsonl:1: a fracas log starts with a header" in \
        broken.text


def test_archiving_hides_an_encounter_until_restored(console: Console) -> None:
    gm = console.create("duel.yaml")["gm"]
    enc_id = gm.split("/")[2]
    console.client.post(f"{console.home}/archive/{enc_id}",
                        data={"csrf": console.admin_csrf(), "archived": "1"})
    assert "Duel at dawn" not in console.client.get(console.home).text
    assert "Duel at dawn" in console.client.get(f"{console.home}?archived=1").text
    assert console.client.get(gm).status_code == 200
    console.client.post(f"{console.home}/archive/{enc_id}",
                        data={"csrf": console.admin_csrf(), "archived": "0"})
    assert "Duel at dawn" in console.client.get(console.home).text


def test_a_restarted_server_resumes_every_encounter(tmp_path: Path,
                                                    scenario_dir: Path) -> None:
    store = EventStore(tmp_path / "resume.sqlite")
    app = create_app(store, [scenario_dir])
    first = Console(TestClient(app), app.state.admin_key, scenario_dir.name)
    gm = first.create("duel.yaml", seed=3)["gm"]
    first.post(gm, "act", action="ann strike target=bob")
    before = first.state(gm)
    store.close()
    store = EventStore(tmp_path / "resume.sqlite")
    try:
        again = create_app(store, [scenario_dir])
        assert again.state.admin_key == app.state.admin_key
        second = Console(TestClient(again), again.state.admin_key, scenario_dir.name)
        after = second.state(gm)
        assert {k: after[k] for k in ("revision", "view", "log", "actor")} == \
            {k: before[k] for k in ("revision", "view", "log", "actor")}
        assert after["csrf"] == before["csrf"]
    finally:
        store.close()


def test_pages_carry_protective_headers(console: Console) -> None:
    gm = console.create("duel.yaml")["gm"]
    answer = console.client.get(gm)
    assert answer.headers["referrer-policy"] == "no-referrer"
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    assert answer.headers["cache-control"] == "no-store"
    assert answer.headers["x-frame-options"] == "DENY"


def test_htmx_is_served_from_the_package_not_a_cdn(console: Console) -> None:
    gm = console.create("duel.yaml")["gm"]
    page = console.client.get(gm).text
    assert '<script src="/static/htmx.min.js"></script>' in page and "https://" not in page
    script = console.client.get("/static/htmx.min.js")
    assert script.status_code == 200 and script.text.startswith("var htmx=")


def test_bundled_scenarios_are_found_in_the_given_folders(scenario_dir: Path) -> None:
    found = find_bundled([scenario_dir])
    assert {f"{scenario_dir.name}/{n}" for n in ("duel.yaml", "secret.yaml")} <= set(found)


def test_generic_battlefield_shows_what_the_view_holds(console: Console) -> None:
    links = console.create("secret.yaml")
    page = console.client.get(links["gm"]).text
    battlefield = page.split('id="battlefield"')[1].split("</section>")[0]
    assert "combatants" in battlefield and "<td>30</td>" in battlefield


def test_fracas_serve_is_a_registered_command() -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--help"])
    assert result.exit_code == 0 and "--db" in result.output and "--port" in result.output


def test_state_json_is_valid_json_for_scripts(console: Console) -> None:
    gm = console.create("duel.yaml")["gm"]
    body = json.loads(console.client.get(f"{gm}/state.json").text)
    assert body["role"] == "gm" and body["verbs"] == ["strike", "wait"]
    assert "actions" not in body  # the whole list is actions.json's
    listed = console.client.get(f"{gm}/actions.json").json()
    assert listed == {"actions": ["ann strike target=bob", "ann wait"], "complete": True}


def test_a_scripts_post_is_answered_with_a_short_status(console: Console) -> None:
    gm = console.create("duel.yaml")["gm"]
    body = console.post(gm, "act", action="ann strike target=bob").json()
    assert body["ok"] is True and body["revision"] == 1 and body["actor"] == "bob"
    assert body["verbs"] == ["strike", "wait"] and body["can_act"] is True
    assert "actions" not in body and body["outcome"] is None


def test_long_titles_are_cut_and_huge_seeds_refused(console: Console) -> None:
    answer = console.client.post(
        f"{console.home}/create", follow_redirects=False,
        data={"csrf": console.admin_csrf(), "bundled": f"{console.folder}/duel.yaml",
              "title": "T" * 500})
    assert answer.status_code == 303
    assert "T" * 120 + "<" in console.client.get(answer.headers["location"]).text
    answer = console.client.post(
        f"{console.home}/create",
        data={"csrf": console.admin_csrf(), "bundled": f"{console.folder}/duel.yaml",
              "seed": str(2**70)})
    assert answer.status_code == 400 and "seed" in answer.text


def test_a_players_table_is_built_from_the_combatants_their_view_holds() -> None:
    from fracas.core.presentation import Presentation

    view = {"round": 2, "heroes": [{"name": "Dori", "stance": "open", "endurance": 20,
                                    "endurance_max": 26}],
            "areas": [{"name": "ford", "kind": "river"}],
            "adversaries": [{"name": "orc", "status": "ok"}], "notes": "ignored"}
    table = Presentation().table(view, {"Dori", "orc", "Balin"})
    assert table.columns == ["name", "stance", "endurance", "status"]
    assert table.rows == [["Dori", "open", "20/26", ""], ["orc", "", "", "ok"]]
    assert table.names == ["Dori", "orc"]  # the ford is not a combatant


def test_the_one_ring_company_does_not_see_adversary_endurance(console: Console) -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "one_ring" / "ambush.yaml"
    answer = console.client.post(
        f"{console.home}/create", follow_redirects=False, data={"csrf": console.admin_csrf()},
        files={"scenario": ("ambush.yaml", example.read_bytes(), "application/x-yaml")})
    assert answer.status_code == 303, answer.text
    page = console.client.get(answer.headers["location"]).text
    company = re.search(r'class="link-player-company" href="([^"]+)"', page)
    assert company is not None
    state = console.state(company.group(1))
    adversaries = state["view"]["adversaries"]
    assert adversaries and all("endurance" not in a for a in adversaries)
    table = console.client.get(company.group(1)).text.split('id="table"')[1].split("</table>")[0]
    # Heroes' own columns only, headed in the rule set's words (endurance shown as x/max).
    assert "hate" not in table and "endurance_max" not in table and ">endurance<" in table


def test_players_are_not_told_how_many_hidden_events_there_are(console: Console) -> None:
    links = console.create("secret.yaml", seed=3)
    console.post(links["gm"], "act", action="ann strike target=bob")
    assert console.state(links["gm"])["log_length"] == 5
    blue = console.state(links["player-blue"])
    assert blue["log_length"] is None and len(blue["log"]) == 4
    assert [e["seq"] for e in blue["log"]] == [0, 1, 2, 3]  # no gap where the secret roll was
    page = console.client.get(links["player-blue"]).text
    assert " events</span>" not in page and 'value="' not in page.split('id="log"')[1]
