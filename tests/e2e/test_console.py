"""No page and no htmx swap writes an error to the browser's console: in particular no
Content-Security-Policy violation (the policy allows no inline script or style)."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from scorepad.models import Evening, EveningGame
from tests.e2e.conftest import PHONE
from tests.factories import ACTOR, CircleFactory, GameFactory, record_classic, record_penalty

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
    "/fi/rules/tournament/",
    "/en/api/",
    "/en/offline/",
    "/en/nowhere/",
]


# Every Content-Security-Policy violation of a page, told to the test where it happened (an
# init script runs outside the page's CSP).
CSP_REPORTS = """document.addEventListener('securitypolicyviolation', (e) => window.cspViolated(
  `${e.violatedDirective} on ${location.pathname}: ${e.sample || e.blockedURI}`
  + ` (${e.sourceFile || 'the page'}, line ${e.lineNumber})`));"""


def watch(page) -> list[str]:
    """Every console error and warning, page error and CSP violation of ``page``, on every
    page it opens from now on."""
    said = []
    page.on(
        "console",
        lambda m: said.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None,
    )
    page.on("pageerror", lambda e: said.append(f"pageerror: {e}"))
    page.expose_function("cspViolated", lambda text: said.append(f"csp: {text}"))
    page.add_init_script(CSP_REPORTS)
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


def an_evening_of_a_circle():
    """A circle's evening of five: a finished game (its standings, settle-up and result to
    share) and a game being played."""
    circle = CircleFactory(name="Wtorki")
    names = ["Piotrek", "Marek", "Kasia", "Ania", "Zofia"]
    done = GameFactory(players=names, circle=circle)
    for deal in range(3):
        record_classic(done, deal)
    done.refresh_from_db()
    done.end(version=done.version, once=None, actor=ACTOR)
    playing = GameFactory(players=names, circle=circle)
    record_classic(playing, 1)
    evening = Evening.objects.create(name="Piątek", stake=Decimal("0.50"), circle=circle)
    for position, game in enumerate((done, playing), start=1):
        EveningGame.objects.create(
            evening=evening, game=game, stake=Decimal("0.50"), position=position
        )
    return circle, done, playing, evening


def test_every_kind_of_page_at_the_table_writes_nothing_to_the_console(phone, live_server):
    """The pages a table opens in an evening, in its languages: no error, no CSP violation."""
    circle, done, playing, evening = an_evening_of_a_circle()
    said = watch(phone)
    for path in (
        f"/pl/games/{playing.editor_token}/",
        f"/es/games/{playing.viewer_token}/",
        f"/fi/games/{done.editor_token}/",
        f"/pl/games/{playing.editor_token}/share/",
        f"/pl/games/{playing.editor_token}/history/",
        f"/pl/games/{playing.editor_token}/players/",
        f"/pl/games/{playing.editor_token}/evenings/",
        f"/es/games/{playing.viewer_token}/table/",
        f"/pl/evenings/{evening.editor_token}/",
        f"/fi/evenings/{evening.viewer_token}/",
        f"/pl/evenings/{evening.viewer_token}/table/",
        f"/pl/circles/{circle.editor_token}/",
        f"/pl/circles/{circle.viewer_token}/players/",
        f"/pl/circles/{circle.viewer_token}/players/{circle.find('Piotrek').pk}/",
        f"/pl/circles/{circle.viewer_token}/year/{done.finished_at.year}/",
        "/pl/check/?variant=classic&cards=4S+5S+6S+7S+9H+10H+JH+QH",
        "/es/rules/classic/",
    ):
        phone.goto(live_server.url + path)
        phone.wait_for_load_state("networkidle")
    assert said == [], said


def test_a_text_box_made_larger_writes_nothing_when_the_evening_updates(
    phone, live_server, streams
):
    """Issue 45, item 8: "inline style violates CSP" errors came in bursts. A text box a
    person drags larger gets its size from the browser as a style attribute (which the CSP
    allows: the CSSOM), and htmx copied it onto the box of each live update with
    setAttribute, which the CSP refuses: one error at every update."""
    _, _, playing, evening = an_evening_of_a_circle()
    said = watch(phone)
    phone.goto(f"{live_server.url}/pl/evenings/{evening.viewer_token}/")
    phone.wait_for_function("() => window.scorepadLive && window.scorepadLive.open")
    text = phone.locator("#result-text")
    text.scroll_into_view_if_needed()
    box = text.bounding_box()
    corner = (box["x"] + box["width"] - 2, box["y"] + box["height"] - 2)
    phone.mouse.move(*corner)
    phone.mouse.down()
    phone.mouse.move(corner[0], corner[1] + 80, steps=4)
    phone.mouse.up()
    assert text.bounding_box()["height"] > box["height"] + 40  # dragged larger
    ledger = phone.locator(".sheet-area tbody")
    before = ledger.inner_text()
    for deal in (2, 3):  # another phone records two deals: the page follows each
        record_classic(playing, deal)
        expect(ledger).not_to_have_text(before)
        before = ledger.inner_text()
    phone.wait_for_load_state("networkidle")
    assert said == [], said


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
