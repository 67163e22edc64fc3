"""A tournament on paper and beyond the room: the printed table cards (each table's number,
its game's QR code and its players), a paper score sheet per table, the printed ranking, the
standings as CSV and JSON for the club's web page, and the ranking's share picture.

Everything here reads (GET only): the ranking is the one after the last series every table
has confirmed (``Tournament.series_done``), so what is printed, exported or shared is whole.
The table cards hold each table's game by its editor link: the director's only.
"""

from __future__ import annotations

import io
import json
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from rules.engine.variants import get_variant
from rules.facts import NAMES

from ..access import Access
from ..results import tournament_result
from ..tournaments import Tournament
from ..transfer import SafeWriter
from .common import game_url, public_url
from .sheet import _qr, no_result, picture_response
from .tournaments import standings, tournament_url, tournament_view

BLANK_DEALS = 12  # the rows of a paper sheet when a series has minutes and no set deals


def _context(access: Access, **more: Any) -> dict[str, Any]:
    tournament = access.tournament
    return {
        "access": access,
        "tournament": tournament,
        "token": access.token,
        "variant_name": NAMES[tournament.variant_id],
        "back": tournament_url(access.token),
        **more,
    }


@require_GET
@tournament_view(editor=True)
def tournament_cards(request: HttpRequest, access: Access) -> HttpResponse:
    """The table cards of the series in play, one a printed page: the table's number, the
    QR code of its game (the link the table records with) and its players."""
    tournament = access.tournament
    cards = []
    for table in tournament.tables_of(tournament.current) if tournament.current else []:
        url = public_url(request, game_url(table.game.editor_token))
        cards.append(
            {
                "table": table,
                "names": [s.entrant.name for s in table.seated.all()],
                "url": url,
                "qr": _qr(url, scalable=True),
            }
        )
    return render(request, "scorepad/tournament_cards.html", _context(access, cards=cards))


@require_GET
@tournament_view()
def tournament_sheets(request: HttpRequest, access: Access) -> HttpResponse:
    """A paper score sheet per table of the series in play, for when the phones cannot:
    the players as columns, a row a deal (a contract game's seven contracts), the totals,
    a line for the signature of the player who confirms."""
    tournament = access.tournament
    variant = get_variant(tournament.variant_id)
    sheets = []
    for table in tournament.tables_of(tournament.current) if tournament.current else []:
        specs = table.game.deal_specs
        if specs:
            rows = [{"number": n, "spec": spec} for n, spec in enumerate(specs, start=1)]
        else:
            count = tournament.deals or BLANK_DEALS
            rows = [{"number": n, "spec": None} for n in range(1, count + 1)]
        sheets.append(
            {"table": table, "names": [s.entrant.name for s in table.seated.all()], "rows": rows}
        )
    context = _context(
        access, sheets=sheets, contract=variant.is_contract, open_ended=not tournament.deals
    )
    return render(request, "scorepad/tournament_sheets.html", context)


def final_standings(
    tournament: Tournament, current: list[dict[str, Any]] | None = None
) -> tuple[int, list[dict[str, Any]]]:
    """The series every table has confirmed, and the standings after them (``current``,
    the standings after the series in play, when that one is confirmed at every table)."""
    done = tournament.series_done
    if current is not None and done == tournament.current:
        return done, current
    return done, standings(tournament, tournament.players(), through=done)


@require_GET
@tournament_view()
def tournament_ranking(request: HttpRequest, access: Access) -> HttpResponse:
    """The ranking to print: places, placement points per series and their sum, the score
    against the table, the best series and the tie-break that decided each place."""
    done, rows = final_standings(access.tournament)
    context = _context(
        access,
        done=done,
        rows=rows,
        final=done >= access.tournament.series,
        series_numbers=range(1, done + 1),
    )
    return render(request, "scorepad/tournament_ranking.html", context)


def share_context(
    request: HttpRequest, access: Access, current: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """What the tournament's page shows to share the ranking (its picture and text), once
    a series is confirmed at every table; nothing before. ``current``: the page's standings,
    used when they are those after the last series confirmed."""
    tournament = access.tournament
    done, rows = final_standings(tournament, current)
    if not done:
        return {}
    return {
        "result": tournament_result(tournament, rows, done),
        "result_url": tournament_url(access.token, "tournament-result"),
    }


@require_GET
@tournament_view()
def tournament_result_svg(request: HttpRequest, access: Access) -> HttpResponse:
    """The picture of the ranking after the last series confirmed at every table; none
    before the first."""
    context = share_context(request, access)
    if not context:
        return no_result(request, tournament_url(access.token))
    return picture_response(request, context["result"])


# --- export: the standings for the club's web page (fields in docs/interfaces.md) ---------


def _rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The standings' rows as exported: numbers rounded (placement points to 3 places, which
    keeps them exact, the score against the table to 2)."""
    return [
        {
            "place": row["place"],
            "number": row["number"],
            "name": row["name"],
            "series": [None if p is None else round(p, 3) for p in row["series"]],
            "points": round(row["points"], 3),
            "relative": round(row["relative"], 2),
            "best": round(row["best"], 3),
            "dropped_out": row["dropped"],
            "separated_by": row["tie_break"],
            "lot": row["lot"],
        }
        for row in rows
    ]


def _attachment(response: HttpResponse, tournament: Tournament, ext: str) -> HttpResponse:
    name = slugify(tournament.name) or "tournament"
    response["Content-Disposition"] = f'attachment; filename="{name}-standings.{ext}"'
    return response


@require_GET
@tournament_view()
def tournament_json(request: HttpRequest, access: Access) -> HttpResponse:
    tournament = access.tournament
    done, rows = final_standings(tournament)
    document = {
        "tournament": {
            "name": tournament.name,
            "variant": tournament.variant_id,
            "series": tournament.series,
            "seed": tournament.seed,
            "ranking": tournament.ranking,
            "after_series": done,
            "final": done >= tournament.series,
        },
        "standings": _rows(rows),
    }
    text = json.dumps(document, ensure_ascii=False, indent=2)
    return _attachment(HttpResponse(text, content_type="application/json"), tournament, "json")


@require_GET
@tournament_view()
def tournament_csv(request: HttpRequest, access: Access) -> HttpResponse:
    """The standings as CSV: a byte-order mark, a header row of the JSON's field names,
    a row a player; a name a spreadsheet would run as a formula is written as text."""
    tournament = access.tournament
    done, rows = final_standings(tournament)
    out = io.StringIO()
    out.write("\ufeff")
    writer = SafeWriter(out)
    series = [f"series_{n}" for n in range(1, done + 1)]
    writer.writerow(["place", "number", "name", *series, "points", "relative", "best",
                     "dropped_out", "separated_by", "lot"])  # fmt: skip
    for row in _rows(rows):
        writer.writerow(
            [row["place"], row["number"], row["name"],
             *("" if p is None else p for p in row["series"]),
             row["points"], row["relative"], row["best"],
             "yes" if row["dropped_out"] else "no", row["separated_by"] or "", row["lot"]]
        )  # fmt: skip
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    return _attachment(response, tournament, "csv")
