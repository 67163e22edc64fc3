"""The score sheet of one game as the pages show it, built from prefetched rows.

Everything that adds up comes from the engine (running totals, standings, winners,
settle-up); this module only arranges the stored scores for the templates and draws the
running totals as an inline SVG chart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Prefetch

from rules.engine.dealing import dealers, next_playing
from rules.engine.scoring import Standing, Transfer, running_totals, settle_up, standings
from rules.engine.variants import CLASSIC, DealSpec
from rules.i18n import engine_message

from .models import Deal, Game, Seat


def load_game(queryset) -> Game | None:
    """The game with everything its sheet needs, in a fixed number of queries.

    One query for the game, one for the seats with their players, one for the deals and
    one for all their scores, whatever the number of players and deals.
    """
    return queryset.prefetch_related(*sheet_prefetch()).first()


def sheet_prefetch() -> list[Prefetch]:
    """What ``build_sheet`` reads of a game: seats with players, deals with scores."""
    return [
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
        Prefetch("deals", queryset=Deal.objects.order_by("number").prefetch_related("scores")),
    ]


@dataclass
class Cell:
    points: int | None  # None when the deal was abandoned, or the player was not in it
    total: int
    went_out: bool = False
    away: bool = False  # the player was not at the table for this deal


@dataclass
class Row:
    deal: Deal
    dealer: Seat
    cells: list[Cell]
    spec: DealSpec | None
    flaw: str | None = None  # why this stored deal is flagged and left out of the totals


@dataclass
class DealInfo:
    """What the table needs to know before a deal: who deals, who starts, what to deal."""

    number: int
    dealer: Seat
    starter: Seat
    spec: DealSpec | None
    cards: int
    starter_cards: int  # the starting player's (one more in Rommé)
    decks: int
    jokers: int
    of: int | None  # the number of deals of a contract game


@dataclass
class Sheet:
    game: Game
    seats: list[Seat]
    rows: list[Row]
    totals: list[int]
    standings: list[tuple[Seat, Standing]]
    next_deal: DealInfo | None
    leaders: set[int] = field(default_factory=set)  # seat positions in first place

    @property
    def deal_count(self) -> int:
        return len(self.rows)

    @property
    def winners(self) -> list[Seat]:
        return [seat for seat, st in self.standings if st.place == 1]

    @property
    def winner_names(self) -> list[str]:
        return [seat.player.name for seat in self.winners]

    @property
    def seat_names(self) -> list[str]:
        return [seat.player.name for seat in self.seats]

    @property
    def is_classic(self) -> bool:
        return self.game.variant_id == CLASSIC

    @property
    def flagged(self) -> list[Row]:
        """The deals whose stored scores break the stake game's zero sum (not counted)."""
        return [row for row in self.rows if row.flaw]

    @property
    def last_deal(self) -> Deal | None:
        return self.rows[-1].deal if self.rows else None

    def settle(self, value_per_point: Decimal | None) -> list[tuple[Seat, Seat, Decimal]]:
        """The fewest payments that square everybody (classic), from the engine."""
        if not self.is_classic or value_per_point is None:
            return []
        balances = {
            seat.position: total for seat, total in zip(self.seats, self.totals, strict=True)
        }
        by_pos = {seat.position: seat for seat in self.seats}
        transfers: list[Transfer] = settle_up(balances, value_per_point)
        return [(by_pos[t.payer], by_pos[t.payee], t.amount) for t in transfers]

    def chart(self) -> Chart | None:
        return Chart.build(self) if self.rows else None


def players_of_deals(game: Game, deals: list[Deal]) -> list[set[int]]:
    """The seat positions that play in each deal: those with a score in it. An abandoned
    deal has no scores: the players of the deal before it, or the seats that started."""
    positions = {s.pk: s.position for s in game.seats.all()}
    started = {s.position for s in game.seats.all() if s.start == 0} or set(positions.values())
    out: list[set[int]] = []
    for deal in deals:
        playing = {positions[score.seat_id] for score in deal.scores.all()}
        out.append(playing or (out[-1] if out else started))
    return out


def build_sheet(game: Game) -> Sheet:
    seats = list(game.seats.all())
    positions = {s.pk: s.position for s in seats}
    order = [s.position for s in seats]
    by_pos = {s.position: s for s in seats}
    deals = list(game.deals.all())
    classic = game.variant_id == CLASSIC
    flaws = [d.flaw(positions, classic) for d in deals]
    stored = [d.scores_by_position(positions) for d in deals]
    # A flagged deal is shown as stored but adds nothing into the totals.
    per_deal = [
        dict.fromkeys(order, 0) if flaw else scores
        for flaw, scores in zip(flaws, stored, strict=True)
    ]
    start = {s.position: s.start for s in seats}
    running = [
        {pos: t + start[pos] for pos, t in totals.items()}
        for totals in running_totals(per_deal, order)
    ]
    playing = [*players_of_deals(game, deals), {s.position for s in seats if s.active}]
    dealt_by = dealers(game.first_dealer, game.step, order, playing)
    rows = []
    for i, (deal, scores, totals) in enumerate(zip(deals, stored, running, strict=True)):
        cells = [
            Cell(
                points=None
                if (deal.is_abandoned and not flaws[i]) or pos not in playing[i]
                else scores[pos],
                total=totals[pos],
                went_out=deal.went_out == pos,
                away=pos not in playing[i],
            )
            for pos in order
        ]
        dealer = by_pos[dealt_by[i]]
        rows.append(
            Row(
                deal=deal,
                dealer=dealer,
                cells=cells,
                spec=game.deal_spec(deal.number),
                flaw=_flaw_note(flaws[i], by_pos) if flaws[i] else None,
            )
        )
    final = running[-1] if running else dict(start)
    ranked = standings(final, game.variant)
    table = [(by_pos[st.player], st) for st in ranked]
    next_deal = None
    number = len(deals) + 1
    if not game.is_finished and not game.is_complete(len(deals)):
        decks, jokers = game.decks(number, len(playing[-1]))
        dealer = dealt_by[-1]
        next_deal = DealInfo(
            number=number,
            dealer=by_pos[dealer],
            starter=by_pos[next_playing(order, dealer, game.step, playing[-1])],
            spec=game.deal_spec(number),
            cards=game.cards_dealt(number),
            starter_cards=game.starter_cards(number),
            decks=decks,
            jokers=jokers,
            of=game.total_deals,
        )
    leaders = {st.player for st in ranked if st.place == 1} if deals else set()
    return Sheet(
        game=game,
        seats=seats,
        rows=rows,
        totals=[final[pos] for pos in order],
        standings=table,
        next_deal=next_deal,
        leaders=leaders,
    )


def _flaw_note(flaw, by_pos: dict[int, Seat]) -> str:
    """The audit's note in the active language, the player named instead of the seat."""
    player = flaw.params.get("player")
    if player in by_pos:
        return engine_message(flaw, player=by_pos[player].player.name)
    return engine_message(flaw)


# --- the chart ------------------------------------------------------------------------------

CHART_WIDTH = 320
CHART_HEIGHT = 180
CHART_PAD = 8
CHART_COLOURS = 12  # CSS classes .series-0 ... .series-11


@dataclass
class Series:
    seat: Seat
    points: str  # the SVG polyline points
    css: str
    end_x: float
    end_y: float


@dataclass
class Chart:
    width: int
    height: int
    zero_y: float
    series: list[Series]
    low: int
    high: int
    ticks: list[tuple[float, float]]  # x positions of the deals, for the grid

    @classmethod
    def build(cls, sheet: Sheet) -> Chart:
        """Polylines of every player's running total, deal 0 (all at 0) to the last deal."""
        columns: list[list[int]] = [[seat.start] for seat in sheet.seats]
        for row in sheet.rows:
            for i, cell in enumerate(row.cells):
                columns[i].append(cell.total)
        values = [v for col in columns for v in col]
        low, high = min(values), max(values)
        if low == high:
            high = low + 1
        steps = len(sheet.rows)
        inner_w = CHART_WIDTH - 2 * CHART_PAD
        inner_h = CHART_HEIGHT - 2 * CHART_PAD

        def x(i: int) -> float:
            return round(CHART_PAD + inner_w * i / steps, 1)

        def y(v: int) -> float:
            return round(CHART_PAD + inner_h * (high - v) / (high - low), 1)

        series = []
        for i, (seat, col) in enumerate(zip(sheet.seats, columns, strict=True)):
            pts = " ".join(f"{x(j)},{y(v)}" for j, v in enumerate(col))
            series.append(
                Series(
                    seat=seat,
                    points=pts,
                    css=f"series-{i % CHART_COLOURS}",
                    end_x=x(steps),
                    end_y=y(col[-1]),
                )
            )
        return cls(
            width=CHART_WIDTH,
            height=CHART_HEIGHT,
            zero_y=y(0),
            series=series,
            low=low,
            high=high,
            ticks=[(x(j), CHART_HEIGHT - CHART_PAD) for j in range(steps + 1)],
        )
