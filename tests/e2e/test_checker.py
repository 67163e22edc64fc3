"""The hand checker in headless Chromium at phone width: tap a hand, read the answer."""

import json
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RULES_EXAMPLE = [
    "4S",
    "5S",
    "6S",
    "7S",
    "9H",
    "10H",
    "JH",
    "QH",
    "10C",
    "JC",
    "QC",
    "KC",
    "AD",
    "3D",
    "KH",
    "JK",
]
AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"


def key(page, code: str):
    return page.locator(f'.check-grid button[name="add"][value="{code}"]')


def hand(page):
    return page.locator("#check-hand .check-card")


def tap(page, codes):
    for code in codes:
        key(page, code).click()


def cards_in_url(page) -> list[str]:
    return parse_qs(urlsplit(page.url).query).get("cards", [""])[0].split()


def fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_tapping_the_rules_example_shows_it_goes_out_with_payment_3_discarding_kh(page):
    page.goto(page.base + "/en/check/")
    expect(page.locator("h1")).to_have_text("Check a hand")
    tap(page, RULES_EXAMPLE)  # as fast as Playwright taps: no tap may be lost
    expect(hand(page)).to_have_count(16)
    expect(page.locator(".check-brief")).to_have_text("Goes out · payment 3")
    result = page.locator("#check-result")
    expect(result.locator(".check-verdict")).to_have_text("Goes out")
    expect(result.locator(".check-payment tfoot td")).to_have_text("3")
    discard = result.locator(".check-discard .pc")
    expect(discard).to_have_attribute("aria-label", "king of hearts")
    # the joker is marked as a wild card and says what it stands for
    wild = result.locator(".pc.wild")
    expect(wild).to_have_attribute("aria-label", "joker as two of diamonds")
    expect(wild.locator(".pc-as")).to_have_text("2♦")
    # the address bar holds the hand: the link reproduces it
    assert sorted(cards_in_url(page)) == sorted(RULES_EXAMPLE)
    assert fits_the_phone(page)
    screenshot(page, "checker-goes-out")

    page.goto(page.url)
    expect(page.locator(".check-brief")).to_have_text("Goes out · payment 3")


def test_a_hand_that_does_not_go_out_shows_its_waits_and_a_card_can_be_taken_out(page):
    page.goto(page.base + "/en/check/")
    tap(page, RULES_EXAMPLE)
    expect(hand(page)).to_have_count(16)
    page.locator('#check-hand button[name="remove"][value="JK"]').click()
    expect(hand(page)).to_have_count(15)
    expect(page.locator(".check-verdict")).to_have_text("Does not go out")
    waits = page.locator(".check-waits .pc")
    expect(waits).to_have_count(5)
    assert [waits.nth(i).get_attribute("aria-label") for i in range(5)] == [
        "two of spades",
        "two of hearts",
        "two of diamonds",
        "two of clubs",
        "joker",
    ]
    assert "JK" not in cards_in_url(page)
    screenshot(page, "checker-waits")


def test_keyboard_tab_to_a_grid_key_and_enter_adds_the_card(page):
    page.goto(page.base + "/en/check/")
    queen = page.get_by_role("button", name="queen of hearts", exact=True)
    queen.focus()
    page.keyboard.press("Tab")  # the next key: king of hearts
    expect(page.get_by_role("button", name="king of hearts", exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    expect(hand(page)).to_have_count(1)
    expect(page.get_by_role("button", name="Remove king of hearts")).to_be_visible()
    # the focus stays on the grid, so Enter again adds another
    expect(page.get_by_role("button", name="king of hearts", exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    expect(hand(page)).to_have_count(2)


def test_keyboard_reaches_the_grid_from_the_top_of_the_page(page):
    page.goto(page.base + "/en/check/")
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.name") == "add":
            break
    else:
        pytest.fail("Tab never reached a grid key")
    code = page.evaluate("document.activeElement.value")
    page.keyboard.press("Enter")
    expect(hand(page)).to_have_count(1)
    assert cards_in_url(page) == [code]


def test_typing_reads_local_letters_and_names_a_bad_token(page):
    page.goto(page.base + "/de/check/")
    field = page.locator("#check-type-input")
    field.fill("DH 10S zz")
    field.press("Enter")
    expect(page.locator("#check-type .errorlist")).to_contain_text("„zz“ ist keine Karte.")
    expect(hand(page)).to_have_count(0)
    field = page.locator("#check-type-input")
    expect(field).to_have_value("DH 10S zz")
    field.fill("DH 10S")
    field.press("Enter")
    expect(hand(page)).to_have_count(2)
    expect(page.locator('#check-hand .pc[aria-label="Herz-Dame"]')).to_be_visible()
    expect(page.locator("#check-type-input")).to_have_value("")
    assert cards_in_url(page) == ["10S", "QH"]


def test_a_card_past_the_decks_limit_is_refused_with_its_name(page):
    page.goto(page.base + "/en/check/?variant=romme")
    tap(page, ["QH", "QH", "QH"])
    expect(page.locator("#check-hand .errorlist")).to_contain_text("No more queen of hearts")
    expect(hand(page)).to_have_count(2)


def test_changing_the_game_and_deal_updates_the_answer_in_place(page):
    hand_cards = "4S 5S 6S 7S 9H 10H JH QH 2C 3C AH KD 5D"
    page.goto(page.base + "/en/check/?variant=classic&cards=" + hand_cards.replace(" ", "+"))
    expect(page.locator(".check-brief")).to_contain_text("2 more cards")  # guidance, no error
    page.locator("#check-settings .check-game summary").click()
    page.locator("label.chip", has_text="Contract, Nordic").click()
    expect(page.locator(".check-game-name")).to_have_text("Contract, Nordic")
    expect(page.locator("#check-settings .check-game")).to_have_attribute("open", "")
    page.locator(".check-deals label.chip", has_text="3").click()
    expect(page.locator(".check-brief")).to_have_text("Contract laid · penalty 15")
    query = parse_qs(urlsplit(page.url).query)
    assert query["variant"] == ["contract-nordic"]
    assert query["deal"] == ["3"]
    assert fits_the_phone(page)
    screenshot(page, "checker-contract")


def test_a_game_link_with_its_schedule_and_romme_house_rules(page):
    schedule = json.dumps([{"cards": 6, "sets": 2, "runs": 0}, {"cards": 7, "sets": 1, "runs": 1}])
    page.goto(page.base + f"/en/check/?variant=contract-spanish&deal=2&schedule={schedule}")
    expect(page.locator(".check-game-brief")).to_contain_text("deal 2: 1 set and 1 run")
    page.goto(
        page.base + "/en/check/?variant=romme&opening_minimum=40"
        "&cards=AH+2H+3H+4H+5H+KS+KH+KD+9C+9D+JK+10S+7C+8C+4D"
    )
    expect(page.locator(".check-brief")).to_have_text("Can open · 89 of 40")
    screenshot(page, "checker-romme")


def test_it_works_without_javascript(browser, live_server):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/en/check/")
        tap(page, RULES_EXAMPLE)
        expect(page.locator(".check-brief")).to_have_text("Goes out · payment 3")
        page.locator('#check-hand button[name="remove"][value="KH"]').click()
        expect(hand(page)).to_have_count(15)
        page.locator("#check-type-input").fill("kh")
        page.locator("#check-type-input").press("Enter")
        expect(hand(page)).to_have_count(16)
        expect(page.locator(".check-brief")).to_have_text("Goes out · payment 3")
    finally:
        context.close()


def test_the_checker_in_dark_mode(dark_page):
    dark_page.goto(dark_page.base + "/en/check/?variant=classic&cards=" + "+".join(RULES_EXAMPLE))
    expect(dark_page.locator(".check-verdict")).to_have_text("Goes out")
    assert fits_the_phone(dark_page)
    screenshot(dark_page, "checker-dark")


AXE_PAGES = [
    "/en/check/?variant=classic&cards=" + "+".join(RULES_EXAMPLE) + "&type=zz",  # with an error
    "/en/check/?variant=classic&cards=" + "+".join(RULES_EXAMPLE[:-1]),  # waits
    "/de/check/?variant=contract-nordic&deal=3&cards=4S+5S+6S+7S+9H+10H+JH+QH+2C+3C+AH+KD+5D",
    "/en/check/?variant=romme&cards=AH+2H+3H+4H+5H+KS+KH+KD+9C+9D+JK+10S+7C+8C+4D",
    # outs with seen cards, a table of six, the way back to a game
    "/pl/check/?variant=classic&players=6&cards="
    + "+".join(RULES_EXAMPLE[:-1])
    + "&seen=2S+JK&to=seen&back=/pl/games/abcdefghijklmnopqrstuvwxyz/",
]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", AXE_PAGES)
def test_the_checker_has_no_axe_violations(browser, live_server, scheme, path):
    if not AXE.exists():
        pytest.fail("axe-core is not installed: run the README's test command (npm ci)")
    # The page's strict CSP forbids injected scripts; only this test context bypasses it.
    context = browser.new_context(viewport=PHONE, color_scheme=scheme, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(live_server.url + path)
        page.locator("#check-settings .check-game summary").click()  # the settings open, too
        page.add_script_tag(path=str(AXE))
        violations = page.evaluate(
            "async () => (await axe.run(document, {resultTypes: ['violations']}))"
            ".violations.map(v => ({id: v.id, nodes: v.nodes.map(n => n.target.join(' '))}))"
        )
    finally:
        context.close()
    assert violations == [], json.dumps(violations, indent=1)


def test_seen_cards_tapped_on_the_grid_take_copies_off_the_waits(page):
    page.goto(page.base + "/en/check/?variant=classic&cards=" + "+".join(RULES_EXAMPLE[:-1]))
    left = page.locator(".check-waits .check-left")
    expect(left).to_have_count(5)
    expect(left.first).to_have_text("2 left")
    expect(page.locator(".check-outs")).to_have_text("10 cards left in all that complete it")
    page.locator(".check-seen summary").click()  # folded away until it is used
    page.get_by_label("the seen cards").check()
    tap(page, ["2S", "JK"])
    expect(page.locator("#check-seen .check-card")).to_have_count(2)
    expect(hand(page)).to_have_count(15)  # the hand is as it was
    expect(left.first).to_have_text("1 left")
    expect(page.locator(".check-outs")).to_have_text("8 cards left in all that complete it")
    query = parse_qs(urlsplit(page.url).query)
    assert query["seen"] == ["2S JK"]
    assert query["to"] == ["seen"]
    # back to the hand: the next tap goes there
    page.get_by_label("the hand", exact=True).check()
    key(page, "JK").click()
    expect(page.locator(".check-brief")).to_contain_text("Goes out")
    assert fits_the_phone(page)
    screenshot(page, "checker-outs")


def test_the_way_back_and_the_copy_button_survive_the_taps(browser, live_server):
    context = browser.new_context(viewport=PHONE, permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        back = "/en/games/abcdefghijklmnopqrstuvwxyz/"
        page.goto(live_server.url + "/en/check/?back=" + back)
        tap(page, ["QH", "KH"])
        expect(hand(page)).to_have_count(2)
        expect(page.get_by_role("link", name="← Back to the sheet")).to_have_attribute("href", back)
        assert parse_qs(urlsplit(page.url).query)["back"] == [back]
        copy = page.get_by_role("button", name="Copy the link")
        expect(copy).to_be_visible()  # bound by share.js after the htmx swap
        copy.click()
        expect(page.locator(".check-links + .share-actions .copy-done")).to_have_text(
            "Link copied."
        )
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == live_server.url + "/en/check/?variant=classic&cards=QH+KH"
    finally:
        context.close()


def test_seen_cards_without_javascript(browser, live_server):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/en/check/?cards=" + "+".join(RULES_EXAMPLE[:-1]))
        page.locator(".check-seen summary").click()
        page.get_by_label("the seen cards").check()
        key(page, "2D").click()
        expect(page.locator("#check-seen .check-card")).to_have_count(1)
        expect(page.locator(".check-waits .check-left").nth(2)).to_have_text("1 left")
        page.locator('#check-seen button[name="unsee"][value="2D"]').click()
        expect(page.locator("#check-seen .check-card")).to_have_count(0)
        expect(page.locator(".share-actions")).to_be_hidden()
    finally:
        context.close()
