"""Bounded: caps before parsing, the role first, a linear tokenizer, names of any characters."""

from __future__ import annotations

import shlex
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from web_helpers import Console

from fracas.core.errors import ActionSyntaxError
from fracas.store import EventStore
from fracas.web.app import FORM_BYTES, MAX_FIELDS
from fracas.web.words import MAX_ACTION_TEXT, split_words


def test_a_megabyte_field_is_refused_before_it_is_read(console: Console) -> None:
    links = console.create("duel.yaml")
    for who in ("spectator", "gm", "player-red"):
        started = time.perf_counter()
        answer = console.post(links[who], "act", action="x" * 1_000_000)
        took = time.perf_counter() - started
        assert answer.status_code == 413, who
        print(f"{who}: 1 MB action field answered {answer.status_code} in {took * 1000:.1f} ms")
    assert console.state(links["gm"])["revision"] == 0


def test_the_caps_of_an_encounter_form(console: Console) -> None:
    gm = console.create("duel.yaml")["gm"]
    just_over = console.post(gm, "act", action="x" * (FORM_BYTES + 1))
    assert just_over.status_code == 413
    long_action = console.post(gm, "act", action="ann wait " + "x" * MAX_ACTION_TEXT)
    assert long_action.status_code == 413 or long_action.status_code == 422
    assert "at most" in long_action.text
    state = console.state(gm)
    many = {f"f_{i}": "1" for i in range(MAX_FIELDS + 5)}
    answer = console.client.post(f"{gm}/act", data={"csrf": state["csrf"], "rev": "0", **many},
                                 headers={"accept": "application/json"})
    assert answer.status_code == 400 and "bad form" in answer.json()["error"]
    assert console.state(gm)["revision"] == 0


def test_the_role_is_checked_before_the_form_is_read(console: Console) -> None:
    links = console.create("duel.yaml")
    # No CSRF token at all: the spectator is refused for what it is, not for the token.
    for what in ("act", "decide", "ai"):
        answer = console.client.post(f"{links['spectator']}/{what}", data={"action": "x"},
                                     headers={"accept": "application/json"})
        assert answer.status_code == 403 and "spectator" in answer.json()["error"]
    for what in ("undo", "redo", "auto"):
        answer = console.client.post(f"{links['player-red']}/{what}", data={},
                                     headers={"accept": "application/json"})
        assert answer.status_code == 403 and "only the GM" in answer.json()["error"]


def test_an_upload_over_the_scenario_cap_is_refused_before_parsing(
        store: EventStore, scenario_dir: Path) -> None:
    from fastapi.testclient import TestClient

    from fracas.web import create_app

    app = create_app(store, [scenario_dir])
    console = Console(TestClient(app), app.state.admin_key, scenario_dir.name)
    answer = console.client.post(
        f"{console.home}/create", data={"csrf": console.admin_csrf()},
        files={"scenario": ("big.yaml", b"#" * (600 * 1024), "application/x-yaml")})
    assert answer.status_code == 413 and "at most 512 KB" in answer.text


_WORDS = st.text(alphabet=st.sampled_from(list("ab =,'\"\\\t$`\n")), max_size=40)


@given(_WORDS)
def test_split_words_reads_text_as_shlex_does(text: str) -> None:
    try:
        expected = shlex.split(text)
    except ValueError:
        with pytest.raises(ActionSyntaxError):
            split_words(text)
        return
    assert split_words(text) == expected


def test_split_words_is_linear_on_long_words() -> None:
    # shlex takes seconds on this; one pass does not (no timing asserted: it just ends).
    word = "a" * 400_000
    assert split_words(f"ann wait x='{word}'") == ["ann", "wait", f"x={word}"]
    assert len(split_words("\\'" * 200_000)[0]) == 200_000


NAMES = ["Back\\slash", "Tab\there", 'Quote"d', "Apo'strophe", "Comma, then", "Ünï ∂ 火",
         "= equals", "semi;colon"]


def test_names_with_any_printable_characters_round_trip(tmp_path: Path,
                                                         console: Console) -> None:
    import json
    fighters = "\n".join(f"  - {{name: {json.dumps(n)}, side: {s}, hp: 20}}"
                         for n, s in zip(NAMES, ["red", "blue"] * 4, strict=True))
    text = f"ruleset: toy\nname: Odd names\nfighters:\n{fighters}\n"
    answer = console.client.post(
        f"{console.home}/create", follow_redirects=False, data={"csrf": console.admin_csrf()},
        files={"scenario": ("odd.yaml", text.encode(), "application/x-yaml")})
    assert answer.status_code == 303, answer.text
    gm = answer.headers["location"]
    for _ in range(6):
        state = console.state(gm)
        if state["outcome"]:
            break
        # The Decide form with the rule set's default values, then a typed action.
        verb = state["verbs"][0]
        decided = console.client.post(f"{gm}/decide", data={
            "csrf": state["csrf"], "rev": str(state["revision"]), "verb": verb},
            headers={"accept": "application/json"}).json()
        fields = {f"f_{f['name']}": f["value"] for f in decided["fields"]}
        assert console.post(gm, "act", verb=verb, **fields).status_code == 200
        listed = console.client.get(f"{gm}/actions.json").json()["actions"]
        assert console.post(gm, "act", action=listed[-1]).status_code == 200
    page = console.client.get(gm)
    assert page.status_code == 200
    exported = console.client.get(f"{gm}/export").text
    # A fresh store over the same file (a restart) and an import of the export.
    store = console.client.app.state.store  # type: ignore[attr-defined]
    reopened = EventStore(store.path)
    try:
        enc_id = gm.split("/")[2]
        with reopened.live(enc_id) as (enc, _):
            names = {s.name for s in enc.ruleset.standings(enc.state)}
        assert names == set(NAMES)
        imported = reopened.import_log(exported, "odd.jsonl")
        assert reopened.export_log(imported.id) == exported
    finally:
        reopened.close()
    home = console.client.get(console.home)
    assert home.status_code == 200


def _starlette_form(body: bytes, max_part: int) -> list[tuple[str, str]] | str:
    import asyncio

    from starlette.datastructures import Headers
    from starlette.formparsers import FormParser, MultiPartException

    async def chunks() -> AsyncIterator[bytes]:
        yield body

    async def parse() -> list[tuple[str, str]] | str:
        parser = FormParser(Headers({"content-type": "application/x-www-form-urlencoded"}),
                            chunks(), max_fields=MAX_FIELDS, max_part_size=max_part)
        try:
            return [(k, str(v)) for k, v in (await parser.parse()).multi_items()]
        except MultiPartException as exc:
            return f"bad form: {exc.message}"

    return asyncio.run(parse())


@given(st.lists(st.sampled_from([b"a", b"=", b"&", b"%", b"%2", b"%41", b"%e2%82%ac", b"+",
                                 b"\xc3\xa9", b"\xff", b"csrf", b"rev", b"x" * 7]),
                max_size=40),
       st.sampled_from([4, 8, 64]))
def test_a_click_s_form_is_read_as_starlette_reads_it(parts: list[bytes], max_part: int) -> None:
    from fracas.web.console import BadForm, _urlencoded

    body = b"".join(parts)
    try:
        ours: list[tuple[str, str]] | str = _urlencoded(body, max_part)
    except BadForm as exc:
        ours = str(exc)
    assert ours == _starlette_form(body, max_part)


def test_too_many_fields_in_a_click_s_form_as_starlette_says() -> None:
    from fracas.web.console import BadForm, _urlencoded

    body = b"&".join(b"f%d=1" % n for n in range(MAX_FIELDS + 1))
    with pytest.raises(BadForm) as refused:
        _urlencoded(body, 1000)
    assert str(refused.value) == _starlette_form(body, 1000)
