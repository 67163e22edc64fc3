"""The hand checker page runs the engine as ``/api/check`` does: both count against the
API's limit per client (issue 21, item 12; 4,670 checker pages in 20 s were all answered),
and a limited checker page answers a 429 page in the language of the request."""

import json

import pytest
from django.test import override_settings

LANGUAGES = ["en", "de", "nb", "pl", "fi", "es"]

pytestmark = pytest.mark.django_db

HAND = "/{lang}/check/?variant=classic&cards=4S+5S+6S+7S+9H+10H+JH+QH+KH+AD+3D+10C+JC+QC+KC+JK"


def api(client, addr):
    body = json.dumps({"variant": "nope", "cards": ""})
    return client.post("/api/check", body, content_type="application/json", REMOTE_ADDR=addr)


@override_settings(RATE_LIMITS={"api": 3, "write": 100})
def test_checker_pages_are_counted_with_the_api_per_client(client):
    statuses = [client.get(HAND.format(lang="en"), REMOTE_ADDR="10.1.0.1").status_code]
    statuses.append(api(client, "10.1.0.1").status_code)
    statuses.append(client.get(HAND.format(lang="en"), REMOTE_ADDR="10.1.0.1").status_code)
    assert statuses == [200, 400, 200]
    assert api(client, "10.1.0.1").status_code == 429
    assert client.get(HAND.format(lang="en"), REMOTE_ADDR="10.1.0.1").status_code == 429
    assert client.get(HAND.format(lang="en"), REMOTE_ADDR="10.1.0.2").status_code == 200


@override_settings(RATE_LIMITS={"api": 2, "write": 100})
def test_the_htmx_answers_of_the_checker_count_too(client):
    for _ in range(2):
        client.get(HAND.format(lang="en"), REMOTE_ADDR="10.1.0.3", HTTP_HX_REQUEST="true")
    response = client.get(HAND.format(lang="en"), REMOTE_ADDR="10.1.0.3", HTTP_HX_REQUEST="true")
    assert response.status_code == 429


@pytest.mark.parametrize("lang", LANGUAGES)
@override_settings(RATE_LIMITS={"api": 1, "write": 100})
def test_a_limited_checker_page_is_a_page_in_its_language(client, lang):
    from django.utils import translation

    client.get(HAND.format(lang=lang), REMOTE_ADDR="10.1.0.4")
    response = client.get(HAND.format(lang=lang), REMOTE_ADDR="10.1.0.4")
    assert response.status_code == 429
    assert response["Retry-After"] == "60"
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert f'<html lang="{lang}"' in page
    with translation.override(lang):
        wait = translation.gettext(
            "Too many requests from your device. Please wait a minute and try again."
        )
        heading = translation.gettext("Too many requests")
    if lang != "en":
        assert heading != "Too many requests", "not translated"
    assert wait in page
    assert f"<h1>{heading}</h1>" in page
    assert response.headers.get("Content-Security-Policy")
