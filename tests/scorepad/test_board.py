"""The rendered sheet kept per game version (scorepad/board.py): every answer built from it is
the answer the page would render fresh, with the requester's own tokens in its forms."""

import re

import pytest
from django.conf import settings
from django.middleware.csrf import _does_token_match
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from scorepad.access import Access
from scorepad.board import CSRF_SLOT, ONCE_SLOT, board, board_key
from scorepad.models import Game, RenderedSheet
from tests.factories import GameFactory, record_classic
from tests.scorepad.conftest import hidden, own

pytestmark = pytest.mark.django_db


def page(client: Client, token: str, lang: str = "en") -> str:
    with translation.override(lang):
        url = reverse("game", kwargs={"token": token})
    response = client.get(url)
    assert response.status_code == 200
    body = response.content.decode()
    assert CSRF_SLOT not in body and ONCE_SLOT not in body
    return body


def sheet_part(body: str) -> str:
    return body[body.index('<section id="sheet"') : body.index("</section>", body.index("Σ"))]


def test_a_second_phone_gets_the_same_sheet_with_its_own_tokens(game):
    record_classic(game, 0)
    first, second = Client(), Client()
    own(first, game)
    own(second, game)
    body_one, body_two = page(first, game.editor_token), page(second, game.editor_token)
    assert sheet_part(body_one).split("<form")[0] == sheet_part(body_two).split("<form")[0]
    assert hidden(body_one, "once") != hidden(body_two, "once")
    # Each phone's forms carry a CSRF token of its own cookie, the cached page's included.
    secret_one = first.cookies[settings.CSRF_COOKIE_NAME].value
    secret_two = second.cookies[settings.CSRF_COOKIE_NAME].value
    assert secret_one != secret_two
    assert _does_token_match(hidden(body_one, "csrfmiddlewaretoken"), secret_one)
    assert _does_token_match(hidden(body_two, "csrfmiddlewaretoken"), secret_two)
    assert not _does_token_match(hidden(body_two, "csrfmiddlewaretoken"), secret_one)
    # And the forms of a page from the cache work, CSRF checks on.
    checked = Client(enforce_csrf_checks=True)
    own(checked, game)
    body = page(checked, game.editor_token)
    response = checked.post(
        reverse("deal-undo", kwargs={"token": game.editor_token}),
        {
            "csrfmiddlewaretoken": hidden(body, "csrfmiddlewaretoken"),
            "version": hidden(body, "version"),
            "once": hidden(body, "once"),
        },
    )
    assert response.status_code == 302
    assert "Record deal 1" in page(checked, game.editor_token)


def test_the_sheet_is_kept_once_per_version_and_a_change_shows_at_once(client, game):
    own(client, game)
    record_classic(game, 0)
    game.refresh_from_db()
    access = Access(game, game.editor_token, "editor", "creator")
    with translation.override("en"):
        key = board_key(access, hide_actions=False)
    kept = RenderedSheet.objects.filter(game=game, version=game.version, key=key)
    assert not kept.exists()
    page(client, game.editor_token)
    assert kept.exists()
    record_classic(game, 1)
    body = page(client, game.editor_token)
    assert "Record deal 3" in body and "Undo deal 2" in body


def test_viewer_editor_and_language_each_get_their_own_sheet(client, game):
    record_classic(game, 0)
    own(client, game)
    editor = page(client, game.editor_token)
    viewer = page(Client(), game.viewer_token)
    german = page(Client(), game.viewer_token, "de")
    translation.activate("en")
    assert (
        "Record deal 2" in editor
        and reverse("deal-new", kwargs={"token": game.editor_token}) in editor
    )
    assert "Record deal" not in viewer and game.editor_token not in viewer
    assert "<h2>Stand</h2>" in german and 'lang="de"' in german
    assert "Standings" not in german and "Standings" in viewer


def test_a_name_that_looks_like_a_slot_stays_text(client):
    game = GameFactory(variant_id="classic", players=[str(CSRF_SLOT), str(ONCE_SLOT), "Cleo"])
    record_classic(game, 0)
    own(client, game)
    for _ in range(2):  # rendered, then from the cache
        body = page(client, game.editor_token)
        assert "&lt;!--csrf-token--&gt;" in body and "&lt;!--once-token--&gt;" in body
        tokens = re.findall(r'name="csrfmiddlewaretoken" value="([^"]*)"', body)
        assert tokens and all(re.fullmatch(r"[A-Za-z0-9]{64}", t) for t in tokens)


def test_a_sheet_read_across_a_change_is_not_kept(game):
    """Rows read after another phone's change must not be kept under the older version."""
    record_classic(game, 0)
    stale = Game.objects.get(pk=game.pk)  # at version v, rows not loaded yet
    record_classic(game, 1)  # version v + 1, committed before the rows are read
    access = Access(stale, stale.viewer_token, "viewer", "viewer_link")
    request = RequestFactory().get("/")
    context = {
        "access": access,
        "game": stale,
        "token": access.token,
        "can_edit": False,
        "once": "x",
        "variant_name": "Continental",
        "panel": None,
        "notice": "",
    }
    with translation.override("en"):
        shown = board(request, access, context)
        assert not RenderedSheet.objects.exists()
    assert len(re.findall(r"<tr class=", shown.sheet)) == 2  # what was read is shown
    assert not shown.current  # and the page made of it is not kept either


def test_a_typed_settle_amount_is_not_kept_for_others(client, game):
    record_classic(game, 0)
    own(client, game)
    url = reverse("game-end", kwargs={"token": game.editor_token})
    body = page(client, game.editor_token)
    client.post(
        url, {"version": hidden(body, "version"), "once": hidden(body, "once"), "op": "end"}
    )
    typed = client.get(reverse("game", kwargs={"token": game.editor_token}) + "?per_point=0.25")
    assert typed.status_code == 200 and 'value="0.25"' in typed.content.decode()
    plain = page(Client(), game.viewer_token)
    assert 'value="0.25"' not in plain


def normalised(body: str) -> str:
    """A page with its per-answer tokens blanked out."""
    body = re.sub(r'(name="(?:csrfmiddlewaretoken|once)" value=")[^"]*', r"\1", body)
    return re.sub(r'"X-CSRFToken": "[^"]*"', '"X-CSRFToken": ""', body)


@pytest.mark.parametrize("creator", [True, False])
def test_a_page_from_the_cache_is_the_page_rendered_fresh(client, game, creator):
    record_classic(game, 0)
    if creator:
        own(client, game)
    fresh = page(client, game.viewer_token)
    cached = page(client, game.viewer_token)
    assert normalised(cached) == normalised(fresh)
    assert ('name="csrfmiddlewaretoken"' in cached) == creator
    RenderedSheet.objects.all().delete()
    assert normalised(page(client, game.viewer_token)) == normalised(fresh)


def test_a_message_is_shown_once_and_never_kept_in_the_page(client, game):
    own(client, game)
    page(client, game.editor_token)  # the page without a message is now kept
    body = page(client, game.editor_token)
    response = client.post(
        reverse("deal-undo", kwargs={"token": game.editor_token}),
        {"version": hidden(body, "version"), "once": hidden(body, "once")},
        follow=True,
    )
    assert response.content.decode().count("There is no deal to undo.") == 1  # said once
    assert "There is no deal to undo." not in page(client, game.editor_token)
    assert "There is no deal to undo." not in page(Client(), game.viewer_token)


def test_the_htmx_partial_and_the_page_are_kept_apart(client, game):
    record_classic(game, 0)
    own(client, game)
    url = reverse("game", kwargs={"token": game.editor_token})
    for _ in range(2):
        partial = client.get(url, headers={"HX-Request": "true"}).content.decode()
        assert partial.lstrip().startswith('<div id="game"') and "<html" not in partial
        assert "<html" in page(client, game.editor_token)


def test_a_database_too_busy_to_keep_the_sheet_costs_the_page_nothing(
    client, game, monkeypatch, caplog
):
    from django.db import OperationalError

    def locked(*args, **kwargs):
        raise OperationalError("database is locked")

    record_classic(game, 0)
    monkeypatch.setattr(RenderedSheet.objects, "bulk_create", locked)
    for _ in range(2):
        body = page(client, game.viewer_token)
        assert "Standings" in body and body.count("<tr class=") == 1
    assert "was not kept" in caplog.text


def test_the_game_page_is_one_query_for_a_viewer_and_old_versions_are_dropped(
    client, game, django_assert_num_queries
):
    record_classic(game, 0)
    viewer = Client()
    page(viewer, game.viewer_token)  # rendered and kept
    with django_assert_num_queries(1):  # the game and its kept page together
        page(viewer, game.viewer_token)
    kept_before = set(RenderedSheet.objects.values_list("version", flat=True))
    record_classic(game, 1)
    page(viewer, game.viewer_token)
    game.refresh_from_db()
    assert kept_before == {game.version - 1}
    assert set(RenderedSheet.objects.values_list("version", flat=True)) == {game.version}


def test_a_query_string_is_never_kept(client, game):
    record_classic(game, 0)
    for n in range(3):
        assert (
            client.get(
                reverse("game", kwargs={"token": game.viewer_token}) + f"?utm={n}"
            ).status_code
            == 200
        )
    assert not RenderedSheet.objects.filter(key__startswith="page").exists()


def test_a_viewers_page_carries_no_csrf_token_and_sets_no_cookie(game):
    record_classic(game, 0)
    viewer, editor = Client(), Client()
    for _ in range(2):  # rendered, then kept
        assert "X-CSRFToken" not in page(viewer, game.viewer_token)
        assert "X-CSRFToken" in page(editor, game.editor_token)
    assert settings.CSRF_COOKIE_NAME not in viewer.cookies
    assert settings.CSRF_COOKIE_NAME in editor.cookies
