"""The reader of a backup file (``manage.py backup import``): every value read with the type,
range and length of the column it goes to, before anything is stored.

The rules come from the models themselves (``Column``: a field's ``max_length``, the range
of its kind of integer, a decimal's digits), so a column that changes changes what a backup
may hold. The ranges are PostgreSQL's (Django's ``BaseDatabaseOperations``), also on SQLite,
which keeps a text of any length and any 64-bit number in any column: what restores into one
database restores into the other.

A value that breaks a rule is refused with one line that names where it stands in the file
(``evenings[1].carried[0].name: a text of 10000 characters, not a text of at most 40
characters.``), never with the text itself (it may be a link, a key to a game). A number no
database keeps (more digits than Python reads, NaN, an infinity) is read as an ``Unreadable``
and refused wherever it stands, in the details of a history entry as in an id.

A game's entry is also a game's export (``scorepad.transfer``): its players, deals and scores
are read by the game import as the import page reads them; here only what the backup adds.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from typing import IO, Any, overload

from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from .models import (
    Circle,
    Deal,
    Entrant,
    Evening,
    EveningBalance,
    EveningGame,
    Event,
    Game,
    Person,
    Seat,
    Table,
    TableSeat,
    Tournament,
)
from .transfer import ImportProblem

# What each kind of integer column holds on PostgreSQL (SQLite holds 64 bits in any).
INTEGER_RANGES = BaseDatabaseOperations.integer_field_ranges


class Unreadable:
    """A number of the file that no column and no JSON writer takes: more digits than Python
    reads (4,300: ``int()`` raises ValueError), NaN or an infinity. It stands in the parsed
    document in the number's place, to be refused with that place."""

    def __init__(self, what: str) -> None:
        self.what = what

    def __repr__(self) -> str:
        return self.what


def _number_text(text: str) -> str:
    return f"the number {text}" if len(text) <= 24 else f"a number of {len(text)} characters"


def _int(text: str) -> int | Unreadable:
    try:
        return int(text)
    except ValueError:  # past sys.get_int_max_str_digits()
        return Unreadable(f"a number of {len(text.lstrip('-'))} digits")


def _float(text: str) -> float | Unreadable:
    value = float(text)
    return value if math.isfinite(value) else Unreadable(_number_text(text))


def load(source: IO[str]) -> Any:
    """The JSON of a backup file, its unreadable numbers as ``Unreadable`` (json.load would
    raise on the first, saying nothing of where it stands)."""
    return json.load(
        source,
        parse_int=_int,
        parse_float=_float,
        parse_constant=lambda text: Unreadable(f"the number {text}"),
    )


# --- places and values, as a message says them ----------------------------------------------
Path = tuple[str | int, ...]
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,39}")


def place(path: Path) -> str:
    """``("evenings", 1, "carried", 0, "name")`` as ``evenings[1].carried[0].name``."""
    text = ""
    for step in path:
        if isinstance(step, int):
            text += f"[{step}]"
        elif NAME.fullmatch(step):
            text += f".{step}" if text else step
        else:  # a key of a JSON column: quoted, cut short
            text += "[" + json.dumps(step[:40] + ("…" if len(step) > 40 else "")) + "]"
    return text or "the file"


def describe(value: Any) -> str:
    """What a value is, never the text itself (it may be a link)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        digits = len(str(abs(value)))
        return f"the number {value}" if digits <= 24 else f"a number of {digits} digits"
    if isinstance(value, float):
        return _number_text(repr(value))
    if isinstance(value, str):
        return f"a text of {len(value)} character{'' if len(value) == 1 else 's'}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return repr(value)  # an Unreadable says what it is


def refuse(path: Path, got: str, expected: str) -> ImportProblem:
    return ImportProblem(f"{place(path)}: {got}, not {expected}.")


def check_numbers(document: Any) -> None:
    """Refuse the first ``Unreadable`` of ``document``, wherever it stands (a JSON column's
    details too), naming its place. Without recursion: a deep document must not overflow."""
    stack: list[tuple[Any, Path]] = [(document, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, Unreadable):
            raise ImportProblem(f"{place(path)}: {value.what}, not a number a database keeps.")
        if isinstance(value, dict):
            stack.extend((item, (*path, key)) for key, item in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((item, (*path, i)) for i, item in reversed(list(enumerate(value))))


# --- the rules ------------------------------------------------------------------------------
@overload
def parse_time(value: Any, what: str) -> datetime: ...
@overload
def parse_time(value: Any, what: str, *, optional: bool) -> datetime | None: ...
def parse_time(value: Any, what: str, *, optional: bool = False) -> datetime | None:
    """A date and time of the file, in UTC; ``what`` names it when it is none."""
    if value is None and optional:
        return None
    try:  # a well-formed but impossible date (2024-02-30) is a ValueError
        parsed = parse_datetime(value) if isinstance(value, str) else None
        if parsed is not None:
            aware = parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed, UTC)
            return aware.astimezone(UTC)  # past year 9999 in UTC: an OverflowError
    except (ValueError, OverflowError):
        pass
    shown = repr(value) if isinstance(value, str) and DATE_LIKE.fullmatch(value) else None
    raise ImportProblem(f"{what}: {shown or describe(value)}, not a date and time.")


DATE_LIKE = re.compile(r"[0-9:.+TZ -]{1,40}")  # shown in a message; a link never is


@dataclass(frozen=True)
class Column:
    """A value that goes to the field ``name`` of ``model``: of its type, in its range, of
    at most its length. ``optional``: it may be missing or null. ``least``: the app's lower
    bound of a whole number, when above the column's (a version starts at 1)."""

    model: type[models.Model]
    name: str
    optional: bool = False
    least: int | None = None

    def check(self, value: Any, path: Path) -> None:
        if value is None:
            if not self.optional:
                raise refuse(path, "null", self.expected())
            return
        field = self.field()
        if isinstance(field, models.CharField):
            ok = isinstance(value, str) and len(value) <= (field.max_length or len(value))
        elif isinstance(field, models.DateTimeField):
            parse_time(value, place(path))
            return
        elif isinstance(field, models.DecimalField):
            ok = _amount(value, field) is not None
        elif isinstance(field, models.JSONField):
            ok = True  # any JSON (its numbers are checked by check_numbers)
        elif isinstance(field, models.BooleanField):
            ok = isinstance(value, bool)
        else:  # a whole number (bounds() knows no other kind of column)
            low, high = self.bounds()
            ok = isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
        if not ok:
            raise refuse(path, describe(value), self.expected())

    def field(self) -> models.Field:
        field = self.model._meta.get_field(self.name)
        assert isinstance(field, models.Field)
        return field

    def bounds(self) -> tuple[int, int]:
        """A whole number's range: the column's, or its target's for a reference; from 1 for
        an id (the database's sequences start there)."""
        field = self.field()
        if isinstance(field, models.ForeignKey):  # a OneToOneField too
            field = field.target_field
        kind = field.get_internal_type()
        if kind not in INTEGER_RANGES:
            raise TypeError(
                f"The backup has no rule for a {kind} ({self.model.__name__}.{self.name})."
            )
        low, high = INTEGER_RANGES[kind]
        if isinstance(field, models.AutoField | models.BigAutoField | models.SmallAutoField):
            low = max(low, 1)
        return max(low, self.least if self.least is not None else low), high

    def expected(self) -> str:
        field = self.field()
        if isinstance(field, models.CharField):
            return f"a text of at most {field.max_length} characters"
        if isinstance(field, models.DateTimeField):
            return "a date and time"
        if isinstance(field, models.DecimalField):
            return (
                f"an amount of at most {field.max_digits} digits, "
                f"{field.decimal_places} of them after the point"
            )
        if isinstance(field, models.JSONField):
            return "a JSON value"
        if isinstance(field, models.BooleanField):
            return "true or false"
        low, high = self.bounds()
        return f"a whole number from {low} to {high}"


def _amount(value: Any, field: models.DecimalField) -> Decimal | None:
    """``value`` as an amount the decimal column holds, or None."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    places = field.decimal_places or 0
    try:
        amount = Decimal(str(value))
        if not amount.is_finite() or abs(amount) >= Decimal(10) ** (
            (field.max_digits or 0) - places
        ):
            return None
        return amount if amount == amount.quantize(Decimal(1).scaleb(-places)) else None
    except (InvalidOperation, ValueError):  # not an amount; or more digits than it rounds
        return None


@dataclass(frozen=True)
class Items:
    """A list, each item by ``rule``; ``optional``: it may be missing or null."""

    rule: Column | Record
    optional: bool = False


@dataclass(frozen=True)
class Record:
    """An object, each of ``keys`` by its rule (other keys are not read)."""

    keys: dict[str, Column | Items | Record]
    optional: bool = False


def check(rule: Column | Items | Record, value: Any, path: Path, *, present: bool = True) -> None:
    """Refuse the first value under ``value`` that breaks ``rule``, naming its place."""
    if not present or value is None:
        if rule.optional:
            return
        if not present:
            raise refuse(path, "missing", _expected(rule))
    if isinstance(rule, Column):
        rule.check(value, path)
    elif isinstance(rule, Items):
        if not isinstance(value, list):
            raise refuse(path, describe(value), "a list")
        for i, item in enumerate(value):
            check(rule.rule, item, (*path, i))
    else:
        if not isinstance(value, dict):
            raise refuse(path, describe(value), "an object")
        for key, inner in rule.keys.items():
            check(inner, value.get(key), (*path, key), present=key in value)


def _expected(rule: Column | Items | Record) -> str:
    if isinstance(rule, Column):
        return rule.expected()
    return "a list" if isinstance(rule, Items) else "an object"


# --- the backup -----------------------------------------------------------------------------
def _history(model: type[models.Model], **more: Column) -> Items:
    return Items(
        Record(
            {
                "at": Column(model, "at"),
                "kind": Column(model, "kind"),
                "details": Column(model, "details", optional=True),
                "actor": Column(model, "actor"),
                "device": Column(model, "device", optional=True),
                "form_token": Column(model, "form_token", optional=True),
                **more,
            }
        ),
        optional=True,
    )


def _links(model: type[models.Model]) -> dict[str, Column]:
    return {
        "viewer_token": Column(model, "viewer_token"),
        "editor_token": Column(model, "editor_token"),
    }


def schema(old: bool) -> Record:
    """The backup's rules; ``old``: format version 1, whose circles, seats' people and
    balances' people are not read."""
    circles = Record(
        {
            "id": Column(Circle, "id"),
            "name": Column(Circle, "name", optional=True),
            "version": Column(Circle, "version", least=1),
            **_links(Circle),
            "created_at": Column(Circle, "created_at"),
            "updated_at": Column(Circle, "updated_at"),
            "people": Items(
                Record(
                    {
                        "id": Column(Person, "id"),
                        "name": Column(Person, "name"),
                        "merged_into": Column(Person, "merged_into", optional=True),
                        "created_at": Column(Person, "created_at"),
                    }
                ),
                optional=True,
            ),
            "history": _history(Event),
        }
    )
    of_circles: dict[str, Column | Items | Record] = (
        {}
        if old
        else {
            "circle": Column(Game, "circle", optional=True),
            "seats": Items(Column(Seat, "person", optional=True)),
            "before_seats": Items(Column(Seat, "before_person", optional=True), optional=True),
        }
    )
    games = Record(
        {
            "id": Column(Game, "id"),
            "version": Column(Game, "version", least=1),
            **_links(Game),
            "status": Column(Game, "status"),
            "created_at": Column(Game, "created_at"),
            "updated_at": Column(Game, "updated_at"),
            "finished_at": Column(Game, "finished_at", optional=True),
            "clock_ends": Column(Game, "clock_ends", optional=True),
            "players": Items(Column(Seat, "name")),
            **of_circles,
            "deals": Items(
                Record(
                    {
                        "created_at": Column(Deal, "created_at"),
                        "updated_at": Column(Deal, "updated_at"),
                    }
                )
            ),
            "history": _history(
                Event,
                id=Column(Event, "id", optional=True),
                deal_number=Column(Event, "deal_number", optional=True, least=0),
            ),
        }
    )
    evenings = Record(
        {
            "id": Column(Evening, "id"),
            "name": Column(Evening, "name", optional=True),
            "stake": Column(Evening, "stake"),
            "version": Column(Evening, "version", least=1),
            **_links(Evening),
            "next_evening": Column(Evening, "next_evening", optional=True),
            **({} if old else {"circle": Column(Evening, "circle", optional=True)}),
            "created_at": Column(Evening, "created_at"),
            "updated_at": Column(Evening, "updated_at"),
            "games": Items(
                Record(
                    {
                        "game": Column(EveningGame, "game"),
                        "stake": Column(EveningGame, "stake"),
                        "position": Column(EveningGame, "position"),
                        "added_at": Column(EveningGame, "added_at"),
                    }
                ),
                optional=True,
            ),
            "carried": Items(
                Record(
                    {
                        "name": Column(EveningBalance, "name"),
                        **(
                            {}
                            if old
                            else {"person": Column(EveningBalance, "person", optional=True)}
                        ),
                        "cents": Column(EveningBalance, "cents"),
                    }
                ),
                optional=True,
            ),
            "history": _history(Event),
        }
    )
    tournaments = Record(
        {
            "id": Column(Tournament, "id"),
            "name": Column(Tournament, "name"),
            "variant": Column(Tournament, "variant_id"),
            "options": Column(Tournament, "options", optional=True),
            **{
                field: Column(Tournament, field, optional=True)
                for field in ("series", "deals", "minutes", "ranking", "seating", "current")
            },
            "seed": Column(Tournament, "seed"),
            "version": Column(Tournament, "version", least=1),
            **_links(Tournament),
            "registration_token": Column(Tournament, "registration_token"),
            "circle": Column(Tournament, "circle", optional=True),
            "series_started": Column(Tournament, "series_started", optional=True),
            "proposal": Column(Tournament, "proposal", optional=True),
            "created_at": Column(Tournament, "created_at"),
            "updated_at": Column(Tournament, "updated_at"),
            "players": Items(
                Record(
                    {
                        field: Column(Entrant, field, optional=optional)
                        for field, optional in (
                            ("id", False),
                            ("number", False),
                            ("name", False),
                            ("token", False),
                            ("first_series", True),
                            ("dropped_after", True),
                            ("person", True),
                            ("created_at", True),
                        )
                    }
                ),
                optional=True,
            ),
            "tables": Items(
                Record(
                    {
                        "series": Column(Table, "series"),
                        "number": Column(Table, "number"),
                        "game": Column(Table, "game"),
                        "players": Items(Column(TableSeat, "entrant")),
                        "confirmed_version": Column(Table, "confirmed_version", optional=True),
                        "confirmed_by": Column(Table, "confirmed_by", optional=True),
                        "note": Column(Table, "note", optional=True),
                    }
                ),
                optional=True,
            ),
            "history": _history(Event),
        }
    )
    return Record(
        {
            **({} if old else {"circles": Items(circles, optional=True)}),
            "games": Items(games),
            "evenings": Items(evenings, optional=True),
            "tournaments": Items(tournaments, optional=True),
        }
    )


def check_backup(document: dict[str, Any], *, old: bool) -> None:
    """Refuse the first value of the backup that breaks its column's rules, naming its place
    (its unreadable numbers first, wherever they stand)."""
    check_numbers(document)
    check(schema(old), document, ())
