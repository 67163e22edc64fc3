"""The sheet's chart, the evening chart and the player's rating chart (one partial,
scorepad/charts.py) draw every line with a visible stroke, in light and dark mode and in a
language with a decimal comma (issue 21, item 3; issue 26)."""

import pytest
from django.test import Client
from django.urls import reverse

from scorepad.models import Evening
from tests.e2e.conftest import PHONE, SCREENSHOTS
from tests.factories import ACTOR, GameFactory, record_classic, record_penalty
from tests.scorepad.conftest import hidden

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

STROKES = """() => {
  const rgb = c => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => {
    const f = c => (c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const contrast = (a, b) => {
    const [hi, lo] = [lum(rgb(a)), lum(rgb(b))].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  return [...document.querySelectorAll('figure.chart svg')].flatMap(svg => {
    const background = getComputedStyle(svg).backgroundColor;
    return [...svg.querySelectorAll('polyline')].map(line => {
      const style = getComputedStyle(line);
      const box = line.getBBox();
      return {
        stroke: style.stroke, width: parseFloat(style.strokeWidth), opacity: style.opacity,
        alpha: style.stroke.startsWith('rgba') ? rgb(style.stroke)[3] : 1,
        contrast: style.stroke.startsWith('rgb') ? contrast(style.stroke, background) : 0,
        points: line.points.numberOfItems, size: box.width + box.height,
        background,
      };
    });
  });
}"""


def finished_classic(names, winners, circle=None):
    game = GameFactory(variant_id="classic", players=names, circle=circle)
    for winner in winners:
        record_classic(game, winner)
    game.refresh_from_db()
    game.end(version=game.version, once=f"end-{game.pk:020d}", actor=ACTOR)
    return game


@pytest.fixture
def charts(db):
    """An evening of three games at a stake with decimals, and one player's page."""
    from scorepad.access import circle_reference
    from tests.factories import CircleFactory

    circle = CircleFactory()
    first = finished_classic(["Anna", "Ben", "Cleo"], [0, 1, 0], circle)
    people = [s.person for s in first.seats.order_by("position")]
    romme = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"], circle=circle)
    record_penalty(romme, 0, {1: 37, 2: 11})
    romme.refresh_from_db()
    romme.end(version=romme.version, once=None, actor=ACTOR)
    third = finished_classic(["Anna", "Ben", "Cleo"], [1, 1], circle)
    client = Client()
    ref = circle_reference(circle)
    form = client.get(reverse("evening-new"), {"circle": ref}).content.decode()
    client.post(
        reverse("evening-new"),
        {
            "circle": ref,
            "stake": "0.15",
            "once": hidden(form, "once"),
            "games": [g.editor_token for g in (first, romme, third)],
        },
    )
    evening = Evening.objects.get()
    seen = [f"/en/games/{g.viewer_token}/" for g in (first, romme, third)]
    return seen, {
        "game": f"/de/games/{first.viewer_token}/",
        "evening": f"/de/evenings/{evening.viewer_token}/",
        "player": f"/de/circles/{circle.viewer_token}/players/{people[0].pk}/",
        "evening-en": f"/en/evenings/{evening.viewer_token}/",
    }


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_line_of_the_evening_and_rating_charts_is_visible(
    browser, live_server, charts, scheme
):
    context = browser.new_context(viewport=PHONE, color_scheme=scheme)
    page = context.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    seen, pages = charts
    for path in seen:  # a player's page opens for a phone that followed their games
        page.goto(live_server.url + path)
    expected = {"game": 3, "evening": 3, "player": 2, "evening-en": 3}  # player: classic, Rommé
    for which, path in pages.items():
        assert page.goto(live_server.url + path).status == 200
        lines = page.evaluate(STROKES)
        assert len(lines) == expected[which], (which, lines)
        for line in lines:
            assert line["stroke"] not in ("none", "transparent", ""), (which, line)
            assert line["alpha"] == 1, (which, line)
            assert line["opacity"] == "1", (which, line)
            assert line["width"] >= 1, (which, line)
            assert line["contrast"] >= 3, (which, line)  # stands out from the chart
            assert line["points"] >= 2, (which, line)  # coordinates read
            assert line["size"] > 0, (which, line)
        if which != "player":  # the players told apart, as on the sheet
            assert len({line["stroke"] for line in lines}) == 3, lines
        SCREENSHOTS.mkdir(exist_ok=True)
        shot = SCREENSHOTS / f"chart-lines-{which}-{scheme}.png"
        page.locator("figure.chart").first.screenshot(path=str(shot))
    assert errors == []  # no "Expected length" from a decimal comma
    context.close()
