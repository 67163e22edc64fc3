"""A versioned, once-only change: what every write of a game or an evening carries.

The hidden ``version`` is the version of the game (or evening) the page showed: a stale one
changes nothing (the model raises ``StaleVersion``). The hidden ``once`` is the form's
one-time token: a write that comes again with it changes nothing (``AlreadyDone``). Either
missing or unreadable is a form that was not the app's: it is refused with one message,
"The form was incomplete", and nothing is changed.
"""

from __future__ import annotations

import secrets
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from ..tokens import ONCE_SHAPE, TOKEN_MAX
from .messages import OwnMessages


def once_token() -> str:
    """A form's one-time token (22 characters of ``tokens.TOKEN_CHARS``)."""
    return secrets.token_urlsafe(16)


def incomplete_message() -> Any:
    return _("The form was incomplete: go back to the sheet and try again.")


# The error messages of a field a form of the app always fills (the deal forms' hidden ones).
INCOMPLETE = {code: incomplete_message() for code in ("required", "invalid", "max_length")}


def once_field(*, shaped: bool = False) -> forms.CharField:
    """The hidden one-time token. ``shaped``: only the token's letters (``ONCE_SHAPE``; a deal
    form's, which a phone without a connection makes too), each refusal "incomplete"."""
    if shaped:
        return forms.RegexField(
            ONCE_SHAPE, widget=forms.HiddenInput, max_length=TOKEN_MAX, error_messages=INCOMPLETE
        )
    return forms.CharField(widget=forms.HiddenInput, max_length=TOKEN_MAX)


class VersionedChange(OwnMessages):
    """The base of a form that changes a game or an evening: the ``version`` and the ``once``
    fields, and "The form was incomplete" at the top of its errors when either is refused.

    A form may declare either field again, in the same place (a deal form's messages are all
    "incomplete"; an evening's version has bounds)."""

    version = forms.IntegerField(widget=forms.HiddenInput)
    once = once_field()

    def incomplete(self) -> bool:
        """Whether the version or the one-time token was refused (call after validation)."""
        return "version" in self.errors or "once" in self.errors

    def clean(self) -> dict[str, Any]:
        data = cast(dict[str, Any], super().clean())
        if self.incomplete():
            self.add_error(None, incomplete_message())
        return data
