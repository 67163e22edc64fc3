"""A shared link opens in the phone's language (issue 45, item 5): a link carries the
sender's language in its path; a phone that chose a language is sent to the same page in
it, a phone's first visit to its browser's, and only a page a person opens is sent on."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import GameFactory, record_classic

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(db):
    game = GameFactory(variant_id="classic", players=["Kasia", "Marek", "Anna"])
    record_classic(game, 0)
    return game


def polish(name: str, game, suffix: str = "") -> str:
    with translation.override("pl"):
        return reverse(name, kwargs={"token": game.viewer_token}) + suffix


def chose(language: str) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def test_a_phone_that_chose_its_language_gets_the_link_in_it(game):
    answer = chose("es").get(polish("game", game, "?per_point=0,10"))
    assert answer.status_code == 302
    assert answer["Location"] == f"/es/games/{game.viewer_token}/?per_point=0,10"
    assert "no-store" in answer["Cache-Control"]
    assert {"Cookie", "Accept-Language"} <= {v.strip() for v in answer["Vary"].split(",")}
    page = chose("es").get(answer["Location"])
    assert page.status_code == 200
    assert '<html lang="es"' in page.content.decode()


def test_a_first_visit_follows_the_browsers_languages(game):
    url = polish("game", game)
    spanish = Client(HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9,en;q=0.5")
    assert spanish.get(url)["Location"] == f"/es/games/{game.viewer_token}/"
    # A browser whose languages the app has none of: the link's language.
    french = Client(HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    assert french.get(url).status_code == 200
    # The same language as the link's, or a choice that overrides the browser's.
    assert Client(HTTP_ACCEPT_LANGUAGE="pl").get(url).status_code == 200
    assert chose("pl").get(url, HTTP_ACCEPT_LANGUAGE="es").status_code == 200


@pytest.mark.parametrize(
    ("name", "suffix", "headers"),
    [
        ("game-version", "?v=1", {}),  # a poll
        ("game", "", {"HTTP_HX_REQUEST": "true"}),  # htmx: a part of the page it is on
        ("game-result", "", {}),  # a picture
        ("game-export-json", "", {}),  # an export
        ("game", "", {"HTTP_SEC_FETCH_DEST": "image"}),  # anything a page fetches
        ("game", "", {"HTTP_SEC_FETCH_DEST": "empty"}),
    ],
)
def test_only_a_page_a_person_opens_is_sent_on(game, name, suffix, headers):
    answer = chose("es").get(polish(name, game, suffix), **headers)
    assert answer.status_code != 302 or not answer["Location"].startswith("/es/")


def test_a_navigation_says_so_and_is_sent_on(game):
    answer = chose("fi").get(polish("game", game), HTTP_SEC_FETCH_DEST="document")
    assert answer["Location"] == f"/fi/games/{game.viewer_token}/"


def test_a_post_keeps_its_language_and_changes_nothing_by_the_redirect(game):
    with translation.override("pl"):
        url = reverse("deal-undo", kwargs={"token": game.editor_token})
    answer = chose("es").post(url, {"version": game.version, "once": "x1"})
    assert not answer.get("Location", "").startswith("/es/")


def test_a_streams_and_the_site_wide_addresses_are_not_sent_on(game):
    phone = chose("es")
    assert phone.get("/").status_code == 302  # Django's own: "/" opens in the chosen one
    assert phone.get("/").headers["Location"] == "/es/"
    answer = phone.get("/api/openapi.json")
    assert answer.status_code == 200
