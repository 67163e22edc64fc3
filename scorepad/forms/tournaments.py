"""The forms of a tournament: set one up, and enter a player (scorepad/views/tournaments.py)."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.engine.variants import NORDIC, SPANISH, VARIANT_IDS
from rules.facts import NAMES

from ..tournaments import DEALS_MAX, MINUTES_MAX, SERIES_MAX, Tournament
from .change import VersionedChange, once_field
from .messages import OwnMessages
from .names import NameField


def _count(label: Any, most: int, message: Any, *, required: bool = False) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=1,
        max_value=most,
        required=required,
        error_messages={
            "min_value": message,
            "max_value": message,
            "invalid": message,
            "required": message,
        },
    )


class TournamentForm(OwnMessages):
    """Set a tournament up. It has no version yet; its one-time token makes a replay lead to
    the tournament it made."""

    name = NameField(label=_("Name of the tournament"), empty=_("Give the tournament a name."))
    variant = forms.ChoiceField(label=_("Game"), widget=forms.RadioSelect)
    series = _count(
        _("Series"),
        SERIES_MAX,
        _("A tournament has 1 to %(n)d series.") % {"n": SERIES_MAX},
        required=True,
    )
    deals = _count(
        _("Deals a series (classic and Rommé)"),
        DEALS_MAX,
        _("A series has 1 to %(n)d deals.") % {"n": DEALS_MAX},
    )
    minutes = _count(
        _("Minutes a series"),
        MINUTES_MAX,
        _("A series lasts 1 to %(n)d minutes.") % {"n": MINUTES_MAX},
    )
    ranking = forms.ChoiceField(
        label=_("Ranking"), choices=Tournament.Ranking.choices, widget=forms.RadioSelect
    )
    seating = forms.ChoiceField(
        label=_("Later series are seated"),
        choices=Tournament.Seating.choices,
        widget=forms.RadioSelect,
    )
    once = once_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault(
            "initial",
            {"series": 3, "ranking": Tournament.Ranking.PLACES, "seating": "result"},
        )
        super().__init__(*args, **kwargs)
        field = cast(forms.ChoiceField, self.fields["variant"])
        field.choices = [(v, NAMES[v]) for v in VARIANT_IDS]
        field.error_messages["required"] = _("Choose the game the tournament plays.")

    def clean(self) -> dict[str, Any]:
        data = cast(dict[str, Any], super().clean())
        variant = data.get("variant")
        if variant in (NORDIC, SPANISH):
            data["deals"] = None  # the contract games play their seven deals
        elif variant and not data.get("deals") and not data.get("minutes"):
            self.add_error("deals", _("Give the deals a series has, or its minutes, or both."))
        return data


class EntrantForm(VersionedChange):
    """Enter a player: a name. The version is the tournament's as the page showed it."""

    name = NameField(label=_("Name"), empty=_("Type a name first."))
