"""The phone at the table in Chromium: installable, the connection state it shows, the
screen kept awake, and a viewer told when its link was replaced."""

import pytest
from playwright.sync_api import expect

from scorepad.forms.change import once_token
from scorepad.models import Actor
from tests.e2e.conftest import PHONE, POLLS, paused_clock
from tests.factories import GameFactory, record_classic

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Every text the connection line shows, in order (a save is quicker than an assertion).
RECORD_SAID = """
window.__said = [];
new MutationObserver(() => {
  const line = document.querySelector('.connection');
  if (line && line.textContent) window.__said.push(line.textContent);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""

FAKE_WAKE_LOCK = """
window.__wake = [];
Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: {
  request(type) {
    window.__wake.push('request:' + type);
    const listeners = [];
    return Promise.resolve({type, released: false,
      addEventListener(name, fn) { listeners.push(fn); },
      release() { window.__wake.push('release'); listeners.forEach(fn => fn()); return Promise.resolve(); }});
  }}});
"""

NO_WAKE_LOCK = (
    "Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: undefined});"
)


@pytest.fixture
def game():
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    record_classic(game, 0)
    return game


def open_phone(browser, live_server, url: str, script: str = "", clock: bool = False):
    """``clock``: the page's timers on Playwright's clock, paused (conftest's paused_clock)."""
    context = browser.new_context(viewport=PHONE, has_touch=True)
    if script:
        context.add_init_script(script)
    page = context.new_page()
    page.set_default_timeout(15_000)
    if clock:
        paused_clock(page)
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(live_server.url + url)
    return page


def test_the_app_is_installable(browser, live_server, game):
    page = open_phone(browser, live_server, f"/en/games/{game.viewer_token}/")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    manifest = page.evaluate("url => fetch(url).then(r => r.json())", href)
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/en/"
    for icon in manifest["icons"]:
        status = page.evaluate(
            "url => fetch(url).then(r => [r.status, r.headers.get('content-type')])", icon["src"]
        )
        assert status[0] == 200, icon
        assert status[1] == icon["type"], icon
    scope = page.evaluate("() => navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == live_server.url + "/"
    assert page.evaluate("() => navigator.serviceWorker.getRegistration('/').then(r => !!r.active)")
    assert not page.errors


def test_saving_shows_and_another_phones_change_shows_as_updated(browser, live_server, game):
    editor = open_phone(browser, live_server, f"/en/games/{game.editor_token}/", RECORD_SAID)
    viewer = open_phone(browser, live_server, f"/en/games/{game.viewer_token}/")
    editor.get_by_role("link", name="Record deal 2").click()
    form = editor.locator(".deal-form")
    form.locator("label.chip", has_text="Ben").click()
    form.get_by_role("button", name="Save").click()
    expect(editor.locator("#game .messages")).to_contain_text("Deal 2 recorded.")
    assert "Saving…" in editor.evaluate("() => window.__said")
    expect(viewer.locator(".connection")).to_have_text("Sheet updated.")
    expect(viewer.locator("#sheet tbody tr")).to_have_count(2)
    assert not editor.errors
    assert not viewer.errors


def test_a_viewer_whose_link_was_replaced_is_told_so(browser, live_server, game):
    viewer = open_phone(browser, live_server, f"/en/games/{game.viewer_token}/")
    expect(viewer.locator("#sheet")).to_be_visible()
    old = game.viewer_token
    game.replace_link(
        "viewer", version=game.version, once=once_token(), actor=Actor("creator", "t")
    )
    expect(viewer.locator(".connection")).to_contain_text("This link was replaced on another phone")
    viewer.goto(f"{live_server.url}/en/games/{old}/")
    expect(viewer.locator("h1")).to_have_text("This link does not open a game")
    viewer.get_by_role("link", name="Home").click()
    expect(viewer).to_have_url(f"{live_server.url}/en/")


def test_the_screen_stays_on_and_the_toggle_lets_it_sleep(browser, live_server, game):
    page = open_phone(browser, live_server, f"/en/games/{game.viewer_token}/", FAKE_WAKE_LOCK)
    toggle = page.get_by_label("Keep the screen on")
    expect(toggle).to_be_checked()
    page.wait_for_function("() => window.__wake.includes('request:screen')")
    toggle.uncheck()
    page.wait_for_function("() => window.__wake.includes('release')")
    page.reload()
    # table.js shows the toggle, sets it from the choice kept and holds the screen or not,
    # in that one step: once it is shown, whatever the page would ask was asked.
    expect(page.locator("label.wake")).to_be_visible()
    expect(page.get_by_label("Keep the screen on")).not_to_be_checked()
    assert page.evaluate("() => window.__wake") == []  # the choice is remembered
    assert not page.errors


def test_without_wake_lock_the_toggle_stays_hidden_and_nothing_breaks(browser, live_server, game):
    page = open_phone(browser, live_server, f"/en/games/{game.editor_token}/", NO_WAKE_LOCK)
    expect(page.locator("#sheet")).to_be_visible()
    expect(page.locator("label.wake")).to_be_hidden()
    page.get_by_role("link", name="Record deal 2").click()
    expect(page.locator(".deal-form")).to_be_visible()
    assert not page.errors


def test_the_share_page_copies_a_link_and_offers_the_phones_share_sheet(browser, live_server, game):
    context = browser.new_context(viewport=PHONE, has_touch=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    context.add_init_script(
        "window.__shared = []; navigator.share = (data) => { window.__shared.push(data); "
        "return Promise.resolve(); };"
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/en/games/{game.editor_token}/share/")
    viewer = page.locator("section:has(h2#share-viewer)")
    link = viewer.locator(".link a").inner_text()
    viewer.get_by_role("button", name="Copy the link").click()
    expect(viewer.locator(".copy-done")).to_have_text("Link copied.")
    assert page.evaluate("() => navigator.clipboard.readText()") == link
    viewer.get_by_role("button", name="Share…").click()
    assert page.evaluate("() => window.__shared") == [
        {"title": "Continental — the 15-card game", "url": link}
    ]
    context.close()


def test_without_script_the_share_page_shows_no_dead_buttons(browser, live_server, game):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/en/games/{game.editor_token}/share/")
    expect(page.get_by_role("button", name="Copy the link").first).to_be_hidden()
    expect(page.locator(".link a").first).to_be_visible()
    context.close()


def test_a_hidden_page_asks_nothing_and_catches_up_when_shown(browser, live_server, game):
    hidden = "Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => window.__state || 'visible'});"
    url = f"/en/games/{game.viewer_token}/"
    page = open_phone(browser, live_server, url, hidden + POLLS, clock=True)
    polls = []

    def is_poll(request) -> bool:
        return "/version?" in request.url

    page.on("request", lambda r: polls.append(r.url) if is_poll(r) else None)
    with page.expect_response(is_poll):  # answered: none is under way when the page hides
        page.clock.run_for(3_000)
    assert polls, "a visible page polls"
    page.evaluate("() => { window.__state = 'hidden'; }")
    polls.clear()
    record_classic(game, 1)
    page.clock.run_for(9_000)  # three polls come due
    # The round trip after the clock's: a request those timers sent has been reported.
    assert page.evaluate("() => window.__polls") == {"asked": 1, "dropped": 3}
    assert polls == []
    expect(page.locator("#sheet tbody tr")).to_have_count(1)
    page.evaluate("() => { window.__state = 'visible'; }")
    with page.expect_response(is_poll):
        page.clock.run_for(3_000)  # the next poll
    expect(page.locator("#sheet tbody tr")).to_have_count(2)
