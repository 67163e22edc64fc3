"""The rendered sheet of a game, kept in the shared cache per game version.

Rendering the sheet (a table of every deal, standings, chart) is most of the cost of the
game page and of the live update that follows a change, and every phone at the table asks
for the same sheet. A game's ``version`` changes with every change of its sheet, in the
same transaction, so the HTML rendered at one version stays right for as long as the game
is at that version: it is kept in the configured cache (the database cache, shared by every
worker and host) under the game, its version, the link, the language and the editing
rights, and under a stamp of the code and translations that rendered it.

The forms of the sheet carry the requester's CSRF token and a one-time form token; the
cached HTML holds markers in their place (HTML comments, which no escaped text can
produce) and each answer puts its own tokens in.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.db.models import prefetch_related_objects
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from .models import Game
from .sheet import Sheet, build_sheet, sheet_prefetch

CSRF_SLOT = mark_safe("<!--csrf-token-->")
ONCE_SLOT = mark_safe("<!--once-token-->")
TIMEOUT = 60 * 60 * 6  # a version nobody opens for hours is not worth keeping
TEMPLATE = "scorepad/game.html"


def _code_stamp() -> str:
    """A digest of everything the HTML depends on besides the game: templates, compiled
    translations and the Python that arranges the sheet. A deploy that changes any of
    them starts from fresh cache entries; hosts running the same code share them."""
    root = Path(settings.BASE_DIR)
    files = [
        *root.glob("templates/**/*.html"),
        *root.glob("locale/*/LC_MESSAGES/django.mo"),
        *root.glob("scorepad/**/*.py"),
        *root.glob("rules/**/*.py"),
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
    live update's answer) and the game's navigation (its checker link names the next deal)."""

    sheet: SafeString
    nav: SafeString

    def __iter__(self):
        return iter((self.sheet, self.nav))


def board_key(access, *, hide_actions: bool) -> str:
    game = access.game
    parts = (
        STAMP,
        game.pk,
        game.version,
        access.token,
        get_language(),
        int(access.can_edit),
        int(hide_actions),
    )
    return "board:" + ":".join(map(str, parts))


def full_sheet(game: Game) -> Sheet:
    """The sheet of a game, loading its seats, deals and scores unless they are loaded."""
    if "deals" not in getattr(game, "_prefetched_objects_cache", {}):
        prefetch_related_objects([game], *sheet_prefetch())
    return build_sheet(game)


def _render(request: HttpRequest, context: dict) -> Board:
    return Board(
        sheet=mark_safe(render_to_string(f"{TEMPLATE}#sheet", context, request)),
        nav=mark_safe(render_to_string(f"{TEMPLATE}#nav", context, request)),
    )


def _fill(board: Board, request: HttpRequest, once: str) -> Board:
    def fill(html: str) -> SafeString:
        if CSRF_SLOT in html:
            html = html.replace(CSRF_SLOT, get_token(request))
        return mark_safe(html.replace(ONCE_SLOT, once))

    return Board(sheet=fill(board.sheet), nav=fill(board.nav))


def board(
    request: HttpRequest,
    access,
    context: dict,
    *,
    cacheable: bool = True,
    extra: Callable[[Sheet], dict] | None = None,
) -> Board:
    """The sheet and navigation of ``access.game`` for this request.

    ``context`` is the template context of the page; the sheet is built (and ``extra``
    called with it for more context) only when the cache has nothing for this version, or
    when the answer depends on more than the version (``cacheable`` false: a settle-up
    amount typed into the page).
    """
    hide_actions = bool(context.get("panel") or context.get("panel_open"))
    key = board_key(access, hide_actions=hide_actions) if cacheable else None
    if key is not None:
        found = cache.get(key)
        if found is not None:
            sheet_html, nav_html = (zlib.decompress(part).decode() for part in found)
            return _fill(
                Board(mark_safe(sheet_html), mark_safe(nav_html)), request, context["once"]
            )
    version = access.game.version
    sheet = full_sheet(access.game)
    more = extra(sheet) if extra else {}
    rendered = _render(
        request,
        {**context, "sheet": sheet, **more, "csrf_token": CSRF_SLOT, "once": ONCE_SLOT},
    )
    if key is not None and _still_at(access.game, version):
        # Compressed: a sheet of many deals is tens of KB of HTML, a few KB in the cache.
        parts = tuple(zlib.compress(str(part).encode(), 1) for part in rendered)
        cache.set(key, parts, TIMEOUT)
    return _fill(rendered, request, context["once"])


def _still_at(game: Game, version: int) -> bool:
    """Whether the game is still at ``version`` after its rows were read: only then is the
    HTML certainly that version's (a change commits its rows and its version together)."""
    return Game.objects.filter(pk=game.pk, version=version).exists()
