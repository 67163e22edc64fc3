"""Rendering the game page (the sheet) in full or, for htmx, as one of its partials."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable
from decimal import Decimal
from typing import Any, cast

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.http.request import split_domain_port
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.template.response import SimpleTemplateResponse
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django_htmx.http import push_url
from django_htmx.middleware import HtmxDetails

from rules.facts import NAMES

from .. import conflicts, reading
from ..access import DEVICE, Access
from ..board import board, plain_viewer
from ..forms.change import once_token
from ..forms.deals import deal_form_class
from ..forms.games import SettleForm
from ..kepthtml import KeptHTML
from ..models import Game
from ..results import bgstats_link, game_result, offered
from ..sheet import Sheet
from ..tokens import TOKEN_MAX

GAME_TEMPLATE = "scorepad/game.html"


def game_url(token: str, name: str = "game", **kwargs: Any) -> str:
    return reverse(name, kwargs={"token": token, **kwargs})


LOOPBACK_HOSTS = ("localhost", "[::1]")


def public_url(request: HttpRequest, path: str) -> str:
    """The address of ``path`` for another phone: under PUBLIC_URL when the site has one
    (a hosted server behind a proxy); from the host computer itself (localhost) under the
    LAN address ``manage.py serve`` found, which the phones at the table reach; else as
    this request reached the site."""
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL + path
    host, _port = split_domain_port(request.get_host())
    if settings.TABLE_URL and (host in LOOPBACK_HOSTS or host.startswith("127.")):
        return settings.TABLE_URL + path
    return request.build_absolute_uri(path)


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def posted_once(request: HttpRequest) -> str:
    """The one-time token a write posted, cut to the longest a token can be (a longer text is
    none the app made: it matches nothing)."""
    return request.POST.get("once", "")[:TOKEN_MAX]


def htmx_of(request: HttpRequest) -> HtmxDetails:
    """What htmx sent with ``request``: django-htmx's middleware sets it on every request,
    which Django's request type cannot know."""
    return cast(HtmxHttpRequest, request).htmx


def partial_wanted(request: HttpRequest) -> bool:
    """An htmx request swaps a partial in; restoring the history (back button) needs the page."""
    htmx = htmx_of(request)
    return bool(htmx) and not htmx.history_restore_request


def game_context(request: HttpRequest, access: Access, **extra: Any) -> dict[str, Any]:
    """The game page's context, with this answer's one-time form token; its ``board`` (the
    sheet's table, standings and the navigation) is rendered once per game version and kept
    in the cache (scorepad/board.py)."""
    game = access.game
    context: dict[str, Any] = {
        "access": access,
        "game": game,
        "token": access.token,
        "can_edit": access.can_edit,
        "once": once_token(),
        "variant_name": NAMES[game.variant_id],
        "panel": None,
        "notice": "",
        # A plain viewer's stream carries each new sheet itself (continental/live.py).
        "live_push": not access.can_edit and plain_viewer(request),
        **extra,
    }
    if access.can_edit:
        context["held_form"] = lambda: held_form(request, access)
    context["board"] = board(
        request,
        access,
        context,
        # A settle-up amount typed into the page is this answer's own.
        cacheable="per_point" not in request.GET,
        extra=lambda sheet: {**settle_context(request, game, sheet), **share_context(sheet)},
        notes=lambda: reading.once(game, "notes", lambda: replaced_notes(access)),
    )
    # Told to this phone only: a value of its correction that another phone overwrote.
    own = request.session.get(DEVICE)
    context["replaced"] = [text for device, text in context["board"].notes if own and device == own]
    return context


def replaced_notes(access: Access) -> list[list[str]]:
    """[device, text] for each value of a phone's correction that the last change, another
    phone's correction, overwrote (both had changed it: scorepad/conflicts.py): "Deal 1 · Anna ·
    The other phone's correction was kept. Yours: 15. Now: 20." Read from the history as it was
    written; what does not fit is left out."""
    game = access.game
    # The newest entry of the history: the one the change that made this version wrote.
    pinned = reading.pinned(game)
    event = pinned.event if pinned is not None else None
    if event is None:
        event = game.events.order_by("-pk").first()
    details = event.details if event is not None and event.kind == "edited" else None
    replaced = details.get("replaced") if isinstance(details, dict) else None
    if event is None or not isinstance(replaced, list):
        return []
    seats = list(game.seats.all())
    names = {s.position: s.name for s in seats}
    form = deal_form_class(game)(game=game, seats=seats)
    notes = []
    for item in replaced:
        if not isinstance(item, dict) or not all(
            isinstance(item.get(k), str) for k in ("field", "was", "now", "device")
        ):
            continue
        name = item["field"]
        player = re.fullmatch(r"(?:points|cards)_(\d+)", name)
        what = names.get(int(player[1])) if player else None
        if what is None and name in form.fields:
            what = str(form.fields[name].label or "")
        if not what:
            continue
        # Whole sentences and labelled values: a player's name or a field's label (a question
        # such as "Out on the first turn?") stands on its own, never declined or agreed with.
        text = _(
            "Deal %(n)s · %(what)s · The other phone's correction was kept. "
            "Yours: %(was)s. Now: %(now)s."
        )
        values = {
            "n": event.deal_number,
            "was": conflicts.shown(form, name, item["was"]),
            "now": conflicts.shown(form, name, item["now"]),
            "what": what,
        }
        notes.append([item["device"], text % values])
    return notes


def offline_deal(access: Access) -> dict[str, Any]:
    """The form of the next deal that the sheet holds for a phone without a connection
    (templates/scorepad/game.html#sheet, static/js/table.js): the phone fills it, makes its
    own one-time token and keeps what it saves until it can be sent."""
    from .deals import new_deal_panel

    return new_deal_panel(access, once="")


# The held form is the same from one deal to the next but for the deal's number and the
# game's version (its title and two hidden fields): it is rendered once per process for what
# it shows (the link, the variant and its options, the schedule, the players at the table
# and the next deal's contract, in this language: scorepad/kepthtml.py) with these two marks
# in their places, which each sheet then writes its own number and version over. The marks
# are this process's secret: no player's name can hold one.
HELD = KeptHTML(8_000_000)
_MARK = secrets.token_hex(8)
NUMBER_MARK, VERSION_MARK = f"n{_MARK}", f"v{_MARK}"


def held_form(request: HttpRequest, access: Access) -> SafeString:
    """The HTML of ``offline_deal``'s form (``game.html#held-form``) for this version."""
    game = access.game
    number = len(game.deals.all()) + 1
    spec = game.deal_spec(number)
    shows = {
        "game": game.pk,
        "token": access.token,
        "variant": game.variant_id,
        "options": json.dumps(game.options, sort_keys=True),
        "schedule": json.dumps(game.schedule, sort_keys=True),
        "seats": [[s.position, s.name, s.active] for s in game.seats.all()],
        "spec": repr(spec),
    }

    def render(number: int | str, version: int | str) -> str:
        panel = offline_deal(access)
        panel["form"].initial.update(number=number, version=version)
        panel["next_number"] = number
        context = {"panel": panel, "token": access.token, "csrf_token": ""}
        return render_to_string(f"{GAME_TEMPLATE}#held-form", context, request)

    marked = HELD.render("held-form", shows, lambda: render(NUMBER_MARK, VERSION_MARK))
    if marked.count(VERSION_MARK) != 1 or NUMBER_MARK not in marked:
        return mark_safe(render(number, game.version))  # the marks did not land as expected
    # Safe: the marked HTML was escaped as it was rendered; two numbers replace two marks.
    filled = marked.replace(NUMBER_MARK, str(number)).replace(VERSION_MARK, str(game.version))
    return mark_safe(filled)


def settle_context(request: HttpRequest, game: Game, sheet: Sheet) -> dict[str, Any]:
    """The settle-up form of a finished classic game and the payments it works out."""
    if not (sheet.is_classic and game.is_finished and sheet.rows):
        return {}
    settle_form = SettleForm(request.GET if "per_point" in request.GET else None)
    per_point: Decimal | None = game.value_per_point
    if settle_form.is_bound and settle_form.is_valid():
        per_point = settle_form.cleaned_data["per_point"]
    elif not settle_form.is_bound and per_point is not None:
        settle_form = SettleForm(initial={"per_point": per_point})
    if settle_form.is_bound and not settle_form.is_valid():
        per_point = None
    return {
        "settle_form": settle_form,
        "per_point": per_point,
        "transfers": sheet.settle(per_point),
    }


def share_context(sheet: Sheet) -> dict[str, Any]:
    """A finished game's result to share (its text and picture, scorepad/results.py) and its
    BG Stats link; nothing for a game in progress."""
    if not offered(sheet.game, sheet):
        return {}
    return {"result": game_result(sheet), "bgstats": bgstats_link(sheet)}


def render_game(
    request: HttpRequest,
    access: Access,
    *,
    panel: dict[str, Any] | None = None,
    notice: str = "",
    status: int = 200,
) -> HttpResponse:
    """The sheet page, with a panel (a deal form, a confirmation) open over it or not.

    An htmx request gets the ``game`` partial only (the sheet and the panel), always with
    status 200 so htmx swaps it; a plain request gets the whole page with ``status``.
    """
    context = game_context(request, access, panel=panel, notice=notice)
    response = part_or_page(request, GAME_TEMPLATE, "game", context, status=status)
    if partial_wanted(request) and request.method == "GET":
        push_url(response, request.get_full_path())
    return response


def part_or_page(
    request: HttpRequest, template: str, part: str, context: dict[str, Any], *, status: int = 200
) -> HttpResponse:
    """A shared thing's page in full or, for htmx, only the part of it that htmx swaps
    (``template#part``: a game's ``game``, an evening's ``evening``, a circle's ``circle``),
    always with status 200 so that htmx swaps it; a plain request gets ``status``."""
    partial = partial_wanted(request)
    name = f"{template}#{part}" if partial else template
    return HttpResponse(render_to_string(name, context, request), status=200 if partial else status)


def to_sheet(access: Access) -> HttpResponse:
    return redirect(game_url(access.token))


class LaterResponse(SimpleTemplateResponse):
    """An answer Django's handler renders once the view has returned: after the write's
    transaction has committed (``game_view`` holds it around the view), so the database's
    write lock is not held while the sheet renders."""

    def __init__(self, render: Callable[[], str]):
        super().__init__(template="")
        self._later = render

    @property
    def rendered_content(self) -> str:
        return self._later()


def sheet_after_saving(request: HttpRequest, access: Access) -> HttpResponse:
    """The answer to a write that was saved. htmx swaps the sheet in from this answer itself,
    the rows the write left rendered (no redirect, no second request of the phone on the
    table's Wi-Fi, no second reading of the game), and the address shown is the game's; a
    form posted without JavaScript is redirected to the sheet (post/redirect/get)."""
    if not partial_wanted(request):
        return to_sheet(access)
    response = LaterResponse(
        lambda: render_to_string(f"{GAME_TEMPLATE}#game", game_context(request, access), request)
    )
    push_url(response, game_url(access.token))
    return response
