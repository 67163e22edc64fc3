"""The players this phone knows, with their record across games, per variant, and each
player's page: ratings, streaks and head-to-head."""

from __future__ import annotations

from django.db.models import Avg, Count, Max, Min, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from rules.engine.variants import VARIANT_IDS, get_variant
from rules.facts import NAMES

from ..collation import sort_key
from ..models import Deal, DealScore, Game, Player, Seat
from ..records import game_records
from ..stats import RatingChart, player_records
from .games import remembered_players


@require_safe
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


@require_safe
def player_page(request: HttpRequest, pk: int) -> HttpResponse:
    """One player's ratings, record, streaks and head-to-head per variant, computed on read
    from the stored deals (scorepad/stats.py); a player this phone does not know is a 404."""
    player = remembered_players(request).get(pk)
    if player is None:
        raise Http404("no such player on this phone")
    records = player_records(game_records(player), player.pk)
    opponents = {h.opponent for r in records for h in r.head_to_head}
    names = dict(Player.objects.filter(pk__in=opponents).values_list("pk", "name"))
    lang = request.LANGUAGE_CODE
    variants = []
    for record in records:
        rows = sorted(
            record.head_to_head, key=lambda h: (sort_key(names[h.opponent], lang), h.opponent)
        )
        variants.append(
            {
                "variant": NAMES[record.variant],
                "variant_id": record.variant,
                "payment": get_variant(record.variant).scoring == "payment",
                "r": record,
                "percent": None if record.win_rate is None else round(100 * record.win_rate),
                "chart": RatingChart.build(record.history),
                "head_to_head": [(names[h.opponent], h) for h in rows],
            }
        )
    return render(request, "scorepad/player.html", {"player": player, "variants": variants})
