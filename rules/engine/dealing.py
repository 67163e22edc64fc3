"""Drawing for the first dealer: every player draws a card; ties draw again.

How many cards each player is dealt (and the starting player's extra card in Rommé) is
``Variant.cards_dealt`` and ``Variant.starter_cards`` (variants.py)."""

from __future__ import annotations

import random
import secrets
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
