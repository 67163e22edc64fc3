"""The score pad in a real headless Chromium at phone width: start games of each variant,
record deals, correct one, finish a game, and watch a viewer's sheet follow live."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE
from tests.e2e.conftest import screenshot as save_screenshot
from tests.factories import GameFactory, record_classic

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HAND = "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH JK"


def start_game(page, variant: str, names: list[str], **options) -> None:
    page.goto(page.base + "/en/games/new/")
    page.locator(f'label.variant-choice:has(input[value="{variant}"])').click()
    for name in names:
        page.get_by_label("Player's name").fill(name)
        page.get_by_role("button", name="Add", exact=True).click()
        expect(page.locator(".seats li").last).to_contain_text(name)
    for label, value in options.items():
        page.locator(".house-rules summary").click()
        page.get_by_label(label).fill(value)
    page.get_by_role("button", name="Start").click()
    expect(page.locator("#sheet-title")).to_be_visible()


def screenshot(page, name: str) -> None:
    """A full-page screenshot from the top (sticky headers stay where they belong)."""
    page.evaluate("window.scrollTo(0, 0)")
    save_screenshot(page, name)


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_classic_game_from_the_first_deal_to_the_settle_up(page):
    start_game(
        page, "classic", ["Anna", "Ben", "Cleo", "Dan"], **{"Money per point (optional)": "0.10"}
    )
    expect(page.locator(".deal-now")).to_contain_text("Deal 1")
    screenshot(page, "scorepad-classic-start")

    # deal 1 from the rows: Anna went out with one joker and one wild 2
    page.get_by_role("link", name="Record deal 1").click()
    form = page.locator(".deal-form")
    form.locator("label.chip", has_text="Anna").click()
    form.locator(
        'fieldset:has(legend:text("2s used as wild cards")) label.chip', has_text="1"
    ).click()
    form.locator('fieldset:has(legend:text("Jokers used")) label.chip', has_text="1").click()
    expect(page.locator("#preview")).to_contain_text("Every other player pays Anna 4.")
    screenshot(page, "scorepad-classic-record-rows")
    form.get_by_role("button", name="Save").click()
    expect(page.locator("#game .messages")).to_contain_text("Deal 1 recorded.")
    expect(page.locator("tfoot")).to_contain_text("+12")

    # deal 2 from the winner's hand, typed on the card grid
    page.get_by_role("link", name="Record deal 2").click()
    form.locator("label.chip", has_text="Dan").click()
    form.locator("label.chip", has_text="From the winner's hand").click()
    grid = form.locator(".by-hand .card-grid")
    names = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    ranks = {
        "A": "ace",
        "3": "three",
        "4": "four",
        "5": "five",
        "6": "six",
        "7": "seven",
        "9": "nine",
        "10": "ten",
        "J": "jack",
        "Q": "queen",
        "K": "king",
    }
    for code in HAND.split():
        if code == "JK":
            grid.get_by_role("button", name="joker").click()
        else:
            grid.get_by_role(
                "button", name=f"{ranks[code[:-1]]} of {names[code[-1]]}", exact=True
            ).click()
    expect(form.get_by_role("textbox", name="The winner's hand")).to_have_value(HAND)
    expect(page.locator("#preview")).to_contain_text("Every other player pays Dan 3.")
    screenshot(page, "scorepad-classic-record-hand")
    form.get_by_role("button", name="Save").click()
    expect(page.locator("#game .messages")).to_contain_text("Deal 2 recorded.")

    # correct deal 1: Ben went out instead, no wild card
    page.get_by_role("link", name="Correct deal 1").click()
    expect(page.locator("#panel-title")).to_have_text("Correct deal 1")
    form.locator("label.chip", has_text="Ben").click()
    form.locator(
        'fieldset:has(legend:text("2s used as wild cards")) label.chip', has_text="0"
    ).click()
    form.locator('fieldset:has(legend:text("Jokers used")) label.chip', has_text="0").click()
    form.get_by_role("button", name="Save").click()
    expect(page.locator("#game .messages")).to_contain_text("Deal 1 corrected.")
    expect(page.locator("tfoot td")).to_have_text(["−14", "+30", "−14", "−2"])

    page.get_by_role("button", name="End the game").click()
    expect(page.locator(".game-over")).to_contain_text("Winner: Ben")
    expect(page.locator(".transfers")).to_contain_text("Anna pays Ben 1.40")
    no_sideways_scroll(page)
    screenshot(page, "scorepad-classic-finished")

    page.get_by_role("link", name="History").click()
    expect(page.locator(".history")).to_contain_text("Deal edited")
    screenshot(page, "scorepad-history")

    page.goto(page.base + "/en/games/")
    expect(page.locator(".game-item")).to_contain_text("Ben 🏆")
    screenshot(page, "scorepad-games")


def test_a_nordic_contract_game_ends_by_itself_after_seven_deals(page):
    start_game(page, "contract-nordic", ["Anna", "Ben", "Cleo"])
    for number in range(1, 8):
        page.get_by_role("link", name=f"Record deal {number}").click()
        form = page.locator(".deal-form")
        form.locator("label.chip", has_text="Anna").click()
        if number == 1:
            form.locator('.penalty-row[data-pos="1"] summary').click()
            grid = form.locator('.penalty-row[data-pos="1"] .card-grid')
            for name in ("five of hearts", "seven of clubs", "queen of spades"):
                grid.get_by_role("button", name=name, exact=True).click()
            form.get_by_label("Cleo — penalty points").fill("70")
            expect(page.locator("#preview")).to_contain_text("20")
            screenshot(page, "scorepad-nordic-record-cards")
        else:
            form.get_by_label("Ben — penalty points").fill("10")
            form.get_by_label("Cleo — penalty points").fill("5")
        form.get_by_role("button", name="Save").click()
        expect(page.locator("#game .messages")).to_contain_text(f"Deal {number} recorded.")
    expect(page.locator(".game-over")).to_contain_text("Winner: Anna")
    expect(page.get_by_role("link", name=re.compile("Record deal"))).to_have_count(0)
    screenshot(page, "scorepad-nordic-finished")
    page.goto(page.base + "/en/")
    expect(page.get_by_role("link", name="New game")).to_be_visible()


def test_a_penalty_that_is_not_a_multiple_of_five_is_shown_in_place(page):
    start_game(page, "contract-spanish", ["Anna", "Ben"])
    expect(page.locator(".deal-facts")).to_contain_text("6 each")
    page.get_by_role("link", name="Record deal 1").click()
    form = page.locator(".deal-form")
    form.locator("label.chip", has_text="Ben").click()
    form.get_by_label("Anna — penalty points").fill("17")
    form.get_by_role("button", name="Save").click()
    expect(page.locator(".penalty-row .errorlist")).to_contain_text(
        "Anna: 17 is not a multiple of 5"
    )
    screenshot(page, "scorepad-spanish-error")
    form.get_by_label("Anna — penalty points").fill("15")
    form.get_by_role("button", name="Save").click()
    expect(page.locator("#game .messages")).to_contain_text("Deal 1 recorded.")
    expect(page.locator(".deal-now")).to_contain_text("Deal 2 of 7")


def test_a_romme_deal_with_handromme(page):
    start_game(page, "romme", ["Anna", "Ben", "Cleo"])
    page.get_by_role("link", name="Record deal 1").click()
    form = page.locator(".deal-form")
    form.locator("label.chip", has_text="Cleo").click()
    form.get_by_label("Handrommé").check()
    form.get_by_label("Anna — penalty points").fill("12")
    form.get_by_label("Ben — penalty points").fill("31")
    expect(page.locator("#preview")).to_contain_text("Cleo went out with Handrommé.")
    screenshot(page, "scorepad-romme-record")
    form.get_by_role("button", name="Save").click()
    expect(page.locator("tfoot td")).to_have_text(["12", "31", "0"])


def test_a_viewer_sheet_follows_the_editor_live(page, browser, live_server):
    start_game(page, "classic", ["Anna", "Ben"])
    page.get_by_role("link", name="Share").click()
    viewer_url = page.locator("#share-viewer ~ .link a").get_attribute("href")
    assert page.locator(".qr-box svg").count() == 3  # viewer, editor, table mode
    screenshot(page, "scorepad-share")
    page.go_back()

    viewer_context = browser.new_context(viewport=PHONE, has_touch=True)
    viewer = viewer_context.new_page()
    viewer.goto(viewer_url)
    expect(viewer.locator(".empty-sheet")).to_be_visible()
    expect(viewer.get_by_role("link", name=re.compile("Record deal"))).to_have_count(0)

    page.get_by_role("link", name="Record deal 1").click()
    page.locator(".deal-form label.chip", has_text="Ben").click()
    page.locator(".deal-form").get_by_role("button", name="Save").click()
    expect(page.locator("#game .messages")).to_contain_text("Deal 1 recorded.")

    expect(viewer.locator("tfoot td")).to_have_text(["−11", "+11"], timeout=8000)
    screenshot(viewer, "scorepad-viewer")
    viewer_context.close()


def test_twelve_players_fit_a_phone_in_portrait(page, dark_page):
    game = GameFactory(players=[f"Player {i}" for i in range(1, 13)])
    for number in range(30):
        record_classic(game, number % 12, jokers=number % 4)
    for p, name in ((page, "scorepad-12-players"), (dark_page, "scorepad-12-players-dark")):
        p.goto(f"{p.base}/en/games/{game.editor_token}/")
        expect(p.locator("tbody tr")).to_have_count(30)
        no_sideways_scroll(p)
        # the twelve columns fit the phone's width (test_small_screens.py: and when they
        # do not, the table scrolls inside its box with the deal column and totals in view)
        box = "document.querySelector('.sheet-scroll')"
        assert p.evaluate(f"{box}.scrollWidth <= {box}.clientWidth")
        screenshot(p, name)


def test_two_players_and_three_deals_on_a_phone(page):
    game = GameFactory(players=["Anna", "Ben"])
    for number in range(3):
        record_classic(game, number % 2, wild_twos=number)
    page.goto(f"{page.base}/en/games/{game.editor_token}/")
    no_sideways_scroll(page)
    screenshot(page, "scorepad-2-players")


def test_the_new_game_page_on_a_phone(page, dark_page):
    for p, name in ((page, "scorepad-new-game"), (dark_page, "scorepad-new-game-dark")):
        p.goto(p.base + "/en/games/new/")
        p.locator('label.variant-choice:has(input[value="romme"])').click()
        for n in ("Anna", "Ben", "Cleo"):
            p.get_by_label("Player's name").fill(n)
            p.get_by_role("button", name="Add", exact=True).click()
            expect(p.locator(".seats li").last).to_contain_text(n)
        p.locator(".house-rules summary").click()
        expect(p.get_by_label("Opening minimum")).to_be_visible()
        expect(p.get_by_label("Twos are wild")).to_be_hidden()
        no_sideways_scroll(p)
        screenshot(p, name)


def test_every_core_action_works_without_javascript(browser, live_server):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.base = live_server.url
    page.goto(page.base + "/en/games/new/")
    page.locator('input[value="classic"]').check()
    for name in ("Anna", "Ben"):
        page.get_by_label("Player's name").fill(name)
        page.get_by_role("button", name="Add", exact=True).click()
    page.get_by_role("button", name="Start").click()
    page.get_by_role("link", name="Record deal 1").click()
    page.locator('input[name="went_out"][value="0"]').check()
    page.locator('input[name="jokers"][value="1"]').check()
    page.get_by_role("button", name="Show the result").click()
    expect(page.locator("#preview")).to_contain_text("Every other player pays Anna 3.")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("tfoot td")).to_have_text(["+3", "−3"])
    page.get_by_role("button", name="Undo deal 1").click()
    expect(page.locator(".empty-sheet")).to_be_visible()
    screenshot(page, "scorepad-no-js")
    context.close()


def test_the_pages_break_no_content_security_rule_and_log_no_error(page):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    start_game(page, "contract-spanish", ["Anna", "Ben", "Cleo"])
    page.get_by_role("link", name="Record deal 1").click()
    page.locator(".deal-form label.chip", has_text="Anna").click()
    page.locator('.penalty-row[data-pos="1"] summary').click()
    page.locator('.penalty-row[data-pos="1"]').get_by_role("button", name="joker").click()
    page.get_by_label("Cleo — penalty points").fill("25")
    expect(page.locator("#preview")).to_contain_text("50")
    page.locator(".deal-form").get_by_role("button", name="Save").click()
    expect(page.locator("tfoot td")).to_have_text(["0", "50", "25"])
    for link in ("Share", "History"):
        page.get_by_role("link", name=link).click()
        page.go_back()
    assert errors == []
