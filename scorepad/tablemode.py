"""Table mode: a game or an evening for the screen in the middle of the table (a tablet, a
TV), arranged from the sheet or the evening's ledger. It only shows: nothing on it writes,
and it holds no editor link (templates/scorepad/tablemode.html).

A game's table follows the game's ``version``; an evening's follows its own version and the
versions of its games (a deal recorded in one of them moves the evening's money), written
``"<evening version>-<sum of its games' versions>"``: every change of either makes it grow.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Sum

from .charts import MARKS
from .evenings import EveningPage
from .models import Evening, EveningGame, Game
from .sheet import DealInfo, Sheet, build_sheet, load_game

# Up to this many players the standings fill the screen, in one list or two columns; more go
# in columns of smaller digits (static/css/tablemode.css, .tm.many).
ONE_LIST = 6


@dataclass
class Line:
    """One player on the table's standings."""

    place: int
    name: str
    total: int  # points, or for an evening the balance in cents
    mark: int
    leader: bool
    active: bool = True
    money: int | None = None  # cents, with money per point
    last: int | None = None  # the points of the last deal (None: abandoned or away)
    went_out: bool = False


@dataclass
class GameTable:
    sheet: Sheet
    lines: list[Line]
    last_number: int | None  # the last deal's number, None before the first deal
    next_deal: DealInfo | None
    winners: list[str]  # at the end: the winners' names (the winner's moment)

    @property
    def many(self) -> bool:
        return len(self.lines) > ONE_LIST


def game_table(sheet: Sheet) -> GameTable:
    index = {seat.position: i for i, seat in enumerate(sheet.seats)}
    last_row = sheet.rows[-1] if sheet.rows else None
    lines = []
    for seat, st, mark, cents in sheet.ranked:
        cell = last_row.cells[index[seat.position]] if last_row else None
        lines.append(
            Line(
                place=st.place,
                name=seat.name,
                total=st.total,
                mark=mark,
                leader=bool(sheet.rows) and st.place == 1,
                active=seat.active,
                money=cents,
                last=cell.points if cell is not None and not cell.away else None,
                went_out=bool(cell and cell.went_out),
            )
        )
    over = sheet.next_deal is None and bool(sheet.rows)
    return GameTable(
        sheet=sheet,
        lines=lines,
        last_number=last_row.deal.number if last_row else None,
        next_deal=sheet.next_deal,
        winners=sheet.winner_names if over else [],
    )


@dataclass
class Playing:
    """The evening's game in progress: its number in the evening and its next deal."""

    number: int
    game: Game
    next_deal: DealInfo | None


@dataclass
class EveningTable:
    page: EveningPage
    lines: list[Line]
    playing: Playing | None
    winners: list[str]  # every game finished: who is ahead of the evening

    @property
    def many(self) -> bool:
        return len(self.lines) > ONE_LIST


def evening_table(page: EveningPage) -> EveningTable:
    marks = {name: i % MARKS for i, name in enumerate(page.names)}
    lines = [
        Line(
            place=st.place,
            name=name,
            total=st.total,
            mark=marks.get(name, 0),
            leader=st.place == 1 and st.total > 0,
        )
        for name, st in page.standings
    ]
    playing = None
    for line in reversed(page.lines):
        if not line.game.is_finished:
            game = load_game(Game.objects.filter(pk=line.game.pk))
            assert game is not None  # the evening's page read it a moment ago
            playing = Playing(line.number, game, build_sheet(game).next_deal)
            break
    over = bool(page.lines) and playing is None
    winners = [line.name for line in lines if line.leader] if over else []
    return EveningTable(page=page, lines=lines, playing=playing, winners=winners)


def evening_version(evening_id: int, version: int) -> str:
    """The evening's table version (see the module's docstring): one query."""
    games = EveningGame.objects.filter(evening_id=evening_id).aggregate(v=Sum("game__version"))
    return f"{version}-{games['v'] or 0}"


def evening_version_by_token(token: str) -> str | None:
    found = Evening.objects.by_token(token).order_by().values_list("pk", "version")[:1]
    row = next(iter(found), None)
    return evening_version(*row) if row else None
