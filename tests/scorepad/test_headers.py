"""Answers that hold an editor link are never cached (Cache-Control: no-store); the answers
given early by the rate limit (429) and the NUL check (400) carry the same security headers
as every other answer."""

import json
import re

import pytest
from django.test import override_settings
from django.urls import reverse

from scorepad.models import Game
from tests.factories import GameFactory, classic_form_data, record_classic
from tests.scorepad.conftest import own

pytestmark = pytest.mark.django_db

SECURITY_HEADERS = [
    "Content-Security-Policy",
    "X-Frame-Options",
    "X-Content-Type-Options",
    "Referrer-Policy",
    "Cross-Origin-Opener-Policy",
]


def security_headers(response) -> dict[str, str]:
    found = {name: response.headers.get(name) for name in SECURITY_HEADERS}
    # A page's policy carries its own script nonce; the policy is otherwise the same.
    if found["Content-Security-Policy"]:
        found["Content-Security-Policy"] = re.sub(
            r" 'nonce-[^']+'", "", found["Content-Security-Policy"]
        )
    return found


def test_every_security_header_is_on_an_ordinary_page(client):
    headers = security_headers(client.get("/en/", HTTP_HOST="localhost"))
    assert all(headers.values()), headers


@override_settings(ALLOWED_HOSTS=["*"])
@pytest.mark.parametrize(
    ("host", "secure", "sent"),
    [
        ("localhost:8000", False, True),
        ("127.0.0.1:8000", False, True),
        ("[::1]:8000", False, True),
        ("table.localhost", False, True),
        ("192.168.1.20:8000", False, False),
        ("karl.local:8000", False, False),
        ("scorepad.example", True, True),
    ],
)
def test_the_opener_policy_is_sent_only_where_browsers_honour_it(client, host, secure, sent):
    """On a plain http address of the LAN the browser ignores Cross-Origin-Opener-Policy and
    warns about it on every page: it is sent on HTTPS and localhost only."""
    response = client.get("/en/", HTTP_HOST=host, secure=secure)
    assert response.status_code == 200
    assert (response.headers.get("Cross-Origin-Opener-Policy") == "same-origin") is sent


@override_settings(RATE_LIMITS={"api": 1, "write": 1})
def test_429_answers_carry_the_same_security_headers(client):
    normal = security_headers(client.get("/en/", HTTP_HOST="localhost"))
    body = json.dumps({"variant": "x"})
    client.post("/api/check", body, content_type="application/json")
    api = client.post("/api/check", body, content_type="application/json", HTTP_HOST="localhost")
    client.post("/en/games/new/", {})
    write = client.post("/en/games/new/", {}, HTTP_HOST="localhost")
    assert api.status_code == write.status_code == 429
    assert security_headers(api) == normal
    assert security_headers(write) == normal


def test_the_nul_400_carries_the_same_security_headers(client):
    normal = security_headers(client.get("/en/", HTTP_HOST="localhost"))
    for response in (
        client.get("/en/check/", {"cards": "AS\x00"}, HTTP_HOST="localhost"),
        client.post("/en/games/new/", {"name": "A\x00"}, HTTP_HOST="localhost"),
    ):
        assert response.status_code == 400
        assert security_headers(response) == normal


def no_store(response) -> bool:
    return "no-store" in response.headers.get("Cache-Control", "")


@pytest.fixture
def game():
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    record_classic(game, 0, jokers=1)
    game.finish()
    game.resume()
    return game


EDITOR_PAGES = [
    ("game", {}),
    ("game-version", {}),
    ("game-history", {}),
    ("game-share", {}),
    ("game-export-json", {}),
    ("game-export-csv", {}),
    ("deal-new", {}),
    ("deal-edit", {"number": 1}),
]


@pytest.mark.parametrize(("name", "extra"), EDITOR_PAGES, ids=[n for n, _ in EDITOR_PAGES])
def test_pages_of_an_editor_link_are_not_stored(client, game, name, extra):
    url = reverse(name, kwargs={"token": game.editor_token, **extra})
    response = client.get(url)
    assert response.status_code in (200, 204)
    assert no_store(response), response.headers.get("Cache-Control")


def test_htmx_partials_and_posts_of_an_editor_are_not_stored(client, game):
    url = reverse("deal-new", kwargs={"token": game.editor_token})
    assert no_store(client.get(url, HTTP_HX_REQUEST="true"))
    assert no_store(client.post(url, classic_form_data(game, 1, jokers=1)))
    page = reverse("game", kwargs={"token": game.editor_token})
    assert no_store(client.get(page, HTTP_HX_REQUEST="true"))


def test_the_creators_phone_is_not_stored_on_the_viewer_link_either(client, game):
    own(client, game)
    assert no_store(client.get(reverse("game", kwargs={"token": game.viewer_token})))


def test_the_viewer_link_alone_may_be_cached_as_before(client, game):
    response = client.get(reverse("game", kwargs={"token": game.viewer_token}))
    assert response.status_code == 200
    assert not no_store(response)


def test_lists_that_hold_an_editor_link_are_not_stored(client, game):
    assert not no_store(client.get(reverse("game-list")))
    own(client, game)
    assert no_store(client.get(reverse("game-list")))
    assert no_store(client.get(reverse("home")))


def test_the_redirect_to_a_new_or_imported_game_is_not_stored(client, game):
    raw = client.get(reverse("game-export-json", kwargs={"token": game.viewer_token})).content
    imported = client.post(reverse("game-import"), {"text": raw.decode()})
    assert imported.status_code == 302
    assert no_store(imported)
    started = client.post(
        reverse("game-new"),
        {"variant": "romme", "seat": ["n:Anna", "n:Ben"], "first_dealer": "0", "op": "start"},
    )
    assert started.status_code == 302
    assert no_store(started)
    assert Game.objects.count() == 3
