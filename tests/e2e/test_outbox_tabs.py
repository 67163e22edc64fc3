"""The outbox (static/js/outbox.js) in a real browser, with tabs of one phone: a closed tab's
kept deals are sent by the tab still open, and two tabs that come back online together send
each kept write once (a Web Lock). The module's own cases run in node (tests/js/)."""

from urllib.parse import parse_qs

import pytest
from playwright.sync_api import expect

from scorepad.models import Game
from tests.e2e.conftest import PHONE
from tests.factories import GameFactory, record_classic

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.every_database,  # the database changes what the phones see: tests/databases.py
    pytest.mark.django_db(transaction=True),
]


def phone_with_tabs(browser, url: str, tabs: int):
    """One phone (a browser context, no service worker) with ``tabs`` tabs on ``url``, and the
    one-time tokens of every write its outboxes post, in order."""
    context = browser.new_context(viewport=PHONE, has_touch=True, service_workers="block")
    posted: list[str] = []

    def seen(request):
        if request.method == "POST" and request.headers.get("x-scorepad-outbox") == "1":
            posted.append(parse_qs(request.post_data or "")["once"][0])

    context.on("request", seen)
    pages = []
    for _ in range(tabs):
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(url)
        pages.append(page)
    return context, pages, posted


def record_offline(page, number: int, winner: str) -> None:
    # "Record deal" says the deal after those this phone keeps (another tab's too, once this
    # one looked at the outbox again): the form is numbered as it opens.
    page.locator("#sheet .actions a.button.big").click()
    expect(page.locator("#panel-title")).to_have_text(f"Record deal {number}")
    page.locator(".deal-form label.chip", has_text=winner).click()
    page.locator(".deal-form").get_by_role("button", name="Save").click()
    expect(page.locator("#panel")).to_have_count(0)


def winners(game: Game) -> list[str]:
    game = Game.objects.get(pk=game.pk)
    names = {seat.position: seat.name for seat in game.seats.all()}
    return [names[d.went_out] for d in game.deals.order_by("number")]


@pytest.fixture
def game():
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    record_classic(game, 0)
    record_classic(game, 1)
    return game


def test_a_closed_tabs_kept_deals_are_sent_by_the_tab_still_open(browser, live_server, game):
    url = f"{live_server.url}/en/games/{game.editor_token}/"
    context, (closed, still_open), posted = phone_with_tabs(browser, url, 2)
    context.set_offline(True)
    record_offline(closed, 3, "Cleo")
    record_offline(closed, 4, "Dan")
    expect(closed.locator(".outbox-count")).to_have_text("Waiting to be sent (2)")
    closed.close()
    assert winners(game) == ["Anna", "Ben"]  # nothing reached the server

    context.set_offline(False)
    expect(still_open.locator("#sheet tbody tr:not(.pending)")).to_have_count(4, timeout=25_000)
    expect(still_open.locator(".outbox")).to_be_hidden()
    assert winners(game) == ["Anna", "Ben", "Cleo", "Dan"]
    assert len(posted) == 2
    context.close()


def test_two_tabs_back_online_together_send_each_kept_deal_once(browser, live_server, game):
    url = f"{live_server.url}/en/games/{game.editor_token}/"
    context, (left, right), posted = phone_with_tabs(browser, url, 2)
    context.set_offline(True)
    record_offline(left, 3, "Cleo")
    record_offline(left, 4, "Dan")
    record_offline(left, 5, "Anna")
    expect(left.locator(".outbox-count")).to_have_text("Waiting to be sent (3)")

    context.set_offline(False)  # both tabs hear "online" and send
    for page in (left, right):
        expect(page.locator("#sheet tbody tr:not(.pending)")).to_have_count(5, timeout=25_000)
    expect(left.locator(".outbox")).to_be_hidden()
    assert winners(game) == ["Anna", "Ben", "Cleo", "Dan", "Anna"]
    assert len(posted) == 3, f"a write was posted twice: {posted}"
    assert len(set(posted)) == 3
    context.close()
