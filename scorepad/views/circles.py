"""Circles: start one, its page (people, games, evenings, links), and its editor's changes:
rename a person, merge two people into one and separate them again, replace a link.

Every write carries the circle's version and a one-time token, like a game's: a stale
version changes nothing and shows the fresh page with a message (409), a token used before
changes nothing and goes back to the page. Each write's answer is ``writes.answer``'s: forms
post and redirect without a script; htmx swaps in the page's ``circle`` part; a phone's
outbox gets JSON.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db import transaction
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ..access import (
    Access,
    circle_reference,
    device,
    known_games,
    private_to_editors,
    remember_created,
    remember_seen,
)
from ..circles import circle_view
from ..evenings import not_in_an_evening
from ..forms.change import once_token
from ..forms.data import small_int
from ..forms.names import name_or_error
from ..models import (
    NAME_MAX,
    Circle,
    Evening,
    Event,
    Game,
    NameTaken,
    Person,
    SameGame,
    Seat,
    roots,
)
from ..naming import distinct_name, name_key, normal_name
from ..records import finished_years
from .common import part_or_page, public_url
from .sheet import _qr
from .writes import (
    ERROR,
    INFO,
    already_done,
    answer,
    part_after_saving,
    posted_once,
    replace_link,
    stale_notice,
    used_once,
    write,
)

TEMPLATE = "scorepad/circle.html"


def circle_url(token: str, name: str = "circle") -> str:
    return reverse(name, args=[token])


def _name_or_error(raw: str) -> tuple[str, str]:
    return name_or_error(raw, _("Type a name first."))


def _own_games(request: HttpRequest) -> list[Game]:
    """The games this phone may change (it started them, or holds their editor link) that
    are in no circle and no evening: "make a circle of these" offers them. Nothing else:
    a name typed in a stranger's game, or a viewer link, brings no game in."""
    games = [g for g in known_games(request) if g.circle_id is None]
    editable = [g for g in games if g.link_token == g.editor_token]
    return sorted(not_in_an_evening(editable), key=lambda g: (g.created_at, g.pk))  # oldest first


def _gather(circle: Circle, games: list[Game]) -> None:
    """The games join the new circle; their seats' people are matched by name, case aside
    (what the page showed the phone for its confirmation)."""
    for game in games:
        Game.objects.filter(pk=game.pk).update(circle=circle, version=F("version") + 1)
        Event.objects.create(game=game, kind="circle", details={"circle": circle.name},
                                 actor="creator")  # fmt: skip
        here: set[int] = set()
        for seat in game.seats.all():
            person = circle.person_for(seat.name)
            if person.pk in here:  # "Anna" twice at one table (before the name rule): two
                taken = set(circle.persons.values_list("key", flat=True))
                name = distinct_name(normal_name(seat.name) or "?", taken, NAME_MAX)
                person = Person.objects.create(circle=circle, name=name)
            here.add(person.pk)
            Seat.objects.filter(pk=seat.pk).update(person=person)


def _matched_people(games: list[Game]) -> list[str]:
    names: dict[str, str] = {}
    for game in games:
        for seat in game.seats.all():
            names.setdefault(name_key(seat.name), seat.name)
    return sorted(names.values(), key=str.casefold)


@require_http_methods(["GET", "POST"])
@private_to_editors
def circle_new(request: HttpRequest) -> HttpResponse:
    """Start a circle: its name, and the games of this phone it is made of (none, for a
    new table); this phone is its editor."""
    error, name = "", ""
    offered = _own_games(request)
    by_token = {g.editor_token: g for g in offered}
    picked_tokens = request.POST.getlist("games") if request.method == "POST" else []
    if request.method == "POST":
        once = posted_once(request)
        earlier = once and Event.objects.filter(form_token=once).first()
        if earlier and (earlier.circle_id is None or earlier.kind != "started"):  # another form's
            messages.info(request, _("That was already done; it happened once."))
            return redirect("home")
        if earlier and earlier.circle:  # a replay: the circle it made
            remember_created(request, earlier.circle)
            messages.info(request, _("That was already done; it happened once."))
            return redirect(circle_url(earlier.circle.editor_token))
        name, error = _name_or_error(request.POST.get("name", ""))
        if any(token not in by_token for token in picked_tokens):
            error = _("Choose the games from the list.")
        picked = [g for g in offered if g.editor_token in set(picked_tokens)]
        if not error and once:
            with transaction.atomic():
                circle = Circle.objects.create(name=name)
                Event.objects.create(
                    circle=circle,
                    kind="started",
                    actor="creator",
                    device=device(request),
                    form_token=once,
                    details={"name": name, "games": [g.pk for g in picked]},
                )
                _gather(circle, picked)
            remember_created(request, circle)
            messages.success(request, _("The circle has started: share its link with the table."))
            return redirect(circle_url(circle.editor_token))
        if not once:
            error = _("The form was incomplete; nothing was changed.")
    context = {
        "once": once_token(),
        "error": error,
        "name": name,
        "offered": offered,
        "picked": picked_tokens,
        "people": _matched_people(offered),
    }
    return render(request, "scorepad/circle_new.html", context, status=200)


def render_circle(
    request: HttpRequest, access: Access, *, notice: str = "", status: int = 200
) -> HttpResponse:
    circle = access.circle
    who = roots(circle.pk)
    people = circle.people()
    merged = list(
        Person.objects.filter(circle=circle, merged_into__isnull=False).select_related(
            "merged_into"
        )
    )
    games = list(Game.objects.filter(circle=circle).with_seats().order_by("-created_at", "-pk"))
    for game in games:
        game.link_token = game.editor_token if access.can_edit else game.viewer_token
    evenings = list(
        Evening.objects.filter(circle=circle).with_date().order_by("-created_at", "-pk")
    )
    for evening in evenings:
        evening.link_token = evening.editor_token if access.can_edit else evening.viewer_token
    seats: dict[int, int] = {}  # a person's pk: the games they sat in
    for game in games:
        for seat in game.seats.all():
            if seat.person_id is not None:
                seats[who[seat.person_id]] = seats.get(who[seat.person_id], 0) + 1
    for person in people:
        person.game_count = seats.get(person.pk, 0)
    context: dict[str, Any] = {
        "access": access,
        "circle": circle,
        "token": access.token,
        "can_edit": access.can_edit,
        "people": people,
        "merged": merged,
        "games": games,
        "evenings": evenings,
        "history": list(circle.events.all()[:50]),
        "years": finished_years(circle.pk),
        "once": once_token(),
        "notice": notice,
    }
    viewer_url = public_url(request, circle_url(circle.viewer_token))
    context["viewer_url"] = viewer_url
    context["viewer_qr"] = _qr(viewer_url)
    if access.can_edit:
        context["editor_url"] = public_url(request, circle_url(circle.editor_token))
        context["circle_ref"] = circle_reference(circle)
    return part_or_page(request, TEMPLATE, "circle", context, status=status)


@require_GET
@circle_view()
def circle_page(request: HttpRequest, access: Access) -> HttpResponse:
    response = render_circle(request, access)
    if access.via != "creator":
        remember_seen(request, response, access.token)
    return response


def _write(request: HttpRequest, access: Access, change, done) -> HttpResponse:
    """A write of the circle page (``writes.write``); on a stale version the fresh page
    comes back (409)."""

    def stale(request: HttpRequest, fresh: Access) -> HttpResponse:
        return render_circle(request, fresh, notice=stale_notice(fresh), status=409)

    refused: dict[type[Exception], Any] = {
        NameTaken: lambda exc: (
            _("%(name)s is someone else of the circle; merge the two if they are one person.")
            % {"name": exc.person.name}
        ),
        SameGame: lambda exc: _(
            "These two sat in the same game, so they are two people; nothing changed."
        ),
    }
    swapped = part_after_saving(request, access, render_circle)
    return write(
        request, access, change, lambda event: done(), stale=stale, refused=refused, swapped=swapped
    )


@require_POST
@circle_view(editor=True)
def person_rename(request: HttpRequest, access: Access) -> HttpResponse:
    if used_once(request):
        return answer(request, access, "already", already_done(), INFO)
    circle = access.circle
    pk = small_int(request.POST.get("person", "")) or 0
    name, error = _name_or_error(request.POST.get("name", ""))
    person = Person.objects.filter(circle=circle, pk=pk, merged_into__isnull=True).first()
    if person is None:
        return answer(request, access, "invalid", _("Choose someone of the circle."), ERROR)
    if error:
        return answer(request, access, "invalid", error, ERROR)

    def change(**kwargs):
        return circle.rename_person(person.pk, name, **kwargs)

    def done() -> str:
        return _("%(before)s is now called %(after)s in the circle.") % {
            "before": person.name,
            "after": name,
        }

    return _write(request, access, change, done)


@require_POST
@circle_view(editor=True)
def person_merge(request: HttpRequest, access: Access) -> HttpResponse:
    if used_once(request):
        return answer(request, access, "already", already_done(), INFO)
    circle = access.circle
    people = {p.pk: p for p in circle.people()}
    pk = small_int(request.POST.get("person", ""))
    into = small_int(request.POST.get("into", ""))
    if pk not in people or into not in people or pk == into:
        message = _("Choose two different people of the circle.")
        return answer(request, access, "invalid", message, ERROR)

    def change(**kwargs):
        return circle.merge(pk, into, **kwargs)

    def done() -> str:
        return _("%(name)s and %(into)s are one person now: %(into)s.") % {
            "name": people[pk].name,
            "into": people[into].name,
        }

    return _write(request, access, change, done)


@require_POST
@circle_view(editor=True)
def person_separate(request: HttpRequest, access: Access) -> HttpResponse:
    if used_once(request):
        return answer(request, access, "already", already_done(), INFO)
    circle = access.circle
    pk = small_int(request.POST.get("person", "")) or 0
    person = Person.objects.filter(circle=circle, pk=pk, merged_into__isnull=False).first()
    if person is None:
        return answer(request, access, "invalid", _("Choose someone who was merged."), ERROR)

    def change(**kwargs):
        return circle.separate(pk, **kwargs)

    def done() -> str:
        return _("%(name)s is their own person again.") % {"name": person.name}

    return _write(request, access, change, done)


@require_POST
@circle_view(editor=True)
def circle_link(request: HttpRequest, access: Access) -> HttpResponse:
    """Replace the circle's viewer or editor link: the old one leads nowhere from now on."""
    return replace_link(request, access)
