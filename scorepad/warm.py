"""The viewers' answer of a new version, kept before the first viewer asks for it.

With the live streams, every viewer's phone at a table hears of a change in the same moment
and asks for the new sheet (``views/sheet.game_version``); one of them renders it, the
others wait for that rendering (``board.claim``) in a worker of their own. Here the worker
that saved the change asks that question itself, once, right after its own answer has gone
out (``request_finished``, which the server sends when the answer is written): the same
request a plain viewer's phone sends (the viewer link in the editor's language, no cookie),
through the whole middleware chain, so what is kept is exactly what a viewer would have
rendered. The viewers then find it kept (two queries each) and no worker waits.

It costs one rendering per change, which a table with viewers pays anyway; a table without
any pays it for nothing, which at a deal every few minutes is little. Only with the live
streams on (``settings.LIVE_STREAMS``); the pages that poll ask spread over seconds. A
failure here is logged and changes nothing: the change is saved and answered already.
"""

from __future__ import annotations

import io
import logging
import threading
from typing import Any

from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation

log = logging.getLogger(__name__)

# Set in the environ of the request made here (no client can set a key without HTTP_): a
# warming request that finds another phone rendering leaves at once instead of waiting.
FLAG = "scorepad.warm"
# What of the saving request the viewer's request keeps: how the site was reached (and the
# proxy's X-Forwarded-* headers); none of its cookies, none of its other headers.
KEPT_META = ("SCRIPT_NAME", "SERVER_NAME", "SERVER_PORT", "HTTP_HOST", "REMOTE_ADDR")

_local = threading.local()
_handler: WSGIHandler | None = None


def changed(pk: int, viewer_token: str, version: int) -> None:
    """A game changed to ``version`` in this request (``Game._change``): its viewers'
    answer is kept once the request is answered. Outside a request, nothing."""
    pending = getattr(_local, "pending", None)
    if pending is not None:
        pending[pk] = (viewer_token, version)


def warming(request: HttpRequest) -> bool:
    return bool(request.META.get(FLAG))


class WarmViewersMiddleware:
    """Collects the games a request changed; after a successful answer, their viewers'
    answers are kept when the answer is finished (``warm_after``)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        _local.after = None
        _local.pending = {}
        try:
            response = self.get_response(request)
        finally:
            games, _local.pending = _local.pending, None
        if games and settings.LIVE_STREAMS and response.status_code < 400:
            meta = {key: request.META[key] for key in KEPT_META if key in request.META}
            meta.update(
                (key, value)
                for key, value in request.META.items()
                if key.startswith("HTTP_X_FORWARDED_")
            )
            meta["wsgi.url_scheme"] = request.scheme
            language = getattr(request, "LANGUAGE_CODE", None) or settings.LANGUAGE_CODE
            _local.after = (meta, language, list(games.values()))
        return response


def warm_after(sender: Any, **kwargs: Any) -> None:
    """``request_finished``: the answer is written; keep the viewers' answers of the games
    it changed."""
    after = getattr(_local, "after", None)
    if after is None:
        return
    _local.after = None
    meta, language, games = after
    for viewer_token, version in games:
        try:
            warm(meta, language, viewer_token, version)
        except Exception:
            log.exception("the viewers' answer of a change could not be kept ahead")


def warm(meta: dict[str, Any], language: str, viewer_token: str, version: int) -> int:
    """Ask for ``version``'s sheet as a plain viewer's phone does; the status answered."""
    global _handler
    if _handler is None:
        _handler = WSGIHandler()  # this process's middleware chain, loaded once
    with translation.override(language):
        game_path = reverse("game", kwargs={"token": viewer_token})
        path = reverse("game-version", kwargs={"token": viewer_token})
    scheme = meta.get("wsgi.url_scheme", "http")
    host = meta.get("HTTP_HOST") or meta.get("SERVER_NAME", "localhost")
    environ = {
        **meta,
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": f"v={version - 1}",
        "HTTP_HX_REQUEST": "true",
        "HTTP_HX_TARGET": "sheet",
        "HTTP_HX_CURRENT_URL": f"{scheme}://{host}{game_path}",
        "wsgi.input": io.BytesIO(b""),
        FLAG: True,
    }
    with translation.override(language):
        response = _handler.get_response(WSGIRequest(environ))
    return response.status_code


request_finished.connect(warm_after, dispatch_uid="scorepad.warm")
