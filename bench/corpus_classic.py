"""Requests for timing the classic hand solver (imported by bench/solver.py).

``CORPUS`` is a list of (task name, list of request dicts in the request format of docs/interfaces.md),
built with a fixed seed so every run times the same hands:

* ``classic random 16``: random 16-card deals from two decks and two jokers.
* ``classic near-complete 16``: random valid 15-card arrangements plus one random card, and
  near misses (one card of such a hand swapped for a random card).
* ``classic waits 15``: 15-card hands one card away from a valid arrangement that do not go
  out, so the answer computes ``waits``.
* ``classic adversarial``: four decks and four jokers, many jokers and 2s, many duplicates.

Hands never hold more copies of a card than their decks do. The waits set is selected with
the solver itself (a hand that goes out is skipped), so it is built on first import.
"""

from __future__ import annotations

import random
from collections import Counter

from rules.engine.cards import JOKER, RANKS, SUITS, Card, format_cards

SEED = 20240615
SPLITS = ((3, 3, 3, 3, 3), (4, 4, 4, 3), (5, 4, 3, 3))
NATURALS = [Card(r, s) for s in SUITS for r in RANKS]


def _deck(decks: int, jokers: int) -> list[Card]:
    return NATURALS * decks + [JOKER] * jokers


def _fits(hand: list[Card], decks: int, jokers: int) -> bool:
    return all(n <= (jokers if c.is_joker else decks) for c, n in Counter(hand).items())


def _request(hand: list[Card], options: dict | None = None, first_turn=None) -> dict:
    return {
        "variant": "classic",
        "cards": format_cards(hand),
        "first_turn": first_turn,
        "options": dict(options or {}),
    }


def _arrangement(rnd: random.Random, wild_rate: float, twos_wild: bool = True) -> list[Card]:
    """15 cards that go out: a random split, suits and windows, some places wild."""
    hand = []
    for length in rnd.choice(SPLITS):
        suit = rnd.choice(SUITS)
        start = rnd.randint(1, 15 - length)
        for pos in range(start, start + length):
            if rnd.random() < wild_rate:
                hand.append(
                    Card(2, rnd.choice(SUITS)) if twos_wild and rnd.random() < 0.6 else JOKER
                )
            else:
                hand.append(Card(1 if pos == 14 else pos, suit))
    return hand


def _random_16(rnd: random.Random, n: int) -> list[dict]:
    deck = _deck(2, 2)
    return [_request(rnd.sample(deck, 16)) for _ in range(n)]


def _near_complete_16(rnd: random.Random, n: int) -> list[dict]:
    deck = _deck(2, 2)
    out = []
    while len(out) < n:
        twos_wild = rnd.random() < 0.8
        hand = _arrangement(rnd, rnd.choice((0.0, 0.05, 0.1, 0.2)), twos_wild)
        hand.append(rnd.choice(deck))
        if rnd.random() < 0.5:  # near miss: one card swapped
            hand[rnd.randrange(16)] = rnd.choice(deck)
        if not _fits(hand, 2, 2):
            continue
        rnd.shuffle(hand)
        options = {} if twos_wild else {"twos_wild": False}
        first_turn = rnd.choice((None, None, None, "drawn"))
        out.append(_request(hand, options, first_turn))
    return out


def _waits_15(rnd: random.Random, n: int) -> list[dict]:
    from rules.engine.solver.classic import solve_classic

    deck = _deck(2, 2)
    out = []
    while len(out) < n:
        twos_wild = rnd.random() < 0.8
        hand = _arrangement(rnd, rnd.choice((0.0, 0.05, 0.1, 0.2)), twos_wild)
        hand.pop(rnd.randrange(15))
        hand.append(rnd.choice(deck))
        if not _fits(hand, 2, 2):
            continue
        if solve_classic(hand, {"twos_wild": twos_wild}, None)["goes_out"]:
            continue
        rnd.shuffle(hand)
        out.append(_request(hand, {} if twos_wild else {"twos_wild": False}))
    return out


def _adversarial(rnd: random.Random, n: int) -> list[dict]:
    out = []
    while len(out) < n:
        size = rnd.choice((15, 16))
        kind = len(out) % 4
        if kind == 0:  # jokers and 2s galore
            pool = [JOKER] * 4 + [Card(2, s) for s in SUITS] * 4 + _deck(4, 0)
            weights = [6.0] * 4 + [4.0] * 16 + [0.3] * 208
            hand = []
            bag = list(zip(pool, weights, strict=True))
            while len(hand) < size:
                i = rnd.choices(range(len(bag)), weights=[w for _, w in bag])[0]
                hand.append(bag.pop(i)[0])
        elif kind == 1:  # the same few runs over and over, plus wild cards
            base = _arrangement(rnd, 0.0)[:6]
            hand = [rnd.choice(base) for _ in range(size - 4)]
            hand += [rnd.choice([JOKER, Card(2, rnd.choice(SUITS))]) for _ in range(4)]
        elif kind == 2:  # one suit, dense ranks, many duplicates
            suit = rnd.choice(SUITS)
            lo = rnd.randint(1, 8)
            hand = [Card(rnd.randint(lo, lo + 5), suit) for _ in range(size - 3)]
            hand += [
                rnd.choice([JOKER, Card(2, suit), Card(2, rnd.choice(SUITS))]) for _ in range(3)
            ]
        else:  # near-complete with many wild cards, four decks
            hand = _arrangement(rnd, 0.45)
            if size == 16:
                hand.append(rnd.choice([JOKER, Card(2, rnd.choice(SUITS)), *NATURALS]))
            hand[rnd.randrange(size)] = rnd.choice(_deck(1, 1))
        if not _fits(hand, 4, 4):
            continue
        rnd.shuffle(hand)
        options = {} if rnd.random() < 0.85 else {"twos_wild": False}
        out.append(_request(hand, options))
    return out


def _build() -> list[tuple[str, list[dict]]]:
    rnd = random.Random(SEED)
    return [
        ("classic random 16", _random_16(rnd, 2000)),
        ("classic near-complete 16", _near_complete_16(rnd, 1000)),
        ("classic waits 15", _waits_15(rnd, 500)),
        ("classic adversarial", _adversarial(rnd, 300)),
    ]


def _cold() -> None:
    """Forget what building the waits set memoised, so timings start cold."""
    from rules.engine.solver.classic import clear_caches

    clear_caches()


CORPUS: list[tuple[str, list[dict]]] = _build()
_cold()
