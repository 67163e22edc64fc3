"""Refuse request values holding a NUL character: no database stores it in text, and no
person types one. The answer is a clear 400 instead of an error deep in a form or a query.

The same middleware answers a view that failed on a full disk with a clear page instead of
a 500 (continental/diskfull.py), and one that lost its database connection with a 503
(continental/dbdown.py)."""

from __future__ import annotations

import ipaddress
from typing import cast

from csp.middleware import CSPMiddleware
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.http.request import split_domain_port
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.translation import get_supported_language_variant
from django.utils.translation import gettext as _
from django.utils.translation.trans_real import parse_accept_lang_header

from rules import api

from . import dbdown, diskfull
from .logfilters import LINK_PARAMETERS

# The middleware after the rate limit and the NUL check (settings.MIDDLEWARE) that add
# security headers; an answer they give early skips them, so it goes through them here.
LATER_HEADER_MIDDLEWARE = (XFrameOptionsMiddleware, CSPMiddleware)


def with_security_headers(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """``response`` with the headers every other answer gets from the middleware that comes
    later in the chain (X-Frame-Options, Content-Security-Policy), by the same code."""
    for middleware in LATER_HEADER_MIDDLEWARE:
        # These middleware are synchronous: their answer is a response, never an awaitable.
        response = cast(HttpResponse, middleware(lambda _request, answer=response: answer)(request))
    return response


def _has_nul(query) -> bool:
    return any("\x00" in key or any("\x00" in v for v in values) for key, values in query.lists())


class RejectNulMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        in_api = request.path.startswith(api.API_PREFIX)
        if in_api and ("\x00" in request.path or _has_nul(request.GET)):
            # The API reads its body itself, as JSON, whatever the content type (and refuses
            # a large one with its 413): only the path and the query are looked at here.
            response = api.error("the request holds a NUL character")
            return with_security_headers(request, response)
        if not in_api and (
            "\x00" in request.path
            or _has_nul(request.GET)
            or (
                request.method == "POST"
                and request.content_type != "application/json"
                and _has_nul(request.POST)
            )
        ):
            refused = HttpResponseBadRequest(
                _(
                    "The request holds a character that cannot be stored. Please check what you typed."
                ),
                content_type="text/plain; charset=utf-8",
            )
            return with_security_headers(request, refused)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """A full disk: "nothing was saved" (the view's transaction was rolled back). The
        answer goes out through every middleware, so it has every header."""
        return diskfull.process_exception(request, exception) or dbdown.process_exception(
            request, exception
        )


class LinksInTheQueryMiddleware:
    """An answer to a URL whose query gives a link (``game``, ``again``, or ``back``, the
    way back to a game's sheet: continental.logfilters.LINK_PARAMETERS) holds that link:
    the page is made of it, and its own links (the language switch) repeat it. No cache
    keeps it (``Cache-Control: no-store``), whichever page it is."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if any(request.GET.get(name) for name in LINK_PARAMETERS):
            add_never_cache_headers(response)
        return response


class ApiErrorsAsJsonMiddleware:
    """Every error answer under ``/api/`` is JSON, ``{"error": "..."}`` (docs/interfaces.md):
    the API's own errors are already; what Django answers itself (a 405 of another method, a
    404 of an unknown path) gets its status's reason as the message, its headers kept."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            request.path.startswith(api.API_PREFIX)
            and response.status_code >= 400
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            answer = api.error(response.reason_phrase.lower(), status=response.status_code)
            for header in ("Allow", "Retry-After"):
                if header in response:
                    answer[header] = response[header]
            return answer
        return response


# Cross-Origin-Opener-Policy: browsers honour it only on an origin they trust (HTTPS, or
# localhost and the loopback addresses) and write a warning to the console on every page of
# any other, such as a table's plain http://192.168.… address; there it is not sent.
OPENER_POLICY = "same-origin"


def trustworthy(request: HttpRequest) -> bool:
    """Whether a browser counts the origin of ``request`` as potentially trustworthy."""
    if request.is_secure():
        return True
    # The host as sent, not checked against ALLOWED_HOSTS (Django's own, not in its stubs).
    host, _port = split_domain_port(request._get_raw_host())  # type: ignore[attr-defined]
    if host == "localhost" or host.endswith(".localhost") or host in ("::1", "[::1]"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class OpenerPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if trustworthy(request):
            response.headers.setdefault("Cross-Origin-Opener-Policy", OPENER_POLICY)
        return response


class LiveOriginMiddleware:
    """When the stream process listens on a port of its own (``LIVE_PORT``, set by
    ``manage.py serve``), a page may connect to that port of the host it came from: its
    Content-Security-Policy names that one origin in ``connect-src``. Listed after the CSP
    middleware, so it marks the answer before that one writes the header."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        port = settings.LIVE_PORT
        if port and settings.LIVE_STREAMS:
            host, _port = split_domain_port(request.get_host())
            if host:
                host = f"[{host}]" if ":" in host else host
                response._csp_update = {"connect-src": [f"{request.scheme}://{host}:{port}"]}
        return response


class PhoneLanguageMiddleware:
    """A shared link carries the language of the phone that sent it (``/pl/games/…``); the
    phone that opens it gets its own. A phone that chose a language (the switcher's cookie,
    ``views.choose_language``) is sent to the same page in it; a phone that never chose one,
    to the language its browser prefers among the six, if any. Only a page a person opens
    (a GET navigation) is sent on, with its path and query kept: never a POST, a live
    stream, an htmx request, a picture, an export or anything the page itself fetches, so a
    form, a poll or a pushed sheet keeps the language of the page it belongs to."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.codes = {code for code, _name in settings.LANGUAGES}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        target = self.elsewhere(request)
        if target is None:
            return self.get_response(request)
        response = HttpResponseRedirect(target)
        add_never_cache_headers(response)  # the path may be a game's editor link
        patch_vary_headers(response, ("Cookie", "Accept-Language"))
        return response

    def elsewhere(self, request: HttpRequest) -> str | None:
        """The same page in the phone's language, or None to answer it here."""
        if request.method != "GET" or request.headers.get("HX-Request"):
            return None
        code, slash, rest = request.path_info.lstrip("/").partition("/")
        if code not in self.codes or not slash:
            return None
        destination = request.headers.get("Sec-Fetch-Dest")
        last = rest.rstrip("/").rpartition("/")[2]
        if destination not in (None, "document") or "." in last or last == "version":
            return None
        wanted = self.wanted(request)
        if wanted is None or wanted == code:
            return None
        target = f"{request.META.get('SCRIPT_NAME', '')}/{wanted}/{rest}"
        query = request.META.get("QUERY_STRING", "")
        return f"{target}?{query}" if query else target

    def wanted(self, request: HttpRequest) -> str | None:
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        if chosen in self.codes:
            return chosen
        if chosen:
            return None
        for accepted, _quality in parse_accept_lang_header(
            request.headers.get("Accept-Language", "")[:255]
        ):
            if accepted == "*":
                continue
            try:
                return get_supported_language_variant(accepted)
            except LookupError:
                continue
        return None
