"""The forms of an evening: start one (a name, the stake, the games it begins with) and add
a game to it (scorepad/views/evenings.py)."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from ..evenings import counted_elsewhere_message, evenings_of, not_in_an_evening
from ..models import Evening, Game
from ..tokens import TOKEN_MAX
from .change import VersionedChange, once_field
from .messages import OwnMessages
from .money import MoneyField
from .names import NameField


class EveningForm(OwnMessages):
    """Start an evening: a name, the money a point is worth, the games it begins with. It
    has no version yet; its one-time token makes a replay lead to the evening it made."""

    name = NameField(label=_("Name of the evening (optional)"), box=None)
    stake = MoneyField(
        label=_("Money per point"),
        help_text=_("The stake of each game added; a game's own money per point comes first."),
        error_messages={"required": _("Give the money a point is worth, e.g. 0.10.")},
    )
    once = once_field()
    games = forms.MultipleChoiceField(
        label=_("Games of the evening"), required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args: Any, games: list[Game], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.known = {g.link_token: g for g in games}
        self.offered = not_in_an_evening(games)  # what the form lists
        cast(forms.ChoiceField, self.fields["games"]).choices = [
            (g.link_token, g.pk) for g in games
        ]
        self.fields["games"].error_messages["invalid_choice"] = _("Choose the games from the list.")

    def clean_games(self) -> list[str]:
        """The games ticked, each once (a form sent by hand may repeat one), none of them
        in an evening already."""
        tokens = list(dict.fromkeys(self.cleaned_data["games"]))
        taken = evenings_of([self.known[t] for t in tokens])
        for token in tokens:
            if self.known[token].pk in taken:
                raise forms.ValidationError(counted_elsewhere_message(taken[self.known[token].pk]))
        return tokens


class AddGameForm(VersionedChange):
    """Add a game to an evening; ``game`` is the game's editor link (a viewer link shows a
    game, it does not give it away). ``stake`` left empty: the game's own money per point,
    else the evening's. A version or token refused (``incomplete()``) is told by the page,
    not by the form."""

    field_order = ("game", "stake", "version", "once")

    game = forms.CharField(max_length=TOKEN_MAX, error_messages={"required": _("Choose a game.")})
    stake = MoneyField(
        label=_("Money per point"),
        required=False,
        help_text=_("Left empty: the game's own money per point, or else the evening's."),
    )
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**31 - 1)

    def clean_game(self) -> Game:
        token = self.cleaned_data["game"]
        game = Game.objects.by_token(token).order_by().first()
        if game is None:
            raise forms.ValidationError(_("That game was not found; its link may be replaced."))
        if token != game.editor_token:
            raise forms.ValidationError(
                _("Adding a game to an evening takes the game's editor link.")
            )
        return game

    def refuse_counted_elsewhere(self, evening: Evening) -> None:
        """The game chosen counts in another evening: say which, on the game's control."""
        self.add_error("game", counted_elsewhere_message(evening))
