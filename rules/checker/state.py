"""The checker's state, read from the query string: the game, its house rules and deal, the
hand, and the page's one-time actions (add, remove, type, clear) applied to it. What cannot
be read becomes a notice for the part of the page it belongs to; nothing here raises."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.urls import Resolver404, resolve, reverse
from django.utils.translation import gettext, ngettext

from rules import pages
from rules.engine.cards import (
    BAD_CARD,
    Card,
    CardError,
    copies,
    format_cards,
    parse_card,
    sort_cards,
)
from rules.engine.variants import CLASSIC, VARIANTS, DealSpec, OptionError, Variant, build_schedule
from rules.i18n import engine_message
from rules.pages.words import card_name

MAX_CARDS = 40  # more than any hand a variant checks (a custom deal of 20 + 13 drawn)
MAX_SEEN = 200  # four decks and their jokers hold 212 cards
MAX_TEXT = 600  # characters read from one query value
MAX_SEEN_TEXT = 1000  # 200 cards of up to 3 characters and their separators
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
    seen: list[Card] = field(default_factory=list)  # classic: seen outside the hand, sorted
    players: int | None = None  # classic: the players at the table (the decks of the outs)
    to: str = "hand"  # classic: where the grid and the typed cards go, "hand" or "seen"
    back: str = ""  # the game's own page, when the checker was opened from one
    typed: str = ""  # typed text that could not be added, kept in the field
    notices: list[Notice] = field(default_factory=list)

    @property
    def deal_spec(self) -> DealSpec | None:
        if not self.variant.is_contract:
            return None
        return (self.schedule or self.variant.schedule or ())[(self.deal or 1) - 1]

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
        if self.variant.id == CLASSIC:
            request["seen"] = format_cards(self.seen)
            request["players"] = self.players
        return request

    def copies_limit(self, card: Card) -> int:
        """How many copies of ``card`` the hand and the seen cards may hold together: those
        of the players' table, or of the variant's largest one."""
        if self.players is not None:
            decks, jokers = self.variant.decks(self.players)
        else:
            decks, jokers = self.variant.max_decks()
        return copies(card, decks, jokers)


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
        rows = parse_schedule(text)
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


SCHEDULE_FIELDS = ("cards", "sets", "runs", "set_min", "run_min")


def parse_schedule(text: str) -> Any:
    """A schedule from a link: the short form ``links.schedule_text`` writes
    (``12.2.0_12.1.1``, ``10.1.1.3.3``), or the JSON list of rows older links carry."""
    text = text.strip()
    if text.startswith("["):
        return json.loads(text)
    rows = []
    for part in text.split("_"):
        fields = part.split(".")
        if len(fields) not in (3, 5) or not all(f.isascii() and f.isdigit() for f in fields):
            raise ValueError(part)
        rows.append(dict(zip(SCHEDULE_FIELDS, (int(f) for f in fields), strict=False)))
    return rows


def _read_deal(state: CheckState, text: str) -> None:
    deals = len(state.schedule or state.variant.schedule or ())
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
    """Whether one more copy of ``card`` fits the decks (with the hand's and the seen
    copies counted together), and the limit."""
    limit = state.copies_limit(card)
    held = sum(1 for c in state.cards if c == card) + sum(1 for c in state.seen if c == card)
    return held < limit, limit


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
    """Add cards (to the hand, or to the seen cards when ``state.to`` says so) if every one
    fits the decks' limit and the hand's size; else add none."""
    cards = list(cards)
    target = state.seen if state.to == "seen" else state.cards
    before = list(target)
    limit_n = MAX_SEEN if state.to == "seen" else MAX_CARDS
    for card in cards:
        if len(target) >= limit_n:
            target[:] = before
            if state.to == "seen":
                text = gettext("At most %(n)s cards can be marked as seen.") % {"n": MAX_SEEN}
            else:
                text = gettext("A hand holds at most %(n)s cards here.") % {"n": MAX_CARDS}
            state.error(text, where)
            return False
        ok, limit = _copies_left(state, card)
        if not ok:
            target[:] = before
            _refuse_copy(state, card, limit, lang, where)
            return False
        target.append(card)
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
    if variant.id == CLASSIC:
        _read_players(state, _text(query, "players"))
        state.to = "seen" if _text(query, "to") == "seen" else "hand"
    state.back = _read_back(_text(query, "back"))
    _read_hand(state, _text(query, "cards"), lang)
    if variant.id == CLASSIC:
        _read_seen(state, _text(query, "seen", MAX_SEEN_TEXT), lang)
    _apply_actions(state, query, lang)
    state.cards = sort_cards(state.cards)
    state.seen = sort_cards(state.seen)
    return state


def _read_players(state: CheckState, text: str) -> None:
    if not text.strip():
        return
    try:
        players = int(text.strip())
    except ValueError:
        players = 0
    variant = state.variant
    if variant.min_players <= players <= variant.max_players:
        state.players = players
    else:
        state.error(
            gettext(
                "There is no table of “%(players)s” players: choose %(low)s to %(high)s; the "
                "cards left are counted without it."
            )
            % {
                "players": text.strip()[:20],
                "low": variant.min_players,
                "high": variant.max_players,
            },
            "settings",
        )


def _read_back(text: str) -> str:
    """The page of the game the checker was opened from: a path of this site naming a game
    (``/en/games/<token>/``), kept as that game's path in the page's language; anything else
    is dropped."""
    parts = text.split("/", 2)  # "", the language, the rest
    if len(parts) < 3 or parts[0] or not parts[1]:
        return ""
    try:  # in the page's language: the prefix of the link's may not resolve
        match = resolve(reverse("home") + parts[2])
    except Resolver404:
        return ""
    if match.url_name != "game" or "token" not in match.kwargs:
        return ""
    return reverse("game", kwargs={"token": match.kwargs["token"]})


def _read_seen(state: CheckState, text: str, lang: str) -> None:
    """The seen cards in the link: as the hand, each within the decks beside the hand's."""
    _read_cards(state, text, lang, state.seen, MAX_SEEN, "seen")


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
    _read_cards(state, text, lang, state.cards, MAX_CARDS, "hand")


def _read_cards(
    state: CheckState, text: str, lang: str, into: list[Card], most: int, where: str
) -> None:
    """Cards of the link into ``into`` (the hand or the seen cards), at most ``most`` and
    each within the decks; a bad token, a copy too many and (for the hand) too many cards
    are said where they were entered."""
    bad: list[str] = []
    refused: set[Card] = set()
    for token in tokens(text):
        try:
            card = _parse_token(token, lang)
        except CardError:
            bad.append(token)
            continue
        if len(into) >= most:
            if where == "hand":
                state.error(gettext("A hand holds at most %(n)s cards here.") % {"n": most})
            break
        ok, limit = _copies_left(state, card)
        if ok:
            into.append(card)
        elif card not in refused:
            refused.add(card)
            _refuse_copy(state, card, limit, lang, where)
    for token in bad[:3]:
        state.error(
            gettext("“%(token)s” in the link is not a card and was left out.")
            % {"token": token[:30]},
            where,
        )


def _apply_typed(state: CheckState, typed: str, lang: str) -> None:
    """The typed cards go where the grid's go; text that cannot be added stays in the field."""
    if not typed:
        return
    try:
        cards = [parse_card(t, lang) for t in tokens(typed)]
    except CardError as exc:
        state.typed = typed
        state.error(_bad_card_text(exc.token or typed), "type")
    else:
        if not _add(state, cards, lang, "type"):
            state.typed = typed


def _apply_actions(state: CheckState, query, lang: str) -> None:
    """The page's actions, in the order the form sends them: clear, remove, type, add."""
    if query.get("clear") == "seen":
        state.seen = []
    elif query.get("clear"):
        state.cards = []
    for name, cards in (("remove", state.cards), ("unsee", state.seen)):
        for token in _values(query, name):
            try:
                card = _parse_token(token, lang)
            except CardError:
                continue
            if card in cards:
                cards.remove(card)
    _apply_typed(state, _text(query, "type").strip(), lang)
    where = "seen" if state.to == "seen" else "hand"
    for token in _values(query, "add"):
        try:
            card = parse_card(token)
        except CardError:
            state.error(_bad_card_text(token), where)
            continue
        _add(state, [card], lang, where)
