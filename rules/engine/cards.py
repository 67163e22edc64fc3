"""Cards and their notation.

A card is a rank (1 = ace ... 13 = king) and a suit (S, H, D, C), or a joker.
Several decks are mixed, so identical cards occur more than once; a hand is a
plain list (or tuple) of cards.

Canonical notation (API, CLI, tests): rank then suit letter, ``10`` or ``T``
for ten, ``JK`` for a joker, case-insensitive, separated by spaces or commas.
Suit symbols are accepted too. The UI also accepts the local rank letters of
each UI language; a token that cannot be read raises :class:`CardError`
naming it, nothing is guessed.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .messages import EngineError, gettext_noop

SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset({"H", "D"})
RANKS = tuple(range(1, 14))  # 1 = ace, 11 = J, 12 = Q, 13 = K
RANK_CODES = {1: "A", 11: "J", 12: "Q", 13: "K"}
for _r in range(2, 11):
    RANK_CODES[_r] = str(_r)
JOKER_CODE = "JK"

_SYMBOL_TO_SUIT = {
    "♠": "S",
    "♤": "S",
    "♥": "H",
    "♡": "H",
    "♦": "D",
    "♢": "D",
    "♣": "C",
    "♧": "C",
}

# Canonical rank tokens, accepted in every language.
_CANONICAL_RANKS = {code: rank for rank, code in RANK_CODES.items()}
_CANONICAL_RANKS["T"] = 10

# Local rank letters of each UI language (upper case). Canonical letters are
# always accepted as well, unless a local letter takes the same token.
LOCAL_RANKS: dict[str, dict[str, int]] = {
    "en": {},
    "de": {"B": 11, "D": 12, "K": 13, "AS": 1},
    "nb": {"KN": 11, "D": 12, "K": 13, "E": 1},
    "pl": {"W": 11, "D": 12, "K": 13, "AS": 1},
    "fi": {},
    "es": {"S": 11, "C": 12, "R": 13, "AS": 1},
}
# How each language writes the ranks when it shows them (display letters).
LOCAL_RANK_DISPLAY: dict[str, dict[int, str]] = {
    "en": {},
    "de": {11: "B", 12: "D", 13: "K"},
    "nb": {11: "Kn", 12: "D", 13: "K"},
    "pl": {11: "W", 12: "D", 13: "K"},
    "fi": {},
    "es": {11: "J", 12: "Q", 13: "K"},
}

_JOKER_TOKENS = {"JK", "JOKER", "JO", "★"}

# What ``parse_card`` reads without a language (upper case; it reads any case): for the API's
# OpenAPI document, which describes the hand as these tokens.
RANK_TOKENS = tuple(_CANONICAL_RANKS)
SUIT_TOKENS = SUITS + tuple(_SYMBOL_TO_SUIT)
JOKER_TOKENS = tuple(sorted(_JOKER_TOKENS))
TOKEN_SEPARATORS = " ,;\t\n\r"  # what a hand's tokens may be separated by (among others)


class CardError(EngineError):
    """A card, hand or count that cannot be accepted. ``token`` names the culprit.

    ``token`` is also a parameter of the message (``%(token)r``).
    """

    def __init__(
        self,
        message: str,
        token: str | None = None,
        code: str = "bad_card",
        *,
        params: dict[str, Any] | None = None,
        **kwparams: Any,
    ):
        given = {"token": token} if token is not None else {}
        super().__init__(message, params={**given, **(params or {})}, **kwparams)
        self.token = token
        self.code = code


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card. ``rank`` 1..13 (ace = 1) and ``suit`` in SUITS; a joker is rank 0, suit ''."""

    rank: int
    suit: str

    def __post_init__(self):
        if self.rank == 0:
            if self.suit != "":
                raise CardError(gettext_noop("a joker has no suit"), code="bad_card")
        elif self.rank not in RANK_CODES or self.suit not in SUITS:
            raise CardError(
                gettext_noop("no such card: rank %(rank)r, suit %(suit)r"),
                rank=self.rank,
                suit=self.suit,
            )

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    @property
    def code(self) -> str:
        """Canonical notation: ``10H``, ``QS``, ``JK``."""
        if self.rank == 0:
            return JOKER_CODE
        return RANK_CODES[self.rank] + self.suit

    @property
    def symbol(self) -> str:
        """Display form with a suit symbol: ``10♥``, ``Q♠``, ``JK``."""
        if self.rank == 0:
            return JOKER_CODE
        return RANK_CODES[self.rank] + SUIT_SYMBOLS[self.suit]

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    @property
    def sort_key(self) -> tuple[int, int]:
        """Order of canonical lists: suit S, H, D, C, then rank (ace first); the joker last."""
        if self.rank == 0:
            return (len(SUITS), 0)
        return (SUITS.index(self.suit), self.rank)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


JOKER = Card(0, "")
ALL_CARDS: tuple[Card, ...] = (*tuple(Card(r, s) for s in SUITS for r in RANKS), JOKER)


def card(code: str) -> Card:
    """Shorthand for tests and data: ``card("10H")``."""
    return parse_card(code)


# What a token that is no card gets, on the checker, the score pad and the API alike.
BAD_CARD = gettext_noop("“%(token)s” is not a card.")

_TOKEN_SPLIT = re.compile(r"[\s,;]+")


def _split_rank_suit(token: str) -> tuple[str, str] | None:
    upper = token.upper()
    if upper and upper[-1] in _SYMBOL_TO_SUIT:
        return upper[:-1], _SYMBOL_TO_SUIT[upper[-1]]
    if len(upper) >= 2 and upper[-1] in SUITS:
        return upper[:-1], upper[-1]
    return None


def parse_card(token: str, lang: str | None = None) -> Card:
    """Read one card token; ``lang`` adds that language's local rank letters."""
    raw = token.strip()
    if not raw:
        raise CardError(gettext_noop("empty card"), token=token)
    upper = raw.upper()
    if upper in _JOKER_TOKENS:
        return JOKER
    parts = _split_rank_suit(raw)
    if parts is None:
        raise CardError(BAD_CARD, token=raw)
    rank_text, suit = parts
    rank = rank_tokens(lang).get(rank_text)
    if rank is None:
        raise CardError(BAD_CARD, token=raw)
    return Card(rank, suit)


def rank_tokens(lang: str | None = None) -> dict[str, int]:
    """The rank tokens ``parse_card`` reads in ``lang`` (upper case): the canonical ones, and
    the language's local letters, which win where both take the same token."""
    return {**_CANONICAL_RANKS, **LOCAL_RANKS.get((lang or "en").split("-")[0].lower(), {})}


def reading_table(lang: str | None = None) -> dict[str, Any]:
    """How ``parse_card`` reads a token in ``lang``, as data: for the phone's card grid
    (``static/js/cards.js`` reads the cards typed beside it with this very table, so its sum
    is the engine's). ``ranks``: rank token -> canonical rank code; ``suits``: the last
    character -> suit (a letter needs a rank before it, a symbol too, as no rank is empty);
    ``jokers``: whole tokens that are a joker. All upper case: a token is read upper-cased."""
    return {
        "ranks": {token: RANK_CODES[rank] for token, rank in rank_tokens(lang).items()},
        "suits": {**{s: s for s in SUITS}, **_SYMBOL_TO_SUIT},
        "jokers": sorted(_JOKER_TOKENS),
        "joker": JOKER_CODE,
    }


def parse_cards(text: str | Iterable[str], lang: str | None = None) -> list[Card]:
    """Read a hand: tokens separated by spaces or commas (or an iterable of tokens)."""
    if isinstance(text, str):
        tokens = [t for t in _TOKEN_SPLIT.split(text.strip()) if t]
    else:
        tokens = [str(t) for t in text]
    return [parse_card(t, lang) for t in tokens]


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical notation of a list of cards, in the given order, space separated."""
    return " ".join(c.code for c in cards)


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Canonical order: suit S, H, D, C, then rank, jokers last."""
    return sorted(cards, key=lambda c: c.sort_key)


def local_code(c: Card, lang: str | None = None) -> str:
    """The card as the given language writes it, with a suit symbol: German ``D♥``."""
    if c.is_joker:
        return JOKER_CODE
    display = LOCAL_RANK_DISPLAY.get((lang or "en").split("-")[0].lower(), {})
    return display.get(c.rank, RANK_CODES[c.rank]) + SUIT_SYMBOLS[c.suit]


def local_token(c: Card, lang: str | None = None) -> str:
    """The card as the given language types it, rank letters as on its buttons and the suit
    letter of the notation: German ``DH``; ``parse_card`` reads it back in that language."""
    if c.is_joker:
        return JOKER_CODE
    display = LOCAL_RANK_DISPLAY.get((lang or "en").split("-")[0].lower(), {})
    return display.get(c.rank, RANK_CODES[c.rank]) + c.suit


def format_local(cards: Iterable[Card], lang: str | None = None) -> str:
    """A hand as the given language types it (``local_token``), space separated; links and
    the API keep ``format_cards``."""
    return " ".join(local_token(c, lang) for c in cards)


def copies(card: Card, decks: int, jokers: int) -> int:
    """How many copies of ``card`` a table of ``decks`` decks and ``jokers`` jokers holds."""
    return jokers if card.is_joker else decks


def check_copies(cards: Iterable[Card], decks: int, jokers: int) -> None:
    """Refuse a hand holding more copies of a card (or more jokers) than the decks hold."""
    counts = Counter(cards)
    for c, n in sorted(counts.items(), key=lambda kv: kv[0].sort_key):
        limit = copies(c, decks, jokers)
        if n > limit:
            if c.is_joker:
                raise CardError(
                    gettext_noop("%(count)s jokers, but the game has only %(jokers)s"),
                    token=c.code,
                    code="too_many_copies",
                    count=n,
                    jokers=jokers,
                )
            raise CardError(
                gettext_noop("%(count)s × %(token)s, but %(decks)s decks hold only %(decks)s"),
                token=c.code,
                code="too_many_copies",
                count=n,
                decks=decks,
            )
