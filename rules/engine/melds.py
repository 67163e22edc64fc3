"""Meld validation: runs, sets and Rommé groups, and what each wild card stands for.

INTERFACE STUB — being implemented. Signatures are fixed; other modules rely on them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card
from .variants import DealSpec, Variant

RUN = "run"
SET = "set"
GROUP = "group"


class MeldError(ValueError):
    """Cards that do not form the meld asked for; the message says why."""


@dataclass(frozen=True, slots=True)
class Placed:
    """A card as laid in a meld: ``card`` is the card itself, ``stands_for`` what it counts as.

    A natural card stands for itself. A card that may be wild and stands for itself
    (a 2 at the 2 position of its own suit in the classic game, a red ace at an ace
    position of its own suit or in a set of aces in the Nordic game) is natural.
    """

    card: Card
    stands_for: Card

    @property
    def is_wild(self) -> bool:
        return self.card != self.stands_for

    def as_json(self) -> dict[str, str]:
        return {"card": self.card.code, "as": self.stands_for.code}


@dataclass(frozen=True, slots=True)
class Meld:
    kind: str  # RUN, SET or GROUP
    placed: tuple[Placed, ...]  # runs in rank order, low to high

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(p.card for p in self.placed)

    @property
    def wild_count(self) -> int:
        return sum(1 for p in self.placed if p.is_wild)

    def as_json(self) -> list[dict[str, str]]:
        return [p.as_json() for p in self.placed]


def validate_meld(
    placed: Sequence[Placed] | Meld,
    variant: Variant,
    options: Mapping[str, Any] | None = None,
    kind: str | None = None,
    deal: DealSpec | None = None,
) -> Meld:
    """Check a meld whose roles are given; return it as a Meld or raise MeldError."""
    raise NotImplementedError


def find_meld(
    cards: Sequence[Card],
    variant: Variant,
    options: Mapping[str, Any] | None = None,
    kind: str | None = None,
    deal: DealSpec | None = None,
) -> Meld:
    """Decide whether unordered cards form a meld; choose the roles of wild cards."""
    raise NotImplementedError
