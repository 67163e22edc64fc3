"""What a write to the database cache costs: Django's DatabaseCache against continental/cache.py.

    .venv/bin/python bench/cache_write.py [--db sqlite|postgres] [--entries 20000] [--writes 2000]

The table is filled with ``--entries`` entries of about 4 KB (what 1,500 tables' sheets
keep), then each backend adds ``--writes`` new ones, as ``scorepad/board.py`` keeps a sheet;
between two writes another connection commits a row, as the other workers do on a busy
evening (on SQLite that empties this connection's page cache, so every count reads the
table again). Django's backend counts the table before every write and writes in two
statements; ours writes in one and counts on every twentieth (``CHECK_EVERY``). Both cull
past the same ``MAX_ENTRIES``, set above the entries here, so no cull is timed. Printed per
backend: the median, p95 and mean of a write's wall time, and the statements per write (on
SQLite the BEGIN of the write's transaction is one of them).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG = {"NAME": "scorepad_cache_bench", "USER": "postgres", "HOST": "127.0.0.1", "PORT": "5432"}
BACKENDS = {
    "Django's DatabaseCache": "django.core.cache.backends.db.DatabaseCache",
    "continental.cache": "continental.cache.DatabaseCache",
}


def configure(db: str, directory: str) -> None:
    from django.conf import settings

    if db == "postgres":
        database = {"ENGINE": "django.db.backends.postgresql", **PG}
    else:
        database = {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.path.join(directory, "cache.sqlite3"),
            "OPTIONS": {"init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"},
        }
    options = {"MAX_ENTRIES": 1_000_000, "CULL_FREQUENCY": 10}
    settings.configure(
        USE_TZ=True,
        DATABASES={"default": database, "other": dict(database)},
        CACHES={
            name: {"BACKEND": backend, "LOCATION": "bench_cache", "OPTIONS": options}
            for name, backend in BACKENDS.items()
        },
    )
    import django

    django.setup()


def fresh_database(create: bool) -> None:
    """PostgreSQL: the bench's own database dropped, and made anew when ``create``."""
    import psycopg

    with psycopg.connect(
        host=PG["HOST"], user=PG["USER"], dbname="postgres", autocommit=True
    ) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {PG['NAME']}")
        if create:
            admin.execute(f"CREATE DATABASE {PG['NAME']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--entries", type=int, default=20_000)
    parser.add_argument("--writes", type=int, default=2_000)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    if args.db == "postgres":
        fresh_database(create=True)
    with tempfile.TemporaryDirectory(prefix="cache-write-") as directory:
        configure(args.db, directory)
        from django.core.cache import caches
        from django.core.management import call_command
        from django.db import connections

        call_command("createcachetable", verbosity=0)
        with connections["other"].cursor() as cursor:
            cursor.execute("CREATE TABLE others (n integer)")
        value = os.urandom(2200).hex()[:4000]  # about what a compressed sheet weighs
        filler = caches["continental.cache"]
        filler.set_many({f"sheet:old:{n}": value for n in range(args.entries)}, 3600)
        print(
            f"# bench/cache_write.py --db {args.db}: {args.entries} entries of about 4 KB,"
            f" {args.writes} adds a backend, another connection committing between two;"
            " load average before: " + " ".join(f"{x:.2f}" for x in os.getloadavg())
        )
        print(f"  {'backend':24} {'p50 ms':>7} {'p95 ms':>7} {'mean ms':>7} {'statements':>10}")
        for round_ in range(2):  # each backend twice, alternately
            for name in BACKENDS:
                cache = caches[name]
                times = []
                statements = 0

                def counted(execute, sql, params, many, context):
                    nonlocal statements
                    statements += 1
                    return execute(sql, params, many, context)

                with connections["default"].execute_wrapper(counted):
                    for n in range(args.writes):
                        with connections["other"].cursor() as cursor:
                            cursor.execute("INSERT INTO others (n) VALUES (%s)", [n])
                        started = time.perf_counter()
                        cache.add(f"sheet:{name[:6]}:{round_}:{n}", value, 3600)
                        times.append((time.perf_counter() - started) * 1000)
                times.sort()
                print(
                    f"  {name:24} {times[len(times) // 2]:7.2f}"
                    f" {times[round(0.95 * (len(times) - 1))]:7.2f}"
                    f" {statistics.fmean(times):7.2f} {statements / args.writes:10.2f}"
                )
        connections.close_all()
    if args.db == "postgres":
        fresh_database(create=False)


if __name__ == "__main__":
    main()
