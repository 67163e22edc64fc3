"""Kept PostgreSQL connections: one the server closed is replaced before a request uses it
(Django's CONN_HEALTH_CHECKS, on in continental/settings.py for a DATABASE_URL)."""

import time

import pytest
from django.db import connection, connections

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs a PostgreSQL server to close a connection"
    ),
    pytest.mark.django_db(transaction=True),
]


def test_a_connection_the_server_ended_is_replaced_before_use():
    from django.conf import settings

    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"]
    kept = connections.create_connection("default")
    try:
        kept.ensure_connection()
        pid = kept.connection.info.backend_pid
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        deadline = time.monotonic() + 10
        while kept.is_usable() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not kept.is_usable()
        # What Django does at the start of the next request that uses the database.
        kept.health_check_enabled, kept.health_check_done = True, False
        kept.close_if_health_check_failed()
        with kept.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            assert cursor.fetchone()[0] != pid
    finally:
        kept.close()
