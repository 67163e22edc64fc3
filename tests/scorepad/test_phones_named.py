"""Conflicts and the history as a person at the table reads them (issue 23, item 3): a
choice's own label rather than a dash ("No", not "(was —)"), and the phones named by their
kind ("iPhone 3f2a", "this phone") rather than "phone 443360"; the User-Agent itself is
never kept."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorepad import conflicts
from scorepad.access import DEVICE, family_of
from scorepad.forms.deals import ClassicDealForm
from scorepad.models import Event
from tests.factories import classic_form_data, seats
from tests.scorepad.conftest import own

pytestmark = pytest.mark.django_db

IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
)
ANDROID = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0 Mobile Safari/537.36"
)


def test_an_empty_choice_reads_as_its_label(game):
    form = ClassicDealForm(game=game, seats=seats(game))
    assert conflicts.shown(form, "first_turn", "") == "No"
    assert conflicts.shown(form, "first_turn", "drawn") == "Yes, after drawing"
    assert conflicts.shown(form, "hand", "") == "—"


@pytest.mark.parametrize(
    ("agent", "family"),
    [
        (IPHONE, "iphone"),
        (ANDROID, "android"),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Safari/605.1.15", "mac"),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/126.0", "windows"),
        ("Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) Chrome/126.0", "chromebook"),
        ("Mozilla/5.0 (X11; Linux x86_64) Firefox/127.0", "linux"),
        ("", "phone"),
        ("curl/8.0 token=abcdefghijklmnopqrstuvwx", "phone"),
    ],
)
def test_a_phones_kind_is_read_from_its_user_agent(agent, family):
    assert family_of(agent) == family


def deal_by(phone: Client, game, agent: str) -> str:
    url = reverse("deal-new", kwargs={"token": game.editor_token})
    game.refresh_from_db()
    assert phone.post(url, classic_form_data(game, 0), HTTP_USER_AGENT=agent).status_code == 302
    return phone.session[DEVICE]


def test_the_history_names_each_phone_by_its_kind_and_this_phone_as_this_phone(game):
    # A phone named before the kinds were kept: its code alone.
    Event.objects.create(game=game, kind="target", actor="editor_link", device="443360")
    iphone = own(Client(), game)
    android = Client()
    first = deal_by(iphone, game, IPHONE)
    second = deal_by(android, game, ANDROID)
    assert re.fullmatch(r"iphone-[0-9a-f]{4}", first)
    assert re.fullmatch(r"android-[0-9a-f]{4}", second)
    assert "Mozilla" not in "".join(Event.objects.values_list("device", flat=True))
    url = reverse("game-history", kwargs={"token": game.editor_token})
    page = iphone.get(url).content.decode()
    who = re.findall(r'<p class="who muted">by [^(<]+\(([^)<]+)\)</p>', page)
    assert who == [f"Android phone {second[-4:]}", "this phone", "phone 443360"]
    german = android.get(url.replace("/en/", "/de/")).content.decode()
    assert "(dieses Handy)" in german
    assert f"(iPhone {first[-4:]})" in german


@pytest.mark.parametrize("over", ["[[[", '{"jokers": 3}', '{"nowhere": "1"}', "x" * 30_000])
def test_an_over_field_that_is_not_what_the_app_wrote_replaces_nothing(game, over):
    """``over`` (the other phone's values of a merged correction) as a phone may send it:
    not JSON, of other types, naming no field; the correction is saved, nobody is told."""
    from tests.factories import record_classic

    record_classic(game, 0)
    editor = own(Client(), game)
    game.refresh_from_db()
    url = reverse("deal-edit", kwargs={"token": game.editor_token, "number": 1})
    data = {**classic_form_data(game, 1), "over": over}
    assert editor.post(url, data).status_code == 302
    edited = Event.objects.get(game=game, kind="edited")
    assert "replaced" not in edited.details
    page = editor.get(reverse("game", kwargs={"token": game.editor_token})).content.decode()
    assert "was replaced by" not in page
