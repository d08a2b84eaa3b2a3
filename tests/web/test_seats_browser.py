"""Seats, the turn signal and the GM's Adjust panel in a real browser (Debian's Chromium
driven by Playwright, the real app under uvicorn on 127.0.0.1)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_live_server import CHROMIUM, LiveServer, chromium, revision, toy_server, wait_revision

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason="Debian's chromium is not installed (run `make browser`)"),
]

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with toy_server(tmp_path_factory.mktemp("seats"), ROOT / "examples") as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def gm_page(browser: Any, server: LiveServer, bundled: str, seed: int = 1) -> Any:
    context = browser.new_context(viewport=DESKTOP)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(server.home)
    page.select_option("#bundled", bundled)
    page.fill("input[name=seed]", str(seed))
    page.click("#create")
    page.wait_for_selector("#live")
    return page




def test_a_seat_made_from_the_table_page_signals_its_turn_and_announces_its_result(
        browser: Any, server: LiveServer) -> None:
    gm = gm_page(browser, server, "scenarios/duel.yaml", seed=2)
    first = gm.inner_text("#actor")
    other = {"ann": "bob", "bob": "ann"}[first]
    gm.check(f'#new-seat input[value="{other}"]')
    gm.click("#make-seat")
    gm.wait_for_selector("a.seat-link")
    row = gm.locator("#links li.seat").last
    url = row.locator("a.seat-link").inner_text()
    assert url == server.url + row.locator("a.seat-link").get_attribute("href")

    # The copy button puts the whole link on the clipboard.
    row.locator("button.copy").click()
    row.locator(".copied", has_text="copied").wait_for()
    assert gm.evaluate("() => navigator.clipboard.readText()") == url
    # The QR code, drawn by the server, reads back as the link.
    row.locator("button.qr").click()
    image = row.locator("img.qr")
    gm.wait_for_function("() => [...document.querySelectorAll('#links img.qr')]"
                         ".every(i => i.complete && i.naturalWidth > 0)")
    import zxingcpp
    from PIL import Image

    read = zxingcpp.read_barcodes(Image.open(io.BytesIO(image.screenshot())))
    assert [r.text for r in read] == [url]

    # The player opens the seat on a phone: not its turn yet.
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    player = context.new_page()
    player.set_default_timeout(60_000)
    player.goto(url)
    assert player.locator("#your-turn").count() == 0
    assert not player.title().startswith("Your turn")
    assert player.locator("#decide button.verb").count() == 0
    player.click("#turn-alert")  # switched on by a touch: sound may play after it
    assert player.evaluate("() => document.body.dataset.alerts || '0'") == "0"

    # The GM plays the first turn: the player's page is pushed its turn (server-sent events).
    before = revision(gm)
    gm.click("#confirm")
    wait_revision(gm, before + 1)
    player.wait_for_selector("#your-turn")
    assert player.title().startswith("Your turn")
    assert other in player.inner_text("#your-turn")
    assert player.evaluate("() => document.body.dataset.alerts") == "1"
    SHOTS.mkdir(parents=True, exist_ok=True)
    player.screenshot(path=str(SHOTS / "seat_your_turn_phone.png"), full_page=True)

    # The player acts: the result of its own action reaches the aria-live region.
    lines_before = player.locator("#log li").count()
    player.click("#confirm")
    player.wait_for_function("() => document.getElementById('result').textContent.length > 0")
    new_lines = player.locator("#log li").all_inner_texts()[
        :player.locator("#log li").count() - lines_before]
    said = player.inner_text("#result") or player.evaluate(
        "() => document.getElementById('result').textContent")
    assert said == ". ".join(" ".join(t.split()) for t in reversed(new_lines))
    assert other in said
    assert player.get_attribute("#result", "aria-live") == "polite"
    assert player.locator("#your-turn").count() == 0
    assert not player.title().startswith("Your turn")
    gm.screenshot(path=str(SHOTS / "seat_links_desktop.png"), full_page=True)
    context.close()
    gm.context.close()


def adjust_change(page: Any, selector: str, value: str) -> None:
    """Set one of the Adjust panel's steps once htmx has taken the control in hand, and wait
    for the server's re-rendered panel."""
    page.wait_for_function(f"() => {{ const e = document.querySelector({selector!r});"
                           " return !!(e && e['htmx-internal-data']); }")
    with page.expect_response(lambda r: r.url.endswith("/adjust")):
        if page.locator(selector).evaluate("e => e.tagName") == "SELECT":
            page.select_option(selector, value)
        else:
            page.fill(selector, value)
            page.press(selector, "Tab")  # a number input posts on change (blur)
    page.wait_for_function(f"() => {{ const e = document.querySelector({selector!r});"
                           f" return !!(e && e.value === {value!r} &&"
                           " e['htmx-internal-data']); }")


def test_the_gm_adjusts_a_fighter_from_the_adjust_panel_and_undoes_it(
        browser: Any, server: LiveServer) -> None:
    gm = gm_page(browser, server, "examples/age_of_dragons/claw_duel.yaml", seed=3)
    table = gm.inner_text("#table")
    start = revision(gm)
    gm.click("#adjust > summary")
    gm.click('#adjust-verbs button[value="adjust"]')
    gm.wait_for_selector("#adjust-steps")
    adjust_change(gm, "#a_target", "Ash")
    adjust_change(gm, "#a_what", "pr")
    adjust_change(gm, "#a_by", "-3")
    gm.wait_for_selector("#adjust-confirm[title='typed: gm adjust target=Ash what=pr by=-3']")
    gm.screenshot(path=str(SHOTS / "adjust_panel_desktop.png"))
    gm.click("#adjust-confirm")
    wait_revision(gm, start + 1)
    assert "The GM wounds Ash: Physical Resilience 20 → 17" in gm.inner_text("#log")
    assert "17 of 20" in gm.inner_text("#table")
    gm.click("#undo")
    wait_revision(gm, start + 2)
    assert gm.inner_text("#table") == table
    assert "The GM wounds Ash" not in gm.inner_text("#log")

    # A newcomer brought in by the GM can be given a seat at once.
    gm.click("#adjust > summary")
    settle = "() => { const e = document.querySelector('#adjust-verbs button[value=add]');" \
             " return !!(e && e['htmx-internal-data']); }"
    gm.wait_for_function(settle)
    gm.click('#adjust-verbs button[value="add"]')
    gm.wait_for_selector("#adjust-confirm[title^='typed: gm add like=']")
    gm.click("#adjust-confirm")
    wait_revision(gm, start + 3)
    gm.wait_for_selector('#new-seat input[value="Ember 2"], #new-seat input[value="Ash 2"]',
                         state="attached")
    gm.context.close()
