"""Table mode of a game and of an evening, and the version checks that keep it live.

Reached through the viewer link or the editor link; an editor link is sent on to the viewer
link's table, so the page (and every answer of its live update) holds no editor link and
no form: nothing on it changes anything. A dead link is not found (the version check: 286,
stop polling).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET
from django_htmx.http import HttpResponseStopPolling

from rules.facts import NAMES

from ..access import EVENINGS, private_to_editors, resolve
from ..evenings import build_evening
from ..models import Game
from ..sheet import build_sheet
from ..tablemode import evening_table, evening_version, evening_version_by_token
from ..tablemode import game_table as arrange_game
from .common import game_url

TEMPLATE = "scorepad/tablemode.html"


def _game_context(request: HttpRequest, token: str) -> dict[str, Any]:
    access = resolve(request, token, full=True)
    game = access.game
    return {
        "kind": "game",
        "game": game,
        "viewer": game.viewer_token,
        "version": game.version,
        "variant_name": NAMES[game.variant_id],
        "table": arrange_game(build_sheet(game)),
    }


@require_GET
@private_to_editors
def game_table(request: HttpRequest, token: str) -> HttpResponse:
    return _page(request, token, _game_context(request, token), "game-table")


@require_GET
@private_to_editors
def game_table_version(request: HttpRequest, token: str) -> HttpResponse:
    """204 while the game is at the version shown (one query), the fresh table otherwise."""
    current = Game.objects.by_token(token).version()
    return _checked(request, token, None if current is None else str(current), _game_context)


def _evening_context(request: HttpRequest, token: str) -> dict[str, Any]:
    access = resolve(request, token, kind=EVENINGS)
    evening = access.evening
    return {
        "kind": "evening",
        "evening": evening,
        "viewer": evening.viewer_token,
        "version": evening_version(evening.pk, evening.version),
        "table": evening_table(build_evening(evening)),
    }


@require_GET
@private_to_editors
def evening_table_page(request: HttpRequest, token: str) -> HttpResponse:
    return _page(request, token, _evening_context(request, token), "evening-table")


@require_GET
@private_to_editors
def evening_table_version(request: HttpRequest, token: str) -> HttpResponse:
    """204 while neither the evening nor any of its games changed, the fresh table otherwise."""
    return _checked(request, token, evening_version_by_token(token), _evening_context)


def _page(request: HttpRequest, token: str, context: dict[str, Any], name: str) -> HttpResponse:
    """Table mode by its viewer link; any other link is sent there (no editor link on it)."""
    if token != context["viewer"]:
        return redirect(game_url(context["viewer"], name))
    return render(request, TEMPLATE, context)


def _checked(
    request: HttpRequest,
    token: str,
    current: str | None,
    context: Callable[[HttpRequest, str], dict[str, Any]],
) -> HttpResponse:
    """The live check: 286 for a dead link, 204 at the version shown, else the fresh board."""
    if current is None:
        return HttpResponseStopPolling()
    if request.GET.get("v") == current:
        return HttpResponse(status=204)
    return HttpResponse(render_to_string(f"{TEMPLATE}#board", context(request, token)))
