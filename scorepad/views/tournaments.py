"""Tournaments: set one up, its page (for the director, a viewer and the registration link),
enter a player (the director types the name, or a player's phone scans the registration QR
code), a player who drops out, a player's own page, the links.

Every write goes through ``writes.write`` (the kernel's version and one-time token); forms
post and redirect, no script is needed.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rules.facts import NAMES

from ..access import (
    TOURNAMENTS,
    Access,
    device,
    forbidden,
    private_to_editors,
    remember_created,
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
    Tournament,
    TournamentClosed,
    TournamentFull,
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
SEED_MAX = 999_999  # a seed a person can read out and type again


def tournament_view(*, editor: bool = False):
    """``access.shared_view`` of a tournament."""
    return _shared_view(TOURNAMENTS, editor=editor)


def tournament_url(token: str, name: str = "tournament") -> str:
    return reverse(name, kwargs={"token": token})


@require_http_methods(["GET", "POST"])
@private_to_editors
def tournament_new(request: HttpRequest) -> HttpResponse:
    """Set a tournament up; this phone is its director."""
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
                    seed=secrets.randbelow(SEED_MAX) + 1,
                )
                tournament.start(
                    actor=Actor("creator", device(request)),
                    once=data["once"],
                    details={"name": tournament.name},
                )
            remember_created(request, tournament)
            messages.success(request, _("The tournament is set up: players can enter now."))
            return redirect(tournament_url(tournament.editor_token))
    else:
        form = TournamentForm()
        form.initial["once"] = once_token()
    return render(request, "scorepad/tournament_new.html", {"form": form})


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
        "tournament": tournament,
        "variant_name": NAMES[tournament.variant_id],
        "token": access.token,
        "can_edit": access.can_edit,
        "registration": access.via == "registration_link",
        "players": players,
        "playing": sum(1 for p in players if p.playing),
        "full": len(players) >= PLAYERS_MAX,
        "mine": _held_players(request, tournament),
        "history": list(tournament.events.all()[:50]),
        "once": once_token(),
        "version": tournament.version,
        "entrant_form": entrant_form,
        "notice": notice,
    }
    if access.can_edit:
        registration_url = public_url(request, tournament_url(tournament.registration_token))
        context["registration_url"] = registration_url
        context["registration_qr"] = _qr(registration_url)
        context["viewer_url"] = public_url(request, tournament_url(tournament.viewer_token))
        context["editor_url"] = public_url(request, tournament_url(tournament.editor_token))
    return render(request, TEMPLATE, context, status=status)


@require_GET
@tournament_view()
def tournament_page(request: HttpRequest, access: Access) -> HttpResponse:
    return render_tournament(request, access)


def _stale(request: HttpRequest, fresh: Access) -> HttpResponse:
    return render_tournament(request, fresh, notice=stale_notice(fresh), status=409)


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

    refused: dict[type[Exception], Any] = {
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
    response = write(request, access, change, done, stale=_stale, refused=refused)
    player = entered.get("player")
    if player is not None and not access.can_edit:  # the phone keeps its player's link
        held = request.session.get(PLAYER_LINKS, [])
        request.session[PLAYER_LINKS] = [*held, player.token][-20:]
        return redirect(reverse("tournament-player", kwargs={"token": player.token}))
    return response


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
    return write(request, access, change, done, stale=_stale)


@require_POST
@tournament_view(editor=True)
def tournament_link(request: HttpRequest, access: Access) -> HttpResponse:
    """Replace the tournament's viewer, director or registration link."""
    return replace_link(request, access)


@require_GET
def tournament_player(request: HttpRequest, token: str) -> HttpResponse:
    """A player's own page: their start number, and the tournament as a viewer sees it."""
    player = Entrant.objects.select_related("tournament").filter(token=token).first()
    if player is None:
        raise Http404("nothing behind this link")
    tournament = player.tournament
    context = {
        "player": player,
        "tournament": tournament,
        "variant_name": NAMES[tournament.variant_id],
        "viewer_link": tournament_url(tournament.viewer_token),
        "player_url": public_url(request, reverse("tournament-player", kwargs={"token": token})),
    }
    return render(request, "scorepad/tournament_player.html", context)
