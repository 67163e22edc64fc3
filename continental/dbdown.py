"""A database connection lost in the middle of a request never answers Django's 500 page.

PostgreSQL may end a connection at any moment (a restart, a failover, ``pg_terminate_backend``):
the next statement raises ``OperationalError`` or ``InterfaceError``. Django's
``CONN_HEALTH_CHECKS`` replace a connection that died between requests, not one that dies
during a request. Here:

- the broken connection is closed, so that the next statement opens a fresh one;
- a read (GET, HEAD, OPTIONS) is answered again once, from the start, on a fresh
  connection (``RetryReadMiddleware``, first in ``settings.MIDDLEWARE``);
- a write, and a read that fails twice, answer 503 with ``Retry-After``: a translated page,
  or for a phone's outbox (``X-Scorepad-Outbox: 1``, static/js/table.js) the JSON
  ``{"outcome": "retry", ...}``, which the outbox takes as "send it again later". Whether the
  write had committed or not, sending it again is safe: its one-time token makes the second
  sending answer "already" when the first was saved.

SQLite has no server to lose, but the same path answers its ``OperationalError`` ("database
is locked" after the busy timeout). A full disk is ``diskfull``'s (its own page, 507).

The error is caught where Django turns it into an answer: a view's in ``process_exception``
(``RejectNulMiddleware`` calls ``process_exception`` here), any other (a middleware's
session save, say) in the 500 handler (``handler500`` in continental/urls.py), which still
answers the plain 500 page for every other error.
"""

from __future__ import annotations

import logging
import sys

from django.db import InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _

from . import diskfull, errors

log = logging.getLogger(__name__)

STATUS = 503
RETRY_AFTER = 2  # seconds; the outbox retries on its own timer, a person by a tap
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
LOST = "_scorepad_database_lost"  # set on the request whose answer is the 503 below
RETRIED = "_scorepad_database_retried"


def is_lost(exc: BaseException | None) -> bool:
    """Whether ``exc`` says the database cannot be reached (a lost connection, a locked
    SQLite file), rather than a full disk or a mistake in a query."""
    return isinstance(exc, OperationalError | InterfaceError) and not diskfull.is_disk_full(exc)


def close_broken() -> None:
    """Close every connection of this thread that no longer works; the next statement
    opens a new one. A connection inside a transaction is left to the transaction."""
    for conn in connections.all(initialized_only=True):
        if conn.connection is None or conn.in_atomic_block:
            continue
        try:
            usable = conn.is_usable()
        except Exception:
            usable = False
        if not usable:
            try:
                conn.close()
            except Exception:
                conn.connection = None


def message() -> str:
    return _(
        "The server could not reach its database just now. What you sent may not have been "
        "saved: send it again in a moment; a form sent twice is saved once."
    )


def unavailable(request: HttpRequest) -> HttpResponse:
    """The 503 answer, in the language of the request; nothing more is read or written."""
    session = getattr(request, "session", None)
    if session is not None:
        session.modified = False
        session.accessed = False
    # The language of the request (an error in an outer middleware comes after its own).
    with translation.override(
        getattr(request, "LANGUAGE_CODE", None) or translation.get_language()
    ):
        if request.headers.get("X-Scorepad-Outbox") == "1":
            response: HttpResponse = JsonResponse(
                {"outcome": "retry", "message": message()}, status=STATUS
            )
        else:
            response = render(
                request, "database_unavailable.html", {"message": message()}, status=STATUS
            )
    response["Retry-After"] = str(RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    return response


def answer_lost(request: HttpRequest, exception: BaseException) -> HttpResponse:
    log.warning(
        "The database could not be reached: %s %s answered %d (%s)",
        request.method,
        request.path,
        STATUS,
        type(exception).__name__,
    )
    close_broken()
    setattr(request, LOST, True)
    return unavailable(request)


def process_exception(request: HttpRequest, exception: Exception) -> HttpResponse | None:
    """A middleware's ``process_exception``: the 503 for a lost database, else None."""
    if not is_lost(exception):
        return None
    return answer_lost(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: an error outside the view (a middleware's) that is a lost database
    answers 503 too; every other error the app's 500 page (errors.py)."""
    exception = sys.exc_info()[1]
    if exception is not None and is_lost(exception):
        return answer_lost(request, exception)
    return errors.server_error(request)


class RetryReadMiddleware:
    """A read that met a lost database is answered again once, on a fresh connection."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            getattr(request, LOST, False)
            and request.method in SAFE_METHODS
            and not getattr(request, RETRIED, False)
        ):
            setattr(request, RETRIED, True)
            setattr(request, LOST, False)
            close_broken()
            response = self.get_response(request)
        return response
