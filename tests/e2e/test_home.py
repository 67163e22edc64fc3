import pytest

from tests.e2e.conftest import screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_home_page_shows_the_four_variants_on_a_phone(page):
    page.goto(page.base + "/en/")
    assert page.locator(".variant").count() == 4
    # Nothing wider than the phone: no sideways scrolling.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "home")


def test_language_switcher_stays_on_the_same_page(page):
    page.goto(page.base + "/en/api/")
    page.locator(".lang summary").click()
    page.locator('.lang a[hreflang="de"]').click()
    page.wait_for_url("**/de/api/")
    assert page.locator("html").get_attribute("lang") == "de"


def test_dark_mode_follows_the_system(dark_page):
    dark_page.goto(dark_page.base + "/en/")
    bg = dark_page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert bg == "rgb(18, 20, 22)"
    screenshot(dark_page, "home-dark")


def test_no_request_leaves_the_server(page):
    hosts = set()
    page.on("request", lambda r: hosts.add(r.url.split("/")[2]))
    page.goto(page.base + "/en/")
    page.wait_for_load_state("networkidle")
    assert hosts == {page.base.split("/")[2]}
