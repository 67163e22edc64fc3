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
"""

from __future__ import annotations

from datetime import timedelta

from django.core.cache.backends.db import DatabaseCache as DjangoDatabaseCache
from django.db import connections

# Longer than anything is kept for (``scorepad/board.py`` keeps for ten years).
FOREVER = timedelta(days=100 * 365)


class DatabaseCache(DjangoDatabaseCache):
    def _cull(self, db, cursor, now, num):
        if self._cull_frequency == 0:
            self.clear()
            return
        connection = connections[db]
        # ``_table`` is set by Django's BaseDatabaseCache; its stubs do not declare it.
        table = connection.ops.quote_name(self._table)  # type: ignore[attr-defined]
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
