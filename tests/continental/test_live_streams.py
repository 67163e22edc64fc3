"""The live streams (continental/live.py) in a real stream process on the test database:
each change reaches the open streams, a reconnect catches up, a replaced link ends its
stream, the limits answer cleanly; on PostgreSQL a lost LISTEN connection comes back and
two stream processes push each other's changes. Runs on SQLite, and on PostgreSQL with
DATABASE_URL set."""

from __future__ import annotations

import queue
import time
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorepad import board
from scorepad.models import Evening, EveningGame, Game, LiveChange
from tests.factories import ACTOR, GameFactory, classic_form_data, record_classic
from tests.live_process import Events, StreamProcess
from tests.scorepad.conftest import own

pytestmark = pytest.mark.django_db(transaction=True)

on_postgres = pytest.mark.skipif(
    "connection.vendor != 'postgresql'", reason="PostgreSQL's LISTEN/NOTIFY"
)


@pytest.fixture(autouse=True)
def streams_closed():
    yield
    Events.close_all()


@pytest.fixture
def stream_process():
    with StreamProcess() as process:
        yield process


def game_path(game: Game, token: str | None = None) -> str:
    return f"/live/games/{token or game.viewer_token}"


def next_version(events: Events, timeout: float = 10) -> str:
    kind, ident, data = events.next(timeout)
    assert kind == "version", (kind, ident, data)
    assert ident == data
    return ident


def test_a_stream_begins_with_the_version_and_pushes_each_change(stream_process):
    game = GameFactory()
    events = Events(stream_process.url, game_path(game))
    assert events.status == 200
    assert events.headers["Content-Type"].startswith("text/event-stream")
    assert events.headers["Cache-Control"] == "no-store"
    assert events.headers["X-Accel-Buffering"] == "no"  # nginx passes it on at once
    assert next_version(events) == "1"
    record_classic(game, 0)
    assert next_version(events) == "2"
    record_classic(game, 1)
    assert next_version(events) == "3"
    events.close()


def _save_a_deal(game: Game, lang: str) -> None:
    """A deal saved through the editor's form, as a phone does: the change keeps its viewers'
    answer in the editor's language (scorepad/warm.py)."""
    editor = own(Client(), game)
    with translation.override(lang):
        url = reverse("deal-new", kwargs={"token": game.editor_token})
    assert editor.post(url, classic_form_data(game, 2, jokers=1)).status_code == 302


def test_a_plain_viewers_stream_carries_the_new_sheet_in_its_language(stream_process, settings):
    settings.LIVE_STREAMS = True
    game = GameFactory()
    german = Events(stream_process.url, game_path(game) + "?v=1&l=de")
    english = Events(stream_process.url, game_path(game) + "?v=1&l=en")
    plain = Events(stream_process.url, game_path(game) + "?v=1")
    for events in (german, english, plain):
        assert events.next() == ("version", "1", "1")  # the first event: the version alone
    _save_a_deal(game, "de")
    kind, ident, data = german.next()
    version, _, sheet = data.partition("\n")
    assert (kind, ident, version) == ("version", "2", "2")
    # What the phone would have fetched: the viewers' answer kept with the change.
    with translation.override("de"):
        kept = board.get_answer(board.viewer_key(game.pk, 2))
        asked = Client().get(
            reverse("game-version", kwargs={"token": game.viewer_token}) + "?v=1",
            HTTP_HX_REQUEST="true",
            HTTP_HX_TARGET="sheet",
        )
    assert kept is not None
    assert sheet == kept == asked.content.decode()
    assert "/de/games/" in sheet
    assert sheet.count("<tr class=") == 1  # the deal saved
    assert game.editor_token not in sheet
    # Kept in the editor's language only: the English phone is told the version and asks;
    # a stream that named no language is told the version alone.
    assert english.next() == ("version", "2", "2")
    assert plain.next() == ("version", "2", "2")


def test_an_unknown_language_gets_the_version_alone(stream_process, settings):
    settings.LIVE_STREAMS = True
    game = GameFactory()
    events = Events(stream_process.url, game_path(game) + "?v=1&l=xx")
    assert events.next() == ("version", "1", "1")
    _save_a_deal(game, "en")
    assert events.next() == ("version", "2", "2")


def test_a_plain_viewers_event_waits_for_the_answer_kept_after_the_commit():
    """The saving worker keeps the viewers' answer just after the change's commit and then
    says so ("s"): the plain viewer's event of that version waits for the word and carries
    the sheet; the editor's stream is told at once. A change no worker keeps an answer of
    (a command here) goes to the plain viewer with the version alone after LIVE_KEPT_WAIT."""
    from scorepad import warm

    game = GameFactory()
    with StreamProcess(LIVE_KEPT_WAIT="1.5") as process:
        viewer = Events(process.url, game_path(game) + "?v=1&l=de")
        editor = Events(process.url, game_path(game, game.editor_token) + "?v=1")
        assert viewer.next() == ("version", "1", "1")
        assert editor.next() == ("version", "1", "1")
        record_classic(game, 0)  # version 2, committed: nothing kept yet
        began = time.monotonic()
        assert editor.next(timeout=5) == ("version", "2", "2")
        time.sleep(0.3)
        assert viewer.items.empty()  # held: the answer may still be on its way
        with translation.override("de"):
            key = board.viewer_key(game.pk, 2)
            warm.keep_and_tell(key, "<section id=sheet>kept late</section>", game.pk, 2)
        kind, ident, data = viewer.next(timeout=5)
        assert (kind, ident, data) == ("version", "2", "2\n<section id=sheet>kept late</section>")
        assert time.monotonic() - began < 1.5
        # No word of a kept answer: the version alone once the wait is over.
        record_classic(game, 1)
        began = time.monotonic()
        assert viewer.next(timeout=5) == ("version", "3", "3")
        assert time.monotonic() - began >= 1.2


def test_the_editor_link_follows_the_same_game(stream_process):
    game = GameFactory()
    events = Events(stream_process.url, game_path(game, game.editor_token))
    assert next_version(events) == "1"
    record_classic(game, 2)
    assert next_version(events) == "2"


def test_a_reconnect_after_a_restart_of_the_stream_process_catches_up_at_once():
    game = GameFactory()
    process = StreamProcess().start()
    try:
        events = Events(process.url, game_path(game))
        assert next_version(events) == "1"
        process.stop()
        assert events.next()[0] == "closed"
        record_classic(game, 0)  # while no stream process runs
        record_classic(game, 1)
        process = StreamProcess(port=process.port).start()
        again = Events(process.url, game_path(game), {"Last-Event-ID": "1"})
        assert next_version(again, timeout=3) == "3"
        record_classic(game, 2)
        assert next_version(again) == "4"
    finally:
        process.stop()


def test_each_stream_says_when_to_reconnect_with_jitter(stream_process):
    game = GameFactory()
    waits = set()
    for _ in range(6):
        events = Events(stream_process.url, game_path(game))
        assert next_version(events) == "1"  # after the retry line
        waits.add(events.retry)
        events.close()
    assert all(100 <= w <= 300 for w in waits)
    assert len(waits) > 1  # spread: a restart does not bring every phone back at once


def test_a_replaced_link_ends_its_stream_with_a_named_event(stream_process):
    game = GameFactory()
    viewer = Events(stream_process.url, game_path(game))
    editor = Events(stream_process.url, game_path(game, game.editor_token))
    assert next_version(viewer) == next_version(editor) == "1"
    game.replace_link("viewer", version=1, once="replace-1", actor=ACTOR)
    # The change raises the version, then replaces the link: the version may come first.
    kind = viewer.next()[0]
    if kind == "version":
        kind = viewer.next()[0]
    assert kind == "replaced"
    assert viewer.next()[0] == "closed"
    # The editor link still works: its stream goes on with the new version.
    assert next_version(editor) == "2"


def test_a_dead_link_gets_no_stream(stream_process):
    events = Events(stream_process.url, "/live/games/" + "x" * 24)
    assert events.status == 204  # EventSource stops; the page's poll says the link is dead
    assert Events(stream_process.url, "/live/nothing").status == 404


def test_heartbeats_keep_an_unchanged_stream_open():
    game = GameFactory()
    with StreamProcess(LIVE_HEARTBEAT="0.2") as process:
        events = Events(process.url, game_path(game))
        assert next_version(events) == "1"
        # Events the page hears (a comment line it would not), saying when the next comes.
        beats = [events.next(skip_beats=False) for _ in range(3)]
        assert beats == [("beat", None, "0.2")] * 3


def test_a_stream_ends_after_its_lifetime_and_the_reconnect_catches_up():
    game = GameFactory()
    with StreamProcess(LIVE_LIFETIME="0.5") as process:
        events = Events(process.url, game_path(game))
        assert next_version(events) == "1"
        assert events.next(timeout=5)[0] == "closed"


def test_an_evening_stream_follows_its_games_deals_and_its_own_changes(stream_process):
    first, second = GameFactory(), GameFactory()
    evening = Evening.objects.create(stake=Decimal("0.10"))
    EveningGame.objects.create(evening=evening, game=first, stake=Decimal("0.10"), position=1)
    events = Events(stream_process.url, f"/live/evenings/{evening.viewer_token}")
    assert next_version(events) == "1.1"
    record_classic(first, 0)  # its money changes
    assert next_version(events) == "1.2"
    record_classic(second, 0)  # not one of its games: nothing
    Evening.objects.filter(pk=evening.pk).update(version=2)
    EveningGame.objects.create(evening=evening, game=second, stake=Decimal("0.10"), position=2)
    Evening.objects.filter(pk=evening.pk).update(version=3)
    # The stream may see any moment between the three writes (each one is a change it hears
    # of), and it reads the evening's row and its games' versions in two statements, so a
    # moment may pair the evening's newer version with the games of an older one; it never
    # goes back, and it settles at version 3 with both games' versions (2 + 2).
    seen = [next_version(events)]
    while seen[-1] != "3.4":
        assert seen[-1] in ("2.2", "2.4", "3.2"), seen
        seen.append(next_version(events))
    assert seen == sorted(seen, key=lambda v: tuple(map(int, v.split(".")))), seen
    record_classic(second, 1)
    assert next_version(events) == "3.5"


def test_a_change_the_feed_never_told_reaches_the_stream_at_the_next_check():
    """The process reads the versions of all it follows every LIVE_CHECK seconds (the safety
    net under the feed, instead of one poll per phone): a change the feed missed still comes,
    and an unchanged game sends nothing."""
    game, quiet = GameFactory(), GameFactory()
    # The feed hears nothing here: SQLite's watcher never reads, PostgreSQL's trigger is off.
    with StreamProcess(LIVE_CHECK="0.5", LIVE_POLL_INTERVAL="3600") as process:
        events = Events(process.url, game_path(game))
        unchanged = Events(process.url, game_path(quiet))
        assert next_version(events) == "1"
        assert next_version(unchanged) == "1"
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("SET session_replication_role = replica")
            try:
                Game.objects.filter(pk=game.pk).update(version=2)
            finally:
                if connection.vendor == "postgresql":
                    cursor.execute("SET session_replication_role = origin")
        assert next_version(events, timeout=5) == "2"
        with pytest.raises(queue.Empty):  # nothing for the game that did not change
            unchanged.next(timeout=1.5)


def test_the_page_of_an_allowed_host_may_read_the_stream_from_another_port(stream_process):
    game = GameFactory()
    allowed = Events(stream_process.url, game_path(game), {"Origin": "http://localhost:8000"})
    assert allowed.headers["Access-Control-Allow-Origin"] == "http://localhost:8000"
    other = Events(stream_process.url, game_path(game), {"Origin": "http://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers


def test_streams_per_client_address_are_limited_with_429_and_retry_after():
    game = GameFactory()
    with StreamProcess(LIVE_PER_ADDRESS="3") as process:
        held = [Events(process.url, game_path(game)) for _ in range(3)]
        assert [e.status for e in held] == [200, 200, 200]
        refused = Events(process.url, game_path(game))
        assert refused.status == 429
        assert 20 <= int(refused.headers["Retry-After"]) <= 60
        held[0].close()
        time.sleep(0.5)
        assert Events(process.url, game_path(game)).status == 200


def test_streams_stop_cleanly_before_the_open_files_limit():
    """With a hard limit of 100 open files the process keeps 64 for itself: the 37th stream
    is refused with 503 and Retry-After, and the process goes on serving the others."""
    game = GameFactory()
    with StreamProcess(nofile=100) as process:
        held = [Events(process.url, game_path(game)) for _ in range(36)]
        assert {e.status for e in held} == {200}
        refused = Events(process.url, game_path(game))
        assert refused.status == 503
        assert int(refused.headers["Retry-After"]) >= 20
        record_classic(game, 0)
        assert next_version(held[0]) == "1"
        assert next_version(held[0]) == "2"
        assert next_version(held[-1]) == "1"
        assert next_version(held[-1]) == "2"
        for events in held:
            events.close()


@pytest.mark.skipif("connection.vendor != 'sqlite'", reason="the SQLite watcher's table")
def test_on_sqlite_each_change_writes_one_feed_row_in_its_transaction(db):
    game = GameFactory()
    before = LiveChange.objects.count()
    record_classic(game, 0)
    rows = list(LiveChange.objects.values_list("kind", "object_id", "version", "revoked"))
    assert len(rows) == before + 1
    assert rows[-1] == ("g", game.pk, 2, False)


@on_postgres
def test_on_postgresql_a_lost_listen_connection_comes_back_and_catches_up(stream_process):
    game = GameFactory()
    events = Events(stream_process.url, game_path(game))
    assert next_version(events) == "1"
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE application_name = 'scorepad-live' AND datname = current_database()"
        )
        assert cursor.fetchall()  # it was there
    record_classic(game, 0)  # while the feed is down: nothing is notified to it
    assert next_version(events, timeout=10) == "2"  # the catch-up after it is back
    record_classic(game, 1)
    assert next_version(events) == "3"


@on_postgres
def test_on_postgresql_two_stream_processes_push_each_others_changes():
    game = GameFactory()
    with StreamProcess() as one, StreamProcess() as two:
        a = Events(one.url, game_path(game))
        b = Events(two.url, game_path(game, game.editor_token))
        assert next_version(a) == next_version(b) == "1"
        record_classic(game, 0)  # one write, by any app server
        assert next_version(a) == next_version(b) == "2"


def _seat_series(tournament) -> None:
    tournament.refresh_from_db()
    tournament.propose(version=tournament.version, once=None, actor=ACTOR)
    tournament.start_series(version=tournament.version, once=None, actor=ACTOR)


def test_a_tournament_stream_carries_its_live_part_through_a_series(stream_process):
    """A tournament's stream follows the tournament and the games of its series in play: a
    deal at a table (the game's change alone) and a confirmation (the tournament's) each come
    as an event that carries the live part, rendered once for every phone in its language, so
    a phone asks for nothing; a new series brings its new tables' games."""
    from scorepad.kernel import Actor
    from scorepad.tournaments import Entrant, Table, TableSeat, Tournament
    from tests.factories import record_penalty

    tournament = Tournament.objects.create(name="Club", variant_id="romme", deals=1, series=2)
    tournament.start(actor=ACTOR)
    for number, name in enumerate(("Anna", "Ben", "Cleo"), start=1):
        Entrant.objects.create(tournament=tournament, number=number, name=name)
    _seat_series(tournament)
    table = Table.objects.get(tournament=tournament, series=1)
    german = Events(stream_process.url, f"/live/tournaments/{tournament.viewer_token}?l=de")
    assert german.next() == ("version", "3.1", "3.1")  # the first event: the state alone
    record_penalty(table.game, 0, {1: 10, 2: 20})  # the table's one deal: its game ends
    kind, ident, data = german.next()
    shown, _, part = data.partition("\n")
    assert (kind, ident, shown) == ("version", "3.2", "3.2")
    assert 'data-live-id="3.2"' in part
    assert "Durchgang 1 von 2" in part
    assert "<form" not in part
    assert table.game.editor_token not in part
    tournament.refresh_from_db()
    player = table.seated.all()[1].entrant
    tournament.confirm(
        table, player, version=tournament.version, once=None, actor=Actor("player", "other")
    )
    kind, ident, data = german.next()
    assert ident == "4.2"
    assert f"bestätigt von {player.name}" in data
    _seat_series(tournament)
    ident = german.next()[1]
    while ident != "6.1":  # the new series' game, at its first version (proposed, then seated)
        assert ident.startswith(("5.", "6.")), ident
        ident = german.next()[1]
    assert TableSeat.objects.filter(series=2).count() == 3
