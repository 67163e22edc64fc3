"""A correction without a connection to a deal whose players differ from the table's (issue
44): Eva joined after deal 1, so the form the sheet holds, made for the five at the table,
corrects deal 1 without her (her chip is not offered) and the correction is sent once the
connection is back; Cleo left after deal 1, so that form cannot correct deal 1 (it has no
control of hers), and the phone says why instead of "not kept on this phone"."""

import pytest
from playwright.sync_api import expect

from scorepad.models import Game
from tests.e2e.conftest import PHONE
from tests.factories import ACTOR, GameFactory, record_classic

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.every_database,  # replays and conflicts meet the database's locking
    pytest.mark.django_db(transaction=True),
]


def offline_editor(browser, live_server, game):
    """The editor's phone on plain http (no service worker: only what the page holds), its
    connection lost once the sheet is shown."""
    context = browser.new_context(viewport=PHONE, has_touch=True, service_workers="block")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/en/games/{game.editor_token}/")
    page.wait_for_function("() => !!window.ScorepadOfflineForm")
    expect(page.locator("#sheet tbody tr")).to_have_count(2)
    context.set_offline(True)
    return page


def winner_of_deal_1(game) -> str:
    game = Game.objects.get(pk=game.pk)
    deal = game.deals.get(number=1)
    return game.seats.get(position=deal.went_out).name


def test_a_deal_before_someone_joined_is_corrected_offline_without_them(browser, live_server):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    record_classic(game, 0)
    game.refresh_from_db()
    game.join("Eva", 0, version=game.version, once=None, actor=ACTOR)
    record_classic(game, 4)
    a = offline_editor(browser, live_server, game)

    a.get_by_role("link", name="Correct deal 1").click()
    expect(a.locator("#panel-title")).to_have_text("Correct deal 1")
    chips = a.locator(".deal-form fieldset.went-out label.chip:visible")
    expect(chips).to_have_text(["Anna", "Ben", "Cleo", "Dan", "Nobody: abandoned deal, no score"])
    a.locator(".deal-form label.chip", has_text="Ben").click()
    a.locator(".deal-form").get_by_role("button", name="Save").click()
    expect(a.locator(".outbox-entry .what")).to_have_text(["Correct deal 1 — Ben"])
    assert winner_of_deal_1(game) == "Anna"

    a.context.set_offline(False)
    expect(a.locator(".connection")).to_contain_text("Sent from this phone: 1.")
    assert winner_of_deal_1(game) == "Ben"
    assert Game.objects.get(pk=game.pk).events.filter(kind="edited").count() == 1


def test_a_deal_of_a_player_who_has_left_says_why_it_needs_a_connection(browser, live_server):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    record_classic(game, 0)
    game.refresh_from_db()
    game.seat_leaves(2, version=game.version, once=None, actor=ACTOR)
    record_classic(game, 1)
    a = offline_editor(browser, live_server, game)

    a.get_by_role("link", name="Correct deal 1").click()
    expect(a.locator(".connection")).to_have_text(
        "Someone who has left the table since played in deal 1: it can be corrected once the "
        "connection is back."
    )
    expect(a.locator("#panel")).to_have_count(0)
    a.get_by_role("link", name="Correct deal 2").click()  # Cleo was not in deal 2
    expect(a.locator("#panel-title")).to_have_text("Correct deal 2")
