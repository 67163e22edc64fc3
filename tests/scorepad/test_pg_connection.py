"""Kept PostgreSQL connections: one the server closed is replaced before a request uses it,
and checking a healthy one sends nothing (scorepad/db/postgresql/base.py)."""

import time

import pytest
from django.db import connection, connections

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs a PostgreSQL server to close a connection"
    ),
    pytest.mark.django_db(transaction=True),
]


def test_a_healthy_idle_connection_is_usable_without_a_query():
    kept = connections.create_connection("default")
    try:
        kept.ensure_connection()
        raw = kept.connection

        def no_query(*args, **kwargs):
            raise AssertionError("the health check sent a query")

        raw.cursor = no_query
        raw.execute = no_query
        assert kept.is_usable()
    finally:
        kept.close()


def test_a_connection_the_server_ended_is_replaced_before_use():
    kept = connections.create_connection("default")
    kept.settings_dict["CONN_HEALTH_CHECKS"] = True
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
