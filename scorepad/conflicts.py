"""Two phones, one deal: merging a correction that met another phone's newer one.

A correction form carries, in its hidden ``base`` field, the values its fields had when the
form opened. When it is saved after another phone corrected the same deal, each field is
merged three ways: the phone's own change wins where it made one, the other phone's value
is taken where this phone left the field alone, and a field both changed differently is
marked with both values. The merged form is shown; nothing is saved without a tap.

The values are the form's own, as text (what a browser would post, ``forms/data.py``): the
same function reads a bound form (what a phone sent) and an unbound one (a deal as it is
stored).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, cast

from django import forms
from django.utils.translation import gettext as _

from .forms.data import field_text

# Fields that say where a form stands, not what the deal is.
BOOKKEEPING = frozenset({"version", "once", "base", "number"})


def form_values(form: forms.Form) -> dict[str, str]:
    """Every field of the deal that ``form`` holds, as text: "" for empty or unticked."""
    return {name: field_text(form[name].value()) for name in form.fields if name not in BOOKKEEPING}


def encode(values: dict[str, str]) -> str:
    """The ``base`` field's text: only the fields that hold something, compactly."""
    return json.dumps({k: v for k, v in values.items() if v}, separators=(",", ":"))


# The longest ``base`` read back: far more than any deal form's fields hold (a form of twelve
# players' cards is a few thousand characters); a longer one is no base.
BASE_MAX = 20_000


def decode(text: str | None) -> dict[str, str] | None:
    """A ``base`` field read back; None when it is missing or not what encode() made: not
    JSON, too long, nested too deeply for the parser, or not a mapping of texts."""
    if not isinstance(text, str) or len(text) > BASE_MAX:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: thousands of nested brackets
        return None
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        return None
    return data


@dataclass(frozen=True)
class Difference:
    """A field where this phone's value differs from the other phone's saved one."""

    name: str
    label: str
    theirs: str
    mine: str


@dataclass(frozen=True)
class Merge:
    values: dict[str, str]
    differences: tuple[Difference, ...]
    # Fields this phone left alone that took the other phone's value (``mine``: as it was).
    taken: tuple[Difference, ...]


def merge(
    base: dict[str, str] | None, mine: dict[str, str], theirs: dict[str, str]
) -> tuple[dict[str, str], list[str], list[str]]:
    """Three-way merge of a deal form's values: (merged, fields that differ, fields taken).

    A field that differs is one both phones changed, to different values; the merged value
    keeps this phone's, to be checked before saving. A field only the other phone changed is
    taken (and listed); a field only this phone changed keeps its value and is no difference.
    Without a base (a form from before this existed) every field of this phone counts as
    its change, so each that is not what the other phone saved differs.
    """
    merged: dict[str, str] = {}
    differ: list[str] = []
    taken: list[str] = []
    for name in sorted(set(mine) | set(theirs)):
        m, t = mine.get(name, ""), theirs.get(name, "")
        if m == t:
            merged[name] = m
            continue
        if base is None:
            merged[name] = m
            differ.append(name)
            continue
        b = base.get(name, "")
        if m == b:  # only the other phone changed it
            merged[name] = t
            taken.append(name)
        elif t == b:  # only this phone changed it
            merged[name] = m
        else:  # both changed it, differently
            merged[name] = m
            differ.append(name)
    return merged, differ, taken


def shown(form: forms.Form, name: str, value: str) -> str:
    """A field's value as the player reads it: a choice's label (the empty one too, such as
    "No" of "Out on the first turn?"), yes or no, or a dash."""
    field = form.fields.get(name)
    if isinstance(field, forms.BooleanField):
        return _("yes") if value else _("no")
    if isinstance(field, forms.ChoiceField):
        # Django keeps a field's choices as (value, label) pairs; its stubs type what it is given.
        for key, label in cast(list[tuple[Any, Any]], field.choices):
            if str(key) == value:
                return str(label)
    if not value:
        return "—"
    return value


def merge_forms(base: dict[str, str] | None, mine: forms.Form, theirs: forms.Form) -> Merge:
    """The merge of what this phone sent (bound ``mine``) with the deal as another phone
    saved it (``theirs``, unbound, its initial values)."""
    theirs_values = form_values(theirs)
    mine_values = form_values(mine)
    merged, differ, taken = merge(base, mine_values, theirs_values)

    def difference(name: str, before: str) -> Difference:
        return Difference(
            name=name,
            label=str(mine.fields[name].label or name),
            theirs=shown(mine, name, theirs_values.get(name, "")),
            mine=shown(mine, name, before),
        )

    return Merge(
        values=merged,
        differences=tuple(difference(n, merged[n]) for n in differ if n in mine.fields),
        taken=tuple(difference(n, mine_values.get(n, "")) for n in taken if n in mine.fields),
    )
