"""Small display helpers for the score pad's templates (no arithmetic: the engine scores)."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.engine.variants import DealSpec

from ..sheet import PAYMENT_ROW_LABELS

register = template.Library()


@register.filter
def signed(value: int | None) -> str:
    """+12, −4, 0: the classic game's balances read as gains and losses."""
    if value is None:
        return ""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"


@register.filter
def contract(spec: DealSpec | None) -> str:
    if spec is None:
        return ""
    parts = []
    if spec.sets:
        parts.append(ngettext("%(n)d set", "%(n)d sets", spec.sets) % {"n": spec.sets})
    if spec.runs:
        parts.append(ngettext("%(n)d run", "%(n)d runs", spec.runs) % {"n": spec.runs})
    text = _(" and ").join(parts)
    if spec.sets and spec.set_min != 3 or spec.runs and spec.run_min != 4:
        text += " " + _("(sets of %(s)d+, runs of %(r)d+)") % {"s": spec.set_min, "r": spec.run_min}
    return text


@register.filter
def payment_row(name: str) -> str:
    return str(PAYMENT_ROW_LABELS.get(name, name))


@register.filter
def at(sequence, index):
    """``list|at:i`` — the item at a position (for parallel lists in templates)."""
    try:
        return sequence[int(index)]
    except (IndexError, KeyError, TypeError, ValueError):
        return None


@register.filter
def variant_name(variant_id: str) -> str:
    from rules.facts import NAMES

    return str(NAMES.get(variant_id, variant_id))


@register.simple_tag
def game_rules_url(game) -> str:
    """The variant's rules in the reader's language with this game's house rules marked."""
    from rules.pages import rules_url

    return rules_url(game.variant_id, game.options)


@register.simple_tag
def game_checker_url(game, next_deal=None) -> str:
    """The hand checker set up for this game: its variant, house rules, schedule and deal."""
    from rules.checker import checker_url

    deal = None
    if game.variant.is_contract:
        total = game.total_deals
        deal = min(next_deal.number, total) if next_deal is not None else total
    return checker_url(game.variant_id, deal=deal, options=game.options, schedule=game.schedule)
