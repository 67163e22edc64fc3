"""The result of a game or an evening as it is shared to the friends' chat, and a finished
game as a play for BG Stats.

One function per kind makes a :class:`Result` (``game_result``, ``evening_result``): the
short text ("Continental — the 15-card game, December 2: 1. Anna +152 · 2. Ben −20") and
what the picture (``templates/scorepad/result.svg``, drawn on the server, no outside service)
shows, in the active language: the game's name, the day in the language's format, the places
with their totals in the variant's sense (the classic game's points signed as gains and
losses, with their money when the game has money per point; the penalties of the contract
games and Rommé, where the fewest win; an evening's money), and the payments that square
everybody. Neither holds a link: no token of the game, the evening or a circle is in them.

``bgstats_link`` writes a finished game as BG Stats' "createPlay" link (docs/interfaces.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.engine.dealing import next_playing
from rules.engine.variants import CLASSIC
from rules.facts import NAMES

from .charts import MARKS, mark_path, signed
from .evenings import EveningPage
from .models import Game, roots
from .sheet import Sheet
from .templatetags.evenings import amount, signed_money
from .templatetags.scorepad import points

if TYPE_CHECKING:
    from .tournaments import Tournament

# The players' colours of the light stylesheet (static/css/app.css, --p0 ... --p5; a test
# keeps them equal) and the colour each mark takes: .m0 ... .m5 the six, .m6 ... .m11 the
# same six shifted by three, as the stylesheet pairs them.
COLOURS = ("#0072b2", "#d55e00", "#008a63", "#b7488f", "#a66f00", "#4d4d4d")
NAME_LENGTH = 22  # the characters of a name the picture shows (then "…")

# The picture: 1080 wide (what the chats show without shrinking much), as tall as its rows.
WIDTH = 1080
TOP = 250  # the band with the name and the day, and the heading of the standings
ROW = 84
PAYMENT_ROW = 60
FOOT = 70

BGSTATS = "https://app.bgstatsapp.com/createPlay.html"


@dataclass(frozen=True)
class Place:
    place: int
    name: str
    total: str  # "+152", "35", "+4,50"
    money: str = ""  # "+1,52": a classic game's money per point
    mark: int = 0
    leader: bool = False

    @property
    def path(self) -> str:
        return mark_path(self.mark)

    @property
    def colour(self) -> str:
        return COLOURS[(self.mark + (3 if self.mark % MARKS >= 6 else 0)) % len(COLOURS)]

    @property
    def short_name(self) -> str:
        return cut(self.name)

    def line(self) -> str:
        money = f" ({self.money})" if self.money else ""
        return f"{self.place}. {self.name} {self.total}{money}"


@dataclass(frozen=True)
class Result:
    title: str  # the game's name, or the evening's
    date: str  # the day, as the language writes it
    heading: str  # "Final standings", "Standings so far"
    places: list[Place]
    payments: list[tuple[str, str, str]] = field(default_factory=list)  # payer, payee, amount
    note: str = ""  # "Money at 0,10 per point.", "The balances ... were carried ..."
    left: list[str] = field(default_factory=list)  # "Marek left after deal 6."
    so_far: bool = False
    filename: str = "result"  # without its extension: no link in it
    language: str = "en"

    @property
    def settle_heading(self) -> str:
        return _("Settle up")

    @property
    def summary(self) -> str:
        """The first line: the name, the day and the places."""
        values = {
            "title": self.title,
            "date": self.date,
            "places": " · ".join(place.line() for place in self.places),
        }
        if self.so_far:
            return _("%(title)s, %(date)s, so far: %(places)s") % values
        return _("%(title)s, %(date)s: %(places)s") % values

    @property
    def text(self) -> str:
        """The text for the chat: the summary, who pays whom, and the note."""
        lines = [self.summary]
        if self.left:
            lines.append(" ".join(self.left))
        if self.payments:
            lines.append(" · ".join(pays(*payment) for payment in self.payments))
        if self.note:
            lines.append(self.note)
        return "\n".join(lines)

    # --- the picture's geometry (whole pixels, written as plain numbers) ---------------------

    @property
    def rows(self) -> list[tuple[int, Place]]:
        return [(TOP + i * ROW, place) for i, place in enumerate(self.places)]

    @property
    def payments_top(self) -> int:
        return TOP + len(self.places) * ROW + 40

    @property
    def payment_rows(self) -> list[tuple[int, str, str]]:
        """(y, text, textLength) of each payment, the names cut as the places cut them."""
        first = self.payments_top + 70
        rows = []
        for i, (payer, payee, sum_) in enumerate(self.payments):
            text = pays(cut(payer), cut(payee), sum_)
            rows.append((first + i * PAYMENT_ROW, text, squeeze(text, 34, WIDTH - 120)))
        return rows

    @property
    def title_length(self) -> str:
        return squeeze(self.title, 42, WIDTH - 190, bold=True)

    @property
    def height(self) -> int:
        bottom = TOP + len(self.places) * ROW
        if self.payments:
            bottom = self.payments_top + 70 + len(self.payments) * PAYMENT_ROW
        return bottom + FOOT + (50 if self.note else 0)

    @property
    def note_y(self) -> int:
        return self.height - FOOT + 10

    @property
    def width(self) -> int:
        return WIDTH


def cut(name: str) -> str:
    """A name as the picture shows it: at most NAME_LENGTH characters."""
    return name if len(name) <= NAME_LENGTH else name[: NAME_LENGTH - 1] + "…"


def squeeze(text: str, size: int, room: int, *, bold: bool = False) -> str:
    """The ``textLength`` that fits a line of the picture into ``room`` pixels when it looks
    too long for it (its width guessed from its length: the phone's fonts are not known
    here); "" when it fits as it is."""
    guess = len(text) * size * (0.62 if bold else 0.56)
    return str(room) if guess > room else ""


def pays(payer: str, payee: str, sum_: str) -> str:
    return _("%(payer)s pays %(payee)s %(amount)s") % {
        "payer": payer,
        "payee": payee,
        "amount": sum_,
    }


def _day(moment: datetime) -> str:
    return date_format(timezone.localtime(moment), "MONTH_DAY_FORMAT")


def _filename(kind: str, moment: datetime, pk: int) -> str:
    return f"{slugify(kind)}-{timezone.localtime(moment):%Y-%m-%d}-{pk}"


def offered(game: Game, sheet: Sheet) -> bool:
    """A game's result is shared once it is finished and has deals."""
    return game.is_finished and bool(sheet.rows)


def game_result(sheet: Sheet) -> Result:
    """The final standings of a finished game, and in a classic game with money per point
    each player's money and the payments that square everybody."""
    game = sheet.game
    classic = sheet.is_classic
    places = [
        Place(
            place=st.place,
            name=seat.name,
            total=signed(st.total) if classic else str(st.total),
            money=signed_money(cents) if cents is not None else "",
            mark=mark,
            leader=st.place == 1,
        )
        for seat, st, mark, cents in sheet.ranked
    ]
    payments = []
    note = ""
    per_point = game.value_per_point if classic else None
    if per_point is not None and sheet.money:
        payments = [
            (payer.name, payee.name, amount(sum_)) for payer, payee, sum_ in sheet.settle(per_point)
        ]
        note = _("Money at %(amount)s per point.") % {"amount": amount(per_point)}
    return Result(
        title=str(NAMES[game.variant_id]),
        date=_day(game.created_at),
        heading=_("Final standings"),
        places=places,
        payments=payments,
        note=note,
        left=sheet.left_lines,
        filename=_filename(game.variant_id, game.created_at, game.pk),
        language=translation.get_language() or "en",
    )


def evening_result(page: EveningPage) -> Result:
    """An evening's standings in money and its settle-up. While a game of it is in
    progress they are the standings so far; once its balances were carried nobody pays,
    and the picture says where the balances went instead of who pays whom."""
    evening = page.evening
    marks = {name: i % MARKS for i, name in enumerate(page.names)}
    places = [
        Place(
            place=st.place,
            name=name,
            total=signed_money(st.total),
            mark=marks.get(name, 0),
            leader=st.place == 1 and st.total > 0,
        )
        for name, st in page.standings
    ]
    so_far = page.in_progress > 0
    if evening.is_closed:
        heading, payments = _("Final standings"), []
        note = _("The balances of this evening were carried to the next one.")
    else:
        heading = _("Standings so far") if so_far else _("Standings")
        payments = [(payer, payee, amount(sum_)) for payer, payee, sum_ in page.transfers]
        note = ""
    return Result(
        title=evening.name or _("Evening"),
        date=_day(evening.date),
        heading=heading,
        places=places,
        payments=payments,
        note=note,
        so_far=so_far,
        filename=_filename("evening", evening.date, evening.pk),
        language=translation.get_language() or "en",
    )


SHARED_PLACES = 10  # the places a tournament's ranking shares (the whole one: CSV, JSON)


def tournament_result(tournament: Tournament, rows: list[dict[str, Any]], done: int) -> Result:
    """A tournament's ranking after its ``done`` series (``views.tournaments.standings``
    rows): the first SHARED_PLACES places with their placement points; the final ranking
    once the last series is confirmed, else the standings after series ``done``."""
    final = done >= tournament.series
    if final:
        heading = _("Final ranking")
    else:
        heading = _("Standings after series %(n)s of %(of)s") % {
            "n": done,
            "of": tournament.series,
        }
    places = [
        Place(
            place=row["place"],
            name=row["name"],
            total=points(row["points"]),
            mark=i % MARKS,
            leader=row["place"] == 1,
        )
        for i, row in enumerate(rows[:SHARED_PLACES])
    ]
    notes = [] if final else [heading + "."]
    notes.append(_("Placement points, scaled to a table of four."))
    if len(rows) > SHARED_PLACES:
        notes.append(
            ngettext("%(n)d player in all.", "%(n)d players in all.", len(rows)) % {"n": len(rows)}
        )
    return Result(
        title=tournament.name,
        date=_day(tournament.created_at),
        heading=heading,
        places=places,
        note=" ".join(notes),
        so_far=not final,
        filename=_filename("tournament", tournament.created_at, tournament.pk),
        language=translation.get_language() or "en",
    )


# --- BG Stats ---------------------------------------------------------------------------------


def bgstats_play(sheet: Sheet) -> dict:
    """A finished game as the play BG Stats' "createPlay" link carries. The game is named in
    English whatever the page's language (one game in the app's history, not one per
    language) and identified by its variant; no BoardGameGeek id is given. A player's
    ``sourcePlayerId`` is their person in the game's circle, else their seat: never a link."""
    game = sheet.game
    with translation.override("en"):
        name = str(NAMES[game.variant_id])
    who = roots(game.circle_id) if game.circle_id is not None else {}
    order = [seat.position for seat in sheet.seats]
    starter = None
    if sheet.rows:
        first = sheet.rows[0]
        playing = {
            seat.position
            for seat, cell in zip(sheet.seats, first.cells, strict=True)
            if not cell.away
        }
        starter = next_playing(order, first.dealer.position, game.step, playing or set(order))
    end = game.finished_at or (sheet.rows[-1].deal.created_at if sheet.rows else game.created_at)
    minutes = max(0, round((end - game.created_at).total_seconds() / 60))
    places = {seat.position: st for seat, st in sheet.standings}
    players = []
    for seat in sheet.seats:
        person = who.get(seat.person_id) if seat.person_id is not None else None
        players.append(
            {
                "name": seat.name,
                "score": str(places[seat.position].total),
                "winner": places[seat.position].place == 1,
                "rank": places[seat.position].place,
                "sourcePlayerId": f"person-{person}" if person else f"seat-{seat.position + 1}",
                "seatOrder": seat.position + 1,
                "startPlayer": seat.position == starter,
            }
        )
    # Who played a seat before a newcomer took it over left the game: after everyone.
    rank = len(players) + 1
    for seat in sheet.seats:
        if seat.before_name:
            person = who.get(seat.before_person_id) if seat.before_person_id is not None else None
            players.append(
                {
                    "name": seat.before_name,
                    "score": str(sheet.before_totals[seat.position]),
                    "winner": False,
                    "rank": rank,
                    "sourcePlayerId": f"person-{person}"
                    if person
                    else f"before-{seat.position + 1}",
                    "seatOrder": seat.position + 1,
                    "startPlayer": False,
                }
            )
    return {
        "sourceName": "Continental",
        # The same game sent twice is one play in BG Stats: its id here, never a link.
        "sourcePlayId": f"game-{game.pk}",
        "playDate": f"{timezone.localtime(game.created_at):%Y-%m-%d %H:%M:%S}",
        "durationMin": minutes,
        "game": {
            "name": name,
            "sourceGameId": game.variant_id,
            "highestWins": game.variant_id == CLASSIC,
            "noPoints": False,
            "cooperative": False,
        },
        "players": players,
    }


def bgstats_link(sheet: Sheet) -> str:
    data = json.dumps(bgstats_play(sheet), ensure_ascii=False, separators=(",", ":"))
    return f"{BGSTATS}?data={quote(data, safe='')}"
