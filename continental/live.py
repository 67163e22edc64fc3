"""The live streams: Server-Sent Events that tell every open sheet and evening page at once
when its version changed. A plain ASGI app (not Django's request handler), run by uvicorn in
a process of its own next to gunicorn (``manage.py serve`` starts both):

    python -m continental.liveserver --port 8001   (uvicorn behind its accept loop)

``GET /live/games/<link>`` and ``GET /live/evenings/<link>`` check the link with one query
when a stream opens, then cost no query while nothing changes. One change feed per process
tells the streams what changed (``Feed``): on PostgreSQL one ``LISTEN scorepad_live``
connection (a trigger of migration 0009 sends ``NOTIFY`` in the writing transaction, so every
stream process on the database hears every app server's changes); on SQLite one watcher
reads every new ``LiveChange`` row (written by the same trigger) with one query every
``LIVE_POLL_INTERVAL`` seconds.

An event's id is the version the page should show (an evening's: its version and the sum of
its games' versions, ``"4.37"``); a reconnect whose ``Last-Event-ID`` (or ``?v=``) differs is
sent the current one at once. Every stream begins with that event, so a page that gets no
first event within a few seconds knows a proxy buffers it and polls instead
(``static/js/live.js``). A replaced link ends its stream with ``event: replaced``.
Every ``LIVE_CHECK`` seconds the process reads the versions of all it follows once (one query
per kind), so a change the feed missed still reaches the phones; the pages then need no poll
of their own. An ``event: beat`` after ``LIVE_HEARTBEAT`` seconds without an event keeps
proxies from closing the stream and tells the page it is alive (no beat for a while: the
page polls and opens a new stream), ``retry:`` with jitter spreads the reconnects after a restart, and a stream ends after ``LIVE_LIFETIME``
seconds (the browser reconnects at once with its ``Last-Event-ID``). Limits: at most
``LIVE_PER_ADDRESS`` streams per client address (429) and, below the open-files limit
(raised to its hard limit at start), at most ``max_streams()`` in all (503); both with
``Retry-After``, so the page polls meanwhile. Every connection, a stream or not, counts in
the limits of its server (``continental/liveserver.py``: a connection without a whole request
is closed after ``LIVE_REQUEST_TIMEOUT``), and what is refused is logged as one line of counts
per ``LIVE_LOG_EVERY`` seconds (``refusals``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import random
import re
import resource
import time
import urllib.parse
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "continental.settings")
django.setup()

from django.conf import settings  # noqa: E402
from django.db import close_old_connections, connection  # noqa: E402
from django.db.models import Q, Subquery  # noqa: E402
from django.http.request import split_domain_port, validate_host  # noqa: E402
from django.utils import translation  # noqa: E402

from scorepad import board  # noqa: E402
from scorepad.models import LIVE_CHANNEL, Evening, EveningGame, Game, LiveChange  # noqa: E402
from scorepad.tournaments import Table, Tournament  # noqa: E402
from scorepad.views.tournaments import carried_part  # noqa: E402

log = logging.getLogger("continental.live")

TOKEN = re.compile(r"^/live/(games|evenings|tournaments)/([A-Za-z0-9_-]{20,64})/?$")
KINDS = {"games": "g", "evenings": "e", "tournaments": "t"}
FD_MARGIN = 64  # files kept free for the database, the listening socket, logs


def raise_open_files() -> int:
    """Raise this process's open-files limit to its hard limit; return the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = 1 << 20 if hard == resource.RLIM_INFINITY else hard
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def max_connections() -> int:
    """Connections this process holds at most, whatever their state (continental/liveserver.py
    refuses the next at once): half of FD_MARGIN from the open-files limit, so the streams'
    own limit (``max_streams``) still answers its 503 through the app before it."""
    return max(1, resource.getrlimit(resource.RLIMIT_NOFILE)[0] - FD_MARGIN // 2)


class Refusals:
    """What the process refused or closed, by reason: one log line per ``LIVE_LOG_EVERY``
    seconds with the counts, however many (a burst of 450 refusals is one line, not 450
    tracebacks)."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = defaultdict(int)
        self.total = 0
        self.logged = -1e9

    def add(self, reason: str) -> None:
        self.counts[reason] += 1
        self.total += 1
        self.flush()

    def flush(self) -> None:
        now = time.monotonic()
        if self.counts and now - self.logged >= settings.LIVE_LOG_EVERY:
            seen = ", ".join(f"{reason}: {n}" for reason, n in sorted(self.counts.items()))
            log.warning(
                "live streams refused or closed (at most one line per %g s): %s",
                settings.LIVE_LOG_EVERY,
                seen,
            )
            self.counts.clear()
            self.logged = now


refusals = Refusals()


def max_streams() -> int:
    """Streams this process holds at most: LIVE_MAX_STREAMS, never closer to the open-files
    limit than FD_MARGIN."""
    limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0] - FD_MARGIN
    wanted = settings.LIVE_MAX_STREAMS
    return max(1, min(limit, wanted) if wanted else limit)


# --- the database, in threads (Django's connections are per thread) ----------------------

_queries = ThreadPoolExecutor(max_workers=4, thread_name_prefix="live-query")
_watcher = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-watch")


def _fresh(fn, *args):
    close_old_connections()
    try:
        return fn(*args)
    except Exception:
        connection.close()  # a lost connection: the next call opens a new one
        raise


async def in_thread(fn, *args, pool=_queries):
    return await asyncio.get_running_loop().run_in_executor(pool, _fresh, fn, *args)


def game_by_link(token: str) -> tuple[int, int] | None:
    return Game.objects.by_token(token).order_by().values_list("id", "version").first()


def evening_by_link(token: str) -> tuple[int, int] | None:
    rows = Evening.objects.filter(Q(viewer_token=token) | Q(editor_token=token))
    return rows.order_by().values_list("id", "version").first()


def evening_games(evening_id: int) -> dict[int, int]:
    """The versions of an evening's games, by game id (one query)."""
    rows = EveningGame.objects.filter(evening_id=evening_id).values_list("game_id", "game__version")
    return dict(rows)


def tournament_by_link(token: str) -> tuple[int, int] | None:
    return Tournament.objects.by_token(token).order_by().values_list("id", "version").first()


def tournament_games(tournament_id: int) -> dict[int, int]:
    """The versions of the games of a tournament's series in play, by game id (one query)."""
    current = Tournament.objects.filter(pk=tournament_id).values("current")[:1]
    rows = Table.objects.filter(tournament_id=tournament_id, series=Subquery(current))
    return dict(rows.values_list("game_id", "game__version"))


BY_LINK = {"g": game_by_link, "e": evening_by_link, "t": tournament_by_link}
GAMES_OF = {"e": evening_games, "t": tournament_games}  # the kinds that follow games
MODELS: dict[str, Any] = {"g": Game, "e": Evening, "t": Tournament}


def links_of(kind: str, pk: int) -> set[str]:
    model = MODELS[kind]
    fields = model.LINKS.values() if kind == "t" else ("viewer_token", "editor_token")
    row = model.objects.filter(pk=pk).values_list(*fields).first()
    return set(row) if row else set()


def answers_of(pk: int, version: int, languages: set[str]) -> dict[str, str]:
    """The viewers' answers of a game's version kept in its change's transaction
    (``scorepad/warm.py``), by language: those of ``languages`` that are kept."""
    found = {}
    for language in languages:
        with translation.override(language):
            html = board.get_answer(board.viewer_key(pk, version))
        if html is not None:
            found[language] = html
    return found


def versions_of(kind: str, ids: list[int]) -> dict[int, int]:
    model = MODELS[kind]
    found: dict[int, int] = {}
    for start in range(0, len(ids), 5000):  # below every database's bound on parameters
        rows = model.objects.filter(pk__in=ids[start : start + 5000]).values_list("id", "version")
        found.update(rows)
    return found


# --- the hub: who listens to what, in this process ----------------------------------------


class Stream:
    """One open stream: what it follows and a queue of what to send."""

    def __init__(
        self,
        kind: str,
        token: str,
        pk: int,
        version: int,
        address: str,
        language: str | None = None,
    ):
        self.kind, self.token, self.pk, self.version, self.address = (
            kind,
            token,
            pk,
            version,
            address,
        )
        # A plain viewer's sheet (``?l=``, the page's language): its events carry the new
        # sheet itself when the change kept it for viewers in that language.
        self.language = language
        self.games: dict[int, int] = {}  # an evening's (a tournament's) games and versions
        self.wake = asyncio.Event()
        self.replaced = False

    def event_id(self) -> str:
        if self.kind == "g":
            return str(self.version)
        return f"{self.version}.{sum(self.games.values())}"

    def followed(self) -> list[tuple[str, int]]:
        return [(self.kind, self.pk)] + [("g", gid) for gid in self.games]


class Hub:
    def __init__(self) -> None:
        self.listeners: dict[tuple[str, int], set[Stream]] = defaultdict(set)
        self.latest: dict[tuple[str, int], int] = {}
        self.by_address: dict[str, int] = defaultdict(int)
        self.count = 0
        self.closing: asyncio.Event | None = None  # set when the process stops
        self.opened = 0
        self.delivered = 0
        # game id -> (version, {language: the viewers' answer}): read once per change for
        # every plain viewer's stream of the game, dropped with the game's last stream.
        self.sheets: dict[int, tuple[int, dict[str, str]]] = {}
        # tournament id -> (its event id, {language: its live part}): rendered once per state
        # for every stream of the tournament (``render_parts``), dropped with its last stream.
        self.parts: dict[int, tuple[str, dict[str, str]]] = {}
        self.rendering: set[int] = set()  # the tournaments whose part is being rendered
        self.again: set[int] = set()  # ... and changed meanwhile: rendered once more after
        # The plain viewers' streams whose event of a version waits for its viewers' answer
        # to be kept (scorepad/warm.py keeps it just after the change's commit and says so:
        # kind "s"), by (game id, version); and the newest version said kept, by game id.
        self.held: dict[tuple[int, int], set[Stream]] = {}
        self.kept: dict[int, int] = {}

    def add(self, stream: Stream) -> None:
        for key in stream.followed():
            self.listeners[key].add(stream)

    def remove(self, stream: Stream) -> None:
        for key in stream.followed():
            group = self.listeners.get(key)
            if group is not None:
                group.discard(stream)
                if not group:
                    del self.listeners[key]
                    if key[0] == "g":
                        self.sheets.pop(key[1], None)
                        self.kept.pop(key[1], None)
                    elif key[0] == "t":
                        self.parts.pop(key[1], None)

    def seen(self, key: tuple[str, int], version: int) -> None:
        """The newest version this process knows of ``key`` (from the feed or a stream's
        first query): what the catch-up compares with."""
        if version > self.latest.get(key, 0):
            if len(self.latest) > 200_000:
                self.latest.clear()
            self.latest[key] = version

    async def publish(self, kind: str, pk: int, version: int, revoked: bool) -> None:
        if kind == "s":
            await self.answer_kept(pk, version)
            return
        key = (kind, pk)
        self.seen(key, version)
        group = self.listeners.get(key)
        if not group:
            return
        links = await in_thread(links_of, kind, pk) if revoked else None
        held: set[Stream] = set()
        if kind == "g" and not revoked:
            await self.read_sheets(pk, version, group)
            held = self.hold(pk, version, group)
        tournaments: set[int] = set()
        for stream in list(group):
            if stream in held:
                continue
            if self.waits_for_part(stream, kind, pk, version, links):
                tournaments.add(stream.pk)
                continue
            mine = stream.kind == kind and stream.pk == pk
            if links is not None and mine and stream.token not in links:
                stream.replaced = True
                stream.wake.set()
            elif mine:
                await self.advance(stream, version)
            elif kind == "g" and pk in stream.games and version > stream.games[pk]:
                stream.games[pk] = version
                stream.wake.set()
        for tournament in tournaments:
            self.render_later(tournament)

    async def advance(self, stream: Stream, version: int) -> None:
        """A stream's own thing is at ``version`` now."""
        if version > stream.version:
            stream.version = version
            if stream.kind in GAMES_OF:
                # Its games may have changed: ask once for this stream.
                self.remove(stream)
                stream.games = await in_thread(GAMES_OF[stream.kind], stream.pk)
                self.add(stream)
            stream.wake.set()

    @staticmethod
    def waits_for_part(
        stream: Stream, kind: str, pk: int, version: int, links: set[str] | None
    ) -> bool:
        """A tournament's stream (its page's language known) behind ``version`` of what it
        follows, whose event waits for the live part, rendered once for all its streams
        (``render_later``); not one whose link was replaced (it is told so at once)."""
        if stream.kind != "t" or not stream.language:
            return False
        mine = kind == "t" and stream.pk == pk
        if mine and links is not None and stream.token not in links:
            return False
        return version > (stream.version if mine else stream.games.get(pk, version))

    def render_later(self, pk: int) -> None:
        """The live part of tournament ``pk`` rendered again for its streams, in a task of its
        own (the feed reads on meanwhile); changes that come while it renders are rendered
        once more after it, together, however many came."""
        if pk in self.rendering:
            self.again.add(pk)
            return
        self.rendering.add(pk)
        asyncio.get_running_loop().create_task(self.render_parts(pk))

    async def render_parts(self, pk: int) -> None:
        """Render tournament ``pk``'s live part once per language its streams speak
        (``scorepad.views.tournaments.carried_part``: a viewer's, no form in it), then each
        stream sends it with the state it shows (the tournament's and its games' versions
        read with it). At most one rendering every ``PART_EVERY`` seconds: the changes of a
        burst (the tables of a series ending together) go as one. A state whose part shows
        nothing new (a deal in the middle of a table's game) wakes no phone: the streams send
        it with their next event or beat. A failure is logged: the streams send the state
        alone, the phones ask."""
        try:
            while True:
                self.again.discard(pk)
                begun = time.monotonic()
                streams = [
                    s for s in self.listeners.get(("t", pk), ()) if s.kind == "t" and s.pk == pk
                ]
                if not streams:
                    return
                languages = {s.language for s in streams if s.language}
                try:
                    version, games, found = await in_thread(carried_part, pk, languages)
                except Exception:
                    log.exception("a tournament's live part could not be rendered; the phones ask")
                    version, games, found = None, None, {}
                seen = False
                if version is not None and games is not None:
                    ident = f"{version}.{sum(games.values())}"
                    seen = self.nothing_new(pk, ident, found)
                    self.seen(("t", pk), version)
                    self.parts[pk] = (ident, found)
                for stream in streams:
                    if version is not None and games is not None and version >= stream.version:
                        if set(games) != set(stream.games):
                            self.remove(stream)
                            stream.games = dict(games)
                            self.add(stream)
                        stream.version = version
                        stream.games.update(games)
                    if not seen:
                        stream.wake.set()
                if pk not in self.again:
                    return
                await asyncio.sleep(max(0.0, begun + PART_EVERY - time.monotonic()))
        finally:
            self.rendering.discard(pk)

    def nothing_new(self, pk: int, ident: str, found: dict[str, str]) -> bool:
        """Whether the part of state ``ident`` shows, in every language, what the part kept
        before shows, but for the state it names."""
        old_ident, old = self.parts.get(pk, ("", {}))
        if not old_ident or not found or set(found) - set(old):
            return False

        def bare(html: str, state: str) -> str:
            for mark in (f'data-live-id="{state}"', f'data-version="{state}"', f'?v={state}"'):
                html = html.replace(mark, "")
            return html

        return all(bare(html, ident) == bare(old[lang], old_ident) for lang, html in found.items())

    async def read_sheets(self, pk: int, version: int, group: set[Stream]) -> None:
        """The new version's viewers' answers for the plain viewers' streams of game ``pk``
        that are behind it: one read per language, however many phones."""
        wanted = {
            s.language
            for s in group
            if s.kind == "g" and s.pk == pk and s.language and version > s.version
        }
        if not wanted:
            return
        try:
            found = await in_thread(answers_of, pk, version, wanted)
        except Exception:
            log.exception("the viewers' answers could not be read; the phones ask for them")
            found = {}
        if found and version >= self.sheets.get(pk, (0, {}))[0]:
            self.sheets[pk] = (version, found)

    def hold(self, pk: int, version: int, group: set[Stream]) -> set[Stream]:
        """The plain viewers' streams of game ``pk`` whose new version's answer is not kept
        yet in their language, when the change's worker may still be keeping it: their event
        waits for its word (``answer_kept``) or ``LIVE_KEPT_WAIT`` seconds, then goes with
        the sheet if it was kept, else with the version alone (the phone asks)."""
        if self.kept.get(pk, 0) >= version:
            return set()
        found = self.sheets.get(pk, (0, {}))
        waiting = {
            s
            for s in group
            if s.language
            and s.kind == "g"
            and s.pk == pk
            and version > s.version
            and not (found[0] == version and s.language in found[1])
        }
        if waiting:
            self.held.setdefault((pk, version), set()).update(waiting)
            asyncio.get_running_loop().call_later(
                settings.LIVE_KEPT_WAIT, self.release, pk, version
            )
        return waiting

    async def answer_kept(self, pk: int, version: int) -> None:
        """A game's viewers' answer of ``version`` is kept: the streams waiting for it read it
        (once per language) and are told."""
        if version > self.kept.get(pk, 0) and ("g", pk) in self.listeners:
            self.kept[pk] = version
        waiting = self.held.get((pk, version))
        if waiting:
            await self.read_sheets(pk, version, waiting)
        self.release(pk, version)

    def release(self, pk: int, version: int) -> None:
        for stream in self.held.pop((pk, version), ()):
            if version > stream.version and stream in self.listeners.get(("g", pk), ()):
                stream.version = version
                stream.wake.set()

    def sheet_for(self, stream: Stream) -> str | None:
        """The sheet this game stream's event may carry: its version's viewers' answer in
        its language, when it was read (an evening's stream has no language); a tournament
        stream's, its live part of the state it sends."""
        if not stream.language:
            return None
        if stream.kind == "t":
            ident, parts = self.parts.get(stream.pk, ("", {}))
            return parts.get(stream.language) if ident == stream.event_id() else None
        version, found = self.sheets.get(stream.pk, (0, {}))
        return found.get(stream.language) if version == stream.version else None

    def subscribed(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = defaultdict(list)
        for kind, pk in self.listeners:
            out[kind].append(pk)
        return out

    async def catch_up(self) -> None:
        """After the feed was lost a while, and once every ``LIVE_CHECK`` seconds whatever
        happened: publish what changed without the feed saying so (one query per kind for
        every followed game and evening of this process), checking the links too (one of
        them may have been replaced meanwhile). This check, not one poll per phone, is the
        safety net under the feed."""
        for kind, ids in self.subscribed().items():
            for pk, version in (await in_thread(versions_of, kind, ids)).items():
                if version > self.latest.get((kind, pk), 0):
                    await self.publish(kind, pk, version, True)


hub = Hub()


# --- the change feed ----------------------------------------------------------------------


class Feed:
    """Reads the changes of every app server and hands them to the hub."""

    def __init__(self) -> None:
        self.task: asyncio.Task | None = None
        self.checker: asyncio.Task | None = None
        self.connected = asyncio.Event()
        self.reconnects = 0

    def start(self) -> None:
        run = self.listen if connection.vendor == "postgresql" else self.watch
        loop = asyncio.get_running_loop()
        self.task = loop.create_task(run())
        self.checker = loop.create_task(self.check())

    async def stop(self) -> None:
        for task in (self.task, self.checker):
            if task:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def check(self) -> None:
        """The versions of everything followed, read again every LIVE_CHECK seconds: a
        change the feed never told (whatever the reason) reaches the phones all the same."""
        every = settings.LIVE_CHECK
        while True:
            await asyncio.sleep(every * (0.9 + 0.2 * random.random()))
            try:
                await hub.catch_up()
            except Exception:
                log.exception("the periodic check of the followed versions failed")

    # SQLite: one query for every change since the last one seen.
    async def watch(self) -> None:
        interval = settings.LIVE_POLL_INTERVAL
        last = await in_thread(_last_change, pool=_watcher)
        self.connected.set()
        pruned = time.monotonic()
        while True:
            await asyncio.sleep(interval)
            try:
                rows = await in_thread(_changes_after, last, pool=_watcher)
            except Exception:
                log.exception("the change feed could not be read; trying again")
                await asyncio.sleep(1)
                continue
            for pk, kind, object_id, version, revoked in rows:
                last = max(last, pk)
                await hub.publish(kind, object_id, version, bool(revoked))
            if time.monotonic() - pruned > 60:
                pruned = time.monotonic()
                with contextlib.suppress(Exception):
                    await in_thread(_prune, last, pool=_watcher)

    # PostgreSQL: LISTEN on a connection of its own; a lost one is opened again.
    async def listen(self) -> None:
        import psycopg

        first = True
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(**_conninfo(), autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {LIVE_CHANNEL}")
                    if not first:
                        self.reconnects += 1
                        await hub.catch_up()
                    first = False
                    self.connected.set()
                    async for note in conn.notifies():
                        kind, pk, version, revoked = note.payload.split(":")
                        await hub.publish(kind, int(pk), int(version), revoked == "1")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.connected.clear()
                log.warning("the change feed's connection was lost (%s); opening it again", exc)
                await asyncio.sleep(0.5 + random.random())


def _last_change() -> int:
    return LiveChange.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


# The watcher's one query, as plain SQL: asked 40 times a second, the ORM's building of it
# cost ten times the query itself (235 against 21 microseconds of CPU, measured).
CHANGES_AFTER = (
    f"SELECT id, kind, object_id, version, revoked FROM {LiveChange._meta.db_table}"
    " WHERE id > %s ORDER BY id LIMIT 5000"
)


def _changes_after(last: int) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(CHANGES_AFTER, [last])
        return list(cursor.fetchall())


def _prune(last: int) -> None:
    LiveChange.objects.filter(pk__lte=last - 10_000).delete()


def _conninfo() -> dict[str, Any]:
    db = settings.DATABASES["default"]
    info = {
        "dbname": db["NAME"],
        "user": db.get("USER") or None,
        "password": db.get("PASSWORD") or None,
        "host": db.get("HOST") or None,
        "port": db.get("PORT") or None,
        "application_name": "scorepad-live",
    }
    return {k: v for k, v in info.items() if v is not None}


feed = Feed()


# --- the ASGI app --------------------------------------------------------------------------


def client_address(scope: dict) -> str:
    hops = settings.TRUSTED_PROXY_HOPS
    if hops:
        for name, value in scope.get("headers", []):
            if name == b"x-forwarded-for":
                parts = [p.strip() for p in value.decode("latin-1").split(",") if p.strip()]
                if len(parts) >= hops:
                    return parts[-hops]
    client = scope.get("client")
    return client[0] if client else "?"


def _header(scope: dict, wanted: bytes) -> str:
    for name, value in scope.get("headers", []):
        if name == wanted:
            return value.decode("latin-1")
    return ""


def _cors(scope: dict) -> list[tuple[bytes, bytes]]:
    """The page and its stream may be on two ports of one host: the page's origin may read
    the stream when its host is one this site serves."""
    origin = _header(scope, b"origin")
    if not origin:
        return []
    host = origin.split("://", 1)[-1]
    domain, _port = split_domain_port(host)
    if domain and validate_host(domain, settings.ALLOWED_HOSTS):
        return [(b"access-control-allow-origin", origin.encode("latin-1")), (b"vary", b"Origin")]
    return []


async def _plain(send, status: int, text: str, extra=()) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"cache-control", b"no-store"),
                *extra,
            ],
        }
    )
    await send({"type": "http.response.body", "body": text.encode()})


def _retry_ms() -> int:
    low, high = settings.LIVE_RETRY_MS
    return random.randint(low, high)


async def app(scope: dict, receive, send) -> None:
    if scope["type"] == "lifespan":
        await _lifespan(receive, send)
        return
    if scope["type"] != "http":
        return
    if scope["method"] not in ("GET", "HEAD"):
        await _plain(send, 405, "GET only", [(b"allow", b"GET")])
        return
    path = scope["path"]
    if path == "/live/health":
        await _plain(send, 200, f"{hub.count} streams\n")
        return
    match = TOKEN.match(path)
    if not match:
        await _plain(send, 404, "Not found")
        return
    cors = _cors(scope)
    address = client_address(scope)
    retry_after = [(b"retry-after", str(random.randint(20, 60)).encode())]
    if hub.count >= max_streams():
        refusals.add("503: streams at their limit")
        await _plain(send, 503, "Too many live streams; the page asks instead.", retry_after + cors)
        return
    if hub.by_address[address] >= settings.LIVE_PER_ADDRESS:
        refusals.add("429: streams from one address at their limit")
        await _plain(send, 429, "Too many live streams from this address.", retry_after + cors)
        return
    hub.count += 1
    hub.by_address[address] += 1
    try:
        await _stream(scope, receive, send, KINDS[match[1]], match[2], address, cors)
    finally:
        hub.count -= 1
        hub.by_address[address] -= 1
        if not hub.by_address[address]:
            del hub.by_address[address]


def _language(scope: dict) -> str | None:
    """``?l=``: the language of a plain viewer's page, one of the site's."""
    query = urllib.parse.parse_qs(scope.get("query_string", b"").decode("latin-1"))
    language = (query.get("l") or [""])[0]
    return language if language in dict(settings.LANGUAGES) else None


async def _stream(scope, receive, send, kind, token, address, cors) -> None:
    try:
        found = await in_thread(BY_LINK[kind], token)
    except Exception as exc:
        # Not a traceback per stream: a database that does not answer meets every one of them.
        refusals.add(f"503: a link could not be checked ({type(exc).__name__}: {str(exc)[:120]})")
        await _plain(send, 503, "The database does not answer.", [(b"retry-after", b"10")])
        return
    if found is None:
        # A dead link: the page stops asking.
        await _plain(send, 204, "", cors)
        return
    pk, version = found
    language = _language(scope) if kind in ("g", "t") else None
    stream = Stream(kind, token, pk, version, address, language)
    if kind in GAMES_OF:
        stream.games = await in_thread(GAMES_OF[kind], pk)
    # A change between the query and now reached the hub: take it.
    hub.seen((kind, pk), version)
    stream.version = hub.latest.get((kind, pk), version)
    for gid in stream.games:
        hub.seen(("g", gid), stream.games[gid])
        stream.games[gid] = hub.latest.get(("g", gid), stream.games[gid])
    hub.add(stream)
    hub.opened += 1
    try:
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"text/event-stream; charset=utf-8"),
                    (b"cache-control", b"no-store"),
                    (b"x-accel-buffering", b"no"),
                    *cors,
                ],
            }
        )
        if scope["method"] == "HEAD":
            await send({"type": "http.response.body", "body": b""})
            return
        first = f"retry: {_retry_ms()}\n" + _event(stream)
        await send({"type": "http.response.body", "body": first.encode(), "more_body": True})
        gone = asyncio.get_running_loop().create_task(_disconnected(receive))
        try:
            await _follow(stream, send, gone)
        finally:
            gone.cancel()
    finally:
        hub.remove(stream)


def _event(stream: Stream, sheet: str | None = None) -> str:
    """The version event; with ``sheet``, its data's lines after the first are that sheet
    (the answer the phone would fetch), so the phone shows it without asking."""
    ident = stream.event_id()
    lines = _data_lines(sheet) if sheet else ""
    return f"id: {ident}\nevent: version\ndata: {ident}{lines}\n\n"


@functools.lru_cache(maxsize=64)
def _data_lines(sheet: str) -> str:
    """``sheet`` as an event's data lines: made once for every stream it goes to (a
    tournament's part of 400 players is about 80 KB, sent to each of its phones)."""
    return "".join(f"\ndata: {line}" for line in LINE_ENDS.split(sheet))


PART_EVERY = 0.5  # seconds between two renderings of a tournament's live part, at least
LINE_ENDS = re.compile(r"\r\n|\r|\n")  # what ends a line in an event stream


def _beat(heartbeat: float) -> str:
    """The heartbeat after ``heartbeat`` seconds without an event: an event the page hears
    (a comment line it would not), saying how many seconds the next one may take; a page
    that hears nothing for several of them knows the stream died without closing."""
    return f"event: beat\ndata: {heartbeat:g}\n\n"


async def _disconnected(receive) -> None:
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return


async def _follow(stream: Stream, send, gone: asyncio.Task) -> None:
    heartbeat = settings.LIVE_HEARTBEAT
    ends = time.monotonic() + settings.LIVE_LIFETIME * (0.9 + 0.2 * random.random())
    sent = stream.event_id()
    closing = asyncio.ensure_future(hub.closing.wait()) if hub.closing else None
    try:
        await _loop(stream, send, gone, closing, heartbeat, ends, sent)
    finally:
        if closing:
            closing.cancel()
    with contextlib.suppress(Exception):  # a phone that left hears nothing more
        await send({"type": "http.response.body", "body": b""})


async def _loop(stream, send, gone, closing, heartbeat, ends, sent) -> None:
    while not gone.done():
        left = ends - time.monotonic()
        if left <= 0:
            break
        waiter = asyncio.ensure_future(stream.wake.wait())
        waits = {waiter, gone, closing} if closing else {waiter, gone}
        done, _pending = await asyncio.wait(
            waits, timeout=min(heartbeat, left), return_when=asyncio.FIRST_COMPLETED
        )
        waiter.cancel()
        if gone in done or (closing and closing in done):
            return
        stream.wake.clear()
        if stream.replaced:
            body = "event: replaced\ndata: replaced\n\n"
            await send({"type": "http.response.body", "body": body.encode(), "more_body": True})
            return
        ident = stream.event_id()
        body = _beat(heartbeat)
        if ident != sent:
            body = _event(stream, hub.sheet_for(stream))
            sent = ident
            hub.delivered += 1
        await send({"type": "http.response.body", "body": body.encode(), "more_body": True})


def _end_streams_on_exit() -> None:
    """uvicorn waits for the open streams before it stops: end them at once on its signal
    (each phone reconnects after its ``retry:``, to this process started again)."""
    import signal

    loop = asyncio.get_running_loop()
    closing = hub.closing = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        previous = signal.getsignal(sig)

        def handler(signum, frame, previous=previous):
            loop.call_soon_threadsafe(closing.set)
            if callable(previous):
                previous(signum, frame)

        signal.signal(sig, handler)


async def _lifespan(receive, send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            limit = raise_open_files()
            _end_streams_on_exit()
            feed.start()
            log.info("live streams: open-files limit %s, at most %s streams", limit, max_streams())
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await feed.stop()
            await send({"type": "lifespan.shutdown.complete"})
            return
