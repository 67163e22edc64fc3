"""Long names and wide pages on a phone's screen (390 px): nothing sideways, no word cut."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE
from tests.factories import GameFactory, record_classic

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
