"""Tournaments: set one up, its page (for the director, a viewer and the registration link),
enter a player (the director types the name, or a player's phone scans the registration QR
code), a player who drops out, a player's own page, the links.

Every write goes through ``writes.write`` (the kernel's version and one-time token); forms
post and redirect, no script is needed.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db import transaction
from django.db.models import Sum
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rules.engine.tournament import (
    APART,
    BEST,
    DRAW,
    DROPPED,
    LOT,
    POINTS,
    RELATIVE,
    TournamentError,
)
from rules.engine.tournament import RESULT as RESULT_SEATING
from rules.engine.variants import get_variant
from rules.facts import NAMES
from rules.i18n import engine_message

from ..access import (
    TOURNAMENTS,
    Access,
    circle_grant,
    device,
    editor_link_shown,
    forbidden,
    is_editor,
    private_to_editors,
    remember_created,
    remember_directing,
)
from ..access import shared_view as _shared_view
from ..forms.change import once_token
from ..forms.data import small_int
from ..forms.tournaments import EntrantForm, TournamentForm
from ..kernel import Actor
from ..tournaments import (
    PLAYERS_MAX,
    Entrant,
    EntrantNameTaken,
    NoProposal,
    NotConfirmable,
    SeriesOpen,
    Table,
    TableTooSmall,
    Tournament,
    TournamentClosed,
    TournamentFull,
    TournamentOver,
)
from .common import public_url
from .sheet import _qr
from .writes import (
    ERROR,
    INFO,
    already_done,
    answer,
    incomplete,
    replace_link,
    replayed_start,
    stale_notice,
    used_once,
    write,
)

TEMPLATE = "scorepad/tournament.html"
PLAYER_LINKS = "scorepad_players"  # the session's list: the player links this phone holds


def tournament_view(*, editor: bool = False):
    """``access.shared_view`` of a tournament."""
    return _shared_view(TOURNAMENTS, editor=editor)


def tournament_url(token: str, name: str = "tournament") -> str:
    return reverse(name, kwargs={"token": token})


@require_http_methods(["GET", "POST"])
@private_to_editors
def tournament_new(request: HttpRequest) -> HttpResponse:
    """Set a tournament up; this phone is its director. ``circle`` (a signed reference from
    the circle's page, its editor's) makes it the circle's: its players are the circle's
    people, its tables' games are the circle's games (they count in its ratings)."""
    source = request.POST if request.method == "POST" else request.GET
    reference = source.get("circle", "")
    grant = circle_grant(reference) if reference else None
    if reference and (
        grant is None or not (grant.whole_circle or is_editor(request, grant.circle))
    ):
        messages.error(
            request,
            _("Only the circle's editor link starts its tournament: open the circle's new link."),
        )
        return redirect("home")
    circle = grant.circle if grant is not None else None
    extra = {"circle": circle, "circle_ref": reference if circle is not None else ""}
    if request.method == "POST":
        replay = replayed_start(request, "tournament", "tournament")
        if replay is not None:
            return replay
        form = TournamentForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            with transaction.atomic():
                tournament = Tournament.objects.create(
                    name=data["name"],
                    variant_id=data["variant"],
                    series=data["series"],
                    deals=data["deals"],
                    minutes=data["minutes"],
                    ranking=data["ranking"],
                    seating=data["seating"],
                    circle=circle,
                )
                details = {"name": tournament.name}
                if circle is not None:
                    details["circle"] = circle.name
                tournament.start(
                    actor=Actor("creator", device(request)), once=data["once"], details=details
                )
            remember_created(request, tournament)
            messages.success(request, _("The tournament is set up: players can enter now."))
            return redirect(tournament_url(tournament.editor_token))
    else:
        form = TournamentForm()
        form.initial["once"] = once_token()
    return render(request, "scorepad/tournament_new.html", {"form": form, **extra})


def _held_players(request: HttpRequest, tournament: Tournament) -> list[Entrant]:
    """The players of ``tournament`` whose own links this phone holds."""
    tokens = request.session.get(PLAYER_LINKS, [])
    return list(tournament.entrants.filter(token__in=tokens))


def render_tournament(
    request: HttpRequest,
    access: Access,
    *,
    entrant_form: EntrantForm | None = None,
    notice: str = "",
    status: int = 200,
) -> HttpResponse:
    tournament = access.tournament
    players = tournament.players()
    context: dict[str, Any] = {
        "access": access,
        "variant_name": NAMES[tournament.variant_id],
        "registration": access.via == "registration_link",
        "full": len(players) >= PLAYERS_MAX,
        "mine": _held_players(request, tournament),
        "history": history(tournament, players),
        "entrant_form": entrant_form,
        "notice": notice,
        **page_context(tournament, access.token, can_edit=access.can_edit, players=players),
        # Only the viewers' pages take the part the stream carries (the director's has forms).
        "carried": not access.can_edit,
        "circle_people": _circle_people(tournament) if access.can_edit else [],
    }
    remember_directing(request, access)
    from .tournament_paper import share_context  # that module reads this one's standings

    context.update(share_context(request, access, context.get("standings") or None))
    if access.can_edit:
        registration_url = public_url(request, tournament_url(tournament.registration_token))
        context["registration_url"] = registration_url
        context["registration_qr"] = _qr(registration_url)
        context["viewer_url"] = public_url(request, tournament_url(tournament.viewer_token))
        context["editor_url"] = public_url(request, tournament_url(tournament.editor_token))
    return render(request, TEMPLATE, context, status=status)


HOW = {
    DRAW: gettext_lazy("drawn from the seed %(seed)s"),
    RESULT_SEATING: gettext_lazy("by the running result"),
    APART: gettext_lazy("so that players meet as rarely as possible (ties by the seed %(seed)s)"),
}


def how_seated(details: dict[str, Any], names: dict[int, str]) -> str:
    """How a seating was made, in words, with the seed beside it and the director's swaps
    (a seating's history entry, ``Tournament.propose``, ``swap``, ``start_series``)."""
    how = HOW.get(details.get("how", ""), "")
    text = str(how) % {"seed": details.get("seed", "")} if how else ""
    swaps = [f"{names.get(a, a)} ⇄ {names.get(b, b)}" for a, b in details.get("swaps", [])]
    if swaps:
        text += "; " + _("swapped: %(swaps)s") % {"swaps": ", ".join(swaps)}
    return text


def history(tournament: Tournament, players: list[Entrant]) -> list[Any]:
    """The tournament's last 50 entries, each with ``detail``: what its line says beyond
    its kind and name (the series and how it was seated with its seed, the table and deal
    the director corrected, the table a drop-out left)."""
    names = {p.number: p.name for p in players}
    events = list(tournament.events.all()[:50])
    for event in events:
        d, parts = event.details, []
        if event.kind in ("proposed", "series"):
            parts.append(_("series %(n)d") % {"n": d.get("series", 0)})
            parts.append(how_seated(d, names))
        elif event.kind == "corrected":
            where = _("series %(s)d, table %(t)d") % {"s": d["series"], "t": d["table"]}
            if d.get("deal"):
                where += ", " + _("deal %(n)d") % {"n": d["deal"]}
            parts.append(where)
        elif event.kind == "dropped" and d.get("table"):
            parts.append(_("left the game of table %(n)d") % {"n": d["table"]})
        if d.get("proposal_dropped"):
            parts.append(_("the proposed seating is dropped: propose it again"))
        setattr(event, "detail", " · ".join(p for p in parts if p))  # noqa: B010
    return events


def seating_context(tournament: Tournament, players: list[Entrant]) -> dict[str, Any]:
    """The next series' proposed seating (its tables of players, how it was made) and how
    the series in play was seated, for the tournament's page."""
    names = {p.number: p.name for p in players}
    by_number = {p.number: p for p in players}
    context: dict[str, Any] = {"proposal": None, "series_how": ""}
    seating = tournament.proposed()
    if seating is not None:
        context["proposal"] = [[by_number[n] for n in table] for table in seating.tables if table]
        context["proposal_how"] = how_seated(tournament.proposal or {}, names)
        context["proposal_players"] = sorted(
            (by_number[n] for n in seating.players), key=lambda p: p.number
        )
    if tournament.current:
        event = tournament.events.filter(kind="series").first()
        context["series_how"] = how_seated(event.details, names) if event else ""
    return context


@require_GET
@tournament_view()
def tournament_page(request: HttpRequest, access: Access) -> HttpResponse:
    return render_tournament(request, access)


# --- the live part: what every page of the tournament follows ----------------------------
LIVE_PART = f"{TEMPLATE}#live"


def live_id(tournament: Tournament, tables: list[Table]) -> str:
    """What the live stream calls the tournament's state (``continental/live.py``): its
    version and the sum of the versions of the games of the series in play, as an evening's."""
    return f"{tournament.version}.{sum(t.game.version for t in tables)}"


def live_id_now(token: str) -> str | None:
    """``live_id`` of the tournament behind ``token`` read now (two queries), None for a
    dead link."""
    row = Tournament.objects.by_token(token).order_by().values("pk", "version", "current").first()
    if row is None:
        return None
    games = Table.objects.filter(tournament_id=row["pk"], series=row["current"])
    total = games.aggregate(total=Sum("game__version"))["total"] or 0
    return f"{row['version']}.{total}"


def live_context(
    tournament: Tournament,
    token: str,
    *,
    can_edit: bool = False,
    players: list[Entrant] | None = None,
) -> dict[str, Any]:
    """What the live part shows (``tournament.html#live``): the round clock, the tables of
    the series in play and their state, the standings with their tie-breaks, the players.
    A viewer's part asks its check through the viewer link, whatever link its page has."""
    players = tournament.players() if players is None else players
    tables = tournament.tables_of(tournament.current) if tournament.current else []
    return {
        "tournament": tournament,
        "token": token,
        "live_token": token if can_edit else tournament.viewer_token,
        "viewer": tournament.viewer_token,
        "can_edit": can_edit,
        "players": players,
        "playing": sum(1 for p in players if p.playing),
        "tables": tables,
        "standings": standings(tournament, players, tables) if tournament.current else [],
        "live_id": live_id(tournament, tables),
        "clock_ends": tournament.clock_ends,
        # The clock ends a game of the classic game or Rommé; it only warns the contract games.
        "binding": not get_variant(tournament.variant_id).is_contract,
        "once": once_token(),
        "version": tournament.version,
        **seating_context(tournament, players),
    }


# The viewers' parts this process rendered, by tournament, state and language: a page of a
# player (400 of them open at once at a club night) takes the part rendered once for that state.
_kept_parts: dict[tuple[str, str, str, bool], str] = {}
KEPT_PARTS = 64


def kept_part(tournament: Tournament) -> str:
    """A viewer's live part of ``tournament`` as it is now, in the active language: rendered
    once per state in this process (two queries to know the state), then taken as it is.
    Its round clock says once whether the time is up (the page's script counts down)."""
    state = live_id_now(tournament.viewer_token) or ""
    language = translation.get_language()
    key = (tournament.viewer_token, state, language, tournament.time_is_up)
    html = _kept_parts.get(key)
    if html is None:
        html = render_to_string(LIVE_PART, live_context(tournament, tournament.viewer_token))
        if len(_kept_parts) >= KEPT_PARTS:
            _kept_parts.clear()
        _kept_parts[key] = html
    return mark_safe(html)


def page_context(
    tournament: Tournament,
    token: str,
    *,
    can_edit: bool = False,
    players: list[Entrant] | None = None,
) -> dict[str, Any]:
    """What a page of the tournament gives its live part: the director's, rendered with its
    forms (``live_context``); a viewer's, the part kept for its state (``kept_part``)."""
    if can_edit:
        return live_context(tournament, token, can_edit=True, players=players)
    return {
        "tournament": tournament,
        "token": token,
        "viewer": tournament.viewer_token,
        "can_edit": False,
        "players": tournament.players() if players is None else players,
        "live_part": kept_part(tournament),
        "once": once_token(),
        "version": tournament.version,
    }


def carried_part(pk: int, languages: set[str]) -> tuple[int, dict[int, int], dict[str, str]]:
    """The live part as a viewer's page shows it, rendered once for every phone following
    the tournament in each of ``languages`` (``continental/live.py`` carries it in the
    stream's event): the tournament's version and its games' versions it shows (read in one
    transaction with what it shows), and the part by language."""
    with transaction.atomic():
        tournament = Tournament.objects.get(pk=pk)
        context = live_context(tournament, tournament.viewer_token)
    games = {t.game_id: t.game.version for t in context["tables"]}
    parts: dict[str, str] = {}
    for language in languages:
        with translation.override(language):
            parts[language] = render_to_string(LIVE_PART, context)
    return tournament.version, games, parts


@require_GET
@tournament_view()
def tournament_live(request: HttpRequest, access: Access) -> HttpResponse:
    """The live part's own check (the stream's fallback, and every 5 s without the stream):
    204 while the tournament is at the state shown (``?v=``), the fresh part otherwise."""
    if request.GET.get("v") == live_id_now(access.token):
        return HttpResponse(status=204)
    if not access.can_edit:
        return HttpResponse(kept_part(access.tournament))
    context = live_context(access.tournament, access.token, can_edit=True)
    return render(request, LIVE_PART, context)


def _stale(request: HttpRequest, fresh: Access) -> HttpResponse:
    return render_tournament(request, fresh, notice=stale_notice(fresh), status=409)


def _entry_refused() -> dict[type[Exception], Any]:
    """What entering a player refuses, in words."""
    return {
        TournamentClosed: lambda exc: _("The last series has started: no one enters any more."),
        TournamentFull: lambda exc: (
            _("The tournament has %(n)d players, as many as it can.") % {"n": PLAYERS_MAX}
        ),
        EntrantNameTaken: lambda exc: (
            _(
                "%(name)s is entered already (start number %(n)d); add something to tell the two"
                " apart, such as an initial."
            )
            % {"name": exc.entrant.name, "n": exc.entrant.number}
        ),
    }


def _circle_people(tournament: Tournament) -> list[Any]:
    """The people of the tournament's circle who have not entered it (none without one)."""
    if tournament.circle is None:
        return []
    entered = set(tournament.entrants.exclude(person=None).values_list("person_id", flat=True))
    return [p for p in tournament.circle.people() if p.pk not in entered]


@require_POST
@tournament_view()
def tournament_enter(request: HttpRequest, access: Access) -> HttpResponse:
    """Enter a player: the director types the name, or a phone that opened the registration
    link enters its own player, whose link it then keeps (and opens)."""
    if not (access.can_edit or access.via == "registration_link"):
        return forbidden(request, access)
    form = EntrantForm(request.POST)
    if not form.is_valid():
        if form.incomplete():
            return answer(request, access, "invalid", incomplete(), ERROR)
        return render_tournament(request, access, entrant_form=form, status=422)
    tournament = access.tournament
    name = form.cleaned_data["name"]
    entered: dict[str, Entrant] = {}

    def change(**kwargs: Any):
        event = tournament.enter(name, **kwargs)
        entered["player"] = Entrant.objects.get(pk=event.details["entrant"])
        return event

    def done(event) -> str:
        return _("%(name)s has start number %(n)d.") % {
            "name": event.details["name"],
            "n": event.details["number"],
        }

    response = write(request, access, change, done, stale=_stale, refused=_entry_refused())
    player = entered.get("player")
    if player is not None and not access.can_edit:  # the phone keeps its player's link
        held = request.session.get(PLAYER_LINKS, [])
        request.session[PLAYER_LINKS] = [*held, player.token][-20:]
        return redirect(reverse("tournament-player", kwargs={"token": player.token}))
    return response


@require_POST
@tournament_view(editor=True)
def tournament_enter_people(request: HttpRequest, access: Access) -> HttpResponse:
    """The director enters people of the tournament's circle, ticked on the page."""
    tournament = access.tournament
    if used_once(request):
        return answer(request, access, "already", already_done(), INFO)
    picked = [small_int(v) for v in request.POST.getlist("person")]
    offered = {p.pk for p in _circle_people(tournament)}
    if tournament.circle_id is None or not picked or not set(picked) <= offered:
        message = _("Tick the people of the circle who play.")
        return answer(request, access, "invalid", message, ERROR)

    def change(**kwargs: Any):
        return tournament.enter_people([pk for pk in picked if pk is not None], **kwargs)

    def done(event) -> str:
        return _("Entered: %(names)s.") % {"names": event.details["name"]}

    return write(request, access, change, done, stale=_stale, refused=_entry_refused())


@require_POST
@tournament_view(editor=True)
def tournament_drop(request: HttpRequest, access: Access) -> HttpResponse:
    """A player drops out (the director's page)."""
    if used_once(request):  # first: the player of a replay has dropped out already
        return answer(request, access, "already", already_done(), INFO)
    tournament = access.tournament
    pk = small_int(request.POST.get("player", "")) or 0
    player = tournament.entrants.filter(pk=pk, dropped_after__isnull=True).first()
    if player is None:
        return answer(request, access, "invalid", _("Choose a player who is still playing."), ERROR)

    def change(**kwargs: Any):
        return tournament.drop_out(player.pk, **kwargs)

    done = _("%(name)s has dropped out.") % {"name": player.name}
    refused: dict[type[Exception], Any] = {
        TableTooSmall: lambda exc: (
            _(
                "%(name)s cannot leave table %(table)d now: its game needs at least %(n)d"
                " players. Once the table's game has ended, %(name)s can drop out."
            )
            % {"name": player.name, "table": exc.table, "n": exc.low}
        ),
    }
    return write(request, access, change, done, stale=_stale, refused=refused)


def separated_by(tie_break: str | None, lot: int) -> str:
    """What put a player below the one above, in words; for the lot, with the player's place
    in the lot drawn from the seed (shown, so that anyone can draw it again)."""
    if tie_break == LOT:
        return _("the lot: place %(n)d in the draw") % {"n": lot}
    return str(SEPARATED[tie_break]) if tie_break else ""


SEPARATED = {
    DROPPED: gettext_lazy("dropped out"),
    POINTS: gettext_lazy("placement points"),
    RELATIVE: gettext_lazy("score against the table"),
    BEST: gettext_lazy("best single series"),
    LOT: gettext_lazy("the lot"),
}


def standings(
    tournament: Tournament,
    players: list[Entrant],
    tables: list[Table] | None = None,
    *,
    through: int | None = None,
) -> list[dict[str, Any]]:
    """The ranking after the confirmed tables (of the first ``through`` series; ``tables``:
    the series in play's, read already), a row a player: place, name, placement points
    (each series' and their sum), score against the table, best single series, and what
    separated the player from the one above (in words, and the engine's code in
    ``tie_break``)."""
    names = {p.number: p.name for p in players}
    return [
        {
            "place": row.place,
            "number": row.player,
            "name": names[row.player],
            "points": float(row.points),
            "relative": float(row.relative),
            "dropped": row.dropped,
            "separated_by": separated_by(row.separated_by, row.lot),
            "series": [None if s is None else float(s.points) for s in row.series],
            "lot": row.lot,
            "best": float(row.best),
            "tie_break": row.separated_by,
        }
        for row in tournament.ranked(through, players=players, current=tables).rows
    ]


def _seating_refused() -> dict[type[Exception], Any]:
    """What proposing, swapping and starting a series refuse, in words."""
    return {
        SeriesOpen: lambda exc: (
            _("These tables have not confirmed their result yet: %(tables)s.")
            % {"tables": ", ".join(str(n) for n in exc.tables)}
        ),
        TournamentOver: lambda exc: _("Every series has been played."),
        NoProposal: lambda exc: _(
            "The seating of the next series is not proposed (or the players changed since):"
            " propose it, check it, then start the series."
        ),
        TournamentError: engine_message,
    }


@require_POST
@tournament_view(editor=True)
def tournament_propose(request: HttpRequest, access: Access) -> HttpResponse:
    """The director asks for the next series' seating: stored, shown with its seed, to be
    swapped and started."""
    tournament = access.tournament

    def done(event) -> str:
        return _("The seating of series %(n)d is proposed: check it, swap, then start it.") % {
            "n": event.details["series"]
        }

    return write(
        request, access, tournament.propose, done, stale=_stale, refused=_seating_refused()
    )


@require_POST
@tournament_view(editor=True)
def tournament_swap(request: HttpRequest, access: Access) -> HttpResponse:
    """The director swaps two players of the proposed seating."""
    tournament = access.tournament
    seating = tournament.proposed()
    a = small_int(request.POST.get("a", ""))
    b = small_int(request.POST.get("b", ""))
    if used_once(request):
        return answer(request, access, "already", already_done(), INFO)
    if seating is None:
        return answer(request, access, "invalid", _seating_refused()[NoProposal](None), ERROR)
    seated = set(seating.players)
    if a not in seated or b not in seated or a == b:
        message = _("Choose two different players of the proposed seating.")
        return answer(request, access, "invalid", message, ERROR)

    def change(**kwargs: Any):
        return tournament.swap(a, b, **kwargs)

    def done(event) -> str:
        return _("Swapped: %(names)s.") % {"names": event.details["name"]}

    return write(request, access, change, done, stale=_stale, refused=_seating_refused())


@require_POST
@tournament_view(editor=True)
def tournament_series(request: HttpRequest, access: Access) -> HttpResponse:
    """The director starts the next series: seats the proposed seating as shown (a form made
    before another phone's swap is stale, and refused) and starts its tables' games."""
    tournament = access.tournament

    def change(**kwargs: Any):
        return tournament.start_series(**kwargs)

    def done(event) -> str:
        return _("Series %(n)d is seated: %(tables)d tables.") % {
            "n": event.details["series"],
            "tables": len(event.details["tables"]),
        }

    return write(request, access, change, done, stale=_stale, refused=_seating_refused())


@require_POST
@tournament_view(editor=True)
def tournament_link(request: HttpRequest, access: Access) -> HttpResponse:
    """Replace the tournament's viewer, director or registration link."""
    return replace_link(request, access)


def _player(token: str) -> Entrant:
    player = Entrant.objects.select_related("tournament").filter(token=token).first()
    if player is None:
        raise Http404("nothing behind this link")
    return player


def _player_table(player: Entrant) -> Table | None:
    """The player's table in the series in play."""
    current = player.tournament.current
    seat = player.seated.filter(series=current).select_related("table__game").first()
    return seat.table if seat is not None else None


def render_player(
    request: HttpRequest, player: Entrant, *, notice: str = "", status: int = 200
) -> HttpResponse:
    tournament = player.tournament
    table = _player_table(player)
    # A player's own link confirms the table's result, and the page holds the table's game
    # by its editor link: never cached.
    editor_link_shown(request)
    context = {
        **page_context(tournament, tournament.viewer_token),
        "carried": True,  # the part the stream carries; the player's own part is asked for
        "player": player,
        "variant_name": NAMES[tournament.variant_id],
        "viewer_link": tournament_url(tournament.viewer_token),
        "player_url": public_url(
            request, reverse("tournament-player", kwargs={"token": player.token})
        ),
        "table": table,
        "mates": [s.entrant for s in table.seated.select_related("entrant")] if table else [],
        # What the player's own part shows of the live part: static/js/clock.js asks for the
        # part again when the live part's series or this table's state differ from it.
        "watch": f"{tournament.current}:{table.state if table else ''}",
        "notice": notice,
    }
    return render(request, "scorepad/tournament_player.html", context, status=status)


@require_GET
@tournament_view()
def tournament_table(request: HttpRequest, access: Access) -> HttpResponse:
    """Table mode for the club's projector: the series in play, each table's players and
    state, the round clock, the standings with their tie-breaks, live. Under the viewer
    link only (any other link is sent there): the page holds no form and no editor link."""
    tournament = access.tournament
    if access.token != tournament.viewer_token:
        return redirect(tournament_url(tournament.viewer_token, "tournament-table"))
    context = {
        **page_context(tournament, tournament.viewer_token),
        "carried": True,
        "variant_name": NAMES[tournament.variant_id],
    }
    return render(request, "scorepad/tournament_table.html", context)


@require_GET
@private_to_editors
def tournament_player(request: HttpRequest, token: str) -> HttpResponse:
    """A player's own page: their start number, their table in the series in play (its
    game, to record and to confirm), and the tournament as a viewer sees it."""
    return render_player(request, _player(token))


@require_POST
@private_to_editors
def tournament_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """A seated player confirms their table's result, or rejects it with a note, from their
    own link: a write of the tournament (its version, a one-time token)."""
    with transaction.atomic():
        player = _player(token)
        tournament = Tournament.objects.select_for_update().get(pk=player.tournament_id)
        player.tournament = tournament
        table = _player_table(player)
        access = Access(tournament, token, "viewer", "player_link")
        to = "tournament-player"  # the answers go back to the player's page
        if table is None:
            message = _("You have no table in this series.")
            return answer(request, access, "invalid", message, ERROR, to=to)
        note = request.POST.get("note", "").strip()[:200]
        rejecting = request.POST.get("answer") == "reject"
        if rejecting and not note:
            return answer(request, access, "invalid", _("Say what is wrong first."), ERROR, to=to)

        def change(*, version: int, once: str, actor: Actor):
            # The player's forms carry the version of the table's game they showed: what is
            # confirmed is that result. Another table's confirmation (a change of the
            # tournament) makes no form stale; a change of this table's game does.
            kwargs = {"seen": version, "version": tournament.version, "once": once}
            if rejecting:
                return tournament.reject(table, player, note, actor=actor, **kwargs)
            return tournament.confirm(table, player, actor=actor, **kwargs)

        done = (
            _("Your table's result is rejected: correct the game, then confirm it again.")
            if rejecting
            else _("Your table's result is confirmed.")
        )

        def stale(request: HttpRequest, fresh: Access) -> HttpResponse:
            # The fresh page: its forms carry the table's game's version now.
            player.tournament = fresh.tournament
            notice = _(
                "The table's game changed after this page showed it: check its result, "
                "then confirm it."
            )
            return render_player(request, player, notice=notice, status=409)

        refused: dict[type[Exception], Any] = {NotConfirmable: lambda exc: exc.why}
        return write(request, access, change, done, stale=stale, refused=refused, to=to)
