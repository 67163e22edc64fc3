"""Benchmark hands for the contract-game and Rommé solvers, made with a fixed seed.

``CORPUS`` is a list of (name, requests); each request is a check request in the format of
docs/interfaces.md (``{"variant": ..., "cards": "AS 10H ...", "deal": n, "options": {}}``), valid for
``rules.engine.check.check_hand``. The same seed gives the same hands on every machine.
"""

from __future__ import annotations

import random

SEED = 20_250_607
SUITS = "SHDC"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
NORDIC_DEALT = dict.fromkeys(range(1, 8), 12)
SPANISH_DEALT = {d: 5 + d for d in range(1, 8)}


def _deck(decks: int, jokers: int) -> list[str]:
    return [r + s for r in RANKS for s in SUITS] * decks + ["JK"] * jokers


def _request(variant: str, cards: list[str], deal: int | None = None) -> dict:
    request = {"variant": variant, "cards": " ".join(cards), "options": {}}
    if deal is not None:
        request["deal"] = deal
    return request


def _contract_random(rng: random.Random) -> list[dict]:
    requests = []
    for _ in range(72):  # 7 deals x 72 = 504 nordic hands of 13 cards
        for deal in range(1, 8):
            hand = rng.sample(_deck(2, 4), NORDIC_DEALT[deal] + 1)
            requests.append(_request("contract-nordic", hand, deal))
    for _ in range(72):  # and 504 spanish hands of deal.cards + 1 cards
        for deal in range(1, 8):
            hand = rng.sample(_deck(3, 6), SPANISH_DEALT[deal] + 1)
            requests.append(_request("contract-spanish", hand, deal))
    return requests


def _near(rng: random.Random, pool: list[str], size: int, wild: list[str]) -> list[str]:
    """A hand built around few ranks and suits, with many wild cards, up to ``size`` cards."""
    ranks = rng.sample(RANKS, rng.randint(3, 7))
    suits = rng.sample(SUITS, rng.randint(1, 3))
    focus = [c for c in pool if c != "JK" and c[:-1] in ranks and c[-1] in suits]
    hand = rng.sample(wild, rng.randint(len(wild) // 2, len(wild)))
    rest = list(pool)
    for c in hand:
        rest.remove(c)
    while len(hand) < size:
        source = focus if focus and rng.random() < 0.75 else rest
        c = rng.choice(source)
        if c in rest:
            rest.remove(c)
            if c in focus:
                focus.remove(c)
            hand.append(c)
    rng.shuffle(hand)
    return hand


def _contract_adversarial(rng: random.Random) -> list[dict]:
    requests = []
    for i in range(100):  # nordic: every joker and red ace, duplicates, up to 25 cards
        deal = i % 7 + 1
        size = 25 if i % 2 == 0 else rng.randint(13, 25)
        wild = ["JK"] * 4 + ["AH", "AH", "AD", "AD"]
        hand = _near(rng, _deck(2, 4), size, wild)
        requests.append(_request("contract-nordic", hand, deal))
    for i in range(100):  # spanish: four decks and eight jokers, up to 25 cards
        deal = i % 7 + 1
        low, high = SPANISH_DEALT[deal] + 1, SPANISH_DEALT[deal] + 13
        size = high if i % 2 == 0 else rng.randint(low, high)
        hand = _near(rng, _deck(4, 8), size, ["JK"] * 8)
        requests.append(_request("contract-spanish", hand, deal))
    return requests


def _romme_random(rng: random.Random) -> list[dict]:
    return [_request("romme", rng.sample(_deck(2, 4), 15)) for _ in range(1000)]


def _romme_adversarial(rng: random.Random) -> list[dict]:
    requests = []
    for i in range(200):
        jokers = ["JK"] * (4 if i % 2 == 0 else rng.randint(1, 3))
        hand = _near(rng, _deck(2, 4), 15, jokers)
        options = {}
        if i % 3 == 0:
            options["ace_low_is_one"] = True
        request = _request("romme", hand)
        request["options"] = options
        requests.append(request)
    return requests


def _build() -> list[tuple[str, list[dict]]]:
    rng = random.Random(SEED)
    return [
        ("contract 13-card", _contract_random(rng)),
        ("contract adversarial", _contract_adversarial(rng)),
        ("romme 15-card", _romme_random(rng)),
        ("romme adversarial", _romme_adversarial(rng)),
    ]


CORPUS: list[tuple[str, list[dict]]] = _build()
