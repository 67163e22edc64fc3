"""Phones at the table on a flaky connection: two phones join through the Share page's QR
link as ``manage.py serve`` sets it up; one loses its connection, keeps recording, reloads,
and sends everything once when the connection is back; a correction made meanwhile on
another phone is a conflict for the player, never overwritten."""

import re

import pytest
from django.test import override_settings
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from scorepad.models import Game
from scorepad.sheet import build_sheet
from scorepad.templatetags.scorepad import signed
from scorepad.views.sheet import _qr
from tests.e2e.conftest import PHONE, paused_clock
from tests.factories import ACTOR, GameFactory, record_classic

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.every_database,  # the database changes what the phones see: tests/databases.py
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def table(live_server):
    """serve's settings: the host computer browses on localhost, the phones use the
    address the QR codes carry (here 127.0.0.1, this machine's loopback, for the LAN)."""
    port = live_server.url.rsplit(":", 1)[1]
    with override_settings(TABLE_URL=f"http://127.0.0.1:{port}"):
        yield f"http://localhost:{port}"


def phone(browser):
    context = browser.new_context(viewport=PHONE, has_touch=True, service_workers="allow")
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def qr_link(organiser, host: str, game: Game, which: str) -> str:
    """The link under the QR code of the Share page, checked against the code itself."""
    organiser.goto(f"{host}/en/games/{game.editor_token}/share/")
    section = organiser.locator(f"section:has(h2#share-{which})")
    url = section.locator(".link a").inner_text()
    drawn = section.locator(".qr-box path.qr-dark").get_attribute("d")
    assert drawn, "the QR code does not encode the link beside it"
    assert drawn in _qr(url), "the QR code does not encode the link beside it"
    return url


KEPT = "() => caches.open('scorepad-pages').then(c => c.keys()).then(k => k.map(r => r.url))"

# True once the service worker's cache holds an address that matches: each check reads the
# cache (asynchronous) for the next one.
KEPT_MATCHING = """pattern => {
  caches.open('scorepad-pages').then(c => c.keys())
    .then(keys => { window.keptUrls = keys.map(r => r.url); }, () => {});
  return (window.keptUrls || []).some(url => new RegExp(pattern).test(url));
}"""


def wait_until_kept(page, pattern: str, what: str) -> None:
    try:
        page.wait_for_function(KEPT_MATCHING, arg=pattern)
    except PlaywrightTimeoutError:
        pytest.fail(f"the service worker did not keep {what}: {page.evaluate(KEPT)}")


def ready_offline(page, url: str) -> None:
    """Opens ``url``: the service worker controls the page and keeps its sheet, which holds
    the next deal's form and, for each deal it can correct, the deal as stored (data-values):
    so no correction form is fetched for later while the game is played (issue 24).
    table.js's prefetch (1.5 s after the sheet) runs on the page's clock, paused until it
    has; then the clock runs on as time does."""
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/edit/" in r.url else None)
    paused_clock(page)
    page.goto(url)
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller")
    wait_until_kept(page, r"/games/[^/]+/$", "the sheet")
    page.clock.run_for(2_000)  # the prefetch comes due (the 3 s poll not yet)
    kept = page.evaluate(KEPT)  # the round trip: a request the prefetch sent was reported
    assert not asked, "a form was prefetched"
    assert not [url for url in kept if "/edit/" in url], "a form was prefetched"
    page.clock.resume()


def record(page, winner: str, jokers: str) -> None:
    page.locator("#sheet .actions a.button.big").click()
    form = page.locator(".deal-form")
    form.locator("label.chip", has_text=winner).click()
    form.locator('fieldset:has(legend:text("Jokers used")) label.chip', has_text=jokers).click()
    form.get_by_role("button", name="Save").click()


def correct(page, number: int, winner: str) -> None:
    page.get_by_role("link", name=f"Correct deal {number}").click()
    form = page.locator(".deal-form")
    expect(page.locator("#panel-title")).to_have_text(f"Correct deal {number}")
    form.locator("label.chip", has_text=winner).click()
    form.get_by_role("button", name="Save").click()


def totals(game: Game) -> list[str]:
    return [signed(t) for t in build_sheet(Game.objects.get(pk=game.pk)).totals]


def winners(game: Game) -> list[str]:
    game = Game.objects.get(pk=game.pk)
    names = {seat.position: seat.name for seat in game.seats.all()}
    return [names[d.went_out] for d in game.deals.order_by("number")]


def test_a_phone_without_connection_keeps_its_deals_and_sends_them_once(browser, table):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    record_classic(game, 0)
    record_classic(game, 1)
    organiser = phone(browser)
    url = qr_link(organiser, table, game, "editor")
    assert url.startswith("http://127.0.0.1:")

    a, b = phone(browser), phone(browser)
    ready_offline(a, url)
    b.goto(url)

    a.context.set_offline(True)
    record(a, "Cleo", "1")
    expect(a.locator(".connection")).to_contain_text("saved on this phone")
    expect(a.locator(".outbox-count")).to_have_text("Waiting to be sent (1)")
    record(a, "Dan", "0")
    expect(a.locator(".outbox-count")).to_have_text("Waiting to be sent (2)")
    correct(a, 2, "Cleo")
    expect(a.locator(".outbox-count")).to_have_text("Waiting to be sent (3)")
    assert Game.objects.get(pk=game.pk).deals.count() == 2  # nothing reached the server

    # A reload without a connection: the sheet from the phone, marked, with its queue.
    a.reload()
    expect(a.locator(".offline-copy")).to_be_visible()
    expect(a.locator("#sheet tbody tr:not(.pending)")).to_have_count(2)
    # The two deals waiting, as rows of their own with their numbers.
    expect(a.locator("#sheet tbody tr.pending th")).to_have_text(["3", "4"])
    expect(a.locator(".outbox-count")).to_have_text("Waiting to be sent (3)")
    expect(a.locator(".outbox-entry")).to_have_count(3)

    # The same kept deal twice (a replay): the server records it once.
    a.evaluate(
        """() => new Promise((done, fail) => {
             const open = indexedDB.open('scorepad');
             open.onsuccess = () => {
               const tx = open.result.transaction('outbox', 'readwrite');
               const store = tx.objectStore('outbox');
               store.getAll().onsuccess = (e) => {
                 const first = Object.assign({}, e.target.result[0]);
                 delete first.id;
                 store.add(first);
               };
               tx.oncomplete = done; tx.onerror = fail;
             };
           })"""
    )

    a.context.set_offline(False)
    # The other phone's live update brings the change, and says so.
    expect(b.locator(".connection")).to_have_text("Sheet updated.", timeout=10_000)
    expect(a.locator(".outbox")).to_be_hidden()
    expect(a.locator("#sheet tbody tr")).to_have_count(4)
    assert winners(game) == ["Anna", "Cleo", "Cleo", "Dan"]
    expected = totals(game)
    expect(a.locator("tfoot td")).to_have_text(expected)
    expect(b.locator("#sheet tbody tr")).to_have_count(4)
    expect(b.locator("tfoot td")).to_have_text(expected)
    kinds = list(Game.objects.get(pk=game.pk).events.values_list("kind", flat=True))
    assert sorted(kinds) == ["edited", "recorded", "recorded", "recorded", "recorded"]


def test_a_kept_correction_meets_another_phones_correction_as_a_conflict(browser, table):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    record_classic(game, 0)
    record_classic(game, 1)
    url = qr_link(phone(browser), table, game, "editor")
    a, b = phone(browser), phone(browser)
    ready_offline(a, url)

    a.context.set_offline(True)
    correct(a, 2, "Cleo")
    expect(a.locator(".outbox-count")).to_have_text("Waiting to be sent (1)")

    b.goto(url)
    correct(b, 2, "Dan")
    expect(b.locator("#game .messages")).to_contain_text("Deal 2 corrected.")

    a.context.set_offline(False)
    entry = a.locator(".outbox-entry.attention")
    expect(entry).to_contain_text("Correct deal 2")
    expect(entry.locator(".problem")).to_contain_text("another phone saved a change")
    expect(a.locator(".connection")).to_contain_text("needs you")
    assert winners(game) == ["Anna", "Dan"]  # B's correction stands

    entry.get_by_role("button", name="Open it").click()
    expect(a.locator("#game .message.error")).to_contain_text("Another phone corrected deal 2")
    expect(a.locator(".conflict .differences")).to_contain_text("The other phone saved: Dan")
    expect(a.locator("#panel-title")).to_have_text("Correct deal 2")
    assert winners(game) == ["Anna", "Dan"]  # nothing saved without a tap
    expect(a.locator(".outbox")).to_be_hidden()
    a.locator(".deal-form").get_by_role("button", name="Save").click()
    expect(a.locator("#game .messages")).to_contain_text("Deal 2 corrected.")
    assert winners(game) == ["Anna", "Cleo"]


def test_an_ended_games_corrections_are_kept_for_a_phone_without_connection(browser, table):
    """An ended game's sheet holds no deal form: the forms of its last deals are fetched
    once and kept, and a correction opens from them without a connection."""
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    record_classic(game, 0)
    record_classic(game, 1)
    game.refresh_from_db()
    game.end(version=game.version, once="end-it", actor=ACTOR)
    url = qr_link(phone(browser), table, game, "editor")
    a = phone(browser)
    a.goto(url)
    a.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller")
    wait_until_kept(a, r"/deals/2/edit/\?_partial=1", "the forms of the ended game")
    expect(a.locator("#offline-deal")).to_have_count(0)
    a.context.set_offline(True)
    a.get_by_role("link", name="Correct deal 2").click()
    expect(a.locator("#panel-title")).to_have_text("Correct deal 2")
    expect(a.locator(".deal-form")).to_be_visible()


def test_a_page_never_opened_shows_the_offline_page_with_the_kept_sheets(browser, table):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    record_classic(game, 0)
    record_classic(game, 1)
    url = qr_link(phone(browser), table, game, "viewer")
    a = phone(browser)
    a.goto(url)
    a.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller")
    a.reload()  # the worker keeps this page and, for its language, the offline page
    wait_until_kept(a, r"/en/offline/$", "the offline page")
    a.context.set_offline(True)
    a.goto(url.rsplit("/en/", 1)[0] + "/en/circles/new/")
    expect(a.locator("h1")).to_have_text("No connection")
    kept = a.locator(".kept-list a")
    expect(kept).to_have_count(1)
    expect(kept).to_have_attribute("href", f"/en/games/{game.viewer_token}/")
    kept.click()
    expect(a.locator(".offline-copy")).to_be_visible()
    expect(a.locator("#sheet tbody tr")).to_have_count(2)


def plain_http_phone(browser):
    """A phone on the table's plain http://192.168.… address: browsers run no service worker
    there, so nothing is kept but what the page itself holds."""
    context = browser.new_context(viewport=PHONE, has_touch=True, service_workers="block")
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


# What the connection line says, each time it is set (as the text set), and how many of the
# live update's polls failed (no connection).
SAID_AND_FAILED = """
window.said = [];
window.pollsFailed = 0;
new MutationObserver((records) => {
  for (const r of records)
    if (r.target.classList && r.target.classList.contains('connection'))
      window.said.push(Array.from(r.addedNodes, (n) => n.textContent).join(''));
}).observe(document, {subtree: true, childList: true});
document.addEventListener('htmx:sendError', (event) => {
  if (event.target.classList && event.target.classList.contains('poll')) window.pollsFailed += 1;
});
"""


def test_without_a_service_worker_a_phone_offline_records_deals_and_sends_them(
    browser, live_server
):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    record_classic(game, 0)
    record_classic(game, 1)
    a = plain_http_phone(browser)
    a.add_init_script(SAID_AND_FAILED)
    a.clock.install()  # the page's timers on Playwright's clock, running as time does
    a.goto(f"{live_server.url}/en/games/{game.editor_token}/")
    expect(a.locator("#sheet tbody tr")).to_have_count(2)
    assert a.evaluate("() => !navigator.serviceWorker || !navigator.serviceWorker.controller")

    a.context.set_offline(True)
    a.get_by_role("link", name="Record deal 3").click()
    expect(a.locator("#panel-title")).to_have_text("Record deal 3")
    expect(a.locator(".connection")).to_contain_text("what you save here waits on this phone")
    form = a.locator(".deal-form")
    form.locator("label.chip", has_text="Cleo").click()
    form.locator('fieldset:has(legend:text("Jokers used")) label.chip', has_text="1").click()
    expect(a.locator("#preview")).to_contain_text("worked out when the deal is sent")
    form.get_by_role("button", name="Save").click()
    expect(a.locator("#panel")).to_have_count(0)
    waiting = "No connection — saved on this phone. Waiting to be sent (1)."
    expect(a.locator(".connection")).to_have_text(waiting)
    # Two live updates fail meanwhile (6 s of the page's time at once), each said again
    # after it, and the waiting state stays.
    failed, said = a.evaluate("() => [window.pollsFailed, window.said.length]")
    a.clock.run_for(6_000)
    a.wait_for_function("n => window.pollsFailed >= n", arg=failed + 2)
    a.wait_for_function("n => window.said.length >= n", arg=said + 2)
    assert set(a.evaluate("() => window.said")[said:]) == {waiting}
    expect(a.locator(".connection")).to_have_text(waiting)

    # The sheet moved on (issue 44, item 3): the header shows deal 4 as the server's schedule
    # says it, marked as waiting, and the button says deal 4.
    head = a.locator("#sheet .deal-head")
    expect(head.locator(".deal-now")).to_have_text("Deal 4")
    expect(head.locator(".deal-waiting")).to_have_text("Waiting to be sent (1)")
    expect(head.locator(".deal-facts")).to_contain_text("Deals")
    # The second deal: numbered after the one waiting (issue 23, item 2).
    a.get_by_role("link", name="Record deal 4").click()
    expect(a.locator("#panel-title")).to_have_text("Record deal 4")
    a.locator(".deal-form label.chip", has_text="Dan").click()
    a.locator(".deal-form").get_by_role("button", name="Save").click()
    expect(a.locator(".outbox-count")).to_have_text("Waiting to be sent (2)")
    expect(a.locator(".outbox-entry .what")).to_have_text(
        ["Record deal 3 — Cleo", "Record deal 4 — Dan"]
    )
    pending = a.locator("#sheet tbody tr.pending")
    expect(pending).to_have_count(2)
    expect(pending.locator("th")).to_have_text(["3", "4"])
    expect(pending.nth(0)).to_contain_text("Deal 3: not sent yet — Cleo")
    expect(pending.nth(1)).to_contain_text("Deal 4: not sent yet — Dan")
    # Cancel of a form opened offline goes back to the sheet.
    a.get_by_role("link", name="Record deal 5").click()
    expect(a.locator("#panel-title")).to_have_text("Record deal 5")
    a.locator("#panel").get_by_role("link", name="Cancel").click()
    expect(a.locator("#panel")).to_have_count(0)
    expect(pending).to_have_count(2)
    assert Game.objects.get(pk=game.pk).deals.count() == 2  # nothing reached the server

    a.context.set_offline(False)
    expect(a.locator(".outbox")).to_be_hidden(timeout=25_000)
    expect(a.locator("#sheet tbody tr")).to_have_count(4)
    expect(a.locator("#sheet tbody tr.pending")).to_have_count(0)
    expect(head.locator(".deal-waiting")).to_have_count(0)
    expect(head.locator(".deal-now")).to_have_text("Deal 5")
    expect(a.get_by_role("link", name="Record deal 5")).to_be_visible()
    assert winners(game) == ["Anna", "Ben", "Cleo", "Dan"]
    tokens = Game.objects.get(pk=game.pk).events.filter(kind="recorded")
    phone_made = re.compile(r"p[0-9a-f]{32}")
    made_here = [t for t in tokens.values_list("form_token", flat=True) if phone_made.fullmatch(t)]
    assert len(made_here) == 2  # the one-time tokens this phone made
    expect(a.locator("tfoot td")).to_have_text(totals(game))


def test_without_a_service_worker_a_phone_offline_corrects_a_deal(browser, live_server):
    """The form the sheet holds, filled with a deal as it is stored: corrected offline, sent
    when the connection is back, once."""
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    record_classic(game, 0)
    record_classic(game, 1, jokers=1)
    a = plain_http_phone(browser)
    a.goto(f"{live_server.url}/en/games/{game.editor_token}/")
    expect(a.locator("#sheet tbody tr")).to_have_count(2)

    a.context.set_offline(True)
    a.get_by_role("link", name="Correct deal 2").click()
    expect(a.locator("#panel-title")).to_have_text("Correct deal 2")
    form = a.locator(".deal-form")
    expect(form.get_by_role("radio", name="Ben", exact=True)).to_be_checked()
    jokers = form.locator('fieldset:has(legend:text("Jokers used"))')
    expect(jokers.get_by_role("radio", name="1", exact=True)).to_be_checked()
    form.locator("label.chip", has_text="Cleo").click()
    form.get_by_role("button", name="Save").click()
    expect(a.locator(".outbox-entry .what")).to_have_text(["Correct deal 2 — Cleo"])
    expect(a.locator("#sheet tbody tr.pending")).to_have_count(0)  # no new deal
    assert winners(game) == ["Anna", "Ben"]

    a.context.set_offline(False)
    expect(a.locator(".outbox")).to_be_hidden(timeout=25_000)
    assert winners(game) == ["Anna", "Cleo"]
    deal = Game.objects.get(pk=game.pk).deals.get(number=2)
    assert deal.entry.get("jokers") == 1  # the stored values the form was filled with
    kinds = list(Game.objects.get(pk=game.pk).events.values_list("kind", flat=True))
    assert kinds.count("edited") == 1
