"""Per-client rate limits on writes and on the hand-check API, answered with 429.

Counters live in a table of the database (``RateCounter``), so every gunicorn worker on
every host counts against the same limit. Each request counts with one statement (an
upsert that adds one and returns the count), so concurrent requests never undercount: a
read then a write, as the database cache's ``incr`` does, lets several requests read the
same count. Fixed one-minute windows: cheap, and a client at the table never comes near the
limits. A limit of 0 turns that limit off.
"""

from __future__ import annotations

import logging
import random
import time

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _

from rules.api import RATE_BUCKET
from scorepad.models import RateCounter

from .middleware import with_security_headers

WINDOW_SECONDS = 60
PRUNE_CHANCE = 0.01  # a new window of a client sometimes deletes the counters of old windows
log = logging.getLogger(__name__)


def client_address(request: HttpRequest) -> str:
    """The client's address; behind a trusted proxy, the last address it appended."""
    if settings.TRUSTED_PROXY_HOPS:
        forwarded = [p.strip() for p in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [p for p in forwarded if p]
        if len(forwarded) >= settings.TRUSTED_PROXY_HOPS:
            return forwarded[-settings.TRUSTED_PROXY_HOPS]
    return request.META.get("REMOTE_ADDR", "unknown")


def _bucket(request: HttpRequest) -> tuple[str, int] | None:
    limits = settings.RATE_LIMITS
    if not limits:
        return None
    if request.path == "/api/check":
        name = "api"
    elif request.method not in ("GET", "HEAD", "OPTIONS"):
        name = "write"
    else:
        return None
    limit = limits.get(name) or 0
    return (name, limit) if limit > 0 else None  # 0: this limit is off


def now() -> float:
    return time.time()


def _count_sql() -> str:
    table = connection.ops.quote_name(RateCounter._meta.db_table)
    # PostgreSQL and SQLite (3.35+) alike: insert the first hit of a client, or add one to
    # its count (starting again at 1 in a new window), and return the count, in one step.
    return (
        f"INSERT INTO {table} (client, period, hits) VALUES (%s, %s, 1) "
        f"ON CONFLICT (client) DO UPDATE SET "
        f"hits = CASE WHEN {table}.period = excluded.period THEN {table}.hits + 1 ELSE 1 END, "
        f"period = excluded.period "
        f"RETURNING hits"
    )


def count(name: str, address: str) -> int:
    """Count one request of ``address`` in bucket ``name``; its count in this window."""
    period = int(now() // WINDOW_SECONDS)
    with connection.cursor() as cursor:
        cursor.execute(_count_sql(), [f"{name}:{address}"[:200], period])
        hits = cursor.fetchone()[0]
    if hits == 1 and random.random() < PRUNE_CHANCE:
        RateCounter.objects.filter(period__lt=period - 1).delete()
    return hits


def hit(name: str, address: str, limit: int) -> bool:
    """Count one request; True while the client is within its limit for this window."""
    try:
        return count(name, address) <= limit
    except DatabaseError:
        # The database cannot count (a full disk, a lost connection): let the request
        # through; the view meets the same problem and answers it (a clear page).
        log.warning("rate limit not counted: the database failed", exc_info=True)
        return True


COUNTED = "_scorepad_rate_counted"


class RateLimitMiddleware:
    """Writes and ``/api/check`` are counted as they come in; a page that runs the engine
    as the API does (the hand checker: its view is marked with ``rules.api.counts_as_api``)
    is counted in the API's bucket once its URL has resolved, and a limited one answers a
    page in the language of the request."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        bucket = _bucket(request)
        if bucket is not None:
            name, limit = bucket
            setattr(request, COUNTED, True)
            if not hit(name, client_address(request), limit):
                return self.too_many(request, name)
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, args, kwargs) -> HttpResponse | None:
        name = getattr(view_func, RATE_BUCKET, None)
        if name is None or getattr(request, COUNTED, False):
            return None
        limit = (settings.RATE_LIMITS or {}).get(name) or 0
        setattr(request, COUNTED, True)
        if limit > 0 and not hit(name, client_address(request), limit):
            return self.too_many(request, name, page=True)
        return None

    @staticmethod
    def too_many(request: HttpRequest, name: str, page: bool = False) -> HttpResponse:
        message = _("Too many requests from your device. Please wait a minute and try again.")
        if page:
            response = render(request, "429.html", {"message": message}, status=429)
            add_never_cache_headers(response)
        elif name == "api":
            response = JsonResponse({"error": message}, status=429)
        else:
            response = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(WINDOW_SECONDS)
        return with_security_headers(request, response)
