"""A full disk: every write answers a clear page in the person's language ("the server's
disk is full, nothing was saved"), never a plain 500, and nothing is saved. SQLite's
write-ahead log is checkpointed and cut back, so it cannot grow without bound."""

import sqlite3
from contextlib import contextmanager

import pytest
from django.db import OperationalError, connection
from django.test import override_settings
from django.urls import reverse

from continental.diskfull import is_disk_full
from scorepad.apps import JOURNAL_SIZE_LIMIT, WAL_AUTOCHECKPOINT_PAGES, tune_sqlite
from scorepad.models import Circle, Deal, Event, Game
from tests.factories import GameFactory, classic_form_data, record_classic
from tests.scorepad.conftest import own

pytestmark = pytest.mark.django_db

WRITES = ("INSERT", "UPDATE", "DELETE")


@contextmanager
def full_disk():
    """Every write statement fails as SQLite fails on a full disk (SQLITE_FULL)."""

    def refuse_writes(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith(WRITES):
            cause = sqlite3.OperationalError("database or disk is full")
            raise OperationalError("database or disk is full") from cause
        return execute(sql, params, many, context)

    with connection.execute_wrapper(refuse_writes):
        yield


def state():
    return (
        list(Game.objects.order_by("pk").values_list("pk", "version", "status")),
        Deal.objects.count(),
        Event.objects.count(),
        Circle.objects.count(),
    )


def assert_disk_full_page(response, text="The server's disk is full"):
    assert response.status_code == 507
    body = response.content.decode()
    assert text in body
    assert response.headers["X-Frame-Options"] == "DENY"
    assert "Content-Security-Policy" in response.headers


@pytest.fixture
def game():
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    record_classic(game, 0, jokers=1)
    return game


@override_settings(RATE_LIMITS={"api": 600, "write": 120})
def test_recording_a_deal_on_a_full_disk_says_so_and_saves_nothing(client, game):
    before = state()
    url = reverse("deal-new", kwargs={"token": game.editor_token})
    with full_disk():
        response = client.post(url, classic_form_data(game, 1, wild_twos=1))
    assert_disk_full_page(response)
    assert "Nothing was saved" in response.content.decode()
    assert state() == before
    # Once there is room, the same form saves.
    assert client.post(url, classic_form_data(game, 1, wild_twos=1)).status_code == 302
    assert Deal.objects.count() == 2


def test_every_kind_of_write_gets_the_page(client, game):
    own(client, game)
    before = state()
    raw = client.get(reverse("game-export-json", kwargs={"token": game.viewer_token})).content
    token = {"token": game.editor_token}
    posts = [
        (reverse("game-new"), {"variant": "romme", "seat": ["n:X", "n:Y"], "op": "start"}),
        (reverse("game-import"), {"text": raw.decode()}),
        (reverse("deal-edit", kwargs={**token, "number": 1}), classic_form_data(game, 2)),
        (reverse("deal-undo", kwargs=token), {"version": game.version, "once": "u1"}),
        (reverse("game-end", kwargs=token), {"version": game.version, "once": "e1"}),
        (
            reverse("game-share", kwargs=token),
            {"link": "viewer", "version": game.version, "once": "s1"},
        ),
    ]
    with full_disk():
        for url, data in posts:
            assert_disk_full_page(client.post(url, data))
    assert state() == before


def test_the_page_is_in_the_language_of_the_request(client, game):
    url = reverse("deal-new", kwargs={"token": game.editor_token}).replace("/en/", "/de/", 1)
    with full_disk():
        response = client.post(url, classic_form_data(game, 1))
    assert_disk_full_page(response, "Die Festplatte des Servers ist voll")


def test_an_htmx_save_gets_the_message_in_the_page(client, game):
    url = reverse("deal-new", kwargs={"token": game.editor_token})
    with full_disk():
        response = client.post(url, classic_form_data(game, 1), HTTP_HX_REQUEST="true")
    assert response.status_code == 200  # htmx swaps no error answer
    assert response["HX-Retarget"] == "#main"
    assert response["HX-Reswap"] == "innerHTML"
    assert "The server's disk is full" in response.content.decode()
    assert "<html" not in response.content.decode()
    assert Deal.objects.count() == 1


def test_reading_still_works_on_a_full_disk(client, game):
    with full_disk():
        response = client.get(reverse("game", kwargs={"token": game.viewer_token}))
    assert response.status_code == 200


def test_other_database_errors_stay_errors():
    assert not is_disk_full(OperationalError("database is locked"))
    assert not is_disk_full(ValueError("disk is full"))  # not a database or OS error

    class DiskFull(Exception):
        sqlstate = "53100"

    error = OperationalError("could not extend file")
    error.__cause__ = DiskFull()
    assert is_disk_full(error)
    assert is_disk_full(OperationalError('could not extend file "base/1": No space left on device'))


# --- the write-ahead log ----------------------------------------------------------------------


def test_every_sqlite_connection_checkpoints_and_limits_its_log():
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL has no SQLite write-ahead log")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_size_limit")
        assert cursor.fetchone()[0] == JOURNAL_SIZE_LIMIT
        cursor.execute("PRAGMA wal_autocheckpoint")
        assert cursor.fetchone()[0] == WAL_AUTOCHECKPOINT_PAGES


@pytest.mark.parametrize("tuned", [True, False], ids=["tuned", "untuned"])
def test_the_log_is_cut_back_after_a_burst_of_writes(tmp_path, tuned):
    limit = 256 * 1024
    path = tmp_path / "wal.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    if tuned:
        tune_sqlite(db.cursor(), journal_size_limit=limit)
    db.execute("CREATE TABLE t (x BLOB)")
    db.execute("BEGIN")
    for _ in range(400):  # one transaction of about 1.6 MB: the log must hold all of it
        db.execute("INSERT INTO t VALUES (?)", [b"x" * 4000])
    db.execute("COMMIT")
    sizes = []
    for _ in range(2500):  # then small writes, past the checkpoint threshold twice
        db.execute("INSERT INTO t VALUES (?)", [b"y" * 10])
        sizes.append((tmp_path / "wal.sqlite3-wal").stat().st_size)
    page = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    if tuned:
        # Cut back to the limit after each checkpoint, never past the checkpoint's pages.
        assert min(sizes) <= limit
        assert max(sizes) <= (WAL_AUTOCHECKPOINT_PAGES + 50) * (page + 24)
    else:
        assert min(sizes) > 1_600_000  # without the limit the file keeps the burst's size
