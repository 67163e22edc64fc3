"""The checker's state, read from the query string: the game, its house rules and deal, the
hand, and the page's one-time actions (add, remove, type, clear) applied to it. What cannot
be read becomes a notice for the part of the page it belongs to; nothing here raises."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext, ngettext

from rules import pages
from rules.engine.cards import BAD_CARD, Card, CardError, format_cards, parse_card, sort_cards
from rules.engine.variants import CLASSIC, VARIANTS, DealSpec, OptionError, Variant, build_schedule
from rules.i18n import engine_message
from rules.pages.words import card_name

MAX_CARDS = 40  # more than any hand a variant checks (a custom deal of 20 + 13 drawn)
MAX_TEXT = 600  # characters read from one query value
MAX_SCHEDULE_TEXT = 4000  # a schedule of 20 deals as JSON rows takes about 1500
MAX_ACTIONS = 60  # add/remove values read from one request
MAX_EXTRA_CONTRACT_CARDS = 12  # as the engine: out-of-turn takes add up to 12 cards


@dataclass
class Notice:
    """A message on the page: ``where`` is the part it belongs to (hand, type, settings)."""

    text: str
    where: str = "hand"


@dataclass
class CheckState:
    variant: Variant
    options: dict[str, Any]  # every option of the variant, resolved
    deal: int | None = None  # contract games
    schedule: tuple[DealSpec, ...] | None = None  # a game's own schedule, when given
    first_turn: str | None = None  # classic
    cards: list[Card] = field(default_factory=list)  # sorted
    typed: str = ""  # typed text that could not be added, kept in the field
    notices: list[Notice] = field(default_factory=list)

    @property
    def deal_spec(self) -> DealSpec | None:
        if not self.variant.is_contract:
            return None
        return (self.schedule or self.variant.schedule)[(self.deal or 1) - 1]

    @property
    def changed_options(self) -> dict[str, Any]:
        return {
            spec.name: self.options[spec.name]
            for spec in self.variant.options
            if self.options[spec.name] != spec.default
        }

    def error(self, text: str, where: str = "hand") -> None:
        self.notices.append(Notice(str(text), where))

    def engine_request(self) -> dict[str, Any]:
        request: dict[str, Any] = {
            "variant": self.variant.id,
            "cards": format_cards(self.cards),
            "options": self.options,
        }
        if self.variant.is_contract:
            request["deal"] = self.deal
            if self.schedule:
                request["schedule"] = [spec.as_dict() for spec in self.schedule]
        else:
            request["first_turn"] = self.first_turn
        return request


def _text(query: Mapping, name: str, limit: int = MAX_TEXT) -> str:
    value = query.get(name)
    return value[:limit] if isinstance(value, str) else ""


def _values(query, name: str) -> list[str]:
    """Every value of a repeatable parameter (``add=QH&add=KH``), a bounded number of them."""
    return [v[:MAX_TEXT] for v in query.getlist(name)[:MAX_ACTIONS]]


def _read_options(state: CheckState, query) -> None:
    variant = state.variant
    text = query.get("options")
    if isinstance(text, str) and len(text) > MAX_TEXT:
        state.error(gettext("The house rules in the link are too long to read."), "settings")
        query = {k: query.get(k) for k in query if k != "options"}
    try:
        given = pages.game_options(variant, query)
    except (RecursionError, ValueError, TypeError):  # pathological JSON
        state.error(gettext("The house rules in the link could not be read."), "settings")
        return
    if given.values:
        state.options = variant.resolve_options(given.values)
    if given.errors:
        state.error(
            gettext("These house rules could not be read and were left out: %(rules)s")
            % {"rules": ", ".join(given.errors)},
            "settings",
        )


def _read_schedule(state: CheckState, text: str) -> None:
    if not text:
        return
    try:
        rows = json.loads(text)
        state.schedule = build_schedule(rows)
    except (ValueError, TypeError, OverflowError, RecursionError, OptionError) as exc:
        detail = (
            engine_message(exc) if isinstance(exc, OptionError) else gettext("not a list of deals")
        )
        state.error(
            gettext(
                "The game's deal schedule could not be read (%(detail)s); the usual seven deals are used."
            )
            % {"detail": detail},
            "settings",
        )


def _read_deal(state: CheckState, text: str) -> None:
    deals = len(state.schedule or state.variant.schedule)
    if not text:
        state.deal = 1
        return
    try:
        deal = int(text.strip())
    except ValueError:
        deal = 0
    if not 1 <= deal <= deals:
        state.error(
            gettext("There is no deal “%(deal)s”: choose one from 1 to %(deals)s.")
            % {"deal": text.strip()[:20], "deals": deals},
            "settings",
        )
        deal = 1
    state.deal = deal


def tokens(text: str) -> list[str]:
    return [t for t in text.replace(",", " ").replace(";", " ").split() if t]


def _parse_token(token: str, lang: str | None) -> Card:
    try:
        return parse_card(token)
    except CardError:
        if lang is None:
            raise
        return parse_card(token, lang)


def _copies_left(state: CheckState, card: Card) -> tuple[bool, int]:
    """Whether one more copy of ``card`` fits the decks of the variant, and the limit."""
    decks, jokers = state.variant.max_decks()
    limit = jokers if card.is_joker else decks
    return sum(1 for c in state.cards if c == card) < limit, limit


def _refuse_copy(state: CheckState, card: Card, limit: int, lang: str, where: str) -> None:
    if card.is_joker:
        text = ngettext(
            "No more jokers: this game has only %(limit)s joker.",
            "No more jokers: this game has only %(limit)s jokers.",
            limit,
        ) % {"limit": limit}
    else:
        text = gettext("No more %(card)s: the decks of this game hold only %(limit)s.") % {
            "card": card_name(card, lang),
            "limit": limit,
        }
    state.error(text, where)


def _add(state: CheckState, cards: Iterable[Card], lang: str, where: str) -> bool:
    """Add cards if every one fits the decks' limit and the hand's size; else add none."""
    cards = list(cards)
    before = list(state.cards)
    for card in cards:
        if len(state.cards) >= MAX_CARDS:
            state.cards = before
            state.error(gettext("A hand holds at most %(n)s cards here.") % {"n": MAX_CARDS}, where)
            return False
        ok, limit = _copies_left(state, card)
        if not ok:
            state.cards = before
            _refuse_copy(state, card, limit, lang, where)
            return False
        state.cards.append(card)
    return True


def _bad_card_text(token: str) -> str:
    return engine_message(CardError(BAD_CARD, token=token[:30]))


def read_state(query, lang: str) -> CheckState:
    """Read the checker's query string into a state, applying add/remove/type/clear."""
    variant_id = _text(query, "variant")
    variant = VARIANTS.get(variant_id) or VARIANTS[CLASSIC]
    state = CheckState(variant=variant, options=variant.default_options())
    if variant_id and variant_id not in VARIANTS:
        state.error(
            gettext("There is no game “%(variant)s”; here is the 15-card game.")
            % {"variant": variant_id[:40]},
            "settings",
        )
    _read_options(state, query)
    if variant.is_contract:
        _read_schedule(state, _text(query, "schedule", MAX_SCHEDULE_TEXT))
        _read_deal(state, _text(query, "deal"))
    else:
        _read_first_turn(state, _text(query, "first_turn"))
    _read_hand(state, _text(query, "cards"), lang)
    _apply_actions(state, query, lang)
    state.cards = sort_cards(state.cards)
    return state


def _read_first_turn(state: CheckState, text: str) -> None:
    if text in ("drawn", "undrawn"):
        state.first_turn = text
    elif text not in ("", "none", "null"):
        state.error(
            gettext("“%(value)s” is not a first turn; the hand is checked as any turn.")
            % {"value": text[:20]},
            "settings",
        )


def _read_hand(state: CheckState, text: str, lang: str) -> None:
    """The hand in the link: canonical tokens (local letters are read too); bad ones named."""
    bad: list[str] = []
    refused: set[Card] = set()
    for token in tokens(text):
        try:
            card = _parse_token(token, lang)
        except CardError:
            bad.append(token)
            continue
        if len(state.cards) >= MAX_CARDS:
            state.error(gettext("A hand holds at most %(n)s cards here.") % {"n": MAX_CARDS})
            break
        ok, limit = _copies_left(state, card)
        if ok:
            state.cards.append(card)
        elif card not in refused:
            refused.add(card)
            _refuse_copy(state, card, limit, lang, "hand")
    for token in bad[:3]:
        state.error(
            gettext("“%(token)s” in the link is not a card and was left out.")
            % {"token": token[:30]}
        )


def _apply_actions(state: CheckState, query, lang: str) -> None:
    """The page's actions, in the order the form sends them: clear, remove, type, add."""
    if query.get("clear"):
        state.cards = []
    for token in _values(query, "remove"):
        try:
            card = _parse_token(token, lang)
        except CardError:
            continue
        if card in state.cards:
            state.cards.remove(card)
    typed = _text(query, "type").strip()
    if typed:
        try:
            cards = [parse_card(t, lang) for t in tokens(typed)]
        except CardError as exc:
            state.typed = typed
            state.error(_bad_card_text(exc.token or typed), "type")
        else:
            if not _add(state, cards, lang, "type"):
                state.typed = typed
    for token in _values(query, "add"):
        try:
            card = parse_card(token)
        except CardError:
            state.error(_bad_card_text(token))
            continue
        _add(state, [card], lang, "hand")
