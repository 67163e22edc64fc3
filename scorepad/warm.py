"""The viewers' answer of a new version, kept right after the change's commit.

With the live streams, every viewer's phone at a table hears of a change in the same moment
and wants the new sheet: a plain viewer's stream brings it in its event, read from the cache
(``continental/live.py``). Here the worker that saved the change renders it, right after the
commit and before its own answer to the saving phone (``changed`` registers it with
``transaction.on_commit``, from the write that made the change, ``views/writes.py``): the
same request a
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
from typing import Any

from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.db import DatabaseError, connection, transaction
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation

from . import reading

log = logging.getLogger(__name__)

# Set in the environ of the request made here (no client can set a key without HTTP_): the
# warming request renders and keeps the answer without claiming it (no phone can know the
# version before the transaction commits) and never waits for another phone.
FLAG = "scorepad.warm"
GAME = "scorepad.warm.game"  # the game as the change left it, in the warming request's environ
# What of the saving request the viewer's request keeps: how the site was reached (and the
# proxy's X-Forwarded-* headers); none of its cookies, none of its other headers.
KEPT_META = ("SCRIPT_NAME", "SERVER_NAME", "SERVER_PORT", "HTTP_HOST", "REMOTE_ADDR")

_handler: WSGIHandler | None = None


def changed(request: HttpRequest, game: Any) -> None:
    """``game`` changed to its version in ``request``'s open transaction: its viewers'
    answer is rendered and kept once the change is committed (``transaction.on_commit``:
    never for a change rolled back), from ``game`` as the change left it (its rows pinned,
    ``reading.pin``: nothing read again). Without the live streams, or from the warming
    request itself, nothing."""
    if not settings.LIVE_STREAMS or warming(request):
        return
    meta = {key: request.META[key] for key in KEPT_META if key in request.META}
    meta.update(
        (key, value) for key, value in request.META.items() if key.startswith("HTTP_X_FORWARDED_")
    )
    meta["wsgi.url_scheme"] = request.scheme
    language = getattr(request, "LANGUAGE_CODE", None) or settings.LANGUAGE_CODE
    version = game.version
    transaction.on_commit(lambda: keep_ahead(meta, language, game, version))


def keep_ahead(meta: dict[str, Any], language: str, game: Any, version: int) -> None:
    """Render ``version``'s viewers' answer and keep it; a failure is logged, nothing more."""
    try:
        status, html, key = warm(meta, language, game, version)
        if status != 200 or key is None:
            log.warning("the viewers' answer of a change was not kept ahead: %s", status)
            return
        keep_and_tell(key, html, game.pk, version)
    except Exception:
        log.exception("the viewers' answer of a change could not be kept ahead")


def warming(request: HttpRequest) -> bool:
    return bool(request.META.get(FLAG))


class WarmViewersMiddleware:
    """Each request pins the rows of the versions it makes for its own answers
    (``reading.scope``); the warming request made inside one shares its pins."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if warming(request):  # inside the change's request: its pinned rows are shared
            return self.get_response(request)
        from . import board

        with reading.scope():
            response = self.get_response(request)  # rendered: what it kept is known
            board.write_later(reading.take_later())
            return response


def warm(
    meta: dict[str, Any], language: str, game: Any, version: int
) -> tuple[int, str, str | None]:
    """Ask for ``version``'s sheet as a plain viewer's phone does: the status answered, the
    answer, and the key it is kept under when it may be kept (``views.sheet``). The request
    carries ``game`` as the change left it (``GAME``): the viewer's view reads it from there
    instead of the database when it is still at ``version``."""
    global _handler
    if _handler is None:
        _handler = WSGIHandler()  # this process's middleware chain, loaded once
    scheme = meta.get("wsgi.url_scheme", "http")
    host = meta.get("HTTP_HOST") or meta.get("SERVER_NAME", "localhost")
    viewer_token = game.viewer_token
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
            GAME: game if game.version == version else None,
        }
        response = _handler.get_response(WSGIRequest(environ))
    key = getattr(response, KEEP_AS, None)
    body = response.content if isinstance(response, HttpResponse) else b""
    return response.status_code, body.decode(), key


def warmed_game(request: HttpRequest, token: str) -> Any:
    """The game the warming request was handed (``warm``), when ``token`` is its viewer
    link; None for any other request."""
    game = request.META.get(GAME) if warming(request) else None
    return game if game is not None and game.viewer_token == token else None


# What the viewer's view sets on its answer when it may be kept (a plain viewer's sheet of a
# version whose rows are certain): the key to keep it under.
KEEP_AS = "scorepad_keep_as"
KEEP_WAIT_MS = 200  # how long the keeping waits its turn for SQLite's writer


def keep_and_tell(key: str, html: str, pk: int, version: int) -> None:
    """Keep the answer and tell the stream processes it is kept, in one short transaction:
    the one in which the request that made the change keeps what it rendered
    (``reading.later``), or one of its own."""
    from . import board

    def write() -> None:
        board.add_answer(key, html)
        tell_kept(pk, version)

    if reading.later(write):
        return
    try:
        with board.no_waiting(KEEP_WAIT_MS), transaction.atomic():
            write()
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
