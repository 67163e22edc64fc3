"""Money on the evening pages: amounts kept in cents, written as the page's language writes
them (1,20 in German), signed as gains and losses (+1,20, −0,40)."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils import formats

from rules.engine.evening import from_cents

register = template.Library()


@register.filter
def money(cents: int | None) -> str:
    """1,20: an amount in cents, unsigned."""
    if cents is None:
        return ""
    return formats.number_format(from_cents(abs(cents)), 2, use_l10n=True)


@register.filter
def signed_money(cents: int | None) -> str:
    """+1,20, −0,40, 0,00: a balance in cents."""
    if cents is None:
        return ""
    text = money(cents)
    if cents > 0:
        return f"+{text}"
    if cents < 0:
        return f"−{text}"
    return text


@register.filter
def amount(value) -> str:
    """A Decimal amount of money (a stake, a payment) with two decimals: 0,10."""
    if value is None:
        return ""
    return formats.number_format(value, 2, use_l10n=True)


@register.filter
def signed_amount(value) -> str:
    """A Decimal amount signed as the balances are (−14,30, +1,20, 0,00): the chart's caption
    reads like the totals beside it."""
    if value is None:
        return ""
    return signed_money(int((Decimal(value) * 100).to_integral_value()))
