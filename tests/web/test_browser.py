"""The GM console in a real browser: Debian's Chromium driven by Playwright.

The server is the real app under uvicorn on 127.0.0.1 and a free port.  Chromium
is installed by ``make browser``; without it these tests are skipped.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_live_server import CHROMIUM, LiveServer, chromium, revision, toy_server, wait_revision

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SHOTS = ROOT / "artifacts" / "screenshots"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason="Debian's chromium is not installed (run `make browser`)"),
]

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with toy_server(tmp_path_factory.mktemp("browser"), EXAMPLES) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    opened.set_default_timeout(60_000)
    yield opened
    context.close()




def create(page: Any, server: LiveServer, bundled: str, seed: int = 1) -> None:
    page.goto(server.home)
    page.select_option("#bundled", bundled)
    page.fill("input[name=seed]", str(seed))
    page.click("#create")
    page.wait_for_selector("#live, .flash.error")
    if page.locator(".flash.error").count():
        pytest.fail(f"creating {bundled} failed: {page.inner_text('.flash.error')}")


def links(page: Any) -> dict[str, str]:
    """The page's links by role, once the page is parsed to its end (``#live`` comes before
    them, so a busy machine can show ``#live`` while the links are still to come)."""
    page.wait_for_load_state("domcontentloaded")
    found = {}
    for anchor in page.query_selector_all(".links a[class^=link-]"):
        found[anchor.get_attribute("class").removeprefix("link-")] = anchor.get_attribute("href")
    return found


def choose_verb(page: Any, verb: str) -> None:
    """Click a verb button and wait for its steps form."""
    page.locator(f'#verbs button[value="{verb}"]').click()
    page.wait_for_selector(f'#steps input[name=verb][value="{verb}"]', state="attached")


def confirm(page: Any) -> None:
    before = revision(page)
    page.click("#confirm")
    wait_revision(page, before + 1)


def assert_form_is_the_next_decisions(page: Any) -> None:
    """The Decide form (if any) belongs to the decision now, opened on its usual verb."""
    now = str(revision(page))
    assert all(r == now for r in page.locator("#decide input[name=rev]").evaluate_all(
        "inputs => inputs.map(i => i.value)"))
    if page.locator("#steps").count():
        verb = page.locator("#steps input[name=verb]").get_attribute("value")
        assert page.locator(f'#verbs button[value="{verb}"]').get_attribute(
            "aria-pressed") == "true"


def click_first_action(page: Any) -> None:
    """The first verb with every step at its default, confirmed."""
    choose_verb(page, page.locator("#verbs button.verb").first.get_attribute("value"))
    confirm(page)


def picture(page: Any) -> dict[str, str]:
    """What the GM reads off the table view (the odds line, which fills in and refreshes
    in the background, left out of the Decide panel)."""
    found = {key: page.inner_text(sel) for key, sel in
             (("round", "#round"), ("order", "#order"), ("table", "#table"),
              ("battlefield", "#battlefield"), ("log", "#log"))}
    found["decide"] = page.evaluate("""() => { const odds = document.getElementById('odds-panel');
        if (odds) { odds.hidden = true; }
        const text = document.getElementById('decide').innerText;
        if (odds) { odds.hidden = false; }
        return text; }""")
    return found


def play_three_turns_undo_one_and_reload(page: Any, server: LiveServer, bundled: str) -> None:
    create(page, server, bundled)
    start = revision(page)
    actors = []
    for _ in range(3):
        actors.append(page.inner_text("#actor"))
        click_first_action(page)
    assert revision(page) == start + 3
    after_two_log = None
    page.click("#undo")
    wait_revision(page, start + 4)
    assert "undone" in page.inner_text("#flash")
    after_two_log = page.inner_text("#log")
    seen = picture(page)
    page.reload()
    page.wait_for_selector("#live")
    assert revision(page) == start + 4
    assert picture(page) == seen
    assert page.inner_text("#log") == after_two_log
    assert page.inner_text("#actor") == actors[2]


def test_gm_plays_three_turns_by_clicking_undoes_one_and_reloads_to_the_same_state(
        page: Any, server: LiveServer) -> None:
    play_three_turns_undo_one_and_reload(page, server, "scenarios/duel.yaml")


def test_gm_plays_three_age_of_dragons_turns_by_clicking_undoes_and_reloads(
        page: Any, server: LiveServer) -> None:
    """Each turn: roll the pool (the first button), then end the turn."""
    create(page, server, "examples/age_of_dragons/claw_duel.yaml", seed=4)
    owners = []
    for _ in range(3):
        owner = page.inner_text("#actor")
        owners.append(owner)
        assert page.locator('#verbs button[value="roll"]').count() == 1
        click_first_action(page)
        choose_verb(page, "end")
        confirm(page)
        assert page.inner_text("#actor") != owner
    assert owners[0] != owners[1] and owners[0] == owners[2]  # a duel: turns alternate
    page.click("#undo")
    wait_revision(page, 7)  # six decisions, then the undo
    assert page.inner_text("#actor") == owners[2]  # back inside the third turn
    seen = picture(page)
    page.reload()
    page.wait_for_selector("#live")
    assert revision(page) == 7 and picture(page) == seen
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "age_of_dragons_after_undo.png"), full_page=True)


def test_a_player_link_cannot_act_for_an_enemy_nor_see_a_hidden_roll(
        browser: Any, page: Any, server: LiveServer) -> None:
    create(page, server, "scenarios/secret.yaml", seed=5)
    urls = links(page)
    player = browser.new_context().new_page()
    player.goto(server.url + urls["player-blue"])
    assert player.locator("#decide button.verb").count() == 0
    assert "Waiting for ann" in player.inner_text("#decide")
    # Forge the enemy's move from the player's own page, with its own valid CSRF token.
    status = player.evaluate("""async () => {
        const token = JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRF-Token'];
        const body = new URLSearchParams({action: 'ann strike target=bob', rev: '0', csrf: token});
        const answer = await fetch(location.pathname + '/act', {method: 'POST', body,
            headers: {'Accept': 'application/json'}});
        return answer.status;
    }""")
    assert status == 403
    assert revision(page) == 0
    choose_verb(page, "strike")
    assert page.input_value("#f_target") == "bob"
    confirm(page)
    assert "secret ambush check" in page.inner_text("#log")
    # Pushed: the player's page follows by itself (its version is a digest, not a count).
    player.wait_for_function("() => document.querySelectorAll('#decide button.verb').length == 2",
                             timeout=60_000)
    assert "ambush" not in player.inner_text("#live")
    assert "ambush" not in player.content()
    assert player.locator("#decide button.verb").count() == 2  # bob's own turn now
    SHOTS.mkdir(parents=True, exist_ok=True)
    player.screenshot(path=str(SHOTS / "toy_secret_player_blue.png"), full_page=True)
    player.context.close()


def test_two_pages_see_each_others_actions_without_reloading(
        browser: Any, page: Any, server: LiveServer) -> None:
    create(page, server, "scenarios/duel.yaml")
    urls = links(page)
    other = browser.new_context().new_page()
    other.goto(server.url + urls["gm"])
    click_first_action(page)
    wait_revision(other, 1, timeout=60_000)
    click_first_action(other)
    wait_revision(page, 2, timeout=60_000)
    assert page.inner_text("#log") == other.inner_text("#log")
    other.context.close()


def test_the_loser_of_a_race_in_the_browser_gets_a_clear_message(
        browser: Any, page: Any, server: LiveServer) -> None:
    create(page, server, "scenarios/duel.yaml")
    other = browser.new_context().new_page()
    # The other page's pushes are cut, so it keeps its old view; then both act on revision 0.
    other.route("**/events", lambda route: route.abort())
    other.route("**/panel?*", lambda route: route.abort())
    other.goto(server.url + links(page)["gm"])
    choose_verb(other, "wait")
    click_first_action(page)
    other.click("#confirm")
    other.wait_for_selector("#flash")
    assert "somebody else acted first" in other.inner_text("#flash")
    assert revision(other) == 1
    other.context.close()


RULESETS = ["age_of_dragons", "one_ring", "adnd", "battlesystem"]


def _example(ruleset: str) -> Path | None:
    folder = EXAMPLES / ruleset
    files = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
    return files[0] if files else None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_screenshot_of_the_table_view(page: Any, server: LiveServer, ruleset: str) -> None:
    example = _example(ruleset)
    assert example is not None, f"no example scenario in examples/{ruleset}/"
    create(page, server, f"examples/{ruleset}/{example.name}", seed=2)
    for _ in range(4):
        if page.locator("#ai").count() == 0:
            break
        before = revision(page)
        page.click("#ai")  # the actor's whole turn: one revision a decision
        page.wait_for_selector(f'#live:not([data-revision="{before}"])')
    assert page.locator("#battlefield").is_visible()
    assert page.inner_text("#table").strip()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{ruleset}.png"), full_page=True)


def test_screenshot_of_the_toy_table_view(page: Any, server: LiveServer) -> None:
    create(page, server, "scenarios/skirmish.yaml", seed=3)
    for _ in range(3):
        click_first_action(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "toy.png"), full_page=True)
    assert (SHOTS / "toy.png").stat().st_size > 10_000


# -- the Decide panel step by step (issue 10) ------------------------------------

#: Limits of the Decide panel: a turn's page in bytes, and the screens it must fit.
PAGE_LIMIT = 20_000
SCREENS = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


def change(page: Any, selector: str, value: str) -> None:
    """Set one step's value and wait for the server's re-rendered form."""
    page.evaluate("document.querySelector('#decide').dataset.old = 'yes'")
    with page.expect_response(lambda r: r.url.endswith("/decide")):
        if page.locator(selector).evaluate("e => e.tagName") == "SELECT":
            page.select_option(selector, value)
        else:
            page.fill(selector, value)
            page.press(selector, "Tab")  # a number input posts on change (blur)
    page.wait_for_selector("#decide:not([data-old])", state="attached")
    assert page.input_value(selector) == value


def offered(page: Any, selector: str) -> list[str]:
    values: list[str] = page.locator(f"{selector} option").evaluate_all(
        "options => options.map(o => o.value)")
    return values


def open_attack_form(page: Any, server: LiveServer, scenario: str, seed: int) -> None:
    create(page, server, f"examples/age_of_dragons/{scenario}", seed=seed)
    choose_verb(page, "roll")
    assert "soma" in offered(page, "#f_spheres")
    change(page, "#f_spheres", "soma")
    confirm(page)
    choose_verb(page, "attack")


def test_a_called_shot_claw_attack_is_clicked_through_the_form(browser: Any,
                                                                server: LiveServer) -> None:
    context = browser.new_context(viewport=SCREENS["desktop"])
    page = context.new_page()
    page.set_default_timeout(60_000)
    open_attack_form(page, server, "claw_duel.yaml", seed=4)
    actor = page.inner_text("#actor")
    # The keyboard lands on the first step once a verb is chosen.
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.id === 'f_target'")
    foes = [v for v in offered(page, "#f_target") if v != actor]
    assert foes, "the duel offers the other dragon as a target"
    change(page, "#f_target", foes[0])
    dice = page.locator("#f_dice")
    assert dice.get_attribute("type") == "number"  # a span: one number input
    low, high = int(dice.get_attribute("min")), int(dice.get_attribute("max"))
    assert low == 1 and high >= 2
    change(page, "#f_dice", "2")
    assert {"claw", "bite"} <= set(offered(page, "#f_style"))
    change(page, "#f_style", "claw")
    assert page.evaluate("document.activeElement.id") == "f_style"  # focus kept across swaps
    assert "wing" in offered(page, "#f_called")
    change(page, "#f_called", "wing")
    # Earlier choices survive the later ones.
    assert page.input_value("#f_target") == foes[0] and page.input_value("#f_dice") == "2"
    assert page.input_value("#f_style") == "claw"
    typed = page.get_attribute("#confirm", "title") or ""  # the syntax, for those who type
    assert "called=wing" in typed and "dice=2" in typed
    assert "=" not in page.inner_text("#confirm")  # the button itself speaks no code
    confirm(page)
    # The log shows the called shot (this rule set words the attack, not the decision) ...
    lines = page.locator("#log li").all_inner_texts()
    assert any(actor in line and "wing" in line and foes[0] in line for line in lines[:6])
    # ... and the stored decision holds exactly the values chosen.
    import json

    from fracas.core.ruleset import find_ruleset

    exported = [json.loads(line) for line in
                page.request.get(page.url + "/export").text().splitlines()[1:]]
    last = [e["action"] for e in exported if e.get("type") == "decision"][-1]
    attack = find_ruleset("age_of_dragons").parse_action(last)
    assert (attack.verb, attack.actor, attack.target, attack.dice, attack.style,
            attack.called) == ("attack", actor, foes[0], 2, "claw", "wing")
    # The applied action's form is gone: what is open now is the next decision's usual verb.
    assert_form_is_the_next_decisions(page)
    context.close()


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_the_decide_panel_fits_the_screen_and_a_turn_page_is_small(
        browser: Any, server: LiveServer, screen: str) -> None:
    size = SCREENS[screen]
    context = browser.new_context(viewport=size, is_mobile=screen == "phone",
                                  has_touch=screen == "phone")
    page = context.new_page()
    page.set_default_timeout(60_000)
    # grapple_brawl offered 254 whole attacks on this turn before decisions came in steps.
    open_attack_form(page, server, "grapple_brawl.yaml", seed=0)
    assert page.locator("#steps label.field").count() >= 3
    fits = page.evaluate("""() => {
        const d = document.querySelector('#decide'), root = document.documentElement;
        const box = d.getBoundingClientRect();
        return {page: root.scrollWidth <= root.clientWidth,
                decide: d.scrollWidth <= d.clientWidth,
                inside: [...d.querySelectorAll('button, select, input:not([type=hidden])')]
                    .every(e => e.getBoundingClientRect().right <= box.right + 0.5),
                height: box.height, width: box.width, bottom: box.bottom + scrollY};
    }""")
    assert fits["page"] and fits["decide"] and fits["inside"], fits
    assert fits["height"] <= size["height"] and fits["width"] <= size["width"], fits
    assert fits["bottom"] <= size["height"], fits  # in view as the page opens, form and all
    page_bytes = len(page.request.get(page.url).body())
    assert page_bytes < PAGE_LIMIT
    # The page as it stands, with the attack form open.
    shown = page.evaluate("new Blob([document.documentElement.outerHTML]).size")
    assert shown < PAGE_LIMIT, shown
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#decide").screenshot(path=str(SHOTS / f"decide_{screen}.png"))
    page.screenshot(path=str(SHOTS / f"decide_{screen}_page.png"), full_page=True)
    context.close()


def test_without_javascript_the_steps_still_work(browser: Any, server: LiveServer) -> None:
    page = browser.new_page()
    page.set_default_timeout(60_000)
    create(page, server, "scenarios/skirmish.yaml", seed=3)
    gm = links(page)["gm"]
    page.close()
    context = browser.new_context(java_script_enabled=False)
    plain = context.new_page()
    plain.set_default_timeout(60_000)
    plain.goto(server.url + gm)
    plain.click('#verbs button[value="strike"]')
    plain.wait_for_selector("#steps")
    plain.select_option("#f_target", "dee")
    plain.click("#steps noscript button, #steps button[formaction$='/decide']")
    plain.wait_for_selector("#steps")
    assert plain.input_value("#f_target") == "dee"
    assert "target=dee" in (plain.get_attribute("#confirm", "title") or "")
    plain.click("#confirm")
    plain.wait_for_selector("#live")
    assert "strike, target dee" in plain.inner_text("#log")  # the decision in words
    assert_form_is_the_next_decisions(plain)
    context.close()


PUSH_PROBE = """() => {
    window.__changed = [];
    new MutationObserver(() => {
        const live = document.getElementById('live');
        if (live) { window.__changed.push([Date.now(), live.getAttribute('data-revision')]); }
    }).observe(document.body, {subtree: true, childList: true, attributes: true,
                                attributeFilter: ['data-revision']});
}"""


def test_a_change_is_pushed_to_the_other_pages(
        browser: Any, page: Any, server: LiveServer) -> None:
    create(page, server, "scenarios/duel.yaml")
    urls = links(page)
    watchers = []
    for key in ("spectator", "player-blue", "gm"):
        other = browser.new_context().new_page()
        other.goto(server.url + urls[key])
        other.evaluate(PUSH_PROBE)
        watchers.append(other)
    time.sleep(0.5)  # let every stream open
    choose_verb(page, page.locator("#verbs button.verb").first.get_attribute("value"))
    page.evaluate("""() => { document.body.addEventListener('htmx:afterRequest',
        () => { window.__answered = Date.now(); }, {once: true});
        window.__clicked = Date.now(); }""")
    page.click("#confirm")
    wait_revision(page, 1)
    clicked, answered = page.evaluate("[window.__clicked, window.__answered]")
    delays = []
    for other in watchers:
        other.wait_for_function("() => window.__changed.length > 0", timeout=60_000)
        delays.append(other.evaluate("window.__changed[0][0]") - clicked)
        assert "ann" in other.inner_text("#log")
    print(f"\nfrom the click: the acting page's answer {answered - clicked} ms, "
          f"the other pages patched {delays} ms")
    # The pages never poll, so a change on them came by push; how soon is a figure for
    # the README, not a bound for a test that must pass on a busy machine.
    for other in watchers:
        other.context.close()


def test_a_refresh_keeps_focus_scroll_half_typed_text_and_an_open_decide_form(
        browser: Any, page: Any, server: LiveServer) -> None:
    create(page, server, "scenarios/skirmish.yaml")
    urls = links(page)
    # The Decide form open, a target chosen, the keyboard on it: a refresh of the same
    # decision (here forced by hand) keeps all of it.
    choose_verb(page, "strike")
    options = page.locator("#f_target option").all_inner_texts()
    page.select_option("#f_target", index=len(options) - 1)
    page.wait_for_load_state("networkidle")
    chosen = page.input_value("#f_target")
    page.focus("#f_target")
    page.evaluate("document.getElementById('live').setAttribute('data-revision', 'stale')")
    page.evaluate("window.fracas.refresh()")
    page.wait_for_function(
        "() => document.getElementById('live').getAttribute('data-revision') !== 'stale'")
    assert page.input_value("#f_target") == chosen
    assert page.evaluate("document.activeElement.id") == "f_target"
    # Half-typed text and the caret survive a change pushed by another page, and the new
    # log line is announced.
    page.fill("#typed", "bob wai")
    page.focus("#typed")
    page.evaluate("window.scrollTo(0, 200)")
    scrolled = page.evaluate("window.scrollY")
    other = browser.new_context().new_page()
    other.goto(server.url + urls["gm"])
    click_first_action(other)
    wait_revision(page, 1, timeout=60_000)
    assert page.input_value("#typed") == "bob wai"
    assert page.evaluate("document.activeElement.id") == "typed"
    assert page.evaluate("window.scrollY") == scrolled
    page.wait_for_function("() => document.getElementById('announce').textContent.length > 0")
    assert "ann" in page.inner_text("#announce")
    assert page.get_attribute("#announce", "aria-live") == "polite"
    other.context.close()


def test_pages_say_who_they_are_for(page: Any, server: LiveServer) -> None:
    create(page, server, "scenarios/duel.yaml")
    urls = links(page)
    assert "GM console" in page.title() and page.locator("h1").count() == 1
    page.goto(server.url + urls["player-blue"])
    assert "player view of blue" in page.title() and page.locator("h1").count() == 1
    assert "GM console" not in page.title()
    page.goto(server.url + urls["spectator"])
    assert "spectator view" in page.title()


def test_a_refresh_that_fails_is_tried_again(page: Any, server: LiveServer) -> None:
    """A panel fetch answered with an error (the server busy) is retried, not left for
    the next push: the page still catches up."""
    create(page, server, "scenarios/skirmish.yaml")
    refused: list[str] = []

    def busy_once(route: Any) -> None:
        if not refused:
            refused.append(route.request.url)
            route.fulfill(status=503, body="busy")
        else:
            route.continue_()

    page.route("**/panel?*", busy_once)
    page.wait_for_function("() => window.fracas !== undefined")  # the deferred script ran
    page.evaluate("document.getElementById('live').setAttribute('data-revision', 'stale')")
    page.evaluate("window.fracas.refresh()")
    page.wait_for_function(
        "() => document.getElementById('live').getAttribute('data-revision') !== 'stale'",
        timeout=60_000)
    assert len(refused) == 1  # the first answer was an error; the retry brought the panel
    assert page.get_attribute("#live", "data-revision") == "0"
