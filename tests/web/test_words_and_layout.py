"""Every example's pages, read as people read them, at a laptop's and a phone's width.

For each shipped example a table is created and a few decisions are played (the usual
verb with the form's values, posted as a script would); then its GM page, each side's
page and the spectator's page are opened in Chromium at 1366x768 and at 390x844, and
each must show

* no snake_case token and no typed action line (``gm special special=heavy_blow``) in
  its visible text or the entries of its menus, outside the places that show what a
  person types (``<code>``) and the links themselves;
* no table or card wider than its card (``scrollWidth > clientWidth``) and no page
  wider than the screen;
* no button, link or form control smaller than 44 px either way.

One server and one browser serve every example; each width keeps one page open and only
navigates it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.shipped import SCENARIOS, example_id
from web_live_server import CHROMIUM, LiveServer, chromium

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SCREENS = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
#: Decisions played before the pages are read.
DECISIONS = 4
#: The smallest touch target, in CSS pixels.
TARGET = 44

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason="Debian's chromium is not installed (run `make browser`)"),
]

sync_api = pytest.importorskip("playwright.sync_api")

#: Reads the page as a person sees it (run in the browser).
PROBE = """(target) => {
  const machine = 'code, pre, kbd, samp, script, style, .links a, a[href^="/e/"], [data-machine]';
  const shown = e => e.getClientRects().length > 0;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const snakes = new Set(), typed = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest(machine) || !el.getClientRects().length) continue;
    const text = node.textContent;
    for (const m of text.matchAll(/\\b[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+\\b/g)) snakes.add(m[0]);
    for (const m of text.matchAll(/\\b[a-z][a-z_]*=\\S+/g)) typed.add(text.trim().slice(0, 80));
  }
  // A menu's entries are read when it opens, though a closed menu lays none of them out.
  for (const option of document.querySelectorAll('select option')) {
    if (option.closest(machine) || !shown(option.closest('select'))) continue;
    for (const m of option.textContent.matchAll(/\b[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+\b/g))
      snakes.add(m[0]);
  }
  const name = e => e.id || e.className || e.tagName.toLowerCase();
  const wide = [];
  for (const card of document.querySelectorAll('.card')) {
    if (!shown(card)) continue;
    if (card.scrollWidth > card.clientWidth + 1)
      wide.push(`card ${name(card)}: ${card.scrollWidth} > ${card.clientWidth}`);
    const edge = card.getBoundingClientRect().right;
    for (const table of card.querySelectorAll('table')) {
      if (!shown(table)) continue;
      if (table.scrollWidth > table.clientWidth + 1
          || table.getBoundingClientRect().right > edge + 0.5)
        wide.push(`table ${name(table)} in ${name(card)}: ${table.scrollWidth} wide`);
    }
  }
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1)
    wide.push(`page: ${root.scrollWidth} > ${root.clientWidth}`);
  const small = [];
  const controls = 'button, a[href], select, input:not([type=hidden]), textarea, summary';
  for (const e of document.querySelectorAll(controls)) {
    if (!shown(e)) continue;
    const box = e.getBoundingClientRect();
    if (box.width < target - 0.5 || box.height < target - 0.5)
      small.push(`${e.tagName.toLowerCase()} ${e.id || e.textContent.trim().slice(0, 24)}: `
                 + `${Math.round(box.width)}x${Math.round(box.height)}`);
  }
  return {snakes: [...snakes], typed: [...typed], wide, small};
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path_factory.mktemp("words") / "words.sqlite", [EXAMPLES])
    yield live
    live.stop()


@pytest.fixture(scope="module")
def pages() -> Iterator[dict[str, Any]]:
    """One page per screen, opened once for every example."""
    with chromium() as launched:
        opened = {}
        for screen, size in SCREENS.items():
            phone = screen == "phone"
            context = launched.new_context(viewport=size, is_mobile=phone, has_touch=phone)
            page = context.new_page()
            page.set_default_timeout(60_000)
            opened[screen] = page
        yield opened


def _create_and_play(page: Any, server: LiveServer, example: Path) -> str:
    """A new table of ``example`` with a few decisions played; its GM page's path."""
    page.goto(server.home)
    page.select_option("#bundled", f"examples/{example.parent.name}/{example.name}")
    page.fill("input[name=seed]", "2")
    page.click("#create")
    page.wait_for_selector("#live, .flash.error")
    assert page.locator(".flash.error").count() == 0, page.inner_text(".flash.error")
    gm = page.url.removeprefix(server.url)
    json = {"accept": "application/json"}
    for _ in range(DECISIONS):
        state = page.request.get(f"{server.url}{gm}/state.json").json()
        if state["outcome"] or not state["verbs"]:
            break
        keys = {"csrf": state["csrf"], "rev": str(state["revision"])}
        verb = state["verbs"][0]
        form = page.request.post(f"{server.url}{gm}/decide", form={**keys, "verb": verb},
                                 headers=json).json()
        values = {f"f_{f['name']}": str(f["value"]) for f in form["fields"]}
        answer = page.request.post(f"{server.url}{gm}/act",
                                   form={**keys, "verb": verb, **values}, headers=json)
        assert answer.ok, answer.text()
    return gm


def _links(page: Any, server: LiveServer, gm: str) -> list[str]:
    """The GM page and every link it hands out (sides, spectator), as paths."""
    page.goto(server.url + gm)
    page.wait_for_selector("#live")
    found = [a.get_attribute("href") for a in page.query_selector_all('.links a[href^="/e/"]')]
    pages = [href for href in found if href and re.fullmatch(r"/e/[^/]+/[^/]+", href)]
    return [gm, *dict.fromkeys(href for href in pages if href != gm)]


@pytest.mark.parametrize("example", SCENARIOS, ids=example_id)
def test_every_page_reads_in_words_and_fits_both_screens(
        server: LiveServer, pages: dict[str, Any], example: Path) -> None:
    gm = _create_and_play(pages["desktop"], server, example)
    urls = _links(pages["desktop"], server, gm)
    assert len(urls) >= 3, urls  # the GM, at least one side, the spectator
    problems = []
    for screen, page in pages.items():
        for url in urls:
            page.goto(server.url + url)
            page.wait_for_selector("#live")
            found = page.evaluate(PROBE, TARGET)
            where = f"{screen} {url.rsplit('/', 1)[-1][:6]}"
            problems += [f"{where}: snake_case {s!r}" for s in found["snakes"]]
            problems += [f"{where}: typed action line {s!r}" for s in found["typed"]]
            problems += [f"{where}: {s}" for s in found["wide"]]
            problems += [f"{where}: touch target {s}" for s in found["small"]]
    assert not problems, "\n".join(problems)
