"""A database connection lost mid-request (issue 21, item 8): a read is answered again once
on a fresh connection; a write answers a translated 503 with ``Retry-After`` (JSON
``"retry"`` for a phone's outbox), and sent again it is saved once ("already" when it had
committed); never Django's 500 page.

On PostgreSQL the connection is really ended (``pg_terminate_backend``) in the middle of the
request; on SQLite, which has no server to lose, the same path is taken by a "database is
locked" error."""

import pytest
from django.db import OperationalError, connection, connections
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorepad.models import Evening, Game
from tests.factories import GameFactory, classic_form_data

pytestmark = pytest.mark.django_db(transaction=True)
OUTBOX = {"HTTP_X_SCOREPAD_OUTBOX": "1"}
on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs a PostgreSQL server to end a connection"
)
SAYS = {
    "en": "The server could not reach its database just now.",
    "de": "Der Server hat seine Datenbank gerade nicht erreicht.",
}


def url(game, name, lang="en"):
    with translation.override(lang):
        return reverse(name, kwargs={"token": game.editor_token})


@pytest.fixture
def game():
    return GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])


def phone():
    # An error Django answers with its 500 page comes back as a page, not raised in the test.
    return Client(raise_request_exception=False)


def locked(sql_has: str, times: int = 1):
    """SQLite's "database is locked" for the first ``times`` statements holding ``sql_has``."""
    left = [times]

    def wrapper(execute, sql, params, many, context):
        if sql_has in sql and left[0] > 0:
            left[0] -= 1
            raise OperationalError("database is locked")
        return execute(sql, params, many, context)

    return connection.execute_wrapper(wrapper)


def end_own_connection() -> None:
    """End this thread's connection from the server's side, as an operator or a failover
    would (``pg_terminate_backend``), and wait until it is gone."""
    pid = connection.connection.info.backend_pid
    killer = connections.create_connection("default")
    try:
        with killer.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])
    finally:
        killer.close()


def terminated(when):
    """End the connection just before the first statement for which ``when(sql)`` holds."""
    done = [False]

    def wrapper(execute, sql, params, many, context):
        if not done[0] and when(sql):
            done[0] = True
            end_own_connection()
        return execute(sql, params, many, context)

    return connection.execute_wrapper(wrapper), done


# --- the same path on every database ---------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_write_that_meets_a_locked_database_answers_a_translated_503(game, lang):
    client = phone()
    data = classic_form_data(game, 0)
    with locked('INSERT INTO "scorepad_deal"'):
        response = client.post(url(game, "deal-new", lang), data)
    assert response.status_code == 503
    assert response["Retry-After"].isdigit()
    assert SAYS[lang] in response.content.decode()
    assert "Server Error" not in response.content.decode()
    assert Game.objects.get(pk=game.pk).deals.count() == 0
    # Sent again once the database answers: saved, once.
    again = client.post(url(game, "deal-new", lang), data)
    assert again.status_code == 302
    assert Game.objects.get(pk=game.pk).deals.count() == 1


def test_the_outbox_gets_retry_as_json_and_its_resend_is_saved_once(game):
    client = phone()
    data = classic_form_data(game, 1)
    with locked('INSERT INTO "scorepad_deal"'):
        response = client.post(url(game, "deal-new"), data, **OUTBOX)
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert response.json()["outcome"] == "retry"
    assert response["Retry-After"].isdigit()
    saved = client.post(url(game, "deal-new"), data, **OUTBOX)
    assert (saved.status_code, saved.json()["outcome"]) == (200, "saved")
    assert client.post(url(game, "deal-new"), data, **OUTBOX).json()["outcome"] == "already"
    assert Game.objects.get(pk=game.pk).deals.count() == 1


def test_a_read_that_meets_a_locked_database_once_is_answered_again(game):
    with locked('FROM "scorepad_game"', times=1):
        response = phone().get(url(game, "game"))
    assert response.status_code == 200
    assert "Anna" in response.content.decode()


def test_a_read_that_fails_twice_answers_503_not_500(game):
    with locked('FROM "scorepad_game"', times=2):
        response = phone().get(url(game, "game", "de"))
    assert response.status_code == 503
    assert SAYS["de"] in response.content.decode()


def test_a_lost_database_in_a_middleware_answers_503_too():
    """Starting an evening writes the phone's session after the view, in the session's
    middleware: the 500 handler answers that 503, and the form sent again is done once."""
    client = phone()
    data = {"name": "Friday", "stake": "0,10", "once": "evening-once-xxxxxxxxxx"}
    with translation.override("en"):
        new = reverse("evening-new")
    with locked('"django_session"', times=10):
        response = client.post(new, data)
    assert response.status_code == 503
    assert SAYS["en"] in response.content.decode()
    again = client.post(new, data)
    assert again.status_code == 302
    assert Evening.objects.filter(name="Friday").count() == 1


# --- PostgreSQL: the server really ends the connection ---------------------------------------


@on_postgresql
def test_a_read_whose_connection_the_server_ends_is_answered_on_a_fresh_one(game):
    client = phone()
    client.get(url(game, "game"))  # the connection is open and kept
    wrapper, done = terminated(lambda sql: 'FROM "scorepad_game"' in sql)
    with wrapper:
        response = client.get(url(game, "game"))
    assert done[0]
    assert response.status_code == 200
    assert "Anna" in response.content.decode()


@on_postgresql
def test_a_write_whose_connection_ends_before_commit_answers_503_and_is_saved_on_resend(game):
    client = phone()
    data = classic_form_data(game, 0)
    wrapper, done = terminated(lambda sql: sql.startswith('INSERT INTO "scorepad_deal"'))
    with wrapper:
        response = client.post(url(game, "deal-new"), data, **OUTBOX)
    assert done[0]
    assert (response.status_code, response.json()["outcome"]) == (503, "retry")
    assert Game.objects.get(pk=game.pk).deals.count() == 0
    again = client.post(url(game, "deal-new"), data, **OUTBOX)
    assert (again.status_code, again.json()["outcome"]) == (200, "saved")
    assert Game.objects.get(pk=game.pk).deals.count() == 1


@on_postgresql
def test_a_write_whose_connection_ends_after_commit_answers_503_and_its_resend_already(game):
    client = phone()
    data = classic_form_data(game, 2)
    inserted = [False]

    def after_commit(sql):
        inserted[0] = inserted[0] or sql.startswith('INSERT INTO "scorepad_deal"')
        return inserted[0] and not connection.in_atomic_block

    wrapper, done = terminated(after_commit)
    with wrapper:
        response = client.post(url(game, "deal-new"), data, **OUTBOX)
    assert done[0]
    assert response.status_code == 503  # committed, but its answer could not be made
    assert Game.objects.get(pk=game.pk).deals.count() == 1  # nothing acknowledged is lost
    again = client.post(url(game, "deal-new"), data, **OUTBOX)
    assert (again.status_code, again.json()["outcome"]) == (200, "already")
    assert Game.objects.get(pk=game.pk).deals.count() == 1


@on_postgresql
@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_page_form_whose_connection_ends_answers_a_translated_503_page(game, lang):
    client = phone()
    wrapper, done = terminated(lambda sql: sql.startswith('INSERT INTO "scorepad_deal"'))
    with wrapper:
        response = client.post(url(game, "deal-new", lang), classic_form_data(game, 0))
    assert done[0]
    assert response.status_code == 503
    assert response["Retry-After"].isdigit()
    assert SAYS[lang] in response.content.decode()
