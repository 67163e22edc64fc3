"""A tournament followed live in Chromium: the big screen (table mode) and a second phone (a
player's own page) change when a table's game ends and when it is confirmed, without a
reload, from the part the stream carries; the round clock shows the time left and counts
down in the browser (Playwright's clock), and says when the deal in play is the last."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from playwright.sync_api import expect

from scorepad.kernel import Actor
from scorepad.models import Entrant, Game, Table, Tournament
from tests.e2e.conftest import paused_clock
from tests.factories import ACTOR, record_penalty

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.every_database,
    pytest.mark.django_db(transaction=True),
]

NAMES = ("Anna", "Ben", "Cleo", "Dan")


def _seated(**fields) -> Tournament:
    """Four Rommé players at one table, series 1 seated (one deal a series)."""
    tournament = Tournament.objects.create(
        name="Club night", variant_id="romme", series=2, **{"deals": 1, **fields}
    )
    tournament.start(actor=ACTOR)
    for number, name in enumerate(NAMES, start=1):
        Entrant.objects.create(tournament=tournament, number=number, name=name)
    tournament.propose(version=tournament.version, once=None, actor=ACTOR)
    tournament.start_series(version=tournament.version, once=None, actor=ACTOR)
    return Tournament.objects.get(pk=tournament.pk)


def _url(live_server, name: str, token: str) -> str:
    with translation.override("en"):
        return live_server.url + reverse(name, kwargs={"token": token})


def _phone(browser, **options):
    from tests.e2e.conftest import PHONE

    context = browser.new_context(**{"viewport": PHONE, "has_touch": True, **options})
    phone = context.new_page()
    phone.set_default_timeout(10_000)
    return phone


def test_the_big_screen_and_a_second_phone_follow_a_table_to_its_confirmation(
    streams, browser, live_server
):
    tournament = _seated()
    table = Table.objects.get(tournament=tournament)
    seated = [s.entrant for s in table.seated.select_related("entrant")]
    screen = _phone(browser, viewport={"width": 1280, "height": 720})
    screen.goto(_url(live_server, "tournament-table", tournament.viewer_token))
    phone = _phone(browser)
    phone.goto(_url(live_server, "tournament-player", seated[1].token))
    for page in (screen, phone):
        page.wait_for_function("() => window.scorepadLive && window.scorepadLive.open")
        page.evaluate("window.__same = true")  # gone if the page were loaded again
        expect(page.locator("#tournament-live .table-state")).to_have_text("playing")
    expect(phone.locator("#player-block")).not_to_contain_text("The result is right")

    record_penalty(table.game, 0, {1: 10, 2: 20, 3: 30})  # the table's one deal: it ends
    for page in (screen, phone):
        expect(page.locator("#tournament-live .table-state")).to_have_text(
            "ended, waiting for a player to confirm"
        )
    # The player's own part is asked for once its table's state changed: it may confirm now.
    expect(phone.get_by_role("button", name="The result is right")).to_be_visible()
    # Only confirmed results count: no placement points yet.
    expect(screen.locator(".tournament-standings tbody tr").first).to_contain_text("0.00")

    tournament.refresh_from_db()
    tournament.confirm(
        table, seated[2], version=tournament.version, once=None, actor=Actor("player", "p3")
    )
    for page in (screen, phone):
        expect(page.locator("#tournament-live .table-state")).to_have_text(
            f"confirmed by {seated[2].name}"
        )
        rows = page.locator(".tournament-standings tbody tr")
        expect(rows).to_have_count(4)
        expect(rows.first).to_contain_text(seated[0].name)  # went out: first place
        expect(rows.first).to_contain_text("3.00")  # a table of four's first place
        assert page.evaluate("window.__same") is True
        assert page.evaluate("window.scorepadLive.pushed") >= 2  # carried, not asked for
    expect(phone.locator("#player-block")).to_contain_text(
        f"The result is confirmed by {seated[2].name}."
    )


def test_the_round_clock_counts_down_in_the_browser_and_says_when_time_is_up(browser, live_server):
    tournament = _seated(minutes=30, deals=10)
    # Seated ten seconds ago: 29:50 left.
    started = timezone.now() - timedelta(seconds=10)
    Tournament.objects.filter(pk=tournament.pk).update(series_started=started)
    Game.objects.filter(tournament_table__tournament=tournament).update(
        clock_ends=started + timedelta(minutes=30)
    )
    game = Table.objects.get(tournament=tournament).game
    screen = _phone(browser, viewport={"width": 1280, "height": 720})
    paused_clock(screen)
    screen.goto(_url(live_server, "tournament-table", tournament.viewer_token))
    clock = screen.locator("[data-clock]")
    expect(clock).to_have_text(re.compile(r"^Time left: 29:[45]\d$"))
    screen.clock.run_for(60_000)
    expect(clock).to_have_text(re.compile(r"^Time left: 28:[45]\d$"))
    screen.clock.run_for(29 * 60_000)
    expect(clock).to_have_text("Time is up: the deal in play is the last.")

    # The table's game shows the same clock, from its own page.
    phone = _phone(browser)
    paused_clock(phone)
    phone.goto(_url(live_server, "game", game.editor_token))
    expect(phone.locator("[data-clock]")).to_have_text(re.compile(r"^Time left: 29:[3-5]\d$"))
