"""A correction made without a connection to a deal whose players differ from the table's
(issue 44): the form the sheet holds is made for the players at the table now. A deal played
before someone joined names its players on its link, and that form, the newcomer's controls
left out (static/js/offline-form.js), corrects it as the server's own form would; a deal of a
player who has left since has no control of theirs in that form: its link says so, and the
phone says why it cannot correct it without a connection."""

import html
import json
import re
import secrets

import pytest
from django.urls import reverse

from scorepad.models import Game
from tests.factories import ACTOR, record_classic

pytestmark = pytest.mark.django_db


def link_values(client, game, number: int) -> dict | None:
    """What deal ``number``'s correction link on the editor's sheet carries for the held form."""
    body = client.get(reverse("game", kwargs={"token": game.editor_token})).content.decode()
    found = re.search(rf'/deals/{number}/edit/" data-values="([^"]+)"', body)
    return json.loads(html.unescape(found.group(1))) if found else None


def joined(game: Game, name: str) -> Game:
    game.refresh_from_db()
    game.join(name, 0, version=game.version, once=None, actor=ACTOR)
    game.refresh_from_db()
    return game


def test_a_deal_played_before_someone_joined_names_its_players(creator, game):
    record_classic(game, 0)
    joined(game, "Eva")
    record_classic(game, 4)
    first = link_values(creator, game, 1)
    assert first["seats"] == [0, 1, 2, 3]  # Eva (seat 4) was not in deal 1
    assert first["went_out"] == "0"
    assert "seats" not in link_values(creator, game, 2)  # all five played deal 2


def test_the_held_form_filled_for_that_deal_corrects_it_as_the_servers_form_would(creator, game):
    record_classic(game, 0)
    joined(game, "Eva")
    values = link_values(creator, game, 1)
    players = values.pop("seats")
    # What the phone posts: the deal's values (nothing of Eva's), Ben now the one out, the
    # values it opened with as base, a one-time token of its own.
    assert not any(key.endswith("_4") for key in values)
    game.refresh_from_db()
    data = {
        **values,
        "went_out": "1",
        "version": str(game.version),
        "once": "p" + secrets.token_hex(16),
        "number": "1",
        "base": json.dumps(values),
    }
    answer = creator.post(
        reverse("deal-edit", kwargs={"token": game.editor_token, "number": 1}), data
    )
    assert answer.status_code == 302
    deal = Game.objects.get(pk=game.pk).deals.get(number=1)
    assert deal.went_out == 1
    assert players == [0, 1, 2, 3]


def test_a_deal_of_a_player_who_has_left_since_says_so(creator, game):
    record_classic(game, 0)
    game.refresh_from_db()
    game.seat_leaves(2, version=game.version, once=None, actor=ACTOR)  # Cleo goes home
    record_classic(game, 1)
    assert link_values(creator, game, 1) == {"left": True}
    assert "left" not in link_values(creator, game, 2)  # Cleo was not in deal 2


def test_the_phone_says_why_in_the_pages_language(creator, game):
    body = creator.get(
        reverse("game", kwargs={"token": game.editor_token}).replace("/en/", "/de/")
    ).content.decode()
    texts = re.search(r'data-texts="([^"]+)"', body).group(1)
    said = dict(pair.split("=", 1) for pair in html.unescape(texts).split("|"))
    assert said["otherPlayers"] == (
        "In Runde {n} spielte jemand mit, der den Tisch inzwischen verlassen hat: Korrigieren "
        "geht erst, wenn die Verbindung wieder da ist."
    )
