"""Table mode in Chromium (issue 27): on a phone (390 × 844, portrait) and a 1280 × 720
landscape screen, in two languages, with axe; the totals a tenth of the screen high for six
players, more players in columns; a deal recorded elsewhere appears without a tap; the
winner's moment animates, but not under reduced motion; full screen on a tap, the screen
kept awake. Issue 45: six at a 1280 × 720 screen see their names whole, the secondary lines
half the totals' height, and the standings down to the screen's lower quarter."""

import json
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from scorepad.models import Evening, EveningGame
from tests.e2e.test_accessibility import axe_violations
from tests.e2e.test_table import FAKE_WAKE_LOCK
from tests.factories import ACTOR, GameFactory, record_classic, record_penalty

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PORTRAIT = {"width": 390, "height": 844}
LANDSCAPE = {"width": 1280, "height": 720}
SCREENS = {"portrait": PORTRAIT, "landscape": LANDSCAPE}
SIX = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn"]


def open_screen(browser, live_server, path: str, viewport: dict, **options):
    context = browser.new_context(viewport=viewport, has_touch=True, **options)
    context.add_init_script(FAKE_WAKE_LOCK)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(live_server.url + path)
    return page


def six_played():
    game = GameFactory(players=SIX)
    game.value_per_point = Decimal("0.10")
    game.save()
    for winner in range(2):
        record_classic(game, winner, jokers=1)
    game.refresh_from_db()
    return game


BOXES = """() => [...document.querySelectorAll('.tm-standings li')].map(li => {
  const t = li.querySelector('.tm-total').getBoundingClientRect();
  const r = li.getBoundingClientRect();
  return {total: t.height, left: Math.round(r.left), bottom: r.bottom, right: Math.round(t.right)};
})"""


@pytest.mark.parametrize(("lang", "said"), [("en", "Last deal: 2"), ("de", "Letzte Runde: 2")])
@pytest.mark.parametrize("screen", ["portrait", "landscape"])
def test_six_players_totals_are_a_tenth_of_the_screen_high_and_fit(
    browser, live_server, screen, lang, said
):
    game = six_played()
    viewport = SCREENS[screen]
    path = f"/{lang}/games/{game.viewer_token}/table/"
    page = open_screen(browser, live_server, path, viewport)
    expect(page.locator(".tm-sub")).to_contain_text(said)
    boxes = page.evaluate(BOXES)
    assert len(boxes) == 6
    for box in boxes:
        assert box["total"] >= 0.1 * viewport["height"], (screen, box)
    # All six on the screen at once, without scrolling; landscape in two columns.
    assert max(box["bottom"] for box in boxes) <= viewport["height"], (screen, boxes)
    columns = len({box["left"] for box in boxes})
    assert columns == (2 if screen == "landscape" else 1)
    # Dark by default, whatever the system prefers (this context asks for nothing).
    background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(13, 15, 17)"
    assert not page.errors
    violations = axe_violations(browser, live_server.url + path, "light", viewport)
    assert violations == [], json.dumps(violations, indent=1)


@pytest.mark.parametrize("screen", ["portrait", "landscape"])
def test_the_totals_line_up_whatever_the_last_deal_beside_them(browser, live_server, screen):
    game = GameFactory(players=["Anna", "Bjørn", "Cleo"])
    record_classic(game, 1)  # Bjørn went out: "+22 ✓" beside his total, "−11" beside theirs
    path = f"/de/games/{game.viewer_token}/table/"
    page = open_screen(browser, live_server, path, SCREENS[screen])
    boxes = page.evaluate(BOXES)
    assert len({box["right"] for box in boxes}) == 1, boxes


@pytest.mark.parametrize("screen", ["portrait", "landscape"])
def test_more_than_six_players_go_in_columns(browser, live_server, screen):
    game = GameFactory(players=[f"Spieler {n}" for n in range(1, 11)])
    record_classic(game, 0, jokers=1)
    page = open_screen(
        browser, live_server, f"/en/games/{game.viewer_token}/table/", SCREENS[screen]
    )
    boxes = page.evaluate(BOXES)
    assert len(boxes) == 10
    assert len({box["left"] for box in boxes}) == (3 if screen == "landscape" else 2)
    assert max(box["bottom"] for box in boxes) <= SCREENS[screen]["height"]


def test_a_deal_recorded_on_another_page_appears_without_a_tap(browser, live_server):
    game = six_played()
    page = open_screen(browser, live_server, f"/en/games/{game.editor_token}/table/", LANDSCAPE)
    assert page.url.endswith(f"/en/games/{game.viewer_token}/table/")  # the viewer link's
    expect(page.locator(".tm-sub")).to_contain_text("Last deal: 2")
    assert game.editor_token not in page.content()
    editor = browser.new_context(viewport=PORTRAIT).new_page()
    editor.goto(f"{live_server.url}/en/games/{game.editor_token}/")
    expect(editor.get_by_role("link", name="Record deal 3")).to_be_visible()
    record_classic(game, 2, jokers=1)
    expect(page.locator(".tm-sub")).to_contain_text("Last deal: 3")
    expect(page.locator(".tm-deal")).to_have_text("Deal 4")
    assert not page.errors


def test_full_screen_on_a_tap_and_the_screen_kept_awake(browser, live_server):
    game = six_played()
    page = open_screen(browser, live_server, f"/en/games/{game.viewer_token}/table/", LANDSCAPE)
    page.wait_for_function("() => window.__wake.includes('request:screen')")
    expect(page.locator(".tm-awake")).to_have_text("The screen stays on.")
    button = page.get_by_role("button", name="Full screen")
    expect(button).to_be_visible()
    button.click()
    page.wait_for_function("() => document.fullscreenElement !== null")
    expect(page.get_by_role("button", name="Leave full screen")).to_be_visible()
    page.get_by_role("button", name="Leave full screen").click()
    page.wait_for_function("() => document.fullscreenElement === null")
    assert not page.errors


WINNER_ANIMATIONS = "() => document.querySelector('.tm-winner span').getAnimations().length"


@pytest.mark.parametrize(("motion", "animations"), [("no-preference", 1), ("reduce", 0)])
def test_the_winners_moment_respects_reduced_motion(browser, live_server, motion, animations):
    game = six_played()
    game.end(version=game.version, once=None, actor=ACTOR)
    page = open_screen(
        browser,
        live_server,
        f"/es/games/{game.viewer_token}/table/",
        PORTRAIT,
        reduced_motion=motion,
    )
    expect(page.locator(".tm-winner")).to_contain_text("Ganadores: Anna, Ben")
    assert page.evaluate(WINNER_ANIMATIONS) == animations


@pytest.mark.parametrize(("lang", "screen"), [("en", "landscape"), ("pl", "portrait")])
def test_an_evenings_table_in_two_languages_with_axe(browser, live_server, lang, screen):
    game = six_played()
    evening = Evening.objects.create(name="Friday", stake=Decimal("0.10"))
    EveningGame.objects.create(evening=evening, game=game, stake=Decimal("0.10"), position=1)
    path = f"/{lang}/evenings/{evening.editor_token}/table/"
    page = open_screen(browser, live_server, path, SCREENS[screen])
    expect(page.locator("h1")).to_have_text("Friday")
    expect(page.locator(".tm-standings li")).to_have_count(6)
    expect(page.locator(".tm-deal")).to_contain_text("3")
    record_classic(game, 2, jokers=1)
    expect(page.locator(".tm-deal")).to_contain_text("4")
    violations = axe_violations(
        browser,
        live_server.url + f"/{lang}/evenings/{evening.viewer_token}/table/",
        "dark",
        SCREENS[screen],
    )
    assert violations == [], json.dumps(violations, indent=1)


def test_up_to_four_players_upright_show_their_names_whole(browser, live_server):
    """A phone upright in the middle of the table: beside a three-digit total a name had a
    sliver ("B…"); up to four players it gets its own line over the total, and all still fit."""
    names = ["Agnieszka", "Bartłomiej", "Konstantin", "Maximiliane"]
    game = GameFactory(players=names)
    for deal in range(10):
        record_classic(game, (0, 2, 3)[deal % 3])  # Bartłomiej pays every deal: −110
    page = open_screen(browser, live_server, f"/pl/games/{game.viewer_token}/table/", PORTRAIT)
    expect(page.locator(".tm-sub")).to_contain_text("10")
    cut = page.evaluate(
        """() => [...document.querySelectorAll('.tm-who')]
             .filter(el => el.scrollWidth > el.clientWidth).map(el => el.textContent)"""
    )
    assert cut == []
    expect(page.locator(".tm-standings")).to_contain_text("−110")
    boxes = page.evaluate(BOXES)
    assert len(boxes) == 4
    assert all(box["total"] >= 0.1 * PORTRAIT["height"] for box in boxes), boxes
    assert max(box["bottom"] for box in boxes) <= PORTRAIT["height"], boxes
    assert len({box["right"] for box in boxes}) == 1, boxes


# Issue 45, item 4: a 1280 × 720 screen used, not a corner of it. Six realistic names, one of
# twelve letters; the evening's game a Spanish contract game (a contract on its deal line).
AT_THE_TABLE = ["Małgorzata", "Piotrek", "Katarzyna", "Bartholomäus", "Päivi", "José"]

# What the screen shows, measured in the page: each name's box and text, the font sizes of
# the totals and of the secondary lines (the deal and its contract, who deals and starts, the
# last deal), and the bottom of the lowest name, total or last deal.
SEEN = """() => {
  const size = (el) => parseFloat(getComputedStyle(el).fontSize);
  const all = (sel) => [...document.querySelectorAll(sel)];
  const secondary = '.tm-deal, .tm-contract, .tm-facts dt, .tm-facts dd, .tm-sub small, .tm-side';
  return {
    names: all('.tm-who').map(el => ({
      text: el.innerText.trim(), cut: el.scrollWidth > el.clientWidth,
    })),
    total: Math.max(...all('.tm-total').map(size)),
    secondary: all(secondary).map(el => [el.className || el.tagName, size(el)]),
    bottom: Math.max(...all('.tm-who, .tm-total, .tm-side').map(
      el => el.getBoundingClientRect().bottom)),
  };
}"""
SIDEWAYS = "() => document.documentElement.scrollWidth - window.innerWidth"


def at_the_table(kind: str):
    """Six at the table, three deals in: the game's viewer link, or its evening's."""
    if kind == "game":
        game = GameFactory(players=AT_THE_TABLE)
        game.value_per_point = Decimal("0.10")
        game.save()
        for winner in (0, 3, 1):
            record_classic(game, winner, jokers=1)
        return game, f"/en/games/{game.viewer_token}/table/"
    game = GameFactory(variant_id="contract-spanish", players=AT_THE_TABLE)
    for deal in range(3):
        penalties = {seat: 15 + 20 * seat + 5 * deal for seat in range(6) if seat != deal}
        record_penalty(game, deal, penalties)
    evening = Evening.objects.create(name="Friday", stake=Decimal("0.50"))
    EveningGame.objects.create(evening=evening, game=game, stake=Decimal("0.50"), position=1)
    return game, f"/en/evenings/{evening.viewer_token}/table/"


@pytest.mark.parametrize("kind", ["game", "evening"])
def test_six_at_the_table_use_the_screen_names_whole_and_secondary_lines_large(
    browser, live_server, kind
):
    """At 1280 × 720 every name whole, the secondary lines at least half the totals' height,
    the standings reaching the lower quarter; upright on a phone, nothing runs off sideways,
    nor at the winner's moment."""
    game, path = at_the_table(kind)
    page = open_screen(browser, live_server, path, LANDSCAPE)
    expect(page.locator(".tm-deal")).to_contain_text("Deal 4")
    seen = page.evaluate(SEEN)
    assert sorted(name["text"] for name in seen["names"]) == sorted(AT_THE_TABLE)
    assert [name for name in seen["names"] if name["cut"]] == []
    shown = {"game": {"tm-deal", "DT", "DD", "SMALL", "tm-side"}, "evening": {"tm-contract"}}
    assert shown[kind] | {"tm-deal", "DD"} <= {line[0] for line in seen["secondary"]}
    small = [line for line in seen["secondary"] if line[1] < 0.5 * seen["total"]]
    assert small == [], (seen["total"], seen["secondary"])
    assert 0.75 * LANDSCAPE["height"] < seen["bottom"] <= LANDSCAPE["height"], seen
    assert not page.errors

    phone = open_screen(browser, live_server, path, PORTRAIT)
    expect(phone.locator(".tm-standings li")).to_have_count(6)
    assert phone.evaluate(SIDEWAYS) <= 0
    game.end(version=game.version, once=None, actor=ACTOR)
    phone.reload()
    expect(phone.locator(".tm-winner")).to_be_visible()
    phone.evaluate("() => document.getAnimations().forEach(a => a.finish())")
    assert phone.evaluate(SIDEWAYS) <= 0
