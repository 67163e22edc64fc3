"""The viewers' answer of a new version, kept in the transaction that makes the version.

With the live streams, every viewer's phone at a table hears of a change in the same moment
and asks for the new sheet (``views/sheet.game_version``). Here the worker that saves the
change asks that question itself, inside the change's transaction, right after the version
bump (``Game._change`` calls ``changed``): the same request a plain viewer's phone sends
(the viewer link in the editor's language, no cookie), through the whole middleware chain,
so what is kept is exactly what a viewer would have rendered. The answer is written to the
database cache in that transaction, so it commits with the version: the stream process
learns of the version at the commit (the trigger's row or ``NOTIFY``), and every plain
viewer in that language finds it kept (two queries each): none renders and none waits.

It costs one rendering per change, which a table with viewers pays anyway, and holds the
change's transaction that much longer (on SQLite, the database's one writer: a deal's POST
holds it about 20 ms with this rendering and 8.5 ms without, in process;
``bench/results/writer-turns-tried.txt``). A table without viewers pays it for nothing, which at a deal every
few minutes is little. Only with the live streams on (``settings.LIVE_STREAMS``); the pages
that poll ask spread over seconds. The request runs in a savepoint of its own: a failure
here is logged, rolled back alone and changes nothing else; the change is saved as it would
be without it.
"""

from __future__ import annotations

import io
import logging
import threading
from typing import Any

from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation

from . import reading

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


def changed(pk: int, viewer_token: str, version: int) -> None:
    """A game changed to ``version`` in this request's open transaction
    (``Game._change``): its viewers' answer is rendered and kept in that transaction.
    Outside a request (a command, an import), or without the live streams, nothing."""
    request = getattr(_local, "request", None)
    if request is None or not settings.LIVE_STREAMS:
        return
    meta = {key: request.META[key] for key in KEPT_META if key in request.META}
    meta.update(
        (key, value) for key, value in request.META.items() if key.startswith("HTTP_X_FORWARDED_")
    )
    meta["wsgi.url_scheme"] = request.scheme
    language = getattr(request, "LANGUAGE_CODE", None) or settings.LANGUAGE_CODE
    try:
        with transaction.atomic():
            status = warm(meta, language, viewer_token, version)
            if status != 200:  # anything but the sheet: its savepoint goes, the change stays
                transaction.set_rollback(True)
                log.warning("the viewers' answer of a change was not kept ahead: %s", status)
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
                return self.get_response(request)
        finally:
            _local.request = None


def warm(meta: dict[str, Any], language: str, viewer_token: str, version: int) -> int:
    """Ask for ``version``'s sheet as a plain viewer's phone does; the status answered."""
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
    return response.status_code
