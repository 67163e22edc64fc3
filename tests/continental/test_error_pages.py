"""Every error answer is a page of the app in the phone's language (issue 45, item 6): a
host that is not allowed (400), a form refused by the CSRF check (403), a GET to an address
that takes only POST (405, once an empty page), a server error (500), each rendered without
the host and, for 500, without the database."""

from __future__ import annotations

import re

import pytest
from django.test import Client, RequestFactory
from django.utils import translation

from continental import dbdown, errors
from tests.factories import GameFactory

SHEET = 'rel="stylesheet" href="/static/css/app'


def page_of(response) -> tuple[str, str, str]:
    """The page's language, its heading and its text, as a person reads them."""
    body = response.content.decode()
    lang = re.search(r'<html lang="([^"]+)"', body).group(1)
    heading = re.search(r"<h1>(.*?)</h1>", body, re.S).group(1)
    assert SHEET in body  # the app's own look, not Django's bare page
    return lang, heading, body


@pytest.mark.parametrize(
    ("lang", "heading"),
    [
        ("en", "This request cannot be answered"),
        ("pl", "Na to żądanie nie można odpowiedzieć"),
        ("fi", "Tähän pyyntöön ei voi vastata"),
    ],
)
def test_a_host_that_is_not_allowed_gets_a_page_in_the_phones_language(db, lang, heading):
    response = Client().get(f"/{lang}/", HTTP_HOST="table.test")
    assert response.status_code == 400
    assert page_of(response)[:2] == (lang, heading)


def test_without_a_language_in_the_path_the_browsers_languages_choose(db):
    response = Client().get("/", HTTP_HOST="table.test", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 400
    assert page_of(response)[:2] == ("es", "No se puede responder a esta solicitud")


def test_the_400_page_never_asks_the_host():
    request = RequestFactory().get("/de/games/", HTTP_HOST="evil.test")
    with pytest.raises(Exception, match="Invalid HTTP_HOST"):
        request.get_host()
    response = errors.bad_request(request)
    assert response.status_code == 400
    assert page_of(response)[:2] == ("de", "Diese Anfrage kann nicht beantwortet werden")


@pytest.mark.parametrize(
    ("lang", "heading"),
    [
        ("en", "Nothing to open here"),
        ("nb", "Ingenting å åpne her"),
        ("es", "Aquí no hay nada que abrir"),
    ],
)
def test_a_get_to_an_address_that_takes_only_post_is_a_page(db, lang, heading):
    game = GameFactory()
    response = Client().get(f"/{lang}/games/{game.editor_token}/deals/undo/")
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    assert page_of(response)[:2] == (lang, heading)
    assert "Content-Security-Policy" in response  # the page keeps the site's policy


def test_the_api_keeps_its_json_errors(db):
    response = Client().get("/api/check")
    assert response.status_code == 405
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["error"]


def test_a_form_refused_by_the_csrf_check_says_to_reload_in_the_phones_language(db):
    game = GameFactory()
    phone = Client(enforce_csrf_checks=True)
    response = phone.post(f"/pl/games/{game.editor_token}/deals/undo/", {"version": "1"})
    assert response.status_code == 403
    lang, heading, body = page_of(response)
    assert (lang, heading) == ("pl", "Formularz wygasł")
    assert "Odśwież stronę i wyślij go ponownie" in body


def test_the_500_page_needs_no_database_and_speaks_the_request_s_language():
    """No db fixture: a query here would fail the test."""
    request = RequestFactory().get("/fi/games/")
    request.LANGUAGE_CODE = "fi"
    try:
        raise RuntimeError("a mistake in a view")
    except RuntimeError:
        response = dbdown.server_error(request)
    assert response.status_code == 500
    assert page_of(response)[:2] == ("fi", "Palvelimella meni jokin vikaan")


def test_a_permission_refused_is_a_page_too():
    with translation.override("en"):
        response = errors.permission_denied(RequestFactory().get("/es/"))
    assert response.status_code == 403
    assert page_of(response)[:2] == ("es", "No permitido")
