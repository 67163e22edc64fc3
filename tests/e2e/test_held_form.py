""" "Record deal" opens the form the sheet holds (templates/scorepad/game.html#offline) on the
phone itself, online too: no request for the form, the address the server's form would
show, a live update under it leaves it open, Save records the deal once, a reload opens the
server's form. In German, with the live streams on, as at a real table."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorepad.models import Game
from tests.factories import GameFactory, record_classic

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.every_database,  # the database changes what the phones see: tests/databases.py
    pytest.mark.django_db(transaction=True),
]


def form_fetches(requests: list[tuple[str, str]]) -> list[str]:
    """The GETs of a new deal's form itself (not its previews, which carry the fields)."""
    return [url for method, url in requests if method == "GET" and url.endswith("/deals/new/")]


def test_record_deal_opens_the_held_form_without_asking_the_server(streams, browser, live_server):
    from tests.e2e.conftest import PHONE

    game = GameFactory(players=["Anna", "Ben", "Cleo"])
    context = browser.new_context(viewport=PHONE, has_touch=True)
    phone = context.new_page()
    phone.set_default_timeout(10_000)
    requests: list[tuple[str, str]] = []
    phone.on("request", lambda r: requests.append((r.method, r.url)))
    sheet_url = f"{live_server.url}/de/games/{game.editor_token}/"
    phone.goto(sheet_url)
    phone.wait_for_function("() => window.scorepadLive && window.scorepadLive.open")

    phone.get_by_role("link", name="Runde 1 eintragen").click()
    expect(phone.locator("#panel-title")).to_have_text("Runde 1 eintragen")
    expect(phone).to_have_url(f"{sheet_url}deals/new/")
    # The sheet's own actions are not offered under an open form.
    expect(phone.locator("#sheet .actions")).to_be_hidden()
    form = phone.locator(".deal-form")
    form.locator("label.chip", has_text="Ben").first.click()
    expect(phone.locator("#preview")).to_contain_text("Ben")  # the server's preview answers
    form.get_by_role("button", name="Speichern").click()
    expect(phone.locator("#game .messages")).to_contain_text("Runde 1 eingetragen.")
    expect(phone).to_have_url(sheet_url)
    expect(phone.locator(".sheet tbody tr")).to_have_count(1)
    assert Game.objects.get(pk=game.pk).deals.count() == 1

    # The next form: another phone records deal 2 meanwhile; the stream brings it under the
    # open form, which stays open (and its message of deal 1 is gone).
    phone.get_by_role("link", name="Runde 2 eintragen").click()
    expect(phone.locator("#panel-title")).to_have_text("Runde 2 eintragen")
    expect(phone.locator("#game .messages")).not_to_contain_text("Runde 1 eingetragen.")
    record_classic(game, 2)
    expect(phone.locator(".sheet tbody tr")).to_have_count(2)
    expect(phone.locator("#panel-title")).to_have_text("Runde 2 eintragen")
    expect(phone.locator("#sheet .actions")).to_have_count(0)
    # Saved, it meets the deal the other phone recorded: the player chooses, nothing is lost.
    phone.locator(".deal-form label.chip", has_text="Anna").first.click()
    phone.locator(".deal-form").get_by_role("button", name="Speichern").click()
    expect(phone.locator("#panel-title")).to_have_text(
        "Eine weitere Runde oder noch einmal Runde 2?"
    )
    assert Game.objects.get(pk=game.pk).deals.count() == 2
    assert form_fetches(requests) == [], "the form was fetched from the server"

    # A reload of the form's address opens the server's form, as before.
    phone.goto(f"{sheet_url}deals/new/")
    expect(phone.locator("#panel-title")).to_have_text("Runde 3 eintragen")
    assert phone.locator('#panel input[name="csrfmiddlewaretoken"]').count() == 1
    context.close()
