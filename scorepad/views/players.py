"""The players this phone knows, with their record across games, per variant."""

from __future__ import annotations

from django.db.models import Avg, Count, Max, Min, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from rules.engine.variants import VARIANT_IDS, get_variant
from rules.facts import NAMES

from ..collation import sort_key
from ..models import Deal, DealScore, Game, Seat
from .games import remembered_players


def player_list(request: HttpRequest) -> HttpResponse:
    players = remembered_players(request)
    ids = list(players)
    games = (
        Seat.objects.filter(player_id__in=ids)
        .values("player_id", "game__variant_id")
        .annotate(
            games=Count("id"),
            finished=Count("id", filter=Q(game__status=Game.Status.FINISHED)),
            wins=Count("id", filter=Q(game__status=Game.Status.FINISHED, place=1)),
        )
    )
    deals = (
        DealScore.objects.filter(seat__player_id__in=ids, deal__status=Deal.Status.SCORED)
        .values("seat__player_id", "seat__game__variant_id")
        .annotate(deals=Count("id"), average=Avg("points"), low=Min("points"), high=Max("points"))
    )
    records: dict[tuple[int, str], dict] = {}
    for row in games:
        records[(row["player_id"], row["game__variant_id"])] = dict(row)
    for row in deals:
        key = (row["seat__player_id"], row["seat__game__variant_id"])
        record = records.setdefault(key, {"games": 0, "finished": 0, "wins": 0})
        payment = get_variant(key[1]).scoring == "payment"
        record.update(
            deals=row["deals"],
            average=row["average"],
            best=row["high"] if payment else row["low"],
            worst=row["low"] if payment else row["high"],
        )
    table = []
    lang = request.LANGUAGE_CODE
    for player in sorted(players.values(), key=lambda p: (sort_key(p.name, lang), p.pk)):
        rows = [
            {
                "variant": NAMES[v],
                "variant_id": v,
                "payment": get_variant(v).scoring == "payment",
                **records[(player.pk, v)],
            }
            for v in VARIANT_IDS
            if (player.pk, v) in records
        ]
        table.append({"player": player, "rows": rows})
    return render(request, "scorepad/player_list.html", {"players": table})
