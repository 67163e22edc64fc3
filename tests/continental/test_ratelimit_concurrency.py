"""The rate limits hold under concurrency: 16 client threads at once, real transactions, on
the test database (PostgreSQL when DATABASE_URL is set, else the SQLite file). A read then a
write (the database cache's ``incr``) let 1,143 of 3,000 API calls through a limit of 600."""

import json
import threading

import pytest
from django.db import connection
from django.test import Client, override_settings
from django.utils import translation

from scorepad.models import RateCounter

pytestmark = pytest.mark.django_db(transaction=True)


THREADS = 16


def hammer(per_thread: int, send) -> list[int]:
    """``send(client)`` ``per_thread`` times in each of 16 threads released together."""
    barrier = threading.Barrier(THREADS)
    statuses: list[int] = []
    errors = []
    lock = threading.Lock()

    def work():
        try:
            with translation.override("en"):
                client = Client()
                barrier.wait(timeout=20)
                mine = [send(client) for _ in range(per_thread)]
            with lock:
                statuses.extend(mine)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=work) for _ in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors, errors
    assert len(statuses) == THREADS * per_thread
    return statuses


def api_call(client):
    body = json.dumps({"variant": "nope", "cards": ""})
    return client.post(
        "/api/check", data=body, content_type="application/json", REMOTE_ADDR="198.51.100.7"
    ).status_code


def write(client):
    return client.post("/en/", REMOTE_ADDR="198.51.100.8").status_code


@override_settings(RATE_LIMITS={"api": 600, "write": 120})
def test_sixteen_threads_get_exactly_the_api_limit_through():
    statuses = hammer(60, api_call)  # 960 calls
    allowed = sum(s != 429 for s in statuses)
    print(f"API: {allowed} of {len(statuses)} calls allowed, limit 600 ({connection.vendor})")
    assert allowed == 600
    assert statuses.count(429) == 360
    assert RateCounter.objects.get(client="api:198.51.100.7").hits == 960


@override_settings(RATE_LIMITS={"api": 600, "write": 120})
def test_sixteen_threads_get_exactly_the_write_limit_through():
    statuses = hammer(13, write)  # 208 writes
    allowed = sum(s != 429 for s in statuses)
    print(f"writes: {allowed} of {len(statuses)} allowed, limit 120 ({connection.vendor})")
    assert allowed == 120
    assert statuses.count(429) == 88
