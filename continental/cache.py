"""Django's database cache, culled oldest first.

Django's own ``DatabaseCache`` culls, once it holds more than ``MAX_ENTRIES``, the entries
whose keys sort first: for the sheets kept per game version (``scorepad/board.py``) that is
every viewer's answer (``live:...`` sorts before ``sheet:...``) and then the sheets of the
games with the smallest numbers, whether they were kept a minute or a month ago. On an
evening of many tables every cull then threw away the answers the phones were about to ask
for, and they were rendered again. Here a cull deletes what has expired and then the
entries that expire first: everything ``board`` keeps is kept for the same long time, so
those are the oldest (to the second, which is what Django stores; within a second, by key),
the versions no phone asks for any more.

Django's also counts the whole table (``SELECT COUNT(*)``) before every write, to know
whether to cull, then looks the key up and inserts or updates it: three statements and a
savepoint, the count reading some 20,000 entries (0.5-1.2 ms on SQLite whose page cache
another writer's commit emptied, 0.8 ms on PostgreSQL: ``bench/cache_write.py``). Here a
write is one upsert in its savepoint, and the table is counted on every ``CHECK_EVERY``-th
write of a process (``OPTIONS``; 20): it may hold that many writes per process beyond
``MAX_ENTRIES`` before a cull, which is a bound on memory, not an exact size.
"""

from __future__ import annotations

import base64
import pickle
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import DatabaseCache as DjangoDatabaseCache
from django.db import DatabaseError, connections, router, transaction
from django.utils.timezone import now as tz_now

# Longer than anything is kept for (``scorepad/board.py`` keeps for ten years).
FOREVER = timedelta(days=100 * 365)


class DatabaseCache(DjangoDatabaseCache):
    def __init__(self, table, params):
        super().__init__(table, params)
        self._check_every = max(1, int(params.get("OPTIONS", {}).get("CHECK_EVERY", 20)))
        self._writes = 0

    def _quoted_table(self, connection) -> str:
        # ``_table`` is set by Django's BaseDatabaseCache; its stubs do not declare it.
        return connection.ops.quote_name(self._table)  # type: ignore[attr-defined]

    def _base_set(self, mode, key, value, timeout=DEFAULT_TIMEOUT):
        if mode == "touch":  # only an expiry changed: Django's own (nothing here touches)
            return super()._base_set(mode, key, value, timeout)  # type: ignore[misc]
        timeout = self.get_backend_timeout(timeout)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        quote = connection.ops.quote_name
        table = self._quoted_table(connection)
        key_column, value_column, expires = quote("cache_key"), quote("value"), quote("expires")
        now = tz_now().replace(microsecond=0)
        if timeout is None:
            expiry = datetime.max
        else:
            expiry = datetime.fromtimestamp(timeout, tz=UTC if settings.USE_TZ else None)
        expiry = expiry.replace(microsecond=0)
        blob = base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")
        # "add" takes the place of an entry only once it has expired; "set" always does.
        only_expired = f" WHERE {table}.{expires} < %s" if mode == "add" else ""
        sql = (
            f"INSERT INTO {table} ({key_column}, {value_column}, {expires}) VALUES (%s, %s, %s)"
            f" ON CONFLICT ({key_column}) DO UPDATE SET {value_column} = EXCLUDED.{value_column},"
            f" {expires} = EXCLUDED.{expires}{only_expired}"
        )
        params = [key, blob, connection.ops.adapt_datetimefield_value(expiry)]
        if mode == "add":
            params.append(connection.ops.adapt_datetimefield_value(now))
        self._writes += 1
        with connection.cursor() as cursor:
            if self._writes % self._check_every == 0:
                cursor.execute(f"SELECT COUNT(*) FROM {table}")
                counted = cursor.fetchone()[0]
                if counted > self._max_entries:
                    self._cull(db, cursor, now, counted)
            try:
                # Its own savepoint: a write that fails (a busy SQLite, a lost race) leaves
                # the transaction around it usable, and is not kept, as Django's is not.
                with transaction.atomic(using=db):
                    cursor.execute(sql, params)
                    return cursor.rowcount > 0
            except DatabaseError:
                return False

    def _cull(self, db, cursor, now, num):
        if self._cull_frequency == 0:
            self.clear()
            return
        connection = connections[db]
        table = self._quoted_table(connection)
        expires = connection.ops.quote_name("expires")
        cursor.execute(
            f"DELETE FROM {table} WHERE {expires} < %s",
            [connection.ops.adapt_datetimefield_value(now)],
        )
        remaining = num - cursor.rowcount
        # Kept without an expiry (Django stores year 9999; every entry before this backend),
        # an entry would sort after every other for ever: this cache keeps nothing for ever.
        forever = connection.ops.adapt_datetimefield_value(now + FOREVER)
        cursor.execute(f"DELETE FROM {table} WHERE {expires} > %s", [forever])
        remaining -= cursor.rowcount
        if remaining <= self._max_entries:
            return
        # Django stores the expiry to the second: within one second, the keys' order.
        key = connection.ops.quote_name("cache_key")
        cursor.execute(
            f"SELECT {expires}, {key} FROM {table} ORDER BY {expires}, {key} LIMIT 1 OFFSET %s",
            [remaining // self._cull_frequency],
        )
        first_kept = cursor.fetchone()
        if first_kept:
            cursor.execute(
                f"DELETE FROM {table} WHERE {expires} < %s OR ({expires} = %s AND {key} < %s)",
                [first_kept[0], first_kept[0], first_kept[1]],
            )
