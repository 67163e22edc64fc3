"""Our own error messages: every form of the score pad shows messages of ours only, listed at
its top, each linked to its control (``templates/scorepad/_errors.html``)."""

from __future__ import annotations

from functools import cache
from types import ModuleType
from typing import Any

from django import forms
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


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


def _collect_stock(
    stock: dict[str, set[str]], django_fields: ModuleType, validators: ModuleType
) -> None:
    for cls in vars(django_fields).values():
        if isinstance(cls, type) and issubclass(cls, forms.Field):
            for klass in cls.__mro__:
                for code, text in getattr(klass, "default_error_messages", {}).items():
                    stock.setdefault(code, set()).add(str(text))
    for cls in vars(validators).values():
        message = getattr(cls, "message", None)
        if isinstance(cls, type) and isinstance(message, str | Promise):
            code = getattr(cls, "code", "invalid")
            stock.setdefault(code, set()).add(str(message))
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
            messages = getattr(validator, "messages", None)
            if isinstance(messages, dict):
                codes.update(messages)
        for code in codes:
            if code not in field.error_messages or _is_stock(code, field.error_messages[code]):
                field.error_messages[code] = ours.get(code, fallback)


def _is_stock(code: str, message: Any) -> bool:
    with translation.override("en"):
        text = str(message)
    return text in stock_messages().get(code, ())


class OwnMessages(forms.Form):
    """A form that shows only messages of ours (see :func:`replace_stock_messages`) and
    lists them at its top, each linked to its control (``templates/scorepad/_errors.html``)."""

    def full_clean(self) -> None:
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
