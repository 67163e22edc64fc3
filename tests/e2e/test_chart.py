"""The chart and the sheet mark every player alike, in light and dark mode, by shape and fill
as well as colour (issue 14, item 9)."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, SCREENSHOTS
from tests.factories import GameFactory, record_classic

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Ana", "Bo", "Carmen", "Dag", "Elin", "Fredrik",
    "Greta", "Hanna", "Iwona", "Jussi", "Kari", "Lucía",
]  # fmt: skip

MARKS = """() => {
  const rgb = c => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => {
    const f = c => (c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const contrast = (a, b) => {
    const [hi, lo] = [lum(rgb(a)), lum(rgb(b))].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const card = getComputedStyle(document.querySelector('.sheet-scroll')).backgroundColor;
  return [...document.querySelectorAll('.sheet thead th:not(.num)')].map((th, i) => {
    const head = getComputedStyle(th, '::before');
    const line = getComputedStyle(document.querySelector(`.chart polyline.m${i}`));
    const dot = getComputedStyle(document.querySelector(`#mk${i} path`));
    const standing = getComputedStyle(document.querySelector(`.standings li.m${i}`), '::before');
    const legend = getComputedStyle(document.querySelector(`.legend li.m${i}`), '::before');
    return {
      head: head.backgroundColor, line: line.stroke, dot: dot.fill,
      standing: standing.backgroundColor, legend: legend.backgroundColor,
      shape: head.clipPath, legendShape: legend.clipPath, dash: line.strokeDasharray,
      contrast: contrast(head.backgroundColor, card),
      size: [parseFloat(head.width), parseFloat(head.height)],
    };
  });
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_each_player_has_the_same_mark_on_the_sheet_the_standings_and_the_chart(
    browser, live_server, scheme
):
    game = GameFactory(variant_id="classic", players=NAMES)
    for deal in range(14):
        record_classic(game, (deal * 7) % 12, jokers=deal % 3)
    context = browser.new_context(viewport=PHONE, color_scheme=scheme, device_scale_factor=2)
    page = context.new_page()
    page.goto(f"{live_server.url}/en/games/{game.viewer_token}/")
    expect(page.locator(".chart polyline")).to_have_count(12)
    marks = page.evaluate(MARKS)
    assert len(marks) == 12
    for i, m in enumerate(marks):
        assert m["head"] == m["line"] == m["dot"] == m["standing"] == m["legend"], (i, m)
        assert m["shape"] == m["legendShape"], m
        assert m["shape"].startswith("path(evenodd"), m
        assert m["contrast"] >= 3, (i, m)  # a mark stands out from the sheet
        assert m["size"] == [10, 10]
        assert (m["dash"] != "none") == (i >= 6), (i, m)  # hollow marks, dashed lines
    # Shape and fill tell the twelve apart without their colour.
    assert len({m["shape"] for m in marks}) == 12
    # The axes: values on the left, deal numbers below, in the page's colours.
    expect(page.locator(".chart .values text").first).to_be_visible()
    expect(page.locator(".chart .deals text")).to_have_text(
        ["1", "2", "4", "6", "8", "10", "12", "14"]
    )
    SCREENSHOTS.mkdir(exist_ok=True)
    page.locator(".chart").screenshot(path=str(SCREENSHOTS / f"chart-12-players-{scheme}.png"))
    context.close()
