"""The plain-Python model the whole-app walk keeps beside the app: what the table wrote down.

It knows the rules only through the engine's arithmetic for one deal (a classic payment, a
hand's penalty); everything the app adds around a deal (order, numbers, undo, redo, bringing
back, corrections, players who come and go, starts, targets, the end of the game, copies
made by import and restore, evenings and the money they carry) it keeps on its own, so the
app's totals and ledgers can be compared with it after every step.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from decimal import Decimal

from rules.engine.evening import EveningGame as MoneyGame
from rules.engine.evening import ledger
from rules.engine.scoring import classic_ledger, classic_payment
from rules.engine.variants import CLASSIC, get_variant


@dataclass
class MDeal:
    """One deal as entered: who played (positions), how it ended, and what the engine makes
    of it (``scores`` by position; empty for an abandoned deal)."""

    players: list[int]
    entry: dict
    scores: dict[int, int]


@dataclass
class MSeat:
    name: str
    start: int = 0
    active: bool = True
    before: str = ""  # who played the seat before a newcomer took it over


@dataclass
class MGame:
    pk: int
    variant: str
    seats: list[MSeat]
    deals: list[MDeal] = field(default_factory=list)
    finished: bool = False
    total_deals: int | None = None
    target_score: int | None = None
    target_deals: int | None = None
    value_per_point: Decimal | None = None
    # deals taken away by undo or delete: history event id -> (number, deal)
    kept: dict[int, tuple[int, MDeal]] = field(default_factory=dict)
    brought_back: set[int] = field(default_factory=set)
    # A take-away that opened the ended game again: the game's version it left (kept event).
    resumed_at: dict[int, int] = field(default_factory=dict)
    creator: str = "A"

    @property
    def is_classic(self) -> bool:
        return self.variant == CLASSIC

    def totals(self) -> list[int]:
        return [
            seat.start + sum(d.scores.get(pos, 0) for d in self.deals)
            for pos, seat in enumerate(self.seats)
        ]

    def complete(self) -> bool:
        return self.total_deals is not None and len(self.deals) >= self.total_deals

    def target_reached(self) -> bool:
        if self.total_deals is not None:
            return False
        if self.target_deals and len(self.deals) >= self.target_deals:
            return True
        return bool(self.target_score) and any(t >= self.target_score for t in self.totals())

    def active_positions(self) -> list[int]:
        return [pos for pos, seat in enumerate(self.seats) if seat.active]

    def winners(self) -> list[int]:
        """The positions in first place: the best total among the players at the table (a
        player who left cannot win, docs/rules.md); everybody's when nobody is."""
        totals = self.totals()
        ranked = self.active_positions() or list(range(len(self.seats)))
        best = (max if self.is_classic else min)(totals[pos] for pos in ranked)
        return [pos for pos in ranked if totals[pos] == best]

    # --- what each accepted write does ------------------------------------------------------
    def record(self, deal: MDeal) -> None:
        assert not self.finished, "the app recorded a deal in a finished game"
        self.deals.append(deal)
        self._after_a_deal()

    def _after_a_deal(self) -> None:
        if self.complete() or self.target_reached():
            self.finished = True

    def edit(self, number: int, deal: MDeal) -> None:
        self.deals[number - 1] = deal

    def take_away(self, number: int, event: int, version: int) -> None:
        """``version``: the game's version this take-away left."""
        deal = self.deals.pop(number - 1)
        self.kept[event] = (number, deal)
        # A deal taken away from an ended game opens it again (the app's rule: the sheet
        # goes back to where the game was still being played).
        if self.finished and not self.complete():
            self.finished = False
            self.resumed_at[event] = version

    def bring_back(self, event: int, version: int) -> int:
        """``version``: the game's version before the deal comes back. A game that taking
        the deal away opened again ends again when nothing changed it since (every change
        moves the version by one): it is as it was (the app's ``restore_deal``)."""
        number, deal = self.kept[event]
        at = min(number, len(self.deals) + 1)
        self.deals.insert(at - 1, copy.deepcopy(deal))
        self.brought_back.add(event)
        if self.complete() or self.resumed_at.get(event) == version:
            self.finished = True
        else:
            self._after_a_deal()
        return at

    def can_bring_back(self, event: int) -> bool:
        return (
            event in self.kept
            and event not in self.brought_back
            and not self.finished
            and not self.complete()
        )

    def copy_as(self, pk: int) -> MGame:
        twin = copy.deepcopy(self)
        twin.pk = pk
        twin.kept = {}
        twin.brought_back = set()
        twin.resumed_at = {}
        return twin


def classic_deal(players: list[int], winner: int | None, entry: dict) -> MDeal:
    if winner is None:
        # An abandoned deal scores no one, and a seat plays in a deal when it has a score in
        # it: the deal has no players of its own (a correction of it asks the table now).
        return MDeal(players=[], entry=entry, scores={})
    payment = classic_payment(
        entry.get("wild_twos", 0),
        entry.get("jokers", 0),
        entry.get("first_turn") or None,
        bool(entry.get("one_suit")),
        twos_wild=entry.get("twos_wild", True),
    ).total
    return MDeal(players=players, entry=entry, scores=classic_ledger(players, winner, payment))


def penalty_deal(players: list[int], winner: int | None, points: dict[int, int], entry: dict):
    scores = {pos: (0 if pos == winner else points[pos]) for pos in players}
    return MDeal(players=players, entry=entry, scores=scores)


@dataclass
class MEvening:
    pk: int
    games: list[tuple[int, Decimal]] = field(default_factory=list)  # (game pk, stake)
    carried: dict[str, int] = field(default_factory=dict)  # name (casefolded) -> cents
    # every game whose money is inside ``carried`` (the evenings before, all the way back)
    carried_from: set[int] = field(default_factory=set)
    closed: bool = False
    creator: str = "A"
    # The evening whose balances this one starts from: its start is that evening's end as
    # it is now (a correction after the carry goes forward), not ``carried`` as it was.
    previous: int | None = None

    def start(self, games: dict[int, MGame], evenings: dict[int, MEvening]) -> dict[str, int]:
        if self.previous is None or self.previous not in evenings:
            return dict(self.carried)
        before = evenings[self.previous].ledger(games, evenings).balances
        return {name: cents for name, cents in before.items() if cents}

    def ledger(self, games: dict[int, MGame], evenings: dict[int, MEvening] | None = None):
        money = []
        for pk, stake in self.games:
            game = games[pk]
            totals = {
                seat.name.casefold(): t for seat, t in zip(game.seats, game.totals(), strict=True)
            }
            money.append(MoneyGame(totals=totals, variant_id=game.variant, stake=stake))
        carried = self.start(games, evenings) if evenings is not None else dict(self.carried)
        return ledger(carried, money)


def variant_players(variant_id: str) -> tuple[int, int]:
    v = get_variant(variant_id)
    return v.min_players, v.max_players
