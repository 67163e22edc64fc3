"""A full disk answers a clear page, not a plain 500: "the server's disk is full, nothing
was saved". The write that failed ran in a transaction, so nothing of it was kept.

SQLite says "database or disk is full" (SQLITE_FULL); PostgreSQL "could not extend file ...:
No space left on device" (SQLSTATE 53100, disk_full).
"""

from __future__ import annotations

import logging

from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme

log = logging.getLogger(__name__)

STATUS = 507  # Insufficient Storage
DISK_FULL_SQLSTATE = "53100"
DISK_FULL_TEXTS = ("database or disk is full", "no space left on device", "disk full")


def is_disk_full(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or the driver's error behind it) says the disk is full."""
    seen = 0
    while exc is not None and seen < 5:
        if getattr(exc, "sqlstate", None) == DISK_FULL_SQLSTATE:
            return True
        if getattr(exc, "sqlite_errorname", None) == "SQLITE_FULL":
            return True
        text = str(exc).lower()
        if isinstance(exc, DatabaseError | OSError) and any(t in text for t in DISK_FULL_TEXTS):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def disk_full_response(request: HttpRequest) -> HttpResponse:
    """The page that says so, in the language of the request. An htmx request gets the
    message swapped into the page's main area (htmx swaps no error answer by itself)."""
    # Nothing more is written for this request: not the session either.
    session = getattr(request, "session", None)
    if session is not None:
        session.modified = False
        session.accessed = False
    back = request.META.get("HTTP_REFERER", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = request.path
    context = {"back": back}
    if getattr(request, "htmx", False):
        response = render(request, "scorepad/disk_full.html#message", context, status=200)
        response["HX-Retarget"] = "#main"
        response["HX-Reswap"] = "innerHTML"
        return response
    return render(request, "scorepad/disk_full.html", context, status=STATUS)


def process_exception(request: HttpRequest, exception: Exception) -> HttpResponse | None:
    """A middleware's ``process_exception``: the disk-full page for a full disk, else None
    (every other error goes on to Django's own handling)."""
    if not is_disk_full(exception):
        return None
    log.error("The disk is full: %s %s was not saved", request.method, request.path)
    return disk_full_response(request)
