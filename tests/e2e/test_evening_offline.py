"""An evening's editor on a flaky connection: a game taken out of the evening without a
connection waits on the phone (the outbox, as a game's writes do) and is sent once when the
connection is back, and the page shows the evening as it is then; one that another phone's
change made stale is shown as a conflict, never applied."""

import pytest
from playwright.sync_api import expect

from scorepad.models import Evening
from tests.e2e.conftest import PHONE
from tests.factories import ACTOR
from tests.scorepad.test_grant_table import finished

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.every_database,  # replays and conflicts meet the database's locking
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def evening(db):
    """Friday's evening with two finished games (games 1 and 2 of its ledger)."""
    evening = Evening.objects.create(name="Friday", stake="0.10")
    evening.start(actor=ACTOR)
    for names in (["Anna", "Ben", "Cleo"], ["Anna", "Ben", "Dan"]):
        game = finished(names)
        evening.add_game(game, evening.stake, version=evening.version, once=None, actor=ACTOR)
    evening.refresh_from_db()
    return evening


def editor(browser, live_server, evening):
    """A phone on the evening's editor link (plain http on the table's network: the outbox
    needs no service worker)."""
    context = browser.new_context(viewport=PHONE, has_touch=True, service_workers="block")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/en/evenings/{evening.editor_token}/")
    expect(page.locator("h1")).to_have_text("Friday")
    page.wait_for_function("() => !!window.ScorepadOutbox")
    return page


def take_out(page, number: int) -> None:
    page.get_by_role("button", name=f"Take out · Game {number}").click()


def games_of(evening) -> list[str]:
    return [e.game.seats.order_by("position").last().name for e in evening.games.all()]


def test_a_game_taken_out_offline_waits_on_the_phone_and_is_sent_once(
    browser, live_server, evening
):
    a = editor(browser, live_server, evening)
    a.context.set_offline(True)
    take_out(a, 2)
    expect(a.locator(".connection")).to_have_text(
        "No connection — saved on this phone. Waiting to be sent (1)."
    )
    expect(a.locator(".outbox-entry")).to_contain_text("Take out · Game 2")
    expect(a.locator("#evening .evening-games li")).to_have_count(2)  # as it was
    assert games_of(evening) == ["Cleo", "Dan"]  # nothing reached the server

    a.context.set_offline(False)
    expect(a.locator(".connection")).to_contain_text("Sent from this phone: 1.")
    expect(a.locator(".outbox")).to_be_hidden()
    expect(a.locator("#evening .evening-games li")).to_have_count(1)  # the evening as it is
    expect(a.locator("#evening .history")).to_contain_text("Game taken out")
    assert games_of(evening) == ["Cleo"]
    a.reload()
    expect(a.locator("#evening .evening-games li")).to_have_count(1)
    assert evening.events.filter(kind="removed").count() == 1


def test_a_kept_write_made_stale_by_another_phone_waits_for_the_player(
    browser, live_server, evening
):
    a = editor(browser, live_server, evening)
    b = editor(browser, live_server, evening)
    a.context.set_offline(True)
    take_out(a, 2)
    expect(a.locator(".outbox-count")).to_have_text("Waiting to be sent (1)")

    take_out(b, 1)  # phone B, online, changes the evening first
    expect(b.locator("#evening .messages")).to_contain_text(
        "The game was taken out of the evening."
    )

    a.context.set_offline(False)
    entry = a.locator(".outbox-entry.attention")
    expect(entry).to_contain_text("Take out · Game 2")
    expect(entry.locator(".problem")).to_contain_text("another phone saved a change")
    expect(a.locator(".connection")).to_contain_text("needs you")
    assert games_of(evening) == ["Dan"]  # B's change stands, A's waits
    a.on("dialog", lambda dialog: dialog.accept())  # "Discard this change?"
    entry.get_by_role("button", name="Discard").click()
    expect(a.locator(".outbox")).to_be_hidden()
    assert games_of(evening) == ["Dan"]
