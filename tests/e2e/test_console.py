"""No page and no htmx swap writes an error to the browser's console: in particular no
Content-Security-Policy violation (the policy allows no inline script or style)."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE
from tests.factories import GameFactory, record_classic, record_penalty

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SITE = [
    "/en/",
    "/de/games/",
    "/en/games/new/",
    "/en/games/import/",
    "/en/circles/new/",
    "/en/check/?variant=classic&cards=4S+5S+6S+7S+9H+10H+JH+QH+10C+JC+QC+KC+AD+3D+KH+JK",
    "/nb/check/?variant=contract-nordic",
    "/en/rules/",
    "/pl/rules/contract-spanish/",
    "/fi/rules/romme/summary/",
    "/de/rules/glossary/",
    "/en/api/",
    "/en/offline/",
    "/en/nowhere/",
]


def watch(page) -> list[str]:
    """Every console error and warning, page error and CSP report of ``page``."""
    said = []
    page.on(
        "console",
        lambda m: said.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None,
    )
    page.on("pageerror", lambda e: said.append(f"pageerror: {e}"))
    return said


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.mark.parametrize("path", SITE)
def test_a_page_writes_nothing_to_the_console(phone, live_server, path):
    said = watch(phone)
    phone.goto(live_server.url + path)
    phone.wait_for_load_state("networkidle")
    # A missing page answers 404, which the browser reports; nothing else may appear.
    expected = [s for s in said if "404" in s] if path == "/en/nowhere/" else []
    assert said == expected, said


def test_the_score_pad_and_its_swaps_write_nothing_to_the_console(phone, live_server):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    record_classic(game, 0)
    nordic = GameFactory(variant_id="contract-nordic", players=["Eva", "Finn", "Gro"])
    record_penalty(nordic, 0, {1: 25, 2: 40})
    said = watch(phone)
    base = live_server.url
    phone.goto(f"{base}/en/games/{game.editor_token}/")
    phone.get_by_role("link", name="Record deal 2").click()
    form = phone.locator(".deal-form")
    form.locator("label.chip", has_text="Ben").click()
    form.locator('fieldset:has(legend:text("Jokers used")) label.chip', has_text="1").click()
    expect(phone.locator("#preview")).to_contain_text("Every other player pays Ben")
    form.locator("label.chip", has_text="From the winner's hand").click()
    form.get_by_role("button", name="Save").click()  # a hand is missing: errors in place
    expect(form.locator(".errorlist").first).to_be_visible()
    # Each tap waits for the panel it opens: a "Cancel" tapped while the next panel is still
    # on its way would be the old panel's, and the late panel would then cover the sheet.
    phone.get_by_role("link", name="Cancel").click()
    expect(phone.locator("#panel")).to_have_count(0)
    phone.get_by_role("link", name="Correct deal 1").click()
    expect(phone.locator("#panel-title")).to_have_text("Correct deal 1")
    phone.get_by_role("link", name="Delete deal 1").click()
    expect(phone.locator("#panel-title")).to_have_text("Delete deal 1?")
    phone.get_by_role("link", name="Cancel").click()
    expect(phone.locator("#panel")).to_have_count(0)
    phone.get_by_role("button", name="Undo deal 1").click()
    expect(phone.locator("#game .messages")).to_contain_text("Deal 1 undone.")
    for url in ("share/", "history/"):
        phone.goto(f"{base}/en/games/{game.editor_token}/{url}")
    phone.goto(f"{base}/en/games/{nordic.editor_token}/")
    phone.get_by_role("link", name="Record deal 2").click()
    phone.locator(".deal-form label.chip", has_text="Eva").click()
    phone.locator('.penalty-row[data-pos="1"] summary').click()
    phone.locator('.penalty-row[data-pos="1"] .card-grid').get_by_role(
        "button", name="five of hearts", exact=True
    ).click()
    phone.get_by_label("Gro — penalty points").fill("30")
    expect(phone.locator("#preview .ledger")).to_be_visible()
    phone.wait_for_load_state("networkidle")
    assert said == [], said


def test_the_new_game_page_and_the_checkers_swaps_write_nothing_to_the_console(phone, live_server):
    """The swaps the issue counted Content-Security-Policy errors on: adding players on the
    new-game page, tapping cards in the checker and in a deal form's card grid."""
    said = watch(phone)
    base = live_server.url
    phone.goto(f"{base}/en/games/new/")
    phone.locator(".variant-choice", has_text="Nordic").click()
    for name in ("Anna", "Ben"):
        phone.get_by_label("Player's name").fill(name)
        phone.get_by_role("button", name="Add", exact=True).click()
        expect(phone.locator("#new-game")).to_contain_text(name)
    phone.get_by_role("button", name="Start", exact=True).click()  # too few players: refused
    expect(phone.locator("#new-game .errorlist").first).to_be_visible()
    phone.get_by_label("Player's name").fill("Cleo")
    phone.get_by_role("button", name="Add", exact=True).click()
    # htmx drops a second request of the form while the first is on its way: Start once
    # Cleo is seated, as a person would.
    expect(phone.locator("#new-game .seats")).to_contain_text("Cleo")
    phone.get_by_role("button", name="Start", exact=True).click()
    expect(phone.locator("#sheet")).to_be_visible(timeout=15_000)  # a new game, then its sheet
    phone.get_by_role("link", name="Record deal 1").click()
    phone.locator(".deal-form label.chip", has_text="Anna").click()
    row = phone.locator('.penalty-row[data-pos="1"]')
    row.locator("summary").click()
    for card in ("five of hearts", "king of spades"):
        row.locator(".card-grid").get_by_role("button", name=card, exact=True).click()
    phone.get_by_label("Cleo — penalty points").fill("30")
    expect(phone.locator("#preview .ledger")).to_be_visible()

    phone.goto(f"{base}/en/check/?variant=classic")
    grid = phone.locator(".check-grid, #checker").first
    for card in ("4S", "5S", "6S", "7S"):
        phone.locator(f'button.card-key[value="{card}"]').click()
        expect(phone.locator("#check-hand")).to_contain_text(card[0])
    phone.locator("#check-hand button.check-card").first.click()
    expect(grid).to_be_visible()
    phone.wait_for_load_state("networkidle")
    assert said == [], said


def test_no_opener_policy_warning_on_a_plain_http_lan_address(browser, live_server):
    """Browsers honour Cross-Origin-Opener-Policy only on HTTPS or localhost and warn on
    every page of a plain http address on the LAN: it is sent only where it counts."""
    from django.test import override_settings

    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS

    port = live_server.url.rsplit(":", 1)[1]
    # The LAN address as the phones see it: a name the browser does not trust as it trusts
    # localhost, led to this computer.
    lan = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP table.lan 127.0.0.1"],
    )
    try:
        page = lan.new_context(viewport=PHONE, has_touch=True).new_page()
        said = watch(page)
        with override_settings(ALLOWED_HOSTS=["table.lan", "localhost"]):
            answer = page.goto(f"http://table.lan:{port}/en/")
            assert answer.ok
            assert page.evaluate("() => window.isSecureContext") is False
            assert "cross-origin-opener-policy" not in answer.headers
            page.wait_for_load_state("networkidle")
            assert said == [], said
            # On localhost, which browsers trust, it is sent.
            local = phone_page(browser)
            assert local.goto(f"{live_server.url}/en/").headers["cross-origin-opener-policy"]
    finally:
        lan.close()


def phone_page(browser):
    return browser.new_context(viewport=PHONE, has_touch=True).new_page()
