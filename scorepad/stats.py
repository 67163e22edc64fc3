"""A player's record per variant: OpenSkill rating, wins, deals, streaks, head-to-head.

Plain Python fed with plain data (no Django import; a test keeps it so): the page
(``scorepad/views/players.py``) reads the stored games into :class:`GameRecord` values
(``scorepad/records.py``) and everything here is computed from them on every read, so a
corrected deal changes the ratings the next time the page is shown and no rating is ever
stored stale.

- The **rating** is OpenSkill's Plackett-Luce model (the ``openskill`` package) run over the
  finishing order of every *finished* game of the variant, oldest first; tied players share a
  rank. Each player's rating is ``mu`` with its uncertainty ``sigma``; the conservative
  ``ordinal`` (mu - 3 sigma) orders a table. A game in progress is not rated.
- **Wins**, the **win rate** and the **streaks** count finished games too; first place shared
  is a win.
- The **deals** (their number, average, best and worst) count every scored deal of every
  game, finished or not; abandoned deals and deals the audit flags are left out by the reader.
- **Head-to-head**: in every finished game two players both sat at, who finished ahead.

A **circle's year** (``circle_year``) is computed the same way, from the finished games of
one year given in the order they were finished; its figures are defined in
docs/architecture.md ("A circle's year").
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

from rules.engine.scoring import running_totals, standings
from rules.engine.variants import VARIANT_IDS, get_variant

from . import charts
from .charts import Chart

P = Hashable  # whatever names a player: the page uses player ids


@dataclass(frozen=True)
class GameRecord:
    """One stored game, as plain data."""

    key: Hashable  # the game's id
    variant: str  # its variant id
    players: tuple[P, ...]  # in seating order
    # The scores of its counted deals, in order: only the players of each deal (players who
    # come and go miss some).
    deals: tuple[Mapping[P, int], ...]
    finished: bool
    start: Mapping[P, int] = field(default_factory=dict)  # starting totals of who joined late
    evening: Hashable | None = None  # the evening it counts in, if any
    # The players who left the table and were not back at it: ranked after the others.
    left: frozenset[P] = frozenset()

    def places(self) -> dict[P, int]:
        """Each player's place from the totals of the counted deals and the starting totals
        (1 for the leader; tied players share a place), as the sheet's standings give it."""
        filled = [{p: deal.get(p, 0) for p in self.players} for deal in self.deals]
        totals = (
            running_totals(filled, list(self.players))[-1]
            if filled
            else dict.fromkeys(self.players, 0)
        )
        totals = {p: totals[p] + self.start.get(p, 0) for p in self.players}
        variant = get_variant(self.variant)
        return {s.player: s.place for s in standings(totals, variant, self.left)}


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate that orders a table: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class HeadToHead:
    """Two players' finished games together: how often each finished ahead of the other."""

    player: P
    opponent: P
    games: int = 0
    ahead: int = 0  # ``player`` finished ahead of ``opponent``
    behind: int = 0
    level: int = 0  # the same place


@dataclass(frozen=True)
class Streaks:
    longest_wins: int  # the most finished games won in a row
    current: int  # how many of the latest finished games in a row were won (> 0) or not (< 0)

    @property
    def won_now(self) -> int:
        return max(self.current, 0)

    @property
    def not_won_now(self) -> int:
        return max(-self.current, 0)


@dataclass
class PlayerRecord:
    """One player's record in one variant."""

    player: P
    variant: str
    games: int = 0  # every game, finished or not
    finished: int = 0
    wins: int = 0
    deals: int = 0
    average: float | None = None
    best: int | None = None  # the best score of one deal: highest in classic, lowest else
    worst: int | None = None
    rating: Rating | None = None  # None until a finished game
    history: list[Rating] = field(default_factory=list)  # after each of its finished games
    streaks: Streaks = Streaks(0, 0)
    head_to_head: list[HeadToHead] = field(default_factory=list)
    rank: int | None = None  # by ordinal among the rated players of the variant
    rated: int = 0  # how many players of the variant are rated

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.finished if self.finished else None


MODEL = PlackettLuce()


def rate(games: Sequence[GameRecord]) -> tuple[dict[P, Rating], dict[P, list[Rating]]]:
    """OpenSkill (Plackett-Luce) over the finished games given, in the order given (one
    variant's, oldest first): every player's rating after the last game and after each of
    their games."""
    current: dict[P, Any] = {}
    history: dict[P, list[Rating]] = {}
    for game in games:
        if not game.finished or len(game.players) < 2:
            continue
        places = game.places()
        teams = [[current.get(p) or MODEL.rating(name=str(p))] for p in game.players]
        rated = MODEL.rate(teams, ranks=[places[p] for p in game.players])
        for player, (new,) in zip(game.players, rated, strict=True):
            current[player] = new
            history.setdefault(player, []).append(Rating(new.mu, new.sigma))
    final = {p: Rating(r.mu, r.sigma) for p, r in current.items()}
    return final, history


def head_to_head(games: Sequence[GameRecord], player: P, opponent: P) -> HeadToHead:
    """The finished games both players sat at, and who finished ahead in each."""
    games_together = ahead = behind = level = 0
    for game in games:
        if not game.finished or player not in game.players or opponent not in game.players:
            continue
        places = game.places()
        games_together += 1
        mine, theirs = places[player], places[opponent]
        if mine < theirs:
            ahead += 1
        elif mine > theirs:
            behind += 1
        else:
            level += 1
    return HeadToHead(player, opponent, games_together, ahead, behind, level)


def streaks(results: Sequence[bool]) -> Streaks:
    """The longest run of wins, and the run the results end with (wins > 0, others < 0)."""
    longest = run = 0
    for won in results:
        run = run + 1 if won else 0
        longest = max(longest, run)
    current = 0
    for won in reversed(results):
        if current == 0:
            current = 1 if won else -1
        elif (current > 0) == won:
            current += 1 if won else -1
        else:
            break
    return Streaks(longest, current)


def player_records(games: Sequence[GameRecord], player: P) -> list[PlayerRecord]:
    """The record of ``player`` in every variant they played, in the order of VARIANT_IDS.

    ``games``: every game of those variants to be rated (the finished games of the other
    players too, since they move the ratings), finished ones oldest first.
    """
    out = []
    for variant_id in VARIANT_IDS:
        of_variant = [g for g in games if g.variant == variant_id]
        own = [g for g in of_variant if player in g.players]
        if not own:
            continue
        out.append(_record(of_variant, own, player, variant_id))
    return out


def _record(
    of_variant: list[GameRecord], own: list[GameRecord], player: P, variant_id: str
) -> PlayerRecord:
    record = PlayerRecord(player=player, variant=variant_id, games=len(own))
    finished = [g for g in own if g.finished]
    results = [g.places()[player] == 1 for g in finished]
    record.finished = len(finished)
    record.wins = sum(results)
    record.streaks = streaks(results)
    points = [deal[player] for g in own for deal in g.deals if player in deal]
    if points:
        payment = get_variant(variant_id).scoring == "payment"
        record.deals = len(points)
        record.average = sum(points) / len(points)
        record.best = max(points) if payment else min(points)
        record.worst = min(points) if payment else max(points)
    ratings, history = rate(of_variant)
    if player in ratings:
        record.rating = ratings[player]
        record.history = history[player]
        mine = record.rating.ordinal
        record.rank = 1 + sum(1 for r in ratings.values() if r.ordinal > mine)
        record.rated = len(ratings)
    opponents: list[P] = []
    for game in finished:
        opponents += [p for p in game.players if p != player and p not in opponents]
    record.head_to_head = [head_to_head(finished, player, other) for other in opponents]
    return record


# --- a circle's year ----------------------------------------------------------------------


@dataclass(frozen=True)
class BestDeal:
    points: int  # the best score of one deal: highest in classic, lowest else
    game: Hashable  # the earliest game with that score


@dataclass(frozen=True)
class Pairing:
    other: P
    times: int


@dataclass(frozen=True)
class YearRecord:
    """One player's year in one variant, from its finished games."""

    player: P
    games: int
    wins: int
    best: BestDeal | None
    longest_streak: int  # the most finished games won in a row, in the order finished
    rival: Pairing | None  # the player placed directly above them most often
    partner: Pairing | None  # the player they shared the most games with


@dataclass(frozen=True)
class VariantYear:
    variant: str
    games: int
    evenings: int  # the evenings in which one of those games counts
    players: tuple[YearRecord, ...]


def circle_year(games: Sequence[GameRecord]) -> list[VariantYear]:
    """A circle's year per variant (in the order of VARIANT_IDS), from its games in the order
    they were finished; a game in progress is left out. Every tie goes to what came first:
    the earliest deal for the best deal, the player met there first for the rival and the
    partner."""
    finished = [g for g in games if g.finished and g.players]
    out = []
    for variant_id in VARIANT_IDS:
        of_variant = [g for g in finished if g.variant == variant_id]
        if not of_variant:
            continue
        places = {g.key: g.places() for g in of_variant}
        players = list(dict.fromkeys(p for g in of_variant for p in g.players))
        evenings = {g.evening for g in of_variant if g.evening is not None}
        out.append(
            VariantYear(
                variant=variant_id,
                games=len(of_variant),
                evenings=len(evenings),
                players=tuple(_year_record(of_variant, places, p) for p in players),
            )
        )
    return out


def _year_record(
    games: list[GameRecord], places: dict[Hashable, dict[P, int]], player: P
) -> YearRecord:
    own = [g for g in games if player in g.players]
    results = [places[g.key][player] == 1 for g in own]
    return YearRecord(
        player=player,
        games=len(own),
        wins=sum(results),
        best=best_deal(own, player),
        longest_streak=streaks(results).longest_wins,
        rival=_most(p for g in own for p in directly_above(places[g.key], player)),
        partner=_most(p for g in own for p in g.players if p != player),
    )


def best_deal(games: Sequence[GameRecord], player: P) -> BestDeal | None:
    """The player's best score of one deal in these games (highest payment received in the
    classic game, lowest penalty else); of equal ones, the earliest."""
    best: BestDeal | None = None
    for game in games:
        payment = get_variant(game.variant).scoring == "payment"
        for deal in game.deals:
            if player not in deal:
                continue
            points = deal[player]
            if best is None or (points > best.points if payment else points < best.points):
                best = BestDeal(points, game.key)
    return best


def directly_above(places: Mapping[P, int], player: P) -> list[P]:
    """The players of the next better place than ``player``'s (all of them when tied);
    nobody for a winner."""
    mine = places[player]
    better = [place for place in places.values() if place < mine]
    if not better:
        return []
    nearest = max(better)
    return [p for p, place in places.items() if place == nearest]


def _most(others: Iterable[P]) -> Pairing | None:
    """The one met most often; of equal counts, the one met first."""
    counts: dict[P, int] = {}
    for other in others:
        counts[other] = counts.get(other, 0) + 1
    if not counts:
        return None
    top = max(counts.values())
    return Pairing(next(p for p, n in counts.items() if n == top), top)


def rating_chart(history: Sequence[Rating], key: str = "") -> Chart | None:
    """A rating after each finished game, from the starting rating (game 0), as a chart."""
    if not history:
        return None
    start = MODEL.rating()
    return charts.rating([(start.mu, start.sigma)] + [(r.mu, r.sigma) for r in history], key)


__all__ = [
    "BestDeal",
    "GameRecord",
    "HeadToHead",
    "Pairing",
    "PlayerRecord",
    "Rating",
    "Streaks",
    "VariantYear",
    "YearRecord",
    "best_deal",
    "circle_year",
    "directly_above",
    "head_to_head",
    "player_records",
    "rate",
    "rating_chart",
    "streaks",
]
