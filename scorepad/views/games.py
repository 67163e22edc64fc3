"""Starting a game, the list of games, importing a game."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.forms import BooleanField
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe
from django_htmx.http import HttpResponseClientRedirect

from rules.engine.cards import local_code, parse_card
from rules.engine.dealing import draw_first_dealer
from rules.engine.variants import VARIANT_IDS, get_variant
from rules.facts import ESSENCE, NAMES

from .. import pauses
from ..access import (
    EVENINGS,
    CircleGrant,
    again_game,
    circle_grant,
    created_ids,
    device,
    editor_link_shown,
    evening_grant,
    evening_reference,
    known_games,
    private_to_editors,
    remember_created,
)
from ..evenings import known_evenings
from ..forms.data import small_int
from ..forms.games import ImportForm, NewGameForm, option_field_name
from ..forms.seats import OnePersonTwice, SeatList
from ..models import Actor, Circle, Evening, EveningClosed, Game, Person, roots
from ..transfer import ImportProblem, import_game
from .common import game_url, htmx_of, partial_wanted

LAST_VARIANT = "scorepad_variant"  # the variant this phone started last
LAST_VARIANT_AGE = 400 * 24 * 3600  # as long as browsers keep a cookie


def _again(game: Game, seats: SeatList, in_circle: bool) -> dict[str, Any]:
    """ "Play again with the same players": the game's players in their seats (its people,
    in the circle; else their names only), its variant, house rules and money per point, as
    the start of a new game's form (the first dealer is drawn again)."""
    _seat_players(game, seats, in_circle)
    initial: dict[str, Any] = {"variant": game.variant_id}
    for name, value in (game.options or {}).items():
        initial[option_field_name(game.variant_id, name)] = value
    if game.value_per_point is not None:
        initial["value_per_point"] = game.value_per_point
    return initial


def _seat_players(game: Game, seats: SeatList, in_circle: bool) -> None:
    who = roots(game.circle_id) if in_circle and game.circle_id else {}
    for seat in game.seats.order_by("position"):
        if seat.person_id is not None and who.get(seat.person_id) in seats.roster:
            seats.add_person(who[seat.person_id])
        else:
            seats.add_name(seat.name)


def _roster(circle: Circle | None) -> dict[int, Person]:
    return {p.pk: p for p in circle.people()} if circle is not None else {}


def _new_game_page(
    request: HttpRequest, form: NewGameForm, *, focus_name: bool = False, rules_open: bool = False
) -> HttpResponse:
    variants = []
    for v in VARIANT_IDS:
        variant = get_variant(v)
        standard = None
        if variant.is_contract:
            standard = " · ".join(f"{s.cards} {s.sets} {s.runs}" for s in variant.schedule or ())
        variants.append(
            {
                "id": v,
                "name": NAMES[v],
                "essence": ESSENCE[v],
                "variant": variant,
                "standard": standard,
            }
        )
    template = "scorepad/game_new.html"
    if partial_wanted(request):
        template += "#form"
    circle = form.seats.circle
    context = {
        "form": form,
        "circle": circle,
        "evening": form.seats.evening,
        "evening_ref": evening_reference(form.seats.evening) if form.seats.evening else "",
        # The reference that brought the circle, carried on as it came: one made from a
        # game's editor link never becomes the circle editor's (the grant table).
        "circle_ref": form.seats.grant.reference() if form.seats.grant is not None else "",
        "variants": variants,
        "focus_name": focus_name,
        "rules_open": rules_open
        or any(name in form.errors for name in form.fields if name.startswith("opt_"))
        or "schedule" in form.errors,
    }
    return render(request, template, context)


@require_http_methods(["GET", "POST"])
@private_to_editors
def game_new(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        return _new_game_page(request, _blank_form(request))
    return _new_game_post(request)


def _blank_form(request: HttpRequest) -> NewGameForm:
    """The new-game form as a GET opens it: the variant this phone started last (a cookie:
    without script too) unless named, and the players of "Play again" or of the circle's last
    game already seated."""
    variant = request.GET.get("variant") or request.COOKIES.get(LAST_VARIANT)
    initial: dict[str, Any] = {"first_dealer": "draw"}
    if variant in VARIANT_IDS:
        initial["variant"] = variant
    evening = evening_grant(request.GET.get("evening", ""))
    if evening is not None and not evening.is_closed:
        return _next_game_of(evening, initial)
    reference = request.GET.get("again", "")
    if reference:
        editor_link_shown(request)  # an old link may carry the game's token: not cached
    again, in_circle = again_game(reference[:200]) if reference else (None, False)
    grant = circle_grant(request.GET.get("circle", ""))
    if grant is None and in_circle and again is not None and again.circle is not None:
        grant = CircleGrant(again.circle, again)
    elif again is not None and grant is not None and again.circle_id != grant.circle.pk:
        again = None
    circle = grant.circle if grant is not None else None
    seats = SeatList([], _roster(circle), circle=circle)
    seats.grant = grant
    if again is not None:
        initial.update(_again(again, seats, circle is not None))
    elif circle is not None:
        last = circle.games.order_by("-created_at", "-pk").first()
        if last is not None:
            _seat_players(last, seats, True)
    return NewGameForm(initial=initial, seats=seats)


def _next_game_of(evening: Evening, initial: dict[str, Any]) -> NewGameForm:
    """The form of an evening's next game: in its circle, its last game's players in their
    seats, variant and house rules, at that game's stake."""
    circle = evening.circle
    seats = SeatList([], _roster(circle), circle=circle)
    seats.evening = evening
    last = evening.games.select_related("game").order_by("-position").first()
    if last is not None:
        initial.update(_again(last.game, seats, circle is not None))
        initial["value_per_point"] = last.stake
    return NewGameForm(initial=initial, seats=seats)


def _new_game_post(request: HttpRequest) -> HttpResponse:
    """A POST of the new-game page: a change of the seats (add, move, remove a player) shows
    the page again as the player left it; "Start" starts the game or says what is wrong."""
    data = request.POST.copy()
    reference = data.get("circle", "")
    grant = circle_grant(reference) if reference else None
    circle = grant.circle if grant is not None else None
    evening = evening_grant(data.get("evening", "")) if data.get("evening") else None
    if evening is not None:
        grant, circle = None, evening.circle
    seats = SeatList(data.getlist("seat"), _roster(circle), circle=circle)
    seats.grant, seats.evening = grant, evening
    if reference and circle is None:
        seats.error = _(
            "The circle's editor link was replaced: open its new link to start its game."
        )
    if data.get("evening") and evening is None:
        seats.error = _(
            "The evening's editor link was replaced: open its new link to start its next game."
        )
    op = data.get("op", "start")
    typed = data.get("name", "").strip()
    if op == "add" or (op == "start" and typed):
        if seats.add_name(typed):
            data["name"] = ""
    elif op != "start":
        seats.apply(op)
    data.setlist("seat", seats.values)
    dealer = data.get("first_dealer", "draw")
    position = small_int(dealer)
    if dealer != "draw" and not (position is not None and position < len(seats.entries)):
        data["first_dealer"] = "draw"
    if op == "start" and not seats.error:
        form = NewGameForm(data, seats=seats)
        if form.is_valid():
            try:
                return _started(request, _start(request, form, seats))
            except EveningClosed:
                seats.error = _(
                    "The evening's balances were carried meanwhile: start the game from the "
                    "next evening."
                )
                form = NewGameForm(initial={key: data.get(key) for key in data}, seats=seats)
            except OnePersonTwice as exc:  # a merge came between: the page, as it is now
                seats = SeatList(data.getlist("seat"), _roster(circle), circle=circle)
                seats.error = exc.message
                form = NewGameForm(initial={key: data.get(key) for key in data}, seats=seats)
        return _new_game_page(request, form)
    form = NewGameForm(initial={key: data.get(key) for key in data}, seats=seats)
    changed = _house_rules_changed(form, data)
    return _new_game_page(request, form, focus_name=op == "add", rules_open=changed)


def _house_rules_changed(form: NewGameForm, data: QueryDict) -> bool:
    """Whether the posted house rules or schedule differ from the defaults (then they show
    unfolded); a tick box's value is whether it was posted."""
    changed = bool(data.get("schedule", "").strip())
    for name, field in form.fields.items():
        if not name.startswith("opt_"):
            continue
        if isinstance(field, BooleanField):
            form.initial[name] = name in data
        if str(form.initial.get(name)) != str(field.initial):
            changed = True
    return changed


def _started(request: HttpRequest, game: Game) -> HttpResponse:
    """To the new game's sheet, remembering its variant for this phone's next new game."""
    response: HttpResponse
    if htmx_of(request):
        response = HttpResponseClientRedirect(game_url(game.editor_token))
    else:
        response = redirect(game_url(game.editor_token))
    response.set_cookie(
        LAST_VARIANT,
        game.variant_id,
        max_age=LAST_VARIANT_AGE,
        samesite="Lax",
        httponly=True,
        secure=settings.SESSION_COOKIE_SECURE,
    )
    return response


def _start(request: HttpRequest, form: NewGameForm, seats: SeatList) -> Game:
    data = form.cleaned_data
    variant = get_variant(data["variant"])
    n = len(seats.entries)
    draw = None
    if data["first_dealer"] == "draw":
        draw = draw_first_dealer(variant, n)
        first_dealer = draw.dealer
    else:
        first_dealer = int(data["first_dealer"])
    pauses.point("new_game.start")  # the seats were read; the game is not written yet
    with transaction.atomic():
        game = Game.objects.create(
            variant_id=variant.id,
            options=data["options"],
            schedule=data["schedule_rows"],
            first_dealer=first_dealer,
            value_per_point=data.get("value_per_point"),
            circle=seats.circle,
        )
        names = [seat.name for seat in seats.seat(game)]
        game.start(
            actor=Actor("creator", device(request)), details={"draw": draw.rounds if draw else None}
        )
        if seats.evening is not None:
            _count_in(request, game, seats.evening)
    remember_created(request, game)
    dealer_name = names[first_dealer]
    if draw:
        card = local_code(parse_card(draw.rounds[-1][first_dealer]), get_language())
        text = (
            _("%(name)s drew the highest card (%(card)s) and deals first.")
            if draw.highest
            else _("%(name)s drew the lowest card (%(card)s) and deals first.")
        )
        messages.success(request, text % {"name": dealer_name, "card": card})
    else:
        messages.success(request, _("%(name)s deals first.") % {"name": dealer_name})
    return game


def _count_in(request: HttpRequest, game: Game, evening: Evening) -> None:
    """The new game counts in ``evening`` from its start, at its own money per point, else
    at the stake of the evening's last game: added through the kernel, at the evening's
    version as it is now (its row locked: a carry made meanwhile closes it, and then
    nothing is made). Raises EveningClosed."""
    locked = Evening.objects.select_for_update().get(pk=evening.pk)
    last = locked.games.order_by("-position").first()
    stake = game.value_per_point
    if stake is None:  # the last game's stake, as the game is seated as the last one
        stake = last.stake if last is not None else locked.stake
    role = "creator" if locked.pk in created_ids(request, EVENINGS) else "editor_link"
    actor = Actor(role, device(request))
    locked.add_game(game, stake, version=locked.version, once=None, actor=actor)


@require_safe
@private_to_editors
def game_list(request: HttpRequest) -> HttpResponse:
    games = known_games(request)
    return render(
        request,
        "scorepad/game_list.html",
        {
            "in_progress": [g for g in games if not g.is_finished],
            "finished": [g for g in games if g.is_finished],
            "evenings": known_evenings(request),
            "names": NAMES,
        },
    )


@require_http_methods(["GET", "POST"])
@private_to_editors
def game_import(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = import_game(
                form.cleaned_data["document"],
                actor=Actor("import", device(request)),
            )
        except ImportProblem as exc:
            form.add_error(None, str(exc))
        else:
            remember_created(request, game)
            messages.success(request, _("Game imported."))
            return redirect(game_url(game.editor_token))
    return render(request, "scorepad/game_import.html", {"form": form})
