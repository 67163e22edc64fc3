from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from rules import pages
from rules.engine.variants import VARIANT_IDS, VARIANTS
from rules.pages.words import words


@require_safe
def api_docs(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/api.html", {"variants": VARIANTS.values()})


# --- rules pages ---------------------------------------------------------------------------------


def _rules_games(lang: str) -> list[dict]:
    """The four games for links: title and essence in the page's language."""
    games = []
    for vid in VARIANT_IDS:
        page = pages.get_page(pages.RULES, vid, lang)
        v = VARIANTS[vid]
        games.append(
            {
                "id": vid,
                "title": page.title,
                "essence": page.essence,
                "players": f"{v.min_players}–{v.max_players}",
                "url": reverse("rules-variant", args=[vid]),
                "summary_url": reverse("rules-summary", args=[vid]),
            }
        )
    return games


@require_safe
def rules_index(request: HttpRequest) -> HttpResponse:
    """``/<lang>/rules/``: the four games, each with its rules and one-page summary."""
    lang = get_language()
    return render(
        request,
        "rules/index.html",
        {
            "page": pages.get_page(pages.INDEX, None, lang),
            "w": words(lang),
            "games": _rules_games(lang),
        },
    )


@require_safe
def rules_glossary(request: HttpRequest) -> HttpResponse:
    """``/<lang>/rules/glossary/``: the words of the games in the page's language, every entry
    of the glossary in ``words/<lang>.toml`` (each game's page shows the entries of that game)."""
    lang = get_language()
    return render(
        request,
        "rules/glossary.html",
        {"page": pages.get_page(pages.GLOSSARY, None, lang), "w": words(lang)},
    )


@require_safe
def rules_tournament(request: HttpRequest) -> HttpResponse:
    """``/<lang>/rules/tournament/``: how a club tournament works (series, tables, the draw
    from a seed, the ranking across tables, confirmation), with a worked example the engine
    computes when the page is rendered."""
    lang = get_language()
    return render(
        request,
        "rules/tournament.html",
        {"page": pages.get_page(pages.TOURNAMENT, None, lang), "w": words(lang)},
    )


def _variant_page(request: HttpRequest, variant_id: str, kind: str) -> HttpResponse:
    if variant_id not in VARIANT_IDS:
        raise Http404("no such game")
    lang = get_language()
    variant = VARIANTS[variant_id]
    game = pages.game_options(variant, request.GET)
    page = pages.get_page(kind, variant_id, lang)
    games = _rules_games(lang)
    return render(
        request,
        "rules/summary.html" if kind == pages.SUMMARY else "rules/variant.html",
        {
            "page": page,
            "w": words(lang),
            "variant": variant,
            "game": game,
            "house_rules": pages.house_rule_rows(variant, lang, game),
            "option_errors": pages.error_texts(variant, lang, game, named=kind == pages.SUMMARY),
            "summary": kind == pages.SUMMARY,
            "this_game": next(g for g in games if g["id"] == variant_id),
            "other_games": [g for g in games if g["id"] != variant_id],
        },
    )


@require_safe
def rules_variant(request: HttpRequest, variant_id: str) -> HttpResponse:
    """``/<lang>/rules/<variant-id>/``: the full rules of one game in the page's language.

    "Rules of this game" from a game's page links here with the game's house rules, which are
    then marked in the section "House rules" (``#house-rules``). Either spelling works, and
    both may be mixed:

    * ``?options=<JSON object>`` (URL-encoded), e.g. ``?options={"twos_wild":false}``, or
      ``key=value`` pairs separated by commas: ``?options=twos_wild=false``;
    * one query parameter per option: ``?twos_wild=false``, ``?opening_minimum=40``.

    Option names and values are the engine's (``Variant.options``, as in the API's
    ``options``); options left out take their defaults. A name or value that cannot be read
    is left out and named on the page; the page still answers 200. An unknown game is a 404.
    """
    return _variant_page(request, variant_id, pages.RULES)


@require_safe
def rules_summary(request: HttpRequest, variant_id: str) -> HttpResponse:
    """``/<lang>/rules/<variant-id>/summary/``: the one-page summary, made to be printed.

    Takes the same ``options`` query as :func:`rules_variant` and marks them alike.
    """
    return _variant_page(request, variant_id, pages.SUMMARY)
