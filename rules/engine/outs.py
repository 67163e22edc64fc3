"""Outs: for a classic hand one card short, how many copies of each card it waits for are
still unseen (what a mahjong player calls the ukeire count).

A card of the table's decks is unseen when it is neither in the hand nor among the cards
the player saw elsewhere (on the discard pile, in another player's hand). For each wait:
the copies the table's decks hold (``decks`` of each card, ``jokers`` jokers), minus the
copies in the hand, minus the copies seen. A wait whose every copy is in the hand cannot be
drawn and is left out; a wait whose last copies were all seen stays, with 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from .cards import Card, CardError, copies
from .messages import gettext_noop
from .variants import Variant


def table_decks(
    variant: Variant, players: int | None, cards: Iterable[Card] = ()
) -> tuple[int, int]:
    """(decks, jokers) of the table: the one ``players`` play with, or, when the number of
    players is not given, the smallest table of the variant whose decks hold ``cards``
    (so two decks for the classic game unless the hand and the seen cards need more)."""
    if players is not None:
        return variant.decks(players)
    counts = Counter(cards)
    tables = sorted({variant.decks(p) for p in range(variant.min_players, variant.max_players + 1)})
    for decks, jokers in tables:
        if all(n <= copies(c, decks, jokers) for c, n in counts.items()):
            return decks, jokers
    return tables[-1]


def check_seen(hand: Sequence[Card], seen: Sequence[Card], decks: int, jokers: int) -> None:
    """Refuse seen cards that, with the hand's, make more copies than the decks hold."""
    in_hand = Counter(hand)
    for c, n in sorted(Counter(seen).items(), key=lambda kv: kv[0].sort_key):
        limit = copies(c, decks, jokers)
        if in_hand[c] + n > limit:
            raise CardError(
                gettext_noop(
                    "the hand and the seen cards hold %(count)s × %(token)s, "
                    "but the decks hold only %(limit)s"
                ),
                token=c.code,
                code="too_many_copies",
                count=in_hand[c] + n,
                limit=limit,
            )


def count_outs(
    waits: Iterable[Card],
    hand: Sequence[Card],
    decks: int,
    jokers: int,
    seen: Sequence[Card] = (),
) -> dict[Card, int]:
    """Each wait (in the order given) with its unseen copies; waits held whole by the hand
    are left out. ``sum(result.values())`` is the total."""
    in_hand, out = Counter(hand), Counter(seen)
    result: dict[Card, int] = {}
    for c in waits:
        limit = copies(c, decks, jokers)
        if in_hand[c] >= limit:
            continue
        result[c] = max(0, limit - in_hand[c] - out[c])
    return result
