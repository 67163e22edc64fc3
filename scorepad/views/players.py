"""The people of a circle with their record across the circle's games, per variant, and
each person's page: ratings, streaks and head-to-head. Reached through the circle's link
only, and counting only the circle's games (someone merged into another counts as that one);
and a circle's year."""

from __future__ import annotations

from collections.abc import Hashable
from datetime import datetime

from django.db.models import Case, Count, F, Max, Min, Q, Sum, Value, When
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from rules.engine.variants import VARIANT_IDS, get_variant
from rules.facts import NAMES

from ..access import Access
from ..circles import circle_view
from ..collation import sort_key
from ..models import Deal, DealScore, Game, Person, Seat, roots
from ..records import finished_years, game_records, year_games
from ..stats import circle_year as year_figures
from ..stats import player_records, rating_chart


def _games(circle, person: str, wins):
    """Per person (``person``: the seat's column naming them) and variant: the games, the
    finished ones and the wins."""
    return (
        Seat.objects.filter(game__circle=circle, **{f"{person}__isnull": False})
        .values(person, "game__variant_id")
        .annotate(
            games=Count("id"),
            finished=Count("id", filter=Q(game__status=Game.Status.FINISHED)),
            wins=wins,
        )
    )


@require_safe
@circle_view()
def player_list(request: HttpRequest, access: Access) -> HttpResponse:
    circle = access.circle
    who = roots(circle.pk)
    people = {p.pk: p for p in circle.people()}
    finished = Q(game__status=Game.Status.FINISHED)
    games = _games(circle, "person_id", Count("id", filter=finished & Q(place=1)))
    # Who played a seat before a newcomer took it over played the game and left: no win.
    before = _games(circle, "before_person_id", Value(0))
    # A deal is the player's who played the seat in it: the one before, up to their last.
    played_by = Case(
        When(
            seat__before_person__isnull=False,
            deal__number__lte=F("seat__before_until"),
            then=F("seat__before_person_id"),
        ),
        default=F("seat__person_id"),
    )
    deals = (
        DealScore.objects.filter(
            seat__game__circle=circle,
            seat__person__isnull=False,
            deal__status=Deal.Status.SCORED,
        )
        .annotate(played_by=played_by)
        .values("played_by", "seat__game__variant_id")
        .annotate(
            deals=Count("id"),
            total=Sum("points"),
            low=Min("points"),
            high=Max("points"),
        )
    )
    records: dict[tuple[int, str], dict] = {}
    for row in [*games, *({**r, "person_id": r["before_person_id"]} for r in before)]:
        key = (who[row["person_id"]], row["game__variant_id"])
        record = records.setdefault(key, {"games": 0, "finished": 0, "wins": 0})
        for field in ("games", "finished", "wins"):
            record[field] += row[field]
    for row in deals:
        key = (who[row["played_by"]], row["seat__game__variant_id"])
        record = records.setdefault(key, {"games": 0, "finished": 0, "wins": 0})
        payment = get_variant(key[1]).scoring == "payment"
        best = row["high"] if payment else row["low"]
        worst = row["low"] if payment else row["high"]
        if "deals" in record:  # a merged person's seats: one record
            pick = max if payment else min
            best = pick(best, record["best"])
            worst = (min if payment else max)(worst, record["worst"])
            count, total = record["deals"] + row["deals"], record["sum"] + row["total"]
        else:
            count, total = row["deals"], row["total"]
        record.update(deals=count, sum=total, average=total / count, best=best, worst=worst)
    table = []
    lang = request.LANGUAGE_CODE
    for person in sorted(people.values(), key=lambda p: (sort_key(p.name, lang), p.pk)):
        rows = [
            {
                "variant": NAMES[v],
                "variant_id": v,
                "payment": get_variant(v).scoring == "payment",
                **records[(person.pk, v)],
            }
            for v in VARIANT_IDS
            if (person.pk, v) in records
        ]
        table.append({"player": person, "rows": rows})
    context = {"players": table, "circle": circle, "token": access.token}
    return render(request, "scorepad/player_list.html", context)


@require_safe
@circle_view()
def player_page(request: HttpRequest, access: Access, pk: int) -> HttpResponse:
    """One person's ratings, record, streaks and head-to-head per variant in the circle,
    computed on read from the stored deals (scorepad/stats.py); someone merged into another
    leads to that one's page (an old link or bookmark still works), anyone not of this
    circle is a 404."""
    circle = access.circle
    person = Person.objects.filter(circle=circle, pk=pk).first()
    if person is None:
        raise Http404("no such person in this circle")
    if person.merged_into_id is not None:
        root = roots(circle.pk).get(person.pk, person.pk)
        return redirect(reverse("circle-player", args=[access.token, root]))
    records = player_records(game_records(person), person.pk)
    opponents = {h.opponent for r in records for h in r.head_to_head}
    names: dict[Hashable, str] = dict(
        Person.objects.filter(pk__in=opponents).values_list("pk", "name")
    )
    lang = request.LANGUAGE_CODE
    variants = []
    for record in records:
        rows = sorted(
            record.head_to_head,
            key=lambda h: (sort_key(names.get(h.opponent, ""), lang), str(h.opponent)),
        )
        variants.append(
            {
                "variant": NAMES[record.variant],
                "variant_id": record.variant,
                "payment": get_variant(record.variant).scoring == "payment",
                "r": record,
                "percent": None if record.win_rate is None else round(100 * record.win_rate),
                "chart": rating_chart(record.history, key=record.variant),
                "head_to_head": [(names.get(h.opponent, "?"), h) for h in rows],
            }
        )
    context = {"player": person, "variants": variants, "circle": circle, "token": access.token}
    return render(request, "scorepad/player.html", context)


@require_safe
@circle_view()
def circle_year(request: HttpRequest, access: Access, year: int) -> HttpResponse:
    """A circle's year: per variant, its finished games and evenings, and each player's best
    deal, longest winning streak, rival and partner (scorepad/stats.py ``circle_year``).
    Nothing on it changes anything; a viewer link sees it as an editor does."""
    circle = access.circle
    years = finished_years(circle.pk)
    if year not in years:
        raise Http404("no finished game of the circle in this year")
    games, records = year_games(circle.pk, year)
    names: dict[Hashable, str] = dict(
        Person.objects.filter(circle=circle).values_list("pk", "name")
    )
    finished_on: dict[Hashable, datetime | None] = {g.pk: g.finished_at for g in games}
    lang = request.LANGUAGE_CODE
    variants = []
    for part in year_figures(records):
        players = sorted(
            part.players, key=lambda r: (-r.wins, sort_key(names.get(r.player, "?"), lang))
        )
        rows = [
            {
                "name": names.get(r.player, "?"),
                "r": r,
                "best_on": finished_on.get(r.best.game) if r.best else None,
                "rival": names.get(r.rival.other, "?") if r.rival else None,
                "partner": names.get(r.partner.other, "?") if r.partner else None,
            }
            for r in players
        ]
        variants.append(
            {
                "variant": NAMES[part.variant],
                "variant_id": part.variant,
                "payment": get_variant(part.variant).scoring == "payment",
                "part": part,
                "rows": rows,
            }
        )
    context = {
        "circle": circle,
        "token": access.token,
        "year": year,
        "years": years,
        "variants": variants,
        "games": len(records),
        "evenings": len({r.evening for r in records if r.evening is not None}),
    }
    return render(request, "scorepad/circle_year.html", context)
