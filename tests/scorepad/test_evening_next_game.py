"""The evening's next game from the evening's own page (issue 45, item 7): one tap to the
new-game page, seated as the evening's last game, and the game counts in the evening from
its start; the evening's editor link grants that and nothing more (the grant table)."""

import re
from html import unescape
from urllib.parse import unquote

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorepad.access import EVENINGS
from scorepad.models import Circle, Evening, EveningGame, Event, Game
from tests.factories import ACTOR, GameFactory, record_classic
from tests.scorepad.conftest import hidden

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(db):
    circle = Circle.objects.create(name="Thursdays")
    circle.start(actor=ACTOR)
    game = GameFactory(variant_id="romme", players=["Kasia", "Marek", "Anna"], circle=circle)
    for person, seat in zip(
        [circle.person_for(n) for n in ("Kasia", "Marek", "Anna")],
        game.seats.order_by("position"),
        strict=True,
    ):
        seat.person = person
        seat.save()
    evening = Evening.objects.create(name="Friday", stake="0.10", circle=circle)
    evening.start(actor=ACTOR)
    EveningGame.objects.create(evening=evening, game=game, stake="0.20", position=1)
    return evening


def starter(evening: Evening) -> Client:
    client = Client()
    session = client.session
    session[EVENINGS.created] = [evening.pk]
    session.save()
    return client


def next_game_href(client: Client, token: str) -> str | None:
    page = client.get(reverse("evening", kwargs={"token": token})).content.decode()
    found = re.search(r'href="(/en/games/new/\?evening=[^"]+)"', page)
    return unescape(found[1]) if found else None


def start(client: Client, href: str) -> tuple[str, object]:
    body = client.get(href).content.decode()
    data = {
        "variant": "romme",
        "op": "start",
        "first_dealer": "0",
        "seat": re.findall(r'name="seat" value="([^"]+)"', body),
        "evening": hidden(body, "evening"),
    }
    stake = re.search(r'name="value_per_point"[^>]* value="([^"]*)"', body)
    if stake:
        data["value_per_point"] = stake[1]
    return body, client.post(reverse("game-new"), data)


def sent_from(client: Client, href: str):
    """The "Start" of the next game's form opened at ``href``, whatever the evening is now."""
    data = {
        "variant": "romme",
        "op": "start",
        "first_dealer": "0",
        "seat": ["n:Kasia", "n:Marek"],
        "evening": unquote(href.split("evening=", 1)[1]),
    }
    return client.post(reverse("game-new"), data)


@pytest.mark.parametrize("via", ["starter", "editor link"])
def test_the_next_game_is_seated_as_the_last_and_counts_in_the_evening(evening, via):
    client = starter(evening) if via == "starter" else Client()
    href = next_game_href(client, evening.editor_token)
    assert href is not None
    body, answer = start(client, href)
    assert "It counts in the evening “Friday”." in body
    assert "A game of the circle Thursdays" in body
    game = Game.objects.order_by("-pk").first()
    assert answer["Location"] == reverse("game", kwargs={"token": game.editor_token})
    assert [s.name for s in game.seats.order_by("position")] == ["Kasia", "Marek", "Anna"]
    assert game.variant_id == "romme"
    assert game.circle_id == evening.circle_id
    entry = EveningGame.objects.get(game=game)
    assert (entry.evening_id, entry.position, str(entry.stake)) == (evening.pk, 2, "0.20")
    old_version = evening.version
    evening.refresh_from_db()
    added = evening.history().first()
    assert evening.version == old_version + 1
    assert (added.kind, added.actor) == (
        "added",
        "creator" if via == "starter" else "editor_link",
    )
    assert list(game.history().values_list("kind", flat=True)) == ["started"]
    # The new game's page is this phone's: it started it.
    assert client.get(answer["Location"]).status_code == 200


def test_a_viewer_and_a_closed_evening_offer_no_next_game(evening):
    assert next_game_href(Client(), evening.viewer_token) is None
    client = starter(evening)
    href = next_game_href(client, evening.editor_token)
    evening.carry({}, version=evening.version, once=None, actor=ACTOR)
    assert next_game_href(client, evening.editor_token) is None
    # A form opened before the carry starts nothing in the carried evening, and says so.
    games = Game.objects.count()
    with translation.override("de"):
        body = client.get(href).content.decode()
    assert 'name="evening"' not in body  # the evening is closed: a plain new game's form
    answer = sent_from(client, href)
    assert answer.status_code == 200
    assert "start the game from the next evening" in answer.content.decode()
    assert Game.objects.count() == games


def test_a_replaced_editor_link_takes_the_next_game_with_it(evening):
    client = starter(evening)
    href = next_game_href(client, evening.editor_token)
    evening.replace_link("editor", version=evening.version, once=None, actor=ACTOR)
    games = Game.objects.count()
    answer = sent_from(client, href)
    assert "The evening's editor link was replaced" in unescape(answer.content.decode())
    assert Game.objects.count() == games


def test_two_phones_start_the_next_game_and_an_add_meanwhile_is_no_conflict(evening):
    """Adding the new game takes the evening as it is then (its row locked), not the version
    the page was opened at: another phone's change meanwhile does not stop it."""
    first, second = starter(evening), Client()
    href_a = next_game_href(first, evening.editor_token)
    href_b = next_game_href(second, evening.editor_token)
    start(first, href_a)
    start(second, href_b)
    evening.refresh_from_db()
    assert list(evening.games.values_list("position", flat=True)) == [1, 2, 3]
    assert evening.version == evening.history().count()  # one entry per change
    assert Event.objects.filter(evening=evening, kind="added").count() == 2


def test_an_evening_outside_circles_starts_a_game_outside_circles():
    game = GameFactory(variant_id="classic", players=["Ana", "Bea"])
    record_classic(game, 0)
    evening = Evening.objects.create(stake="0.10")
    evening.start(actor=ACTOR)
    EveningGame.objects.create(evening=evening, game=game, stake="0.10", position=1)
    client = starter(evening)
    body, _answer = start(client, next_game_href(client, evening.editor_token))
    assert "It counts in this evening." in body
    made = Game.objects.order_by("-pk").first()
    assert made.circle_id is None
    assert EveningGame.objects.get(game=made).evening_id == evening.pk
