import re

import pytest
from django.urls import reverse

from scorepad.access import SEEN
from scorepad.models import Game
from tests.factories import ACTOR, CircleFactory, GameFactory, record_classic, record_penalty
from tests.scorepad.conftest import own

pytestmark = pytest.mark.django_db


def finish(game):
    game.refresh_from_db()
    game.end(version=game.version, once=f"end-{game.pk:020d}", actor=ACTOR)


def test_home_offers_a_new_game_and_this_phones_games_in_progress(client):
    body = client.get("/en/").content.decode()
    assert 'href="/en/games/new/"' in body
    running = GameFactory(players=["Anna", "Ben"])
    done = GameFactory(players=["Zed", "Yvo"], status=Game.Status.FINISHED)
    stranger = GameFactory(players=["Xan", "Wim"])
    own(client, running)
    own(client, done)
    body = client.get("/en/").content.decode()
    assert "Games in progress" in body
    assert f'href="/en/games/{running.editor_token}/"' in body
    assert "Zed" not in body
    assert "Xan" not in body
    assert stranger.viewer_token not in body


def test_a_followed_viewer_link_is_listed_with_the_viewer_link(client):
    game = GameFactory(players=["Anna", "Ben"])
    client.get(reverse("game", kwargs={"token": game.viewer_token}))
    assert client.cookies[SEEN].value == game.viewer_token
    assert SEEN not in client.session  # opening a link stores nothing on the server
    body = client.get("/en/games/").content.decode()
    assert f'href="/en/games/{game.viewer_token}/"' in body
    assert game.editor_token not in body


def test_the_game_list_splits_games_in_progress_and_finished(client):
    running = GameFactory(players=["Anna", "Ben"])
    done = GameFactory(players=["Cleo", "Dan"])
    record_classic(done, 0)
    finish(done)
    own(client, running)
    own(client, done)
    body = client.get("/en/games/").content.decode()
    in_progress, finished = body.split("<h2>Finished</h2>")
    assert "Anna" in in_progress
    assert "Cleo" not in in_progress
    assert "Cleo 🏆" in finished


def test_players_have_their_record_per_variant(client):
    circle = CircleFactory()
    a = GameFactory(players=["Anna", "Ben"], circle=circle)
    record_classic(a, 0, jokers=1)  # Anna +3
    record_classic(a, 0)  # Anna +11
    record_classic(a, 1)  # Ben +11
    finish(a)
    b = GameFactory(variant_id="romme", players=["Anna", "Ben"], circle=circle)
    record_penalty(b, 1, {0: 40})
    record_penalty(b, 0, {1: 7})
    body = client.get(f"/en/circles/{circle.viewer_token}/players/").content.decode()
    anna_part = body[body.index(">Anna<") : body.index(">Ben<")]

    def stats(variant_text):
        part = anna_part[anna_part.index(variant_text) :].split("</dl>")[0]
        return re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", part)

    assert stats("the 15-card game") == [
        ("Games", "1"),
        ("Wins", "1 of 1 finished game"),
        ("Deals", "3"),
        ("Average per deal", "+1.0"),
        ("Best deal", "+11"),
        ("Worst deal", "−11"),
    ]
    assert [v for _, v in stats("Rommé")] == ["1", "no game finished yet", "2", "20.0", "0", "40"]


def test_the_players_list_is_limited_to_the_circles_games(client):
    circle = CircleFactory()
    GameFactory(players=["Secret", "Agent"])  # outside any circle
    GameFactory(players=["Agent", "Spy"], circle=CircleFactory())  # another circle
    body = client.get(f"/en/circles/{circle.viewer_token}/players/").content.decode()
    assert "Secret" not in body
    assert "Agent" not in body
    assert "No players yet" in body


def test_opening_links_stores_nothing_on_the_server_and_keeps_the_newest(client):
    from django.contrib.sessions.models import Session

    games = [GameFactory(players=["Anna", "Ben"]) for _ in range(3)]
    for game in games:
        client.get(reverse("game", kwargs={"token": game.viewer_token}))
    assert Session.objects.count() == 0
    assert client.cookies[SEEN].value == ".".join(g.viewer_token for g in games)
    assert client.cookies[SEEN]["httponly"]
    assert client.cookies[SEEN]["samesite"] == "Lax"
    client.get(reverse("game", kwargs={"token": games[0].viewer_token}))  # already listed
    assert client.cookies[SEEN].value.count(games[0].viewer_token) == 1


def test_a_mangled_seen_cookie_lists_only_real_links(client):
    game = GameFactory(players=["Anna", "Ben"])
    client.cookies[SEEN] = f'<script>."; {game.viewer_token}.x.{"a" * 300}'
    body = client.get("/en/games/").content.decode()
    assert "<script>" not in body
    client.cookies[SEEN] = f"junk..{game.viewer_token}"
    body = client.get("/en/games/").content.decode()
    assert f'href="/en/games/{game.viewer_token}/"' in body


@pytest.mark.parametrize(
    ("lang", "order"),
    [
        ("en", ["Åsa", "Íñigo", "Ümit", "Zoë"]),
        ("de", ["Åsa", "Íñigo", "Ümit", "Zoë"]),
        ("nb", ["Íñigo", "Ümit", "Zoë", "Åsa"]),
    ],
)
def test_the_players_are_in_the_order_of_the_pages_language(client, lang, order):
    circle = CircleFactory()
    GameFactory(players=["Zoë", "Ümit", "Åsa", "Íñigo"], circle=circle)
    body = client.get(f"/{lang}/circles/{circle.viewer_token}/players/").content.decode()
    names = re.findall(r'<h2 id="player-\d+">([^<]+)</h2>', body)
    assert names == order
