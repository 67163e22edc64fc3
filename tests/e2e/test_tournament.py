"""A whole club tournament in the browser (issue 46), with four real pages: the director's,
two phones at one table and the big screen (the viewer link); every other player is a phone
driven over HTTP with Django's test client against the same live server.

Rommé, 13 players at tables of 4, 3, 3, 3, three series of two deals: two phones register
with the QR code's link, the director types the other names; at the phones' table one phone
records both deals on the score pad's deal form, the other rejects the result with a note,
the table corrects deal 2 and the other phone confirms; a late entry before series 2 (14
players: 4, 4, 3, 3), a drop-out before series 3 (13 again). The big screen follows the
standings, and the final ranking is checked against the test's own arithmetic: placement
points 3·(n − r)/(n − 1), ties sharing, the score against the table (the table's mean penalty
minus the player's), the best series, the lot (SHA-256 of ``seed/lot p/0``), drop-outs last.
A shorter one: the Nordic game, 13 players who enter by the registration link at 4, 4, 5.
"""

from __future__ import annotations

import hashlib
import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from rules.engine import tournament as engine
from rules.engine.variants import get_variant
from scorepad.models import Entrant, Game, Table, Tournament
from tests.e2e.conftest import PHONE
from tests.factories import penalty_form_data

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Anna", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gro", "Hugo", "Ida", "Jon", "Karl", "Lea",
    "Max", "Nina", "Olga", "Per", "Rut",
]  # fmt: skip


# --- the real pages --------------------------------------------------------------------------


def real_page(browser, live_server, width=PHONE["width"], height=PHONE["height"]):
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.base = f"{live_server.url}/en"
    return page


def set_up(director, variant: str, *, series: int, deals: str = "", minutes: str = "") -> None:
    director.goto(f"{director.base}/tournaments/new/")
    director.get_by_label("Name of the tournament").fill("Club night")
    director.locator(f'input[name="variant"][value="{variant}"]').check()
    director.get_by_label("Series", exact=True).fill(str(series))
    director.locator("#id_deals").fill(deals)
    director.locator("#id_minutes").fill(minutes)
    director.get_by_role("button", name="Set up the tournament").click()
    expect(director.locator(".messages")).to_contain_text("The tournament is set up")


def shown_seed(director) -> str:
    hint = director.locator("p.hint", has_text="Draws use the seed").inner_text()
    return re.search(r"seed (\d{6})", hint)[1]


def director_adds(director, name: str, number: int) -> None:
    director.get_by_label("Name", exact=True).fill(name)
    director.get_by_role("button", name="Add", exact=True).click()
    expect(director.locator(".messages")).to_contain_text(f"{name} has start number {number}.")


def seat_series(director, number: int, tables: int) -> None:
    """The director has the seating proposed, sees it, and starts the series as shown."""
    director.get_by_role("button", name=f"Propose the seating of series {number}").click()
    expect(director.locator(".messages")).to_contain_text(
        f"The seating of series {number} is proposed"
    )
    expect(director.locator(".next-seating .proposal li")).to_have_count(tables)
    director.get_by_role("button", name=f"Start series {number} as shown").click()
    expect(director.locator(".messages")).to_contain_text(
        f"Series {number} is seated: {tables} tables."
    )


def record_on_the_pad(phone, number: int, went_out: str, points: dict[str, int]) -> None:
    """One deal through the table game's deal form, as a person taps it."""
    phone.get_by_role("link", name=f"Record deal {number}").first.click()
    expect(phone.locator("#panel-title")).to_have_text(f"Record deal {number}")
    form = phone.locator(".deal-form")
    form.locator(".went-out label.chip", has_text=went_out).click()
    for name, value in points.items():
        form.get_by_label(f"{name} — penalty points", exact=True).fill(str(value))
    form.get_by_role("button", name="Save", exact=True).click()
    expect(phone.locator("#game .messages")).to_contain_text(f"Deal {number} recorded.")


def standings_rows(page) -> list[tuple[str, str, str]]:
    """(name, placement points, against the table) of each row, as the page shows them."""
    rows = []
    for row in page.locator(".tournament-standings tbody tr").all():
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        rows.append((cells[1], cells[2], cells[3]))
    return rows


# The rows as standings_rows reads them, in the page: the big screen is never reloaded, its
# live part brings each change (the stream's event, or its poll without the stream).
ROWS = """want => JSON.stringify(
  [...document.querySelectorAll('.tournament-standings tbody tr')].map(tr => {
    const cells = [...tr.querySelectorAll('td')].map(td => td.innerText.trim());
    return [cells[1], cells[2], cells[3]];
  })) === JSON.stringify(want)"""


def follows(page, expected: list[tuple[str, str, str]]) -> None:
    """The page comes to show ``expected`` by itself (waited for, at most 30 s)."""
    page.wait_for_function(ROWS, arg=[list(row) for row in expected], timeout=30_000)
    assert standings_rows(page) == expected


# --- the other players: HTTP ------------------------------------------------------------------


def _field(html: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]+)"', html)[1]


def http_record(recorder: Client, game: Game, went_out: int, points: dict[int, int]) -> None:
    game.refresh_from_db()
    url = reverse("deal-new", kwargs={"token": game.editor_token})
    answer = recorder.post(url, penalty_form_data(game, went_out, points))
    assert answer.status_code == 302, answer.content.decode()[:1000]


def http_confirm(entrant: Entrant, answer: str = "confirm", note: str = "") -> None:
    phone = Client()  # the player's own phone: not the one that recorded
    page = phone.get(reverse("tournament-player", kwargs={"token": entrant.token}))
    html = page.content.decode()
    data = {
        "version": _field(html, "version"),
        "once": _field(html, "once"),
        "answer": answer,
        "note": note,
    }
    url = reverse("tournament-confirm", kwargs={"token": entrant.token})
    said = phone.post(url, data, follow=True).content.decode()
    assert "Your table&#x27;s result is confirmed." in said, said[:2000]


def http_register(registration_token: str, name: str) -> None:
    phone = Client()
    url = reverse("tournament", kwargs={"token": registration_token})
    html = phone.get(url).content.decode()
    data = {"name": name, "version": _field(html, "version"), "once": _field(html, "once")}
    answer = phone.post(reverse("tournament-enter", kwargs={"token": registration_token}), data)
    assert answer.status_code == 302


# --- the test's own arithmetic ----------------------------------------------------------------


def deal_of(numbers: list[int], series: int, table: int, deal: int) -> tuple[int, dict[int, int]]:
    """The deal a table plays: who goes out (a seat) and every other seat's penalty, a
    multiple of 5 (so it is a penalty in the Nordic game too)."""
    went_out = (deal + series + table) % len(numbers)
    points = {
        seat: 5 * ((number * 3 + deal * 7 + series * 11 + table) % 12 + 1)
        for seat, number in enumerate(numbers)
        if seat != went_out
    }
    return went_out, points


def placement(totals: dict[str, int]) -> dict[str, Fraction]:
    """Placement points at one table: the lowest total first, 3·(n − r)/(n − 1) for place
    r, players tied sharing the mean of the places they span."""
    n = len(totals)
    got = {}
    for name, total in totals.items():
        place = 1 + sum(1 for t in totals.values() if t < total)
        tied = sum(1 for t in totals.values() if t == total)
        got[name] = Fraction(sum(3 * (n - r) for r in range(place, place + tied)), (n - 1) * tied)
    return got


def against_the_table(totals: dict[str, int]) -> dict[str, Fraction]:
    mean = Fraction(sum(totals.values()), len(totals))
    return {name: mean - total for name, total in totals.items()}


def lot(seed: str, number: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}/lot {number}/0".encode()).digest()[:8], "big")


def expected_ranking(
    series_totals: list[list[dict[str, int]]], numbers: dict[str, int], seed: str, dropped: set
) -> list[tuple[str, str, str]]:
    points: dict[str, Fraction] = dict.fromkeys(numbers, Fraction(0))
    relative: dict[str, Fraction] = dict.fromkeys(numbers, Fraction(0))
    best: dict[str, Fraction] = dict.fromkeys(numbers, Fraction(0))
    for tables in series_totals:
        for totals in tables:
            for name, got in placement(totals).items():
                points[name] += got
                best[name] = max(best[name], got)
            for name, got in against_the_table(totals).items():
                relative[name] += got
    order = sorted(
        numbers,
        key=lambda n: (n in dropped, -points[n], -relative[n], -best[n], lot(seed, numbers[n])),
    )

    def shown(value: Fraction) -> str:
        text = Decimal(value.numerator) / Decimal(value.denominator)
        return str(text.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))

    return [
        (name + (" dropped out" if name in dropped else ""), shown(points[name]),
         shown(relative[name]))
        for name in order
    ]  # fmt: skip


def seated(tournament: Tournament, series: int) -> list[tuple[Table, list[Entrant]]]:
    return [
        (table, [s.entrant for s in table.seated.all()]) for table in tournament.tables_of(series)
    ]


def totals_of(players: list[Entrant], deals: list[tuple[int, dict[int, int]]]) -> dict[str, int]:
    totals = dict.fromkeys((p.name for p in players), 0)
    for _, points in deals:
        for seat, value in points.items():
            totals[players[seat].name] += value
    return totals


# --- Rommé: three series, 13 players ----------------------------------------------------------


def test_a_romme_club_night_of_three_series_on_four_real_pages(browser, live_server):
    director = real_page(browser, live_server, 1024, 900)
    set_up(director, "romme", series=3, deals="2")
    tournament = Tournament.objects.get()
    seed = shown_seed(director)
    assert seed == tournament.seed
    # The first draw from the seed shown: the two phones enter as two players of table 1
    # (their start numbers), the director types the other names in start-number order.
    first = engine.draw(list(range(1, 14)), get_variant("romme"), seed, 1)
    assert [len(t) for t in first.tables] == [4, 3, 3, 3]
    anna_number, ben_number = sorted(first.tables[0][:2])
    anna, ben = (real_page(browser, live_server) for _ in range(2))
    names = enter_thirteen(director, {anna_number: ("Anna", anna), ben_number: ("Ben", ben)})
    expect(director.locator("#players-title")).to_have_text("13 players")
    viewer = director.locator("section.share p.link a").first.get_attribute("href")
    big_screen = real_page(browser, live_server, 1280, 720)
    big_screen.goto(viewer)
    expect(big_screen.locator("#players-title")).to_have_text("13 players")

    recorder = Client()  # the phone that records at every other table
    series_totals: list[list[dict[str, int]]] = []
    dropped: set[str] = set()
    for series in (1, 2, 3):
        # The tables confirmed from the players' phones since: the director's page is a
        # version behind (it would say so and offer the fresh page), so it is opened again.
        director.reload()
        if series == 2:  # a late entry before series 2: 14 players, 4, 4, 3, 3
            director_adds(director, "Nina", 14)
            names["Nina"] = 14
        if series == 3:  # a drop-out before series 3: 13 again, 4, 3, 3, 3
            director.get_by_role("button", name="Karl drops out").click()
            expect(director.locator(".messages")).to_contain_text("Karl has dropped out.")
            dropped.add("Karl")
        sizes = [4, 4, 3, 3] if series == 2 else [4, 3, 3, 3]
        seat_series(director, series, len(sizes))
        tournament.refresh_from_db()
        tables = seated(tournament, series)
        assert [len(players) for _, players in tables] == sizes
        everyone = sorted(p.name for _, players in tables for p in players)
        assert everyone == sorted(set(names) - dropped)  # each at exactly one table
        if series == 1:
            assert sorted(p.number for p in tables[0][1][:2]) == [anna_number, ben_number]
        phones = (director, anna, ben, recorder)
        totals_now = [play_table(phones, series, table, players) for table, players in tables]
        series_totals.append(totals_now)
        # The big screen shows the new standings by itself (its live part), never reloaded.
        expected = expected_ranking(series_totals, names, seed, dropped)
        follows(big_screen, expected)
    # The end: every series played, the final ranking as the test works it out.
    director.reload()
    expect(director.get_by_role("button", name=re.compile("Propose the seating"))).to_have_count(0)
    assert standings_rows(director) == expected
    assert expected[-1][0] == "Karl dropped out"  # ranked after all who played on


def enter_thirteen(director, phones: dict[int, tuple[str, object]]) -> dict[str, int]:
    """Thirteen players in start-number order: the phones' players enter by the QR code's
    link at their numbers, the director types the others' names; names and numbers."""
    registration = director.locator(".registration p.link a").get_attribute("href")
    names: dict[str, int] = {}
    others = iter(n for n in NAMES if n not in ("Anna", "Ben"))
    for number in range(1, 14):
        if number in phones:
            name, phone = phones[number]
            phone.goto(registration)  # the QR code on the director's screen
            phone.get_by_label("Your name").fill(name)
            phone.get_by_role("button", name="Enter", exact=True).click()
            expect(phone.locator("#player-title")).to_have_text(f"{name}, start number {number}")
        else:
            name = next(others)
            if number == 1 or number - 1 in phones:
                director.reload()  # a phone entered meanwhile: the page is a version behind
            director_adds(director, name, number)
        names[name] = number
    return names


def play_table(phones, series: int, table: Table, players: list[Entrant]) -> dict[str, int]:
    """One table's two deals and its confirmation; the totals entered, by name. Anna's phone
    records her table on the score pad, the recorder's over HTTP the others; Ben's phone
    confirms his table (at the phones' table in series 1 after a disagreement), a player of
    the table over HTTP the others."""
    director, anna, ben, recorder = phones
    numbers = [p.number for p in players]
    deals = [deal_of(numbers, series, table.number, d) for d in (1, 2)]
    at_table = {p.name for p in players}
    if "Anna" in at_table:
        anna.goto(f"{anna.base}/tournaments/players/{_token(players, 'Anna')}/")
        expect(anna.locator(".big-line")).to_have_text(
            f"Series {series}: you sit at table {table.number}"
        )
        anna.get_by_role("link", name="Open the table's game").click()
        for number, (out, points) in enumerate(deals, start=1):
            named = {players[s].name: v for s, v in points.items()}
            record_on_the_pad(anna, number, players[out].name, named)
        expect(anna.locator(".game-over").first).to_be_visible()
    else:
        for out, points in deals:
            http_record(recorder, table.game, out, points)
    if series == 1 and "Ben" in at_table:  # the phones' table disagrees, then agrees
        deals[1] = disagree_then_confirm(director, anna, ben, players, deals[1])
    elif "Ben" in at_table:
        ben.goto(f"{ben.base}/tournaments/players/{_token(players, 'Ben')}/")
        ben.get_by_role("button", name="The result is right").click()
        expect(ben.locator(".messages")).to_contain_text("Your table's result is confirmed.")
    else:
        http_confirm(next(p for p in players if p.name != "Anna"))
    totals = totals_of(players, deals)
    game = Game.objects.get(pk=table.game_id)
    assert [s.total for s in game.seats.order_by("position")] == [
        totals[p.name] for p in players
    ]  # the score pad added up what was entered
    return totals


def _token(players: list[Entrant], name: str) -> str:
    return next(p.token for p in players if p.name == name)


def disagree_then_confirm(director, anna, ben, players, second):
    """At the phones' table: Ben rejects the result with a note, the director sees it, Anna
    corrects deal 2 on the pad, Ben confirms. The corrected deal 2 is returned."""
    ben.goto(f"{ben.base}/tournaments/players/{_token(players, 'Ben')}/")
    expect(ben.get_by_role("button", name="The result is right")).to_be_visible()
    out, points = second
    wrong_seat = next(iter(points))
    wrong = players[wrong_seat].name
    note = f"Deal 2: {wrong} had {points[wrong_seat] + 5}"
    ben.get_by_label("Or say what is wrong").fill(note)
    ben.get_by_role("button", name="The result is wrong").click()
    expect(ben.locator(".messages")).to_contain_text("Your table's result is rejected")
    director.reload()
    table_line = director.locator("ol.tables li").first
    expect(table_line).to_contain_text(f"rejected: “{note}”")
    # Anna corrects deal 2 on the score pad.
    anna.get_by_role("link", name="Correct deal 2").click()
    expect(anna.locator("#panel-title")).to_have_text("Correct deal 2")
    corrected = dict(points)
    corrected[wrong_seat] += 5
    anna.locator(".deal-form").get_by_label(f"{wrong} — penalty points", exact=True).fill(
        str(corrected[wrong_seat])
    )
    anna.locator(".deal-form").get_by_role("button", name="Save", exact=True).click()
    expect(anna.locator("#game .messages")).to_contain_text("Deal 2 corrected.")
    # Ben's phone is not the one that made the last change: it confirms.
    ben.reload()
    expect(ben.locator("p.message.error")).to_contain_text(note)
    ben.get_by_role("button", name="The result is right").click()
    expect(ben.locator(".messages")).to_contain_text("Your table's result is confirmed.")
    director.reload()
    expect(table_line).to_contain_text("confirmed by Ben")
    return out, corrected


# --- the Nordic game: one series, 13 players at 4, 4, 5 --------------------------------------


def test_a_nordic_tournament_of_one_series_seats_four_four_five(browser, live_server):
    director = real_page(browser, live_server, 1024, 900)
    set_up(director, "contract-nordic", series=1, minutes="60")
    tournament = Tournament.objects.get()
    seed = shown_seed(director)
    names = {}
    for number, name in enumerate(NAMES[:13], start=1):
        http_register(tournament.registration_token, name)  # each phone scans the QR code
        names[name] = number
    director.reload()
    expect(director.locator("#players-title")).to_have_text("13 players")
    big_screen = real_page(browser, live_server, 1280, 720)
    big_screen.goto(director.locator("section.share p.link a").first.get_attribute("href"))
    seat_series(director, 1, 3)
    tournament.refresh_from_db()
    tables = seated(tournament, 1)
    assert [len(players) for _, players in tables] == [4, 4, 5]
    director.reload()
    for table, players in tables:
        line = director.locator("ol.tables li").nth(table.number - 1)
        expect(line).to_contain_text(", ".join(p.name for p in players))
    recorder = Client()
    totals_now = []
    for table, players in tables:
        numbers = [p.number for p in players]
        deals = [deal_of(numbers, 1, table.number, d) for d in range(1, 8)]  # the seven deals
        for out, points in deals:
            http_record(recorder, table.game, out, points)
        table.game.refresh_from_db()
        assert table.game.is_finished  # the seventh deal ends a contract game
        http_confirm(players[-1])
        totals_now.append(totals_of(players, deals))
    follows(big_screen, expected_ranking([totals_now], names, seed, set()))
    expect(big_screen.locator("ol.tables li").first).to_contain_text("confirmed by")
    # The director's page explains the tournament: its rules page, with the example.
    director.get_by_role("link", name="How the tournament works").click()
    expect(director.locator("h1")).to_have_text("Club tournament")
    expect(director.locator("table.rules-table.ranking").first).to_contain_text("the lot")
