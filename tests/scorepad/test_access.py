"""Who may see and change a game: an owner (the creator's phone), an editor link, a viewer
link, and an outsider (a wrong, revoked or other game's link)."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from scorepad.models import Deal, Event, Game
from tests.factories import ACTOR, GameFactory, classic_form_data, record_classic

pytestmark = pytest.mark.django_db


def writes(game, token):
    """Every write of the score pad, as (url, data) with a form that would otherwise work."""
    data = classic_form_data(game, 0, jokers=1)
    base = {"version": game.version, "once": "a-fresh-token-0123456789"}
    kw = {"token": token}
    return [
        (reverse("deal-new", kwargs=kw), data),
        (reverse("deal-edit", kwargs={**kw, "number": 1}), data),
        (reverse("deal-delete", kwargs={**kw, "number": 1}), base),
        (reverse("deal-undo", kwargs=kw), base),
        (reverse("game-end", kwargs=kw), {**base, "op": "end"}),
        (reverse("game-share", kwargs=kw), {**base, "link": "editor"}),
    ]


@pytest.fixture
def played(game):
    record_classic(game, 0)
    game.refresh_from_db()
    return game


def snapshot(game):
    game = Game.objects.get(pk=game.pk)
    deals = list(Deal.objects.filter(game=game).values_list("number", "went_out", "payment"))
    return (
        game.version,
        game.status,
        game.viewer_token,
        game.editor_token,
        deals,
        Event.objects.count(),
    )


def test_a_viewer_sees_the_sheet_without_any_control(client, played):
    body = client.get(reverse("game", kwargs={"token": played.viewer_token})).content.decode()
    assert "Anna" in body
    assert "+33" in body
    assert "Record deal" not in body
    assert "Undo" not in body
    assert "deal-edit" not in body
    assert "/deals/" not in body


@pytest.mark.parametrize("index", range(6))
def test_a_viewer_link_cannot_change_anything(client, played, index):
    before = snapshot(played)
    url, data = writes(played, played.viewer_token)[index]
    response = client.post(url, data)
    assert response.status_code == 403
    assert snapshot(played) == before


@pytest.mark.parametrize("index", range(4))
def test_a_viewer_link_cannot_even_open_the_forms(client, played, index):
    url = writes(played, played.viewer_token)[index][0]
    assert client.get(url).status_code in (403, 405)


@pytest.mark.parametrize("index", range(6))
def test_an_unknown_link_finds_nothing_and_changes_nothing(client, played, index):
    before = snapshot(played)
    url, data = writes(played, "x" * 24)[index]
    assert client.post(url, data).status_code == 404
    assert snapshot(played) == before


@pytest.mark.parametrize("index", range(6))
def test_another_games_viewer_link_is_refused_and_this_game_is_unchanged(client, played, index):
    other = GameFactory(players=2)
    before, other_before = snapshot(played), snapshot(other)
    url, data = writes(played, other.viewer_token)[index]
    assert client.post(url, data).status_code == 403
    assert snapshot(played) == before
    assert snapshot(other) == other_before


@pytest.mark.parametrize("index", range(6))
def test_another_games_editor_link_reaches_only_that_game(client, played, index):
    """A link names its game: with this game's form data, another game's editor link can at
    most change that other game, never this one."""
    other = GameFactory(players=2)
    before = snapshot(played)
    url, data = writes(played, other.editor_token)[index]
    client.post(url, data)
    assert snapshot(played)[:4] == before[:4]
    assert list(played.deals.values_list("number", "went_out", "payment")) == before[4]


def test_an_editor_link_can_record_a_deal(client, played):
    url, data = writes(played, played.editor_token)[0]
    assert client.post(url, data).status_code == 302
    assert played.deals.count() == 2
    assert Event.objects.filter(game=played).first().actor == "editor_link"


def test_the_creators_phone_can_edit_through_the_viewer_link_too(creator, played):
    url, data = writes(played, played.viewer_token)[0]
    assert creator.post(url, data).status_code == 302
    assert Event.objects.filter(game=played).first().actor == "creator"


@pytest.mark.parametrize("which", ["editor", "viewer"])
@pytest.mark.parametrize("index", range(6))
def test_a_replaced_link_stops_working_at_once(client, played, which, index):
    old = getattr(played, f"{which}_token")
    played.replace_link(which, version=played.version, once="r" * 22, actor=ACTOR)
    before = snapshot(played)
    assert client.get(reverse("game", kwargs={"token": old})).status_code == 404
    url, data = writes(played, old)[index]
    assert client.post(url, data).status_code == 404
    assert snapshot(played) == before
    assert getattr(played, f"{which}_token") != old


def test_replacing_a_link_from_the_share_page_redirects_to_the_new_link(client, played):
    old = played.editor_token
    response = client.post(
        reverse("game-share", kwargs={"token": old}),
        {"version": played.version, "once": "share-0123456789abcdef", "link": "editor"},
    )
    played.refresh_from_db()
    assert response.status_code == 302
    assert response["Location"] == reverse("game-share", kwargs={"token": played.editor_token})


def test_the_share_page_shows_both_links_with_qr_codes_to_an_editor(creator, played):
    body = creator.get(
        reverse("game-share", kwargs={"token": played.editor_token})
    ).content.decode()
    assert f"http://testserver/en/games/{played.viewer_token}/" in body
    assert f"http://testserver/en/games/{played.editor_token}/" in body
    # The viewer link, the editor link and table mode (the viewer link's table).
    assert body.count('<svg width="') == 3
    assert 'class="qr"' in body
    assert f"http://testserver/en/games/{played.viewer_token}/table/" in body
    assert "Replace the editor link" in body


def test_the_share_page_shows_only_the_viewer_link_to_a_viewer(client, played):
    body = client.get(reverse("game-share", kwargs={"token": played.viewer_token})).content.decode()
    assert played.viewer_token in body
    assert played.editor_token not in body
    assert "Replace" not in body


def every_form(played):
    """Every form that posts, with data it would accept: the game's six writes, a new game,
    an import."""
    exported = Client().get(reverse("game-export-json", kwargs={"token": played.viewer_token}))
    return [
        *writes(played, played.editor_token),
        (
            reverse("game-new"),
            {
                "variant": "classic",
                "op": "start",
                "seat": ["n:Ann", "n:Bo"],
                "first_dealer": "draw",
            },
        ),
        (reverse("game-import"), {"text": exported.content.decode()}),
    ]


def everything():
    return (
        Game.objects.count(),
        list(Game.objects.values_list("pk", "version", "status", "editor_token")),
        Deal.objects.count(),
        Event.objects.count(),
    )


@pytest.mark.parametrize("index", range(8))
def test_every_form_needs_its_csrf_token(played, index):
    strict = Client(enforce_csrf_checks=True)
    url, data = every_form(played)[index]
    before = everything()
    response = strict.post(url, data)
    assert response.status_code == 403
    assert everything() == before
    # The same post with the token of the phone's cookie is let through.
    strict.get(reverse("game", kwargs={"token": played.editor_token}))
    token = strict.cookies[settings.CSRF_COOKIE_NAME].value
    assert strict.post(url, {**data, "csrfmiddlewaretoken": token}).status_code != 403
    assert everything() != before
