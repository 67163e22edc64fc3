"""An editor link is the key to change a game: it never reaches a log, a cache or another
site (issue 21, item 9). "Play again" carries no link of the game; an old "Play again"
link with a token still works, is masked in the logs and never cached; every answer that
holds an editor link, found by walking the URLconf with the link in every place a link may
be given (the path, ``again``, ``back``, ``game``), says ``Cache-Control: no-store``; and
the Referrer-Policy sends no path, so no token, in a Referer to anyone."""

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from continental.logfilters import LINK_PARAMETERS, mask
from scorepad.models import Entrant, Evening, Tournament
from tests.continental.test_logging import _Request, _Response, gunicorn_logger
from tests.factories import ACTOR, CircleFactory, GameFactory, record_classic
from tests.urlconf import routes

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def finished():
    game = GameFactory(
        variant_id="classic", players=["Anna", "Ben", "Cleo"], circle=CircleFactory()
    )
    record_classic(game, 0, jokers=1)
    game.refresh_from_db()
    game.end(version=game.version, once="end-it-0123456789ab", actor=ACTOR)
    game.refresh_from_db()
    return game


def no_store(response) -> bool:
    return "no-store" in response.headers.get("Cache-Control", "")


def play_again_href(page: str) -> str:
    match = re.search(r'<p class="play-again"><a [^>]*href="([^"]+)"', page)
    assert match, "no Play again link"
    return match.group(1).replace("&amp;", "&")


@pytest.mark.parametrize("link", ["editor_token", "viewer_token"])
def test_play_again_carries_no_link_of_the_game_and_works_without_javascript(finished, link):
    page = Client().get(reverse("game", kwargs={"token": getattr(finished, link)}))
    href = play_again_href(page.content.decode())
    assert finished.editor_token not in href
    assert finished.viewer_token not in href
    new_game = Client().get(href)
    assert new_game.status_code == 200
    body = new_game.content.decode()
    for seat in finished.seats.all():
        # The same players, seated in order: the circle's people through the editor link,
        # their names only through the viewer link (a new game outside the circle).
        value = f"p:{seat.person_id}" if link == "editor_token" else f"n:{seat.name}"
        assert f'value="{value}"' in body
    assert ("A game of the circle" in body) == (link == "editor_token")
    assert not Client().get(reverse("game-new")).content.decode().count('value="p:')


def test_a_play_again_reference_that_was_tampered_with_opens_an_empty_new_game(finished):
    href = play_again_href(
        Client().get(reverse("game", kwargs={"token": finished.viewer_token})).content.decode()
    )
    response = Client().get(href[:-3] + "xyz")
    assert response.status_code == 200
    assert 'name="seat"' not in response.content.decode()


def test_an_old_play_again_link_with_the_editor_link_still_works_and_is_not_stored(finished):
    response = Client().get(reverse("game-new") + f"?again={finished.editor_token}")
    assert response.status_code == 200
    assert 'value="p:' in response.content.decode()
    assert no_store(response)


def test_again_and_the_referer_are_masked_in_the_logs(tmp_path):
    token = "E" * 24
    assert mask(f"GET /en/games/new/?again={token} HTTP/1.1") == (
        "GET /en/games/new/?again=<token> HTTP/1.1"
    )
    assert mask(f"/en/games/new/?variant=romme&again={token}&x=1") == (
        "/en/games/new/?variant=romme&again=<token>&x=1"
    )
    access = tmp_path / "access.log"
    with gunicorn_logger(
        accesslog=str(access), access_log_format='"%(r)s" "%(f)s" %({referer}i)s'
    ) as log:
        environ = {
            "REQUEST_METHOD": "GET",
            "RAW_URI": f"/en/games/new/?again={token}",
            "PATH_INFO": "/en/games/new/",
            "QUERY_STRING": f"again={token}",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "203.0.113.5",
            "HTTP_REFERER": f"https://example.org/en/games/new/?again={token}",
        }
        log.access(_Response(), _Request(), environ, datetime.timedelta(milliseconds=5))
    line = access.read_text()
    assert token not in line
    assert "again=<token>" in line


def test_no_answer_sends_a_path_in_a_referer():
    """strict-origin: a Referer holds the origin only (never a path with a token), and the
    Origin of a form's POST stays what CSRF checks (no-referrer would make it "null")."""
    for response in (Client().get("/en/"), Client().get("/en/games/new/?again=x")):
        assert response["Referrer-Policy"] == "strict-origin"


# --- every answer that holds an editor link is not stored ------------------------------------


def normal(body: bytes, *tokens: str) -> bytes:
    """An answer's body without what differs from one answer to the next (the nonce of its
    scripts, the CSRF token) and without the tokens given."""
    body = re.sub(rb"nonce(=\"|-)[A-Za-z0-9+/=_-]+", b"nonce", body)
    body = re.sub(rb'name="csrfmiddlewaretoken" value="[^"]+"', b"csrf", body)
    body = re.sub(rb'"X-CSRFToken": "[^"]+"', b"csrf", body)
    for token in tokens:
        body = body.replace(token.encode(), b"T")
    return body


def requests_with(
    editor: str, evening_editor: str, pk: int, circle_editor: str = "", **others: str
):
    """Every GET the URLconf has, with an editor link in each place a link may be given:
    (the URL, the same URL with an unknown link in that place, the link). ``others``: the
    link of each other kind (a tournament's director, a player's own)."""
    bogus = "B" * 24
    for route in routes():
        kinds = {"evening": evening_editor, "circle": circle_editor, **others}
        link = kinds.get(route.kind, editor)
        values = {"number": 1, "pk": pk, "code": "de", "variant_id": "classic", "year": 2026}
        if route.kind:
            path, other = route.url(token=link, **values), route.url(token=bogus, **values)
            yield path, other, link
        else:
            rest = {"rest": f"en/games/{link}/"}
            path = route.url(**values, **rest)
            other = route.url(**values, rest=f"en/games/{bogus}/")
            if "rest" in route.parameters:
                yield path, other, link
        for name in LINK_PARAMETERS:
            value = f"/en/games/{editor}/" if name == "back" else editor
            unknown = value.replace(editor, bogus)
            yield f"{path}?{name}={value}", f"{path}?{name}={unknown}", editor


def test_every_answer_that_holds_an_editor_link_is_not_stored(finished):
    evening = Evening.objects.create(stake="0.10")
    player = finished.seats.first().person_id
    held = []
    circle = finished.circle.editor_token
    tournament = Tournament.objects.create(name="Club", variant_id="romme")
    entrant = Entrant.objects.create(tournament=tournament, number=1, name="Anna")
    for url, other_url, link in requests_with(
        finished.editor_token,
        evening.editor_token,
        player,
        circle,
        tournament=tournament.editor_token,
        player=entrant.token,
    ):
        response = Client().get(url)
        if response.status_code == 405:
            continue  # not a page (a write): its answers are the writes' tests
        body, location = response.content, response.headers.get("Location", "")
        holds = link.encode() in body or link in location
        if not holds:  # the link in the URL did something: the answer is made of it
            other = Client().get(other_url)
            holds = other.status_code != response.status_code or normal(
                other.content, "B" * 24
            ) != normal(body, link)
        if holds:
            held.append(url)
            assert no_store(response), (url, response.headers.get("Cache-Control"))
    assert len(held) >= 20, held  # the sheet's pages, the evening's, and the query's
    assert any("again=" in url for url in held)
    assert any("back=" in url for url in held)
    assert any(url.startswith("/language/") for url in held)


def test_a_play_again_reference_is_the_same_in_every_second_and_an_older_one_still_works(
    finished,
):
    from unittest import mock

    from django.core import signing

    from scorepad.access import AGAIN_SALT, again_game, again_reference

    # The sheet's kept rendering holds the reference: a later second must give the same one
    # (it once carried the time, so a page and a test a second apart disagreed).
    now = again_reference(finished)
    with mock.patch("time.time", return_value=4_000_000_000):
        assert again_reference(finished) == now
    assert again_game(now) == (finished, False)
    # A reference sent before, with the time in it, still fills in the new game.
    older = signing.dumps(finished.pk, salt=AGAIN_SALT)
    assert older.count(":") == 2
    assert again_game(older) == (finished, False)
    response = Client().get(reverse("game-new") + f"?again={older}")
    assert 'name="seat"' in response.content.decode()
