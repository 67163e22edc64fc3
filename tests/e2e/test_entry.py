"""Entering a deal or a game at a phone's size: a refused form brings its first error into
view and focuses it, and the score pad's card entry shows the hand as card faces with its
points, one card grid open at a time (issue 14, items 4 and 10)."""

import pytest
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from tests.e2e.test_scorepad import start_game
from tests.factories import GameFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def in_view(page, selector: str) -> bool:
    return page.evaluate(
        """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                      return r.top >= 0 && r.bottom <= window.innerHeight; }""",
        selector,
    )


def test_a_refused_start_shows_and_focuses_its_first_error_where_the_thumb_is(page):
    page.goto(page.base + "/en/games/new/")
    page.locator('label.variant-choice:has(input[value="contract-nordic"])').click()
    for name in ["Anna", "Ben", "Cleo", "Dan", "Eve", "Finn"]:
        page.get_by_label("Player's name").fill(name)
        page.get_by_role("button", name="Add", exact=True).click()
        expect(page.locator(".seats li").last).to_contain_text(name)
    page.get_by_label("Player's name").fill("Anna")  # a name already seated, left in the box
    start = page.get_by_role("button", name="Start")
    start.scroll_into_view_if_needed()
    start.click()
    summary = page.locator(".error-summary")
    expect(summary).to_contain_text("Anna already has a seat.")
    expect(page.locator("#id_name")).to_be_focused()
    assert in_view(page, "#id_name")
    expect(page.locator("#id_name_error")).to_have_text("Anna already has a seat.")
    # the box emptied, the table of six is refused for Nordic: said at the top and beside
    page.get_by_label("Player's name").fill("")
    start.scroll_into_view_if_needed()
    start.click()
    expect(summary).to_contain_text("is for 3 to 5 players; the table has 6.")
    expect(page.locator("#id_name")).to_be_focused()
    expect(page.locator(".players .errorlist")).to_contain_text("the table has 6")


def test_a_refused_deal_focuses_the_player_concerned(page):
    start_game(page, "contract-nordic", ["Anna", "Ben", "Cleo"])
    page.get_by_role("link", name="Record deal 1").click()
    form = page.locator(".deal-form")
    form.locator("label.chip", has_text="Anna").click()
    form.get_by_label("Ben — penalty points").fill("10")
    form.get_by_label("Cleo — penalty points").fill("-5")
    form.get_by_role("button", name="Save").click()
    expect(page.locator(".error-summary")).to_contain_text(
        "Cleo: penalty points cannot be negative"
    )
    cleo = form.get_by_label("Cleo — penalty points")
    expect(cleo).to_be_focused()
    assert in_view(page, "#id_points_2")
    expect(page.locator('.penalty-row[data-pos="2"] .errorlist')).to_contain_text(
        "Cleo: penalty points cannot be negative"
    )
    link = page.locator(".error-summary a")
    expect(link).to_have_attribute("href", "#id_points_2")


def test_the_card_entry_shows_the_hand_and_its_points_one_grid_at_a_time(page):
    start_game(page, "contract-nordic", ["Anna", "Ben", "Cleo"])
    page.get_by_role("link", name="Record deal 1").click()
    form = page.locator(".deal-form")
    form.locator("label.chip", has_text="Anna").click()
    rows = form.locator(".penalty-row")
    ben, cleo = rows.nth(1), rows.nth(2)
    ben.locator("summary").click()
    grid = ben.locator(".card-grid")
    expect(grid).to_be_visible()
    for name in ("five of hearts", "queen of spades", "joker"):
        grid.get_by_role("button", name=name, exact=True).click()
    hand = ben.locator("[data-card-hand] .pc")
    expect(hand).to_have_count(3)
    expect(ben.locator("[data-card-points]")).to_have_text("65")  # 5 + 10 + 50
    expect(ben.locator(".card-sum")).to_have_text("· penalty points: 65")
    expect(ben.locator("textarea[name=cards_1]")).to_have_value("5H QS JK")
    # a card of the hand taps out
    ben.get_by_role("button", name="Remove queen of spades").click()
    expect(ben.locator("textarea[name=cards_1]")).to_have_value("5H JK")
    expect(ben.locator(".card-sum")).to_have_text("· penalty points: 55")
    # opening Cleo's grid closes Ben's
    cleo.locator("summary").click()
    expect(cleo.locator(".card-grid")).to_be_visible()
    expect(grid).to_be_hidden()
    cleo.locator(".card-grid").get_by_role("button", name="king of clubs", exact=True).click()
    expect(page.locator("#preview")).to_contain_text("Cleo")
    form.get_by_role("button", name="Save").click()
    expect(page.locator("tfoot td")).to_have_text(["0", "55", "10"])


def test_the_correction_form_opens_with_its_result_and_its_hand(page):
    start_game(page, "romme", ["Anna", "Ben"])
    page.get_by_role("link", name="Record deal 1").click()
    form = page.locator(".deal-form")
    form.locator("label.chip", has_text="Anna").click()
    form.locator(".penalty-row").nth(1).locator("summary").click()
    grid = form.locator(".penalty-row").nth(1).locator(".card-grid")
    grid.get_by_role("button", name="king of hearts", exact=True).click()
    grid.get_by_role("button", name="ace of spades", exact=True).click()
    form.get_by_role("button", name="Save").click()
    expect(page.locator("tfoot td")).to_have_text(["0", "21"])
    page.get_by_role("link", name="Correct deal 1").click()
    expect(page.locator("#preview")).to_contain_text("This deal")
    expect(page.locator("#preview .ledger")).to_contain_text("21")
    expect(page.locator(".penalty-row").nth(1).locator("[data-card-hand] .pc")).to_have_count(2)


def test_a_refused_deal_keeps_the_hand_entered_open_and_drawn(page):
    start_game(page, "romme", ["Anna", "Ben", "Cleo"])
    page.get_by_role("link", name="Record deal 1").click()
    form = page.locator(".deal-form")
    form.locator("label.chip", has_text="Anna").click()
    ben = form.locator(".penalty-row").nth(1)
    ben.locator("summary").click()
    ben.locator('.card-grid [data-card="KH"]').click()
    ben.locator('.card-grid [data-card="AS"]').click()
    form.get_by_label("Cleo — penalty points").fill("-3")
    form.get_by_role("button", name="Save").click()
    expect(form.get_by_label("Cleo — penalty points")).to_be_focused()
    ben = page.locator(".deal-form .penalty-row").nth(1)
    expect(ben.locator("details.cards-entry")).to_have_attribute("open", "")
    expect(ben.locator("[data-card-hand] .pc")).to_have_count(2)
    expect(ben.locator(".card-sum")).to_have_text("· penalty points: 21")


@pytest.mark.parametrize("lang", ["fi", "pl", "de"])
def test_the_hand_is_counted_in_words_that_need_no_plural(page, lang):
    """ "1 korttia", "1 kart", "1 Karten" were wrong (a count word needs a plural form that
    depends on the number): the grid says "Kortit: 1" instead, in every language."""
    game = GameFactory(variant_id="contract-nordic", players=["Anna", "Ben", "Cleo"])
    page.goto(f"{page.base}/{lang}/games/{game.editor_token}/deals/new/")
    ben = page.locator(".deal-form .penalty-row").nth(1)
    ben.locator("summary").click()
    ben.locator('.card-grid [data-card="5H"]').click()
    with translation.override(lang):
        cards, points = gettext("Cards"), gettext("penalty points")
    expect(ben.locator(".card-count")).to_have_text(f"{cards}: 1 · {points}: 5")
    expect(ben.locator(".card-sum")).to_have_text(f"· {points}: 5")


@pytest.mark.parametrize(
    ("lang", "typed"),
    [
        ("pl", "W♥ D♣ JK"),
        ("en", "J♥ Q♣ JK"),
        ("de", "B♥ D♣ JK"),
        ("nb", "Kn♥ D♣ JK"),
        ("fi", "j♡ Q♧ joker"),
        ("es", "S♥ C♣ JK"),
    ],
)
def test_cards_typed_with_suit_symbols_count_beside_the_grid_as_the_engine_counts(
    page, lang, typed
):
    """Issue "Trust, part three", item 12: a jack, a queen and a joker typed with suit
    symbols (and the page's rank letters) are 70 beside the grid, as in the preview and the
    saved deal; before, the phone found no key for "W♥" or "Q♣" and said 50."""
    game = GameFactory(variant_id="contract-nordic", players=["Anna", "Ben", "Cleo"])
    page.goto(f"{page.base}/{lang}/games/{game.editor_token}/deals/new/")
    form = page.locator(".deal-form")
    form.locator("label.chip", has_text="Anna").click()
    ben = form.locator(".penalty-row").nth(1)
    ben.locator("summary").click()
    ben.locator("textarea[name=cards_1]").fill(typed)
    form.locator("input[name=points_2]").fill("5")
    with translation.override(lang):
        points = gettext("penalty points")
    expect(ben.locator(".card-sum")).to_have_text(f"· {points}: 70")
    expect(ben.locator(".card-sum")).not_to_have_class("card-sum unread")
    expect(ben.locator("[data-card-points]")).to_have_text("70")
    expect(ben.locator("[data-card-hand] .pc")).to_have_count(3)
    expect(ben.locator("[data-card-hand] .pc.unread")).to_have_count(0)
    expect(page.locator("#preview .ledger tr").nth(1)).to_contain_text("70")


def test_a_typed_token_that_is_no_card_is_said_beside_the_grid_not_counted_as_nothing(page):
    """In German "W" is no rank (Bube is B): the engine refuses "W♥", so the phone shows no
    sum but what the engine will say, in the error's colour, and marks the token's face."""
    game = GameFactory(variant_id="contract-nordic", players=["Anna", "Ben", "Cleo"])
    page.goto(f"{page.base}/de/games/{game.editor_token}/deals/new/")
    form = page.locator(".deal-form")
    form.locator("label.chip", has_text="Anna").click()
    ben = form.locator(".penalty-row").nth(1)
    ben.locator("summary").click()
    ben.locator("textarea[name=cards_1]").fill("W♥ D♣ JK")
    form.locator("input[name=points_2]").fill("5")
    with translation.override("de"):
        refused = gettext("“%(token)s” is not a card.") % {"token": "W♥"}
    sum_ = ben.locator(".card-sum")
    expect(sum_).to_have_text(f"· {refused}")
    expect(sum_).to_have_class("card-sum unread")
    expect(ben.locator("[data-card-points]")).to_have_text("?")
    expect(ben.locator("[data-card-hand] .pc.unread")).to_have_text("W♥")
    red = page.evaluate("getComputedStyle(document.querySelector('.card-sum.unread')).color")
    muted = page.evaluate("getComputedStyle(document.querySelector('.card-count')).color")
    assert red != muted
    expect(page.locator("#preview")).to_contain_text(refused)
