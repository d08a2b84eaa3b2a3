"""The Decide panel offers a decision step by step: verbs, then a form of the remaining steps."""

from __future__ import annotations

import re
from typing import Any

from web_helpers import Console


def decide(console: Console, url: str, *, htmx: bool = True, json: bool = False,
           rev: int | None = None, **fields: str) -> Any:
    state = console.state(url)
    data = {"csrf": state["csrf"], "rev": str(state["revision"] if rev is None else rev),
            **fields}
    headers = {"hx-request": "true"} if htmx else {}
    if json:
        headers["accept"] = "application/json"
    return console.client.post(f"{url}/decide", data=data, headers=headers,
                               follow_redirects=False)


def selected(html: str, name: str) -> str:
    select = html.split(f'name="{name}"')[1].split("</select>")[0]
    found = re.search(r'<option value="([^"]*)" selected>', select)
    assert found is not None, select
    return found.group(1)


def options(html: str, name: str) -> list[str]:
    select = html.split(f'name="{name}"')[1].split("</select>")[0]
    return re.findall(r'<option value="([^"]*)"', select)


def test_the_page_offers_verbs_as_buttons_not_every_action(console: Console) -> None:
    gm = console.create("skirmish.yaml")["gm"]
    page = console.client.get(gm).text
    decide_html = page.split('id="decide"')[1].split("</section>")[0]
    verbs = decide_html.split('id="verbs"')[1].split("</form>")[0]
    assert re.findall(r'name="verb" value="([^"]+)"', verbs) == ["strike", "wait"]
    assert "target=dee" not in decide_html  # no list of whole actions
    # The usual verb's steps are open at their defaults: one whole action to confirm.
    steps = decide_html.split('id="steps"')[1]
    assert 'name="verb" value="strike"' in steps and selected(steps, "f_target") == "bob"
    assert "strike target=bob" in steps and "autofocus" not in steps


def test_choosing_a_verb_answers_the_remaining_steps_with_defaults(console: Console) -> None:
    gm = console.create("skirmish.yaml")["gm"]
    answer = decide(console, gm, verb="strike")
    assert answer.status_code == 200
    html = answer.text
    assert html.startswith('<section class="card decide" id="decide"')
    assert options(html, "f_target") == ["bob", "dee"]
    assert selected(html, "f_target") == "bob"  # the step's default
    assert 'aria-pressed="true">strike' in html
    assert 'id="confirm"' in html and "strike target=bob" in html
    # A change posts the choices so far; the form keeps the value while it is offered.
    html = decide(console, gm, verb="strike", f_target="dee").text
    assert selected(html, "f_target") == "dee" and "strike target=dee" in html
    # A value no longer offered falls back to the default (the form always shows a whole action).
    html = decide(console, gm, verb="strike", f_target="nobody").text
    assert selected(html, "f_target") == "bob"


def test_a_verb_without_steps_still_asks_for_confirmation(console: Console) -> None:
    gm = console.create("duel.yaml")["gm"]
    html = decide(console, gm, verb="wait").text
    assert 'class="fields"' not in html and 'id="confirm"' in html
    assert console.state(gm)["revision"] == 0  # nothing applied yet


def test_confirming_the_form_applies_the_action_like_typed_text(console: Console) -> None:
    gm = console.create("skirmish.yaml", seed=2)["gm"]
    answer = console.post(gm, "act", verb="strike", f_target="dee")
    assert answer.status_code == 200, answer.text
    assert answer.json()["revision"] == 1
    log = [e["text"] for e in console.state(gm)["log"] if e["kind"] == "decision"]
    assert log and "strike" in log[-1] and "dee" in log[-1]
    # The htmx answer is the fresh panel, its form closed.
    answer = console.post(gm, "act", json=False, verb="wait")
    assert answer.status_code == 303


def test_a_confirmed_value_that_is_not_offered_is_refused_naming_the_step(
        console: Console) -> None:
    gm = console.create("skirmish.yaml")["gm"]
    for fields in ({"verb": "strike", "f_target": "ann"}, {"verb": "strike"},
                   {"verb": "strike", "f_target": "x" * 300}, {"verb": "dance"}):
        answer = console.post(gm, "act", **fields)
        assert answer.status_code == 422, (fields, answer.text)
        error = answer.json()["error"]
        assert ("target" in error or "dance" in error) and "Traceback" not in error
        assert len(error) < 300
    assert console.state(gm)["revision"] == 0


def test_a_player_form_is_for_its_own_side_and_a_spectator_gets_none(console: Console) -> None:
    links = console.create("duel.yaml")
    blue, red, spectator = links["player-blue"], links["player-red"], links["spectator"]
    assert decide(console, blue, verb="strike").status_code == 403
    assert decide(console, spectator, verb="strike").status_code == 403
    answer = console.post(blue, "act", verb="strike", f_target="bob")
    assert answer.status_code == 403 and console.state(links["gm"])["revision"] == 0
    answer = console.post(spectator, "act", verb="wait")
    assert answer.status_code == 403
    assert 'name="verb"' not in console.client.get(spectator).text
    assert decide(console, red, verb="strike").status_code == 200
    assert console.post(red, "act", verb="strike", f_target="bob").status_code == 200


def test_a_stale_form_gets_the_fresh_panel(console: Console) -> None:
    gm = console.create("duel.yaml")["gm"]
    console.post(gm, "act", action="wait")
    answer = decide(console, gm, rev=0, verb="strike")
    assert answer.status_code == 409
    assert answer.headers["hx-retarget"] == "#live" and 'id="live"' in answer.text
    assert "moved on" in answer.text


def test_without_javascript_the_form_is_a_whole_page(console: Console) -> None:
    gm = console.create("skirmish.yaml")["gm"]
    answer = decide(console, gm, htmx=False, verb="strike", f_target="dee")
    assert answer.status_code == 200 and answer.text.startswith("<!doctype html>")
    assert selected(answer.text, "f_target") == "dee"


def test_scripts_get_the_steps_as_json(console: Console) -> None:
    gm = console.create("skirmish.yaml")["gm"]
    body = decide(console, gm, json=True, verb="strike", f_target="dee").json()
    assert body["ok"] and body["verbs"] == ["strike", "wait"]
    assert body["fields"] == [{"name": "target", "value": "dee",
                               "choices": [{"value": "bob", "label": "bob"},
                                           {"value": "dee", "label": "dee"}]}]
    assert body["action"] == "ann strike target=dee"


def test_state_and_each_answer_carry_the_usual_verbs_steps(console: Console) -> None:
    """A script need not ask ``decide`` for the usual verb: state.json and the answer to an
    action carry its steps, exactly as ``decide`` answers them."""
    gm = console.create("skirmish.yaml")["gm"]
    state = console.state(gm)
    asked = decide(console, gm, json=True, verb=state["next"]["verb"]).json()
    assert state["next"] == {"verb": "strike", "fields": asked["fields"],
                             "action": asked["action"]}
    answer = console.client.post(f"{gm}/act", data={
        "csrf": state["csrf"], "rev": str(state["revision"]), "verb": "strike",
        **{f"f_{f['name']}": f["value"] for f in state["next"]["fields"]}},
        headers={"accept": "application/json"}).json()
    assert answer["ok"], answer
    usual = answer["next"]
    assert usual is not None and usual["verb"] in answer["verbs"]
    asked = decide(console, gm, json=True, verb=usual["verb"]).json()
    assert (usual["fields"], usual["action"]) == (asked["fields"], asked["action"])
    # A link that cannot act now is not offered any.
    spectator = console.create("skirmish.yaml")["spectator"]
    assert console.state(spectator).get("next") is None


def test_the_typed_action_box_stays(console: Console) -> None:
    gm = console.create("duel.yaml")["gm"]
    page = console.client.get(gm).text
    assert 'name="action"' in page and 'id="typed"' in page
    assert console.post(gm, "act", action="strike target=bob").status_code == 200


def test_the_page_shows_the_newest_log_entries_and_links_the_whole_log(
        console: Console) -> None:
    from fracas.web.table import LOG_TAIL

    links = console.create("secret.yaml", seed=1)
    gm, blue = links["gm"], links["player-blue"]
    for _ in range(LOG_TAIL):
        if console.state(gm)["outcome"]:
            break
        console.post(gm, "act", action="wait")
    page = console.client.get(blue).text
    assert page.count('class="ev ev-') == LOG_TAIL and f'href="{blue}/log"' in page
    whole = console.client.get(f"{blue}/log")
    assert whole.status_code == 200
    assert whole.text.count('class="ev ev-') == console.state(gm)["log_length"]  # no secrets
    assert whole.text.count('class="ev ev-') > LOG_TAIL
    assert console.client.get(f"{gm}x/log").status_code == 404


def test_a_number_outside_a_span_is_moved_to_its_nearer_end() -> None:
    from fracas.core.decision import Span, Step
    from fracas.web.table import _nearest, offered_value

    step = Step("dice", span=Span(1, 4, 4), default=4)
    assert offered_value(step, "3") == (3, True) and offered_value(step, "9") == (None, False)
    assert _nearest(step, "9") == 4 and _nearest(step, "-2") == 1 and _nearest(step, "x") == 4
