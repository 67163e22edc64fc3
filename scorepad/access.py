"""Who may see and change a shared thing: a game, an evening, a circle (``kernel.Shared``).

No accounts: a thing is reached through its viewer link or its editor link (random tokens of
144 bits, revocable), and the session of the phone that started it grants editor rights on
any of its links. A cookie remembers the links a phone opened, for its lists.

One resolver (``resolve``) and one view decorator (``shared_view``) for every kind; what
differs between the kinds is one ``Kind`` each: the session's list of the things a phone
started, the page a 403 shows, what a page reads with the thing.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.conf import settings
from django.core import signing
from django.db import connection, transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _

from .kernel import Shared
from .models import Actor, Circle, Evening, Game, Tournament
from .sheet import deal_prefetch, sheet_prefetch
from .tokens import LINK

SEEN = "scorepad_seen"  # cookie: the links this phone opened, newest last, "."-separated
DEVICE = "scorepad_device"  # a short random name of this phone for the history
SEEN_MAX = 40
EDITOR_LINK_SHOWN = "_scorepad_editor_link_shown"


@dataclass(frozen=True)
class Kind:
    """What the access of one kind of shared thing has of its own."""

    model: type[Shared]
    page: str  # the name of its page's URL
    created: str  # the session's key: the ids of the things of this kind this phone started
    forbidden: str  # the template of the 403 page, which says what the link can do
    # What a page reads with the thing: ``read(queryset, full, deals)``.
    read: Callable[[Any, bool, bool], Any]


def _read_game(found: Any, full: bool, deals: bool) -> Any:
    """A game with its sheet's rows (``full``), or its seats and deals only (``deals``), and
    its table of a tournament if it is one (``closed_by_confirmation``), in the same query."""
    rows = deal_prefetch() if deals else sheet_prefetch() if full else []
    return found.select_related("tournament_table").prefetch_related(*rows)


def _read_evening(found: Any, full: bool, deals: bool) -> Any:
    from .evenings import evening_prefetch

    found = found.select_related("next_evening", "previous", "circle")
    return found.prefetch_related(*evening_prefetch())


GAMES = Kind(Game, "game", "scorepad_games", "scorepad/forbidden.html", _read_game)
EVENINGS = Kind(
    Evening, "evening", "scorepad_evenings", "scorepad/evening_forbidden.html", _read_evening
)
CIRCLES = Kind(
    Circle, "circle", "scorepad_circles", "scorepad/circle_forbidden.html", lambda q, f, d: q
)
TOURNAMENTS = Kind(
    Tournament,
    "tournament",
    "scorepad_tournaments",
    "scorepad/tournament_forbidden.html",
    lambda q, f, d: q.select_related("circle"),
)
KINDS = {kind.model: kind for kind in (GAMES, EVENINGS, CIRCLES, TOURNAMENTS)}


@dataclass
class Access:
    """A shared thing as one phone reaches it: through which link, with which rights."""

    shared: Any  # a kernel.Shared: a Game, an Evening, a Circle or a Tournament
    token: str
    role: str  # "editor" or "viewer"
    via: str  # "creator", or the kind of link: "editor_link", "viewer_link", ...

    @property
    def can_edit(self) -> bool:
        return self.role == "editor"

    @property
    def game(self) -> Game:
        assert isinstance(self.shared, Game)
        return self.shared

    @property
    def evening(self) -> Evening:
        assert isinstance(self.shared, Evening)
        return self.shared

    @property
    def circle(self) -> Circle:
        assert isinstance(self.shared, Circle)
        return self.shared

    @property
    def tournament(self) -> Tournament:
        assert isinstance(self.shared, Tournament)
        return self.shared


def created_ids(request: HttpRequest, kind: Kind = GAMES) -> list[int]:
    """The things of ``kind`` this phone started (its session)."""
    return list(request.session.get(kind.created, []))


def seen_tokens(request: HttpRequest) -> list[str]:
    """The links this phone opened, oldest first, from its cookie (not the session: opening
    a link stores nothing on the server)."""
    raw = request.COOKIES.get(SEEN, "")
    return [token for token in raw.split(".") if LINK.fullmatch(token)][-SEEN_MAX:]


def editor_link_shown(request: HttpRequest) -> None:
    """This answer holds an editor link (a page an editor sees, a list of the phone's
    games, a redirect to a new game): ``private_to_editors`` keeps it out of every cache."""
    setattr(request, EDITOR_LINK_SHOWN, True)


def private_to_editors(view):
    """``Cache-Control: no-store`` (and no-cache, private) on an answer that holds an editor
    link, so that no browser or proxy cache keeps the key to change a game."""

    @wraps(view)
    def inner(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        response = view(request, *args, **kwargs)
        if getattr(request, EDITOR_LINK_SHOWN, False):
            add_never_cache_headers(response)
        return response

    return inner


AGAIN_SALT = "scorepad.play-again"
CIRCLE_SALT = "scorepad.circle-game"


def _digest(token: str) -> str:
    """A short fingerprint of a link: a reference made with it dies with the link."""
    return hashlib.sha256(token.encode()).hexdigest()[:16]


def again_reference(game: Game, *, editor: bool = False) -> str:
    """What "Play again with the same players" carries to the new-game page instead of a
    link of the game: the game's id, signed. It opens nothing (no sheet, no change), only
    fills in a new game's form; it stays the same for a game at one version, so the sheet's
    kept rendering (scorepad/board.py) may hold it. An editor's reference of a circle's game
    also starts the new game in the circle (until the game's editor link is replaced); a
    viewer's gives the names only."""
    if editor and game.circle_id is not None:
        return _sign([game.pk, _digest(game.editor_token)], AGAIN_SALT)
    return _sign(game.pk, AGAIN_SALT)


def _sign(value: object, salt: str) -> str:
    """``value`` signed with no time in it: the same game gives the same reference in every
    second, so a kept rendering and the page a phone was sent agree (``signing.dumps``
    stamps the time)."""
    return signing.Signer(salt=salt).sign_object(value, compress=False)


def _unsign(value: str, salt: str) -> object:
    """What ``_sign`` signed; a reference made before it (with the time in it, which was
    never checked) is still read. Raises ``signing.BadSignature``."""
    if value.count(":") == 2:  # value:time:signature
        return signing.loads(value, salt=salt)
    return signing.Signer(salt=salt).unsign_object(value)


def again_game(value: str) -> tuple[Game | None, bool]:
    """The game of a "Play again" reference, or of an old link with the game's token in it
    (such an answer holds a link: never cached), and whether the new game is to be in the
    game's circle (an editor's reference or link); (None, False) for anything else."""
    if LINK.fullmatch(value):
        found = Game.objects.by_token(value).first()
        if found is not None:
            return found, value == found.editor_token and found.circle_id is not None
    try:
        loaded = _unsign(value, AGAIN_SALT)
    except signing.BadSignature:
        return None, False
    if isinstance(loaded, int) and not isinstance(loaded, bool):
        return Game.objects.filter(pk=loaded).first(), False
    if isinstance(loaded, list) and len(loaded) == 2 and isinstance(loaded[0], int):
        game = Game.objects.filter(pk=loaded[0]).first()
        if game is None:
            return None, False
        return game, game.circle_id is not None and loaded[1] == _digest(game.editor_token)
    return None, False


def circle_reference(circle: Circle, *, game: Game | None = None) -> str:
    """What the new-game and new-evening pages carry to act in ``circle``, signed (no link).
    Made for the circle's editor (``game`` None): its id with the fingerprint of the circle's
    editor link; it dies with that link, and an evening started with it is offered every
    game of the circle. Made from one game's editor link ("Play again", an evening started
    from the game): the game's id with the fingerprint of the game's editor link; it dies
    with that link, starts games in the game's circle, and an evening started with it is
    offered only the circle's games this phone holds an editor link of (the grant table,
    docs/architecture.md)."""
    if game is not None:
        return _sign(["game", game.pk, _digest(game.editor_token)], CIRCLE_SALT)
    return _sign([circle.pk, _digest(circle.editor_token)], CIRCLE_SALT)


@dataclass
class CircleGrant:
    """A circle reference read: the circle, and the game whose editor link made it (None
    when the circle's editor made it: then it grants what the circle's editor link does)."""

    circle: Circle
    game: Game | None = None

    @property
    def whole_circle(self) -> bool:
        return self.game is None

    def reference(self) -> str:
        return circle_reference(self.circle, game=self.game)


def circle_grant(value: str) -> CircleGrant | None:
    """The circle a reference of ``circle_reference`` names and what it grants; None for a
    reference whose link was replaced, or for anything else."""
    try:
        loaded = _unsign(value[:300], CIRCLE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(loaded, list):
        return None
    if len(loaded) == 3 and loaded[0] == "game" and _is_id(loaded[1]):
        game = Game.objects.filter(pk=loaded[1]).select_related("circle").first()
        if game is None or game.circle is None or loaded[2] != _digest(game.editor_token):
            return None
        return CircleGrant(game.circle, game)
    if len(loaded) == 2 and _is_id(loaded[0]):
        circle = Circle.objects.filter(pk=loaded[0]).first()
        if circle is None or loaded[1] != _digest(circle.editor_token):
            return None
        return CircleGrant(circle)
    return None


def _is_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def reference_circle(value: str) -> Circle | None:
    """The circle a reference names, whoever made it (both start a game in the circle)."""
    grant = circle_grant(value)
    return grant.circle if grant is not None else None


EVENING_SALT = "scorepad.evening-game"


def evening_reference(evening: Evening) -> str:
    """What "Next game" of an evening's editor carries to the new-game page, signed (no
    link): the evening's id with the fingerprint of its editor link. It starts a game
    seated as the evening's last game, in the evening's circle, counted in the evening from
    its start; it grants nothing else (not the circle editor's reference), and it dies
    with the evening's editor link (the grant table, docs/architecture.md)."""
    return _sign([evening.pk, _digest(evening.editor_token)], EVENING_SALT)


def evening_grant(value: str) -> Evening | None:
    """The evening a reference of ``evening_reference`` names, while its editor link is the
    one it was made with; None for anything else."""
    try:
        loaded = _unsign(value[:300], EVENING_SALT)
    except signing.BadSignature:
        return None
    if not (isinstance(loaded, list) and len(loaded) == 2 and _is_id(loaded[0])):
        return None
    evening = Evening.objects.filter(pk=loaded[0]).select_related("circle").first()
    if evening is None or loaded[1] != _digest(evening.editor_token):
        return None
    return evening


def remember_created(request: HttpRequest, shared: Shared) -> None:
    """This phone started ``shared``: it is this phone's editor from now on."""
    editor_link_shown(request)
    kind = KINDS[type(shared)]
    ids = created_ids(request, kind)
    if shared.pk not in ids:
        request.session[kind.created] = [*ids, shared.pk]


def remember_seen(request: HttpRequest, response: HttpResponse, token: str) -> None:
    """Add a link to the phone's list of opened links, a cookie as long-lived as a session."""
    seen = seen_tokens(request)
    if token in seen:
        return
    response.set_cookie(
        SEEN,
        ".".join([*seen, token][-SEEN_MAX:]),
        max_age=settings.SESSION_COOKIE_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


# What kind of phone or computer a browser runs on, read from its User-Agent once, when the
# phone is first named: the history then says "an iPhone (3f2a)" rather than a bare code.
# Only one of these words is kept, never the User-Agent itself.
FAMILIES = (
    ("ipad", re.compile(r"\biPad\b")),
    ("iphone", re.compile(r"\biPhone\b")),
    ("android", re.compile(r"\bAndroid\b")),
    ("chromebook", re.compile(r"\bCrOS\b")),
    ("windows", re.compile(r"\bWindows\b")),
    ("mac", re.compile(r"\bMacintosh\b|\bMac OS X\b")),
    ("linux", re.compile(r"\bLinux\b")),
)
DEVICE_SHAPE = re.compile(r"(?:(?P<family>[a-z]+)-)?(?P<code>[0-9a-f]{4,6})")


def family_of(user_agent: str) -> str:
    for family, pattern in FAMILIES:
        if pattern.search(user_agent[:512]):
            return family
    return "phone"


def device(request: HttpRequest) -> str:
    """This phone's name in the history: its kind and four random hex digits, "iphone-3f2a"
    (older phones kept six digits alone)."""
    name = request.session.get(DEVICE)
    if not name:
        family = family_of(request.headers.get("User-Agent", ""))
        name = request.session[DEVICE] = f"{family}-{secrets.token_hex(2)}"
    return name


# Who the history names for a change made through each kind of access.
ACTOR_ROLES = {"creator": "creator", "registration_link": "registration", "player_link": "player"}


def actor(request: HttpRequest, access: Access) -> Actor:
    return Actor(role=ACTOR_ROLES.get(access.via, "editor_link"), device=device(request))


def resolve(
    request: HttpRequest,
    token: str,
    *,
    kind: Kind = GAMES,
    full: bool = True,
    lock: bool = False,
    deals: bool = False,
) -> Access:
    """The thing of ``kind`` behind a link and this phone's rights on it; 404 for an
    unknown link. What its page reads comes along (``Kind.read``: for a game, with
    ``full`` its sheet's rows, with ``deals`` its seats and deals only); with ``lock``
    (inside a transaction) its row is locked by the same query that reads it (PostgreSQL's
    FOR UPDATE; SQLite's IMMEDIATE transaction holds the database's write lock already)."""
    manager: Any = kind.model._default_manager  # its SharedQuerySet's
    found = manager.by_token(token)
    if lock:
        found = found.select_for_update(of=("self",))
    shared = kind.read(found, full, deals).one()
    if shared is None:
        raise Http404("nothing behind this link")
    if shared.pk in created_ids(request, kind):
        editor_link_shown(request)
        return Access(shared, token, "editor", "creator")
    if token == shared.editor_token:
        editor_link_shown(request)
        return Access(shared, token, "editor", "editor_link")
    # Any other kind of link (a tournament's registration link) looks, as a viewer's does.
    which = next((w for w, f in shared.LINKS.items() if getattr(shared, f) == token), "viewer")
    return Access(shared, token, "viewer", f"{which}_link")


def forbidden(request: HttpRequest, access: Access) -> HttpResponse:
    """403: this link may look, not change; the page says what it can do."""
    template = KINDS[type(access.shared)].forbidden
    return render(request, template, {"access": access}, status=403)


def shared_view(
    kind: Kind = GAMES, *, editor: bool = False, full: bool = True, get_deals: bool = False
):
    """Resolve the link of the URL into ``access``; with ``editor``, viewers get a 403. A
    POST (every write) runs in one transaction whose first query reads and locks the thing
    behind the link: reading the state, the one-time token's check, the form's checks
    against the state and the change are one step, so a copy of a form sent again while the
    first is saved waits for it, then finds its token and is "already done". What the write
    registered with ``transaction.on_commit`` runs as that transaction commits, before the
    answer is rendered (``common.LaterResponse``). ``get_deals``: a game's GET reads the
    seats and deals only (a new deal's form and its preview), a POST all its rows."""

    def decorate(view):
        @wraps(view)
        @private_to_editors
        def inner(request: HttpRequest, token: str, *args, **kwargs) -> HttpResponse:
            if request.method != "POST":
                access = resolve(request, token, kind=kind, full=full, deals=get_deals)
                return guarded(request, access, *args, **kwargs)
            # On SQLite the thing and its rows are read before the transaction
            # (``read_ahead``): the writer's lock is held for the change, not the reading.
            ahead = read_ahead(request, token, kind, full)
            with transaction.atomic():
                access = ahead or resolve(request, token, kind=kind, full=full, lock=True)
                return guarded(request, access, *args, **kwargs)

        def guarded(request: HttpRequest, access: Access, *args, **kwargs) -> HttpResponse:
            if editor and not access.can_edit:
                return forbidden(request, access)
            if request.method == "POST" and closed_by_confirmation(request, access):
                from .views.writes import ERROR, answer

                message = _("This series is confirmed; the director can correct it.")
                return answer(request, access, "gone", message, ERROR)
            return view(request, access, *args, **kwargs)

        return inner

    return decorate


def closed_by_confirmation(request: HttpRequest, access: Access) -> bool:
    """Whether ``access`` is a tournament table's game whose result a player confirmed at
    its version now: closed to the table's links (a late outbox replay included); the
    director's phone (it started the tournament) may still correct it, which voids the
    confirmation."""
    table = (
        getattr(access.shared, "tournament_table", None)
        if isinstance(access.shared, Game)
        else None
    )
    if table is None or table.confirmed_version != access.shared.version:
        return False
    return not directs(request, table.tournament_id)


DIRECTING = "scorepad_directing"  # session: {tournament id: the director's link it opened}


def remember_directing(request: HttpRequest, access: Access) -> None:
    """A phone that opened a tournament through its director's link directs it: it may
    correct a confirmed table's game (``closed_by_confirmation``) while that link holds."""
    if access.via != "editor_link":
        return
    held = request.session.get(DIRECTING, {})
    if held.get(str(access.shared.pk)) != access.token:
        request.session[DIRECTING] = {**held, str(access.shared.pk): access.token}


def directs(request: HttpRequest, tournament_id: int) -> bool:
    """Whether this phone directs the tournament: it started it (its session), or opened
    its director's link, which has not been replaced since."""
    if tournament_id in created_ids(request, TOURNAMENTS):
        return True
    token = request.session.get(DIRECTING, {}).get(str(tournament_id))
    return bool(token) and Tournament.objects.filter(pk=tournament_id, editor_token=token).exists()


def game_view(*, editor: bool = False, full: bool = True, get_deals: bool = False):
    """``shared_view`` of a game."""
    return shared_view(GAMES, editor=editor, full=full, get_deals=get_deals)


def read_ahead(request: HttpRequest, token: str, kind: Kind, full: bool) -> Access | None:
    """On SQLite, a POST's thing and its rows read before its transaction takes the one
    writer lock (on PostgreSQL the lock is the thing's row alone: nothing to gain). WAL
    readers wait for no writer, so the lock is held only for what the change itself does
    (at 1,500 tables the POSTs' wait for it fell p95 27 -> 15 ms,
    ``bench/results/push-read-ahead-sqlite.txt``). None for a link that leads nowhere (the
    transaction then says so as before), and for a view that reads the thing alone
    (``full`` false: one query either way).

    Nothing asks again under the lock whether the thing is still at the version it was
    read at: the change's own ``UPDATE`` does (``kernel.Shared.change``). Every change
    moves the version in the transaction that changes the rows, so when that update finds
    the form's version, nothing changed since the rows were read at it (a thing read at
    another version than the form's has its rows read again, ``Game.loaded_rows``); when
    it does not, the write is stale and the thing is read again, under the lock, for the
    answer. What the view checks before it from the rows read ahead is only what it tells
    the phone, never what it writes."""
    if connection.vendor != "sqlite" or not full:
        return None
    try:
        return resolve(request, token, kind=kind, full=full)
    except Http404:
        return None


def known(request: HttpRequest, kind: Kind, queryset: Any) -> list[Any]:
    """The things of ``queryset`` this phone started or opened a link of, each with
    ``link_token`` (the editor link where the phone may change it) and ``can_edit``."""
    ids, seen = created_ids(request, kind), seen_tokens(request)
    if not ids and not seen:
        return []
    found = list(queryset.known_to(ids, seen))
    seen_set = set(seen)
    for shared in found:
        shared.can_edit = shared.pk in ids or shared.editor_token in seen_set
        shared.link_token = shared.editor_token if shared.can_edit else shared.viewer_token
        if shared.can_edit:
            editor_link_shown(request)
    return found


def known_games(request: HttpRequest, queryset=None) -> list[Game]:
    """The games this phone created or opened a link of, each with ``link_token`` to reach it."""
    return known(
        request, GAMES, (Game.objects.all() if queryset is None else queryset).with_seats()
    )


def is_editor(request: HttpRequest, shared: Shared) -> bool:
    """Whether this phone holds the editor rights of ``shared``: it started it, or it
    opened its editor link (its cookie of opened links)."""
    kind = KINDS[type(shared)]
    return shared.pk in created_ids(request, kind) or shared.editor_token in seen_tokens(request)
