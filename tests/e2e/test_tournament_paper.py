"""A tournament's paper printed by Debian's Chromium (Playwright's page.pdf): thirteen Rommé
players at tables of 4, 3, 3 and 3 give four table cards, four score sheets (a page each)
and a ranking; under print media the app's bar is gone, each card shows its table's number,
its game's QR code and its players, and the page is black on white even in dark mode. The
paper pages and the tournament's page with its ranking to share have no axe violations and
write nothing to the console."""

import json
import re

import pytest
from playwright.sync_api import expect

from scorepad.models import Table, Tournament
from tests.e2e.conftest import screenshot
from tests.e2e.test_accessibility import axe_violations
from tests.e2e.test_console import watch
from tests.factories import ACTOR, record_penalty

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gro", "Hal", "Ida", "Jon", "Kari",
         "Liv", "Mats"]  # fmt: skip


def pdf_pages(pdf: bytes) -> int:
    """The pages of a PDF: its /Type /Page objects (not the /Pages tree)."""
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


@pytest.fixture
def club():
    """Series 1 of 2 seated (13 Rommé players: 4, 3, 3, 3), every table played out and
    confirmed, so the ranking after series 1 is whole."""
    tournament = Tournament.objects.create(name="Club night", variant_id="romme", series=2, deals=1)
    tournament.start(actor=ACTOR, details={"name": tournament.name})
    for name in NAMES:
        tournament.refresh_from_db()
        tournament.enter(name, version=tournament.version, once=None, actor=ACTOR)
    tournament.refresh_from_db()
    tournament.propose(version=tournament.version, once=None, actor=ACTOR)
    tournament.start_series(version=tournament.version, once=None, actor=ACTOR)
    tournament.refresh_from_db()
    for table in tournament.tables_of(1):
        seats = list(table.game.seats.order_by("position"))
        record_penalty(table.game, 0, {s.position: 10 * s.position for s in seats[1:]})
        table.game.refresh_from_db()
        Table.objects.filter(pk=table.pk).update(confirmed_version=table.game.version)
    return tournament


def test_the_table_cards_print_a_page_a_table(page, club):
    tables = club.tables_of(1)
    assert [len(t.seated.all()) for t in tables] == [4, 3, 3, 3]
    page.goto(f"{page.base}/en/tournaments/{club.editor_token}/")
    page.get_by_role("link", name="Table cards to print").click()
    page.emulate_media(media="print")
    expect(page.locator(".top")).to_be_hidden()
    expect(page.locator(".paper-bar")).to_be_hidden()
    cards = page.locator(".table-card")
    expect(cards).to_have_count(4)
    for i, table in enumerate(tables):
        card = cards.nth(i)
        expect(card.get_by_role("heading")).to_have_text(f"Table {table.number}")
        expect(card.locator("svg.qr")).to_be_visible()
        expect(card.locator(".table-card-names li")).to_have_text(
            [s.entrant.name for s in table.seated.all()]
        )
        assert f"/games/{table.game.editor_token}/" in card.inner_text()
    # Each card begins a page: the number is big, the QR code large enough to scan.
    assert cards.nth(1).evaluate("e => getComputedStyle(e).breakBefore") == "page"
    size = float(cards.first.locator(".table-card-number").evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"))  # fmt: skip
    assert size >= 96
    assert cards.first.locator("svg.qr").bounding_box()["width"] >= 300  # 90 mm at 96 dpi
    screenshot(page, "tournament-cards-print")
    assert pdf_pages(page.pdf(format="A4")) == 4


def test_the_paper_sheets_print_a_page_a_table(page, club):
    page.goto(f"{page.base}/en/tournaments/{club.viewer_token}/print/sheets/")
    page.emulate_media(media="print")
    expect(page.locator(".paper-bar")).to_be_hidden()
    sheets = page.locator(".paper-sheet")
    expect(sheets).to_have_count(4)
    first = club.tables_of(1)[0]
    expect(sheets.first.locator("thead th")).to_have_text(
        ["Deal", *[s.entrant.name for s in first.seated.all()]]
    )
    expect(sheets.first.locator("tbody tr")).to_have_count(1)  # the series' one deal
    expect(sheets.first.locator("tfoot th")).to_have_text("Total")
    expect(sheets.first.locator(".signature")).to_be_visible()
    screenshot(page, "tournament-sheets-print")
    assert pdf_pages(page.pdf(format="A4")) == 4


def test_the_ranking_prints_black_on_white_even_in_dark_mode(dark_page, club):
    page = dark_page
    page.goto(f"{page.base}/en/tournaments/{club.viewer_token}/")
    page.get_by_role("link", name="The ranking to print").click()
    page.emulate_media(media="print", color_scheme="dark")
    expect(page.locator(".paper-bar")).to_be_hidden()  # paper.css is in
    expect(page.locator(".lead")).to_contain_text("Standings after series 1 of 2")
    rows = page.locator(".paper-ranking tbody tr")
    expect(rows).to_have_count(13)
    ranking = Tournament.objects.get().ranked(through=1)
    names = dict(enumerate(NAMES, start=1))
    expect(rows.locator("td:nth-child(3)")).to_have_text([names[r.player] for r in ranking.rows])
    expect(rows.first.locator("td").nth(3)).to_have_text("3")  # S1: first at the table
    colours = page.evaluate(
        "() => [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]"
    )
    assert colours == ["rgb(255, 255, 255)", "rgb(0, 0, 0)"]
    expect(page.locator(".top")).to_be_hidden()
    screenshot(page, "tournament-ranking-print")
    pdf = page.pdf(format="A4")
    assert pdf_pages(pdf) == 1


def paper_pages(tournament) -> list[str]:
    """The tournament's pages with its paper and its ranking to share, in four languages."""
    director, viewer = tournament.editor_token, tournament.viewer_token
    return [
        f"/en/tournaments/{director}/",
        f"/pl/tournaments/{viewer}/",
        f"/de/tournaments/{director}/print/cards/",
        f"/fi/tournaments/{viewer}/print/sheets/",
        f"/es/tournaments/{viewer}/print/ranking/",
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_paper_pages_have_no_axe_violations(browser, live_server, club, scheme):
    found = {}
    for path in paper_pages(club):
        violations = axe_violations(browser, live_server.url + path, scheme)
        if violations:
            found[path] = violations
    assert found == {}, json.dumps(found, indent=1)


def test_the_paper_pages_write_nothing_to_the_console(page, club):
    """No error and no CSP violation: the inline QR codes, the share box's script."""
    said = watch(page)
    for path in paper_pages(club):
        page.goto(page.base + path)
        page.wait_for_load_state("networkidle")
    # The share box of the ranking after series 1: its text and its picture as a PNG.
    page.goto(f"{page.base}/en/tournaments/{club.viewer_token}/")
    expect(page.locator("[data-result-text]")).to_contain_text("Standings after series 1 of 2.")
    expect(page.locator("[data-result-download]")).to_have_attribute(
        "download", re.compile(r"\.png$")
    )
    assert said == [], said
