"""Switching language keeps the reader on the same page: a game's sheet and a rules page."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import screenshot
from tests.factories import GameFactory, record_classic

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def switch_to(page, lang: str) -> None:
    page.locator(".lang summary").click()
    page.locator(f'.lang a[hreflang="{lang}"]').click()
    expect(page.locator("html")).to_have_attribute("lang", lang)


def test_switching_language_on_a_game_page_stays_on_that_game(page):
    game = GameFactory(players=["Anna", "Ben", "Cleo"])
    record_classic(game, 0, wild_twos=1, jokers=1)
    page.goto(f"{page.base}/en/games/{game.viewer_token}/")
    expect(page.locator("#sheet-title")).to_be_visible()
    switch_to(page, "de")
    assert page.url == f"{page.base}/de/games/{game.viewer_token}/"
    expect(page.locator("body")).to_contain_text("Anna")
    expect(page.locator(".deal-now")).to_contain_text("Runde 2")
    screenshot(page, "scorepad-viewer-de")
    switch_to(page, "pl")
    assert page.url == f"{page.base}/pl/games/{game.viewer_token}/"


def test_switching_language_on_a_rules_page_stays_on_those_rules(page):
    page.goto(page.base + "/fi/rules/contract-spanish/")
    switch_to(page, "es")
    assert page.url == page.base + "/es/rules/contract-spanish/"
    switch_to(page, "nb")
    assert page.url == page.base + "/nb/rules/contract-spanish/"


def test_the_language_chosen_last_opens_the_front_door(browser, live_server):
    context = browser.new_context(locale="fi-FI", extra_http_headers={"Accept-Language": "fi"})
    page = context.new_page()
    page.goto(live_server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "fi")
    switch_to(page, "es")
    page.goto(live_server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    assert page.url == live_server.url + "/es/"
    context.close()
