"""The forms of a game as a whole: a new game (its game, house rules, deal schedule and
money per point; its seats are ``seats.SeatList``), the settle-up and the import of a
game's export file. Every message is ours (``messages.OwnMessages``)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, cast

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from rules.engine.variants import (
    CLASSIC,
    VARIANT_IDS,
    VARIANTS,
    OptionError,
    build_schedule,
    get_variant,
)
from rules.facts import NAMES
from rules.i18n import engine_message
from rules.pages.words import on_off, option_words

from .data import small_int
from .messages import OwnMessages
from .money import MoneyField
from .names import NameField
from .seats import SeatList
from .storable import UNSTORABLE_MESSAGE, has_unstorable_text


def slug(variant_id: str) -> str:
    return variant_id.replace("-", "_")


def option_field_name(variant_id: str, option: str) -> str:
    return f"opt_{slug(variant_id)}_{option}"


SCHEDULE_LINE = re.compile(r"[\s,;]+")


def parse_schedule_text(text: str) -> list[Mapping[str, Any]]:
    """One deal per line: cards, sets, runs, and optionally the set and run minimums."""
    rows: list[Mapping[str, Any]] = []
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
    # The name box of the seats (SeatList.add_name applies the name rule, with the seats).
    name = NameField(label=_("Player's name"), deferred=True)
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

    def __init__(
        self, *args: Any, seats: SeatList, table: int | None = None, **kwargs: Any
    ) -> None:
        """``table``: the players at the table, when not every seat is (an imported game
        where players came and went); by default every seat."""
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.table = table
        self.option_groups: list[tuple[str, list[tuple[str, str]]]] = []
        for variant_id in VARIANT_IDS:
            group: list[tuple[str, str]] = []
            for spec in get_variant(variant_id).options:
                label, help_text = option_words(spec.name, get_language())
                name = option_field_name(variant_id, spec.name)
                field: forms.Field
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

    def bound_option_groups(self) -> list[tuple[str, list[tuple[forms.BoundField, str]]]]:
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
        data = cast(dict[str, Any], super().clean())
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
                assert specs is not None  # a contract game always has its schedule
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


class SettleForm(OwnMessages):
    per_point = MoneyField(
        label=_("Money per point"),
        error_messages={"required": _("Type the money per point, e.g. 0.10.")},
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
        data = cast(dict[str, Any], super().clean())
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
