"""Live push in Chromium (static/js/live.js): with the stream process running, a phone shows
another phone's deal through its stream, not its 3 s polls; an evening page follows its
games; a replaced link is said; and the old polling takes over when streams are off or a
proxy holds the stream back."""

from __future__ import annotations

import re
import socket
import threading
from decimal import Decimal

import pytest
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from scorepad.models import Evening, EveningGame
from tests.e2e.conftest import POLLS, paused_clock
from tests.factories import ACTOR, GameFactory, record_classic

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.every_database,  # the database changes what the phones see: tests/databases.py
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def phones(browser, live_server):
    from tests.e2e.conftest import PHONE

    opened = []

    def open_phone():
        context = browser.new_context(viewport=PHONE, has_touch=True)
        phone = context.new_page()
        phone.set_default_timeout(10_000)
        phone.versions = []  # the sheet's own version requests (polls and fetches)
        phone.on(
            "request", lambda r: phone.versions.append(r.url) if "/version?" in r.url else None
        )
        opened.append(context)
        return phone

    yield open_phone
    for context in opened:
        context.close()


def stream_held(phone) -> None:
    phone.wait_for_function("() => window.scorepadLive && window.scorepadLive.open")


def record_deal_1(editor) -> None:
    """Ben goes out in deal 1, through the editor's form."""
    editor.get_by_role("link", name="Record deal 1").click()
    editor.locator(".deal-form label.chip", has_text="Ben").first.click()
    editor.get_by_role("button", name="Save").click()
    expect(editor.locator("#game .messages")).to_contain_text("Deal 1 recorded.")


def test_two_phones_see_each_others_deals_through_the_stream(streams, phones, live_server):
    game = GameFactory(players=["Anna", "Ben", "Cleo"])
    editor, viewer = phones(), phones()
    editor.goto(f"{live_server.url}/en/games/{game.editor_token}/")
    viewer.goto(f"{live_server.url}/en/games/{game.viewer_token}/")
    stream_held(editor)
    stream_held(viewer)
    asked_before = len(viewer.versions)
    record_deal_1(editor)
    expect(viewer.locator(".sheet tbody tr")).to_have_count(1)
    record_classic(game, 2)  # a third phone records deal 2: both follow
    expect(viewer.locator(".sheet tbody tr")).to_have_count(2)
    expect(editor.locator(".sheet tbody tr")).to_have_count(2)
    # The viewer asked for the sheet once per change, not every 3 s meanwhile.
    assert len(viewer.versions) - asked_before <= 2  # one per change, no poll
    assert viewer.evaluate("window.scorepadLive.open")


def test_a_viewers_phone_shows_the_sheet_its_stream_carried_without_asking(
    streams, phones, live_server
):
    """In German: the deal saved on the editor's phone reaches the viewer's phone inside its
    stream's event (the viewers' answer kept with the change), swapped in as the sheet's own
    request would: no request for it, the phone says the sheet was updated, and the newest
    deal is in view."""
    game = GameFactory(players=["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz"])
    for winner in range(12):  # a sheet taller than the phone
        record_classic(game, winner % 6)
    editor, viewer = phones(), phones()
    editor.goto(f"{live_server.url}/de/games/{game.editor_token}/")
    viewer.goto(f"{live_server.url}/de/games/{game.viewer_token}/")
    stream_held(editor)
    stream_held(viewer)
    expect(viewer.locator("#table-bar")).to_have_attribute("data-live-lang", "de")
    assert editor.locator("#table-bar").get_attribute("data-live-lang") is None
    asked_before = len(viewer.versions)
    editor.locator("a[hx-get$='/deals/new/']").first.click()
    editor.locator(".deal-form label.chip", has_text="Ben").first.click()
    with translation.override("de"):
        save, updated = gettext("Save"), gettext("Sheet updated.")
    editor.get_by_role("button", name=save, exact=True).click()
    expect(viewer.locator(".sheet tbody tr")).to_have_count(13)
    assert len(viewer.versions) == asked_before  # shown from the event, not asked for
    assert viewer.evaluate("window.scorepadLive.pushed") == 1
    expect(viewer.locator("#table-bar .connection")).to_have_text(updated)
    newest = viewer.locator(".sheet tbody tr").last
    expect(newest).to_be_in_viewport()
    # The swapped sheet is live like a fetched one: the next change reaches it too.
    record_classic(game, 3)
    expect(viewer.locator(".sheet tbody tr")).to_have_count(14)


# Every "version" event the page's stream brings, as it comes (before live.js hears it).
HEARD = """(() => {
  const Source = window.EventSource;
  if (!Source) return;
  window.heardVersions = [];
  window.EventSource = class extends Source {
    constructor(url, options) {
      super(url, options);
      this.addEventListener("version", (event) => window.heardVersions.push(event.data.split("\\n")[0]));
    }
  };
})();"""


def heard(phone, version: int) -> None:
    phone.wait_for_function(f"() => window.heardVersions.includes('{version}')")


def test_the_editors_phone_waits_for_its_own_saves_answer_not_its_event(
    streams, phones, live_server
):
    """The stream hears the commit before the saving phone has its answer: that phone's
    event waits for the answer, which is the new sheet, instead of fetching it beside it."""
    game = GameFactory(players=["Anna", "Ben", "Cleo"])
    editor = phones()
    editor.add_init_script(HEARD)
    game.refresh_from_db()
    saved = game.version + 1  # the version of deal 1 (a change counts one up)

    def answer_late(route):
        answer = route.fetch()  # saved and committed: the event is on its way
        heard(editor, saved)  # and came, before the answer
        route.fulfill(response=answer)

    editor.route(
        re.compile(r".*/deals/new/$"),
        lambda route: answer_late(route) if route.request.method == "POST" else route.continue_(),
    )
    editor.goto(f"{live_server.url}/en/games/{game.editor_token}/")
    stream_held(editor)
    asked_before = len(editor.versions)
    record_deal_1(editor)
    expect(editor.locator(".sheet tbody tr")).to_have_count(1)
    # The save answered, live.js lets the event's wait go (its loop resumes): what it would
    # ask for then, it asks in that very step.
    editor.wait_for_function("() => window.scorepadLive.saving === 0")
    assert editor.evaluate("() => window.scorepadLive.loop().fetches") == 0
    assert len(editor.versions) == asked_before
    # Another phone's change is still fetched at once.
    record_classic(game, 2)
    expect(editor.locator(".sheet tbody tr")).to_have_count(2)
    assert len(editor.versions) == asked_before + 1


class HeldAnswer:
    """The next request to ``pattern`` once armed: sent on to the server at once (its answer
    is what the server holds then), its answer held back until ``release``."""

    def __init__(self, phone, pattern: str):
        self.phone = phone
        self.armed = False
        self.held: list = []
        phone.route(re.compile(pattern), self.handle)

    def handle(self, route):
        if not self.armed or self.held:
            route.continue_()
            return
        self.held.append((route, route.fetch()))
        self.phone.evaluate("() => { window.answerHeld = true; }")  # for wait()

    def wait(self) -> None:
        """Until the phone asked and the server's answer is held."""
        self.phone.wait_for_function("() => window.answerHeld === true")
        assert self.held

    def release(self) -> None:
        self.armed = False
        route, answer = self.held.pop()
        route.fulfill(response=answer)


@pytest.mark.parametrize("where", ["sheet", "table"])
def test_two_changes_close_together_the_phone_ends_at_the_newest(
    streams, phones, live_server, where
):
    """Another phone sends two deals close together: the event of the second comes while
    the fetch of the first is still loading (its answer held here until that event came,
    and read by the server before the second deal). The phone fetches again after it and
    shows the second deal: the editor's sheet, and table mode. (Before, the second fetch was
    queued by htmx and dropped with the element the first answer replaced, and the stream
    held the polls back: a deal behind until reloaded.)"""
    game = GameFactory(players=["Anna", "Ben", "Cleo"])
    phone = phones()
    phone.add_init_script(HEARD)
    if where == "sheet":
        held = HeldAnswer(phone, r"/games/[^/]+/version\?")
        phone.goto(f"{live_server.url}/en/games/{game.editor_token}/")
        stream_held(phone)
        shown = phone.locator(".sheet tbody tr")
    else:
        held = HeldAnswer(phone, r"/table/version\?")
        # Its first event asks its version check once (nothing changed): not the one held.
        with phone.expect_response(lambda r: "/table/version?" in r.url):
            phone.goto(f"{live_server.url}/en/games/{game.viewer_token}/table/")
        stream_held(phone)
        shown = phone.locator(".tm-deal")
    held.armed = True
    record_classic(game, 1)
    game.refresh_from_db()
    heard(phone, game.version)
    held.wait()  # the fetch of deal 1, answered by the server, held on its way back
    record_classic(game, 2)
    game.refresh_from_db()
    heard(phone, game.version)
    held.release()
    if where == "sheet":
        expect(shown).to_have_count(2)
    else:
        expect(shown).to_have_text(re.compile(r"\b3\b"))
    assert phone.evaluate("window.scorepadLive.open")


def test_a_replaced_link_is_said_on_the_phone_that_follows_it(streams, phones, live_server):
    game = GameFactory(players=["Anna", "Ben"])
    viewer = phones()
    viewer.goto(f"{live_server.url}/en/games/{game.viewer_token}/")
    stream_held(viewer)
    game.replace_link("viewer", version=game.version, once="replace-e2e", actor=ACTOR)
    expect(viewer.get_by_text("This link was replaced on another phone")).to_be_visible()


def test_an_evening_page_follows_the_deals_of_its_games(streams, phones, live_server):
    game = GameFactory(players=["Anna", "Ben"])
    evening = Evening.objects.create(stake=Decimal("0.10"), name="Friday")
    EveningGame.objects.create(evening=evening, game=game, stake=Decimal("0.10"), position=1)
    phone = phones()
    phone.goto(f"{live_server.url}/en/evenings/{evening.viewer_token}/")
    stream_held(phone)
    before = phone.locator(".sheet tbody").inner_text()
    record_classic(game, 0, jokers=1)  # Anna goes out: Ben pays, the money changes
    expect(phone.locator("[data-live-id]")).to_have_attribute("data-live-id", "1.2")
    assert phone.locator(".sheet tbody").inner_text() != before


def test_with_streams_off_the_phones_poll_as_before(phones, live_server, settings):
    settings.LIVE_STREAMS = False
    game = GameFactory(players=["Anna", "Ben"])
    viewer = phones()
    viewer.goto(f"{live_server.url}/en/games/{game.viewer_token}/")
    assert viewer.locator("[data-live]").count() == 0
    record_classic(game, 1)
    expect(viewer.locator(".sheet tbody tr")).to_have_count(1)
    assert not viewer.evaluate("window.scorepadLive")  # live.js is not even loaded


@pytest.fixture
def buffering_proxy():
    """A port that takes the stream's request and never answers: a proxy that buffers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    held = []

    def accept():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)

    threading.Thread(target=accept, daemon=True).start()
    yield server.getsockname()[1]
    server.close()
    for conn in held:
        conn.close()


def test_a_stream_a_proxy_holds_back_falls_back_to_polling(
    phones, live_server, settings, buffering_proxy
):
    settings.LIVE_STREAMS = True
    settings.LIVE_PORT = str(buffering_proxy)
    game = GameFactory(players=["Anna", "Ben"])
    viewer = phones()
    viewer.goto(f"{live_server.url}/en/games/{game.viewer_token}/")
    record_classic(game, 1)
    expect(viewer.locator(".sheet tbody tr")).to_have_count(1)  # by its 3 s polls
    assert not viewer.evaluate("window.scorepadLive.open")


def test_table_mode_follows_the_stream_not_its_polls(streams, phones, live_server):
    """The screen in the middle of the table holds the stream: its own 3 s version checks are
    dropped meanwhile, and a deal shows through it."""
    game = GameFactory(players=["Anna", "Ben", "Cleo"])
    screen = phones()
    screen.add_init_script(POLLS)
    paused_clock(screen)  # its 3 s checks come due when the test runs its clock on
    checks = []
    screen.on("request", lambda r: checks.append(r.url) if "/table/version?" in r.url else None)
    screen.goto(f"{live_server.url}/de/games/{game.viewer_token}/table/")
    stream_held(screen)
    # The first event's check, made when the stream opened, answered.
    screen.wait_for_function(
        "() => { const s = window.scorepadLive.loop(); return s.fetches === 1 && !s.loading; }"
    )
    asked_before = len(checks)
    screen.clock.run_for(12_000)  # four 3 s checks come due
    # The round trip after the clock's: a request those timers sent has been reported.
    assert screen.evaluate("() => window.__polls.dropped") == 4
    assert len(checks) == asked_before, checks
    record_classic(game, 1)  # Ben goes out on another phone
    # Shown through the stream: the page's clock stands, no 3 s check comes due.
    expect(screen.locator(".tm-deal")).to_have_text(re.compile(r"\b2\b"), timeout=10_000)
    assert screen.evaluate("window.scorepadLive.open")


# How many "beat" events the page's stream brought, counted as each comes (before live.js
# hears it).
BEATS = """(() => {
  const Source = window.EventSource;
  if (!Source) return;
  window.beats = 0;
  window.EventSource = class extends Source {
    constructor(url, options) {
      super(url, options);
      this.addEventListener("beat", () => { window.beats += 1; });
    }
  };
})();"""


def test_a_stream_that_falls_silent_is_counted_lost_and_the_phone_polls(
    phones, live_server, settings
):
    """The stream process stops answering while the connection stays open (here: stopped
    with SIGSTOP): the page misses the stream's beats, fetches its sheet, tries a new stream
    (which brings nothing either) and polls every 3 s; another phone's deal shows."""
    import signal

    from tests.live_process import StreamProcess

    game = GameFactory(players=["Anna", "Ben", "Cleo"])
    with StreamProcess(LIVE_HEARTBEAT="0.5") as process:
        settings.LIVE_STREAMS = True
        settings.LIVE_PORT = str(process.port)
        viewer = phones()
        viewer.add_init_script(BEATS)
        paused_clock(viewer)  # the page's watch over the beats runs on when the test says
        viewer.goto(f"{live_server.url}/en/games/{game.viewer_token}/")
        stream_held(viewer)
        # Beats come (every 0.5 s of real time) and the stream stays held: after each of
        # three, 1 s of the page's time, 3 s in all, twice the 1.5 s its watch allows
        # without one.
        for _ in range(3):
            beats = viewer.evaluate("() => window.beats")
            viewer.wait_for_function("n => window.beats > n", arg=beats)
            viewer.clock.run_for(1_000)
            assert viewer.evaluate("window.scorepadLive.open")
            assert not viewer.evaluate("window.scorepadLive.lost")
        process.process.send_signal(signal.SIGSTOP)
        viewer.clock.resume()  # from here the page's time is the real one
        try:
            viewer.wait_for_function("() => window.scorepadLive.lost >= 1", timeout=5000)
            assert not viewer.evaluate("window.scorepadLive.open")
            record_classic(game, 1)
            expect(viewer.locator(".sheet tbody tr")).to_have_count(1, timeout=12_000)
        finally:
            process.process.send_signal(signal.SIGCONT)


@pytest.mark.every_database
def test_a_polish_link_opens_in_spanish_and_its_sheet_still_comes_pushed(
    streams, browser, live_server
):
    """Issue 45, item 5: the editor shares the Polish link; a Spanish phone (its browser's
    language) opens it in Spanish, a Polish phone in Polish, and both follow the editor's
    deals: the redirect is the page's alone, never its stream's or its sheet's."""
    from tests.e2e.conftest import PHONE

    game = GameFactory(players=["Kasia", "Marek", "Anna"])
    opened = []

    def phone(locale: str):
        context = browser.new_context(viewport=PHONE, has_touch=True, locale=locale)
        opened.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        return page

    try:
        editor, spanish, polish = phone("pl-PL"), phone("es-ES"), phone("pl-PL")
        shared = f"{live_server.url}/pl/games/{game.viewer_token}/"
        editor.goto(f"{live_server.url}/pl/games/{game.editor_token}/")
        spanish.goto(shared)
        polish.goto(shared)
        assert spanish.url == f"{live_server.url}/es/games/{game.viewer_token}/"
        expect(spanish.locator("html")).to_have_attribute("lang", "es")
        expect(polish.locator("html")).to_have_attribute("lang", "pl")
        for page in (editor, spanish, polish):
            stream_held(page)
        with translation.override("pl"):
            title, save = gettext("Record deal %(n)s") % {"n": 1}, gettext("Save")
        editor.get_by_role("link", name=title).click()
        editor.locator(".deal-form label.chip", has_text="Marek").first.click()
        editor.get_by_role("button", name=save, exact=True).click()
        for page in (spanish, polish):
            expect(page.locator(".sheet tbody tr")).to_have_count(1)
        with translation.override("es"):
            expect(spanish.locator(".deal-now")).to_contain_text(gettext("Deal %(n)s") % {"n": 2})
    finally:
        for context in opened:
            context.close()
