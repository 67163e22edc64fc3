"""The installable app: manifest, icons, the service worker at the site's root, the offline
page and a translated page for a link that leads nowhere."""

import json
import re
import struct

import pytest
from django.contrib.staticfiles import finders

from continental.app import ICONS, PAGE_SCRIPTS, SHELL


def png_size(path: str) -> tuple[int, int]:
    with open(path, "rb") as image:
        head = image.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


@pytest.mark.parametrize("lang", ["en", "de", "fi"])
def test_every_page_links_the_manifest_in_its_language(client, db, lang):
    body = client.get(f"/{lang}/").content.decode()
    assert f'<link rel="manifest" href="/manifest.webmanifest?lang={lang}">' in body
    assert '<meta name="theme-color"' in body


def test_the_manifest_makes_the_app_installable(client, db):
    answer = client.get("/manifest.webmanifest?lang=de")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert manifest["name"]
    assert manifest["short_name"]
    assert manifest["start_url"] == "/de/"
    assert manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["lang"] == "de"
    from django.utils import translation

    lead = "Keep the score sheet, work out what every deal is worth, check a hand, read the rules."
    with translation.override("de"):
        assert manifest["description"] == translation.gettext(lead) != lead
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])


def test_an_unknown_language_gets_the_english_manifest(client, db):
    manifest = client.get("/manifest.webmanifest?lang=xx").json()
    assert manifest["lang"] == "en"
    assert manifest["start_url"] == "/en/"


@pytest.mark.parametrize(("path", "sizes", "_purpose"), ICONS)
def test_the_icons_exist_at_their_declared_size(path, sizes, _purpose):
    found = finders.find(path)
    assert found, path
    width, height = (int(n) for n in sizes.split("x"))
    assert png_size(found) == (width, height)


def test_the_service_worker_is_served_from_the_root_with_the_deploys_files(client, db):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Cache-Control"] == "no-cache"
    code = answer.content.decode()
    config = json.loads(re.match(r"self\.SCOREPAD = (\{.*?\});\n", code).group(1))
    assert config["shell"] == [f"/static/{name}" for name in SHELL]
    assert config["offline"]["pl"] == "/pl/offline/"
    assert re.fullmatch(r"[0-9a-f]{12}", config["version"])
    assert 'addEventListener("fetch"' in code
    for name in SHELL:
        assert finders.find(name), f"the worker would fail to install: {name} is missing"


def test_every_script_a_page_loads_is_in_the_offline_shell(settings):
    """A script base.html loads but the worker does not keep breaks an offline reload; none is
    inline (the CSP)."""
    page = (settings.BASE_DIR / "templates" / "base.html").read_text()
    loaded = tuple(re.findall(r"<script src=\"\{% static '([^']+)' %\}\" defer>", page))
    assert loaded == PAGE_SCRIPTS
    assert set(PAGE_SCRIPTS) <= set(SHELL)
    assert "<script>" not in page


def test_the_service_worker_keeps_to_its_own_site(client, db):
    code = client.get("/sw.js").content.decode()
    assert "http://" not in code
    assert "https://" not in code


@pytest.mark.parametrize(("lang", "words"), [("en", "No connection"), ("de", "Keine Verbindung")])
def test_the_offline_page_speaks_the_language(client, db, lang, words):
    answer = client.get(f"/{lang}/offline/")
    assert answer.status_code == 200
    assert words in answer.content.decode()


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "This link does not open a game"), ("de", "Dieser Link öffnet kein Spiel")],
)
def test_a_wrong_or_replaced_game_link_gets_a_translated_page_with_a_way_home(
    client, db, lang, words
):
    answer = client.get(f"/{lang}/games/{'x' * 24}/")
    assert answer.status_code == 404
    body = answer.content.decode()
    assert words in body
    assert f'href="/{lang}/"' in body
    assert "Not Found" not in body


def test_another_missing_page_says_so_in_the_language(client, db):
    answer = client.get("/de/nowhere/")
    assert answer.status_code == 404
    assert "Seite nicht gefunden" in answer.content.decode()


def test_a_replaced_viewer_link_stops_the_live_update(client, game):
    old = game.viewer_token
    from scorepad.forms.change import once_token
    from scorepad.models import Actor

    game.replace_link(
        "viewer", version=game.version, once=once_token(), actor=Actor("creator", "t")
    )
    answer = client.get(f"/en/games/{old}/version?v={game.version}")
    assert answer.status_code == 286  # htmx stops polling; the page's script says why


def test_the_game_page_carries_the_translated_texts_of_its_script(client, game):
    body = client.get(f"/de/games/{game.viewer_token}/").content.decode()
    found = re.search(r'data-texts="([^"]+)"', body)
    import html

    texts = dict(pair.split("=", 1) for pair in html.unescape(found.group(1)).split("|"))
    assert texts["saving"] == "Speichern…"
    assert "{n}" in texts["queued"]
