"""An evening of two games in a real headless Chromium at phone width, without JavaScript:
start it from a game's page, add the second game from its page, settle up, carry the
balances; and the evening page has no axe violations."""

import json

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, screenshot
from tests.e2e.test_accessibility import axe_violations
from tests.factories import ACTOR, GameFactory, record_classic, record_penalty

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def two_games():
    classic = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    record_classic(classic, 0, no_wild=True)  # Anna +22, Ben −11, Cleo −11
    classic.refresh_from_db()
    classic.end(version=classic.version, once=None, actor=ACTOR)
    romme = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"])
    record_penalty(romme, 0, {1: 30, 2: 10})  # Anna 0, Ben 30, Cleo 10
    romme.refresh_from_db()
    romme.end(version=romme.version, once=None, actor=ACTOR)
    return classic, romme


@pytest.fixture
def no_script_page(browser, live_server):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base = live_server.url
    yield page
    context.close()


def test_an_evening_of_two_games_settles_up_without_javascript(no_script_page):
    page = no_script_page
    classic, romme = two_games()

    # From the first game's page: its evenings, then a new evening with it.
    page.goto(f"{page.base}/en/games/{classic.editor_token}/")
    page.locator(".game-nav").get_by_role("link", name="Evenings").click()
    page.get_by_role("link", name="Start an evening with this game").click()
    page.get_by_label("Name of the evening (optional)").fill("Friday")
    page.get_by_label("Money per point").fill("0.10")
    expect(page.locator('input[name="games"]:checked')).to_have_count(1)
    screenshot(page, "evening-new")
    page.get_by_role("button", name="Start the evening").click()
    expect(page.get_by_role("heading", name="Friday")).to_be_visible()
    expect(page.locator(".transfers")).to_contain_text("Ben pays Anna 1.10")

    # The second game joins from its own page, at its own stake.
    page.goto(f"{page.base}/en/games/{romme.editor_token}/")
    page.locator(".game-nav").get_by_role("link", name="Evenings").click()
    screenshot(page, "game-evenings")
    page.get_by_label("Money per point").fill("0,10")
    page.get_by_role("button", name="Add to this evening").click()
    expect(page.locator(".messages")).to_contain_text("The game was added to the evening.")

    # The settle-up of both games: Anna +2.20 +4.00, Ben −1.10 −5.00, Cleo −1.10 +1.00.
    transfers = page.locator(".transfers li")
    expect(transfers).to_have_text(["Ben pays Anna 6.10", "Cleo pays Anna 0.10"])
    expect(page.locator(".standings li").first).to_contain_text("+6.20")
    expect(page.locator("figure.chart svg polyline")).to_have_count(3)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "evening-settle-up")

    # The table plays on another night: the balances are carried, nobody pays now.
    page.get_by_role("button", name="Carry the balances to the next evening").click()
    expect(page.locator(".messages")).to_contain_text("the next evening starts here")
    expect(page.locator("tbody tr")).to_have_count(1)  # the carried row, no game yet
    expect(page.locator(".transfers li")).to_have_text(
        ["Ben pays Anna 6.10", "Cleo pays Anna 0.10"]
    )

    # The carried evening says nobody pays, its payments drawn struck through.
    page.go_back()
    page.reload()
    expect(page.locator(".carried-settle")).to_contain_text("Nobody pays now")
    struck = page.locator(".transfers.carried li del").first
    expect(struck).to_have_text("Ben pays Anna 6.10")
    drawn = struck.evaluate(
        "(el) => { const s = getComputedStyle(el);"
        " return [s.textDecorationLine, s.textDecorationColor || s.color, s.fontWeight]; }"
    )
    assert "line-through" in drawn[0], drawn
    assert "rgba(0, 0, 0, 0)" not in drawn[1], drawn
    assert int(drawn[2]) < 600, drawn  # not bold: nothing to pay


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_evening_pages_have_no_axe_violations(browser, live_server, scheme):
    from scorepad.models import Evening, EveningGame

    classic, romme = two_games()
    evening = Evening.objects.create(name="Friday", stake="0.10")
    for position, game in enumerate((classic, romme), start=1):
        EveningGame.objects.create(evening=evening, game=game, stake="0.10", position=position)
    found = {}
    for path in (
        f"/en/evenings/{evening.editor_token}/",
        f"/de/evenings/{evening.viewer_token}/",
        "/en/evenings/new/",
        f"/en/games/{classic.editor_token}/evenings/",
    ):
        violations = axe_violations(browser, live_server.url + path, scheme)
        if violations:
            found[path] = violations
    assert found == {}, json.dumps(found, indent=1)


def test_the_evenings_next_game_is_one_tap_in_polish(page):
    """Issue 45, item 7: from the evening's page its editor starts the next game, the last
    game's players already seated, and the evening counts it from its start."""
    from django.utils import translation
    from django.utils.translation import gettext

    from scorepad.models import Evening, EveningGame

    romme = GameFactory(variant_id="romme", players=["Kasia", "Marek", "Anna"])
    record_penalty(romme, 0, {1: 30, 2: 10})
    evening = Evening.objects.create(name="Piątek", stake="0.10")
    evening.start(actor=ACTOR)
    EveningGame.objects.create(evening=evening, game=romme, stake="0.10", position=1)
    with translation.override("pl"):
        start_next, start = gettext("Start the next game"), gettext("Start")
        counts = gettext("It counts in the evening “%(name)s”.") % {"name": "Piątek"}
    page.goto(f"{page.base}/pl/evenings/{evening.editor_token}/")
    page.get_by_role("link", name=start_next).click()
    expect(page.locator(".evening-of-game")).to_have_text(counts)
    for name in ("Kasia", "Marek", "Anna"):
        expect(page.locator("#new-game .players")).to_contain_text(name)
    page.get_by_role("button", name=start, exact=True).click()
    expect(page.locator("#sheet-title")).to_be_visible()
    page.goto(f"{page.base}/pl/evenings/{evening.editor_token}/")
    expect(page.locator(".sheet-area table.sheet tbody tr")).to_have_count(2)
