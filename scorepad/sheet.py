"""The score sheet of one game as the pages show it, built from prefetched rows.

Everything that adds up comes from the engine (running totals, standings, winners,
settle-up); this module only arranges the stored scores for the templates and draws the
running totals as an inline SVG chart.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Prefetch
from django.utils.translation import gettext

from rules.engine.dealing import dealers, next_playing
from rules.engine.evening import game_money
from rules.engine.scoring import (
    ScoreError,
    Standing,
    Transfer,
    running_totals,
    settle_up,
    standings,
)
from rules.engine.variants import CLASSIC, DealSpec
from rules.i18n import engine_message

from . import charts
from .charts import MARKS, signed
from .history import took_over
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
        Prefetch("seats", queryset=Seat.objects.order_by("position")),
        Prefetch("deals", queryset=Deal.objects.order_by("number").prefetch_related("scores")),
    ]


def deal_prefetch() -> list[Prefetch]:
    """What a new deal's form and its preview read of a game: the seats, and the deals
    without their scores (how many were played; ``board.full_sheet`` adds the scores
    when the sheet has to be built)."""
    return [
        Prefetch("seats", queryset=Seat.objects.order_by("position")),
        Prefetch("deals", queryset=Deal.objects.order_by("number")),
    ]


@dataclass
class Cell:
    points: int | None  # None when the deal was abandoned, or the player was not in it
    total: int
    went_out: bool = False
    away: bool = False  # the player was not at the table for this deal
    # The two numbers as the sheet writes them (signed in the classic game), worked out
    # once here: the sheet's table writes a cell per player and deal.
    shown: str = ""
    total_shown: str = ""


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
class Head:
    """A player's column heading: the player's mark, and the label when the name is cut."""

    seat: Seat
    mark: int  # .m0 ... .m11: the same colour and shape on the sheet, the standings, the chart
    short: str | None  # what the heading shows of a name too long for its column; None: all


@dataclass
class Sheet:
    game: Game
    seats: list[Seat]
    rows: list[Row]
    totals: list[int]
    standings: list[tuple[Seat, Standing]]
    next_deal: DealInfo | None
    # The next deal and those after it, as they will be if the players at the table stay:
    # what an editor's phone shows after deals it keeps offline (``deals_ahead``).
    ahead: list[DealInfo] = field(default_factory=list)
    leaders: set[int] = field(default_factory=set)  # seat positions in first place
    heads: list[Head] = field(default_factory=list)  # in seat order
    # The players not at the table now, each with the last deal they played (0: none): "left
    # after deal 6". They are ranked after the others (rules/engine/scoring.py standings).
    left_after: dict[int, int] = field(default_factory=dict)

    @property
    def ahead_end(self) -> int | None:
        """The number after the deal that ends the game by itself, when the schedule reaches
        it: an editor's phone that keeps that deal shows the game over, waiting to be sent."""
        last = last_deal(self.game)
        return last + 1 if self.ahead and last and self.ahead[-1].number == last else None

    @property
    def density(self) -> str:
        """The sheet's class for its number of columns: "snug" and "tight" set smaller type
        and narrower columns, to go with the shorter labels of ``label_length``."""
        players = len(self.seats)
        return "" if players <= 4 else "snug" if players <= 8 else "tight"

    @property
    def ranked(self) -> list[tuple[Seat, Standing, int, int | None]]:
        """The standings with each player's mark and, in a classic game with money per
        point, the money the total is worth (cents) during play as at the end."""
        marks = {head.seat.position: head.mark for head in self.heads}
        money = self.money
        return [
            (seat, st, marks[seat.position], money.get(seat.position))
            for seat, st in self.standings
        ]

    @property
    def money(self) -> dict[int, int]:
        per_point = self.game.value_per_point
        if not self.is_classic or per_point is None or per_point <= 0 or not self.rows:
            return {}
        totals = {seat.position: t for seat, t in zip(self.seats, self.totals, strict=True)}
        try:
            return game_money(totals, CLASSIC, per_point)
        except ScoreError:  # a sheet whose totals do not sum to zero shows no money
            return {}

    @property
    def winners(self) -> list[Seat]:
        return [seat for seat, st in self.standings if st.place == 1]

    @property
    def winner_names(self) -> list[str]:
        return [seat.name for seat in self.winners]

    @property
    def left_notes(self) -> dict[int, str]:
        """Each player not at the table, by seat position: "left after deal 6"."""
        return {
            pos: gettext("left after deal %(deal)s") % {"deal": deal}
            if deal
            else gettext("left before the first deal")
            for pos, deal in self.left_after.items()
        }

    @property
    def took_over_notes(self) -> dict[int, str]:
        """Each seat a newcomer took over, by position: who took over from whom after which deal."""
        return {
            seat.position: took_over(seat.name, seat.before_name, seat.before_until or 0)
            for seat in self.seats
            if seat.before_name
        }

    @property
    def before_totals(self) -> dict[int, int]:
        """Each seat a newcomer took over, by position: the total of the one who played it
        before, when they left (the total the newcomer inherited)."""
        out = {}
        for i, seat in enumerate(self.seats):
            if seat.before_name:
                until = min(seat.before_until or 0, len(self.rows))
                out[seat.position] = self.rows[until - 1].cells[i].total if until else seat.start
        return out

    @property
    def left_lines(self) -> list[str]:
        """Who took over a seat and who left when, in seat order, each a sentence of the
        share text."""
        lines = []
        taken = self.took_over_notes
        for seat in self.seats:
            if seat.position in taken:
                lines.append(taken[seat.position])
            if seat.position not in self.left_after:
                continue
            deal = self.left_after[seat.position]
            values = {"name": seat.name, "deal": deal}
            if deal:
                lines.append(gettext("%(name)s left after deal %(deal)s.") % values)
            else:
                lines.append(gettext("%(name)s left before the first deal.") % values)
        return lines

    @property
    def seat_names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def is_classic(self) -> bool:
        return self.game.variant_id == CLASSIC

    @property
    def flagged(self) -> list[Row]:
        """The deals whose stored scores break the stake game's zero sum (not counted)."""
        return [row for row in self.rows if row.flaw]

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

    def chart(self) -> charts.Chart | None:
        return sheet_chart(self) if self.rows else None


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


# How many deals the schedule reaches: the next one and those an editor's phone may record
# before it can send them (more waiting deals show their numbers only).
AHEAD = 5


def last_deal(game: Game) -> int | None:
    """The deal that ends the game by itself: a contract game's last, a target of deals."""
    return game.total_deals or (game.target_deals if game.can_have_target else None)


def deals_ahead(
    game: Game, order: list[int], by_pos: dict[int, Seat], playing: list[set[int]]
) -> list[DealInfo]:
    """The schedule after the stored deals (``playing``: the seats that played each, and last
    the seats at the table now): dealer, starter, contract and cards of each deal, the
    engine's facts (no score), while the same players stay at the table, up to AHEAD deals
    and not past the deal that ends the game by itself (a contract game's last, a target of
    deals). Empty when no deal can be recorded."""
    number = len(playing)
    if game.is_finished or game.is_complete(number - 1):
        return []
    last = last_deal(game)
    numbers = range(number, min(number + AHEAD, last + 1) if last else number + AHEAD)
    at_table = playing[-1]
    more = [*playing, *[at_table] * (len(numbers) - 1)]
    dealt_by = dealers(game.first_dealer, game.step, order, more)[number - 1 :]
    out = []
    for n, dealer in zip(numbers, dealt_by, strict=False):
        decks, jokers = game.decks(n, len(at_table))
        out.append(
            DealInfo(
                number=n,
                dealer=by_pos[dealer],
                starter=by_pos[next_playing(order, dealer, game.step, at_table)],
                spec=game.deal_spec(n),
                cards=game.cards_dealt(n),
                starter_cards=game.starter_cards(n),
                decks=decks,
                jokers=jokers,
                of=game.total_deals,
            )
        )
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
    written = signed if classic else str
    for i, (deal, scores, totals) in enumerate(zip(deals, stored, running, strict=True)):
        cells = []
        for pos in order:
            points = (
                None
                if (deal.is_abandoned and not flaws[i]) or pos not in playing[i]
                else scores[pos]
            )
            cells.append(
                Cell(
                    points=points,
                    total=totals[pos],
                    went_out=deal.went_out == pos,
                    away=pos not in playing[i],
                    shown="" if points is None else written(points),
                    total_shown=written(totals[pos]),
                )
            )
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
    left_after = {
        s.position: max(
            (deal.number for deal, who in zip(deals, playing, strict=False) if s.position in who),
            default=0,
        )
        for s in seats
        if not s.active
    }
    ranked = standings(final, game.variant, set(left_after))
    table = [(by_pos[st.player], st) for st in ranked]
    ahead = deals_ahead(game, order, by_pos, playing)
    leaders = {st.player for st in ranked if st.place == 1} if deals else set()
    labels = short_names([seat.name for seat in seats])
    heads = [
        Head(seat=seat, mark=i % MARKS, short=label if label != seat.name else None)
        for i, (seat, label) in enumerate(zip(seats, labels, strict=True))
    ]
    return Sheet(
        game=game,
        seats=seats,
        rows=rows,
        totals=[final[pos] for pos in order],
        standings=table,
        next_deal=ahead[0] if ahead else None,
        ahead=ahead,
        leaders=leaders,
        heads=heads,
        left_after=left_after,
    )


def _flaw_note(flaw, by_pos: dict[int, Seat]) -> str:
    """The audit's note in the active language, the player named instead of the seat."""
    player = flaw.params.get("player")
    if player in by_pos:
        return engine_message(flaw, player=by_pos[player].name)
    return engine_message(flaw)


# --- the column headings --------------------------------------------------------------------


def label_length(players: int) -> int | None:
    """How many characters of a name a column heading shows on a phone (390 px wide) with
    this many players when the names together are too wide for it; None: the whole name (up
    to four players, the column has room). Five to eight names are whole where the row of
    them fits (``fitting_length``)."""
    if players <= 4:
        return None
    if players <= 6:
        return 5
    if players <= 8:
        return 3
    return 2


# The width of a heading's letters in ems of its bold type (app.css: .sheet.snug), about:
# i and l narrow, m and w wide, capitals wider than small letters.
_EMS = {
    **dict.fromkeys("ijlłIJ'.,", 0.36),
    **dict.fromkeys("frt -", 0.46),
    **dict.fromkeys("mwMWæœÆŒ", 1.0),
}
NAME_EMS = 6.1  # a whole name at most: .sheet .name's 5.5rem in the heading's 0.9rem


def _ems(text: str) -> float:
    return sum(_EMS.get(c, 0.78 if c.isupper() else 0.68) for c in text)


def fitting_length(names: list[str]) -> int | None:
    """How many characters of each name five to eight column headings show: the most with
    which the row of names fits a 390 px phone beside the deal column, each column as wide
    as a three-figure total ("−110", 3 em) at least and no name wider than ``NAME_EMS``. A
    name that short is whole: "Piotrek" beside Marek, Kasia, Ania and Zofia."""
    least = label_length(len(names))
    if least is None or len(names) > 8:
        return least
    # The ems the columns share: what the phone leaves them, or what their totals take.
    room = max(19.7 - 0.5 * (len(names) - 5), 3.0 * len(names))
    best = least
    for length in range(least + 1, max(map(len, names)) + 1):
        cut = [_ems(name[:length]) for name in names]
        if max(cut) > NAME_EMS or sum(max(3.0, ems) for ems in cut) > room:
            break
        best = length
    return best


def short_names(names: list[str]) -> list[str]:
    """The column headings of these players: the whole names, or, when many players share
    the phone's width, labels of at most ``fitting_length`` characters, all different: the
    whole name where it is that short, else the first name, else the initials, else the last
    name, else the first initial and the last name, else the first and last letters, else a
    number. The full name is always given beside the label (title, screen readers)."""
    length = fitting_length(names)
    if length is None:
        return list(names)
    options = [_label_options(name, length) for name in names]
    chosen = [0] * len(names)
    for _ in range(max(map(len, options))):  # each clashing name moves on to its next option
        labels = [opts[i] for opts, i in zip(options, chosen, strict=True)]
        moved = False
        for k in _clashing(labels):
            if chosen[k] + 1 < len(options[k]):
                chosen[k] += 1
                moved = True
        if not moved:
            break
    labels = [opts[i] for opts, i in zip(options, chosen, strict=True)]
    clashing = set(_clashing(labels))  # the same name twice, or names alike to the end
    taken = {label.casefold() for k, label in enumerate(labels) if k not in clashing}
    number = 0
    for k in sorted(clashing):
        while True:
            number += 1
            tail = str(number)
            candidate = labels[k][: max(0, length - len(tail))] + tail
            if candidate.casefold() not in taken:
                break
        taken.add(candidate.casefold())
        labels[k] = candidate
    return labels


def _clashing(labels: list[str]) -> list[int]:
    seen: dict[str, list[int]] = {}
    for k, label in enumerate(labels):
        seen.setdefault(label.casefold(), []).append(k)
    return [k for group in seen.values() if len(group) > 1 for k in group]


def _label_options(name: str, length: int) -> list[str]:
    words = unicodedata.normalize("NFC", name).split() or [name]
    options = [name] if len(name) <= length else []
    options.append(words[0][:length])
    if len(words) > 1:
        options.append("".join(word[0] for word in words)[:length])
        options.append(words[-1][:length])
        options.append((words[0][0] + words[-1])[:length])
    options.append("".join(words)[:length])
    if length > 1:
        options.append(words[0][0] + words[-1][1:][-(length - 1) :])  # Ben, Bea: Bn, Ba
    return list(dict.fromkeys(options))  # in order, each once


# --- the chart ------------------------------------------------------------------------------


def sheet_chart(sheet: Sheet) -> charts.Chart:
    """Every player's running total, from the start (deal 0) to the last deal; a player who
    joined later: their line starts where they sat down (with their starting total, just
    before their first deal), not at deal 0."""
    columns: list[list[int]] = [[seat.start] for seat in sheet.seats]
    firsts: list[int] = []
    for i in range(len(sheet.seats)):
        away = 0
        while away < len(sheet.rows) and sheet.rows[away].cells[i].away:
            away += 1
        firsts.append(away if away < len(sheet.rows) else 0)
    for row in sheet.rows:
        for i, cell in enumerate(row.cells):
            columns[i].append(cell.total)
    for i, first in enumerate(firsts):
        columns[i][first] = sheet.seats[i].start
    marks = [head.mark for head in sheet.heads] or [i % MARKS for i in range(len(columns))]
    return charts.running_totals(sheet.seat_names, marks, columns, firsts, classic=sheet.is_classic)
