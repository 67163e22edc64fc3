"""The forms of the Players page of a game: a player joins, leaves or comes back, is renamed,
and the table's target (scorepad/views/seats.py)."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.engine.variants import CLASSIC

from ..models import Game, Seat
from ..naming import name_key
from .change import VersionedChange
from .data import small_int
from .names import NameField

START_ZERO, START_WORST, START_AVERAGE, START_NUMBER = "zero", "worst", "average", "number"


class ChangeForm(VersionedChange):
    """What every change of this page carries: the version and the one-time token
    (VersionedChange). Its errors are listed at the top of the page, each linked to its
    control."""

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.seats: list[Seat] = list(game.seats.all())

    def _free(self, name: str, keep: Seat | None = None) -> str:
        """``name`` (a name by the name rule already), unless another seat of this table has
        it, case aside."""
        taken = {name_key(s.name) for s in self.seats if s is not keep}
        # A seat "renamed" to the name it has changes nothing (no version, no history).
        if name_key(name) in taken or (keep is not None and name == keep.name):
            raise forms.ValidationError(_("%(name)s is already at this table.") % {"name": name})
        return name

    def _newcomer(self, name: str) -> str:
        """The name of someone who sits down (joins, or takes over a seat), unless they sit
        here already."""
        name = self._free(name)
        if self.game.circle is not None:
            # In a circle's game the name is a person of the circle (Game.join): one who
            # sits here already, under another seat name or merged, does not sit twice.
            person = self.game.circle.find(name)
            sitting = {s.person_id for s in self.seats} | {s.before_person_id for s in self.seats}
            if person is not None and sitting & set(person.family()):
                raise forms.ValidationError(
                    _("%(name)s is already at this table.") % {"name": person.name}
                )
        return name

    def _room_for_one_more(self) -> None:
        """The table can take one more player, and the game has not ended."""
        variant = self.game.variant
        if len([s for s in self.seats if s.active]) >= variant.max_players:
            self.add_error(
                None,
                _("%(n)d players are the most this game is played with.")
                % {"n": variant.max_players},
            )
        if self.game.is_finished:
            self.add_error(None, _("The game has ended: resume it to add a player."))


class JoinForm(ChangeForm):
    name = NameField(label=_("Name"), empty=_("Enter a name."))
    start = forms.ChoiceField(
        label=_("Starts with"),
        widget=forms.RadioSelect,
        required=False,
        initial=START_WORST,
    )
    start_points = forms.CharField(label=_("Points to start with"), required=False, max_length=9)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        playing = [s for s in self.seats if s.active]
        self.penalties = self.game.variant_id != CLASSIC
        totals = [s.total for s in playing] or [0]
        self.worst = max(totals)
        self.average = round(sum(totals) / len(totals) / 5) * 5 if self.penalties else 0
        if self.penalties:
            cast(forms.ChoiceField, self.fields["start"]).choices = [
                (START_WORST, _("The highest total at the table (%(n)d)") % {"n": self.worst}),
                (START_AVERAGE, _("The average of the table (%(n)d)") % {"n": self.average}),
                (START_ZERO, _("0")),
                (START_NUMBER, _("Another number")),
            ]
        else:
            del self.fields["start"], self.fields["start_points"]

    def clean_name(self) -> str:
        return self._newcomer(self.cleaned_data["name"])

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        self._room_for_one_more()
        choice = data.get("start") or START_WORST
        start = 0
        if self.penalties:
            if choice == START_WORST:
                start = self.worst
            elif choice == START_AVERAGE:
                start = self.average
            elif choice == START_NUMBER:
                number = small_int((data.get("start_points") or "").strip(), digits=6)
                if number is None:
                    self.add_error(
                        "start_points", _("The points to start with are a whole number, 0 or more.")
                    )
                start = number or 0
        data["start_total"] = start
        return data


class SeatNameForm(ChangeForm):
    """A name for one seat of the table: the seat is checked first (``usable``), then the
    name (``named``)."""

    position = forms.IntegerField(widget=forms.HiddenInput)
    name = NameField(label=_("New name"), empty=_("Enter a name."), deferred=True)
    box = ""  # the name box's id before the seat's number (templates/scorepad/seats.html)

    def control_id(self, name: str) -> str:
        """The name box of the seat (templates/scorepad/seats.html numbers them)."""
        if name == "name":
            return f"{self.box}-{self.data.get('position', '')}"
        return super().control_id(name)

    def usable(self, seat: Seat | None) -> bool:
        raise NotImplementedError

    def named(self, name: str, seat: Seat) -> str:
        raise NotImplementedError

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        seat = next((s for s in self.seats if s.position == data.get("position")), None)
        if not self.usable(seat) or seat is None:
            return data
        try:
            name = cast(NameField, self.fields["name"]).name(self.data.get("name", ""))
            data["name"] = self.named(name, seat)
        except forms.ValidationError as exc:
            self.add_error("name", exc)
        data["seat"] = seat
        return data


class RenameForm(SeatNameForm):
    box = "rename"

    def usable(self, seat: Seat | None) -> bool:
        if seat is None:
            self.add_error(None, _("That player is not at this table."))
        return seat is not None

    def named(self, name: str, seat: Seat) -> str:
        return self._free(name, keep=seat)


class LeaveForm(ChangeForm):
    position = forms.IntegerField(widget=forms.HiddenInput)
    op = forms.ChoiceField(choices=[("leave", "leave"), ("back", "back")])

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        seat = next((s for s in self.seats if s.position == data.get("position")), None)
        if seat is None or not data.get("op"):
            self.add_error(None, _("That player is not at this table."))
            return data
        variant = self.game.variant
        playing = len([s for s in self.seats if s.active])
        if data["op"] == "leave" and seat.active and playing <= variant.min_players:
            self.add_error(
                None,
                _("%(name)s cannot leave: this game needs at least %(n)d players.")
                % {"name": seat.name, "n": variant.min_players},
            )
        if data["op"] == "back" and not seat.active and playing >= variant.max_players:
            self.add_error(
                None,
                _("%(n)d players are the most this game is played with.")
                % {"n": variant.max_players},
            )
        data["seat"] = seat
        return data


class TakeOverForm(SeatNameForm):
    """A newcomer takes over the seat of a player who left: the seat's total is theirs."""

    name = NameField(label=_("Name"), empty=_("Enter a name."), deferred=True)
    box = "takeover"

    def usable(self, seat: Seat | None) -> bool:
        if seat is None or seat.active or seat.before_name:
            self.add_error(None, _("Only the seat of a player who left can be taken over, once."))
            return False
        self._room_for_one_more()
        return True

    def named(self, name: str, seat: Seat) -> str:
        return self._newcomer(name)


class TargetForm(ChangeForm):
    target_score = forms.CharField(label=_("Ends when a player's total reaches"), required=False)
    target_deals = forms.CharField(label=_("Ends after this many deals"), required=False)

    def _number(self, field: str, digits: int) -> int | None:
        text = (self.cleaned_data.get(field) or "").strip()
        if not text:
            return None
        number = small_int(text, digits=digits)
        if not number:
            raise forms.ValidationError(_("A target is a whole number above 0, or empty."))
        return number

    def clean_target_score(self) -> int | None:
        return self._number("target_score", 6)

    def clean_target_deals(self) -> int | None:
        return self._number("target_deals", 3)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.game.can_have_target:
            self.add_error(None, _("A contract game keeps its seven deals: it has no target."))
        return data
