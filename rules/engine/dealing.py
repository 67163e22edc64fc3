"""Drawing for the first dealer: every player draws a card; ties draw again.

How many cards each player is dealt (and the starting player's extra card in Rommé) is
``Variant.cards_dealt`` and ``Variant.starter_cards`` (variants.py)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from .cards import SUITS, Card
from .variants import Variant

_SYSTEM = secrets.SystemRandom()


@dataclass(frozen=True)
class Draw:
    dealer: int  # seat position
    rounds: list[dict[int, str]]  # each round: seat position -> canonical card drawn
    highest: bool  # whether the highest card deals (else the lowest)


def draw_first_dealer(variant: Variant, players: int, rng: random.Random | None = None) -> Draw:
    """The variant's rule: the highest card deals (Nordic, ace high), else the lowest (ace low).

    Players tied for the deciding card draw again, from a fresh shuffle of the decks.
    """
    rng = rng or _SYSTEM
    highest = variant.dealer_rule == "highest"
    decks = variant.decks(players)[0]
    contenders = list(range(players))
    rounds: list[dict[int, str]] = []
    while True:
        pack = [Card(r, s) for _ in range(decks) for s in SUITS for r in range(1, 14)]
        rng.shuffle(pack)
        drawn = {pos: pack[i] for i, pos in enumerate(contenders)}
        rounds.append({pos: c.code for pos, c in drawn.items()})

        def value(c: Card) -> int:
            return 14 if highest and c.rank == 1 else c.rank

        best = (max if highest else min)(value(c) for c in drawn.values())
        contenders = [pos for pos, c in drawn.items() if value(c) == best]
        if len(contenders) == 1:
            return Draw(dealer=contenders[0], rounds=rounds, highest=highest)


def next_playing(order: Sequence[int], after: int, step: int, playing: Collection[int]) -> int:
    """The first seat after ``after`` in seating ``order`` (``step`` +1 to the left, -1 to the
    right) that plays: seats not at the table are passed over."""
    n = len(order)
    i = order.index(after)
    for k in range(1, n + 1):
        seat = order[(i + k * step) % n]
        if seat in playing:
            return seat
    raise ValueError("nobody plays")


def dealers(
    first: int, step: int, order: Sequence[int], players: Sequence[Collection[int]]
) -> list[int]:
    """The dealer of each deal, given the seats that play in each (``players``, one
    collection per deal, in order).

    The first dealer deals the first deal (the next playing seat when they are not in it);
    then the deal passes to the next seat that plays in the next deal. With the same players
    in every deal this is the plain rotation: deal ``n`` is dealt by the seat ``n - 1`` steps
    after the first dealer. A player who joins takes their turn when the deal reaches their
    seat; one who left is passed over.
    """
    out: list[int] = []
    for number, playing in enumerate(players):
        if number == 0:
            dealer = first if first in playing else next_playing(order, first, step, playing)
        else:
            dealer = next_playing(order, out[-1], step, playing)
        out.append(dealer)
    return out
