"""The stored games as the plain data ``scorepad/stats.py`` computes a player's record from."""

from __future__ import annotations

from django.db.models import F, Prefetch, Q

from rules.engine.variants import CLASSIC

from .models import Deal, Game, Player, Seat
from .stats import GameRecord


def game_records(player: Player) -> list[GameRecord]:
    """Every game of the variants ``player`` played that their record needs: their own games,
    finished or not, and every finished game of those variants (the others' games move the
    ratings too); finished games first, oldest first, in a fixed number of queries.

    A deal counts when it was scored and the audit does not flag it (rules/engine/audit.py).
    """
    variants = Seat.objects.filter(player=player).values("game__variant_id")
    games = (
        Game.objects.filter(variant_id__in=variants)
        .filter(Q(status=Game.Status.FINISHED) | Q(seats__player=player))
        .distinct()
        .order_by(F("finished_at").asc(nulls_last=True), "created_at", "pk")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.order_by("position")),
            Prefetch("deals", queryset=Deal.objects.order_by("number").prefetch_related("scores")),
        )
    )
    return [_record(game) for game in games]


def _record(game: Game) -> GameRecord:
    seats = list(game.seats.all())
    positions = {s.pk: s.position for s in seats}
    player_at = {s.position: s.player_id for s in seats}
    classic = game.variant_id == CLASSIC
    deals = []
    for deal in game.deals.all():
        if deal.is_abandoned or deal.flaw(positions, classic) is not None:
            continue
        # The players of a deal are the seats with a score in it (players come and go).
        deals.append({player_at[positions[s.seat_id]]: s.points for s in deal.scores.all()})
    return GameRecord(
        key=game.pk,
        variant=game.variant_id,
        players=tuple(player_at[s.position] for s in seats),
        deals=tuple(deals),
        finished=game.is_finished,
        start={s.player_id: s.start for s in seats if s.start},
    )
