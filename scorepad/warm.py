"""The viewers' answer of a new version, kept right after the change's commit.

With the live streams, every viewer's phone at a table hears of a change in the same moment
and wants the new sheet: a plain viewer's stream brings it in its event, read from the cache
(``continental/live.py``). Here the worker that saved the change renders it, right after the
commit and before its own answer to the saving phone (``after_changes``): the same request a
plain viewer's phone sends (the viewer link in the editor's language, no cookie), through
the whole middleware chain, so what is kept is exactly what a viewer would have rendered.

It used to be rendered inside the change's transaction, so that it committed with the
version. On SQLite that transaction holds the database's one write lock: a deal's POST held
it about 20 ms with this rendering and 8.5 ms without (in process,
``bench/results/writer-turns-tried.txt``), and at 1,500 tables the saves queued for it
(``bench/results/push-kept-after-commit-sqlite.txt``). Now the change commits first; the
answer is rendered outside any transaction from the rows the change pinned (exactly that
version's, ``scorepad/reading.py``), then kept in a transaction of its own that also tells the
stream processes it is there (``tell_kept``: a ``LiveChange`` row of kind "s" on SQLite, a
``NOTIFY`` on PostgreSQL). A stream process that hears of the version before the answer is
kept holds the plain viewers' events of that version until it hears "kept" (at most
``LIVE_KEPT_WAIT`` seconds), so their phones still ask for nothing.

It costs one rendering per change, which a table with viewers pays anyway. Only with the live
streams on (``settings.LIVE_STREAMS``). A failure here is logged and changes nothing: the
change is saved, the phones ask for the sheet as they would without it.
"""

from __future__ import annotations

import io
import logging
import threading
from typing import Any

from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.db import DatabaseError, connection, transaction
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation

from . import reading

# board and the models are imported where used: the models import this module.

log = logging.getLogger(__name__)

# Set in the environ of the request made here (no client can set a key without HTTP_): the
# warming request renders and keeps the answer without claiming it (no phone can know the
# version before the transaction commits) and never waits for another phone.
FLAG = "scorepad.warm"
# What of the saving request the viewer's request keeps: how the site was reached (and the
# proxy's X-Forwarded-* headers); none of its cookies, none of its other headers.
KEPT_META = ("SCRIPT_NAME", "SERVER_NAME", "SERVER_PORT", "HTTP_HOST", "REMOTE_ADDR")

_local = threading.local()
_handler: WSGIHandler | None = None


def changed(pk: int, viewer_token: str, version: int, event_pk: int) -> None:
    """A game changed to ``version`` in this request's open transaction (``Game._change``,
    whose history entry is ``event_pk``): its viewers' answer is rendered and kept once the
    change is committed (``after_changes``). Outside a request (a command, an import), or
    without the live streams, nothing."""
    request = getattr(_local, "request", None)
    if request is None or not settings.LIVE_STREAMS:
        return
    meta = {key: request.META[key] for key in KEPT_META if key in request.META}
    meta.update(
        (key, value) for key, value in request.META.items() if key.startswith("HTTP_X_FORWARDED_")
    )
    meta["wsgi.url_scheme"] = request.scheme
    language = getattr(request, "LANGUAGE_CODE", None) or settings.LANGUAGE_CODE
    _local.pending = [
        *getattr(_local, "pending", []),
        (meta, language, pk, viewer_token, version, event_pk),
    ]


def after_changes(*, committed: bool = False) -> None:
    """Render and keep the viewers' answers of the changes this request made once they are
    committed: ``committed`` when the caller's transaction that made them has just ended
    well (``access.game_view``); else (the middleware, after any other write) those whose
    history entries are there (one query)."""
    pending = getattr(_local, "pending", [])
    _local.pending = []
    if not pending:
        return
    if committed:
        saved = {p[5] for p in pending}
    else:
        from .models import GameEvent

        saved = set(
            GameEvent.objects.filter(pk__in=[p[5] for p in pending]).values_list("pk", flat=True)
        )
    for meta, language, pk, viewer_token, version, event_pk in pending:
        if event_pk not in saved:
            continue  # rolled back: nothing of it to keep
        try:
            status, html, key = warm(meta, language, viewer_token, version)
            if status != 200 or key is None:
                log.warning("the viewers' answer of a change was not kept ahead: %s", status)
                continue
            keep_and_tell(key, html, pk, version)
        except Exception:
            log.exception("the viewers' answer of a change could not be kept ahead")


def warming(request: HttpRequest) -> bool:
    return bool(request.META.get(FLAG))


class WarmViewersMiddleware:
    """Marks the request whose changes keep their viewers' answers (``changed``); the
    warming request itself passes through."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if warming(request):  # inside the change's request: its pinned rows are shared
            return self.get_response(request)
        _local.request = request
        try:
            with reading.scope():
                response = self.get_response(request)
                after_changes()  # a write of another view than access.game_view's
                return response
        finally:
            _local.request = None
            _local.pending = []


def warm(
    meta: dict[str, Any], language: str, viewer_token: str, version: int
) -> tuple[int, str, str | None]:
    """Ask for ``version``'s sheet as a plain viewer's phone does: the status answered, the
    answer, and the key it is kept under when it may be kept (``views.sheet``)."""
    global _handler
    if _handler is None:
        _handler = WSGIHandler()  # this process's middleware chain, loaded once
    scheme = meta.get("wsgi.url_scheme", "http")
    host = meta.get("HTTP_HOST") or meta.get("SERVER_NAME", "localhost")
    with translation.override(language):
        game_path = reverse("game", kwargs={"token": viewer_token})
        environ = {
            **meta,
            "REQUEST_METHOD": "GET",
            "PATH_INFO": reverse("game-version", kwargs={"token": viewer_token}),
            "QUERY_STRING": f"v={version - 1}",
            "HTTP_HX_REQUEST": "true",
            "HTTP_HX_TARGET": "sheet",
            "HTTP_HX_CURRENT_URL": f"{scheme}://{host}{game_path}",
            "wsgi.input": io.BytesIO(b""),
            FLAG: True,
        }
        response = _handler.get_response(WSGIRequest(environ))
    key = getattr(response, KEEP_AS, None)
    body = response.content if isinstance(response, HttpResponse) else b""
    return response.status_code, body.decode(), key


# What the viewer's view sets on its answer when it may be kept (a plain viewer's sheet of a
# version whose rows are certain): the key to keep it under.
KEEP_AS = "scorepad_keep_as"
KEEP_WAIT_MS = 200  # how long the keeping waits its turn for SQLite's writer


def keep_and_tell(key: str, html: str, pk: int, version: int) -> None:
    """Keep the answer and tell the stream processes it is kept, in one short transaction."""
    from . import board

    try:
        with board.no_waiting(KEEP_WAIT_MS), transaction.atomic():
            board.add_answer(key, html)
            tell_kept(pk, version)
    except DatabaseError:
        log.warning("the viewers' answer of a change was not kept: the database was busy")


def tell_kept(pk: int, version: int) -> None:
    """The stream processes learn that ``version``'s viewers' answer of game ``pk`` is kept
    (``continental/live.py``), at this transaction's commit."""
    from .models import LIVE_CHANNEL, LiveChange

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [LIVE_CHANNEL, f"s:{pk}:{version}:0"])
    else:
        LiveChange.objects.create(kind="s", object_id=pk, version=version)
