"""Evenings: start one, its page (ledger, standings, chart, settle-up), add and remove its
games, carry its balances to the next evening; and a game's evenings.

Every write carries the evening's version and a one-time token, like a game's: a stale
version changes nothing and shows the fresh page with a message (409), a token used before
changes nothing and goes back to the page. Each write's answer is ``writes.answer``'s: forms
post and redirect without a script; htmx swaps in the page's ``evening`` part; a phone's
outbox gets JSON.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from rules.facts import NAMES

from ..access import (
    Access,
    CircleGrant,
    circle_grant,
    created_ids,
    device,
    editor_link_shown,
    evening_reference,
    game_view,
    is_editor,
    known_games,
    private_to_editors,
    remember_created,
    remember_seen,
)
from ..evenings import (
    adjustments,
    build_evening,
    counted_elsewhere_message,
    evening_view,
    evenings_of,
    known_evenings,
    not_in_an_evening,
)
from ..forms.change import once_token
from ..forms.data import small_int
from ..forms.evenings import AddGameForm, EveningForm
from ..models import (
    Actor,
    Circle,
    CountedElsewhere,
    Evening,
    EveningClosed,
    EveningGame,
    Event,
    Game,
)
from ..results import evening_result
from ..tokens import LINK
from .common import game_url, part_or_page, partial_wanted, public_url
from .sheet import _qr, no_result, picture_response
from .writes import (
    ERROR,
    INFO,
    already_done,
    answer,
    form_refused,
    from_outbox,
    incomplete,
    part_after_saving,
    posted_once,
    replace_link,
    stale_notice,
    used_once,
    write,
)

TEMPLATE = "scorepad/evening.html"


def evening_url(token: str, name: str = "evening") -> str:
    return game_url(token, name)


def _closed_message() -> str:
    return _("The balances of this evening were carried to the next one; it changes no more.")


def _offer(request: HttpRequest, circle: Circle | None, *, whole_circle: bool) -> list[Game]:
    """The games an evening of ``circle`` may hold, each with ``link_token``, its editor
    link: adding a game to an evening takes the game's editor link. With ``whole_circle``
    (the circle's editor) every game of the circle; otherwise the games this phone holds an
    editor link of (it started them or opened that link), of ``circle`` or of no circle. A
    circle's money never mixes with another's, and a game's editor link never yields
    another game's (the grant table, docs/architecture.md)."""
    if circle is not None and whole_circle:
        games = list(Game.objects.filter(circle=circle).with_seats())
        for game in games:
            game.link_token = game.editor_token
        return games
    circle_id = circle.pk if circle is not None else None
    return [
        g
        for g in known_games(request)
        if g.circle_id == circle_id and g.link_token == g.editor_token
    ]


def _choices(request: HttpRequest, evening: Evening) -> list[Game]:
    """The games that can be added, in no evening yet (open or closed): a game's money
    counts in one evening only, and in an evening of its circle."""
    circle = evening.circle
    whole = circle is not None and is_editor(request, circle)
    return not_in_an_evening(_offer(request, circle, whole_circle=whole))


def _other_circle_message(evening: Evening) -> str:
    circle = evening.circle
    if circle is None:
        return _("A game of a circle counts in an evening of its circle only.")
    return _("Only the games of the circle %(name)s can be added to its evening.") % {
        "name": circle.name
    }


def _default_stake(game: Game, evening: Evening):
    return game.value_per_point if game.value_per_point is not None else evening.stake


def render_evening(
    request: HttpRequest,
    access: Access,
    *,
    add_form: AddGameForm | None = None,
    notice: str = "",
    status: int = 200,
) -> HttpResponse:
    evening = access.evening
    page = build_evening(evening)
    context: dict[str, Any] = {
        "access": access,
        "evening": evening,
        "page": page,
        "token": access.token,
        "can_edit": access.can_edit and not evening.is_closed,
        "once": once_token(),
        "notice": notice,
        # What the live stream calls this page's state (continental/live.py): the
        # evening's version and its games' versions, whose deals change its money.
        "live_id": f"{evening.version}.{sum(e.game.version for e in evening.games.all())}",
    }
    context["adjusted_in"], context["adjusted_out"] = adjustments(evening)
    context["history"] = list(evening.events.all()[:50])
    if access.can_edit:
        choices = _choices(request, evening)
        if add_form is None:
            initial = {"version": evening.version, "once": once_token()}
            if len(choices) == 1:  # the only game that can be added, at its own price
                initial["game"] = choices[0].link_token
                initial["stake"] = _default_stake(choices[0], evening)
            add_form = AddGameForm(initial=initial)
        context["add_form"] = add_form
        context["add_choices"] = choices
        context["editor_url"] = public_url(request, evening_url(evening.editor_token))
        context["evening_ref"] = evening_reference(evening)
    if page.names:  # the standings so far may be shared too (docs/architecture.md)
        context["result"] = evening_result(page)
        # Under the viewer link: "copy image address" hands out no editor link.
        context["result_url"] = evening_url(evening.viewer_token, "evening-result")
    viewer_url = public_url(request, evening_url(evening.viewer_token))
    context["viewer_url"] = viewer_url
    context["viewer_qr"] = _qr(viewer_url)
    table_url = public_url(request, evening_url(evening.viewer_token, "evening-table"))
    context["table_url"] = table_url
    context["table_qr"] = _qr(table_url)
    for neighbour in ("next_evening", "previous"):
        other = getattr(evening, neighbour, None) if _has(evening, neighbour) else None
        if other is not None:
            token = other.editor_token if access.can_edit else other.viewer_token
            context[neighbour] = token
    return part_or_page(request, TEMPLATE, "evening", context, status=status)


def _has(evening: Evening, name: str) -> bool:
    try:
        return getattr(evening, name) is not None
    except Evening.DoesNotExist:
        return False


@require_GET
@evening_view()
def evening_page(request: HttpRequest, access: Access) -> HttpResponse:
    response = render_evening(request, access)
    if access.via != "creator":
        remember_seen(request, response, access.token)
    return response


@require_GET
@evening_view()
def evening_result_svg(request: HttpRequest, access: Access) -> HttpResponse:
    """The picture of an evening's standings and settle-up (so far, while a game of it is
    in progress); none for an evening without a game."""
    page = build_evening(access.evening)
    if not page.names:
        return no_result(request, evening_url(access.token))
    return picture_response(request, evening_result(page))


@require_http_methods(["GET", "POST"])
@private_to_editors
def evening_new(request: HttpRequest) -> HttpResponse:
    """Start an evening, with the games ticked (``?game=<link>`` ticks one); ``circle`` (a
    signed reference, from the circle's page or a circle game's editor) makes it the
    circle's, with the circle's games to pick."""
    source = request.POST if request.method == "POST" else request.GET
    reference = source.get("circle", "")
    grant = circle_grant(reference) if reference else None
    ticked = request.GET.get("game", "")
    if grant is None and ticked and request.method == "GET":
        grant = _grant_of_ticked(request, ticked)
    if reference and grant is None:
        messages.error(
            request,
            _("The circle's editor link was replaced: open its new link to start its evening."),
        )
        return redirect("home")
    circle = grant.circle if grant is not None else None
    whole = grant is not None and (grant.whole_circle or is_editor(request, grant.circle))
    games = _offer(request, circle, whole_circle=whole)
    held = _held_editor_link(request, ticked, circle, games) if request.method == "GET" else None
    if held is not None:
        games.append(held)
    extra = {"circle": circle, "circle_ref": grant.reference() if grant is not None else ""}
    if request.method == "POST":
        once = posted_once(request)
        earlier = once and Event.objects.filter(form_token=once).first()
        if earlier and (earlier.evening_id is None or earlier.kind != "started"):  # another form's
            messages.info(request, _("That was already done; it happened once."))
            return redirect("home")
        if earlier and earlier.evening:  # a replay: its games are in the evening it made
            remember_created(request, earlier.evening)
            messages.info(request, _("That was already done; it happened once."))
            return redirect(evening_url(earlier.evening.editor_token))
        form = EveningForm(request.POST, games=games)
        if form.is_valid():
            try:
                evening = _start(request, form, circle)
            except CountedElsewhere as exc:  # another phone added a game meanwhile
                form.add_error("games", counted_elsewhere_message(exc.evening))
            else:
                messages.success(request, _("The evening has started."))
                return redirect(evening_url(evening.editor_token))
        return render(request, "scorepad/evening_new.html", {"form": form, **extra}, status=200)
    form = _blank_evening_form(games, ticked)
    response = render(request, "scorepad/evening_new.html", {"form": form, **extra})
    if held is not None:  # this phone opened the game's editor link: it knows the game now
        remember_seen(request, response, ticked)
    return response


def _held_editor_link(
    request: HttpRequest, token: str, circle: Circle | None, offered: list[Game]
) -> Game | None:
    """The game whose editor link ``?game=`` names, of ``circle`` (or of no circle with
    it) and not offered already: the editor link grants adding its game to an evening, on
    a phone that never opened the game's page too."""
    if not LINK.fullmatch(token):
        return None
    in_circle = Q(circle=circle) if circle is not None else Q(circle__isnull=True)
    found = Game.objects.filter(in_circle, editor_token=token).with_seats().first()
    if found is None or any(g.pk == found.pk for g in offered):
        return None
    found.link_token = found.editor_token
    editor_link_shown(request)
    return found


def _grant_of_ticked(request: HttpRequest, ticked: str) -> CircleGrant | None:
    """The circle of the game ``?game=<link>`` ticks, when this phone is that game's
    editor: it grants an evening of the circle with the games this phone may change."""
    from_game = Game.objects.by_token(ticked).select_related("circle").first()
    if from_game is None or from_game.circle is None:
        return None
    editor = ticked == from_game.editor_token or from_game.pk in created_ids(request)
    return CircleGrant(from_game.circle, from_game) if editor else None


def _blank_evening_form(games: list[Game], ticked: str) -> EveningForm:
    """The form as a GET opens it: the game ``ticked`` names (or the only one it can begin
    with) ticked, at that game's money per point as the stake."""
    initial: dict[str, Any] = {"once": once_token()}
    for game in games:
        if ticked in (game.viewer_token, game.editor_token):
            initial["games"] = [game.link_token]
            if game.value_per_point is not None:
                initial["stake"] = game.value_per_point
    form = EveningForm(initial=initial, games=games)
    if "games" not in initial and len(form.offered) == 1:  # the only game it can begin with
        only = form.offered[0]
        form.initial["games"] = [only.link_token]
        if only.value_per_point is not None:
            form.initial["stake"] = only.value_per_point
    return form


def _start(request: HttpRequest, form: EveningForm, circle: Circle | None) -> Evening:
    """The new evening; the same form sent again (a replay) leads to the evening it made."""
    data = form.cleaned_data
    once = data["once"]
    evening = _started_with(once)
    if evening is None:
        try:
            with transaction.atomic():
                evening = Evening.objects.create(
                    name=data["name"], stake=data["stake"], circle=circle
                )
                for position, token in enumerate(data["games"], start=1):
                    game = form.known[token]
                    EveningGame.objects.create(
                        evening=evening,
                        game=game,
                        stake=_default_stake(game, evening),
                        position=position,
                    )
                games = [form.known[t].pk for t in data["games"]]
                actor = Actor("creator", device(request))
                evening.start(actor=actor, once=once, details={"games": games})
        except IntegrityError:
            evening = _started_with(once)
            if evening is None:
                taken = evenings_of([form.known[t] for t in data["games"]])
                if taken:
                    raise CountedElsewhere(next(iter(taken.values()))) from None
                raise
    remember_created(request, evening)
    return evening


def _started_with(once: str) -> Evening | None:
    """The evening a new evening's form with this one-time token made, if it was sent."""
    earlier = Event.objects.filter(form_token=once, kind="started", evening__isnull=False)
    return next((event.evening for event in earlier.select_related("evening")), None)


def _write(
    request: HttpRequest, access: Access, change, done: str, *, keep: bool = False
) -> HttpResponse:
    """A write of the evening page (``writes.write``). On a stale version the fresh page
    comes back (409); with ``keep`` its add form keeps what was entered, on the fresh
    version."""

    def stale(request: HttpRequest, fresh: Access) -> HttpResponse:
        add_form = None
        if keep:
            add_form = AddGameForm(
                initial={
                    "game": request.POST.get("game", ""),
                    "stake": request.POST.get("stake", ""),
                    "version": fresh.evening.version,
                    "once": once_token(),
                }
            )
        notice = stale_notice(fresh)
        return render_evening(request, fresh, add_form=add_form, notice=notice, status=409)

    closed: dict[type[Exception], Any] = {EveningClosed: lambda exc: _closed_message()}
    swapped = part_after_saving(request, access, render_evening)
    return write(request, access, change, done, stale=stale, refused=closed, swapped=swapped)


def _refused_form(request: HttpRequest, access: Access, form: AddGameForm) -> HttpResponse:
    """The add form refused: its errors beside its fields (the outbox: in its answer)."""
    if from_outbox(request):
        return form_refused(access, form)
    return render_evening(request, access, add_form=form)


@require_POST
@evening_view(editor=True)
def evening_add(request: HttpRequest, access: Access) -> HttpResponse:
    evening = access.evening
    if used_once(request):  # first, in the lock of evening_view: a copy is "already done"
        return answer(request, access, "already", already_done(), INFO)
    form = AddGameForm(request.POST)
    if not form.is_valid():
        if form.incomplete():
            return answer(request, access, "invalid", incomplete(), ERROR)
        return _refused_form(request, access, form)
    game = form.cleaned_data["game"]
    data = form.cleaned_data

    stake = data["stake"] if data["stake"] is not None else _default_stake(game, evening)

    def change(**kwargs):
        return evening.add_game(game, stake, **kwargs)

    if game.circle_id != evening.circle_id:
        form.add_error("game", _other_circle_message(evening))
        return _refused_form(request, access, form)
    if not used_once(request):
        other = evenings_of([game]).get(game.pk)
        if other is not None and other.pk == evening.pk:
            return answer(
                request, access, "already", _("That game is in the evening already."), INFO
            )
        if other is not None:
            form.refuse_counted_elsewhere(other)
            return _refused_form(request, access, form)
    try:
        return _write(request, access, change, _("The game was added to the evening."), keep=True)
    except CountedElsewhere as exc:  # another phone put it in another evening meanwhile
        form.refuse_counted_elsewhere(exc.evening)
        return _refused_form(request, access, form)


@require_POST
@evening_view(editor=True)
def evening_remove(request: HttpRequest, access: Access) -> HttpResponse:
    evening = access.evening
    if used_once(request):
        return answer(request, access, "already", already_done(), INFO)
    game_id = small_int(request.POST.get("game", ""))

    def change(**kwargs):
        return evening.remove_game(game_id or 0, **kwargs)

    if not any(e.game_id == game_id for e in evening.games.all()):
        return answer(request, access, "already", _("That game is not in the evening."), INFO)
    return _write(request, access, change, _("The game was taken out of the evening."))


@require_POST
@evening_view(editor=True)
def evening_carry(request: HttpRequest, access: Access) -> HttpResponse:
    evening = access.evening
    if used_once(request):
        return answer(request, access, "already", already_done(), INFO)
    page = build_evening(evening)
    made: list[Evening] = []
    if page.in_progress and not evening.is_closed:
        message = _("End the games in progress first: only final totals are carried.")
        return answer(request, access, "invalid", message, ERROR)

    def change(**kwargs):
        # The games' versions its money was read at: a game changed since makes it stale.
        seen = {entry.game_id: entry.game.version for entry in evening.games.all()}
        made.append(evening.carry(page.carry, games=seen, **kwargs))

    response = _write(
        request, access, change, _("The balances were carried: the next evening starts here.")
    )
    if made:
        remember_created(request, made[0])
        if from_outbox(request):  # the phone's page shows the way to the next evening
            return response
        # The next evening is another page, under its own link: htmx loads it whole.
        if partial_wanted(request):
            return HttpResponseClientRedirect(evening_url(made[0].editor_token))
        return redirect(evening_url(made[0].editor_token))
    return response


@require_GET
@game_view(full=False)
def game_evenings(request: HttpRequest, access: Access) -> HttpResponse:
    """A game's evenings: the ones it is in, the ones to add it to, a new one with it."""
    game = access.game
    mine = []
    open_ones = []
    in_it = set(EveningGame.objects.filter(game=game).values_list("evening_id", flat=True))
    for evening in known_evenings(request):
        if evening.pk in in_it:
            mine.append(evening)
        elif (
            access.can_edit  # adding a game to an evening takes the game's editor link
            and evening.can_edit
            and not evening.is_closed
            and not in_it
            and evening.circle_id == game.circle_id
        ):
            open_ones.append(evening)  # a game's money counts in one evening only
    stake = game.value_per_point
    for evening in open_ones:
        evening.add_form = AddGameForm(
            auto_id=f"id_%s_{evening.pk}",
            initial={
                "game": game.editor_token,
                "stake": stake if stake is not None else evening.stake,
                "version": evening.version,
                "once": once_token(),
            },
        )
    return render(
        request,
        "scorepad/game_evenings.html",
        {
            "access": access,
            "game": game,
            "token": access.token,
            "variant_name": NAMES[game.variant_id],
            "mine": mine,
            "open_ones": open_ones,
            # A game in an evening (open or closed) starts no other: it counts in one only.
            "counted": bool(in_it),
            "can_edit": access.can_edit,
            "counted_elsewhere": (
                counted_elsewhere_message(evenings_of([game])[game.pk])
                if in_it and not mine
                else ""
            ),
        },
    )


@require_POST
@evening_view(editor=True)
def evening_link(request: HttpRequest, access: Access) -> HttpResponse:
    """Replace the evening's viewer or editor link (a closed evening's too: a link that
    went too far must stop working whatever the evening's state)."""
    return replace_link(request, access)
