import re

import pytest

from rules import pages
from rules.pages.words import words
from tests.e2e.conftest import screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_rules_page_reads_on_a_phone_and_keeps_its_page_when_switching_language(page):
    page.goto(page.base + "/en/rules/classic/")
    assert page.locator("h1").inner_text().startswith("Continental")
    # Card faces are drawn, labelled, and red suits are red.
    queen = page.locator('.pc[aria-label="queen of clubs"]').first
    assert queen.is_visible()
    heart = page.locator(".pc.red").first
    assert heart.evaluate("e => getComputedStyle(e).color") == "rgb(179, 38, 30)"
    assert _fits_the_phone(page)
    screenshot(page, "rules-classic-en")

    page.locator(".lang summary").click()
    page.locator('.lang a[hreflang="de"]').click()
    page.wait_for_url("**/de/rules/classic/")
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.locator('.pc[aria-label="Kreuz-Dame"]').first.is_visible()
    assert _fits_the_phone(page)


def test_the_table_of_contents_jumps_to_its_section(page):
    page.goto(page.base + "/en/rules/contract-nordic/")
    page.locator('.toc a[href="#scoring"]').click()
    page.wait_for_url("**#scoring")
    top = page.locator("#scoring").evaluate("e => e.getBoundingClientRect().top")
    assert 0 <= top < 200  # below the sticky header, at the top of the screen


def test_the_house_rules_of_a_game_are_marked(page):
    page.goto(page.base + "/en/rules/romme/?opening_minimum=40&handromme_doubles=true#house-rules")
    changed = page.locator(".rule-option.changed")
    assert changed.count() == 2
    assert _fits_the_phone(page)
    page.locator("#house-rules").scroll_into_view_if_needed()
    screenshot(page, "rules-romme-marked-en")


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_every_game_fits_a_phone_in_long_languages(page, lang):
    # the index with its table of decks, the tournament with its tables of a series
    for path in ("rules/", "rules/glossary/", "rules/tournament/"):
        page.goto(f"{page.base}/{lang}/{path}")
        assert _fits_the_phone(page), path
    for variant in ("classic", "contract-nordic", "contract-spanish", "romme"):
        page.goto(f"{page.base}/{lang}/rules/{variant}/")
        assert _fits_the_phone(page), variant
        page.goto(f"{page.base}/{lang}/rules/{variant}/summary/")
        assert _fits_the_phone(page), variant


def test_rules_pages_in_dark_mode(dark_page):
    dark_page.goto(dark_page.base + "/en/rules/contract-nordic/")
    bg = dark_page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert bg == "rgb(18, 20, 22)"
    screenshot(dark_page, "rules-nordic-dark")


def test_the_summary_prints_without_navigation(page):
    page.goto(page.base + "/en/rules/classic/summary/")
    screenshot(page, "rules-classic-summary")
    page.emulate_media(media="print")
    assert page.locator(".top").is_hidden()
    assert page.locator(".rules-langs").is_hidden()
    assert page.locator(".rules-body table").first.is_visible()


@pytest.mark.parametrize("lang", ["en", "de", "nb", "pl", "fi", "es"])
def test_every_summary_prints_on_one_sheet(page, lang):
    for variant in ("classic", "contract-nordic", "contract-spanish", "romme"):
        # with a game's house rules marked: the longest version of the page
        options = {"classic": "twos_wild=false", "romme": "opening_minimum=40"}.get(variant, "")
        page.goto(f"{page.base}/{lang}/rules/{variant}/summary/?{options}")
        pdf = page.pdf(format="A4")
        pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
        assert pages == 1, f"{lang} {variant}: {pages} pages"


def test_the_glossary_is_reached_from_the_index_and_reads_on_a_phone(page):
    page.goto(page.base + "/es/rules/")
    # the table of decks scrolls inside its box, never the page
    assert page.locator("table.all-decks").is_visible()
    assert _fits_the_phone(page)
    page.locator(".rules-glossary-link a").click()
    page.wait_for_url("**/es/rules/glossary/")
    assert page.locator("html").get_attribute("lang") == "es"
    assert page.locator(".glossary dt").count() == len(words("es")["glossary"])
    assert page.locator(".glossary dd.glossary-games").first.is_visible()
    assert _fits_the_phone(page)
    screenshot(page, "rules-glossary-es")
    page.locator(".lang summary").click()
    page.locator('.lang a[hreflang="fi"]').click()
    page.wait_for_url("**/fi/rules/glossary/")
    assert page.locator("h1").inner_text() == pages.get_page(pages.GLOSSARY, None, "fi").title
