"""Recording, editing, deleting and undoing deals: forms that post and redirect (PRG).

Every write carries the version of the sheet it was made on and a one-time token: a stale
version changes nothing and shows the fresh sheet with a clear message; a token already
used changes nothing and just goes back to the sheet.

A phone's outbox (static/js/table.js) sends the writes it kept while it had no connection
with the header ``X-Scorepad-Outbox``: those get a short JSON answer instead of a page
(``outcome``: saved, already, conflict, invalid or gone; the game's ``version``; a
``message`` for the player), and leave no message behind for the next page. When the
database cannot be reached the answer is 503 ``retry`` (continental/dbdown.py): the outbox
sends the write again later, and its one-time token makes that safe.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from rules.engine.variants import CLASSIC

from .. import conflicts, history
from ..access import Access, actor, game_view, resolve
from ..forms.change import once_token
from ..forms.data import as_data, form_data, small_int
from ..forms.deals import DealForm, deal_form_class
from ..models import AlreadyDone, Deal, Event, Seat, StaleVersion
from ..sheet import players_of_deals
from .common import game_url, htmx_of, partial_wanted, render_game, sheet_after_saving
from .writes import (
    ERROR,
    INFO,
    after_commit,
    already_done,
    answer,
    form_refused,
    from_outbox,
    outbox_reply,
    stale_notice,
    used_once,
    write,
)


def _done(
    request: HttpRequest,
    access: Access,
    outcome: str,
    message: str,
    level=messages.SUCCESS,
    tags: str = "",
):
    """``writes.answer`` for the sheet: a saved change answers htmx with the sheet it made
    (``sheet_after_saving``)."""
    return answer(
        request, access, outcome, message, level, tags=tags, swapped=_swapped(request, access)
    )


def _swapped(request: HttpRequest, access: Access):
    """What htmx swaps in after a saved change: the sheet it made; None without htmx."""
    if not partial_wanted(request):
        return None
    return lambda: sheet_after_saving(request, access)


def _stale_sheet(request: HttpRequest, fresh: Access) -> HttpResponse:
    return render_game(request, fresh, notice=stale_notice(fresh), status=409)


def _simple_change(
    request: HttpRequest, access: Access, change, done: str, tags: str = ""
) -> HttpResponse:
    """A POST that changes the game without a form to fill: version and token only."""
    return write(
        request,
        access,
        change,
        done,
        stale=_stale_sheet,
        tags=tags,
        swapped=_swapped(request, access),
    )


def _panel(
    access: Access,
    form: DealForm,
    url: str,
    number: int | None,
    preview: bool = False,
    **extra,
):
    next_number = len(access.game.deals.all()) + 1
    return {
        "kind": "deal",
        "form": form,
        "url": url,
        "number": number,
        "preview": preview,
        "is_classic": access.game.variant_id == CLASSIC,
        "next_number": next_number,
        "spec": access.game.deal_spec(number or next_number),
        **extra,
    }


def _seats(access: Access, number: int | None) -> list[Seat]:
    """Who a deal form is for: the players of deal ``number``, or those at the table now."""
    game = access.game
    deals = list(game.deals.all())
    if number and number <= len(deals):
        playing = players_of_deals(game, deals[:number])[-1]
        return [s for s in game.seats.all() if s.position in playing]
    return game.playing_seats()


def _deal_form(
    access: Access, data=None, initial=None, number: int | None = None, seats=None
) -> DealForm:
    game = access.game
    form_class = deal_form_class(game)
    base = {"version": game.version, "once": once_token()}
    return form_class(
        data,
        initial={**base, **(initial or {})},
        game=game,
        seats=seats if seats is not None else _seats(access, number),
        deal=number,
    )


def _stored_form(access: Access, deal: Deal) -> DealForm:
    """The correction form of ``deal`` as it is stored, its ``base`` the same values."""
    initial = deal_form_class(access.game).initial_from(deal)
    form = _deal_form(access, initial={**initial, "number": deal.number}, number=deal.number)
    form.initial["base"] = conflicts.encode(conflicts.form_values(form))
    return form


def _preview_only(request: HttpRequest) -> bool:
    htmx = htmx_of(request)
    return bool(htmx) and htmx.target == "preview"


def _preview(request: HttpRequest, access: Access, number: int | None) -> HttpResponse:
    """The live result of a deal form being filled in (htmx GET: it changes nothing)."""
    form = _deal_form(access, request.GET, number=number)
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
    form = _deal_form(access, request.POST, number=number)
    valid = form.is_valid()
    if from_outbox(request) and not valid:
        return form_refused(access, form)
    if request.POST.get("preview") or not valid:
        return render_game(
            request,
            access,
            panel=_panel(access, form, url, number, preview=bool(request.POST.get("preview"))),
        )
    game = access.game
    data = form.cleaned_data
    result = form.result
    assert result is not None  # a valid deal form has its result
    try:
        if number:
            event = game.edit_deal(
                number,
                result,
                version=data["version"],
                once=data["once"],
                actor=actor(request, access),
                replaced=_replaced(request, access, form, number),
            )
            done = _("Deal %(n)d corrected.") % {"n": number}
        else:
            event = game.record_deal(
                result,
                version=data["version"],
                once=data["once"],
                actor=actor(request, access),
            )
            done = _("Deal %(n)d recorded.") % {"n": event.deal_number}
    except AlreadyDone:
        return _done(
            request, access, "already", _("That was already saved; it is recorded once."), INFO
        )
    except StaleVersion:
        fresh = resolve(request, access.token)
        if number and not fresh.game.deals.filter(number=number).exists():
            return _done(
                request, fresh, "gone", _("Deal %(n)d no longer exists.") % {"n": number}, ERROR
            )
        if fresh.game.is_finished and not number:
            return _done(request, fresh, "gone", _ended(), ERROR)
        if from_outbox(request):
            return outbox_reply(fresh, "conflict", stale_notice(fresh))
        if number:
            return _merged_correction(request, fresh, form, url, number)
        return _recorded_meanwhile(request, fresh, form, url)
    after_commit(request, access, event)
    return _done(request, access, "saved", done)


def _replaced(
    request: HttpRequest, access: Access, mine: DealForm, number: int
) -> list[dict[str, str]]:
    """The other phone's values this correction overwrites: the fields of the merged form
    (hidden ``over``: the other phone's value of each field both phones changed) whose saved
    value is still that one and which this phone saves otherwise; with the phone that saved
    it, to be told (scorepad/views/common.py)."""
    over = conflicts.decode(request.POST.get("over"))
    deal = next((d for d in access.game.deals.all() if d.number == number), None)
    if not over or deal is None:
        return []
    stored = conflicts.form_values(_stored_form(access, deal))
    saving = conflicts.form_values(mine)
    previous = (
        Event.objects.filter(game=access.game, deal_number=number)
        .exclude(kind__in=("deleted", "undone"))
        .order_by("-pk")
        .values_list("device", flat=True)
        .first()
    )
    if not previous or previous == actor(request, access).device:
        return []
    return [
        {"field": name, "was": value, "now": saving.get(name, ""), "device": previous}
        for name, value in sorted(over.items())
        if name in stored and stored[name] == value and saving.get(name, "") != value
    ]


def _merged_correction(
    request: HttpRequest, fresh: Access, mine: DealForm, url: str, number: int
) -> HttpResponse:
    """A correction that met another phone's change: the deal as saved now, with this
    phone's own changes on top, the fields where the two differ marked; not saved yet."""
    deal = next(d for d in fresh.game.deals.all() if d.number == number)
    theirs = _stored_form(fresh, deal)
    merge = conflicts.merge_forms(conflicts.decode(request.POST.get("base")), mine, theirs)
    data = as_data(
        merge.values,
        version=str(fresh.game.version),
        once=request.POST.get("once", ""),
        number=str(number),
        base=theirs.initial["base"],
    )
    form = _deal_form(fresh, data, number=number)
    form.is_valid()
    if merge.differences:
        notice = _(
            "Another phone corrected deal %(n)d while you were entering this. The form now "
            "shows its correction with your changes on top; where the two phones differ, "
            "both values are marked. Check and save again."
        ) % {"n": number}
    else:
        notice = _(
            "Another phone corrected deal %(n)d while you were entering this. The form now "
            "shows its correction with your changes on top. Check and save again."
        ) % {"n": number}
    theirs_values = conflicts.form_values(theirs)
    over = {d.name: theirs_values.get(d.name, "") for d in merge.differences}
    conflict = {
        "kind": "correction",
        "differences": merge.differences,
        "taken": merge.taken,
        "over": conflicts.encode(over) if over else "",
    }
    return _met_a_change(
        request, fresh, _panel(fresh, form, url, number, conflict=conflict), notice
    )


def _met_a_change(request: HttpRequest, fresh: Access, panel: dict, notice: str) -> HttpResponse:
    """The form that met another phone's change, open on the fresh sheet, not saved (409)."""
    return render_game(request, fresh, panel=panel, notice=notice, status=409)


def _recorded_meanwhile(
    request: HttpRequest, fresh: Access, mine: DealForm, url: str
) -> HttpResponse:
    """A new deal that met another phone's change: when a deal was recorded meanwhile under
    the number this phone meant, it is shown, and the player says whether this entry is
    another deal or the same one. Nothing is saved without a tap."""
    deals = list(fresh.game.deals.all())
    meant = mine.cleaned_data.get("number") if hasattr(mine, "cleaned_data") else None
    number = meant if meant and meant <= len(deals) else (len(deals) if meant is None else 0)
    rebound = request.POST.copy()
    rebound["version"] = str(fresh.game.version)
    rebound["number"] = str(len(deals) + 1)
    rebound.pop("base", None)
    form = _deal_form(fresh, rebound)
    form.is_valid()
    if not number:
        return _met_a_change(request, fresh, _panel(fresh, form, url, None), stale_notice(fresh))
    deal = deals[number - 1]
    seats = list(fresh.game.seats.all())
    by_pk = {s.pk: s for s in seats}
    recorded = {by_pk[score.seat_id].position: score.points for score in deal.scores.all()}
    same = form.result is not None and form.result.scores == recorded
    # "Correct it with mine" overwrites the other phone's values where this entry differs:
    # carried as ``over``, so that phone is told which (as after a correction conflict).
    theirs = conflicts.form_values(_stored_form(fresh, deal))
    typed = conflicts.form_values(form)
    over = {name: value for name, value in theirs.items() if typed.get(name, "") != value}
    conflict = {
        "kind": "recorded",
        "number": number,
        "ledger": [(s, recorded[s.position]) for s in seats if s.position in recorded],
        "same": same,
        "edit_url": game_url(fresh.token, "deal-edit", number=number),
        "over": conflicts.encode(over) if over else "",
    }
    notice = _(
        "Another phone recorded deal %(n)d while you were entering this. "
        "Is yours another deal, or the same one?"
    ) % {"n": number}
    return _met_a_change(request, fresh, _panel(fresh, form, url, None, conflict=conflict), notice)


def _ended() -> str:
    return _("The game has ended: no more deals can be recorded.")


@require_http_methods(["GET", "POST"])
@game_view(editor=True, get_deals=True)
def deal_new(request: HttpRequest, access: Access) -> HttpResponse:
    game = access.game
    if game.is_finished or game.is_complete(len(game.deals.all())):
        if request.method == "POST" and used_once(request):
            # A copy of the deal that ended the game: "already", not "the game has ended".
            return _done(request, access, "already", already_done(), INFO)
        if request.method == "POST" and from_outbox(request):
            return outbox_reply(access, "gone", _ended())
        return _done(request, access, "gone", _ended(), INFO)
    if request.method == "POST":
        return _save_deal(request, access, None)
    if _preview_only(request):
        return _preview(request, access, None)
    return render_game(request, access, panel=new_deal_panel(access))


def new_deal_panel(access: Access, **initial: Any) -> dict[str, Any]:
    """The panel of the form that records the next deal."""
    form = _deal_form(access, initial={"number": len(access.game.deals.all()) + 1, **initial})
    return _panel(access, form, game_url(access.token, "deal-new"), None)


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
    form = _stored_form(access, deal)
    form.fill_result()  # the preview shows the deal's result as soon as it opens
    return render_game(request, access, panel=_panel(access, form, request.path, number))


def _gone(request: HttpRequest, access: Access, number: int) -> HttpResponse:
    """A deal that is not (or no longer) on the sheet: 404 to look at, a message to a form."""
    if request.method != "POST":
        raise Http404("no such deal")
    if used_once(request):
        return _done(request, access, "already", already_done(), INFO)
    return _done(request, access, "gone", _("Deal %(n)d no longer exists.") % {"n": number}, ERROR)


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
        if used_once(request):
            return _done(request, access, "already", already_done(), INFO)
        return _done(request, access, "gone", _("There is no deal to undo."), INFO)
    return _simple_change(
        request,
        access,
        access.game.undo_last_deal,
        _("Deal %(n)d undone.") % {"n": number},
        tags="redo",
    )


BROUGHT_BACK_KINDS = ("undone", "deleted")


def _restored_result(access: Access, event: Event) -> DealForm | None:
    """The deal an undo or delete took away, entered again through its form and the engine
    (the game's rules are the same), so it comes back exactly as it was scored. None when
    the entry kept is of a shape no deal form reads (a backup keeps entries as they were)."""
    before = history.mapping(history.mapping(event.details).get("before"))
    status = before.get("status")
    taken = Deal(
        status=status if status in Deal.Status.values else Deal.Status.SCORED,
        went_out=history.number(before.get("went_out")),
        handromme=before.get("handromme") is True,
        entry=dict(history.mapping(before.get("entry"))),
    )
    try:
        initial = deal_form_class(access.game).initial_from(taken)
    except (AttributeError, TypeError, ValueError):
        return None
    scores = history.mapping(before.get("scores"))
    played = {int(pos) for pos in scores if pos.isascii() and pos.isdigit()}
    seats = [s for s in access.game.seats.all() if s.position in played] or None
    data = form_data({**initial, "version": 0, "once": "restore"})
    form = _deal_form(access, data, seats=seats, number=event.deal_number)
    form.is_valid()
    return form


def _bring_back(request: HttpRequest, access: Access, event: Event | None) -> HttpResponse:
    if used_once(request):
        return _done(request, access, "already", already_done(), INFO)
    game = access.game
    deal_number = None if event is None else history.number(event.deal_number)
    if (
        event is None
        or event.kind not in BROUGHT_BACK_KINDS
        or deal_number is None
        or deal_number < 1
    ):
        return _done(request, access, "gone", _("There is no deal to bring back."), INFO)
    if Event.objects.filter(game=game, kind="restored", details__source=event.pk).exists():
        return _done(
            request,
            access,
            "gone",
            _("Deal %(n)d was brought back already.") % {"n": deal_number},
            INFO,
        )
    if game.is_finished or game.is_complete(len(game.deals.all())):
        return _done(request, access, "gone", _ended(), ERROR)
    form = _restored_result(access, event)
    if form is None or form.result is None:
        return _done(
            request,
            access,
            "invalid",
            _("Deal %(n)d cannot be brought back: its entry no longer adds up.")
            % {"n": deal_number},
            ERROR,
        )

    result = form.result

    def change(**kwargs):
        return game.restore_deal(result, deal_number, source=event, **kwargs)

    count = len(game.deals.all())
    number = min(deal_number, count + 1)
    return _simple_change(request, access, change, _("Deal %(n)d brought back.") % {"n": number})


@require_POST
@game_view(editor=True)
def deal_redo(request: HttpRequest, access: Access) -> HttpResponse:
    """Redo, offered beside the message of an undo: the deal that undo took away, back.
    The form carries the version right after the undo: after any other change it is stale."""
    last = access.game.events.filter(kind="undone").order_by("-pk").first()
    return _bring_back(request, access, last)


@require_POST
@game_view(editor=True)
def deal_restore(request: HttpRequest, access: Access) -> HttpResponse:
    """From the history: bring back a deal that was undone or deleted."""
    event_id = small_int(request.POST.get("event", ""))
    event = access.game.events.filter(pk=event_id).first() if event_id else None
    return _bring_back(request, access, event)


@require_POST
@game_view(editor=True)
def game_end(request: HttpRequest, access: Access) -> HttpResponse:
    game = access.game
    if used_once(request):  # a copy: "already done", whatever the state it made
        return _done(request, access, "already", already_done(), INFO)
    if request.POST.get("op") == "resume":
        if game.is_complete(len(game.deals.all())):
            return _done(request, access, "gone", _("All the deals of this game are played."), INFO)
        return _simple_change(request, access, game.reopen, _("The game goes on."))
    return _simple_change(request, access, game.end, _("The game has ended."))
