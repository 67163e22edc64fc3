"""The sheet, its live version check, its history, its sharing links and its exports."""

from __future__ import annotations

import json

import segno
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import HttpResponseStopPolling

from rules.engine.variants import CLASSIC
from rules.facts import NAMES

from .. import board, history, warm
from ..access import (
    Access,
    forbidden,
    game_view,
    private_to_editors,
    remember_seen,
    resolve,
)
from ..forms.change import once_token
from ..models import Game
from ..results import Result, game_result, offered
from ..sheet import build_sheet
from ..transfer import export_csv, export_document
from .common import game_context, game_url, htmx_of, public_url, render_game
from .writes import replace_link


@require_GET
@private_to_editors
def game_page(request: HttpRequest, token: str) -> HttpResponse:
    # The game without its rows: the sheet comes from the cache when it has this version.
    access = resolve(request, token, full=False)
    response = render_game(request, access)
    if access.via != "creator":
        remember_seen(request, response, access.token)
    return response


@require_GET
@private_to_editors
def game_version(request: HttpRequest, token: str) -> HttpResponse:
    """Polled by every open sheet: 204 while the version is unchanged (one query, nothing
    rendered), the fresh sheet partial once it changed, 286 (stop polling) for a dead link.
    A plain viewer's fresh sheet (``board.plain_viewer``) is kept whole per version and
    language: the other viewers' phones get it from two queries, and while the first one
    renders it they wait for it (``board.claim``) instead of rendering it too."""
    # The request that keeps a change's viewers' answer is handed the game (scorepad/warm.py).
    handed = warm.warmed_game(request, token)
    row: tuple[int, int, str] | None
    if handed is not None:
        row = (handed.pk, handed.version, handed.editor_token)
    else:
        found = Game.objects.by_token(token).order_by()
        row = next(iter(found.values_list("pk", "version", "editor_token")[:1]), None)
    if row is None:
        return HttpResponseStopPolling()
    pk, current, editor_token = row
    if request.GET.get("v") == str(current):
        return HttpResponse(status=204)
    # Every plain viewer of the table asks for the same new sheet: the first one's answer is
    # kept whole for the others (scorepad/board.py), nothing of it is rendered again.
    kept_for_viewers = token != editor_token and board.plain_viewer(request)
    key = board.viewer_key(pk, current)
    claimed = False
    # The change's own worker keeping it ahead (scorepad/warm.py) renders it in the change's
    # transaction: no phone knows the version yet, none to wait for and none to tell.
    if kept_for_viewers and not warm.warming(request):
        answer = board.get_answer(key)
        if answer is None:
            # Another phone of the table may be rendering this very answer: wait for it.
            claimed = board.claim(key)
            answer = None if claimed else board.wait_for_answer(key)
        if answer is not None:
            return HttpResponse(answer)
    try:
        return _fresh_sheet(request, token, kept_for_viewers, handed)
    finally:
        if claimed:
            board.release(key)


def _fresh_sheet(
    request: HttpRequest, token: str, kept_for_viewers: bool, handed: Game | None = None
) -> HttpResponse:
    """The sheet partial rendered for this phone (and kept whole for the plain viewers);
    ``handed``: the game as the change that keeps this answer left it (a viewer's, with no
    session: the warming request's)."""
    if handed is not None:
        access = Access(handed, token, "viewer", "viewer_link")
    else:
        access = resolve(request, token, full=False)
    # An editor with a deal form open keeps it: the fresh sheet comes without the actions.
    htmx = htmx_of(request)
    shown = htmx.current_url_abs_path if htmx else None
    panel_open = bool(shown and "/deals/" in shown)
    context = game_context(request, access, panel_open=panel_open)
    # The messages of the sheet it replaces no longer hold: "Deal 4 recorded." goes.
    sheet = render_to_string("scorepad/game.html#sheet", context, request)
    gone = render_to_string("scorepad/game.html#messages", {**context, "oob": True}, request)
    version = access.game.version
    response = HttpResponse(sheet + gone)
    if (
        kept_for_viewers
        and not access.can_edit
        and not context["replaced"]
        and (board.exact(access.game) or board.still_at(access.game, version))
    ):
        key = board.viewer_key(access.game.pk, version)
        if warm.warming(request):  # kept by the saving worker with word to the streams
            setattr(response, warm.KEEP_AS, key)
        else:
            board.keep_answer(key, sheet + gone)
    return response


@require_GET
@game_view()
def game_history(request: HttpRequest, access: Access) -> HttpResponse:
    game = access.game
    names = {str(s.position): s.name for s in game.seats.all()}
    open_slot = (
        access.can_edit and not game.is_finished and not game.is_complete(game.deals.count())
    )
    events = history.entries(game.events.all()[:300], names, request.LANGUAGE_CODE, open_slot)
    return render(
        request,
        "scorepad/history.html",
        {
            "access": access,
            "game": game,
            "events": events,
            "once": once_token(),
            "variant_name": NAMES[game.variant_id],
            "is_classic": game.variant_id == CLASSIC,
            "flagged": build_sheet(game).flagged if game.variant_id == CLASSIC else [],
        },
    )


def _qr(url: str, *, scalable: bool = False) -> str:
    """The QR code of ``url`` as inline SVG; ``scalable``: with a viewBox and no size, as
    large as the page's stylesheet makes it (a printed table card)."""
    return segno.make(url, error="m").svg_inline(
        scale=5, border=2, svgclass="qr", lineclass="qr-dark", light="#fff", dark="#000",
        omitsize=scalable,
    )  # fmt: skip


@require_http_methods(["GET", "POST"])
@game_view()
def game_share(request: HttpRequest, access: Access) -> HttpResponse:
    game = access.game
    if request.method == "POST":
        if not access.can_edit:
            return forbidden(request, access)
        return replace_link(request, access, to="game-share")
    links = []
    viewer_url = public_url(request, game_url(game.viewer_token))
    links.append({"which": "viewer", "url": viewer_url, "qr": _qr(viewer_url)})
    if access.can_edit:
        editor_url = public_url(request, game_url(game.editor_token))
        links.append({"which": "editor", "url": editor_url, "qr": _qr(editor_url)})
    # Table mode, for the screen in the middle of the table: the viewer link's table.
    table_url = public_url(request, game_url(game.viewer_token, "game-table"))
    return render(
        request,
        "scorepad/share.html",
        {
            "access": access,
            "game": game,
            "share_links": links,
            "table_link": {"url": table_url, "qr": _qr(table_url)},
            "once": once_token(),
            "variant_name": NAMES[game.variant_id],
        },
    )


def _filename(access: Access, ext: str) -> str:
    game = access.game
    return f"{slugify(game.variant_id)}-{game.created_at:%Y-%m-%d}-{game.pk}.{ext}"


@require_GET
@game_view()
def export_json(request: HttpRequest, access: Access) -> HttpResponse:
    document = export_document(build_sheet(access.game))
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=2), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{_filename(access, "json")}"'
    return response


@require_GET
@game_view()
def export_csv_view(request: HttpRequest, access: Access) -> HttpResponse:
    response = HttpResponse(
        export_csv(build_sheet(access.game)), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{_filename(access, "csv")}"'
    return response


def picture_response(request: HttpRequest, result: Result) -> HttpResponse:
    """The shared picture of a result, as SVG (no link in it; its name holds none either)."""
    response = HttpResponse(
        render_to_string("scorepad/result.svg", {"result": result}, request),
        content_type="image/svg+xml; charset=utf-8",
    )
    response["Content-Disposition"] = f'inline; filename="{result.filename}.svg"'
    return response


def no_result(request: HttpRequest, back: str) -> HttpResponse:
    """The picture's address of a game in progress (or an evening without a game): 404."""
    return render(request, "scorepad/no_result.html", {"back": back}, status=404)


@require_GET
@game_view()
def result_svg(request: HttpRequest, access: Access) -> HttpResponse:
    """The picture of a finished game's final standings; none for a game in progress."""
    sheet = build_sheet(access.game)
    if not offered(access.game, sheet):
        return no_result(request, game_url(access.token))
    return picture_response(request, game_result(sheet))
