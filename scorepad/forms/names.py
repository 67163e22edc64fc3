"""The rule of every name a person types (a seat's, a person's of a circle, an evening's):
the name rule of ``scorepad.naming`` (NFC, white space folded, invisible controls removed),
at most ``NAME_MAX`` characters. One field,
:class:`NameField`, for the forms, and the rule itself, :func:`typed_name`, for the seat list
of a new game and the circle's pages, which check a name without a form."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ..models import NAME_MAX
from ..naming import normal_name

# The box a name is typed in takes a little more than a name, so that a name too long is
# told as such ("A name has at most 40 characters."), not as "This is too long."
NAME_BOX = 200


def clean_name(raw: str) -> str:
    return normal_name(raw)


def typed_name(raw: Any, empty: str | Promise | None) -> str:
    """The name ``raw`` gives (by the name rule); a ValidationError when it is too long, or
    when it is empty and ``empty`` is the message to say so (None: no name is a name)."""
    name = clean_name(raw if isinstance(raw, str) else "")
    if not name and empty is not None:
        raise forms.ValidationError(cast(str, empty), code="empty_name")
    if len(name) > NAME_MAX:
        raise forms.ValidationError(
            _("A name has at most %(n)d characters.") % {"n": NAME_MAX}, code="name_max"
        )
    return name


def name_or_error(raw: Any, empty: str | Promise) -> tuple[str, str]:
    """(the name, "") or ("", the message why ``raw`` is no name), for a page without a form."""
    try:
        return typed_name(raw, empty), ""
    except forms.ValidationError as exc:
        return "", exc.messages[0]


class NameField(forms.CharField):
    """A name typed in a form: the box (``NAME_BOX``, or ``box=None`` for none), then the
    rule of :func:`typed_name`, with ``empty`` the message for no name (None: optional).

    ``deferred``: the form applies the rule itself, with :meth:`name`, after what it checks
    first (a rename checks the seat before the new name); the field then only trims."""

    def __init__(
        self,
        *,
        empty: str | Promise | None = None,
        box: int | None = NAME_BOX,
        deferred: bool = False,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("required", False)
        super().__init__(max_length=box, **kwargs)
        self.empty = empty
        self.deferred = deferred

    def name(self, raw: Any) -> str:
        return typed_name(raw, self.empty)

    def clean(self, value: Any) -> str:
        text = super().clean(value)
        return text if self.deferred else self.name(text)
