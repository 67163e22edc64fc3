"""End-to-end tests: Debian's Chromium driven by Playwright against the live test server."""

import os
import shutil
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

# What a person waits for is asserted with expect(): on a loaded machine (the suite under
# coverage on two cores) a page can take longer than Playwright's 5 s to answer; 15 s is
# still a failure where it counts, a page that never comes.
expect.set_options(timeout=15_000)


def pytest_collection_modifyitems(items):
    """The browser tests run without coverage's tracer (pytest-cov's no_cover): it slows the
    live server several times over, and the tests pace their taps as a person would."""
    for item in items:
        if "/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.no_cover)


# Playwright's sync API runs an event loop in this thread; the ORM calls in the tests are
# still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).parent / "screenshots"
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail("chromium is not installed: run the README's test command (it installs it)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        make = browser.new_context

        def new_context(**options):
            """A phone whose browser prefers none of the app's six languages, unless the test
            gives it a locale: a link opens in the language of its path, as the tests mean
            (continental.middleware.PhoneLanguageMiddleware sends a phone to the language
            its browser prefers)."""
            if "locale" not in options:
                headers = {"Accept-Language": "la", **options.get("extra_http_headers", {})}
                options["extra_http_headers"] = headers
            return make(**options)

        browser.new_context = new_context
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def no_phone_left_open(browser):
    """Every browser context a test opened is closed after it. A phone left open goes on
    polling the live server during later tests, whose database it may not use; Django's test
    client of such a test re-raises that error of another thread as its own."""
    yield
    for context in list(browser.contexts):
        context.close()


@pytest.fixture
def streams(settings, live_server):
    """The stream process running beside the live server, and the pages told to use it."""
    from tests.live_process import StreamProcess

    with StreamProcess() as process:
        settings.LIVE_STREAMS = True
        settings.LIVE_PORT = str(process.port)
        yield process


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base = live_server.url
    yield page
    context.close()


@pytest.fixture
def dark_page(browser, live_server):
    context = browser.new_context(viewport=PHONE, color_scheme="dark", has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base = live_server.url
    yield page
    context.close()


def screenshot(page, name: str) -> None:
    """Save a phone-width screenshot under tests/e2e/screenshots/ (ignored by git, but for the
    sheet-*.png and chart-*.png that the sheet's tests take and the repository keeps)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


# Time in the browser tests: a test waits for a condition, never for a duration. What a page
# does on its timers (a poll every 3 s, a wait for the stream's first event) runs on
# Playwright's clock, which the test advances (clock.run_for); a check that something does
# not happen counts over such a window, or waits for what would have come first.


def paused_clock(page) -> None:
    """The page's timers and its time (setTimeout, setInterval, requestAnimationFrame, Date)
    on Playwright's clock, paused at the present: a timer fires only when the test runs the
    clock on (``page.clock.run_for``), or after ``page.clock.resume()``. Before the page is
    opened: the clock is its browser context's (each phone here has one of its own). What
    comes from outside the page comes as it comes: answers, and the stream's events."""
    now = time.time()
    page.clock.install(time=now - 60)  # a minute back: pause_at cannot go into the past
    page.clock.pause_at(now)  # on about:blank, where no timer waits to fire


# How many times the live update's .poll asked (a 3 s poll, or live.js's fetch through it)
# and how many polls a page's script dropped (a hidden page; a page holding its stream):
# heard after the page's own listeners on the body.
POLLS = """
window.__polls = {asked: 0, dropped: 0};
document.addEventListener('htmx:beforeRequest', (event) => {
  const elt = event.detail && event.detail.elt;
  if (!elt || !elt.classList || !elt.classList.contains('poll')) return;
  if (event.defaultPrevented) window.__polls.dropped += 1;
  else window.__polls.asked += 1;
});
"""


def drawn(page) -> None:
    """Two animation frames: what the page's last change drives (a scroll-driven animation)
    has been drawn."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
