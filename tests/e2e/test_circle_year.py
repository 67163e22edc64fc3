"""A circle's year on a phone (issue 27): reached from the circle's page by a tap, without
JavaScript, in light and dark mode and in two languages, nothing wider than the screen,
the text in the page's colours and every link a large touch target."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, SCREENSHOTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LOOK = """() => {
  const wide = document.documentElement.scrollWidth > window.innerWidth;
  const links = [...document.querySelectorAll('.years a')].map(a => a.getBoundingClientRect().height);
  const dd = getComputedStyle(document.querySelector('.year-players dd'));
  const card = getComputedStyle(document.querySelector('.card-box'));
  return {wide, links, colour: dd.color, background: card.backgroundColor};
}"""


def circle_with_a_year():
    from tests.factories import ACTOR, CircleFactory, GameFactory, record_classic, record_penalty

    circle = CircleFactory(name="Dienstag")
    names = ["Anna-Katharina Wiśniewska", "Ben", "Cleo"]  # a long name on a narrow screen
    for winners in ([0, 0], [1], [1, 2]):
        game = GameFactory(players=names, circle=circle)
        for winner in winners:
            record_classic(game, winner)
        game.refresh_from_db()
        game.end(version=game.version, once=f"end-{game.pk:020d}", actor=ACTOR)
    romme = GameFactory(variant_id="romme", players=names[:2], circle=circle)
    record_penalty(romme, 1, {0: 35})
    romme.refresh_from_db()
    romme.end(version=romme.version, once=None, actor=ACTOR)
    romme.refresh_from_db()
    return circle, romme.finished_at.year


LANDSCAPE = {"width": 1280, "height": 720}


@pytest.mark.parametrize(
    ("scheme", "lang", "viewport"),
    [
        ("light", "de", PHONE),
        ("dark", "pl", PHONE),
        ("light", "es", LANDSCAPE),
        ("dark", "de", LANDSCAPE),
    ],
)
def test_the_year_is_a_tap_away_and_fits_the_screen(browser, live_server, scheme, lang, viewport):
    """On a phone upright and on a 1280 × 720 screen in landscape, light and dark, with axe."""
    from tests.e2e.test_accessibility import axe_violations

    circle, year = circle_with_a_year()
    context = browser.new_context(viewport=viewport, color_scheme=scheme, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/{lang}/circles/{circle.viewer_token}/")
    page.locator(".years a", has_text=str(year)).click()
    expect(page).to_have_url(f"{live_server.url}/{lang}/circles/{circle.viewer_token}/year/{year}/")
    expect(page.locator("h1")).to_contain_text(str(year))
    expect(page.locator("section.card-box h2")).to_have_count(2)  # the classic game, Rommé
    expect(page.locator(".year-players > li")).to_have_count(5)  # three players, then two
    look = page.evaluate(LOOK)
    assert not look["wide"], look
    assert all(h >= 44 for h in look["links"]), look
    assert look["colour"] != look["background"], look
    expect(page.locator("form")).to_have_count(0)  # nothing on it changes anything
    SCREENSHOTS.mkdir(exist_ok=True)
    shot = f"circle-year-{scheme}-{viewport['width']}.png"
    page.screenshot(path=str(SCREENSHOTS / shot), full_page=True)
    context.close()
    url = f"{live_server.url}/{lang}/circles/{circle.viewer_token}/year/{year}/"
    assert axe_violations(browser, url, scheme, viewport) == []
