"""An amount of money as people type it (a game's money per point, the settle-up, an
evening's stake)."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.utils import formats
from django.utils.translation import gettext_lazy as _

MONEY = re.compile(r"-?(?:[0-9]{1,7}(?:[.,][0-9]{1,2})?|[.,][0-9]{1,2})")


class MoneyField(forms.DecimalField):
    """An amount of money as people type it: with the page language's decimal separator or
    a point (0,10 and 0.10 in German, 0.10 in English), never read as something else: a
    thousands separator, two separators or a third decimal are refused with a message."""

    widget = forms.TextInput

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", Decimal("0.01"))
        super().__init__(max_digits=9, decimal_places=2, **kwargs)
        self.error_messages["invalid"] = _(
            "Write the amount with at most two decimals after a comma or a point, e.g. 0,10 "
            "or 0.10, and no thousands separator."
        )
        self.error_messages["min_value"] = _("The amount is at least 0.01.")
        self.error_messages["max_digits"] = self.error_messages["invalid"]

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        return {"inputmode": "decimal", "autocomplete": "off", "spellcheck": "false"}

    def to_python(self, value: Any) -> Decimal | None:  # type: ignore[override]  # a sum, not a count
        if value in self.empty_values:
            return None
        if isinstance(value, Decimal | int):
            return super().to_python(value)
        text = str(value).strip().replace("\u00a0", "").replace(" ", "")
        if not MONEY.fullmatch(text):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(text.replace(",", "."))

    def prepare_value(self, value: Any) -> Any:
        """Shown as the page's language writes it (0,10 in German)."""
        if isinstance(value, Decimal):
            return formats.number_format(value, 2, use_l10n=True)
        return value
