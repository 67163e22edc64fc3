"""The evening at the table, smoothed (issue 23): what a phone at the table shows after a
save and a live update, on a 390 px phone."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import drawn
from tests.factories import GameFactory, record_classic

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NEWEST_ROW_SEEN = """() => {
  const box = document.querySelector('.sheet-scroll');
  const rows = box.querySelectorAll('tbody tr');
  const row = rows[rows.length - 1].getBoundingClientRect();
  const head = box.querySelector('thead th').getBoundingClientRect();
  const foot = box.querySelector('tfoot th').getBoundingClientRect();
  return {number: rows[rows.length - 1].querySelector('th').textContent.trim(),
          seen: row.top >= head.bottom - 1 && row.bottom <= foot.top + 1,
          capped: box.scrollHeight > box.clientHeight};
}"""


def test_the_newest_deal_stays_in_view_after_a_save_and_a_live_update(page):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    for deal in range(15):
        record_classic(game, deal % 4, jokers=1)
    page.goto(f"{page.base}/en/games/{game.editor_token}/")
    seen = page.evaluate(NEWEST_ROW_SEEN)
    assert seen["capped"], seen
    assert seen["number"] == "15", seen
    assert seen["seen"], seen
    page.get_by_role("link", name="Record deal 16").click()
    page.locator(".deal-form label.chip", has_text="Ben").first.click()
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#game .messages")).to_contain_text("Deal 16 recorded.")
    seen = page.evaluate(NEWEST_ROW_SEEN)
    assert seen["number"] == "16", seen
    assert seen["seen"], seen
    page.evaluate("document.querySelector('.sheet-scroll').scrollTop = 0")
    record_classic(game, 2)  # another phone records deal 17; this one follows
    expect(page.locator(".sheet tbody tr")).to_have_count(17)
    seen = page.evaluate(NEWEST_ROW_SEEN)
    assert seen["number"] == "17", seen
    assert seen["seen"], seen


def test_a_live_update_clears_the_success_message_that_no_longer_holds(page):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    record_classic(game, 0)
    page.goto(f"{page.base}/en/games/{game.editor_token}/")
    page.get_by_role("link", name="Record deal 2").click()
    page.locator(".deal-form label.chip", has_text="Ben").first.click()
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#game")).to_contain_text("Deal 2 recorded.")
    record_classic(game, 2)  # another phone records deal 3
    expect(page.locator(".sheet tbody tr")).to_have_count(3)
    expect(page.get_by_text("Deal 2 recorded.")).to_have_count(0)
    expect(page.get_by_role("link", name="Record deal 4")).to_be_visible()


CUE_OVER_SCORES = """() => {
  const wrap = document.querySelector('.sheet-wrap');
  const box = document.querySelector('.sheet-scroll').getBoundingClientRect();
  const cue = getComputedStyle(wrap, '::after');
  const w = wrap.getBoundingClientRect();
  const width = parseFloat(cue.width), height = parseFloat(cue.height);
  const left = w.right - parseFloat(cue.right) - width, top = w.top + parseFloat(cue.top);
  const covered = [];
  for (const td of document.querySelectorAll('.sheet tbody td, .sheet tfoot td')) {
    const range = document.createRange();
    range.selectNodeContents(td);
    for (const r of range.getClientRects()) {
      // the part of the text the box shows (what it clips is not seen)
      const l = Math.max(r.left, box.left), rr = Math.min(r.right, box.right);
      const t = Math.max(r.top, box.top), b = Math.min(r.bottom, box.bottom);
      if (l < rr && t < b && l < left + width && rr > left && t < top + height && b > top)
        covered.push(td.textContent);
    }
  }
  return {opacity: Number(cue.opacity), covered};
}"""


def test_at_320_px_the_scroll_cue_covers_no_score(page):
    from tests.e2e.test_small_screens import TWELVE

    game = GameFactory(variant_id="classic", players=TWELVE)
    for deal in range(12):
        record_classic(game, (deal * 5) % 12, jokers=1)
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(f"{page.base}/en/games/{game.viewer_token}/")
    expect(page.locator(".sheet tbody tr")).to_have_count(12)
    for left, top in ((0, 0), (0.4, 200), (0, 10_000)):
        page.evaluate(
            "([l, t]) => { const b = document.querySelector('.sheet-scroll');"
            " b.scrollLeft = l * (b.scrollWidth - b.clientWidth); b.scrollTop = t; }",
            [left, top],
        )
        drawn(page)  # the scroll-driven cue follows the scroll a frame later
        seen = page.evaluate(CUE_OVER_SCORES)
        assert seen["opacity"] > 0, (left, top, seen)
        assert seen["covered"] == [], (left, top, seen)


from tests.e2e.test_checker import RULES_EXAMPLE as HAND  # noqa: E402


def grid_top(page, selector: str) -> float:
    return page.evaluate(
        "s => document.querySelector(s).getBoundingClientRect().top + window.scrollY", selector
    )


def test_the_checkers_grid_stays_where_it_is_tapped(page):
    page.goto(page.base + "/en/check/")
    before = grid_top(page, ".check-grid")
    for i, code in enumerate(HAND, start=1):
        page.locator(f'.check-grid button[name="add"][value="{code}"]').click()
        expect(page.locator("#check-hand .check-card")).to_have_count(i)
        assert grid_top(page, ".check-grid") == before, f"the grid moved at card {i}"
    expect(page.locator(".check-brief")).to_have_text("Goes out · payment 3")


def test_the_deal_forms_card_grids_stay_where_they_are_tapped(page):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    page.goto(f"{page.base}/en/games/{game.editor_token}/")
    page.get_by_role("link", name="Record deal 1").click()
    page.locator(".deal-form label.chip", has_text="Anna").first.click()
    page.locator(".deal-form .mode label.chip").nth(1).click()
    expect(page.locator(".by-hand .card-grid")).to_be_visible()
    before = grid_top(page, ".by-hand .card-suit")
    for i, code in enumerate(HAND, start=1):
        page.locator(f'.by-hand [data-card="{code}"]').click()
        assert grid_top(page, ".by-hand .card-suit") == before, f"the grid moved at card {i}"
    expect(page.locator(".by-hand .card-hand .check-card")).to_have_count(16)

    romme = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo", "Dan"])
    page.goto(f"{page.base}/en/games/{romme.editor_token}/")
    page.get_by_role("link", name="Record deal 1").click()
    page.locator(".deal-form label.chip", has_text="Anna").first.click()
    page.locator(".penalty-row").nth(1).locator("summary").click()
    grid = ".cards-entry[open] .card-suit"
    before = grid_top(page, grid)
    for i, code in enumerate(HAND[:5], start=1):
        page.locator(f'.cards-entry[open] [data-card="{code}"]').click()
        assert grid_top(page, grid) == before, f"the grid moved at card {i}"


def test_cards_tapped_in_german_are_written_in_the_buttons_letters(page):
    game = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"])
    page.goto(f"{page.base}/de/games/{game.editor_token}/")
    page.get_by_role("link", name="Runde 1 eintragen").click()
    page.locator(".deal-form label.chip", has_text="Anna").first.click()
    row = page.locator(".penalty-row").nth(1)
    row.locator("summary").click()
    for code in ("JH", "QH", "KS"):
        row.locator(f'[data-card="{code}"]').click()
    expect(row.locator("textarea, input[type=text]").last).to_have_value("BH DH KS")
    expect(row.locator(".card-hand .check-card")).to_have_count(3)
    expect(row.locator(".card-sum")).to_contain_text("30")


def test_money_per_point_is_on_the_form_and_the_phone_remembers_its_variant(page):
    page.goto(page.base + "/en/games/new/")
    page.locator('label.variant-choice:has(input[value="classic"])').click()
    money = page.get_by_label("Money per point (optional)")
    expect(money).to_be_visible()  # the house rules stay folded
    expect(page.locator("details.house-rules")).not_to_have_attribute("open", "")
    page.locator('label.variant-choice:has(input[value="romme"])').click()
    expect(money).to_be_hidden()
    page.locator('label.variant-choice:has(input[value="classic"])').click()
    money.fill("0,10")
    for name in ("Anna", "Ben"):
        page.get_by_label("Player's name").fill(name)
        page.get_by_role("button", name="Add", exact=True).click()
        expect(page.locator(".seats li").last).to_contain_text(name)
    page.get_by_role("button", name="Start").click()
    page.get_by_role("link", name="Record deal 1").click()
    page.locator(".deal-form label.chip", has_text="Anna").first.click()
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".standings li").first).to_contain_text("+")
    expect(page.locator(".standings .money").first).to_be_visible()
    page.goto(page.base + "/en/games/new/")
    expect(page.locator('input[name="variant"][value="classic"]')).to_be_checked()


def test_every_wrong_penalty_is_said_as_it_is_typed_and_the_limit_as_names_are_added(page):
    game = GameFactory(variant_id="contract-nordic", players=["Anna", "Ben", "Cleo", "Dan"])
    page.goto(f"{page.base}/en/games/{game.editor_token}/")
    page.get_by_role("link", name="Record deal 1").click()
    page.locator(".deal-form label.chip", has_text="Anna").first.click()
    for i, points in ((1, "7"), (2, "13"), (3, "9")):
        page.locator(f'input[name="points_{i}"]').fill(points)
    preview = page.locator("#preview")
    for name in ("Ben", "Cleo", "Dan"):
        expect(preview).to_contain_text(f"{name}: ")
    page.get_by_role("button", name="Save").click()
    for name in ("Ben", "Cleo", "Dan"):
        expect(page.locator(".error-summary")).to_contain_text(f"{name}: ")

    page.goto(page.base + "/en/games/new/")
    page.locator('label.variant-choice:has(input[value="contract-nordic"])').click()
    for i in range(6):
        page.get_by_label("Player's name").fill(f"Player {i + 1}")
        page.get_by_role("button", name="Add", exact=True).click()
        expect(page.locator(".seats li")).to_have_count(i + 1)
        limit = page.get_by_text("is for 3 to 5 players")
        if i < 5:
            expect(limit).to_have_count(0)
    expect(limit).to_be_visible()
    page.locator('label.variant-choice:has(input[value="classic"])').click()
    expect(limit).to_be_hidden()  # the 15-card game takes six
    page.locator('label.variant-choice:has(input[value="contract-nordic"])').click()
    expect(limit).to_be_visible()
