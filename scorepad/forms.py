"""Forms of the score pad: a request validates into engine values, the engine scores.

A deal form calls the engine in ``clean()`` so that every error a person can cause (a
mistyped card, points that no hand is worth, a hand that does not go out) is shown in
place, next to the field concerned, and nothing is saved.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from typing import Any

from django import forms
from django.utils import formats, translation
from django.utils.functional import Promise
from django.utils.text import get_text_list
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from rules.engine.audit import Excess, excess_cards
from rules.engine.cards import (
    CardError,
    check_copies,
    format_cards,
    format_local,
    local_code,
    parse_cards,
)
from rules.engine.check import CheckError, check_hand
from rules.engine.scoring import (
    ScoreError,
    classic_ledger,
    classic_payment,
    hand_penalty,
    penalty_deal,
    penalty_errors,
)
from rules.engine.variants import (
    CLASSIC,
    CLASSIC_PAYMENTS,
    ROMME,
    VARIANT_IDS,
    VARIANTS,
    OptionError,
    build_schedule,
    get_variant,
)
from rules.facts import NAMES
from rules.i18n import engine_message
from rules.pages.words import on_off, option_words, payment_label

from . import conflicts
from .models import NAME_MAX, Circle, Deal, DealResult, Game, Person, Seat


def form_data(initial: dict[str, Any]) -> dict[str, str]:
    """Field values as a browser would post them (checked boxes "on", unchecked left out)."""
    data = {}
    for key, value in initial.items():
        if value is None or value is False:
            continue
        data[key] = "on" if value is True else str(value)
    return data


ONCE_SHAPE = r"\A[A-Za-z0-9_-]+\Z"


def once_token() -> str:
    return secrets.token_urlsafe(16)


def slug(variant_id: str) -> str:
    return variant_id.replace("-", "_")


def option_field_name(variant_id: str, option: str) -> str:
    return f"opt_{slug(variant_id)}_{option}"


def clean_name(raw: str) -> str:
    return " ".join(raw.split())


# NUL: no database stores it in text (PostgreSQL refuses it, SQLite keeps it and a restore
# into PostgreSQL then fails). A lone surrogate (what "\\ud800" in JSON gives) cannot even be
# encoded to UTF-8 for either database.
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _strings(document: Any):
    """Every string of a parsed JSON document, keys included, without recursion (a deeply
    nested document must not overflow the stack)."""
    stack = [document]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            yield from (k for k in value if isinstance(k, str))
            stack.extend(value.values())
        elif isinstance(value, list | tuple):
            stack.extend(value)


def has_unstorable_text(document: Any) -> bool:
    """Whether a string anywhere in ``document`` holds a NUL or a lone surrogate."""
    return any(UNSTORABLE.search(text) for text in _strings(document))


def storable_text(document: Any) -> tuple[Any, int]:
    """A copy of ``document`` with NULs removed and lone surrogates replaced by U+FFFD, and
    how many strings were changed (the document must not be a cycle: parsed JSON never is)."""
    changed = 0

    def fix(text: str) -> str:
        nonlocal changed
        fixed = UNSTORABLE.sub(_replacement, text)
        changed += fixed != text
        return fixed

    root: list[Any] = [document]
    stack: list[tuple[Any, Any]] = [(root, 0)]
    while stack:
        parent, key = stack.pop()
        value = parent[key]
        if isinstance(value, str):
            parent[key] = fix(value)
        elif isinstance(value, dict):
            parent[key] = copy = {fix(k) if isinstance(k, str) else k: v for k, v in value.items()}
            stack.extend((copy, k) for k in copy)
        elif isinstance(value, list | tuple):
            parent[key] = copy = list(value)
            stack.extend((copy, i) for i in range(len(copy)))
    return root[0], changed


def _replacement(match: re.Match) -> str:
    return "" if match.group() == "\x00" else "\ufffd"


def small_int(text: str, digits: int = 9) -> int | None:
    """``text`` as a whole number if it is a few ASCII digits, else None.

    ``str.isdigit()`` alone lets through "²" and numbers of thousands of digits, which
    ``int()`` then refuses with a ValueError: a hand-made request must not make a 500 of it.
    """
    if isinstance(text, str) and 0 < len(text) <= digits and text.isascii() and text.isdigit():
        return int(text)
    return None


# --- our own error messages ---------------------------------------------------------------


@cache
def stock_messages() -> dict[str, set[str]]:
    """Django's own error messages of form fields and validators, by code, in English
    source text: a form of ours shows none of them (they name no player and speak in
    another voice than ours)."""
    from django.core import validators
    from django.forms import fields as django_fields

    stock: dict[str, set[str]] = {}
    with translation.override("en"):
        _collect_stock(stock, django_fields, validators)
    return stock


def _collect_stock(stock, django_fields, validators) -> None:
    for cls in vars(django_fields).values():
        if isinstance(cls, type) and issubclass(cls, forms.Field):
            for klass in cls.__mro__:
                for code, text in getattr(klass, "default_error_messages", {}).items():
                    stock.setdefault(code, set()).add(str(text))
    for cls in vars(validators).values():
        if isinstance(cls, type) and isinstance(getattr(cls, "message", None), str | Promise):
            code = getattr(cls, "code", "invalid")
            stock.setdefault(code, set()).add(str(cls.message))
        messages = getattr(cls, "messages", None)  # DecimalValidator
        if isinstance(messages, dict):
            for code, text in messages.items():
                stock.setdefault(code, set()).add(str(text))


def own_messages() -> dict[str, Any]:
    """The message of ours for each error code a field may give, where its form says
    nothing more precise."""
    return {
        "required": _("Fill this in."),
        "invalid": _("This cannot be read; check what you typed."),
        "invalid_choice": _("Choose one of the choices shown."),
        "max_length": _("This is too long."),
        "empty": _("The file is empty."),
    }


def replace_stock_messages(form: forms.Form) -> None:
    """Every error code of every field (the validators' codes included) gets a message of
    ours; the precise ones a form sets itself are kept."""
    ours = own_messages()
    fallback = _("This value cannot be used; check what you typed.")
    for field in form.fields.values():
        codes = set(field.error_messages)
        for validator in field.validators:
            codes.add(getattr(validator, "code", "invalid"))
            if isinstance(getattr(validator, "messages", None), dict):
                codes.update(validator.messages)
        for code in codes:
            if code not in field.error_messages or _is_stock(code, field.error_messages[code]):
                field.error_messages[code] = ours.get(code, fallback)


def typed_back(cards: str) -> str:
    """Stored cards (canonical notation) as the page's language types them, the letters of
    the card grid's buttons: German ``BH DH``, not ``JH QH``."""
    try:
        return format_local(parse_cards(cards), get_language())
    except CardError:
        return cards


class OwnMessages(forms.Form):
    """A form that shows only messages of ours (see :func:`replace_stock_messages`) and
    lists them at its top, each linked to its control (``templates/scorepad/_errors.html``)."""

    def full_clean(self):
        replace_stock_messages(self)
        super().full_clean()

    def control_id(self, name: str) -> str:
        """The id of the control of field ``name`` (its first radio button for a choice)."""
        if name not in self.fields or self[name].is_hidden:
            return ""
        bound = self[name]
        return bound.id_for_label or (f"{bound.auto_id}_0" if bound.auto_id else "")

    def error_items(self) -> list[tuple[str, str]]:
        """Each error once, with the id of the control it is about ("" for the form's own)."""
        items: list[tuple[str, str]] = []
        seen: set[str] = set()
        for name, errors in self.errors.items():
            anchor = self.control_id(name)
            for error in errors:
                if str(error) not in seen:
                    seen.add(str(error))
                    items.append((anchor, str(error)))
        return items


def _is_stock(code: str, message: Any) -> bool:
    with translation.override("en"):
        text = str(message)
    return text in stock_messages().get(code, ())


# --- new game: the seats ------------------------------------------------------------------


@dataclass
class SeatEntry:
    """A seat of a game being set up: a person of the circle (by id) or a new name."""

    name: str
    person_id: int | None = None

    @property
    def value(self) -> str:
        return f"p:{self.person_id}" if self.person_id else f"n:{self.name}"


MAX_SEATS = max(v.max_players for v in VARIANTS.values())


class SeatList:
    """The seating order being set up, carried in hidden ``seat`` inputs between requests.

    ``roster``: the people of the circle the game is for, to tap instead of typing (a typed
    name is matched against them, case aside, and against no one else); empty for a game
    outside any circle, whose seats have names only."""

    def __init__(
        self,
        values: list[str],
        roster: dict[int, Person] | None = None,
        limit: int | None = MAX_SEATS,
        *,
        circle: Circle | None = None,
    ):
        """``limit``: the most seats (the new-game page: the largest table; an import of a
        game where players came and went has more seats than players at the table)."""
        self.circle = circle
        self.roster = roster or {}
        self.entries: list[SeatEntry] = []
        self.error = ""
        self.limit = limit
        for value in values[:limit]:
            kind, _sep, rest = value.partition(":")
            person_id = small_int(rest) if kind == "p" else None
            if person_id is not None and person_id in self.roster:
                self._append(SeatEntry(self.roster[person_id].name, person_id))
            elif kind == "n" and clean_name(rest):
                self.add_name(rest[:NAME_MAX])

    def _append(self, entry: SeatEntry) -> bool:
        if any(e.name.casefold() == entry.name.casefold() for e in self.entries):
            self.error = _("%(name)s already has a seat.") % {"name": entry.name}
            return False
        if self.limit is not None and len(self.entries) >= self.limit:
            self.error = _("A game has at most %(n)d players.") % {"n": self.limit}
            return False
        self.entries.append(entry)
        return True

    def add_name(self, raw: str) -> bool:
        name = clean_name(raw)
        if not name:
            self.error = _("Type a name first.")
            return False
        if len(name) > NAME_MAX:
            self.error = _("A name has at most %(n)d characters.") % {"n": NAME_MAX}
            return False
        for person in self.roster.values():
            if person.name.casefold() == name.casefold():
                return self._append(SeatEntry(person.name, person.pk))
        known = self.circle.find(name) if self.circle is not None else None
        if known is not None and known.pk in self.roster:  # a name merged into someone
            return self._append(SeatEntry(known.name, known.pk))
        return self._append(SeatEntry(name))

    def add_person(self, person_id: int) -> bool:
        person = self.roster.get(person_id)
        return bool(person) and self._append(SeatEntry(person.name, person.pk))

    def apply(self, op: str) -> None:
        """``up:i``, ``down:i``, ``remove:i`` or ``pick:<person id>``."""
        verb, _sep, arg = op.partition(":")
        i = small_int(arg)
        if i is None:
            return
        if verb == "pick":
            self.add_person(i)
            return
        if not 0 <= i < len(self.entries):
            return
        if verb == "remove":
            del self.entries[i]
        elif verb == "up" and i > 0:
            self.entries[i - 1], self.entries[i] = self.entries[i], self.entries[i - 1]
        elif verb == "down" and i < len(self.entries) - 1:
            self.entries[i + 1], self.entries[i] = self.entries[i], self.entries[i + 1]

    @property
    def values(self) -> list[str]:
        return [e.value for e in self.entries]

    def seat(self, game: Game) -> list[Seat]:
        """Seat these players at a new game, in order. In a circle's game each seat is a
        person of the circle (a new name becomes a new person of it); outside, a name."""
        seats = []
        for position, entry in enumerate(self.entries):
            person = None
            if game.circle_id is not None:
                person = self.roster.get(entry.person_id) if entry.person_id else None
                if person is None and self.circle is not None:
                    person = self.circle.find(entry.name)
                if person is None:
                    person = Person.objects.create(circle_id=game.circle_id, name=entry.name)
            seats.append(
                Seat.objects.create(game=game, name=entry.name, person=person, position=position)
            )
        return seats

    def unseated(self) -> list[Person]:
        taken = {e.person_id for e in self.entries}
        return [p for p in self.roster.values() if p.pk not in taken]


SCHEDULE_LINE = re.compile(r"[\s,;]+")


def parse_schedule_text(text: str) -> list[dict[str, int]]:
    """One deal per line: cards, sets, runs, and optionally the set and run minimums."""
    rows = []
    keys = ("cards", "sets", "runs", "set_min", "run_min")
    for number, line in enumerate((ln for ln in text.splitlines() if ln.strip()), start=1):
        parts = [small_int(p) for p in SCHEDULE_LINE.split(line.strip()) if p]
        if not 3 <= len(parts) <= 5 or None in parts:
            raise forms.ValidationError(
                _(
                    "Deal %(n)d: write the cards dealt, the sets and the runs as numbers, "
                    "e.g. “8 1 1”."
                )
                % {"n": number}
            )
        rows.append(dict(zip(keys, parts, strict=False)))
    return rows


MONEY = re.compile(r"-?(?:[0-9]{1,7}(?:[.,][0-9]{1,2})?|[.,][0-9]{1,2})")


class MoneyField(forms.DecimalField):
    """An amount of money as people type it: with the page language's decimal separator or
    a point (0,10 and 0.10 in German, 0.10 in English), never read as something else: a
    thousands separator, two separators or a third decimal are refused with a message."""

    widget = forms.TextInput

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", Decimal("0.01"))
        super().__init__(max_digits=9, decimal_places=2, **kwargs)
        self.error_messages["invalid"] = _(
            "Write the amount with at most two decimals after a comma or a point, e.g. 0,10 "
            "or 0.10, and no thousands separator."
        )
        self.error_messages["min_value"] = _("The amount is at least 0.01.")
        self.error_messages["max_digits"] = self.error_messages["invalid"]

    def widget_attrs(self, widget):
        return {"inputmode": "decimal", "autocomplete": "off", "spellcheck": "false"}

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, Decimal | int):
            return super().to_python(value)
        text = str(value).strip().replace("\u00a0", "").replace(" ", "")
        if not MONEY.fullmatch(text):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(text.replace(",", "."))

    def prepare_value(self, value):
        """Shown as the page's language writes it (0,10 in German)."""
        if isinstance(value, Decimal):
            return formats.number_format(value, 2, use_l10n=True)
        return value


class NewGameForm(OwnMessages):
    variant = forms.ChoiceField(
        label=_("Game"),
        choices=[(v, NAMES[v]) for v in VARIANT_IDS],
        widget=forms.RadioSelect,
        error_messages={
            "required": _("Choose the game you play."),
            "invalid_choice": _("Choose the game you play."),
        },
    )
    name = forms.CharField(label=_("Player's name"), required=False, max_length=200)
    first_dealer = forms.CharField(required=False)
    schedule = forms.CharField(
        label=_("Custom deal schedule"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}),
        help_text=_(
            "Leave empty for the standard seven deals. One deal per line: the cards dealt, "
            "the sets and the runs of its contract, optionally the least cards of a set and "
            "of a run, e.g. “8 1 1” or “10 0 2 3 5”."
        ),
    )
    value_per_point = MoneyField(
        label=_("Money per point (optional)"),
        required=False,
        help_text=_(
            "Shows each player's money during the game and works out the settle-up at the end, "
            "e.g. 0.10."
        ),
    )

    def __init__(self, *args, seats: SeatList, table: int | None = None, **kwargs):
        """``table``: the players at the table, when not every seat is (an imported game
        where players came and went); by default every seat."""
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.table = table
        self.option_groups: list[tuple[str, list[tuple[forms.BoundField, str]]]] = []
        for variant_id in VARIANT_IDS:
            group = []
            for spec in get_variant(variant_id).options:
                label, help_text = option_words(spec.name, get_language())
                name = option_field_name(variant_id, spec.name)
                if spec.is_bool:
                    field = forms.BooleanField(label=label, required=False, initial=spec.default)
                    default = on_off(spec.default, get_language())
                else:
                    field = forms.TypedChoiceField(
                        label=label,
                        choices=[(c, str(c)) for c in spec.choices],
                        coerce=int,
                        initial=spec.default,
                        required=False,
                        empty_value=None,
                    )
                    default = str(spec.default)
                field.help_text = help_text
                self.fields[name] = field
                group.append((name, str(default)))
            self.option_groups.append((variant_id, group))

    def error_items(self) -> list[tuple[str, str]]:
        """The seats' error (a name refused) first, linked to the name box, then the form's;
        the table's number of players is about the players too."""
        items = [("id_name", str(self.seats.error))] if self.seats.error else []
        for anchor, text in super().error_items():
            items.append((anchor or "id_name", text))
        return items

    def bound_option_groups(self):
        return [
            (variant_id, [(self[name], default) for name, default in group])
            for variant_id, group in self.option_groups
        ]

    @staticmethod
    def _limit_text(variant_id: str, n: int) -> str:
        variant = get_variant(variant_id)
        return _("%(game)s is for %(low)d to %(high)d players; the table has %(n)d.") % {
            "game": NAMES[variant_id],
            "low": variant.min_players,
            "high": variant.max_players,
            "n": n,
        }

    @property
    def over_limit(self) -> list[tuple[str, str]]:
        """Said as names are added (issue 23, item 8): for each game that takes fewer players
        than are seated, (its id, the sentence); the page shows the one of the game chosen,
        also when it is chosen after the names. Too few is only refused at Start."""
        n = len(self.seats.entries)
        return [(v, self._limit_text(v, n)) for v in VARIANTS if n > get_variant(v).max_players]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        variant_id = data.get("variant")
        if not variant_id:
            return data
        variant = get_variant(variant_id)
        n = len(self.seats.entries) if self.table is None else self.table
        if not variant.min_players <= n <= variant.max_players:
            self.add_error(None, self._limit_text(variant_id, n))
        given = {
            spec.name: data.get(option_field_name(variant_id, spec.name))
            for spec in variant.options
            if data.get(option_field_name(variant_id, spec.name)) is not None
        }
        try:
            data["options"] = variant.resolve_options(given)
        except OptionError as exc:
            self.add_error(None, engine_message(exc))
        data["schedule_rows"] = None
        if variant.is_contract:
            text = data.get("schedule", "")
            try:
                rows = parse_schedule_text(text) if text.strip() else None
                specs = build_schedule(rows) if rows else variant.schedule
                data["schedule_rows"] = [spec.as_dict() for spec in specs]
            except forms.ValidationError as exc:
                self.add_error("schedule", exc)
            except OptionError as exc:
                self.add_error("schedule", engine_message(exc))
        dealer = data.get("first_dealer") or "draw"
        position = small_int(dealer)
        # The first dealer is a seat: of every seat ever used, not a place at the table.
        seats = len(self.seats.entries)
        if dealer != "draw" and not (position is not None and position < seats):
            self.add_error("first_dealer", _("Choose who deals first, or let the app draw."))
        data["first_dealer"] = dealer
        if variant_id != CLASSIC:
            data["value_per_point"] = None
        return data


# --- deals ---------------------------------------------------------------------------------

WENT_OUT_ABANDONED = "abandoned"
WENT_OUT_NOBODY = "nobody"
FIRST_TURN_CHOICES = [
    ("", _("No")),
    ("drawn", _("Yes, after drawing")),
    ("undrawn", _("Yes, without drawing")),
]


INCOMPLETE = {
    code: _("The form was incomplete: go back to the sheet and try again.")
    for code in ("required", "invalid", "max_length")
}


# The box the cards of a hand are typed in: two lines, so that 16 cards are seen whole.
CARDS_BOX = {
    "rows": 2,
    "autocomplete": "off",
    "autocapitalize": "characters",
    "spellcheck": "false",
}


class BaseField(forms.CharField):
    """The hidden ``base`` of a correction: a value too long to be one (conflicts.BASE_MAX)
    is read as none, never an error the player could not act on."""

    def to_python(self, value: Any) -> str:
        text = super().to_python(value)
        return text if len(text) <= conflicts.BASE_MAX else ""


class DealForm(OwnMessages):
    """What both kinds of deal forms share: who went out, the version and the one-time token."""

    version = forms.IntegerField(widget=forms.HiddenInput, error_messages=INCOMPLETE)
    # Made by the server, or by the phone for a deal recorded without a connection
    # (static/js/table.js): either way letters, digits, "-" and "_" only.
    once = forms.RegexField(
        ONCE_SHAPE,
        widget=forms.HiddenInput,
        max_length=64,
        error_messages=INCOMPLETE,
    )
    # Where the form started (scorepad/conflicts.py): the number of the deal it records, and
    # for a correction the values its fields had when it opened.
    number = forms.IntegerField(widget=forms.HiddenInput, required=False)
    base = BaseField(widget=forms.HiddenInput, required=False)
    went_out = forms.ChoiceField(
        label=_("Who went out?"),
        widget=forms.RadioSelect,
        error_messages={"required": _("Tap who went out.")},
    )

    def __init__(self, *args, game: Game, seats: list[Seat], deal: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        self.variant = game.variant
        self.seats = seats
        self.deal_number = deal  # the deal this form corrects; None: the next one
        self.by_pos = {s.position: s for s in seats}
        self.result: DealResult | None = None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if "version" in self.errors or "once" in self.errors:
            self.add_error(None, _("The form was incomplete: go back to the sheet and try again."))
        return data

    @property
    def winner(self) -> Seat | None:
        if self.result is None or self.result.went_out is None:
            return None
        return self.by_pos[self.result.went_out]

    def ledger(self) -> list[tuple[Seat, int]]:
        """Each player's score in this deal, as the engine computed it, in seating order."""
        if self.result is None:
            return []
        return [(s, self.result.scores.get(s.position, 0)) for s in self.seats]

    @property
    def doubled(self) -> bool:
        """Whether the others' penalties of this deal count double (Handrommé)."""
        return bool(
            self.result is not None
            and self.result.handromme
            and self.game.options.get("handromme_doubles")
        )

    def ledger_lines(self) -> list[tuple[Seat, int, int | None]]:
        """The ledger with what each score is made of: the penalty before it was doubled
        (``half``, shown as "half × 2"), else None."""
        doubled = self.doubled
        return [
            (seat, points, points // 2 if doubled and points else None)
            for seat, points in self.ledger()
        ]

    def payment_lines(self) -> list[dict[str, Any]]:
        """A classic payment's rows with how many cards of each kind made them: a row of
        2s or jokers says "count × points each"."""
        if self.result is None:
            return []
        lines = []
        for row in self.result.payment_rows:
            each = CLASSIC_PAYMENTS.get(row["row"], 0)
            counted = row["row"] in ("wild_twos", "jokers") and each
            lines.append(
                {
                    "row": row["row"],
                    "points": row["points"],
                    "count": row["points"] // each if counted else None,
                    "each": each,
                }
            )
        return lines

    def fill_result(self) -> None:
        """The result of the form's initial values (a deal opened to be corrected), so the
        preview shows it at once: the values are checked as if they had been posted."""
        data = form_data({k: v for k, v in self.initial.items() if k in self.fields})
        twin = type(self)(data, game=self.game, seats=self.seats, deal=self.deal_number)
        if twin.is_valid():
            self.result = twin.result


class ClassicDealForm(DealForm):
    mode = forms.ChoiceField(
        label=_("Payment"),
        choices=[("rows", _("From the rows")), ("hand", _("From the winner's hand"))],
        widget=forms.RadioSelect,
        initial="rows",
        required=False,
    )
    wild_twos = forms.TypedChoiceField(
        label=_("2s used as wild cards"),
        coerce=int,
        widget=forms.RadioSelect,
        initial=0,
        required=False,
    )
    jokers = forms.TypedChoiceField(
        label=_("Jokers used"), coerce=int, widget=forms.RadioSelect, initial=0, required=False
    )
    first_turn = forms.ChoiceField(
        label=_("Out on the first turn?"),
        choices=FIRST_TURN_CHOICES,
        widget=forms.RadioSelect,
        initial="",
        required=False,
    )
    one_suit = forms.BooleanField(required=False)  # labelled as its payment row
    hand = forms.CharField(
        label=_("The winner's hand"),
        required=False,
        max_length=400,
        help_text=_(
            "All 16 cards after drawing (15 when out without drawing), e.g. “4S 5S 6S JK”."
        ),
        error_messages={"max_length": _("That is more cards than a hand holds.")},
        widget=forms.Textarea(attrs=CARDS_BOX),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        n = len(self.seats)
        self.decks, self.jokers_in_play = self.game.decks(1, n)
        self.twos_wild = bool(self.game.options.get("twos_wild", True))
        self.fields["one_suit"].label = payment_label("one_suit", get_language())
        self.fields["went_out"].choices = [(str(s.position), s.name) for s in self.seats] + [
            (WENT_OUT_ABANDONED, _("Nobody: abandoned deal, no score"))
        ]
        max_twos = min(15, 4 * self.decks) if self.twos_wild else 0
        self.fields["wild_twos"].choices = [(i, str(i)) for i in range(max_twos + 1)]
        self.fields["jokers"].choices = [(i, str(i)) for i in range(self.jokers_in_play + 1)]
        if not self.twos_wild:
            del self.fields["wild_twos"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        went_out = data.get("went_out")
        if not went_out or self.errors:
            return data
        if went_out == WENT_OUT_ABANDONED:
            self.result = DealResult(
                status=Deal.Status.ABANDONED, went_out=None, scores={}, entry={"abandoned": True}
            )
            return data
        winner = int(went_out)
        first_turn = data.get("first_turn") or None
        positions = [s.position for s in self.seats]
        if data.get("mode") == "hand":
            payment, rows, entry = self._from_hand(data.get("hand", ""), first_turn)
        else:
            payment, rows, entry = self._from_rows(data, first_turn)
        if payment is None:
            return data
        try:
            scores = classic_ledger(positions, winner, payment)
        except ScoreError as exc:
            self.add_error(None, engine_message(exc))
            return data
        self.result = DealResult(
            status=Deal.Status.SCORED,
            went_out=winner,
            scores=scores,
            entry=entry,
            payment=payment,
            payment_rows=tuple(rows),
        )
        return data

    def _from_rows(self, data, first_turn):
        wild_twos = data.get("wild_twos") or 0
        jokers = data.get("jokers") or 0
        one_suit = bool(data.get("one_suit"))
        try:
            payment = classic_payment(
                wild_twos, jokers, first_turn, one_suit, twos_wild=self.twos_wild
            )
        except ScoreError as exc:
            self.add_error("one_suit" if one_suit and jokers else None, engine_message(exc))
            return None, [], {}
        entry = {
            "mode": "rows",
            "wild_twos": wild_twos,
            "jokers": jokers,
            "first_turn": first_turn,
            "one_suit": one_suit,
        }
        return payment.total, [r.as_json() for r in payment.rows], entry

    def _from_hand(self, text: str, first_turn):
        if not text.strip():
            self.add_error("hand", _("Enter the winner's cards, or choose “From the rows”."))
            return None, [], {}
        request = {
            "variant": CLASSIC,
            "cards": text,
            "options": dict(self.game.options),
            "first_turn": first_turn,
        }
        try:
            cards = parse_cards(text, get_language())
            check_copies(cards, self.decks, self.jokers_in_play)
            request["cards"] = format_cards(cards)
            answer = check_hand(request)
        except (CardError, CheckError) as exc:
            winner = self.by_pos.get(int(self.cleaned_data["went_out"]))
            message = engine_message(exc)
            if winner is not None:
                message = _("%(player)s: %(error)s") % {
                    "player": winner.name,
                    "error": message,
                }
            self.add_error("hand", message)
            return None, [], {}
        if not answer.get("goes_out"):
            self.add_error(
                "hand", _("This hand does not go out: its cards do not all fit in runs.")
            )
            return None, [], {}
        entry = {
            "mode": "hand",
            "cards": answer["cards"],
            "first_turn": first_turn,
            "melds": answer.get("melds") or [],
            "discard": answer.get("discard"),
        }
        return answer["payment"], answer.get("payment_rows") or [], entry

    @classmethod
    def initial_from(cls, deal: Deal) -> dict[str, Any]:
        if deal.is_abandoned:
            return {"went_out": WENT_OUT_ABANDONED}
        entry = deal.entry
        initial = {"went_out": str(deal.went_out), "first_turn": entry.get("first_turn") or ""}
        if entry.get("mode") == "hand":
            initial.update(mode="hand", hand=typed_back(entry.get("cards", "")))
        else:
            initial.update(
                mode="rows",
                wild_twos=entry.get("wild_twos", 0),
                jokers=entry.get("jokers", 0),
                one_suit=entry.get("one_suit", False),
            )
        return initial


class PenaltyDealForm(DealForm):
    handromme = forms.BooleanField(
        label=_("Handrommé"),
        required=False,
        help_text=_("Went out with the whole hand in one turn, without having opened before."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["went_out"].choices = [(str(s.position), s.name) for s in self.seats] + [
            (WENT_OUT_NOBODY, _("Nobody: the stock ran out"))
        ]
        if self.variant.id != ROMME:
            del self.fields["handromme"]
        for seat in self.seats:
            name = {"name": seat.name}
            # No min_value: the engine refuses negative points with a message naming the
            # player (a browser's own check of min would speak its language, not ours).
            self.fields[f"points_{seat.position}"] = forms.IntegerField(
                label=_("Penalty points of %(name)s") % name,
                required=False,
                widget=forms.NumberInput(
                    attrs={"inputmode": "numeric", "step": "5" if self.variant.is_contract else "1"}
                ),
                error_messages={"invalid": _("%(name)s: points are a whole number.") % name},
            )
            self.fields[f"cards_{seat.position}"] = forms.CharField(
                label=_("Cards left in the hand of %(name)s") % name,
                required=False,
                max_length=400,
                error_messages={
                    "max_length": _("%(name)s: that is more cards than a hand holds.") % name
                },
                widget=forms.Textarea(attrs=CARDS_BOX),
            )

    def player_rows(self):
        return [
            (seat, self[f"points_{seat.position}"], self[f"cards_{seat.position}"])
            for seat in self.seats
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        went_out = data.get("went_out")
        if not went_out or "went_out" in self.errors:
            return data
        winner = None if went_out == WENT_OUT_NOBODY else int(went_out)
        handromme = bool(data.get("handromme"))
        left: dict[int, int | list] = {}
        entry_left: dict[str, dict[str, Any]] = {}
        lang = get_language()
        for seat in self.seats:
            pos = seat.position
            points = data.get(f"points_{pos}")
            text = (data.get(f"cards_{pos}") or "").strip()
            if f"points_{pos}" in self.errors:
                continue
            if text:
                try:
                    cards = parse_cards(text, lang)
                except CardError as exc:
                    self.add_error(f"cards_{pos}", self._named(seat, exc))
                    continue
                if points is not None and points != hand_penalty(cards, self.variant):
                    # Both given and they disagree: which one counts is the player's call.
                    self.add_error(
                        f"points_{pos}",
                        _(
                            "%(name)s: the cards count %(cards)d, the points say %(points)d. "
                            "Clear one of the two."
                        )
                        % {
                            "name": seat.name,
                            "cards": hand_penalty(cards, self.variant),
                            "points": points,
                        },
                    )
                    continue
                left[pos] = cards
                entry_left[str(pos)] = {"cards": format_cards(cards)}
            elif points is not None:
                left[pos] = points
                entry_left[str(pos)] = {"points": points}
            elif pos != winner:
                self.add_error(
                    f"points_{pos}",
                    _("Enter the penalty of %(name)s, as points or as the cards left.")
                    % {"name": seat.name},
                )
        if self.errors:
            return data
        if handromme and winner is None:
            self.add_error("handromme", _("Handrommé needs the player who went out."))
            return data
        if self._audit_cards(left):
            return data
        # Every hand's problem at once, not one per save (issue 23, item 8).
        problems = penalty_errors(
            self.variant, [s.position for s in self.seats], winner, left, handromme=handromme
        )
        for exc in problems:
            self._add_score_error(exc, left)
        if problems:
            return data
        try:
            scores = penalty_deal(
                self.variant,
                [s.position for s in self.seats],
                winner,
                left,
                handromme=handromme,
                options=self.game.options,
            )
        except ScoreError as exc:
            self._add_score_error(exc, left)
            return data
        for pos, value in left.items():
            if isinstance(value, list) and str(pos) in entry_left:
                entry_left[str(pos)]["points"] = scores[pos]
        self.result = DealResult(
            status=Deal.Status.SCORED,
            went_out=winner,
            scores=scores,
            entry={"left": entry_left},
            handromme=handromme,
        )
        return data

    def _add_score_error(self, exc: ScoreError, left: dict[int, int | list]) -> None:
        """The engine's refusal under the field of the player it names."""
        field = None
        if isinstance(exc.player, int) and exc.player in self.by_pos:
            kind = "cards" if isinstance(left.get(exc.player), list) else "points"
            field = f"{kind}_{exc.player}"
        self.add_error(field, self._named_message(exc))

    def _audit_cards(self, left: dict[int, int | list]) -> bool:
        """Flag the cards entered more often than the decks of this deal hold them, all hands
        together (rules/engine/audit.py); True when something was flagged."""
        hands = {pos: value for pos, value in left.items() if isinstance(value, list)}
        number = self.deal_number or len(self.game.deals.all()) + 1
        decks, jokers = self.game.decks(number, len(self.seats))
        found = excess_cards(hands, decks, jokers)
        for excess in found:
            self.add_error(None, self._excess_message(excess))
        return bool(found)

    def _excess_message(self, excess: Excess[int]) -> str:
        names = [self.by_pos[pos].name for pos in excess.holders]
        return engine_message(
            excess.error(),
            players=get_text_list(names, str(_("and"))),
            card=local_code(excess.card, get_language()),
        )

    @staticmethod
    def _named(seat: Seat, exc: Exception) -> str:
        """An engine message about one player's entry, with the player's name before it."""
        return _("%(player)s: %(error)s") % {
            "player": seat.name,
            "error": engine_message(exc),
        }

    def _named_message(self, exc: ScoreError) -> str:
        """The engine names players by seat position; show the name instead."""
        player = exc.player
        if isinstance(player, int) and player in self.by_pos:
            return engine_message(exc, player=self.by_pos[player].name)
        return engine_message(exc)

    @classmethod
    def initial_from(cls, deal: Deal) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "went_out": WENT_OUT_NOBODY if deal.went_out is None else str(deal.went_out),
            "handromme": deal.handromme,
        }
        for pos, value in deal.entry.get("left", {}).items():
            if "cards" in value:
                initial[f"cards_{pos}"] = typed_back(value["cards"])
            else:
                initial[f"points_{pos}"] = value.get("points")
        return initial


def deal_form_class(game: Game) -> type[DealForm]:
    return ClassicDealForm if game.variant_id == CLASSIC else PenaltyDealForm


# --- settle-up and import ----------------------------------------------------------------------


class SettleForm(OwnMessages):
    per_point = MoneyField(
        label=_("Money per point"),
        error_messages={"required": _("Type the money per point, e.g. 0.10.")},
    )


UNSTORABLE_MESSAGE = _(
    "The file holds a character that cannot be stored (a NUL or a broken character). "
    "Nothing was imported."
)


class ImportForm(OwnMessages):
    file = forms.FileField(label=_("A JSON export file"), required=False)
    text = forms.CharField(
        label=_("Or paste the JSON"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
    )

    MAX_BYTES = 1_000_000

    def control_id(self, name: str) -> str:
        """A refused file is shown beside the file control."""
        return super().control_id(name) or "id_file"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("file")
        raw: bytes | str
        if upload:
            if upload.size > self.MAX_BYTES:
                raise forms.ValidationError(_("The file is too large for a game export."))
            raw = upload.read()
        elif data.get("text", "").strip():
            raw = data["text"]
        else:
            raise forms.ValidationError(_("Choose an export file or paste its JSON."))
        try:
            data["document"] = json.loads(raw)
        except (ValueError, RecursionError):
            raise forms.ValidationError(_("This is not a JSON export of a game.")) from None
        if has_unstorable_text(data["document"]):
            raise forms.ValidationError(UNSTORABLE_MESSAGE)
        return data
