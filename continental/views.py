"""The site-wide pages the project package routes: the home page, the language switch and
the bare page of the load bench. The installable app's files are in ``continental/app.py``."""

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_safe

from rules.facts import all_facts
from scorepad.access import circle_reference, known_games, private_to_editors
from scorepad.circles import known_circles
from scorepad.models import Game


@require_safe
@private_to_editors
def home(request: HttpRequest) -> HttpResponse:
    """The returning phone's circles first (a new game of one, with its last game's people
    already seated, is two taps away), then its games in progress."""
    games = known_games(request, Game.objects.in_progress())[:10]
    circles = known_circles(request)[:10]
    for circle in circles:
        circle.new_game_ref = circle_reference(circle) if circle.can_edit else ""
    context = {"variants": all_facts(), "games_in_progress": games, "circles": circles}
    return render(request, "home.html", context)


@require_GET
def choose_language(request: HttpRequest, code: str, rest: str = "") -> HttpResponse:
    """The language switcher's link ``/language/<code>/<rest of the path>``: remember the
    choice (``/`` then opens in it, before the browser's Accept-Language) and go to
    ``/<code>/<rest>``, the same page in that language."""
    if code not in dict(settings.LANGUAGES):
        raise Http404("no such language")
    target = f"/{code}/{rest}"
    if request.META.get("QUERY_STRING"):
        target += "?" + request.META["QUERY_STRING"]
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = f"/{code}/"
    response = redirect(target)
    add_never_cache_headers(response)  # the target may be a game's editor link
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        samesite="Lax",
    )
    return response


BARE_PAGE = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bare</title></head>'
    "<body><p>A fixed page: no template, no database.</p></body></html>"
)


def bench_bare(request: HttpRequest) -> HttpResponse:
    """The baseline of bench/load.py: a fixed small page through the same middleware."""
    return HttpResponse(BARE_PAGE)
