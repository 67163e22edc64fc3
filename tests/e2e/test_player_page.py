"""The player page and a flagged sheet at phone width, in light and dark mode: no axe-core
violations, nothing wider than the screen, the rating chart drawn without JavaScript."""

import json

import pytest

from tests.e2e.conftest import PHONE, SCREENSHOTS
from tests.e2e.test_accessibility import AXE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE_RUN = (
    "async () => { const r = await axe.run(document, {resultTypes: ['violations']});"
    " return r.violations.map(v => ({id: v.id, impact: v.impact,"
    " nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)})); }"
)


def finished_games():
    from scorepad.models import DealScore
    from tests.factories import ACTOR, CircleFactory, GameFactory, record_classic

    games = []
    circle = CircleFactory()
    for winners in ([0, 0, 1], [2], [1, 1]):
        game = GameFactory(players=["Anna", "Ben", "Cleo"], circle=circle)
        people = [s.person for s in game.seats.order_by("position")]
        for winner in winners:
            record_classic(game, winner)
        game.refresh_from_db()
        game.end(version=game.version, once=f"end-{game.pk:020d}", actor=ACTOR)
        games.append(game)
    DealScore.objects.filter(deal__game=games[0], deal__number=2, seat__position=1).update(
        points=-7
    )
    return games, people


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_player_page_and_a_flagged_sheet_have_no_axe_violations(browser, live_server, scheme):
    games, people = finished_games()
    context = browser.new_context(viewport=PHONE, color_scheme=scheme, bypass_csp=True)
    page = context.new_page()
    found = {}
    for game in games:  # the phone follows the three games' viewer links
        page.goto(f"{live_server.url}/en/games/{game.viewer_token}/")
    assert page.locator("tr.flagged").count() == 0  # the last game is sound
    page.goto(f"{live_server.url}/en/games/{games[0].viewer_token}/")
    assert page.locator("tr.flagged").count() == 1
    circle = people[0].circle.viewer_token
    paths = [f"/en/games/{games[0].viewer_token}/", f"/de/circles/{circle}/players/{people[0].pk}/"]
    for path in paths:
        page.goto(live_server.url + path)
        page.add_script_tag(path=str(AXE))
        violations = page.evaluate(AXE_RUN)
        if violations:
            found[path] = violations
    assert found == {}, json.dumps(found, indent=1)
    assert page.locator("figure.chart svg polyline").count() == 1
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"player-{scheme}.png"), full_page=True)
    context.close()
