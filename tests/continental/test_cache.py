"""The database cache culls the oldest entries, not the first keys (continental/cache.py)."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
from django.core.cache import caches
from django.core.cache.backends import base, db
from django.test import override_settings

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
    return found


def small(max_entries: int, cull_frequency: int):
    return override_settings(
        CACHES={
            "default": {
                "BACKEND": "continental.cache.DatabaseCache",
                "LOCATION": "scorepad_cache",
                "OPTIONS": {"MAX_ENTRIES": max_entries, "CULL_FREQUENCY": cull_frequency},
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
