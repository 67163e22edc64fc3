"""A club tournament: the tables of a series, who sits where, and the ranking across tables.

Plain data in, plain data out (docs/rules.md, "Tournament"): players are whatever keys the
caller uses (start numbers, ids), given in start-number order; a seating is a tuple of
tables, each a tuple of players in seat order; a series' result is one :class:`TableResult`
per table, the final totals of that table's game. Nothing here stores anything.

- :func:`table_sizes`: the tables for n players and a variant's player range, as near four
  as the range allows, never a bye.
- :func:`draw`, :func:`seat_by_result`, :func:`seat_apart`, :func:`swap`: the seating of a
  series, drawn from a seed shown with it, by the running result, so that pairs meet as
  rarely as possible, and the director's swap of two players.
- :func:`series_scores`, :func:`rank`: placement points scaled to a table of four, the score
  relative to the table, and the ranking with the tie-break that separated each pair.

Every draw comes from :class:`Stream`, SHA-256 in counter mode, so that a club can
reproduce it anywhere from the seed (Python's ``random`` promises a stable sequence for
``random()`` only, not for ``shuffle`` or ``randrange``).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import Generic, TypeVar

from .evening import game_points
from .messages import EngineError, gettext_noop
from .scoring import standings
from .variants import Variant

P = TypeVar("P", bound=Hashable)

FOUR = 4  # the table every other size is measured against

# How a series is seated.
DRAW = "draw"  # drawn from the seed
RESULT = "result"  # by the running result: the top four at table 1, ...
APART = "apart"  # so that pairs meet as rarely as possible

# The ranking's order, chosen by the director.
POINTS_FIRST = "points"
RELATIVE_FIRST = "relative"

# What separated two adjacent players of the ranking.
DROPPED = "dropped"  # one of them dropped out, the other played to the end
POINTS = "points"  # placement points
RELATIVE = "relative"  # the score relative to the table
BEST = "best"  # the best single series
LOT = "lot"  # the lot drawn from the seed


class TournamentError(EngineError):
    """Something a director asked that cannot be done: too few players, a swap of a player
    who is not seated."""


# --- the tables ------------------------------------------------------------------------------


def sizes_between(players: int, low: int, high: int) -> tuple[int, ...]:
    """The table sizes for ``players`` at tables of ``low`` to ``high`` players.

    Never a bye: everybody is seated. Among the numbers of tables that can seat everybody,
    the tables are as even as possible (sizes differ by one at most), and the number of
    tables is the one whose sizes are nearest four: the least sum of (size − 4)²; on a tie
    the one with more tables of four; then fewer tables. Tables of four come first, then
    the sizes by their distance from four, the larger first (4, 3, 3, 3 and 4, 4, 5).
    """
    if not 1 <= low <= high:
        raise ValueError(f"a player range is 1 <= low <= high, not {low}-{high}")
    best: tuple[tuple[int, int, int], tuple[int, ...]] | None = None
    for tables in range(max(1, -(-players // high)), players // low + 1):
        size, bigger = divmod(players, tables)
        sizes = (size + 1,) * bigger + (size,) * (tables - bigger)
        squares = bigger * (size + 1 - FOUR) ** 2 + (tables - bigger) * (size - FOUR) ** 2
        key = (squares, -sizes.count(FOUR), tables)
        if best is None or key < best[0]:
            best = (key, sizes)
    if best is None:
        raise TournamentError(
            gettext_noop(
                "Tables of this game seat %(low)s to %(high)s players: "
                "there is no way to seat %(count)s."
            ),
            count=players,
            low=low,
            high=high,
        )
    return tuple(sorted(best[1], key=lambda s: (abs(s - FOUR), -s)))


def table_sizes(players: int, variant: Variant) -> tuple[int, ...]:
    """The table sizes of a series of ``players`` in ``variant`` (its player range)."""
    return sizes_between(players, variant.min_players, variant.max_players)


# --- the generator ---------------------------------------------------------------------------


def new_seed() -> str:
    """A seed for a new tournament: six digits, short enough to show and type."""
    return f"{secrets.randbelow(10**6):06d}"


class Stream:
    """Numbers drawn from a seed, the same on any machine (docs/rules.md#tournament).

    The k-th number (k = 0, 1, 2, ...) of the stream ``(seed, purpose)`` is the first 8
    bytes, read as an unsigned big-endian integer, of the SHA-256 digest of the UTF-8 text
    ``"{seed}/{purpose}/{k}"``. A number below m takes the next numbers until one is below
    2⁶⁴ − (2⁶⁴ mod m), and is its remainder by m (no bias). A shuffle is Fisher–Yates
    (Durstenfeld's form): for i from the last position down to 1, swap position i with the
    position given by a number below i + 1.
    """

    def __init__(self, seed: str, purpose: str):
        if not isinstance(seed, str) or not seed:
            raise ValueError(f"a seed is a non-empty text, not {seed!r}")
        self._prefix = f"{seed}/{purpose}/"
        self._count = 0

    def next(self) -> int:
        text = f"{self._prefix}{self._count}".encode()
        self._count += 1
        return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")

    def below(self, m: int) -> int:
        if m < 1:
            raise ValueError(f"a number below {m} cannot be drawn")
        limit = 2**64 - 2**64 % m
        while True:
            number = self.next()
            if number < limit:
                return number % m

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


# --- seatings --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seating(Generic[P]):
    """Who sits at which table in one series: table 1 first, each table in seat order.

    ``how`` is DRAW, RESULT or APART; ``seed`` the seed of a draw or of the tie-breaks of
    APART ("" by the result); ``swaps`` the director's swaps since, in order.
    """

    tables: tuple[tuple[P, ...], ...]
    how: str
    seed: str = ""
    swaps: tuple[tuple[P, P], ...] = ()

    @property
    def players(self) -> tuple[P, ...]:
        return tuple(p for table in self.tables for p in table)

    def table_of(self, player: P) -> int:
        """The number of the player's table, 1 for the first."""
        for number, table in enumerate(self.tables, start=1):
            if player in table:
                return number
        raise TournamentError(gettext_noop("%(player)s is not seated at any table."), player=player)


def _distinct(players: Sequence[P]) -> list[P]:
    players = list(players)
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    return players


def _cut(players: Sequence[P], sizes: Sequence[int]) -> tuple[tuple[P, ...], ...]:
    tables, start = [], 0
    for size in sizes:
        tables.append(tuple(players[start : start + size]))
        start += size
    return tuple(tables)


def draw(players: Sequence[P], variant: Variant, seed: str, series: int = 1) -> Seating[P]:
    """The players shuffled by the stream ``(seed, "draw {series}")`` and seated in that
    order, table 1 first. The same players in the same order and the same seed give the
    same tables."""
    order = _distinct(players)
    sizes = table_sizes(len(order), variant)
    Stream(seed, f"draw {series}").shuffle(order)
    return Seating(_cut(order, sizes), DRAW, seed)


def seat_by_result(ranked: Sequence[P], variant: Variant) -> Seating[P]:
    """The players in the order of the running result: the first four (or the first
    table's size) at table 1, the next at table 2, ..."""
    order = _distinct(ranked)
    return Seating(_cut(order, table_sizes(len(order), variant)), RESULT)


def meetings(history: Iterable[Seating[P]]) -> dict[frozenset[P], int]:
    """How often each pair of players sat at one table in ``history``."""
    met: dict[frozenset[P], int] = {}
    for seating in history:
        for table in seating.tables:
            for a, b in combinations(table, 2):
                pair = frozenset((a, b))
                met[pair] = met.get(pair, 0) + 1
    return met


def repeated_pairs(history: Iterable[Seating[P]]) -> int:
    """The meetings beyond each pair's first: a pair at one table three times counts 2."""
    return sum(times - 1 for times in meetings(history).values())


# seat_apart's bounds, which do not depend on the machine (the same input always gives the
# same seating): at most this many greedy starts, and this many swaps tried in all.
STARTS = 12
SWAP_TRIES = 200_000


def seat_apart(
    players: Sequence[P],
    variant: Variant,
    history: Iterable[Seating[P]],
    seed: str,
    series: int,
) -> Seating[P]:
    """A seating in which pairs that met before in ``history`` meet as rarely as possible.

    ``players`` in the order of the running result. A seating costs, first, the number of
    pairs at one table that met before (the repeats it adds), then the sum of their earlier
    meetings (a third meeting costs more than a second). The first start is the cheaper of
    the seating by the result and the greedy one (each table begun by the first player left
    in the given order and filled with the player who met its members least, ties in the
    order of a shuffle by the stream ``(seed, "apart {series}")``); each further start is
    greedy with the stream's next shuffle. Each start is improved by swapping two players
    of different tables while a swap lowers the cost; the cheapest result is kept (the
    first on a tie). At most ``STARTS`` starts and ``SWAP_TRIES`` swaps tried in all; it
    stops at a seating without repeats. So it never adds more repeats than
    :func:`seat_by_result` on the same order.
    """
    order = _distinct(players)
    n = len(order)
    sizes = table_sizes(n, variant)
    index = {p: i for i, p in enumerate(order)}
    met = [[0] * n for _ in range(n)]
    for pair, times in meetings(history).items():
        a, b = (index.get(p) for p in pair)
        if a is not None and b is not None:
            met[a][b] = met[b][a] = times
    highest = max((max(row) for row in met), default=0)
    # A pair that met before costs weight + its meetings: the repeats weigh more than any
    # sum of meetings can.
    weight = 1 + sum(s * (s - 1) // 2 for s in sizes) * highest
    cost = [[weight + t if t else 0 for t in row] for row in met]

    def total(tables: list[list[int]]) -> int:
        return sum(cost[a][b] for table in tables for a, b in combinations(table, 2))

    stream = Stream(seed, f"apart {series}")
    in_order = [list(t) for t in _cut(range(n), sizes)]
    greedy = _greedy(n, sizes, cost, stream)
    tables = greedy if total(greedy) <= total(in_order) else in_order
    tries = _improve(tables, cost, SWAP_TRIES)
    best, best_cost = tables, total(tables)
    for _ in range(STARTS - 1):
        if not best_cost or not tries:
            break
        tables = _greedy(n, sizes, cost, stream)
        tries = _improve(tables, cost, tries)
        if total(tables) < best_cost:
            best, best_cost = tables, total(tables)
    seated = tuple(tuple(order[i] for i in sorted(table)) for table in best)
    return Seating(seated, APART, seed)


def _greedy(n: int, sizes: Sequence[int], cost: list[list[int]], stream: Stream) -> list:
    ties = list(range(n))
    stream.shuffle(ties)
    rank_of_tie = [0] * n
    for r, i in enumerate(ties):
        rank_of_tie[i] = r
    free = list(range(n))  # in the given order
    tables = []
    for size in sizes:
        table = [free.pop(0)]
        added = list(cost[table[0]])  # what each player would add to the table
        while len(table) < size:
            pick = min(free, key=lambda i: (added[i], rank_of_tie[i]))
            free.remove(pick)
            table.append(pick)
            row = cost[pick]
            for i in free:
                added[i] += row[i]
        tables.append(table)
    return tables


def _improve(tables: list[list[int]], cost: list[list[int]], tries: int) -> int:
    """Swap two players of different tables while that lowers the cost (the first swap
    found, players in order), at most ``tries`` swaps tried; the tries left."""
    where = {p: t for t, table in enumerate(tables) for p in table}
    own = {p: sum(cost[p][x] for x in tables[where[p]]) for p in where}  # cost[p][p] is 0
    improved = True
    while improved and tries:
        improved = False
        for a in sorted(where):
            if not own[a]:
                continue
            ta = tables[where[a]]
            for tb_index, tb in enumerate(tables):
                if tb_index == where[a]:
                    continue
                to_b = sum(cost[a][x] for x in tb)
                row_a = cost[a]
                for b in tb:
                    tries -= 1
                    to_a = sum(cost[b][x] for x in ta) - row_a[b]
                    if to_b - row_a[b] + to_a < own[a] + own[b]:
                        ta[ta.index(a)] = b
                        tb[tb.index(b)] = a
                        where[a], where[b] = tb_index, where[a]
                        for p in (*ta, *tb):
                            own[p] = sum(cost[p][x] for x in tables[where[p]])
                        improved = True
                        break
                    if not tries:
                        return 0
                if improved:
                    break
            if improved:
                break
    return tries


def swap(seating: Seating[P], a: P, b: P) -> Seating[P]:
    """The seating with ``a`` and ``b`` in each other's seats (the director's swap before a
    series starts); swapping a player with themselves changes nothing."""
    for player in (a, b):
        seating.table_of(player)
    if a == b:
        return seating
    other = {a: b, b: a}
    tables = tuple(tuple(other.get(p, p) for p in table) for table in seating.tables)
    return Seating(tables, seating.how, seating.seed, (*seating.swaps, (a, b)))


# --- results and ranking ---------------------------------------------------------------------


@dataclass(frozen=True)
class TableResult(Generic[P]):
    """One table's game of a series: every player seated there with the final total of
    the game (points in the classic game, penalty in the others), in seat order, and who
    left the game and was not back at its end."""

    totals: Mapping[P, int]
    left: frozenset[P] = field(default_factory=frozenset)


@dataclass(frozen=True)
class SeriesScore:
    """What one series gives one player: the table's number and size, the place at the table
    (``scoring.standings``: a player who left is after everyone who played to the end;
    ties share a place), the placement points scaled to a table of four and the score
    relative to the table."""

    table: int
    size: int
    place: int
    points: Fraction
    relative: Fraction


def placement_points(size: int, place: int, tied: int = 1) -> Fraction:
    """Place ``place`` at a table of ``size`` scores 3·(size − place)/(size − 1); ``tied``
    players from that place share the mean of the places they span."""
    if size < 2 or not 1 <= place <= place + tied - 1 <= size:
        raise ValueError(f"no place {place} (x{tied}) at a table of {size}")
    spanned = range(place, place + tied)
    return sum((Fraction(3 * (size - r), size - 1) for r in spanned), Fraction(0)) / tied


def series_scores(tables: Sequence[TableResult[P]], variant: Variant) -> dict[P, SeriesScore]:
    """Each player's score of one series, from its tables (table 1 first).

    The relative score is the money the player won at the table at one unit a point
    (``evening.game_points``) divided by the number of players at the table: in the
    penalty games, the table's mean penalty minus the player's; in the classic game, the
    player's points divided by the table's size.
    """
    scores: dict[P, SeriesScore] = {}
    for number, result in enumerate(tables, start=1):
        size = len(result.totals)
        money = game_points(result.totals, variant.id)
        placed = standings(result.totals, variant, result.left)
        for st in placed:
            if st.player in scores:
                raise ValueError(f"{st.player!r} is seated twice in one series")
            tied = sum(1 for other in placed if other.place == st.place)
            scores[st.player] = SeriesScore(
                table=number,
                size=size,
                place=st.place,
                points=placement_points(size, st.place, tied),
                relative=Fraction(money[st.player], size),
            )
    return scores


@dataclass(frozen=True)
class Ranked(Generic[P]):
    """One row of the ranking. ``series``: the player's score of each series, None where
    not seated; ``lot``: the player's place in the lot drawn from the seed (1 first);
    ``separated_by``: what put this player below the row above (DROPPED, POINTS, RELATIVE,
    BEST or LOT), None for the first row."""

    player: P
    place: int
    points: Fraction
    relative: Fraction
    best: Fraction
    lot: int
    dropped: bool
    series: tuple[SeriesScore | None, ...]
    separated_by: str | None


@dataclass(frozen=True)
class Ranking(Generic[P]):
    rows: tuple[Ranked[P], ...]
    order: str
    seed: str

    @property
    def players(self) -> tuple[P, ...]:
        return tuple(row.player for row in self.rows)


def lots(players: Sequence[P], seed: str) -> dict[P, int]:
    """Each player's place in the lot (1 first): players by the first number of the stream
    ``(seed, "lot {player}")``, the player's key as text; so two players' lots keep their
    order whoever else enters."""
    keyed = sorted(
        (Stream(seed, f"lot {player}").next(), i, player) for i, player in enumerate(players)
    )
    return {player: place for place, (_, _, player) in enumerate(keyed, start=1)}


def rank(
    players: Sequence[P],
    series: Sequence[Sequence[TableResult[P]]],
    variant: Variant,
    seed: str,
    *,
    dropped: Collection[P] = (),
    order: str = POINTS_FIRST,
) -> Ranking[P]:
    """The ranking after the given series (every registered player in ``players``, late
    entries and drop-outs included).

    By placement points summed over the series, then the relative score summed, then the
    best single series' placement points, then the lot; with ``RELATIVE_FIRST`` the
    relative score comes before the placement points. A player who dropped out (named in
    ``dropped``, or who left a table's game and was not seated in any later series) is
    ranked after every player who played on (the leavers' rule, docs/rules.md Choice 30),
    the players who dropped out among themselves in the same order. A series a player was
    not seated in scores nothing.
    """
    if order not in (POINTS_FIRST, RELATIVE_FIRST):
        raise ValueError(f"no ranking order {order!r}")
    players = _distinct(players)
    known = set(players)
    per_series = [series_scores(tables, variant) for tables in series]
    gone = set(dropped)
    for number, tables in enumerate(series):
        stray = set(per_series[number]) - known
        if stray:
            raise ValueError(f"series {number + 1} seats players not registered: {stray!r}")
        later = set().union(*per_series[number + 1 :])
        gone |= {p for result in tables for p in result.left if p not in later}
    lot = lots(players, seed)

    def key(p: P) -> tuple:
        scores = [s[p] for s in per_series if p in s]
        points = sum((s.points for s in scores), Fraction(0))
        relative = sum((s.relative for s in scores), Fraction(0))
        best = max((s.points for s in scores), default=Fraction(0))
        first = (-points, -relative) if order == POINTS_FIRST else (-relative, -points)
        return (p in gone, *first, -best, lot[p])

    criteria = (
        (DROPPED, POINTS, RELATIVE, BEST, LOT)
        if order == POINTS_FIRST
        else (DROPPED, RELATIVE, POINTS, BEST, LOT)
    )
    keys = {p: key(p) for p in players}
    ranked = sorted(players, key=keys.__getitem__)
    rows: list[Ranked[P]] = []
    for place, p in enumerate(ranked, start=1):
        separated = None
        if rows:
            above = keys[rows[-1].player]
            separated = next(c for c, x, y in zip(criteria, above, keys[p], strict=True) if x != y)
        k = keys[p]
        points, relative = (-k[1], -k[2]) if order == POINTS_FIRST else (-k[2], -k[1])
        rows.append(
            Ranked(
                player=p,
                place=place,
                points=points,
                relative=relative,
                best=-k[3],
                lot=lot[p],
                dropped=p in gone,
                series=tuple(s.get(p) for s in per_series),
                separated_by=separated,
            )
        )
    return Ranking(tuple(rows), order, seed)


__all__ = [
    "APART",
    "BEST",
    "DRAW",
    "DROPPED",
    "LOT",
    "POINTS",
    "POINTS_FIRST",
    "RELATIVE",
    "RELATIVE_FIRST",
    "RESULT",
    "Ranked",
    "Ranking",
    "Seating",
    "SeriesScore",
    "Stream",
    "TableResult",
    "TournamentError",
    "draw",
    "lots",
    "meetings",
    "new_seed",
    "placement_points",
    "rank",
    "repeated_pairs",
    "seat_apart",
    "seat_by_result",
    "series_scores",
    "sizes_between",
    "swap",
    "table_sizes",
]
