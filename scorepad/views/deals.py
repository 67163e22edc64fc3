"""Recording, editing, deleting and undoing deals: forms that post and redirect (PRG).

Every write carries the version of the sheet it was made on and a one-time token: a stale
version changes nothing and shows the fresh sheet with a clear message; a token already
used changes nothing and just goes back to the sheet.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from ..access import Access, actor, game_view, resolve
from ..forms import DealForm, deal_form_class, once_token
from ..models import AlreadyDone, GameEvent, StaleVersion
from .common import game_url, render_game, to_sheet


def _stale_notice() -> str:
    return _(
        "The sheet changed while you were entering this: another phone saved a change. "
        "Here is the fresh sheet; check it and save again if still needed."
    )


def _panel(access: Access, form: DealForm, url: str, number: int | None, preview: bool = False):
    next_number = len(access.game.deals.all()) + 1
    return {
        "kind": "deal",
        "form": form,
        "url": url,
        "number": number,
        "preview": preview,
        "is_classic": access.game.variant_id == "classic",
        "next_number": next_number,
        "spec": access.game.deal_spec(number or next_number),
    }


def _deal_form(access: Access, data=None, initial=None) -> DealForm:
    game = access.game
    form_class = deal_form_class(game)
    base = {"version": game.version, "once": once_token()}
    return form_class(
        data, initial={**base, **(initial or {})}, game=game, seats=list(game.seats.all())
    )


def _preview_only(request: HttpRequest) -> bool:
    return bool(request.htmx) and request.htmx.target == "preview"


def _preview(request: HttpRequest, access: Access, number: int | None) -> HttpResponse:
    """The live result of a deal form being filled in (htmx GET: it changes nothing)."""
    form = _deal_form(access, request.GET)
    form.is_valid()
    return render(
        request,
        "scorepad/_deal_form.html#preview",
        {"panel": _panel(access, form, request.path, number, preview=True)},
    )


def _save_deal(request: HttpRequest, access: Access, number: int | None) -> HttpResponse:
    """POST of a deal form: preview, errors in place, or save and go back to the sheet."""
    url = (
        game_url(access.token, "deal-edit", number=number)
        if number
        else game_url(access.token, "deal-new")
    )
    form = _deal_form(access, request.POST)
    valid = form.is_valid()
    if request.POST.get("preview") or not valid:
        return render_game(
            request,
            access,
            panel=_panel(access, form, url, number, preview=bool(request.POST.get("preview"))),
        )
    game = access.game
    data = form.cleaned_data
    try:
        if number:
            game.edit_deal(
                number,
                form.result,
                version=data["version"],
                once=data["once"],
                actor=actor(request, access),
            )
            messages.success(request, _("Deal %(n)d corrected.") % {"n": number})
        else:
            event = game.record_deal(
                form.result,
                version=data["version"],
                once=data["once"],
                actor=actor(request, access),
            )
            messages.success(request, _("Deal %(n)d recorded.") % {"n": event.deal_number})
    except AlreadyDone:
        messages.info(request, _("That was already saved; it is recorded once."))
    except StaleVersion:
        fresh = resolve(request, access.token)
        if number and not fresh.game.deals.filter(number=number).exists():
            messages.error(request, _("Deal %(n)d no longer exists.") % {"n": number})
            return to_sheet(fresh)
        if fresh.game.is_finished and not number:
            messages.error(request, _("The game has ended: no more deals can be recorded."))
            return to_sheet(fresh)
        rebound = request.POST.copy()
        rebound["version"] = str(fresh.game.version)
        form = _deal_form(fresh, rebound)
        form.is_valid()
        return render_game(
            request,
            fresh,
            panel=_panel(fresh, form, url, number),
            notice=_stale_notice(),
            status=409,
        )
    return to_sheet(access)


@require_http_methods(["GET", "POST"])
@game_view(editor=True)
def deal_new(request: HttpRequest, access: Access) -> HttpResponse:
    game = access.game
    if game.is_finished or game.is_complete(len(game.deals.all())):
        messages.info(request, _("The game has ended: no more deals can be recorded."))
        return to_sheet(access)
    if request.method == "POST":
        return _save_deal(request, access, None)
    if _preview_only(request):
        return _preview(request, access, None)
    form = _deal_form(access)
    return render_game(request, access, panel=_panel(access, form, request.path, None))


@require_http_methods(["GET", "POST"])
@game_view(editor=True)
def deal_edit(request: HttpRequest, access: Access, number: int) -> HttpResponse:
    deal = next((d for d in access.game.deals.all() if d.number == number), None)
    if deal is None:
        return _gone(request, access, number)
    if request.method == "POST":
        return _save_deal(request, access, number)
    if _preview_only(request):
        return _preview(request, access, number)
    form_class = deal_form_class(access.game)
    form = _deal_form(access, initial=form_class.initial_from(deal))
    return render_game(request, access, panel=_panel(access, form, request.path, number))


def _gone(request: HttpRequest, access: Access, number: int) -> HttpResponse:
    """A deal that is not (or no longer) on the sheet: 404 to look at, a message to a form."""
    if request.method != "POST":
        raise Http404("no such deal")
    once = request.POST.get("once", "")
    if once and GameEvent.objects.filter(game=access.game, form_token=once).exists():
        messages.info(request, _("That was already done; it happened once."))
    else:
        messages.error(request, _("Deal %(n)d no longer exists.") % {"n": number})
    return to_sheet(access)


def _simple_change(request: HttpRequest, access: Access, change, done: str) -> HttpResponse:
    """A POST that changes the game without a form to fill: version and token only."""
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        messages.error(request, _("The form was incomplete; nothing was changed."))
        return to_sheet(access)
    once = request.POST.get("once", "")[:64] or None
    try:
        change(version=version, once=once, actor=actor(request, access))
    except AlreadyDone:
        messages.info(request, _("That was already done; it happened once."))
    except StaleVersion:
        fresh = resolve(request, access.token)
        return render_game(request, fresh, notice=_stale_notice(), status=409)
    else:
        messages.success(request, done)
    return to_sheet(access)


@require_http_methods(["GET", "POST"])
@game_view(editor=True)
def deal_delete(request: HttpRequest, access: Access, number: int) -> HttpResponse:
    if not any(d.number == number for d in access.game.deals.all()):
        return _gone(request, access, number)
    if request.method == "POST":

        def change(**kwargs):
            return access.game.delete_deal(number, **kwargs)

        return _simple_change(request, access, change, _("Deal %(n)d deleted.") % {"n": number})
    panel = {"kind": "delete", "number": number, "url": request.path}
    return render_game(request, access, panel=panel)


@require_POST
@game_view(editor=True)
def deal_undo(request: HttpRequest, access: Access) -> HttpResponse:
    number = len(access.game.deals.all())
    if not number:
        messages.info(request, _("There is no deal to undo."))
        return to_sheet(access)
    return _simple_change(
        request, access, access.game.undo_last_deal, _("Deal %(n)d undone.") % {"n": number}
    )


@require_POST
@game_view(editor=True)
def game_end(request: HttpRequest, access: Access) -> HttpResponse:
    game = access.game
    if request.POST.get("op") == "resume":
        if game.is_complete(len(game.deals.all())):
            messages.info(request, _("All the deals of this game are played."))
            return to_sheet(access)
        return _simple_change(request, access, game.reopen, _("The game goes on."))
    return _simple_change(request, access, game.end, _("The game has ended."))
