"""The rendered sheet of a game, kept in the shared cache per game version.

Rendering the sheet (a table of every deal, standings, chart) is most of the cost of the
game page and of the live update that follows a change, and every phone at the table asks
for the same sheet. A game's ``version`` changes with every change of its sheet, in the
same transaction, so the HTML rendered at one version stays right for as long as the game
is at that version: it is kept in the configured cache (the database cache, shared by every
worker and host) under the game, its version, the link, the language and the editing
rights, and under a stamp of the code and translations that rendered it.

Two layers: the *board* (the sheet and the game's navigation, kept per link and rights,
used by every view that shows the sheet: the page, its forms, the live update) and the
*page* (the whole plain game page or its htmx partial, kept per path and rights, so a
repeat view renders no template at all). Neither is kept when the rows were read across a
change (``still_at``).

The forms of the sheet carry the requester's CSRF token and a one-time form token; the
cached HTML holds markers in their place (HTML comments, which no escaped text can
produce) and each answer puts its own tokens in (``fill``).
"""

from __future__ import annotations

import hashlib
import logging
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError
from django.db.models import prefetch_related_objects
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from .models import Game
from .sheet import Sheet, build_sheet, sheet_prefetch

log = logging.getLogger(__name__)
CSRF_SLOT = mark_safe("<!--csrf-token-->")
ONCE_SLOT = mark_safe("<!--once-token-->")
TIMEOUT = 60 * 60 * 6  # a version nobody opens for hours is not worth keeping
TEMPLATE = "scorepad/game.html"
PARTS = ("sheet", "nav")  # the partials of TEMPLATE that make a Board


def _code_stamp() -> str:
    """A digest of everything the HTML depends on besides the game: templates, compiled
    translations, the Python that arranges the sheet, and the static files whose hashed
    names the page links to. A deploy that changes any of them starts from fresh cache
    entries; hosts running the same code share them."""
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
    game's version (from the cache, or rendered with no change in between)."""

    sheet: SafeString
    nav: SafeString
    current: bool = True


def _key(kind: str, access, *parts) -> str:
    game = access.game
    return ":".join(map(str, (kind, STAMP, game.pk, game.version, get_language(), *parts)))


def board_key(access, *, hide_actions: bool) -> str:
    return _key("board", access, access.token, int(access.can_edit), int(hide_actions))


def page_key(request: HttpRequest, access, *, partial: bool) -> str:
    """The whole game page (or its ``game`` partial for htmx): the same for every request
    of this path at this version but for the token markers and the messages, which a
    cached page never has."""
    path = hashlib.sha256(request.get_full_path().encode()).hexdigest()[:24]
    return _key("page", access, int(access.can_edit), int(partial), path)


def get_html(key: str) -> tuple[str, ...] | None:
    """The parts of HTML kept under ``key``, or None."""
    found = cache.get(key)
    return None if found is None else tuple(zlib.decompress(part).decode() for part in found)


def keep_html(key: str, *parts: str) -> None:
    """Keep HTML for the next request, if the cache takes it: it only saves work, so a cache
    that cannot write now (a busy database) costs this answer nothing."""
    # Compressed: a sheet of many deals is tens of KB of HTML, a few KB in the cache.
    value = tuple(zlib.compress(part.encode(), 1) for part in parts)
    try:
        cache.set(key, value, TIMEOUT)
    except DatabaseError:
        log.warning("the rendered sheet was not kept: the cache could not be written")


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
    called with it for more context) only when the cache has nothing for this version, or
    when the answer depends on more than the version (``cacheable`` false: a settle-up
    amount typed into the page).
    """
    hide_actions = bool(context.get("panel") or context.get("panel_open"))
    key = board_key(access, hide_actions=hide_actions) if cacheable else None
    found = get_html(key) if key is not None else None
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
        keep_html(key, *parts)
    return Board(mark_safe(parts[0]), mark_safe(parts[1]), current)


def still_at(game: Game, version: int) -> bool:
    """Whether the game is still at ``version`` after its rows were read: only then is the
    HTML certainly that version's (a change commits its rows and its version together)."""
    return Game.objects.filter(pk=game.pk, version=version).exists()
