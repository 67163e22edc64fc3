"""The money of an evening: several games played by the same people, one running ledger.

Every game of an evening has a stake, the money one point is worth. What a player wins or
loses in one game (docs/rules.md, "Evenings and money"):

- classic: the player's total × the stake (the payments of a deal already sum to zero);
- a penalty game (contract games, Rommé): every player pays each player with fewer points
  the difference × the stake, so a player's money is (the sum of all totals − the number of
  players × his own total) × the stake, n × (average − own total) × stake.

Money is counted in whole cents, so every game, every running balance and the carried
balances sum to zero exactly; the settle-up is the engine's own (:func:`settle_up`).
Player keys are whatever the caller uses (names, ids); their order is kept.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypeVar

from .messages import gettext_noop
from .scoring import ScoreError, Standing, Transfer, settle_up, standings
from .variants import CLASSIC, get_variant

K = TypeVar("K", bound=Hashable)

CENT = Decimal("0.01")


def to_cents(amount: Decimal | int) -> int:
    """An amount of money in whole cents; more than two decimals is an error."""
    if isinstance(amount, bool) or not isinstance(amount, int | Decimal):
        raise ScoreError(
            gettext_noop("the value of a point must be an int or a Decimal, not %(value)r"),
            value=amount,
        )
    if isinstance(amount, Decimal) and not amount.is_finite():
        raise ScoreError(
            gettext_noop("the value of a point must be a number, not %(value)s"), value=amount
        )
    cents = Decimal(amount) * 100
    if cents != cents.to_integral_value():
        raise ScoreError(
            gettext_noop("an amount of money has at most two decimals, not %(value)s"),
            value=amount,
        )
    return int(cents)


def from_cents(cents: int) -> Decimal:
    return (Decimal(cents) * CENT).quantize(CENT)


def game_points(totals: Mapping[K, int], variant_id: str) -> dict[K, int]:
    """The points of a game that are paid for: the totals themselves in the classic game,
    (sum of the totals − n × own total) in a penalty game. They sum to zero."""
    keys = list(totals)
    for key in keys:
        value = totals[key]
        if not isinstance(value, int) or isinstance(value, bool):
            raise ScoreError(
                gettext_noop("the total of %(player)s must be a whole number"), player=key
            )
    get_variant(variant_id)  # an unknown game is an error
    if variant_id == CLASSIC:
        if sum(totals.values()) != 0:
            raise ScoreError(
                gettext_noop("the balances must sum to zero, not %(total)s"),
                total=sum(totals.values()),
            )
        return {key: totals[key] for key in keys}
    whole = sum(totals.values())
    n = len(keys)
    return {key: whole - n * totals[key] for key in keys}


def game_money(totals: Mapping[K, int], variant_id: str, stake: Decimal | int) -> dict[K, int]:
    """Each player's money from one game, in cents (positive: wins)."""
    cents = to_cents(stake)
    if cents <= 0:
        raise ScoreError(
            gettext_noop("the value of a point must be more than 0, not %(value)s"), value=stake
        )
    return {key: points * cents for key, points in game_points(totals, variant_id).items()}


@dataclass(frozen=True)
class EveningGame:
    """One game of an evening: its players' final totals, the game, its stake."""

    totals: Mapping[object, int]
    variant_id: str
    stake: Decimal


@dataclass(frozen=True)
class Ledger:
    """The running ledger of an evening, every amount in cents.

    ``players`` in order of first appearance (the carried balances first, then the seats
    of each game); ``games``: each game's money per player (0 for who did not play it);
    ``running``: the balances after each game; ``balances``: the last of them.
    """

    players: tuple
    carried: dict
    games: tuple[dict, ...]
    running: tuple[dict, ...]

    @property
    def balances(self) -> dict:
        return self.running[-1] if self.running else dict(self.carried)

    def standings(self) -> list[Standing]:
        """Players by balance, the highest first; tied players share a place (1, 1, 3)."""
        return standings(self.balances, get_variant(CLASSIC))

    def settle(self) -> list[Transfer]:
        """The fewest payments that square everybody, with amounts in money (Decimal)."""
        return settle_up(self.balances, CENT)

    def carry(self) -> dict:
        """The balances to start the next evening with: every player not at zero."""
        return {key: cents for key, cents in self.balances.items() if cents}


def ledger(carried: Mapping[Any, int], games: Sequence[EveningGame]) -> Ledger:
    """The ledger of an evening from its carried balances (cents) and its games, in order."""
    for key, cents in carried.items():
        if not isinstance(cents, int) or isinstance(cents, bool):
            raise ScoreError(
                gettext_noop("%(player)s: the balance must be a whole number"), player=key
            )
    if sum(carried.values()) != 0:
        raise ScoreError(
            gettext_noop("the balances must sum to zero, not %(total)s"),
            total=sum(carried.values()),
        )
    players: list = list(carried)
    seen = set(players)
    money = []
    for game in games:
        amounts = game_money(game.totals, game.variant_id, game.stake)
        for player in amounts:
            if player not in seen:
                seen.add(player)
                players.append(player)
        money.append(amounts)
    balance = {key: carried.get(key, 0) for key in players}
    per_game: list[dict] = []
    running: list[dict] = []
    for amounts in money:
        row = {key: amounts.get(key, 0) for key in players}
        balance = {key: balance[key] + row[key] for key in players}
        per_game.append(row)
        running.append(balance)
    return Ledger(
        players=tuple(players),
        carried={key: carried.get(key, 0) for key in players},
        games=tuple(per_game),
        running=tuple(running),
    )


__all__ = [
    "EveningGame",
    "Ledger",
    "from_cents",
    "game_money",
    "game_points",
    "ledger",
    "to_cents",
]
