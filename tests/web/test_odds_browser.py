"""The odds panel in a real browser (Debian's Chromium via Playwright): it appears while an
attack is built, follows each change of the form, warns of a sure failure, and the win
chance from here fills in after the page is shown.  Screenshots at both screen sizes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_live_server import CHROMIUM, LiveServer, chromium, toy_server

from fracas.web.routes.odds import _ESTIMATES

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SHOTS = ROOT / "artifacts" / "screenshots"
SCREENS = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason="Debian's chromium is not installed (run `make browser`)"),
]

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with toy_server(tmp_path_factory.mktemp("odds"), EXAMPLES) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def _change(page: Any, selector: str, value: str) -> None:
    """Set one step's value and wait for the re-rendered form and its fresh forecast."""
    page.evaluate("document.querySelector('#decide').dataset.old = 'yes'")
    with page.expect_response(lambda r: "/odds?" in r.url):
        if page.locator(selector).evaluate("e => e.tagName") == "SELECT":
            page.select_option(selector, value)
        else:
            page.fill(selector, value)
            page.press(selector, "Tab")
    page.wait_for_selector("#decide:not([data-old]) #forecast", state="attached")
    page.click("#odds-panel summary")  # each change renders the form (and the panel) anew


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_the_odds_appear_and_follow_an_attack_as_it_is_built(browser: Any, server: LiveServer,
                                                             screen: str) -> None:
    context = browser.new_context(viewport=SCREENS[screen], is_mobile=screen == "phone",
                                  has_touch=screen == "phone")
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(server.home)
    page.select_option("#bundled", "examples/age_of_dragons/claw_duel.yaml")
    page.fill("input[name=seed]", "1")
    page.click("#create")
    page.wait_for_selector("#live")
    # The usual verb (roll) is open: its forecast is fetched once the page is shown.
    page.wait_for_selector("#forecast", state="attached")
    assert "99.8%" in page.inner_text("#odds")
    page.click("#odds-panel summary")
    assert "at least one hit" in page.inner_text("#forecast")
    revision = page.get_attribute("#live", "data-revision")
    page.click("#confirm")
    page.wait_for_selector(f'#live:not([data-revision="{revision}"])')
    page.locator('#verbs button[value="attack"]').click()
    page.wait_for_selector('#steps input[name=verb][value="attack"]', state="attached")
    page.wait_for_selector("#forecast", state="attached")
    page.click("#odds-panel summary")
    assert "the attack lands on Ash" in page.inner_text("#forecast")
    assert page.locator("#sure-failure").count() == 0
    _change(page, "#f_style", "bite")
    _change(page, "#f_called", "neck")
    assert page.locator("#sure-failure").is_visible()
    assert "needs 13 or more hits" in page.inner_text("#forecast")
    # The win chance from here fills in without the page asking for it again (the server
    # runs in this process: wait for its worker's estimates, however loaded the machine).
    for future in list(_ESTIMATES.found.values()):
        future.result()
    page.wait_for_function("() => /win red \\d+%/.test("
                           "document.querySelector('#win-chance').textContent)")
    assert "exactly" in page.inner_text("#win-lines")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#decide").screenshot(path=str(SHOTS / f"odds_{screen}.png"))
    page.screenshot(path=str(SHOTS / f"odds_{screen}_page.png"), full_page=True)
    context.close()
