"""The database cache culls the oldest entries, not the first keys (continental/cache.py)."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
from django.core.cache import caches
from django.core.cache.backends import base, db
from django.db import connection, transaction
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

import continental.cache
from continental.cache import DatabaseCache
from scorepad import board

pytestmark = pytest.mark.django_db


class Clock:
    """A clock a second further on at every reading (Django keeps expiries to the second)."""

    def __init__(self) -> None:
        self.at = time.time()

    def time(self) -> float:
        self.at += 1
        return self.at

    def now(self):
        return datetime.fromtimestamp(self.at, tz=UTC)


@pytest.fixture
def clock(monkeypatch) -> Clock:
    found = Clock()
    monkeypatch.setattr(base, "time", found)
    monkeypatch.setattr(db, "tz_now", found.now)
    monkeypatch.setattr(continental.cache, "tz_now", found.now)
    return found


def small(max_entries: int, cull_frequency: int, check_every: int = 1):
    options = {
        "MAX_ENTRIES": max_entries,
        "CULL_FREQUENCY": cull_frequency,
        "CHECK_EVERY": check_every,
    }
    return override_settings(
        CACHES={
            "default": {
                "BACKEND": "continental.cache.DatabaseCache",
                "LOCATION": "scorepad_cache",
                "OPTIONS": options,
            }
        }
    )


def test_a_cull_drops_the_oldest_entries_whatever_their_keys(clock):
    with small(10, 2):
        cache = caches["default"]
        cache.clear()
        # Kept in the order the keys sort backwards: the newest keys sort first (a viewers'
        # "live:" answer before a "sheet:", game 9 before game 10), as on an evening.
        keys = [f"sheet:{n:03d}" for n in range(30, 19, -1)] + ["live:1", "live:2"]
        for key in keys:
            assert cache.add(key, key, board.TIMEOUT)
        kept = [key for key in keys if cache.get(key) is not None]
        # Culled once past ten entries, half of them: the newest keys survived.
        assert kept == keys[-len(kept) :]
        assert len(kept) < len(keys)
        assert cache.get("live:2") == "live:2"
        assert cache.get("sheet:030") is None


def test_within_one_second_the_keys_decide(monkeypatch):
    monkeypatch.setattr(base, "time", type("Still", (), {"time": staticmethod(lambda: 2e9)}))
    with small(4, 2):
        cache = caches["default"]
        cache.clear()
        for key in ("e", "d", "c", "b", "a", "f"):
            cache.add(key, key, board.TIMEOUT)
        assert [key for key in "abcdef" if cache.get(key) is not None] == ["c", "d", "e", "f"]


def test_expired_entries_go_first(clock):
    with small(4, 4):
        cache = caches["default"]
        cache.clear()
        cache.add("claim:1", 1, 1)  # a claim on a rendering, a second long
        cache.add("claim:2", 1, 1)
        for n in range(4):
            cache.add(f"sheet:{n}", n, board.TIMEOUT)
        assert cache.get("claim:1") is None
        assert cache.get("claim:2") is None
        assert [cache.get(f"sheet:{n}") for n in range(4)] == [0, 1, 2, 3]


def test_an_entry_kept_without_an_expiry_goes_at_the_first_cull(clock):
    with small(3, 3):
        cache = caches["default"]
        cache.clear()
        cache.add("before", 0, None)  # as the sheets were kept before this backend
        for n in range(4):
            cache.add(f"sheet:{n}", n, board.TIMEOUT)
        assert cache.get("before") is None
        assert [cache.get(f"sheet:{n}") for n in range(4)] == [0, 1, 2, 3]


def test_the_sites_cache_is_this_one():
    assert isinstance(caches["default"], DatabaseCache)


def test_add_keeps_a_live_entry_and_takes_the_place_of_an_expired_one(clock):
    with small(100, 3):
        cache = caches["default"]
        cache.clear()
        assert cache.add("k", "first", 60)
        assert not cache.add("k", "second", 60)
        assert cache.get("k") == "first"
        cache.add("short", "old", 1)
        clock.time()  # two seconds on: "short" has expired
        assert cache.add("short", "new", 60)
        assert cache.get("short") == "new"
        cache.set("k", "third", 60)  # set always takes the place
        assert cache.get("k") == "third"
        cache.set_many({"k": "fourth", "m": "many"}, 60)
        assert cache.get_many(["k", "m"]) == {"k": "fourth", "m": "many"}
        assert cache.touch("k", 120)  # Django's own
        assert cache.get("k") == "fourth"


def _counts(queries) -> int:
    return sum("COUNT(*)" in query["sql"].upper() for query in queries)


def test_the_table_is_counted_on_every_nth_write_only():
    with small(10_000, 3, check_every=5):
        cache = caches["default"]
        cache.clear()
        with CaptureQueriesContext(connection) as seen:
            for n in range(4):
                cache.add(f"sheet:{n}", n, board.TIMEOUT)
        assert _counts(seen.captured_queries) == 0
        # One statement a write (and its savepoint's two): Django's looks the key up first.
        writes = [q for q in seen.captured_queries if "SAVEPOINT" not in q["sql"].upper()]
        assert len(writes) == 4
        with CaptureQueriesContext(connection) as seen:
            cache.add("sheet:4", 4, board.TIMEOUT)
        assert _counts(seen.captured_queries) == 1


def test_a_cull_still_comes_when_the_count_is_taken_now_and_then(clock):
    with small(10, 2, check_every=4):
        cache = caches["default"]
        cache.clear()
        for n in range(40):
            cache.add(f"sheet:{n:02d}", n, board.TIMEOUT)
        kept = [n for n in range(40) if cache.get(f"sheet:{n:02d}") is not None]
        # Never more than MAX_ENTRIES and the writes between two counts; the newest kept.
        assert len(kept) <= 10 + 4
        assert kept == list(range(40 - len(kept), 40))


@pytest.mark.django_db(transaction=True)
def test_a_write_that_fails_leaves_the_transaction_around_it_usable(monkeypatch):
    """A refused write (here an expiry the column cannot hold) is not kept and, in its own
    savepoint, does not break the request's transaction (PostgreSQL would refuse every
    statement after it)."""
    with small(100, 3):
        cache = caches["default"]
        cache.clear()
        with transaction.atomic():
            monkeypatch.setattr(
                connection.ops, "adapt_datetimefield_value", lambda value: "not a time"
            )
            refused = cache.add("k", "v", 60)
            monkeypatch.undo()
            assert refused is False or connection.vendor == "sqlite"
            assert cache.add("after", "v", 60)
        assert cache.get("after") == "v"
