"""Two phones saving at the same moment, and one phone saving twice: real threads, real
transactions, against the test database (PostgreSQL when DATABASE_URL is set, else the
SQLite file with IMMEDIATE transactions and a busy timeout)."""

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorepad.models import Deal, DealScore, Event, Game
from tests.factories import GameFactory, classic_form_data

pytestmark = pytest.mark.django_db(transaction=True)


def run_together(count, work):
    """Run ``work(i)`` in ``count`` threads released at the same moment; return the results."""
    barrier = threading.Barrier(count)
    results = [None] * count
    errors = []

    def target(i):
        try:
            with translation.override("en"):
                barrier.wait(timeout=10)
                results[i] = work(i)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    return results


@pytest.fixture
def game():
    return GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])


def url(game):
    with translation.override("en"):
        return reverse("deal-new", kwargs={"token": game.editor_token})


def test_two_editors_saving_the_same_deal_at_once_record_it_once(game):
    forms = [classic_form_data(game, i, jokers=1) for i in range(2)]

    def save(i):
        return Client().post(url(game), forms[i]).status_code

    statuses = run_together(2, save)
    assert sorted(statuses) == [302, 409]
    assert Deal.objects.count() == 1
    assert DealScore.objects.count() == 4
    assert Game.objects.get().version == 2
    assert Event.objects.count() == 1


def test_many_phones_racing_on_one_version_record_exactly_one_deal(game):
    forms = [classic_form_data(game, i % 4, wild_twos=1) for i in range(6)]
    statuses = run_together(6, lambda i: Client().post(url(game), forms[i]).status_code)
    assert statuses.count(302) == 1
    assert statuses.count(409) == 5
    assert Deal.objects.count() == 1


def test_one_form_sent_twice_at_once_on_a_flaky_connection_records_once(game):
    data = classic_form_data(game, 0, jokers=2)
    statuses = run_together(2, lambda i: Client().post(url(game), data).status_code)
    assert statuses == [302, 302]
    assert Deal.objects.count() == 1
    assert Event.objects.filter(form_token=data["once"]).count() == 1


def test_phones_that_retry_on_a_changed_sheet_lose_nothing_and_double_nothing(game):
    def keep_trying(i):
        client = Client()
        data = classic_form_data(game, i % 4, jokers=1)
        for _ in range(50):
            data["version"] = str(Game.objects.get(pk=game.pk).version)
            status = client.post(url(game), data).status_code
            if status == 302:
                return status
            assert status == 409
        return status

    statuses = run_together(4, keep_trying)
    assert statuses == [302] * 4
    numbers = sorted(Deal.objects.values_list("number", flat=True))
    assert numbers == [1, 2, 3, 4]
    game.refresh_from_db()
    assert game.version == 5
    assert sorted(s.total for s in game.seats.all()) == [0, 0, 0, 0]  # each went out once
