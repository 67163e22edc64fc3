"""Form data as a browser posts it, and read back from a request: one source for the deal
forms filled from a stored deal (a correction, the sheet's offline copy, an import, a
restored deal) and for the merge of two phones' corrections (``scorepad/conflicts.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import QueryDict


def posted(value: Any) -> str | None:
    """A field's value as a browser posts it: a ticked box "on", an unticked one (or no
    value) not posted at all (None), anything else its text."""
    if value is None or value is False:
        return None
    if value is True:
        return "on"
    return str(value)


def form_data(initial: Mapping[str, Any]) -> dict[str, str]:
    """Field values as a browser would post them (checked boxes "on", unchecked left out)."""
    return {key: text for key, value in initial.items() if (text := posted(value)) is not None}


def field_text(value: Any) -> str:
    """What a field holds, as text: "" for empty or unticked, a list's values one after
    another (the same text whether the form is bound or shows its initial values)."""
    if isinstance(value, list | tuple):
        return " ".join(field_text(v) for v in value)
    return (posted(value) or "").strip()


def as_data(values: Mapping[str, str], **extra: str) -> QueryDict:
    """Form data as a browser would post it from fields' texts (:func:`field_text`): the
    empty and unticked fields left out."""
    data = QueryDict(mutable=True)
    for name, value in {**values, **extra}.items():
        if value:
            data[name] = value
    return data


def small_int(text: str, digits: int = 9) -> int | None:
    """``text`` as a whole number if it is a few ASCII digits, else None.

    ``str.isdigit()`` alone lets through "²" and numbers of thousands of digits, which
    ``int()`` then refuses with a ValueError: a hand-made request must not make a 500 of it.
    """
    if isinstance(text, str) and 0 < len(text) <= digits and text.isascii() and text.isdigit():
        return int(text)
    return None
