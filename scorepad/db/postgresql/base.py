"""Django's PostgreSQL backend with a health check that costs no round trip.

Persistent connections (``CONN_MAX_AGE``) go stale when the server restarts or drops an
idle connection; Django's ``CONN_HEALTH_CHECKS`` then finds out with ``SELECT 1`` at the
start of every request that uses the database, doubling the round trips of the live update
(one query). A server that ends a connection sends its farewell (or end of file) down the
socket, and an idle connection of this app is otherwise never sent anything (no LISTEN):
so a readable socket between requests means a dead connection, and looking costs a
``select`` with no wait. Anything odd counts as unusable: Django then reconnects.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        if connection.info.transaction_status != pq.TransactionStatus.IDLE:
            return super().is_usable()  # mid-transaction or unknown: ask the server
        try:
            readable, _, _ = select.select([connection.fileno()], [], [], 0)
        except (OSError, ValueError):
            return False
        return not readable
