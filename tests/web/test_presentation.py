"""The web knows no rule set by name: each rule set's table, battlefield template and
per-viewer wording come from its presentation (``fracas.core.presentation``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fracas.core.encounter import Encounter
from fracas.core.presentation import SAME, Presentation, presentation_of
from fracas.core.ruleset import available_rulesets, find_ruleset
from fracas.scenario import build_initial_state, load_scenario
from fracas.store import EventStore
from fracas.web import create_app
from fracas.web.console import Console

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "fracas" / "web"
EXAMPLES = ROOT / "examples"
AMBUSH = EXAMPLES / "battlesystem" / "dwarf_column_ambush.yaml"
ORCS = ("orc-warband", "orc-archers")
DWARVES = ("crossbowmen", "porters", "hearthguard")


def _packaged() -> list[str]:
    """The rule sets shipped in ``fracas.rules`` (not the tests' toys)."""
    return [name for name in available_rulesets()
            if type(find_ruleset(name)).__module__.startswith("fracas.rules.")]


def _rule_set_words() -> set[str]:
    words: set[str] = set()
    for name in _packaged():
        ruleset = find_ruleset(name)
        words |= {name, name.replace("_", " "), type(ruleset).__name__}
        words.add(type(ruleset).__module__.split(".")[2])
    return {w.lower() for w in words}


def test_no_rule_set_is_named_in_the_web_package() -> None:
    words = _rule_set_words()
    assert {"battlesystem", "age_of_dragons", "one_ring", "adnd"} <= words
    found = []
    for path in sorted(WEB.rglob("*")):
        if path.suffix not in {".py", ".html", ".js", ".css"} or path.name.endswith(".min.js"):
            continue
        text = path.read_text(encoding="utf-8").lower()
        found += [f"{path.relative_to(WEB)}: {w}" for w in sorted(words)
                  if re.search(rf"(?<![\w]){re.escape(w)}(?![\w])", text)]
    assert found == []


@pytest.mark.parametrize("name", _packaged())
def test_every_rule_set_ships_its_battlefield_template(name: str, tmp_path: Path) -> None:
    presentation = presentation_of(find_ruleset(name))
    assert presentation.battlefield is not None and presentation.package
    store = EventStore(tmp_path / "x.sqlite")
    try:
        console = Console(store)
        template = console.env.get_template(
            f"ruleset:{presentation.package}/{presentation.battlefield}")
        assert template.filename is None or "fracas/web" not in template.filename
    finally:
        store.close()


def test_the_loader_finds_only_templates_inside_a_packages_templates_folder(
        tmp_path: Path) -> None:
    from jinja2 import TemplateNotFound

    store = EventStore(tmp_path / "x.sqlite")
    try:
        env = Console(store).env
        for name in ("ruleset:fracas.rules/nowhere.html", "ruleset:fracas/../../etc/passwd",
                     "ruleset:no.such.package/battlefield.html", "ruleset:"):
            with pytest.raises(TemplateNotFound):
                env.get_template(name)
    finally:
        store.close()


def test_the_default_presentation_words_every_event_the_same_for_everyone() -> None:
    assert Presentation().describe_for(object(), object(), "red") is SAME


def _ambush() -> tuple[object, object, object]:
    scenario = load_scenario(AMBUSH)
    ruleset = scenario.ruleset
    initial = build_initial_state(ruleset, scenario.data, source=str(AMBUSH))
    enc = Encounter(ruleset, initial)
    first = enc.log[0]
    return ruleset, first, Encounter.replay(ruleset, initial, [first]).state


def test_the_turn_map_is_worded_for_each_side_from_its_own_view() -> None:
    ruleset, first, state = _ambush()
    presentation = presentation_of(ruleset)
    assert first.kind == "bs.turn"
    whole = ruleset.describe_event(first, state)
    assert whole is not None and all(u in whole for u in ORCS + DWARVES)
    dwarves = presentation.describe_for(first, state, "dwarves")
    orcs = presentation.describe_for(first, state, "orcs")
    spectator = presentation.describe_for(first, state, "spectator")
    assert isinstance(dwarves, str) and isinstance(orcs, str) and isinstance(spectator, str)
    assert all(u in dwarves for u in DWARVES) and not any(u in dwarves for u in ORCS)
    assert all(u in orcs for u in ORCS) and "hearthguard" not in orcs
    assert not any(u in spectator for u in ORCS + DWARVES)
    # The map of areas is the same for everyone.
    assert dwarves.splitlines()[0] == whole.splitlines()[0] and "orc-warren" in spectator


def test_a_players_log_shows_the_turn_map_of_what_its_side_sees(tmp_path: Path) -> None:
    ruleset, first, state = _ambush()
    presentation = presentation_of(ruleset)
    store = EventStore(tmp_path / "x.sqlite")
    try:
        app = create_app(store, [EXAMPLES])
        client = TestClient(app)
        key = app.state.admin_key
        home = client.get(f"/gm/{key}").text
        csrf = re.search(r'name="csrf" value="([^"]+)"', home)
        assert csrf is not None
        answer = client.post(f"/gm/{key}/create", follow_redirects=False, data={
            "csrf": csrf.group(1), "bundled": "examples/battlesystem/dwarf_column_ambush.yaml",
            "seed": "1"})
        gm = answer.headers["location"]
        links = dict(re.findall(r'class="link-([a-z]+(?:-[^"]+)?)" href="([^"]+)"',
                                client.get(gm).text))
        for role, side in (("player-dwarves", "dwarves"), ("player-orcs", "orcs"),
                           ("spectator", "spectator")):
            log = client.get(f"{links[role]}/state.json").json()["log"]
            turn_map = next(e["text"] for e in log if e["kind"] == "bs.turn")
            assert turn_map == presentation.describe_for(first, state, side), role
    finally:
        store.close()


def test_the_phone_headings_sheet_names_each_column_and_escapes_it(tmp_path: Path) -> None:
    """The phone layout's headings come from a sheet whose address lists the columns
    (the pages' content policy refuses an inline ``<style>``); a name can neither end
    its CSS string nor hide a rule, and the sheet may be kept by the browser."""
    from fracas.web import create_app
    from fracas.web.console import columns_href

    client = TestClient(create_app(EventStore(tmp_path / "c.sqlite"), []))
    href = columns_href(["name", "side", 'hope "x" } body{display:none'])
    answer = client.get(href)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/css")
    assert "no-store" not in answer.headers["cache-control"]
    assert '#table td:nth-child(2)::before { content: "side" }' in answer.text
    rule = answer.text.splitlines()[2]
    assert rule.startswith("#table td:nth-child(3)::before { content: \"hope \\22 x\\22  \\7d ")
    assert rule.count('"') == 2 and "}" not in rule[rule.index('"'):rule.rindex('"')]
