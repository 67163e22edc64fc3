"""Export a game as CSV or JSON, and import a JSON export as a new game.

An import never trusts the scores in the file: every deal goes through the same form and
engine as a deal entered at the table, and a file whose scores disagree is refused.
"""

from __future__ import annotations

import csv
import io
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.utils.formats import get_format
from django.utils.translation import gettext as _

from rules.engine.variants import CLASSIC, VARIANTS, OptionError
from rules.i18n import engine_message

from .forms.data import form_data
from .forms.deals import WENT_OUT_ABANDONED, WENT_OUT_NOBODY, deal_form_class
from .forms.games import NewGameForm, option_field_name
from .forms.names import clean_name
from .forms.seats import SeatList
from .forms.storable import UNSTORABLE_MESSAGE, has_unstorable_text
from .models import Actor, Deal, DealScore, Event, Game, Seat
from .naming import normal_name
from .sheet import Sheet
from .templatetags.scorepad import contract as contract_words

FORMAT = "continental-scorepad"
FORMAT_VERSION = 1
MAX_IMPORT_DEALS = 500
MAX_IMPORT_SEATS = 100  # every seat ever used: players who left and others who joined


class ImportProblem(ValueError):
    """A file that cannot be imported; the message says why."""


def export_document(sheet: Sheet) -> dict[str, Any]:
    game = sheet.game
    names = [s.name for s in sheet.seats]
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "variant": game.variant_id,
        "options": game.options,
        "schedule": game.schedule,
        "players": names,
        "first_dealer": game.first_dealer,
        "status": game.status,
        "value_per_point": str(game.value_per_point) if game.value_per_point is not None else None,
        "created_at": game.created_at.isoformat(),
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        # Players who came and went (all optional: a file without them has every player
        # in every deal, each starting at 0).
        "starts": [s.start for s in sheet.seats],
        "left": [s.name for s in sheet.seats if not s.active],
        # Each seat a newcomer took over: who played it before, and their last deal.
        "took_over": [
            {"name": s.before_name, "deal": s.before_until or 0} if s.before_name else None
            for s in sheet.seats
        ],
        "target_score": game.target_score,
        "target_deals": game.target_deals,
        "deals": [
            {
                "number": row.deal.number,
                "players": [
                    s.position for s, c in zip(sheet.seats, row.cells, strict=True) if not c.away
                ],
                "dealer": row.dealer.name,
                "status": row.deal.status,
                "went_out": row.deal.went_out,
                "handromme": row.deal.handromme,
                "entry": row.deal.entry,
                "payment": row.deal.payment,
                "payment_rows": row.deal.payment_rows,
                "scores": [cell.points or 0 for cell in row.cells],
            }
            for row in sheet.rows
        ],
        "totals": sheet.totals,
        "standings": [
            {"player": seat.name, "total": st.total, "place": st.place}
            for seat, st in sheet.standings
        ],
    }


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula (a name like ``=HYPERLINK(...)``,
    OWASP "CSV injection") gets a leading apostrophe, so it shows as the text it is. Numbers
    are left alone: -3 is a score."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


class SafeWriter:
    def __init__(self, out: io.StringIO, delimiter: str = ","):
        self.writer = csv.writer(out, delimiter=delimiter)

    def writerow(self, row: list[Any]) -> None:
        self.writer.writerow([csv_cell(value) for value in row])


def csv_delimiter() -> str:
    """What a spreadsheet of the active language reads as the column separator: a semicolon
    where the decimal separator is a comma (German, Norwegian, Polish, Finnish, Spanish)."""
    return ";" if get_format("DECIMAL_SEPARATOR") == "," else ","


def export_csv(sheet: Sheet) -> str:
    """The sheet as CSV for a spreadsheet, in the active language: a byte-order mark first
    (Excel on Windows reads UTF-8 only then), the language's column separator, the contract
    of each deal in words, Handrommé marked. Not read back: the JSON export is the one that
    imports, and it keeps names exactly as they are."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = SafeWriter(out, csv_delimiter())
    names = [s.name for s in sheet.seats]
    contract = sheet.game.deal_specs is not None
    head = [_("deal"), _("dealer"), _("went out")]
    if contract:
        head.append(_("contract"))
    writer.writerow(head + names)
    for row in sheet.rows:
        deal = row.deal
        if deal.is_abandoned:
            went_out = _("abandoned")
        elif deal.went_out is None:
            went_out = _("nobody")
        else:
            went_out = names[deal.went_out]
            if deal.handromme:
                went_out = _("%(name)s (Handrommé)") % {"name": went_out}
        line = [deal.number, row.dealer.name, went_out]
        if contract:
            line.append(contract_words(row.spec))
        writer.writerow(line + ["" if c.points is None else c.points for c in row.cells])
    writer.writerow([_("total"), "", ""] + ([""] if contract else []) + sheet.totals)
    return out.getvalue()


CENT = Decimal("0.01")


def _money_text(value: Any) -> str:
    """The money per point of a file, rounded to cents, as the new-game form's field takes it
    (which then bounds it: at least 0.01, at most 9 digits)."""
    if value in (None, ""):
        return ""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise ImportProblem(_("The money per point is not a number."))
    try:
        amount = Decimal(str(value))
        if not amount.is_finite():
            raise ImportProblem(_("The money per point is not a number."))
        return str(amount.quantize(CENT, rounding=ROUND_HALF_UP))
    except (InvalidOperation, ValueError):  # not a number, or too many digits to round
        raise ImportProblem(_("The money per point is not a number.")) from None


def _whole(value: Any) -> str:
    """A whole number of the file as a form field reads it; anything else the field refuses."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else "?"


def _schedule_text(rows: Any) -> str:
    """A file's deal schedule as the new-game form's text field takes it, a deal per line."""
    lines = []
    for row in rows if isinstance(rows, list) else [None]:
        row = row if isinstance(row, dict) else {}
        keys = (("cards", None), ("sets", None), ("runs", None), ("set_min", 3), ("run_min", 4))
        lines.append(" ".join(_whole(row.get(key, default)) for key, default in keys))
    return "\n".join(lines)


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ImportProblem(message)


def _seats(names: Any, limit: int | None) -> SeatList:
    """The players of a file, seated as the new-game page seats typed names (names only: an
    imported game is outside any circle; a name too long or given twice is refused with its
    message).
    ``limit`` bounds the seats ever used, not the players at the table (``_table``)."""
    _require(isinstance(names, list), _("The export has no list of players."))
    seats = SeatList([], limit=limit)
    for name in names:
        if not isinstance(name, str) or not clean_name(name):
            raise ImportProblem(_("Every player needs a name of 1 to 40 characters."))
        if not seats.add_name(name):
            raise ImportProblem(seats.error)
    return seats


def _table(document: dict, seats: int) -> int:
    """The players at the table that the variant's limits count: those of each deal (the
    ones a deal scores) and those still at the table at the end; not every seat ever used.
    The first count out of the limits is the one the new-game form refuses, else the first."""
    counts = []
    for item in document.get("deals") or []:
        playing = item.get("players") if isinstance(item, dict) else None
        counts.append(len(playing) if isinstance(playing, list) else seats)
    left = document.get("left") or []
    names = document.get("players") or []
    if isinstance(left, list) and isinstance(names, list):
        gone = {normal_name(n) for n in left if isinstance(n, str)}
        counts.append(
            len([n for n in names if not (isinstance(n, str) and normal_name(n) in gone)])
        )
    variant = VARIANTS.get(str(document.get("variant")))
    if variant is not None:
        for n in counts:
            if not variant.min_players <= n <= variant.max_players:
                return n
    return counts[0] if counts else seats


def _new_game_form(document: dict, seats: SeatList) -> NewGameForm:
    """The game of a file (its variant, house rules, schedule, first dealer, money per point)
    checked by the very form that starts a game at the table."""
    variant_id = document.get("variant")
    data: dict[str, Any] = {
        "variant": variant_id if isinstance(variant_id, str) else "",
        "first_dealer": _whole(document.get("first_dealer", 0)),
    }
    variant = VARIANTS.get(data["variant"])
    if variant is not None:
        try:  # the file's values are JSON: the engine tells a true from a "true"
            options = variant.resolve_options(document.get("options") or {})
        except OptionError as exc:
            raise ImportProblem(engine_message(exc)) from None
        for spec in variant.options:
            data[option_field_name(variant.id, spec.name)] = options[spec.name]
        if variant.is_contract and document.get("schedule"):
            data["schedule"] = _schedule_text(document["schedule"])
        if variant.id == CLASSIC:
            data["value_per_point"] = _money_text(document.get("value_per_point"))
    table = _table(document, len(seats.entries))
    form = NewGameForm(form_data(data), seats=seats, table=table)
    if form.is_valid():
        return form
    if "value_per_point" in form.errors:
        raise ImportProblem(_("The money per point must be an amount from 0.01 to 9999999.99."))
    raise ImportProblem(" ".join(str(e) for errors in form.errors.values() for e in errors))


def import_game(
    document: Any,
    *,
    actor: Actor,
    fields: dict[str, Any] | None = None,
    max_deals: int | None = MAX_IMPORT_DEALS,
    max_seats: int | None = MAX_IMPORT_SEATS,
) -> Game:
    """Create a new game from an export; raise ImportProblem saying what is wrong.

    ``fields`` sets further columns of the new game (a whole-database restore keeps its id,
    links, version and timestamps); ``max_deals`` and ``max_seats`` None lift the limits on
    deals and on seats ever used (the players at the table are bounded by the variant).
    """
    _require(
        isinstance(document, dict) and document.get("format") == FORMAT,
        _("This is not a JSON export of a game."),
    )
    _require(
        document.get("format_version") == FORMAT_VERSION,
        _("This export comes from a newer version of the app."),
    )
    _require(not has_unstorable_text(document), str(UNSTORABLE_MESSAGE))
    seats = _seats(document.get("players"), max_seats)
    # Before the game's form counts the players of each deal (a number there is no list).
    deals = document.get("deals") or []
    _require(isinstance(deals, list), _("The deals of the export are not a list."))
    game_data = _new_game_form(document, seats).cleaned_data
    schedule = game_data["schedule_rows"]
    _require(max_deals is None or len(deals) <= max_deals, _("The export has too many deals."))
    if schedule is not None:
        _require(len(deals) <= len(schedule), _("The export has more deals than its schedule."))

    with transaction.atomic():
        game = Game.objects.create(
            variant_id=game_data["variant"],
            options=game_data["options"],
            schedule=schedule,
            first_dealer=int(game_data["first_dealer"]),
            value_per_point=game_data.get("value_per_point"),
            **(fields or {}),
        )
        seated = seats.seat(game)
        _come_and_go(game, seated, document)
        _record_deals(game, seated, deals)
        game.recompute_totals()
        finished = document.get("status") == Game.Status.FINISHED or game.is_complete(len(deals))
        if finished:
            game.finish()
        Event.objects.create(
            game=game, kind="imported", actor=actor.role, device=actor.device, details={}
        )
    return game


def _handed_over(item: object) -> bool:
    """An export's note of a seat taken over: the name before, and their last deal."""
    return (
        isinstance(item, dict)
        and isinstance(item.get("name"), str)
        and bool(normal_name(item["name"]))
        and isinstance(item.get("deal"), int)
        and not isinstance(item.get("deal"), bool)
        and 0 <= item["deal"] < 10**4
    )


def _come_and_go(game: Game, seats: list[Seat], document: dict) -> None:
    """The starting totals, the players who left and the target of a file, when it has them."""
    starts = document.get("starts")
    if starts is not None:
        _require(
            isinstance(starts, list)
            and len(starts) == len(seats)
            and all(
                isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 10**6 for n in starts
            ),
            _("The starting totals of the export are not readable."),
        )
        for seat, start in zip(seats, starts, strict=True):
            seat.start = start
    left = document.get("left") or []
    _require(isinstance(left, list), _("The starting totals of the export are not readable."))
    gone = {normal_name(name) for name in left if isinstance(name, str)}
    for seat in seats:
        seat.active = seat.name not in gone
    took_over = document.get("took_over") or [None] * len(seats)
    _require(
        isinstance(took_over, list)
        and len(took_over) == len(seats)
        and all(item is None or _handed_over(item) for item in took_over),
        _("Who took over a seat is not readable in the export."),
    )
    for seat, item in zip(seats, took_over, strict=True):
        if item is not None:
            seat.before_name = normal_name(item["name"])
            seat.before_until = item["deal"]
    Seat.objects.bulk_update(seats, ["start", "active", "before_name", "before_until"])
    if game.can_have_target:
        for field, digits in (("target_score", 6), ("target_deals", 3)):
            value = document.get(field)
            if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 10**digits:
                setattr(game, field, value)
        game.save(update_fields=["target_score", "target_deals"])


def _record_deals(game: Game, seats: list[Seat], deals: list) -> None:
    """Every deal of the file through the game's deal form, as if typed at the table."""
    form_class = deal_form_class(game)
    for number, item in enumerate(deals, start=1):
        _require(isinstance(item, dict), _("Deal %(n)d is not readable.") % {"n": number})
        playing = item.get("players")
        if playing is not None:
            _require(
                isinstance(playing, list) and all(p in range(len(seats)) for p in playing),
                _("Deal %(n)d is not readable.") % {"n": number},
            )
        in_deal = seats if playing is None else [s for s in seats if s.position in playing]
        try:
            result = _deal_result(game, in_deal, form_class, number, item, everyone=seats)
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, ImportProblem):
                raise
            raise ImportProblem(_("Deal %(n)d is not readable.") % {"n": number}) from None
        game.check_result(result)  # the stake game's zero sum, as on every saved deal
        deal = Deal(game=game, number=number)
        deal.set_result(result)
        deal.save()
        DealScore.objects.bulk_create(
            DealScore(deal=deal, seat=seats[pos], points=points)
            for pos, points in sorted(result.scores.items())
        )


def _deal_result(game, seats, form_class, number, item, everyone=None):
    if item.get("status") == Deal.Status.ABANDONED:
        initial = {"went_out": WENT_OUT_ABANDONED}
    else:
        fake = Deal(
            game=game,
            number=number,
            status=Deal.Status.SCORED,
            went_out=item.get("went_out"),
            handromme=bool(item.get("handromme")),
            entry=item.get("entry") if isinstance(item.get("entry"), dict) else {},
        )
        initial = form_class.initial_from(fake)
        if fake.went_out is None and game.variant_id != CLASSIC:
            initial["went_out"] = WENT_OUT_NOBODY
    data = form_data({**initial, "version": 0, "once": "import"})
    form = form_class(data, game=game, seats=seats, deal=number)
    if not form.is_valid() or form.result is None:
        problems = "; ".join(str(e) for errors in form.errors.values() for e in errors)
        raise ImportProblem(
            _("Deal %(n)d cannot be scored: %(problems)s") % {"n": number, "problems": problems}
        )
    given = item.get("scores")
    if given is not None:
        computed = [form.result.scores.get(s.position, 0) for s in everyone or seats]
        _require(
            given == computed,
            _("Deal %(n)d: the scores in the file do not match what was entered.") % {"n": number},
        )
    return form.result
