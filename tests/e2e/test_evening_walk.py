"""The whole evening, walked in Chromium in Norwegian with two phones and the live streams
on: a game is started on one phone, the other opens its editor link, both record deals and
see each other's at once, a player is renamed and another joins, the same deal is corrected
on both phones at once, the game goes into an evening whose balances are carried to the
next one, a second game is settled there, and the first game is exported as JSON and
imported on the other phone. Each step is checked as a person sees it: the words in
Norwegian, the names, the money, the sheet of the other phone."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from scorepad.models import Evening, EveningGame, Game
from tests.e2e.conftest import PHONE

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.every_database,  # the database changes what the phones see: tests/databases.py
    pytest.mark.django_db(transaction=True),
]

LANG = "nb"


def nb(text: str, **values) -> str:
    with translation.override(LANG):
        said = gettext(text)
    return said % values if values else said


def phone(browser, live_server):
    context = browser.new_context(viewport=PHONE, has_touch=True, locale="nb-NO")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.base = f"{live_server.url}/{LANG}"
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return page


def stream_held(page) -> None:
    page.wait_for_function("() => window.scorepadLive && window.scorepadLive.open")


def start_game(page, names: list[str]) -> Game:
    page.goto(f"{page.base}/games/new/")
    expect(page.locator("html")).to_have_attribute("lang", LANG)
    for name in names:
        page.locator("#id_name").fill(name)
        page.locator('button[name="op"][value="add"]').click()
        expect(page.locator('input[name="seat"]')).to_have_count(names.index(name) + 1)
    page.locator('input[name="variant"][value="classic"]').check()
    page.locator('input[name="first_dealer"][value="0"]').check()
    page.locator('button[name="op"][value="start"]').click()
    expect(page.locator("#sheet")).to_be_visible()
    return Game.objects.order_by("-pk").first()


def record(page, number: int, went_out: str) -> None:
    page.get_by_role("link", name=nb("Record deal %(n)s", n=number)).first.click()
    expect(page.locator("#panel-title")).to_have_text(nb("Record deal %(n)s", n=number))
    page.locator(".deal-form .went-out label.chip", has_text=went_out).click()
    page.locator(".deal-form").get_by_role("button", name=nb("Save"), exact=True).click()
    expect(page.locator("#game .messages")).to_contain_text(nb("Deal %(n)d recorded.", n=number))


def totals(page) -> list[str]:
    """The sheet's totals row, seat by seat."""
    return [t.strip() for t in page.locator(".sheet tfoot td").all_inner_texts()]


def names(page) -> list[str]:
    """The players' names over the sheet (written in full, or shortened with the full name
    beside it)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.sheet thead th:not(.num)')].map(
            (th) => (th.querySelector('.name, .who-full').textContent || '').trim())"""
    )


def money(text: str) -> Decimal:
    """An amount as the page writes it in Norwegian ("+2,20", "−1,10", "0")."""
    kept = "".join(c for c in text.replace("\u2212", "-").replace(",", ".") if c in "+-.0123456789")
    return Decimal(kept)


def standings(page) -> dict[str, Decimal]:
    rows = page.locator(".standings li")
    return {
        row.locator(".who").inner_text(): money(row.locator(".total").inner_text())
        for row in rows.all()
    }


def test_an_evening_walked_in_norwegian_on_two_phones(browser, live_server, streams):
    a, b = phone(browser, live_server), phone(browser, live_server)

    # Phone A starts the game; phone B opens its editor link from the share page.
    game = start_game(a, ["Anna", "Ben", "Cleo", "Dora"])
    a.locator(".game-nav").get_by_role("link", name=nb("Share"), exact=True).click()
    editor_link = a.locator("#share-editor ~ p.link a").inner_text()
    assert game.editor_token in editor_link
    assert f"/{LANG}/" in editor_link
    b.goto(editor_link)
    a.goto(f"{a.base}/games/{game.editor_token}/")
    for p in (a, b):
        stream_held(p)
        expect(p.locator(".empty-sheet")).to_contain_text("Anna, Ben, Cleo, Dora")

    # Both phones record; each sees the other's deal without a reload.
    record(a, 1, "Ben")
    expect(b.locator(".sheet tbody tr")).to_have_count(1)
    assert names(b) == ["Anna", "Ben", "Cleo", "Dora"]
    record(b, 2, "Cleo")
    expect(a.locator(".sheet tbody tr")).to_have_count(2)
    expect(a.locator("#table-bar .connection")).to_have_text(nb("Sheet updated."))

    # Ben is renamed on A: B's sheet and the history say Benny; the deals keep their scores.
    before = totals(b)
    a.locator(".game-nav").get_by_role("link", name=nb("Players and target")).click()
    a.locator("#rename-1").fill("Benny")
    a.locator("#rename-1 ~ button").click()
    expect(a.locator(".messages")).to_contain_text(
        nb("%(before)s is now called %(after)s.", before="Ben", after="Benny")
    )
    expect(b.locator(".sheet thead th").nth(2)).to_contain_text("Benny")
    assert totals(b) == before
    b.locator(".game-nav").get_by_role("link", name=nb("History")).click()
    history = b.locator("main")
    expect(history).to_contain_text(
        nb("%(before)s is now called %(after)s.", before="Ben", after="Benny")
    )
    # Deal 1, which Ben won before the rename, is Benny's in the history too.
    expect(history).to_contain_text(f"Benny {nb('went out')}")
    expect(history).not_to_contain_text(f"Ben {nb('went out')}")

    # Emil joins on B, from the next deal, at 0 (the stake game).
    b.goto(f"{b.base}/games/{game.editor_token}/players/")
    b.get_by_label(nb("Name"), exact=True).fill("Emil")
    b.get_by_role("button", name=nb("Add to the table")).click()
    expect(b.locator(".seat-list li")).to_have_count(5)
    a.goto(f"{a.base}/games/{game.editor_token}/")
    stream_held(a)
    assert names(a) == ["Anna", "Benny", "Cleo", "Dora", "Emil"]
    b.goto(f"{b.base}/games/{game.editor_token}/")
    stream_held(b)
    record(a, 3, "Emil")
    expect(b.locator(".sheet tbody tr")).to_have_count(3)

    # Both phones correct deal 3 at once: A says Dora went out, B adds a joker.
    for p in (a, b):
        p.get_by_role("link", name=nb("Correct deal %(n)s", n=3)).click()
        expect(p.locator("#panel-title")).to_have_text(nb("Correct deal %(n)s", n=3))
    a.locator(".deal-form .went-out label.chip", has_text="Dora").click()
    a.locator(".deal-form").get_by_role("button", name=nb("Save"), exact=True).click()
    expect(a.locator("#game .messages")).to_contain_text(nb("Deal %(n)d corrected.", n=3))
    b.locator('.deal-form label[for="id_jokers_1"]').click()
    b.locator(".deal-form").get_by_role("button", name=nb("Save"), exact=True).click()
    with translation.override(LANG):
        conflict = gettext(
            "Another phone corrected deal %(n)d while you were entering this. The form now "
            "shows its correction with your changes on top. Check and save again."
        ) % {"n": 3}
    expect(b.locator("#game .message.error")).to_contain_text(conflict[:40])
    b.locator(".deal-form").get_by_role("button", name=nb("Save"), exact=True).click()
    expect(b.locator("#game .messages")).to_contain_text(nb("Deal %(n)d corrected.", n=3))
    third = game.deals.get(number=3)
    # A's correction kept (Dora, seat 3, went out), B's joker on top of it.
    assert third.went_out == 3
    assert third.entry.get("jokers") in (1, "1"), third.entry
    expect(a.locator(".sheet tbody tr")).to_have_count(3)
    expect(a.locator(".sheet tfoot td")).to_have_text(totals(b))

    # The game ends and becomes an evening at 0.10 a point; its balances are carried.
    a.get_by_role("button", name=nb("End the game")).click()
    a.locator(".game-nav").get_by_role("link", name=nb("Evenings")).click()
    a.get_by_role("link", name=nb("Start an evening with this game")).click()
    a.get_by_label(nb("Money per point")).fill("0,10")
    a.get_by_role("button", name=nb("Start the evening")).click()
    first_evening = standings(a)
    assert sorted(first_evening) == ["Anna", "Benny", "Cleo", "Dora", "Emil"]
    assert sum(first_evening.values()) == 0
    assert any(first_evening.values())
    settle = a.locator(".transfers li").all_inner_texts()
    a.get_by_role("button", name=nb("Carry the balances to the next evening")).click()
    # The next evening's page, once the carry is saved (its transfers read as the last one's).
    expect(a.locator(".messages")).to_contain_text(
        nb("The balances were carried: the next evening starts here.")
    )
    expect(a.locator(".transfers li")).to_have_text(settle)
    assert standings(a) == first_evening
    following = Evening.objects.order_by("-pk").first()
    # A hands the next evening's editor link to B, as its page shows it.
    evening_link = a.locator(f'p.link a[href*="{following.editor_token}"]').first.inner_text()
    b.goto(evening_link)
    expect(b.locator(".standings li")).to_have_count(5)

    # Next week the same five play again on B and the game joins the carried evening: the
    # carried balances count once, beside the new game's money.
    again = start_game(b, ["Anna", "Benny", "Cleo", "Dora", "Emil"])
    record(b, 1, "Anna")
    second_game = dict(zip(names(b), (money(t) * Decimal("0.10") for t in totals(b)), strict=True))
    b.get_by_role("button", name=nb("End the game")).click()
    b.goto(f"{b.base}/games/{again.editor_token}/evenings/")
    b.get_by_label(nb("Money per point")).fill("0,10")
    b.get_by_role("button", name=nb("Add to this evening")).click()
    expect(b.locator(".messages")).to_contain_text(nb("The game was added to the evening."))
    assert EveningGame.objects.filter(evening=following).count() == 1
    b.goto(f"{b.base}/evenings/{following.editor_token}/")
    both = standings(b)
    assert both == {n: first_evening[n] + second_game[n] for n in first_evening}, (
        both,
        first_evening,
        second_game,
    )
    # A still shows the next evening: the game B added came to it live, with the money.
    assert following.editor_token in a.url
    expect(a.locator(".standings li .total")).to_have_text(
        b.locator(".standings li .total").all_inner_texts()
    )
    assert a.errors + b.errors == []

    # A exports the first game as JSON; B imports it: a new game with the same sheet.
    with a.expect_download() as download:
        a.goto(f"{a.base}/games/{game.editor_token}/")
        a.locator(".game-nav").get_by_role("link", name="JSON", exact=True).click()
    path = download.value.path()
    exported = json.loads(path.read_text(encoding="utf-8"))
    assert exported["players"] == ["Anna", "Benny", "Cleo", "Dora", "Emil"]
    b.goto(f"{b.base}/games/import/")
    b.locator('input[type="file"]').set_input_files(path)
    b.get_by_role("button", name=nb("Import"), exact=True).click()
    expect(b.locator(".messages")).to_contain_text(nb("Game imported."))
    imported = Game.objects.order_by("-pk").first()
    assert imported.pk not in (game.pk, again.pk)
    expect(b.locator(".sheet tbody tr")).to_have_count(3)
    expect(b.locator(".sheet tfoot td")).to_have_text(totals(a))
    assert a.errors + b.errors == []
