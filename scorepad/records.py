"""The stored games as the plain data ``scorepad/stats.py`` computes a player's record from."""

from __future__ import annotations

from collections.abc import Hashable, Mapping

from django.db.models import F, Prefetch, Q

from rules.engine.variants import CLASSIC

from .models import Deal, Game, Person, Seat, roots
from .stats import GameRecord


def game_records(person: Person) -> list[GameRecord]:
    """Every game of the person's circle, of the variants they played, that their record
    needs: their own games, finished or not, and every finished game of the circle of those
    variants (the others' games move the ratings too); finished games first, oldest first,
    in a fixed number of queries. A player is a person of the circle: someone merged into
    another counts as that one (``roots``); no game outside the circle counts.

    A deal counts when it was scored and the audit does not flag it (rules/engine/audit.py).
    """
    who = roots(person.circle_id)
    family = [pk for pk, root in who.items() if root == who[person.pk]]
    # Their seats, and the seats they played before a newcomer took them over.
    sat = Q(person__in=family) | Q(before_person__in=family)
    variants = Seat.objects.filter(sat).values("game__variant_id")
    games = (
        Game.objects.filter(circle_id=person.circle_id, variant_id__in=variants)
        .filter(
            Q(status=Game.Status.FINISHED)
            | Q(seats__person__in=family)
            | Q(seats__before_person__in=family)
        )
        .distinct()
        .order_by(F("finished_at").asc(nulls_last=True), "created_at", "pk")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.order_by("position")),
            Prefetch("deals", queryset=Deal.objects.order_by("number").prefetch_related("scores")),
        )
    )
    return [_record(game, who) for game in games]


def year_games(circle_id: int, year: int) -> tuple[list[Game], list[GameRecord]]:
    """The circle's games finished in ``year`` (in the site's time zone), in the order they
    were finished, each with the evening it counts in, in a fixed number of queries; a
    player is a person of the circle as in ``game_records``."""
    who = roots(circle_id)
    games = list(
        Game.objects.filter(
            circle_id=circle_id, status=Game.Status.FINISHED, finished_at__year=year
        )
        .order_by("finished_at", "created_at", "pk")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.order_by("position")),
            Prefetch("deals", queryset=Deal.objects.order_by("number").prefetch_related("scores")),
            "evening_games",
        )
    )
    evening_of = {g.pk: next((e.evening_id for e in g.evening_games.all()), None) for g in games}
    return games, [_record(game, who, evening_of[game.pk]) for game in games]


def finished_years(circle_id: int) -> list[int]:
    """The years in which the circle finished a game, the latest first."""
    moments = Game.objects.filter(circle_id=circle_id, status=Game.Status.FINISHED).datetimes(
        "finished_at", "year", order="DESC"
    )
    return [moment.year for moment in moments]


def _record(game: Game, who: dict[int, int], evening: int | None = None) -> GameRecord:
    seats = list(game.seats.all())
    positions = {s.pk: s.position for s in seats}
    # A seat with no person (a damaged row) is its own player of this game.
    player_at = {s.position: who.get(s.person_id or 0, f"seat{s.pk}") for s in seats}
    # A seat taken over: its deals up to ``before_until`` are the one who played it before,
    # a player who left (unless they sit at another seat now); the newcomer starts with the
    # total they inherit.
    before_at = {
        s.position: who.get(s.before_person_id or 0, f"before{s.pk}")
        for s in seats
        if s.before_name and who.get(s.before_person_id or 0) not in player_at.values()
    }
    until = {s.position: s.before_until or 0 for s in seats if s.position in before_at}
    start = {player_at[s.position]: s.start for s in seats}
    classic = game.variant_id == CLASSIC
    deals: list[Mapping[Hashable, int]] = []
    for deal in game.deals.all():
        if deal.is_abandoned or deal.flaw(positions, classic) is not None:
            continue
        # The players of a deal are the seats with a score in it (players come and go).
        played: dict[Hashable, int] = {}
        for score in deal.scores.all():
            position = positions[score.seat_id]
            if deal.number <= until.get(position, 0):
                played[before_at[position]] = score.points
                start[player_at[position]] += score.points  # inherited
            else:
                played[player_at[position]] = score.points
        deals.append(played)
    for position, before in before_at.items():
        start[before] = next(s.start for s in seats if s.position == position)
    return GameRecord(
        key=game.pk,
        variant=game.variant_id,
        players=(*(player_at[s.position] for s in seats), *before_at.values()),
        deals=tuple(deals),
        finished=game.is_finished,
        start={player: n for player, n in start.items() if n},
        evening=evening,
        left=frozenset(
            [*(player_at[s.position] for s in seats if not s.active), *before_at.values()]
        ),
    )
