"""Long names and wide pages on a phone's screen (390 px): nothing sideways, no word cut."""

import json
import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from scorepad.models import Evening, EveningGame
from tests.e2e.conftest import PHONE, SCREENSHOTS, drawn
from tests.e2e.test_accessibility import axe_violations
from tests.e2e.test_console import watch
from tests.factories import ACTOR, CircleFactory, GameFactory, record_classic

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LONG = ["Maximiliane Friederike", "Bartholomäus", "Konstantinopolitanische", "Åsa"]


def fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width - PHONE['width']} px wider than the screen"


def words_whole(page, selector: str) -> None:
    """Each word of each element is on one line (a word cut in two makes two rects)."""
    cut = page.evaluate(
        """(selector) => {
          const cut = [];
          for (const el of document.querySelectorAll(selector)) {
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              const re = /\\S+/g; let m;
              while ((m = re.exec(node.data))) {
                const range = document.createRange();
                range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
                const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                if (tops.size > 1) cut.push(m[0]);
              }
            }
          }
          return cut;
        }""",
        selector,
    )
    assert cut == [], f"words cut across lines: {cut}"


def test_long_names_on_the_new_game_list_break_between_words(page):
    page.goto(page.base + "/en/games/new/")
    page.locator('label.variant-choice:has(input[value="contract-nordic"])').click()
    for name in LONG:
        page.get_by_label("Player's name").fill(name)
        page.get_by_role("button", name="Add", exact=True).click()
        expect(page.locator(".seats li").last).to_contain_text(name)
    words_whole(page, ".seats .seat-name")
    fits(page)


@pytest.mark.parametrize("lang", ["en", "de", "fi"])
def test_the_history_page_fits_the_screen(page, lang):
    game = GameFactory(variant_id="classic", players=LONG)
    record_classic(game, 0, wild_twos=1, jokers=1)
    record_classic(game, 1)
    page.goto(f"{page.base}/{lang}/games/{game.editor_token}/")
    page.locator("form[action$='/deals/undo/'] button").click()
    expect(page.locator("#sheet tbody tr")).to_have_count(1)
    page.goto(f"{page.base}/{lang}/games/{game.editor_token}/share/")
    page.locator("button[value=viewer]").click()
    page.goto(f"{page.base}/{lang}/games/{game.editor_token}/history/")
    expect(page.locator(".history li").first).to_be_visible()
    fits(page)
    words_whole(page, ".history .what")


# --- a sheet of many players (issue 14, item 7) ----------------------------------------------

TWELVE = [
    "Maximiliane Friederike",
    "Bartholomäus",
    "Konstantinopolitanische",
    "Åsa",
    "Anna Berg",
    "Anna Kowalska",
    "Ben",
    "Bernd",
    "Zofia Wiśniewska",
    "Jukka",
    "Ingrid Marie",
    "Sánchez",
]

SHEET_GEOMETRY = """() => {
  const box = document.querySelector('.sheet-scroll');
  const r = el => el.getBoundingClientRect();
  const view = r(box);
  const deal = document.querySelector('.sheet thead .num');
  return {
    view: {left: view.left, right: view.right, top: view.top, bottom: view.bottom},
    scrollWidth: box.scrollWidth, clientWidth: box.clientWidth,
    scrollHeight: box.scrollHeight, clientHeight: box.clientHeight,
    dealRight: r(deal).right,
    firstDeal: r(document.querySelector('.sheet tbody .num')).left,
    totals: [...document.querySelectorAll('.sheet tfoot td')].map(td => {
      const b = r(td); return {left: b.left, right: b.right, top: b.top, bottom: b.bottom};
    }),
    cue: Number(getComputedStyle(document.querySelector('.sheet-wrap'), '::after').opacity),
  };
}"""


def scroll_sheet(page, left: int | None = None, top: int | None = None) -> dict:
    page.evaluate(
        """([left, top]) => { const box = document.querySelector('.sheet-scroll');
           if (left !== null) box.scrollLeft = left; if (top !== null) box.scrollTop = top; }""",
        [left, top],
    )
    drawn(page)  # the scroll-driven cue follows the scroll a frame later
    return page.evaluate(SHEET_GEOMETRY)


def in_view(cell: dict, g: dict, clear: float) -> bool:
    """Wholly inside the sheet's box and clear of the sticky deal column (``clear``: where
    the first player's column starts when the sheet is not scrolled)."""
    view = g["view"]
    return (
        cell["left"] >= clear - 0.5
        and cell["right"] <= view["right"] + 1.5
        and cell["top"] >= view["top"] - 1.5
        and cell["bottom"] <= view["bottom"] + 1.5
    )


@pytest.mark.parametrize("players", [5, 12])
def test_a_big_sheet_keeps_the_deal_column_and_the_totals_in_view(page, players):
    names = TWELVE[:players]
    game = GameFactory(variant_id="classic", players=names)
    for deal in range(16):
        record_classic(game, (deal * 5) % players, jokers=deal % 2)
    page.goto(f"{page.base}/en/games/{game.editor_token}/")
    expect(page.locator(".sheet tbody tr")).to_have_count(16)
    fits(page)  # the page itself never scrolls sideways

    # Every heading has the player's mark; a cut name says the full one, on tap too.
    heads = page.locator(".sheet thead th:not(.num)")
    expect(heads).to_have_count(players)
    for i, name in enumerate(names):
        head = heads.nth(i)
        expect(head).to_have_class(re.compile(rf"\bm{i}\b"))
        expect(head).to_contain_text(name)  # the full name, for screen readers at least
    SCREENSHOTS.mkdir(exist_ok=True)  # what the phone shows (committed: issue 14, item 7)
    page.screenshot(path=str(SCREENSHOTS / f"sheet-{players}-players.png"))
    if players == 12:
        who = heads.nth(0).locator("button.who")
        expect(who).to_have_attribute("title", names[0])
        who.click()
        expect(page.locator("#who-0")).to_be_visible()
        expect(page.locator("#who-0")).to_have_text(names[0])
        page.keyboard.press("Escape")
        expect(page.locator("#who-0")).to_be_hidden()

    g = scroll_sheet(page, 0, 0)
    clear = g["totals"][0]["left"]
    assert g["scrollHeight"] > g["clientHeight"], "16 deals should make the sheet scroll down"
    assert g["dealRight"] > g["view"]["left"]
    wide = g["scrollWidth"] > g["clientWidth"] + 1
    # The totals row is in view at the top of the sheet ...
    assert all(t["bottom"] <= g["view"]["bottom"] + 0.5 for t in g["totals"])
    # ... and the cue says whether there is more to the right.
    assert (g["cue"] > 0.5) == wide, g

    # Down and right: the deal column and the totals row stay where they were.
    end = scroll_sheet(page, 10_000, 10_000)
    assert end["dealRight"] == pytest.approx(g["dealRight"], abs=0.5)
    assert all(t["bottom"] <= end["view"]["bottom"] + 0.5 for t in end["totals"])
    assert end["cue"] < 0.1  # nothing more to the right

    # Every total can be read: where the sheet fits, at once; else after scrolling to it.
    for i in range(players):
        page.evaluate(
            "i => document.querySelectorAll('.sheet tfoot td')[i]"
            ".scrollIntoView({block: 'nearest', inline: 'nearest'})",
            i,
        )
        g = scroll_sheet(page)
        assert in_view(g["totals"][i], g, clear), (i, g["totals"][i], g["view"])
    fits(page)


def test_a_live_update_leaves_a_wide_sheet_where_it_was_scrolled(page):
    game = GameFactory(variant_id="classic", players=TWELVE)
    for deal in range(12):
        record_classic(game, (deal * 5) % 12, jokers=1)
    # Twelve players fit 390 px; on a 320 px phone their sheet scrolls sideways.
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(f"{page.base}/en/games/{game.viewer_token}/")
    expect(page.locator(".sheet tbody tr")).to_have_count(12)
    at = scroll_sheet(page, 10_000, 10_000)
    assert at["scrollWidth"] > at["clientWidth"]
    moved = page.evaluate(
        "[document.querySelector('.sheet-scroll').scrollLeft,"
        " document.querySelector('.sheet-scroll').scrollTop]"
    )
    assert moved[0] > 0
    assert moved[1] > 0
    record_classic(game, 3)  # another phone records deal 13; this one follows
    expect(page.locator(".sheet tbody tr")).to_have_count(13)
    kept = page.evaluate("document.querySelector('.sheet-scroll').scrollLeft")
    assert kept == moved[0]


def test_twelve_players_with_three_figure_scores_fit_a_390_px_phone(page):
    game = GameFactory(variant_id="classic", players=TWELVE)
    for deal in range(16):
        record_classic(game, (deal * 5) % 12, jokers=deal % 2)
    page.goto(f"{page.base}/en/games/{game.editor_token}/")
    assert "+121" in page.locator(".sheet tbody").inner_text()
    g = scroll_sheet(page, 0, 0)
    assert g["scrollWidth"] <= g["clientWidth"], "the twelve columns do not fit"
    assert all(t["right"] <= g["view"]["right"] + 0.5 for t in g["totals"])
    assert g["cue"] < 0.1
    fits(page)


def covered(page, selector: str) -> list[str]:
    """What lies over the middle of each line of ``selector``'s text: elements that are not
    inside it (nothing, when a person can read all of it)."""
    return page.evaluate(
        """(selector) => {
          const el = document.querySelector(selector);
          const over = [];
          for (const r of el.getClientRects()) {
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            if (hit && !el.contains(hit)) over.push(hit.outerHTML.slice(0, 80));
          }
          return over;
        }""",
        selector,
    )


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_header_stays_readable_over_a_scrolled_sheet(page, lang):
    """Scrolled down a game, the header is on top and whole: the connection's word on the
    sheet ("Sheet updated.") comes under it, and the screen-on switch scrolls away with the
    page (it once stuck over the site's name)."""
    game = GameFactory(variant_id="classic", players=LONG)
    for deal in range(6):
        record_classic(game, deal % 4)
    page.goto(f"{page.base}/{lang}/games/{game.editor_token}/")
    expect(page.locator("#sheet")).to_be_visible()
    record_classic(game, 1)  # another phone's deal: this one's sheet is updated
    connection = page.locator("#table-bar .connection")
    expect(connection).not_to_be_empty(timeout=15_000)
    page.mouse.wheel(0, 700)
    page.wait_for_function("() => window.scrollY > 300")
    assert covered(page, ".top .brand") == []
    assert covered(page, ".top .lang summary") == []
    header = page.locator(".top").bounding_box()
    said = connection.bounding_box()
    assert said["y"] >= header["y"] + header["height"] - 1, (
        "the connection's word is under the header"
    )
    assert covered(page, "#table-bar .connection") == []
    fits(page)


def test_a_phone_offline_keeps_the_waiting_line_in_view_and_its_list_off_the_sheet(page):
    """Three deals waiting on a phone without a connection: scrolled down, the line that says
    so stays under the header, while the outbox's list (a third of the screen) scrolls away
    instead of covering the sheet."""
    game = GameFactory(variant_id="classic", players=LONG)
    for deal in range(6):
        record_classic(game, deal % 4)
    page.goto(f"{page.base}/en/games/{game.editor_token}/")
    expect(page.locator("#sheet")).to_be_visible()
    page.context.set_offline(True)
    for number, who in ((7, "Åsa"), (8, "Bartholomäus"), (9, "Åsa")):
        page.locator('#game a[href$="/deals/new/"]').first.click()
        expect(page.locator("#panel-title")).to_have_text(f"Record deal {number}")
        page.locator(".deal-form label.chip", has_text=who).click()
        page.locator(".deal-form").get_by_role("button", name="Save").click()
        expect(page.locator("#panel")).to_have_count(0)
    expect(page.locator(".outbox-entry")).to_have_count(3)
    connection = page.locator("#table-bar .connection")
    expect(connection).to_contain_text("(3)")
    page.mouse.wheel(0, 900)
    page.wait_for_function("() => window.scrollY > 500")
    header = page.locator(".top").bounding_box()
    said = connection.bounding_box()
    assert said["y"] >= header["y"] + header["height"] - 1
    assert covered(page, "#table-bar .connection") == []
    assert covered(page, ".top .brand") == []
    outbox = page.locator(".outbox").bounding_box()
    assert outbox["y"] + outbox["height"] <= header["y"] + header["height"], "the list stuck"
    page.context.set_offline(False)


def test_the_record_deal_form_opens_with_its_heading_below_the_header(page):
    """Issue 45, item 8: the form held in the sheet scrolled itself to the top of the screen,
    its heading under the sticky header. Its heading is whole and uncovered when it opens."""
    game = GameFactory(variant_id="classic", players=LONG)
    for deal in range(15):
        record_classic(game, deal % 4)
    page.goto(f"{page.base}/en/games/{game.editor_token}/")
    page.get_by_role("link", name="Record deal 16").click()
    title = page.locator("#panel-title")
    expect(title).to_have_text("Record deal 16")
    drawn(page)
    assert page.evaluate("() => window.scrollY") > 0  # it did scroll to the form
    header = page.locator(".top").bounding_box()
    heading = title.bounding_box()
    assert heading["y"] >= header["y"] + header["height"] - 1, (heading, header)
    assert covered(page, "#panel-title") == []


# --- five at the table on a phone (issue 45, item 8) -----------------------------------------

FIVE = ["Piotrek", "Marek", "Kasia", "Ania", "Zofia"]
SEEN = """(el) => {
  // What a person reads of el: its text but what is not drawn (display: none, a 1 px clip),
  // and whether a box of it cuts its text (an ellipsis, overflow hidden).
  const drawn = (node) => {
    for (let e = node.parentElement; e && e !== el.parentElement; e = e.parentElement) {
      const cs = getComputedStyle(e), r = e.getBoundingClientRect();
      if (cs.display === 'none' || cs.visibility === 'hidden') return false;
      if (cs.overflow === 'hidden' && (r.width <= 1 || r.height <= 1)) return false;
    }
    return true;
  };
  let text = '';
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (drawn(n)) text += n.data;
  const cut = [el, ...el.querySelectorAll('*')].some(
    e => getComputedStyle(e).overflowX === 'hidden' && e.scrollWidth > e.clientWidth + 1);
  const r = el.getBoundingClientRect();
  return {text: text.replace(/\\s+/g, ' ').trim(), cut, left: r.left, right: r.right};
}"""


def seen(locator) -> list[dict]:
    return [cell.evaluate(SEEN) for cell in locator.all()]


def within(cell: dict, left: float, right: float) -> bool:
    """The cell seen (``SEEN``) lies between ``left`` and ``right``."""
    return left - 0.5 <= cell["left"] and cell["right"] <= right + 0.5


def no_sideways_scrolling(page, region: str) -> None:
    """Neither the page nor the region ``region`` scrolls sideways."""
    width = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], width
    box = page.evaluate(
        "(s) => { const b = document.querySelector(s); return [b.scrollWidth, b.clientWidth]; }",
        region,
    )
    assert box[0] <= box[1], f"{region} scrolls sideways: {box}"


def test_five_at_the_table_read_their_names_whole_on_the_sheet(page):
    """A 5-player sheet cut "Piotrek" to "Piotr" where the whole name has room."""
    said = watch(page)
    game = GameFactory(variant_id="classic", players=FIVE)
    for deal in range(5):
        record_classic(game, deal)
    page.goto(f"{page.base}/pl/games/{game.editor_token}/")
    heads = seen(page.locator(".sheet thead th:not(.num)"))
    assert [(h["text"], h["cut"]) for h in heads] == [(name, False) for name in FIVE]
    assert all(within(h, 0, PHONE["width"]) for h in heads), heads
    no_sideways_scrolling(page, ".sheet-scroll")
    assert said == [], said


def five_finished_games(circle=None, games=3):
    made = []
    for k in range(games):
        game = GameFactory(variant_id="classic", players=FIVE, circle=circle)
        for deal in range(4):
            record_classic(game, (k + deal * 2) % 5, no_wild=True)
        game.refresh_from_db()
        game.end(version=game.version, once=None, actor=ACTOR)
        made.append(game)
    return made


def test_an_evening_of_five_fits_a_phone_each_balance_beside_its_name(page, browser):
    """The 5-person ledger needed sideways scrolling on a 390 px phone: on a phone it is read
    game by game, each player's name beside their money and balance."""
    said = watch(page)
    evening = Evening.objects.create(name="Piątek", stake=Decimal("2.00"))
    for position, game in enumerate(five_finished_games(), start=1):
        EveningGame.objects.create(
            evening=evening, game=game, stake=Decimal("2.00"), position=position
        )
    page.goto(f"{page.base}/pl/evenings/{evening.editor_token}/")
    ledger = page.get_by_role("region", name="Rachunek")
    expect(ledger.get_by_role("row")).to_have_count(5)  # the names, three games, the totals
    no_sideways_scrolling(page, ".sheet-area .sheet-scroll")
    totals = seen(ledger.get_by_role("row").last.get_by_role("cell"))
    assert len(totals) == 5
    for name, cell in zip(FIVE, totals, strict=True):
        assert re.fullmatch(rf"{name} ?[+−]\d+,\d\d", cell["text"]), cell
        assert not cell["cut"]
        assert within(cell, 0, PHONE["width"]), cell
    # A screen reader still reads a table: each amount under its player's column heading.
    assert ledger.get_by_role("columnheader").all_inner_texts()[1:] == FIVE
    ledger.screenshot(path=str(SCREENSHOTS / "evening-five-players.png"))
    assert said == [], said
    for scheme in ("light", "dark"):
        violations = axe_violations(browser, page.url, scheme)
        assert violations == [], json.dumps(violations, indent=1)


def test_the_head_to_head_fits_a_phone_in_polish(page):
    """The person page's head-to-head was cut at "Rem…" (Remis, level) on a 390 px phone."""
    said = watch(page)
    circle = CircleFactory(name="Wtorki")
    five_finished_games(circle)
    page.goto(f"{page.base}/pl/circles/{circle.viewer_token}/players/{circle.find('Piotrek').pk}/")
    table = page.get_by_role("region", name=re.compile("Bilans bezpośredni"))
    no_sideways_scrolling(page, ".sheet-scroll:has(> .head-to-head)")
    box = table.bounding_box()
    heads = seen(table.get_by_role("columnheader"))
    assert [h["text"] for h in heads] == ["Przeciw", "Gry", "Wyżej", "Niżej", "Remis"]
    for cell in [*heads, *seen(table.get_by_role("rowheader"))]:
        assert not cell["cut"], cell
        assert within(cell, box["x"], box["x"] + box["width"]), cell
    assert sorted(h["text"] for h in seen(table.get_by_role("rowheader"))) == sorted(FIVE[1:])
    words_whole(page, ".head-to-head")
    table.screenshot(path=str(SCREENSHOTS / "head-to-head.png"))
    assert said == [], said
