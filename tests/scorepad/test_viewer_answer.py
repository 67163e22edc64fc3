"""Every phone at a table fetches the same new sheet (issue 24): a plain viewer's live update
(the viewer link, no session, no message waiting) is kept whole per game version and
language, and the next viewer's answer is that one, from two queries. Never another
language's, never an editor's (tokens), never for a phone whose answer is its own. The
phones that ask while the first one renders it wait for it instead of rendering it too."""

import re
import threading
import time
import urllib.request
import zlib

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from scorepad import board, warm
from scorepad.access import Access
from scorepad.board import viewer_key
from scorepad.models import Circle, Evening
from scorepad.views import deals as deal_views
from scorepad.views import sheet as sheet_views
from scorepad.views.writes import after_commit
from tests.factories import ACTOR, classic_form_data, record_classic
from tests.scorepad.conftest import own

# Transactions that commit: the viewers' answer is kept by the change's on_commit hook.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def live(client: Client, token: str, version: int, lang: str = "en"):
    with translation.override(lang):
        url = reverse("game-version", kwargs={"token": token}) + f"?v={version}"
    return client.get(url, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="sheet")


def test_the_second_viewer_gets_the_first_viewers_answer_from_two_queries(
    game, django_assert_num_queries
):
    record_classic(game, 2, jokers=1)
    first = live(Client(), game.viewer_token, 1)
    assert first.status_code == 200
    with django_assert_num_queries(2):  # the game's version, and the answer kept
        second = live(Client(), game.viewer_token, 1)
    assert second.status_code == 200
    assert second.content == first.content
    body = second.content.decode()
    assert "+9" in body
    assert "?v=2" in body
    assert "csrfmiddlewaretoken" not in body
    assert 'name="once"' not in body


def test_a_new_version_is_rendered_again(game):
    record_classic(game, 0)
    live(Client(), game.viewer_token, 1)
    record_classic(game, 1)
    body = live(Client(), game.viewer_token, 2).content.decode()
    assert "?v=3" in body
    assert body.count("<tr class=") == 2


def test_a_viewer_in_another_language_gets_its_own_language(game):
    record_classic(game, 0)
    english = live(Client(), game.viewer_token, 1, "en").content.decode()
    german = live(Client(), game.viewer_token, 1, "de").content.decode()
    assert german != english
    assert "/de/games/" in german
    assert "/en/games/" not in german
    assert "/de/" not in live(Client(), game.viewer_token, 1, "en").content.decode()


def test_an_editor_never_gets_the_viewers_answer_nor_a_viewer_the_editors(game):
    record_classic(game, 0)
    creator = own(Client(), game)
    live(Client(), game.viewer_token, 1)  # kept for viewers
    # The creator's phone on the viewer link: an editor (its session), its own tokens.
    mine = live(creator, game.viewer_token, 1).content.decode()
    assert "Record deal 2" in mine
    assert 'name="once"' in mine
    by_link = live(Client(), game.editor_token, 1).content.decode()
    assert "Record deal 2" in by_link
    assert 'name="once"' in by_link
    # The editor's answers kept nothing a viewer then gets.
    viewer = live(Client(), game.viewer_token, 1).content.decode()
    assert "Record deal 2" not in viewer
    assert 'name="once"' not in viewer
    onces = re.findall(r'name="once" value="([^"]+)"', mine + by_link)
    assert onces
    assert not any(once in viewer for once in onces)


def test_a_phone_with_a_message_or_a_session_gets_its_own_answer(game):
    record_classic(game, 0)
    live(Client(), game.viewer_token, 1)  # kept
    cache.set(viewer_key(game.pk, 2), zlib.compress(b"<p>the kept answer</p>"))
    assert live(Client(), game.viewer_token, 1).content == b"<p>the kept answer</p>"
    with_message, with_session = Client(), Client()
    with_message.cookies["messages"] = "not-a-signed-message"
    with_session.get(reverse("home"))
    session = with_session.session
    session["something"] = 1
    session.save()
    for phone in (with_message, with_session):
        body = live(phone, game.viewer_token, 1).content.decode()
        assert "the kept answer" not in body
        assert "?v=2" in body


def test_a_replaced_viewer_link_stops_even_with_an_answer_kept(game):
    record_classic(game, 0)
    old = game.viewer_token
    live(Client(), old, 1)
    game.refresh_from_db()
    game.replace_link("viewer", version=game.version, once="r" * 22, actor=ACTOR)
    assert live(Client(), old, 1).status_code == 286


# --- one phone renders a new version for the table, the others wait for it -----------------


def test_a_viewer_waits_for_the_answer_another_phone_is_rendering(game, monkeypatch):
    record_classic(game, 0)
    key = viewer_key(game.pk, 2)
    assert board.claim(key)  # another phone of the table is rendering version 2
    steps = []

    def the_other_phone_keeps_it(seconds):
        steps.append(seconds)
        if len(steps) == 3:
            board.keep_answer(key, "<p>rendered by the other phone</p>")

    monkeypatch.setattr(board.time, "sleep", the_other_phone_keeps_it)
    rendered = []
    monkeypatch.setattr(sheet_views, "game_context", lambda *a, **k: rendered.append(a))
    answer = live(Client(), game.viewer_token, 1)
    assert answer.content == b"<p>rendered by the other phone</p>"
    assert len(steps) == 3
    assert rendered == []


def test_a_viewer_renders_itself_when_the_other_rendering_kept_nothing(game, monkeypatch):
    record_classic(game, 0)
    key = viewer_key(game.pk, 2)
    assert board.claim(key)
    monkeypatch.setattr(board.time, "sleep", lambda seconds: board.release(key))
    body = live(Client(), game.viewer_token, 1).content.decode()
    assert "?v=2" in body
    assert "+" in body
    # Its answer is kept for the next phones, and its claim is gone.
    assert board.get_answer(key) == body
    assert cache.get(f"{key}:rendering") is None


def test_a_viewer_stops_waiting_for_a_rendering_that_takes_too_long(game, monkeypatch):
    record_classic(game, 0)
    key = viewer_key(game.pk, 2)
    assert board.claim(key)  # a phone whose worker was killed while rendering
    monkeypatch.setattr(board, "WAIT_FOR", 0.05)
    body = live(Client(), game.viewer_token, 1).content.decode()
    assert "?v=2" in body


def test_the_phone_that_renders_releases_its_claim_even_when_rendering_fails(game, monkeypatch):
    record_classic(game, 0)
    key = viewer_key(game.pk, 2)

    def broken(*args, **kwargs):
        raise RuntimeError("rendering failed")

    monkeypatch.setattr(sheet_views, "game_context", broken)
    with pytest.raises(RuntimeError):
        live(Client(), game.viewer_token, 1)
    assert cache.get(f"{key}:rendering") is None
    assert board.claim(key)  # the next phone renders


def test_an_editor_never_waits_for_the_viewers_rendering(game, monkeypatch):
    record_classic(game, 0)
    assert board.claim(viewer_key(game.pk, 2))

    def no_waiting(seconds):
        raise AssertionError("an editor waited for the viewers' answer")

    monkeypatch.setattr(board.time, "sleep", no_waiting)
    assert "Record deal 2" in live(Client(), game.editor_token, 1).content.decode()


@pytest.mark.django_db(transaction=True)
def test_four_viewers_asking_at_once_get_one_rendering(live_server, monkeypatch):
    """Four phones hear of a new version in the same moment (their live streams) and ask at
    once: the sheet is rendered once and all four get the same answer."""
    from tests.factories import GameFactory

    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    record_classic(game, 1)
    real = sheet_views.game_context
    rendered = []

    def slow(*args, **kwargs):
        rendered.append(1)
        time.sleep(0.3)  # the other three phones ask meanwhile
        return real(*args, **kwargs)

    monkeypatch.setattr(sheet_views, "game_context", slow)
    with translation.override("en"):
        path = reverse("game-version", kwargs={"token": game.viewer_token}) + "?v=1"
    bodies: list[bytes] = []

    def phone():
        request = urllib.request.Request(
            live_server.url + path, headers={"HX-Request": "true", "HX-Target": "sheet"}
        )
        with urllib.request.urlopen(request, timeout=20) as answer:
            bodies.append(answer.read())

    phones = [threading.Thread(target=phone) for _ in range(4)]
    for thread in phones:
        thread.start()
    for thread in phones:
        thread.join(30)
    assert len(bodies) == 4
    assert len(set(bodies)) == 1
    assert b"?v=2" in bodies[0]
    assert rendered == [1]


# --- the worker that saved a change keeps the viewers' answer before they ask (warm.py) ----


def _save_a_deal(game, lang: str = "de", editor: Client | None = None) -> Client:
    editor = own(editor or Client(), game)
    with translation.override(lang):
        url = reverse("deal-new", kwargs={"token": game.editor_token})
    saved = editor.post(url, classic_form_data(game, 2, jokers=1))
    assert saved.status_code == 302
    return editor


def _kept(game, version: int, lang: str) -> str | None:
    with translation.override(lang):
        return board.get_answer(viewer_key(game.pk, version))


def test_a_saved_deal_keeps_the_viewers_answer_before_any_viewer_asks(
    game, settings, django_assert_num_queries
):
    settings.LIVE_STREAMS = True
    _save_a_deal(game, "de")
    kept = _kept(game, 2, "de")
    assert kept is not None
    assert "/de/games/" in kept
    assert "?v=2" in kept
    assert "+9" in kept
    assert _kept(game, 2, "en") is None  # the editor's language only: the others render
    with django_assert_num_queries(2):  # the game's version, and the answer kept
        first = live(Client(), game.viewer_token, 1, "de")
    assert first.content.decode() == kept
    # What was kept is what a viewer renders itself.
    cache.clear()
    assert live(Client(), game.viewer_token, 1, "de").content.decode() == kept
    assert game.editor_token not in kept
    assert "csrfmiddlewaretoken" not in kept


def test_without_the_streams_nothing_is_kept_ahead(game, settings):
    settings.LIVE_STREAMS = False
    _save_a_deal(game, "de")
    assert _kept(game, 2, "de") is None


def test_a_change_refused_keeps_nothing(game, settings):
    settings.LIVE_STREAMS = True
    editor = own(Client(), game)
    with translation.override("de"):
        url = reverse("deal-new", kwargs={"token": game.editor_token})
    stale = classic_form_data(game, 2, version=0)
    assert editor.post(url, stale).status_code == 409  # "the sheet changed meanwhile"
    game.refresh_from_db()
    assert game.version == 1
    assert _kept(game, 1, "de") is None


def test_keeping_ahead_never_claims_nor_waits_for_another_phones_rendering(
    game, settings, monkeypatch
):
    settings.LIVE_STREAMS = True
    with translation.override("de"):
        assert board.claim(viewer_key(game.pk, 2))  # what no phone can hold: it is kept

    def no_waiting(seconds):
        raise AssertionError("the saving worker waited for a viewer's rendering")

    monkeypatch.setattr(board.time, "sleep", no_waiting)
    _save_a_deal(game, "de")
    assert _kept(game, 2, "de") is not None


def test_the_viewers_answer_is_kept_after_the_commit_with_the_editors_sheet(
    game, settings, monkeypatch
):
    """Rendered once the change committed, and kept with the editor's sheet once that is
    rendered, in one transaction: while the change's transaction is open nothing is kept
    (SQLite's one write lock is not held while the viewers' sheet renders), and a viewer
    who asks while the saving worker renders the editor's answer gets the same sheet,
    rendered for itself."""
    settings.LIVE_STREAMS = True
    in_the_change, as_the_editors_renders = [], []
    done = deal_views._done

    def watched(request, access, *args, **kwargs):
        in_the_change.append(_kept(game, 2, "de"))
        response = done(request, access, *args, **kwargs)
        render = response._later

        def viewer_asks_first():
            as_the_editors_renders.append(live(Client(), game.viewer_token, 1, "de"))
            return render()

        response._later = viewer_asks_first
        return response

    monkeypatch.setattr(deal_views, "_done", watched)
    editor = own(Client(), game)
    with translation.override("de"):
        url = reverse("deal-new", kwargs={"token": game.editor_token})
    saved = editor.post(
        url, classic_form_data(game, 2, jokers=1), HTTP_HX_REQUEST="true", HTTP_HX_TARGET="game"
    )
    assert saved.status_code == 200
    assert in_the_change == [None]
    assert len(as_the_editors_renders) == 1
    assert as_the_editors_renders[0].content.decode() == _kept(game, 2, "de")
    assert "?v=2" in as_the_editors_renders[0].content.decode()


def test_the_streams_are_told_when_the_answer_is_kept(game, settings):
    """On SQLite the change's own row (the trigger's) comes first, then "s", committed with
    the answer kept (on PostgreSQL a NOTIFY: tests/continental/test_live_streams.py)."""
    from django.db import connection

    from scorepad.models import LiveChange

    if connection.vendor != "sqlite":
        pytest.skip("the SQLite watcher's table")
    settings.LIVE_STREAMS = True
    _save_a_deal(game, "de")
    rows = list(LiveChange.objects.filter(object_id=game.pk).values_list("kind", "version"))
    assert rows[-2:] == [("g", 2), ("s", 2)]


def test_a_change_rolled_back_keeps_no_answer(game, settings):
    """The viewers' answer is kept once the change commits (its on_commit hook): inside a
    transaction that goes on after the write, nothing is kept yet, and when that
    transaction is rolled back, nothing ever is."""
    settings.LIVE_STREAMS = True

    kept_inside = []

    class Undo(Exception):
        pass

    def save_then_undo():
        with transaction.atomic():
            _save_a_deal(game, "de")
            kept_inside.append(_kept(game, 2, "de"))
            raise Undo

    with pytest.raises(Undo):
        save_then_undo()
    assert kept_inside == [None]
    game.refresh_from_db()
    assert game.version == 1
    assert _kept(game, 2, "de") is None


def test_a_failure_while_keeping_ahead_leaves_the_change_saved(game, settings, monkeypatch):
    settings.LIVE_STREAMS = True

    def broken(*args, **kwargs):
        raise RuntimeError("rendering failed")

    monkeypatch.setattr(sheet_views, "game_context", broken)
    # The viewer's request fails after the editor's answer went out; the test client would
    # raise what a server only logs.
    _save_a_deal(game, "de", Client(raise_request_exception=False))  # answered 302
    game.refresh_from_db()
    assert game.version == 2
    assert game.deals.count() == 1
    with translation.override("de"):
        assert cache.get(f"{viewer_key(game.pk, 2)}:rendering") is None


def test_an_answer_other_than_the_sheet_keeps_nothing(game, settings, monkeypatch, caplog):
    """The viewer's request answered something else (here a 503): nothing is kept, the
    streams are not told, the change stays, and the log says so."""
    from scorepad.models import LiveChange

    settings.LIVE_STREAMS = True
    monkeypatch.setattr(warm, "warm", lambda *args: (503, "busy", None))
    _save_a_deal(game, "de")
    game.refresh_from_db()
    assert (game.version, game.deals.count()) == (2, 1)
    assert _kept(game, 2, "de") is None
    assert not LiveChange.objects.filter(kind="s").exists()
    assert "not kept ahead: 503" in caplog.text


def test_a_deal_from_the_outbox_behind_a_proxy_keeps_the_plain_viewers_answer(game, settings):
    """The saving request's own headers (the outbox's, htmx's, its cookies) are not the
    viewer's: what is kept is what a plain viewer's phone renders."""
    settings.LIVE_STREAMS = True
    editor = own(Client(), game)
    with translation.override("de"):
        url = reverse("deal-new", kwargs={"token": game.editor_token})
    saved = editor.post(
        url,
        classic_form_data(game, 2, jokers=1),
        HTTP_X_SCOREPAD_OUTBOX="1",
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="game",
        HTTP_X_FORWARDED_FOR="192.0.2.7",
    )
    assert (saved.status_code, saved.json()["outcome"]) == (200, "saved")
    kept = _kept(game, 2, "de")
    assert kept is not None
    assert "/de/games/" in kept
    cache.clear()
    assert live(Client(), game.viewer_token, 1, "de").content.decode() == kept


def test_only_a_games_change_keeps_a_viewers_answer(game, settings, monkeypatch):
    """An evening's or a circle's change has no game sheet to keep: no viewer's request."""
    settings.LIVE_STREAMS = True
    asked = []
    monkeypatch.setattr(warm, "warm", lambda *args: asked.append(args) or (200, "", None))
    request = RequestFactory().post("/")
    evening = Evening.objects.create(stake="0.10")
    event = evening.replace_link("viewer", version=evening.version, once=None, actor=ACTOR)
    after_commit(request, Access(evening, evening.editor_token, "editor", "creator"), event)
    circle = Circle.objects.create()
    event = circle.replace_link("viewer", version=circle.version, once=None, actor=ACTOR)
    after_commit(request, Access(circle, circle.editor_token, "editor", "creator"), event)
    assert asked == []
    event = game.replace_link("viewer", version=game.version, once=None, actor=ACTOR)
    after_commit(request, Access(game, game.editor_token, "editor", "creator"), event)
    game.refresh_from_db()
    assert [(handed.viewer_token, version) for _, _, handed, version in asked] == [
        (game.viewer_token, game.version)
    ]


def _stream_language(client: Client, token: str, lang: str) -> str | None:
    with translation.override(lang):
        page = client.get(reverse("game", kwargs={"token": token})).content.decode()
    bar = re.search(r'<div id="table-bar"[^>]*>', page)
    assert bar is not None
    assert 'data-live="/live/games/' in bar.group(0)
    found = re.search(r'data-live-lang="([^"]*)"', bar.group(0))
    return found.group(1) if found else None


def test_only_a_plain_viewers_page_asks_its_stream_for_the_sheets_themselves(game, settings):
    """The stream carries the viewers' answer (continental/live.py) only to a page that
    would be given that answer: the viewer link with no session, in the page's language."""
    settings.LIVE_STREAMS = True
    assert _stream_language(Client(), game.viewer_token, "fi") == "fi"
    assert _stream_language(Client(), game.viewer_token, "de") == "de"
    # The editor's page: its answers are its own (the deal actions, the one-time tokens).
    assert _stream_language(own(Client(), game), game.editor_token, "de") is None
    # A viewer link opened by a phone with a session: not a plain viewer.
    assert _stream_language(own(Client(), game), game.viewer_token, "de") is None
