"""Per-client rate limits on writes and on the hand-check API, answered with 429.

Counters live in the configured cache (the database cache by default), so every gunicorn
worker on every host counts against the same limit. Fixed one-minute windows: cheap, and a
client at the table never comes near the limits.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

WINDOW_SECONDS = 60


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
        return "api", limits["api"]
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        return "write", limits["write"]
    return None


def hit(name: str, address: str, limit: int) -> bool:
    """Count one request; True while the client is within its limit for this window."""
    window = int(time.time() // WINDOW_SECONDS)
    key = f"rl:{name}:{address}:{window}"
    if cache.add(key, 1, WINDOW_SECONDS + 5):
        return True
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, WINDOW_SECONDS + 5)
        return True
    return count <= limit


class RateLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        bucket = _bucket(request)
        if bucket is not None:
            name, limit = bucket
            if not hit(name, client_address(request), limit):
                return self.too_many(request, name)
        return self.get_response(request)

    @staticmethod
    def too_many(request: HttpRequest, name: str) -> HttpResponse:
        message = _("Too many requests from your device. Please wait a minute and try again.")
        if name == "api":
            response = JsonResponse({"error": message}, status=429)
        else:
            response = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(WINDOW_SECONDS)
        return response
