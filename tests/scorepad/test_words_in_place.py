"""Words a native reader found wrong in place (issue 45, words): each checked on the page a
person reads."""

import re

import pytest
from django.test import Client
from django.utils import translation

from scorepad.models import Evening
from tests.factories import CircleFactory

pytestmark = pytest.mark.django_db


def muted_line(body: str) -> str:
    return re.sub(r"<[^>]+>", "", re.search(r'<p class="muted">(.*?)</p>', body, re.S).group(1))


def test_in_polish_a_circle_is_started_in_the_feminine_and_an_evening_in_the_masculine():
    """One string served both ("Ekipa · Rozpoczęty"): "ekipa" is feminine, "wieczór" is not."""
    circle = CircleFactory()
    evening = Evening.objects.create(stake="0.10")
    with translation.override("pl"):
        circle_page = Client().get(f"/pl/circles/{circle.viewer_token}/").content.decode()
        evening_page = Client().get(f"/pl/evenings/{evening.viewer_token}/").content.decode()
    assert muted_line(circle_page).startswith("Ekipa · Rozpoczęta ")
    assert muted_line(evening_page).startswith("Rozpoczęty ")
