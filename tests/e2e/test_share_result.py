"""Sharing a result in a real headless Chromium (issue 27, "the night shared"), at 390 px and
on a 1280 × 720 landscape screen, in two languages: on localhost the share sheet receives a
PNG of the picture with the text; where the browser cannot share (plain http on a LAN) the
picture downloads as a PNG and the text is copied, or selected where there is no Clipboard
API; and the page with the new controls has no axe violations."""

import json
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, screenshot
from tests.e2e.test_accessibility import AXE
from tests.factories import ACTOR, GameFactory, record_classic, record_penalty

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LANDSCAPE = {"width": 1280, "height": 720}
WORDS = {
    "en": {"share": "Share…", "download": "Download the picture", "copy": "Copy the text",
           "copied": "Text copied.", "heading": "Share the result"},
    "de": {"share": "Teilen…", "download": "Bild herunterladen", "copy": "Text kopieren",
           "copied": "Text kopiert.", "heading": "Ergebnis teilen"},
}  # fmt: skip

# A share sheet that keeps what it was handed: the files' type, name and first bytes.
SHARE_STUB = """
window.__shared = null;
navigator.canShare = (data) => !!(data && data.files && data.files.every((f) => f.type === "image/png"));
navigator.share = async (data) => {
  const file = data.files[0];
  const bytes = Array.from(new Uint8Array(await file.arrayBuffer()).slice(0, 24));
  window.__shared = {type: file.type, name: file.name, size: file.size, bytes: bytes,
                     text: data.text, title: data.title, url: data.url || null, count: data.files.length};
};
"""
# A browser that cannot share files, or anything (plain http on a LAN).
NO_SHARE = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"
# ... and has no Clipboard API there either.
NO_CLIPBOARD = (
    NO_SHARE + " Object.defineProperty(Navigator.prototype, 'clipboard', {get: () => undefined});"
)


def finished_game(money=True):
    game = GameFactory(
        variant_id="classic",
        players=["Anna", "Jürgen", "Łucja"],
        value_per_point=Decimal("0.10") if money else None,
    )
    for winner in (0, 0, 1):
        record_classic(game, winner)
    game.refresh_from_db()
    game.end(version=game.version, once=None, actor=ACTOR)
    return game


def evening_of(game):
    from scorepad.models import Evening, EveningGame

    romme = GameFactory(variant_id="romme", players=["Anna", "Jürgen", "Łucja"])
    record_penalty(romme, 0, {1: 30, 2: 10})  # still in progress: the standings so far
    evening = Evening.objects.create(name="Freitag", stake=Decimal("0.10"))
    EveningGame.objects.create(evening=evening, game=game, stake=Decimal("0.10"), position=1)
    EveningGame.objects.create(evening=evening, game=romme, stake=Decimal("0.10"), position=2)
    return evening


def open_phone(browser, base, viewport, script, **context):
    ctx = browser.new_context(viewport=viewport, device_scale_factor=1, has_touch=True, **context)
    ctx.add_init_script(script)
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    page.base = base
    return page


def tokens(*things):
    return [t for thing in things for t in (thing.viewer_token, thing.editor_token)]


CASES = [
    ("game", "en", PHONE),
    ("game", "de", LANDSCAPE),
    ("evening", "de", PHONE),
    ("evening", "en", LANDSCAPE),
]


@pytest.mark.parametrize(("what", "lang", "viewport"), CASES)
def test_on_localhost_the_share_sheet_gets_a_png_of_the_picture_and_the_text(
    browser, live_server, what, lang, viewport
):
    game = finished_game()
    evening = evening_of(game) if what == "evening" else None
    thing = evening or game
    page = open_phone(browser, live_server.url, viewport, SHARE_STUB)
    page.goto(f"{page.base}/{lang}/{what}s/{thing.viewer_token}/")
    words = WORDS[lang]
    box = page.locator("[data-share-result]")
    expect(box.get_by_role("heading", name=words["heading"])).to_be_visible()
    share = box.get_by_role("button", name=words["share"])
    expect(share).to_be_visible()  # shown once the PNG is made and the browser can share it
    share.click()
    page.wait_for_function("() => window.__shared !== null")
    shared = page.evaluate("window.__shared")
    text = box.get_by_label("Text to share" if lang == "en" else "Text zum Teilen")
    assert shared["count"] == 1
    assert shared["type"] == "image/png"
    assert shared["bytes"][:8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    width = int.from_bytes(bytes(shared["bytes"][16:20]), "big")
    assert width == 1080
    assert shared["size"] > 5000
    assert shared["name"].endswith(".png")
    assert shared["url"] is None
    assert shared["text"] == text.input_value()
    assert "Anna" in shared["text"]
    assert "Łucja" in shared["text"]
    assert (" zahlt " in shared["text"]) == (lang == "de")
    if what == "evening":
        assert ("so far" in shared["text"]) == (lang == "en")
    for secret in tokens(game, *([evening] if evening else [])):
        assert secret not in json.dumps(shared)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    screenshot(page, f"share-{what}-{lang}-{viewport['width']}")


@pytest.mark.parametrize(("lang", "viewport"), [("en", PHONE), ("de", LANDSCAPE)])
def test_without_a_share_sheet_the_picture_downloads_as_png_and_the_text_is_copied(
    browser, live_server, lang, viewport
):
    game = finished_game()
    page = open_phone(
        browser,
        live_server.url,
        viewport,
        NO_SHARE,
        permissions=["clipboard-read", "clipboard-write"],
    )
    page.goto(f"{page.base}/{lang}/games/{game.viewer_token}/")
    words = WORDS[lang]
    box = page.locator("[data-share-result]")
    download = box.get_by_role("link", name=words["download"])
    expect(download).to_have_attribute(
        "download", f"classic-{game.created_at:%Y-%m-%d}-{game.pk}.png"
    )
    expect(box.get_by_role("button", name=words["share"])).to_be_hidden()
    with page.expect_download() as info:
        download.click()
    path = info.value.path()
    with open(path, "rb") as picture:
        assert picture.read(8) == b"\x89PNG\r\n\x1a\n"
    assert info.value.suggested_filename.endswith(".png")
    box.get_by_role("button", name=words["copy"]).click()
    expect(box.locator(".copy-done")).to_have_text(words["copied"])
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == box.locator("textarea").input_value()
    assert copied.startswith("Continental")
    assert "Jürgen" in copied


def test_on_plain_http_without_a_clipboard_the_text_is_selected_to_copy(browser, live_server):
    game = finished_game(money=False)
    page = open_phone(browser, live_server.url, PHONE, NO_CLIPBOARD)
    page.goto(f"{page.base}/de/games/{game.viewer_token}/")
    box = page.locator("[data-share-result]")
    box.get_by_role("button", name="Text kopieren").click()
    expect(box.locator(".copy-done")).not_to_be_empty()
    selected = page.evaluate(
        "(() => { const t = document.querySelector('[data-result-text]');"
        " return document.activeElement === t ? t.value.slice(t.selectionStart, t.selectionEnd) : ''; })()"
    )
    assert selected == box.locator("textarea").input_value()
    assert selected.startswith("Continental")


def test_without_javascript_the_picture_downloads_as_svg_and_the_text_can_be_selected(
    browser, live_server
):
    game = finished_game()
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/en/games/{game.viewer_token}/")
    box = page.locator("[data-share-result]")
    download = box.get_by_role("link", name="Download the picture")
    expect(download).to_have_attribute(
        "download", f"classic-{game.created_at:%Y-%m-%d}-{game.pk}.svg"
    )
    expect(box.get_by_role("button", name="Copy the text")).to_be_hidden()
    # the field is there to select by hand
    assert box.locator("textarea").input_value().startswith("Continental")
    expect(box.get_by_role("img")).to_have_js_property("complete", True)
    assert box.get_by_role("img").evaluate("img => img.naturalWidth") == 1080
    context.close()


@pytest.mark.parametrize(
    ("viewport", "scheme"), [(PHONE, "light"), (PHONE, "dark"), (LANDSCAPE, "light")]
)
@pytest.mark.parametrize("what", ["game", "evening"])
def test_the_pages_with_the_share_controls_have_no_axe_violations(
    browser, live_server, viewport, scheme, what
):
    game = finished_game()
    thing = evening_of(game) if what == "evening" else game
    context = browser.new_context(viewport=viewport, color_scheme=scheme, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/de/{what}s/{thing.editor_token}/")
        expect(page.locator("[data-result-copy]")).to_be_visible()
        page.add_script_tag(path=str(AXE))
        violations = page.evaluate(
            "async () => { const r = await axe.run(document, {resultTypes: ['violations']});"
            " return r.violations.map(v => ({id: v.id, impact: v.impact,"
            " nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)})); }"
        )
    finally:
        context.close()
    assert violations == [], json.dumps(violations, indent=1)
