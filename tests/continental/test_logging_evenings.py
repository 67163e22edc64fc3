"""Evening links never reach the logs either: ``/evenings/<token>/``, and a game's link
handed to the new-evening page (``?game=<token>``), are masked like game links."""

import pytest
from django.urls import reverse
from django.utils import translation

from continental.logfilters import mask
from scorepad.models import Evening
from tests.continental.test_logging import console  # noqa: F401 (a fixture)


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        (
            "Conflict: /en/evenings/abcdefghijklmnopqrstuvwx/carry/",
            "Conflict: /en/evenings/<token>/carry/",
        ),
        (
            "GET /de/evenings/new/?game=A1b2_C3d4-E5f6G7h8I9j0K1 HTTP/1.1",
            "GET /de/evenings/new/?game=<token> HTTP/1.1",
        ),
        ("/en/evenings/new/", "/en/evenings/new/"),
        ("a game=short", "a game=short"),
    ],
)
def test_mask_replaces_evening_tokens_and_game_parameters(text, masked):
    assert mask(text) == masked


@pytest.mark.django_db
def test_a_forbidden_evening_write_logs_no_token(client, console):  # noqa: F811
    evening = Evening.objects.create(stake="0.10")
    with translation.override("en"):
        url = reverse("evening-carry", kwargs={"token": evening.viewer_token})
    assert client.post(url, {"version": 1, "once": "x" * 22}).status_code == 403
    text = console.getvalue()
    assert "Forbidden: /en/evenings/<token>/carry/" in text
    assert evening.viewer_token not in text
