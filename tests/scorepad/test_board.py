"""The sheet kept in the cache per game version (scorepad/board.py): every answer built from it
is the answer the page would render fresh, with the requester's own tokens in its forms, and
one phone's HTML is never shown to another."""

import json
import re
import sqlite3
import threading
import time
import zlib

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import OperationalError, connection
from django.middleware.csrf import _does_token_match
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from scorepad import board as board_module
from scorepad.access import Access
from scorepad.board import board, cache_key
from scorepad.models import Game
from tests.factories import GameFactory, record_classic
from tests.scorepad.conftest import hidden, own

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def page(client: Client, token: str, lang: str = "en") -> str:
    with translation.override(lang):
        url = reverse("game", kwargs={"token": token})
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def sheet_part(body: str) -> str:
    return body[body.index('<section id="sheet"') : body.index("</section>", body.index("Σ"))]


def kept(game: Game, token: str, can_edit: bool, lang: str = "en") -> str | None:
    """The HTML kept for ``game`` at its version, as one string, or None."""
    game.refresh_from_db()
    access = Access(game, token, "editor" if can_edit else "viewer", "viewer_link")
    with translation.override(lang):
        blob = cache.get(cache_key(access))
    return None if blob is None else " ".join(map(str, json.loads(zlib.decompress(blob))))


def test_a_second_phone_gets_the_same_sheet_with_its_own_tokens(game):
    record_classic(game, 0)
    first, second = Client(), Client()
    own(first, game)
    own(second, game)
    body_one, body_two = page(first, game.editor_token), page(second, game.editor_token)
    assert kept(game, game.editor_token, True) is not None  # the second came from the cache
    assert sheet_part(body_one).split("<form")[0] == sheet_part(body_two).split("<form")[0]
    assert hidden(body_one, "once") != hidden(body_two, "once")
    # Each phone's forms carry a CSRF token of its own cookie, the cached sheet's included.
    secret_one = first.cookies[settings.CSRF_COOKIE_NAME].value
    secret_two = second.cookies[settings.CSRF_COOKIE_NAME].value
    assert secret_one != secret_two
    assert _does_token_match(hidden(body_one, "csrfmiddlewaretoken"), secret_one)
    assert _does_token_match(hidden(body_two, "csrfmiddlewaretoken"), secret_two)
    assert not _does_token_match(hidden(body_two, "csrfmiddlewaretoken"), secret_one)
    # And the forms of a page made from the cache work, CSRF checks on.
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


def test_what_is_kept_holds_no_token_no_csrf_and_no_static_file(game):
    record_classic(game, 0)
    editor = own(Client(), game)
    body = page(editor, game.editor_token)
    html = kept(game, game.editor_token, True)
    assert html is not None
    assert "Standings" in html
    assert "<table" in html
    assert hidden(body, "once") not in html
    assert editor.cookies[settings.CSRF_COOKIE_NAME].value not in html
    assert 'name="csrfmiddlewaretoken"' not in html
    # The next deal's form for a phone without a connection: its one-time token left empty.
    assert 'id="offline-deal"' in html
    assert re.findall(r'name="once"[^>]*>', html) == ['name="once" id="id_once">']
    assert settings.STATIC_URL not in html  # a deploy of new static files never meets it


def test_the_sheet_is_kept_once_per_version_and_a_change_shows_at_once(client, game):
    own(client, game)
    record_classic(game, 0)
    assert kept(game, game.editor_token, True) is None
    page(client, game.editor_token)
    assert kept(game, game.editor_token, True) is not None
    record_classic(game, 1)  # the entry of the older version stays in the cache, unread
    body = page(client, game.editor_token)
    assert "Record deal 3" in body
    assert "Undo deal 2" in body


def test_a_stale_version_is_never_served_even_from_another_worker(client, game):
    """A change commits its rows and the new version together: an answer asks for its game's
    version, so whatever a cache keeps of an older version is never read."""
    record_classic(game, 0)
    viewer = Client()
    assert page(viewer, game.viewer_token).count("<tr class=") == 1
    before = kept(game, game.viewer_token, False)
    record_classic(game, 1)
    assert page(viewer, game.viewer_token).count("<tr class=") == 2
    version = reverse("game-version", kwargs={"token": game.viewer_token})
    fresh = viewer.get(f"{version}?v={game.version - 1}", HTTP_HX_REQUEST="true")
    assert fresh.content.decode().count("<tr class=") == 2
    assert before is not None
    assert before.count("<tr class=") == 1


def test_viewer_editor_and_language_each_get_their_own_sheet(client, game):
    record_classic(game, 0)
    own(client, game)
    editor = page(client, game.editor_token)
    viewer = page(Client(), game.viewer_token)
    german = page(Client(), game.viewer_token, "de")
    # The creator through the viewer link: editor rights, the viewer link's URLs.
    own_viewer = page(client, game.viewer_token)
    again = [page(client, game.editor_token), page(Client(), game.viewer_token)]
    translation.activate("en")
    new_deal = reverse("deal-new", kwargs={"token": game.editor_token})
    assert "Record deal 2" in editor
    assert new_deal in editor
    assert "Record deal" not in viewer
    assert game.editor_token not in viewer
    assert "<h2>Stand</h2>" in german
    assert 'lang="de"' in german
    assert "Standings" not in german
    assert "Standings" in viewer
    assert "Record deal 2" in own_viewer
    assert game.editor_token not in own_viewer
    assert reverse("deal-edit", kwargs={"token": game.viewer_token, "number": 1}) in own_viewer
    assert "Record deal 2" in again[0]
    assert "Record deal" not in again[1]
    assert game.editor_token not in again[1]


def test_a_name_that_looks_like_markup_stays_text(client):
    names = ["<!--csrf-token-->", "{{ once }}", "Cleo"]
    game = GameFactory(variant_id="classic", players=names)
    record_classic(game, 0)
    own(client, game)
    for _ in range(2):  # rendered, then from the cache
        body = page(client, game.editor_token)
        assert "&lt;!--csrf-token--&gt;" in body
        assert "{{ once }}" in body
        tokens = re.findall(r'name="csrfmiddlewaretoken" value="([^"]*)"', body)
        assert tokens
        assert all(re.fullmatch(r"[A-Za-z0-9]{64}", t) for t in tokens)


def test_a_sheet_read_across_a_change_is_not_kept(game):
    """Rows read after another phone's change must not be kept under the older version."""
    record_classic(game, 0)
    stale = Game.objects.get(pk=game.pk)  # at version v, rows not loaded yet
    record_classic(game, 1)  # version v + 1, committed before the rows are read
    access = Access(stale, stale.viewer_token, "viewer", "viewer_link")
    request = RequestFactory().get("/")
    context = {"access": access, "game": stale, "token": access.token, "can_edit": False}
    with translation.override("en"):
        shown = board(request, access, {**context, "variant_name": "Continental"})
        assert cache.get(cache_key(access)) is None
    assert len(re.findall(r"<tr class=", shown.table)) == 2  # what was read is shown


def test_a_typed_settle_amount_is_not_kept_for_others(client, game):
    record_classic(game, 0)
    own(client, game)
    url = reverse("game-end", kwargs={"token": game.editor_token})
    body = page(client, game.editor_token)
    client.post(
        url, {"version": hidden(body, "version"), "once": hidden(body, "once"), "op": "end"}
    )
    typed = client.get(reverse("game", kwargs={"token": game.editor_token}) + "?per_point=0.25")
    assert typed.status_code == 200
    assert 'value="0.25"' in typed.content.decode()
    plain = page(Client(), game.viewer_token)
    assert 'value="0.25"' not in plain


def normalised(body: str) -> str:
    """A page with its per-answer tokens blanked out."""
    body = re.sub(r'(name="(?:csrfmiddlewaretoken|once)" value=")[^"]*', r"\1", body)
    body = re.sub(r'(nonce=")[^"]*', r"\1", body)
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
    cache.clear()
    assert normalised(page(client, game.viewer_token)) == normalised(fresh)


def test_a_message_is_shown_once_and_never_kept_in_the_page(client, game):
    own(client, game)
    page(client, game.editor_token)  # the sheet is now kept
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
        assert partial.lstrip().startswith('<div id="game"')
        assert "<html" not in partial
        assert "<html" in page(client, game.editor_token)


def test_a_cache_that_fails_costs_the_page_nothing(client, game, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise OperationalError("database is locked")

    record_classic(game, 0)
    monkeypatch.setattr(cache, "add", broken)
    for _ in range(2):
        body = page(client, game.viewer_token)
        assert "Standings" in body
        assert body.count("<tr class=") == 1
    assert "was not kept" in caplog.text
    monkeypatch.setattr(cache, "get", broken)
    assert page(client, game.viewer_token).count("<tr class=") == 1
    assert "could not be read" in caplog.text


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's one writer at a time")
@pytest.mark.django_db(transaction=True)
def test_a_get_never_waits_behind_a_sqlite_writer_to_keep_the_sheet():
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    record_classic(game, 0)
    cache.clear()
    locked, release = threading.Event(), threading.Event()

    def writer():  # another process saving a deal: holds SQLite's write lock
        other = sqlite3.connect(connection.settings_dict["NAME"], timeout=1)
        other.execute("BEGIN IMMEDIATE")
        locked.set()
        release.wait(30)
        other.rollback()
        other.close()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert locked.wait(10)
        started = time.monotonic()
        body = page(Client(), game.viewer_token)
        took = time.monotonic() - started
    finally:
        release.set()
        thread.join(30)
    assert body.count("<tr class=") == 1  # the page, rendered
    assert took < 5  # not the 20 s busy timeout of a write
    assert kept(game, game.viewer_token, False) is None
    assert page(Client(), game.viewer_token).count("<tr class=") == 1
    assert kept(game, game.viewer_token, False) is not None  # kept once the lock is gone


def test_the_game_page_is_two_queries_for_a_viewer_once_the_sheet_is_kept(
    client, game, django_assert_num_queries
):
    record_classic(game, 0)
    viewer = Client()
    page(viewer, game.viewer_token)  # rendered and kept
    with django_assert_num_queries(2):  # the game, and its sheet from the database cache
        page(viewer, game.viewer_token)


def test_a_viewers_page_carries_no_csrf_token_and_sets_no_cookie(game):
    record_classic(game, 0)
    viewer, editor = Client(), Client()
    for _ in range(2):  # rendered, then kept
        assert "X-CSRFToken" not in page(viewer, game.viewer_token)
        assert "X-CSRFToken" in page(editor, game.editor_token)
    assert settings.CSRF_COOKIE_NAME not in viewer.cookies
    assert settings.CSRF_COOKIE_NAME in editor.cookies


def test_the_code_stamp_names_the_templates_translations_and_code():
    assert re.fullmatch(r"[0-9a-f]{12}", board_module.STAMP)
    access = Access(Game(pk=7, version=3, viewer_token="v", editor_token="e"), "e", "editor", "")
    with translation.override("de"):
        assert cache_key(access) == f"sheet:{board_module.STAMP}:7:3:de:editor:edit"
