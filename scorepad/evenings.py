"""Evenings: who may see and change one, and its page as the template shows it (its forms
are in ``forms/evenings.py``).

An evening is shared like a game (``kernel.Shared``, ``access.shared_view``). The phone's
cookie of opened links (``access.SEEN``) lists evening links too, for the games list.

The money is the engine's (``rules.engine.evening``): each game's final totals (the
``Seat.total`` kept after every change) times its stake, a running ledger from the
balances carried from the evening before, standings, the settle-up and the chart. Players
are people of the evening's circle (a merged person counts as one); an evening outside any
circle (one from before circles) matches its players across games by name, case aside.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Prefetch
from django.http import HttpRequest
from django.utils.formats import date_format
from django.utils.translation import gettext

from rules.engine.evening import EveningGame as GameMoney
from rules.engine.evening import Ledger, ledger
from rules.engine.scoring import ScoreError, Standing

from . import charts
from .access import EVENINGS, known, shared_view
from .models import Evening, EveningGame, Event, Game, Person, Seat, roots
from .naming import name_key

# --- access ------------------------------------------------------------------------------------


def evening_prefetch() -> list:
    """What the page reads of an evening: its games with their seats and players, and the
    balances carried in (five queries whatever the number of games)."""
    seats = Seat.objects.order_by("position")
    return [
        Prefetch(
            "games",
            queryset=EveningGame.objects.select_related("game")
            .prefetch_related(Prefetch("game__seats", queryset=seats))
            .order_by("position"),
        ),
        "carried",
    ]


def evening_view(*, editor: bool = False):
    """``access.shared_view`` of an evening."""
    return shared_view(EVENINGS, editor=editor)


def known_evenings(request: HttpRequest) -> list[Evening]:
    """The evenings this phone started or opened a link of (``access.known``)."""
    return known(request, EVENINGS, Evening.objects.with_date())


# --- one evening per game ---------------------------------------------------------------------


def evenings_of(games: list[Game]) -> dict[int, Evening]:
    """The evening each of ``games`` is in, by game id (a game is in one evening at most)."""
    entries = EveningGame.objects.filter(game__in=[g.pk for g in games]).select_related("evening")
    return {entry.game_id: entry.evening for entry in entries}


def not_in_an_evening(games: list[Game]) -> list[Game]:
    """The games that may still be added to an evening: those in none, open or closed."""
    taken = evenings_of(games)
    return [g for g in games if g.pk not in taken]


def counted_elsewhere_message(evening: Evening) -> str:
    """Why a game cannot be added: the evening (named, with its date) it counts in."""
    date = date_format(evening.date, "SHORT_DATE_FORMAT")
    if evening.name:
        return gettext(
            "That game counts in the evening “%(name)s” of %(date)s already: a game's "
            "money counts in one evening only."
        ) % {"name": evening.name, "date": date}
    return gettext(
        "That game counts in the evening of %(date)s already: a game's money counts in "
        "one evening only."
    ) % {"date": date}


# --- the page -------------------------------------------------------------------------------


@dataclass
class GameLine:
    """One game of the evening as its row of the ledger shows it."""

    number: int
    game: Game
    stake: Decimal
    names: list[str]
    money: list[int]  # cents per player of the evening, in the evening's order
    running: list[int]  # the balances after this game

    @property
    def cells(self) -> list[tuple[int, int]]:
        return list(zip(self.money, self.running, strict=True))


@dataclass
class EveningPage:
    evening: Evening
    names: list[str]  # the players, as first written
    carried: list[int] | None  # cents per player, None when the evening starts from zero
    lines: list[GameLine]
    balances: list[int]
    standings: list[tuple[str, Standing]]
    transfers: list[tuple[str, str, Decimal]]
    carry: dict[str, tuple[str, int | None, int]] = field(default_factory=dict)
    in_progress: int = 0

    @property
    def chart(self) -> charts.Chart | None:
        """Each player's balance from the start of the evening to the end of each game."""
        if not self.lines:
            return None
        start = self.carried or [0] * len(self.names)
        return charts.balances(
            self.names,
            [[start[i]] + [line.running[i] for line in self.lines] for i in range(len(start))],
        )


def player_key(name: str) -> str:
    return name_key(name)


def build_evening(evening: Evening) -> EveningPage:
    """The ledger of an evening from its prefetched games, seats and carried balances. In a
    circle's evening a player is a person of the circle (someone merged into another counts
    as that one, under their name); outside, a name (case aside)."""
    who = roots(evening.circle_id) if evening.circle_id is not None else {}
    people = (
        dict(Person.objects.filter(pk__in=set(who.values())).values_list("pk", "name"))
        if who
        else {}
    )

    def key_of(name: str, person_id: int | None) -> tuple[str, str, int | None]:
        if person_id is not None and person_id in who:
            root = who[person_id]
            return f"p{root}", people[root], root
        return player_key(name), name, None

    names: dict[str, str] = {}
    persons: dict[str, int | None] = {}
    carried: dict[str, int] = {}
    for balance in evening.carried.all():
        key, name, person = key_of(balance.name, balance.person_id)
        names.setdefault(key, name)
        persons.setdefault(key, person)
        carried[key] = carried.get(key, 0) + balance.cents
    games = []
    entries = list(evening.games.all())
    for entry in entries:
        totals: dict[object, int] = {}
        for seat in entry.game.seats.all():
            key, name, person = key_of(seat.name, seat.person_id)
            names.setdefault(key, name)
            persons.setdefault(key, person)
            totals[key] = totals.get(key, 0) + seat.total
        games.append(GameMoney(totals, entry.game.variant_id, entry.stake))
    book: Ledger = ledger(carried, games)
    keys = list(book.players)
    lines = [
        GameLine(
            number=i,
            game=entry.game,
            stake=entry.stake,
            names=[seat.name for seat in entry.game.seats.all()],
            money=[money[k] for k in keys],
            running=[running[k] for k in keys],
        )
        for i, (entry, money, running) in enumerate(
            zip(entries, book.games, book.running, strict=True), start=1
        )
    ]
    try:
        transfers = [(names[t.payer], names[t.payee], t.amount) for t in book.settle()]
    except ScoreError:  # pragma: no cover - the ledger sums to zero by construction
        transfers = []
    return EveningPage(
        evening=evening,
        names=[names[k] for k in keys],
        carried=[book.carried[k] for k in keys] if carried else None,
        lines=lines,
        balances=[book.balances[k] for k in keys],
        standings=[(names[s.player], s) for s in book.standings()],
        transfers=transfers,
        carry={k: (names[k], persons[k], cents) for k, cents in book.carry().items()},
        in_progress=sum(1 for e in entries if not e.game.is_finished),
    )


# --- corrections after a carry ---------------------------------------------------------------


def adjustments(
    evening: Evening,
) -> tuple[list[list[tuple[str, int]]], list[list[tuple[str, int]]]]:
    """The differences a correction after a carry moved along the chain of evenings
    (``models.carry_difference``): those added to the balances this evening starts from,
    and those a correction of this closed evening's games sent to the next one; each a list
    of (name, cents) per correction, oldest first."""

    def lines(events) -> list[list[tuple[str, int]]]:
        out = []
        for event in events:
            rows = event.details.get("balances") if isinstance(event.details, dict) else None
            if isinstance(rows, list):
                out.append(
                    [(str(r[0]), int(r[1])) for r in rows if isinstance(r, list) and len(r) == 2]
                )
        return out

    incoming = Event.objects.filter(evening=evening, kind="adjusted").order_by("pk")
    outgoing: list = []
    if evening.next_evening_id is not None:
        outgoing = [
            e
            for e in Event.objects.filter(
                evening_id=evening.next_evening_id, kind="adjusted"
            ).order_by("pk")
            if isinstance(e.details, dict) and e.details.get("from") == evening.pk
        ]
    return lines(incoming), lines(outgoing)
