"""Canonical URLs of the checker: one URL per state, and links to it from elsewhere."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

from rules.engine.cards import Card, format_cards, parse_card, sort_cards
from rules.engine.messages import gettext_noop
from rules.engine.variants import CLASSIC, OptionError, Variant, build_schedule, get_variant

from .state import CheckState, tokens


def _option_value(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def schedule_json(rows: list[dict[str, Any]]) -> str:
    return json.dumps(rows, separators=(",", ":"))


def query_pairs(
    variant: Variant,
    options: Mapping[str, Any] | None = None,
    deal: int | None = None,
    schedule: Iterable[Mapping[str, Any]] | None = None,
    first_turn: str | None = None,
    cards: Iterable[Card] = (),
) -> list[tuple[str, str]]:
    """The canonical query of a checker state, as ordered (name, value) pairs."""
    pairs = [("variant", variant.id)]
    if variant.is_contract:
        pairs.append(("deal", str(deal or 1)))
        if schedule:
            pairs.append(("schedule", schedule_json([dict(row) for row in schedule])))
    resolved = variant.resolve_options(options)
    for spec in variant.options:
        if resolved[spec.name] != spec.default:
            pairs.append((spec.name, _option_value(resolved[spec.name])))
    if variant.id == CLASSIC and first_turn:
        pairs.append(("first_turn", first_turn))
    hand = sort_cards(cards)
    if hand:
        pairs.append(("cards", format_cards(hand)))
    return pairs


def state_pairs(state: CheckState) -> list[tuple[str, str]]:
    return query_pairs(
        state.variant,
        state.options,
        state.deal,
        [spec.as_dict() for spec in state.schedule] if state.schedule else None,
        state.first_turn,
        state.cards,
    )


def checker_url(
    variant_id: str = CLASSIC,
    *,
    deal: int | None = None,
    options: Mapping[str, Any] | None = None,
    schedule: list[Mapping[str, Any]] | None = None,
    cards: str | Iterable[str | Card] | None = None,
    first_turn: str | None = None,
) -> str:
    """The checker's URL (in the active language) for a game's variant, deal and house rules.

    ``options`` and ``schedule`` as a game stores them (``Game.options``, ``Game.schedule``);
    ``cards`` canonical tokens (a string or a list). Raises OptionError or CardError for values
    the engine refuses, so a bad link is found where it is made.
    """
    variant = get_variant(variant_id)
    if first_turn not in (None, "drawn", "undrawn"):
        raise OptionError(
            gettext_noop("first_turn must be drawn, undrawn or None, not %(value)r"),
            value=first_turn,
        )
    if schedule:
        schedule = [spec.as_dict() for spec in build_schedule(list(schedule))]
    if isinstance(cards, str):
        hand = [parse_card(t) for t in tokens(cards)]
    else:
        hand = [c if isinstance(c, Card) else parse_card(c) for c in cards or ()]
    pairs = query_pairs(variant, options, deal, schedule, first_turn, hand)
    return reverse("check") + "?" + urlencode(pairs)


def same_query(query, pairs: list[tuple[str, str]]) -> bool:
    given = sorted((k, v) for k in query for v in query.getlist(k))
    return given == sorted(pairs)
