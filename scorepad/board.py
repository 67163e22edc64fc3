"""The rendered sheet of a game, kept in the database per game version.

Rendering the sheet (a table of every deal, standings, chart) is most of the cost of the
game page and of the live update that follows a change, and every phone at the table asks
for the same sheet. A game's ``version`` changes with every change of its sheet, in the
same transaction, so the HTML rendered at one version stays right for as long as the game
is at that version: it is kept in the table of ``RenderedSheet`` (shared by every worker
and host) under the game and its version, with a key naming what it is, for which link,
language and rights, and a stamp of the code and translations that rendered it.

Two kinds: the *board* (the sheet and the game's navigation, used by every view that shows
the sheet: the page, its forms, the live update) and the *page* (the whole plain game page
or its htmx partial, so a repeat view renders no template at all). The game page asks for
its game and its kept page in one query (``game_by_token`` with ``rendered``). Nothing is
kept when the rows were read across a change (``still_at``).

The forms of the sheet carry the requester's CSRF token and a one-time form token; the
kept HTML holds markers in their place (HTML comments, which no escaped text can produce)
and each answer puts its own tokens in (``fill``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import prefetch_related_objects
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from .models import Game, RenderedSheet
from .sheet import Sheet, build_sheet, sheet_prefetch

log = logging.getLogger(__name__)
CSRF_SLOT = mark_safe("<!--csrf-token-->")
ONCE_SLOT = mark_safe("<!--once-token-->")
TEMPLATE = "scorepad/game.html"
PARTS = ("sheet", "nav")  # the partials of TEMPLATE that make a Board


def _code_stamp() -> str:
    """A digest of everything the HTML depends on besides the game: templates, compiled
    translations, the Python that arranges the sheet, and the static files whose hashed
    names the page links to. A deploy that changes any of them keeps its HTML under new
    keys; hosts running the same code share them."""
    root = Path(settings.BASE_DIR)
    files = [
        *root.glob("templates/**/*.html"),
        *root.glob("locale/*/LC_MESSAGES/django.mo"),
        *root.glob("scorepad/**/*.py"),
        *root.glob("rules/**/*.py"),
        *(path for path in root.glob("static/**/*") if path.is_file()),
    ]
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


STAMP = _code_stamp()


@dataclass
class Board:
    """The two parts of the game page that come from the sheet: the sheet itself (also the
    live update's answer) and the game's navigation (its checker link names the next deal).
    Their forms hold the token markers; ``current`` says the HTML is certainly that of the
    game's version (kept at it, or rendered with no change in between)."""

    sheet: SafeString
    nav: SafeString
    current: bool = True


def _key(kind: str, *parts) -> str:
    return ":".join(map(str, (kind, STAMP, get_language(), *parts)))


def board_key(access, *, hide_actions: bool) -> str:
    return _key("board", access.token, int(access.can_edit), int(hide_actions))


def page_key(request: HttpRequest, token: str, *, can_edit: bool, partial: bool) -> str | None:
    """The key of the game page (or its ``game`` partial for htmx) at this request's path, or
    None when the request is not a plain one: a query string (a settle-up amount) makes the
    page this answer's own. Messages and panels are for the caller to rule out."""
    if request.method != "GET" or request.META.get("QUERY_STRING"):
        return None
    return _key("page", token, int(can_edit), int(partial))


def page_keys(request: HttpRequest, token: str, *, partial: bool) -> list[str]:
    """The page keys for both rights (asked for before the game says which applies)."""
    keys = (page_key(request, token, can_edit=e, partial=partial) for e in (False, True))
    return [key for key in keys if key is not None]


def get_html(game: Game, key: str) -> tuple[str, ...] | None:
    """The parts of HTML kept for ``game`` at its version under ``key``, or None; from
    ``game.rendered`` when the query that found the game brought it along."""
    known = getattr(game, "rendered", {})
    if key in known:
        blob = known[key]
    else:
        found = RenderedSheet.objects.filter(game_id=game.pk, version=game.version, key=key)
        blob = next(iter(found.values_list("html", flat=True)[:1]), None)
    return None if blob is None else tuple(json.loads(zlib.decompress(bytes(blob))))


def keep_html(game: Game, version: int, key: str, *parts: str) -> None:
    """Keep HTML rendered at ``version`` for the next request, and drop the game's rows of
    other versions or other code. It only saves work, so a database that cannot take the
    write now (busy) costs this answer nothing."""
    # Compressed: a sheet of many deals is tens of KB of HTML, a few KB kept.
    blob = zlib.compress(json.dumps(parts).encode(), 1)
    try:
        with transaction.atomic():
            RenderedSheet.objects.bulk_create(
                [RenderedSheet(game_id=game.pk, version=version, key=key, html=blob)],
                ignore_conflicts=True,
            )
            stale = RenderedSheet.objects.filter(game_id=game.pk)
            stale.exclude(version=version, key__contains=f":{STAMP}:").delete()
    except DatabaseError:
        log.warning("the rendered sheet was not kept: the database could not take it now")


def fill(html: str, request: HttpRequest, once: str) -> str:
    """Put this answer's CSRF token and one-time form token where the markers are."""
    if CSRF_SLOT in html:
        html = html.replace(CSRF_SLOT, get_token(request))
    return html.replace(ONCE_SLOT, once)


def full_sheet(game: Game) -> Sheet:
    """The sheet of a game, loading its seats, deals and scores unless they are loaded."""
    if "deals" not in getattr(game, "_prefetched_objects_cache", {}):
        prefetch_related_objects([game], *sheet_prefetch())
    return build_sheet(game)


def board(
    request: HttpRequest,
    access,
    context: dict,
    *,
    cacheable: bool = True,
    extra: Callable[[Sheet], dict] | None = None,
) -> Board:
    """The sheet and navigation of ``access.game``, with the token markers in their forms.

    ``context`` is the template context of the page; the sheet is built (and ``extra``
    called with it for more context) only when nothing is kept for this version, or when
    the answer depends on more than the version (``cacheable`` false: a settle-up amount
    typed into the page).
    """
    hide_actions = bool(context.get("panel") or context.get("panel_open"))
    key = board_key(access, hide_actions=hide_actions) if cacheable else None
    found = get_html(access.game, key) if key is not None else None
    if found is not None:
        sheet_html, nav_html = found
        return Board(mark_safe(sheet_html), mark_safe(nav_html))
    version = access.game.version
    sheet = full_sheet(access.game)
    render_context = {
        **context,
        "sheet": sheet,
        **(extra(sheet) if extra else {}),
        "csrf_token": CSRF_SLOT,
        "once": ONCE_SLOT,
    }
    parts = [render_to_string(f"{TEMPLATE}#{name}", render_context, request) for name in PARTS]
    current = still_at(access.game, version)
    if key is not None and current:
        keep_html(access.game, version, key, *parts)
    return Board(mark_safe(parts[0]), mark_safe(parts[1]), current)


def still_at(game: Game, version: int) -> bool:
    """Whether the game is still at ``version`` after its rows were read: only then is the
    HTML certainly that version's (a change commits its rows and its version together)."""
    return Game.objects.filter(pk=game.pk, version=version).exists()
