"""Canonical URLs of the checker: one URL per state, and links to it from elsewhere."""

from __future__ import annotations

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


def schedule_text(rows: Iterable[Mapping[str, Any]]) -> str:
    """A schedule as the checker's links write it: each deal ``cards.sets.runs``, with
    ``.set_min.run_min`` when either differs from 3 and 4, deals joined by ``_`` (no
    character a URL escapes: ``12.2.0_12.1.1``). The JSON of a game's ``schedule`` is read
    too, so old links still open (``state.parse_schedule``)."""
    out = []
    for row in rows:
        fields = [row["cards"], row.get("sets", 0), row.get("runs", 0)]
        set_min, run_min = row.get("set_min", 3), row.get("run_min", 4)
        if (set_min, run_min) != (3, 4):
            fields += [set_min, run_min]
        out.append(".".join(str(int(f)) for f in fields))
    return "_".join(out)


def _game_pairs(
    variant: Variant,
    options: Mapping[str, Any] | None,
    deal: int | None,
    schedule: Iterable[Mapping[str, Any]] | None,
) -> list[tuple[str, str]]:
    """The deal and its schedule (contract games), then the options that differ."""
    pairs = []
    if variant.is_contract:
        pairs.append(("deal", str(deal or 1)))
        rows = [dict(row) for row in schedule or ()]
        if rows and rows != [spec.as_dict() for spec in variant.schedule or ()]:
            pairs.append(("schedule", schedule_text(rows)))
    resolved = variant.resolve_options(options)
    for spec in variant.options:
        if resolved[spec.name] != spec.default:
            pairs.append((spec.name, _option_value(resolved[spec.name])))
    return pairs


def query_pairs(
    variant: Variant,
    options: Mapping[str, Any] | None = None,
    deal: int | None = None,
    schedule: Iterable[Mapping[str, Any]] | None = None,
    first_turn: str | None = None,
    cards: Iterable[Card] = (),
    *,
    players: int | None = None,
    seen: Iterable[Card] = (),
    to: str = "hand",
    back: str = "",
) -> list[tuple[str, str]]:
    """The canonical query of a checker state, as ordered (name, value) pairs: what differs
    from the defaults only (a deal schedule equal to the variant's own is left out)."""
    pairs = [("variant", variant.id), *_game_pairs(variant, options, deal, schedule)]
    if variant.id == CLASSIC:
        if first_turn:
            pairs.append(("first_turn", first_turn))
        if players is not None:
            pairs.append(("players", str(players)))
    hand = sort_cards(cards)
    if hand:
        pairs.append(("cards", format_cards(hand)))
    if variant.id == CLASSIC:
        seen_cards = sort_cards(seen)
        if seen_cards:
            pairs.append(("seen", format_cards(seen_cards)))
        if to == "seen":
            pairs.append(("to", "seen"))
    if back:
        pairs.append(("back", back))
    return pairs


def state_pairs(state: CheckState, *, shared: bool = False) -> list[tuple[str, str]]:
    """The canonical query of ``state``; ``shared``: as "Link to this hand" gives it to
    others, without the way back to a game (its link is that game's key) or the page's
    entry mode."""
    return query_pairs(
        state.variant,
        state.options,
        state.deal,
        [spec.as_dict() for spec in state.schedule] if state.schedule else None,
        state.first_turn,
        state.cards,
        players=state.players,
        seen=state.seen,
        to="hand" if shared else state.to,
        back="" if shared else state.back,
    )


def encode(pairs: list[tuple[str, str]]) -> str:
    """The query of ``pairs``, leaving ``/`` as it is (the path in ``back`` stays readable,
    and the log filter finds a game's token after ``/games/``)."""
    return urlencode(pairs, safe="/")


def checker_url(
    variant_id: str = CLASSIC,
    *,
    deal: int | None = None,
    options: Mapping[str, Any] | None = None,
    schedule: list[Mapping[str, Any]] | None = None,
    cards: str | Iterable[str | Card] | None = None,
    first_turn: str | None = None,
    players: int | None = None,
    back: str = "",
) -> str:
    """The checker's URL (in the active language) for a game's variant, deal and house rules.

    ``options`` and ``schedule`` as a game stores them (``Game.options``, ``Game.schedule``);
    ``cards`` canonical tokens (a string or a list); ``players`` the classic game's table
    (the decks its outs count); ``back`` the path of the game's page, for a link back to it
    (never given to others by "Link to this hand"). Raises OptionError or CardError for values
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
    if players is not None:
        variant.check_players(players)
    pairs = query_pairs(variant, options, deal, schedule, first_turn, hand, players=players)
    if back:
        pairs.append(("back", back))
    return reverse("check") + "?" + encode(pairs)


def same_query(query, pairs: list[tuple[str, str]]) -> bool:
    given = sorted((k, v) for k in query for v in query.getlist(k))
    return given == sorted(pairs)
