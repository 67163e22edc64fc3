"""Count the taps and keystrokes it takes to record one typical deal from the sheet.

    .venv/bin/python bench/taps.py

Production settings, as bench/load.py sets them up (collectstatic into a temporary
STATIC_ROOT, a temporary SQLite database, gunicorn on a free loopback port). A game of four
players (Anna, Ben, Cleo, Dan) of each variant is made through the ORM; Debian's Chromium,
driven by Playwright at a phone's size (390×844, touch, the launch flags of
tests/e2e/conftest.py), opens its sheet through the editor link and records one deal the
way a player would, starting on the sheet and ending when the sheet says the deal was
recorded:

- classic, by rows: Anna went out with one wild 2 and one joker;
- classic, by hand: Anna went out; her 16 cards tapped on the card grid;
- Nordic and Spanish, by points: Anna went out; the three others' points typed;
- Rommé, by cards: Anna went out; the three others' cards tapped on their card grids.

A tap is a click on a control (a field tapped to type into it counts one); a keystroke is
one character typed. It also prints how far the page scrolled on the way (the sum of the
scrolls a player makes to reach the next control: Playwright scrolls each control into
view as a thumb would). Figures only: nothing is asserted. Run it on two trees (copy this
file into the other tree's bench/) to compare them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load

ROOT = load.ROOT
# The phone and the browser of the e2e tests.
sys.path.insert(0, str(ROOT))
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE  # noqa: E402

PLAYERS = ["Anna", "Ben", "Cleo", "Dan"]
WINNERS_HAND = "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH JK"
NORDIC_POINTS = {"Ben": "35", "Cleo": "120", "Dan": "15"}
SPANISH_POINTS = {"Ben": "40", "Cleo": "85", "Dan": "10"}
ROMME_CARDS = {"Ben": "KH 5S", "Cleo": "AS QD 7C", "Dan": "JK 9H 2C 2D"}

SETUP_CODE = r"""
import json, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "continental.settings")
import django
django.setup()
from tests.factories import GameFactory
names = ["Anna", "Ben", "Cleo", "Dan"]
games = {}
for variant in ("classic", "contract-nordic", "contract-spanish", "romme"):
    game = GameFactory(variant_id=variant, players=names, first_dealer=3)
    games[variant] = game.editor_token
print("TAPS-SETUP " + json.dumps(games))
"""


@dataclass
class Count:
    """What one deal took: taps, keystrokes and the page's scrolling on the way."""

    taps: int = 0
    keys: int = 0
    scrolled: int = 0
    steps: list[str] = field(default_factory=list)


class Player:
    """A thumb on the phone: every tap and keystroke goes through here and is counted."""

    def __init__(self, page):
        self.page = page
        self.count = Count()

    def _scroll_y(self) -> int:
        return int(self.page.evaluate("window.scrollY"))

    def tap(self, locator, what: str) -> None:
        before = self._scroll_y()
        locator.scroll_into_view_if_needed()
        self.count.scrolled += abs(self._scroll_y() - before)
        locator.click()
        self.count.taps += 1
        self.count.steps.append(what)

    def type(self, locator, text: str, what: str) -> None:
        self.tap(locator, what)
        self.page.keyboard.type(text)
        self.count.keys += len(text)


def open_form(player: Player, page, base: str, token: str, lang: str = "en"):
    page.goto(f"{base}/{lang}/games/{token}/")
    page.wait_for_selector("#sheet-title")
    player.tap(page.get_by_role("link", name="Record deal 1"), "record deal")
    form = page.locator(".deal-form")
    form.wait_for()
    player.tap(form.locator("fieldset.went-out label.chip", has_text="Anna"), "who went out")
    return form


def save(player: Player, page, form) -> None:
    player.tap(form.get_by_role("button", name="Save"), "save")
    page.locator("#game .messages", has_text="Deal 1 recorded.").wait_for()


def classic_rows(player: Player, page, base: str, token: str) -> None:
    form = open_form(player, page, base, token)
    twos = form.locator('fieldset:has(legend:text("2s used as wild cards")) label.chip')
    player.tap(twos.filter(has_text="1").first, "one wild 2")
    jokers = form.locator('fieldset:has(legend:text("Jokers used")) label.chip')
    player.tap(jokers.filter(has_text="1").first, "one joker")
    page.locator("#preview", has_text="Every other player pays Anna 4.").wait_for()
    save(player, page, form)


def classic_hand(player: Player, page, base: str, token: str) -> None:
    form = open_form(player, page, base, token)
    player.tap(form.locator("fieldset.mode label.chip").nth(1), "from the winner's hand")
    grid = form.locator(".by-hand .card-grid")
    for code in WINNERS_HAND.split():
        player.tap(grid.locator(f'[data-card="{code}"]'), f"card {code}")
    page.locator("#preview", has_text="Every other player pays Anna").wait_for()
    save(player, page, form)


def by_points(points: dict[str, str]):
    def deal(player: Player, page, base: str, token: str) -> None:
        form = open_form(player, page, base, token)
        for name, value in points.items():
            player.type(form.get_by_label(f"{name} — penalty points"), value, f"{name}'s points")
        page.locator("#preview .ledger").wait_for()
        save(player, page, form)

    return deal


def romme_cards(player: Player, page, base: str, token: str) -> None:
    form = open_form(player, page, base, token)
    for name, cards in ROMME_CARDS.items():
        row = form.locator(".penalty-row", has_text=name)
        player.tap(row.locator(".cards-entry summary"), f"{name}'s cards")
        for code in cards.split():
            player.tap(row.locator(f'.card-grid [data-card="{code}"]'), f"card {code}")
    page.locator("#preview .ledger").wait_for()
    save(player, page, form)


SCENARIOS = [
    ("classic, by rows", "classic", classic_rows),
    ("classic, by hand (card grid)", "classic", classic_hand),
    ("Nordic, penalties by points", "contract-nordic", by_points(NORDIC_POINTS)),
    ("Spanish, penalties by points", "contract-spanish", by_points(SPANISH_POINTS)),
    ("Rommé, penalties by cards (card grid)", "romme", romme_cards),
]


def make_games(env: dict[str, str]) -> dict[str, str]:
    return load.run_setup(env, SETUP_CODE, "TAPS-SETUP")


def commit() -> str:
    try:
        out = subprocess.run(
            ["git", "log", "-1", "--format=%h %s"], cwd=ROOT, capture_output=True, text=True
        )
        return out.stdout.strip()[:90]
    except OSError:
        return "?"


def main() -> None:
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    print(f"tree {ROOT}: {commit()}")
    with tempfile.TemporaryDirectory(prefix="taps-") as tmp:
        tmp_path = Path(tmp)
        env = load.bench_env(tmp_path / "data", tmp_path / "static")
        (tmp_path / "data").mkdir()
        load.prepare(env)
        results = []
        with (
            load.Gunicorn(env, workers=2, log_path=tmp_path / "gunicorn.log") as server,
            sync_playwright() as p,
        ):
            base = f"http://{load.HOST}:{server.port}"
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for label, variant, scenario in SCENARIOS:
                token = make_games(env)[variant]
                context = browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True)
                page = context.new_page()
                page.set_default_timeout(15_000)
                player = Player(page)
                try:
                    scenario(player, page, base, token)
                    results.append((label, player.count, ""))
                except Exception as exc:  # a figure missing is printed, not raised
                    results.append((label, player.count, f"failed: {type(exc).__name__}"))
                context.close()
            browser.close()
    print(f"{'one deal from the sheet':40} {'taps':>5} {'keys':>5} {'total':>6} {'scrolled':>9}")
    for label, count, problem in results:
        total = count.taps + count.keys
        line = f"{label:40} {count.taps:5d} {count.keys:5d} {total:6d} {count.scrolled:7d}px"
        print(line + (f"  {problem}" if problem else ""))


if __name__ == "__main__":
    main()
