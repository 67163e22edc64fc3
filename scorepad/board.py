"""The sheet of a game, rendered once per game version and kept in Django's cache.

Rendering the sheet (every deal, the standings, the chart) is most of the cost of the game
page and of the live update that follows a change, and every phone at the table asks for
the same sheet. A game's ``version`` changes with every change of its sheet, in the same
transaction, so HTML rendered at one version stays right for as long as the game is at that
version: the cache key names the game and its version (and the language, which link and
the rights it was rendered for, and the code that rendered it), so an entry of another
version is never read, whatever the cache keeps.

What is kept holds no token and nothing of the request: the editor's actions (their forms
carry the CSRF token and a one-time form token) and the poll of the live update are
rendered by each answer around it (``templates/scorepad/game.html#sheet``), and so is the
rest of the page. What is kept holds no static file's URL either, so a deploy that changes
only static files never meets old HTML; templates, translations and code are in ``STAMP``.

The cache is ``CACHES["default"]``: the database cache, shared by every worker and host.
Keeping a sheet only saves work, so a cache that fails costs the answer nothing (it is
logged), and on SQLite the write does not wait for another writer's lock (``no_waiting``):
a GET never queues behind a deal being saved. A read only reads (no entry expires before
it is culled).
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.db import DatabaseError, connection, transaction
from django.db.models import prefetch_related_objects
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from . import reading
from .models import Game
from .sheet import Sheet, build_sheet, sheet_prefetch

log = logging.getLogger(__name__)
TEMPLATE = "scorepad/game.html"
# The partials of TEMPLATE that are kept; "offline" is the next deal's form an editor's
# sheet holds for a phone without a connection (no one-time token, no CSRF token in it:
# the phone makes the one and sends the other with its header).
PARTS = ("table", "standings", "nav", "offline")
# Kept until the cache culls them (CACHES' MAX_ENTRIES), oldest first: a key of an old
# version is never asked for again. The expiry is only the culling's order (continental/
# cache.py): every entry gets the same ten years, so that a read never meets an expired
# entry and never deletes (a GET never writes).
TIMEOUT = 10 * 365 * 24 * 3600


def _code_stamp() -> str:
    """A digest of what the kept HTML depends on besides the game: the templates, the
    compiled translations and the Python that arranges the sheet. A deploy that changes
    any of them keeps its HTML under new keys; hosts running the same code share them."""
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
    return digest.hexdigest()[:12]


STAMP = _code_stamp()


@dataclass
class Board:
    """The kept parts of the sheet (the deal header and the table; the standings, settle-up
    and chart; the game's navigation) and the two facts the editor's actions need."""

    table: SafeString
    standings: SafeString
    nav: SafeString
    offline: SafeString
    next_deal: int | None  # the number of the next deal, None when no deal can be recorded
    deals: int
    # What the phone of each device should be told of the last change, [device, text] (a
    # value of its correction another phone's overwrote: scorepad/views/common.py).
    notes: list = field(default_factory=list)


def _board(parts: Sequence[str], next_deal: int | None, deals: int, notes: list) -> Board:
    """A board of the rendered parts, in the order of PARTS."""
    table, standings, nav, offline = map(mark_safe, parts)
    return Board(table, standings, nav, offline, next_deal=next_deal, deals=deals, notes=notes)


def cache_key(access) -> str:
    """The game at its version, in this language, through this link, with these rights."""
    game = access.game
    link = "editor" if access.token == game.editor_token else "viewer"
    edit = "edit" if access.can_edit else "view"
    return f"sheet:{STAMP}:{game.pk}:{game.version}:{get_language()}:{link}:{edit}"


def full_sheet(game: Game) -> Sheet:
    """The sheet of a game, loading its seats, deals and scores unless they are loaded; built
    once in a request from the rows a change pinned for this version (scorepad/reading.py)."""
    pinned = reading.pinned(game)
    if pinned is not None:
        return reading.once(game, "sheet", lambda: build_sheet(pinned.game))
    loaded = getattr(game, "_prefetched_objects_cache", {})
    if "deals" not in loaded:
        prefetch_related_objects([game], *sheet_prefetch())
    else:  # the deals without their scores (``sheet.deal_prefetch``): one query for all
        deals = [
            d
            for d in loaded["deals"]
            if "scores" not in getattr(d, "_prefetched_objects_cache", {})
        ]
        prefetch_related_objects(deals, "scores")
    return build_sheet(game)


def board(
    request: HttpRequest,
    access,
    context: dict,
    *,
    cacheable: bool = True,
    extra: Callable[[Sheet], dict] | None = None,
    notes: Callable[[], list] | None = None,
) -> Board:
    """The kept parts of ``access.game``'s sheet, from the cache or rendered (and kept).

    ``context`` is the template context of the page; the sheet is built (and ``extra``
    called with it for more context) only when the cache has nothing for this version, or
    when the answer depends on more than the version (``cacheable`` false: a settle-up
    amount typed into the page).
    """
    key = cache_key(access) if cacheable else None
    # A version whose rows its change pinned was made in this request: no phone knew of it
    # before the commit, and after it this answer comes first but for a rare second editor's
    # phone (what that one kept is then rendered again here, and not kept twice).
    pinned = exact(access.game)
    found = _get(key) if key is not None and not pinned else None
    if found is not None:
        return found
    version = access.game.version
    sheet = full_sheet(access.game)
    render_context = {
        **context,
        "sheet": sheet,
        "csrf_token": "",  # none in what is kept: the page around it carries this answer's
        **(extra(sheet) if extra else {}),
    }
    parts = [_part(name, render_context, request) for name in PARTS]
    next_deal = sheet.next_deal.number if sheet.next_deal else None
    found = _board(parts, next_deal, len(sheet.rows), notes() if notes else [])
    # Rows read across another phone's change are not that version's: shown, not kept.
    if key is not None and (pinned or still_at(access.game, version)):
        _set(key, found)
    return found


def _part(name: str, context: dict, request: HttpRequest) -> str:
    """One kept part of the sheet. The standings of a game in play are the same for the
    editor and a viewer (no link, no form in them): rendered once for both when the rows
    are pinned (scorepad/reading.py)."""
    template = f"{TEMPLATE}#{name}"
    game = context["game"]
    if name == "standings" and not game.is_finished:
        return reading.once(game, name, lambda: render_to_string(template, context, request))
    return render_to_string(template, context, request)


def exact(game: Game) -> bool:
    """Whether what is rendered of ``game`` now is certainly its version's: its rows were
    pinned by the change that made the version (no need to ask ``still_at``)."""
    return reading.pinned(game) is not None


def viewer_key(game_pk: int, version: int) -> str:
    """The whole live-update answer of a plain viewer (the viewer link, no session, no
    message waiting): the same for every such phone at this version, in this language."""
    return f"live:{STAMP}:{game_pk}:{version}:{get_language()}:viewer"


def plain_viewer(request: HttpRequest) -> bool:
    """A phone that has no session and no message waiting: what it is shown of a viewer link
    depends on the game's version and the language only (no token, no CSRF token, no note
    for its own phone, no message)."""
    cookies = request.COOKIES
    return settings.SESSION_COOKIE_NAME not in cookies and CookieStorage.cookie_name not in cookies


def get_answer(key: str) -> str | None:
    try:
        blob = cache.get(key)
    except DatabaseError:
        log.warning("the viewer's answer could not be read from the cache; it is rendered")
        return None
    return None if blob is None else _text(blob)


def _text(blob: bytes) -> str:
    """A kept answer as it was rendered (kept compressed)."""
    return zlib.decompress(blob).decode()


# One phone renders a new version's answer for the table; the others wait for it (as a
# caching proxy's request coalescing does: nginx's proxy_cache_lock). Every viewer's phone
# hears of the new version in the same moment from its live stream, so without this each
# of them rendered the same sheet at once.
RENDERING_FOR = 5  # seconds a claim lasts at most (a worker killed while rendering)
WAIT_FOR = 0.5  # seconds a phone waits for another one's rendering, then renders itself
WAIT_STEP = 0.015
# How long the release of a claim may wait for another writer on SQLite (a deal holds the
# lock for milliseconds): the phones waiting for that answer wait for it. The claim and the
# answer kept do not wait: a phone that cannot claim renders, as one that finds no answer.
BRIEF_MS = 50


def _claim_key(key: str) -> str:
    return f"{key}:rendering"


def claim(key: str) -> bool:
    """Whether this answer renders ``key`` (the first to ask) rather than waits for the one
    that does. A cache that cannot take the claim now lets every phone render, as before."""
    try:
        with no_waiting():
            return bool(cache.add(_claim_key(key), 1, RENDERING_FOR))
    except DatabaseError:
        return True


def release(key: str) -> None:
    """The rendering of ``key`` ended (kept or not): the phones waiting stop waiting."""
    try:
        with no_waiting(BRIEF_MS):
            cache.delete(_claim_key(key))
    except DatabaseError:
        log.info("the claim on a viewer's answer was left to expire")


def wait_for_answer(key: str) -> str | None:
    """The answer another phone is rendering, once it is kept (one query a step); None when
    that rendering ended without keeping it, or took longer than WAIT_FOR."""
    claimed = _claim_key(key)
    deadline = time.monotonic() + WAIT_FOR
    while time.monotonic() < deadline:
        time.sleep(WAIT_STEP)
        try:
            found = cache.get_many([key, claimed])
        except DatabaseError:
            return None
        if key in found:
            return _text(found[key])
        if claimed not in found:
            return None
    return None


def keep_answer(key: str, html: str) -> None:
    try:
        with no_waiting():
            add_answer(key, html)
    except DatabaseError:
        log.warning("the viewer's answer was not kept: the cache could not take it now")


def add_answer(key: str, html: str) -> None:
    """Keep a viewer's answer (compressed) unless one is kept under ``key`` already."""
    cache.add(key, zlib.compress(html.encode(), 1), TIMEOUT)


def still_at(game: Game, version: int) -> bool:
    """Whether the game is still at ``version`` after its rows were read: only then is the
    HTML certainly that version's (a change commits its rows and its version together)."""
    return Game.objects.filter(pk=game.pk, version=version).exists()


def _get(key: str) -> Board | None:
    try:
        blob = cache.get(key)
    except DatabaseError:
        log.warning("the sheet cache could not be read; the sheet is rendered")
        return None
    if blob is None:
        return None
    *parts, next_deal, deals, notes = json.loads(zlib.decompress(blob))
    return _board(parts, next_deal, deals, notes)


def _set(key: str, found: Board) -> None:
    # Compressed: the sheet of many deals is tens of KB of HTML, a few KB kept.
    parts = [
        *(found.table, found.standings, found.nav, found.offline),
        *(found.next_deal, found.deals, found.notes),
    ]
    blob = zlib.compress(json.dumps(parts).encode(), 1)

    def keep() -> None:
        cache.add(key, blob, TIMEOUT)

    if reading.later(keep):
        return  # kept with the other writes of this request's change (``write_later``)
    try:
        with no_waiting():
            kept = cache.add(key, blob, TIMEOUT)
    except DatabaseError:
        log.warning("the sheet was not kept: the cache could not take it now")
    else:
        if not kept:  # another worker kept it first, or the database cache was busy
            log.info("the sheet was not kept: the cache had it or was busy")


LATER_WAIT_MS = 200  # how long the writes a change kept wait their turn for SQLite's writer


def write_later(writes: list[Callable[[], None]]) -> None:
    """The cache writes a request that made a change kept for the end of its answer
    (``reading.later``): the viewers' answer with the word to the streams, the kept parts of
    each sheet rendered, in one short transaction. A busy database keeps none of them: the
    phones then render what they ask for, as without them."""
    if not writes:
        return
    try:
        with no_waiting(LATER_WAIT_MS, busy=False), transaction.atomic():
            for write in writes:
                write()
    except DatabaseError:
        log.warning("what a change rendered was not kept: the database was busy")


@contextmanager
def no_waiting(ms: int = 0, *, busy: bool = True) -> Iterator[None]:
    """On SQLite, a write here fails at once (or after ``ms``) instead of waiting for another
    writer as long as every other write does; elsewhere, nothing changes. It waits at most
    ``ms`` for its turn among the app's writers (``continental/sqlite``), and, with
    ``busy``, as long for SQLite's lock held by a writer that takes no turn (another
    program): its ``busy_timeout``, set and set back (three ``PRAGMA`` statements). Without
    ``busy`` it waits for such a writer as every write of the app does: the writes a change
    kept (``write_later``), which its answer waits for anyway."""
    if connection.vendor != "sqlite":
        yield
        return
    turns = getattr(connection, "writer_wait", None)
    with turns(ms / 1000) if turns is not None else nullcontext():
        if not busy:
            yield
            return
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA busy_timeout")
            waited = cursor.fetchone()[0]
            cursor.execute(f"PRAGMA busy_timeout = {int(ms)}")
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute(f"PRAGMA busy_timeout = {int(waited)}")
