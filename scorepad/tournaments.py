"""A club tournament: several series of games at small tables, one more thing shared by links
(``kernel.Shared``), with the kernel's change protocol and history; no copy of it.

Its links: the director's (the kernel's editor link: it sets the tournament up and changes
it), the viewers' (the big screen, anyone following), and the registration link (the QR code
on the director's screen: a phone that opens it may enter one player). Each player entered
(``Entrant``) has a link of their own, kept on their phone: it shows where they sit.

Every change is one ``change`` of the tournament (one version, one entry of its history): a
player entered by the director or by registration, a player who drops out. The series and
their tables are games of the score pad (docs/rules.md, "Tournament").
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, ClassVar

from django.db import models
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules.engine import tournament as engine
from rules.engine.variants import VARIANT_IDS, get_variant

from .kernel import Actor, Event, Shared, SharedQuerySet, StaleVersion, new_token
from .models import NAME_MAX, Circle, Game, Person, Seat
from .naming import name_key, normal_name

SERIES_MAX = 12  # series a tournament may have
DEALS_MAX = 30  # deals a series may have (classic and Rommé)
MINUTES_MAX = 240  # minutes a series may last
PLAYERS_MAX = 400  # players a tournament may enter


class TournamentClosed(Exception):
    """Registration ended (the last series started): no one enters any more."""


class TournamentFull(Exception):
    """The tournament has PLAYERS_MAX players."""


class EntrantNameTaken(Exception):
    """Another player of the tournament has this name: two players are told apart by name."""

    def __init__(self, entrant: Entrant):
        super().__init__(entrant.name)
        self.entrant = entrant


class SeriesOpen(Exception):
    """A table of the series in play has not confirmed its result: the next cannot start."""

    def __init__(self, tables: list[int]):
        super().__init__(tables)
        self.tables = tables


class TournamentOver(Exception):
    """Every series has been played."""


class NoProposal(Exception):
    """The next series has no proposed seating (or the players changed since it was
    proposed): the director proposes it first, and starts what was shown."""


class TableTooSmall(Exception):
    """A player's drop-out mid-series would leave their table's game with fewer players
    than the variant needs (the game's rule for a player who leaves)."""

    def __init__(self, table: int, low: int):
        super().__init__(table, low)
        self.table = table
        self.low = low


class NotConfirmable(Exception):
    """What a player's confirmation cannot be: ``why`` says it in words."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


class Tournament(Shared):
    """A club tournament: its setup, its players (``Entrant``) and its series."""

    OWNER = "tournament"
    LINKS: ClassVar[dict[str, str]] = {
        **Shared.LINKS,
        "registration": "registration_token",
    }

    class Ranking(models.TextChoices):
        PLACES = engine.POINTS_FIRST, _("placement points first")
        RELATIVE = engine.RELATIVE_FIRST, _("score against the table first")

    class Seating(models.TextChoices):
        RESULT = engine.RESULT, _("by the running result")
        DRAW = engine.DRAW, _("drawn again")
        APART = engine.APART, _("so that players meet as rarely as possible")

    name = models.CharField(_("name"), max_length=NAME_MAX)
    variant_id = models.CharField(
        _("variant"), max_length=32, choices=[(v, v) for v in VARIANT_IDS], db_column="variant"
    )
    options = models.JSONField(default=dict)
    series = models.PositiveSmallIntegerField(default=3)
    # A series of the classic game or Rommé ends after ``deals`` deals, or, with ``minutes``,
    # when the clock runs out (the deal in play is the last); the contract games play their
    # seven deals and the clock only warns.
    deals = models.PositiveSmallIntegerField(null=True, blank=True)
    minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    ranking = models.CharField(max_length=16, choices=Ranking.choices, default=Ranking.PLACES)
    seating = models.CharField(max_length=16, choices=Seating.choices, default=Seating.RESULT)
    # The seed of every draw, shown with it: a club can draw the same seating again.
    seed = models.CharField(max_length=12, default=engine.new_seed)
    # The series in play (0: none yet, players enter), and when the director seated it: the
    # round clock counts ``minutes`` from then.
    current = models.PositiveSmallIntegerField(default=0)
    series_started = models.DateTimeField(null=True, blank=True)
    registration_token = models.CharField(max_length=64, unique=True, default=new_token)
    # The club: its people are the players, its ratings count the tournament's games.
    circle = models.ForeignKey(
        Circle, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments"
    )
    # The next series' seating as the director was shown it (``propose``), with the swaps
    # made since: {"series", "tables" (start numbers), "how", "seed", "swaps"}; None when
    # none is proposed. Any change that could seat it otherwise drops it (``change``).
    proposal = models.JSONField(null=True, blank=True, default=None)

    objects = SharedQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def clock_ends(self) -> datetime | None:
        """When the round clock of the series in play runs out (None: no clock)."""
        if not self.minutes or self.series_started is None:
            return None
        return self.series_started + timedelta(minutes=self.minutes)

    @property
    def time_is_up(self) -> bool:
        ends = self.clock_ends
        return ends is not None and timezone.now() >= ends

    @property
    def registration_open(self) -> bool:
        """Players enter until the last series starts (late entries join the next one)."""
        return self.current < self.series

    def players(self) -> list[Entrant]:
        return list(self.entrants.order_by("number"))

    # The changes that leave a proposed seating as it is: any other (a player entered or
    # dropped, a table confirmed or corrected) could seat the series otherwise.
    KEEP_PROPOSAL = frozenset({"proposed", "swapped", "link_replaced"})

    def change(
        self,
        *,
        version: int,
        once: str | None,
        actor: Actor,
        kind: str,
        apply: Callable[[Any], dict[str, Any]],
    ) -> Event:
        """``kernel.Shared.change``, dropping a proposed seating the change makes out of date
        (its history entry says so: the director proposes it again)."""

        def whole(tournament: Tournament) -> dict[str, Any]:
            details = apply(tournament)
            if kind not in self.KEEP_PROPOSAL and kind != "series":
                held = Tournament.objects.filter(pk=tournament.pk, proposal__isnull=False)
                if held.update(proposal=None):  # one statement: dropped if there was one
                    tournament.proposal = None
                    details["proposal_dropped"] = True
            return details

        return super().change(version=version, once=once, actor=actor, kind=kind, apply=whole)

    def enter(self, name: str, *, version: int, once: str, actor: Actor) -> Event:
        """A new player, with the next start number and a link of their own; from the next
        series on (the first, before the tournament starts)."""
        name = normal_name(name) or name

        def apply(tournament: Tournament) -> dict[str, Any]:
            entrant = tournament._new_entrant(name, tournament.person_for(name))
            return {"entrant": entrant.pk, "number": entrant.number, "name": entrant.name}

        return self.change(version=version, once=once, actor=actor, kind="entered", apply=apply)

    def enter_people(self, pks: list[int], *, version: int, once: str, actor: Actor) -> Event:
        """The circle's people ``pks`` enter, each with the next start number (one change)."""

        def apply(tournament: Tournament) -> dict[str, Any]:
            circle = Circle.objects.get(pk=tournament.circle_id or 0)
            circle.lock()
            people = list(circle.persons.filter(pk__in=pks, merged_into__isnull=True))
            entered = [tournament._new_entrant(p.name, p) for p in people]
            return {"entrants": [e.pk for e in entered], "numbers": [e.number for e in entered],
                    "name": ", ".join(e.name for e in entered)}  # fmt: skip

        return self.change(version=version, once=once, actor=actor, kind="entered", apply=apply)

    def _new_entrant(self, name: str, person: Person | None) -> Entrant:
        """A new player named ``name`` (the circle's ``person``), numbered next."""
        if not self.registration_open:
            raise TournamentClosed
        name = person.name if person is not None else name
        entrants = self.entrants.all()
        # The same name, or the same person of the circle under a name they had before.
        taken = next(
            (e for e in entrants
             if e.key == name_key(name) or (person is not None and e.person_id == person.pk)),
            None,
        )  # fmt: skip
        if taken is not None:
            raise EntrantNameTaken(taken)
        if len(entrants) >= PLAYERS_MAX:
            raise TournamentFull
        number = (entrants.aggregate(m=Max("number"))["m"] or 0) + 1
        return Entrant.objects.create(
            tournament=self,
            number=number,
            name=name,
            person=person,
            first_series=self.current + 1,
        )

    def person_for(self, name: str) -> Person | None:
        """In a tournament of a circle, the circle's person ``name`` is (a newcomer joins the
        circle as a new person), with the circle locked as a game's join does; else None."""
        if self.circle_id is None:
            return None
        circle = Circle.objects.get(pk=self.circle_id)
        circle.lock()
        return circle.person_for(name)

    def drop_out(self, entrant_pk: int, *, version: int, once: str, actor: Actor) -> Event:
        """A player leaves the tournament: from the series in play on, seated in none after
        it. Mid-series they leave their table's game (a leaver, docs/rules.md, "Players who
        come and go"): the table plays on and the ranking puts them last. As in the game, a
        leaver may not leave a table with fewer players than the variant needs
        (``TableTooSmall``); once that table's game has ended they may drop out."""

        def apply(tournament: Tournament) -> dict[str, Any]:
            entrant = tournament.entrants.get(pk=entrant_pk, dropped_after__isnull=True)
            entrant.dropped_after = tournament.current
            entrant.save(update_fields=["dropped_after"])
            details = {"entrant": entrant.pk, "name": entrant.name, "series": tournament.current}
            seat = (
                entrant.seated.filter(series=tournament.current).select_related("table").first()
                if tournament.current
                else None
            )
            if seat is not None:
                game = Game.objects.get(pk=seat.table.game_id)
                seats = list(game.seats.all())
                mine = next(s for s in seats if s.position == seat.position)
                if not game.is_finished and mine.active:
                    low = get_variant(tournament.variant_id).min_players
                    if sum(1 for s in seats if s.active) <= low:
                        raise TableTooSmall(seat.table.number, low)
                    game.seat_leaves(seat.position, version=game.version, once=None, actor=actor)
                    details["table"] = seat.table.number
            return details

        return self.change(version=version, once=once, actor=actor, kind="dropped", apply=apply)

    # --- series ----------------------------------------------------------------------------
    def tables_of(self, series: int) -> list[Table]:
        """The tables of one series, table 1 first, with their games and players."""
        return list(
            self.tables.filter(series=series)
            .select_related("game", "confirmed_by")
            .prefetch_related("seated__entrant", "game__seats")
            .order_by("number")
        )

    @property
    def series_done(self) -> int:
        """The series whose every table has confirmed its result (0: none yet)."""
        if self.current and all(t.confirmed for t in self.tables_of(self.current)):
            return self.current
        return max(self.current - 1, 0)

    def seatings(self) -> list[engine.Seating[int]]:
        """Who sat at which table in each series started, by start number."""
        out = []
        for series in range(1, self.current + 1):
            tables = self.tables_of(series)
            out.append(
                engine.Seating(
                    tuple(tuple(s.entrant.number for s in t.seated.all()) for t in tables),
                    self.seating,
                )
            )
        return out

    def results(
        self, series: int, *, confirmed_only: bool = True, tables: list[Table] | None = None
    ) -> list[engine.TableResult]:
        """Each table's game of ``series`` as the ranking reads it: the seats' totals by start
        number, and who left; only the confirmed tables' (``confirmed_only``). ``tables``: the
        series' tables read already (``tables_of``)."""
        out = []
        for table in self.tables_of(series) if tables is None else tables:
            if confirmed_only and not table.confirmed:
                continue
            seats = {s.position: s for s in table.game.seats.all()}
            numbers = {s.position: s.entrant.number for s in table.seated.all()}
            out.append(
                engine.TableResult(
                    {numbers[p]: seats[p].total for p in sorted(numbers)},
                    frozenset(numbers[p] for p in numbers if not seats[p].active),
                )
            )
        return out

    def ranked(
        self,
        through: int | None = None,
        *,
        players: list[Entrant] | None = None,
        current: list[Table] | None = None,
    ) -> engine.Ranking[int]:
        """The ranking of every player after the confirmed tables of the series played (of
        the first ``through`` series only, when given); ``players`` and the tables of the
        series in play (``current``) when read already."""
        players = self.players() if players is None else players
        last = self.current if through is None else min(through, self.current)
        series = [
            self.results(n, tables=current if n == self.current else None)
            for n in range(1, last + 1)
        ]
        return engine.rank(
            [p.number for p in players],
            series,
            get_variant(self.variant_id),
            self.seed,
            dropped=[p.number for p in players if not p.playing],
            order=self.ranking,
        )

    def _next_players(self) -> list[Entrant]:
        """The players the next series seats: every player still playing, entered by then
        (a drop-out is seated in no later series: the tables are rebalanced here)."""
        if self.current >= self.series:
            raise TournamentOver
        if self.current:
            open_tables = [t.number for t in self.tables_of(self.current) if not t.confirmed]
            if open_tables:
                raise SeriesOpen(open_tables)
        number = self.current + 1
        return [p for p in self.players() if p.playing and p.first_series <= number]

    def proposed(self) -> engine.Seating[int] | None:
        """The proposed seating of the next series, as the engine has it, or None."""
        p = self.proposal
        if not p or p.get("series") != self.current + 1:
            return None
        return engine.Seating(
            tuple(tuple(t) for t in p["tables"]),
            p["how"],
            p["seed"],
            tuple((a, b) for a, b in p["swaps"]),
        )

    def _store_proposal(self, seating: engine.Seating[int]) -> dict[str, Any]:
        self.proposal = {
            "series": self.current + 1,
            "tables": [list(t) for t in seating.tables],
            "how": seating.how,
            "seed": seating.seed,
            "swaps": [list(pair) for pair in seating.swaps],
        }
        Tournament.objects.filter(pk=self.pk).update(proposal=self.proposal)
        return {k: self.proposal[k] for k in ("series", "tables", "how", "seed")}

    def propose(self, *, version: int, once: str, actor: Actor) -> Event:
        """The seating of the next series, stored for the director to see, swap and start:
        drawn from the seed for the first (and for every series drawn again), else by the
        running result or apart, as the tournament's setting says."""

        def apply(tournament: Tournament) -> dict[str, Any]:
            players = tournament._next_players()
            seating = tournament._seat(tournament.current + 1, [p.number for p in players])
            return tournament._store_proposal(seating)

        return self.change(version=version, once=once, actor=actor, kind="proposed", apply=apply)

    def swap(self, a: int, b: int, *, version: int, once: str, actor: Actor) -> Event:
        """The director swaps two players (start numbers) of the proposed seating (the
        engine's ``swap``): each takes the other's seat."""

        def apply(tournament: Tournament) -> dict[str, Any]:
            seating = tournament.proposed()
            if seating is None:
                raise NoProposal
            details = tournament._store_proposal(engine.swap(seating, a, b))
            names = dict(
                tournament.entrants.filter(number__in=(a, b)).values_list("number", "name")
            )
            return {**details, "numbers": [a, b], "name": f"{names[a]} ⇄ {names[b]}"}

        return self.change(version=version, once=once, actor=actor, kind="swapped", apply=apply)

    def start_series(self, *, version: int, once: str, actor: Actor) -> Event:
        """Seat the proposed seating of the next series, exactly as the director was shown it
        (``propose``, ``swap``: the form's version is the proposal's), and start each table's
        game of the score pad. The series in play must be confirmed at every table first."""

        def apply(tournament: Tournament) -> dict[str, Any]:
            players = tournament._next_players()
            seating = tournament.proposed()
            by_number = {p.number: p for p in players}
            if seating is None or sorted(seating.players) != sorted(by_number):
                raise NoProposal
            number = tournament.current + 1
            tournament.series_started = timezone.now()  # the round clock starts
            for t, numbers in enumerate(seating.tables, start=1):
                tournament._table(number, t, [by_number[n] for n in numbers], actor)
            Tournament.objects.filter(pk=tournament.pk).update(
                current=number, proposal=None, series_started=tournament.series_started
            )
            tournament.current, tournament.proposal = number, None
            return {"series": number, "tables": [list(t) for t in seating.tables],
                    "how": seating.how, "seed": seating.seed,
                    "swaps": [list(pair) for pair in seating.swaps],
                    "started": tournament.series_started.isoformat()}  # fmt: skip

        return self.change(version=version, once=once, actor=actor, kind="series", apply=apply)

    def correct(
        self, table: Table, game_version: int, kind: str, deal: int | None, actor: Actor
    ) -> None:
        """The director changed a confirmed table's game (``Game.change``, in its
        transaction): the confirmation is void, and the tournament's history says which
        table and which deal, as the game's does."""

        def apply(tournament: Tournament) -> dict[str, Any]:
            return {"series": table.series, "table": table.number, "deal": deal,
                    "change": kind, "game_version": game_version}  # fmt: skip

        version = Tournament.objects.filter(pk=self.pk).values_list("version", flat=True).get()
        self.change(version=version, once=None, actor=actor, kind="corrected", apply=apply)

    def _seat(self, number: int, players: list[int]) -> engine.Seating[int]:
        variant = get_variant(self.variant_id)
        if number == 1 or self.seating == engine.DRAW:
            return engine.draw(players, variant, self.seed, number)
        ranked = [n for n in self.ranked().players if n in set(players)]
        if self.seating == engine.RESULT:
            return engine.seat_by_result(ranked, variant)
        return engine.seat_apart(ranked, variant, self.seatings(), self.seed, number)

    def _table(self, series: int, number: int, players: list[Entrant], actor: Actor) -> None:
        """One table's game of a series: an ordinary game of the score pad, its seats the
        players in seating order; a series of the classic game or Rommé ends after the
        tournament's deals (the game's target) or when the round clock runs out (the game's
        ``clock_ends``: the deal in play is the last; the contract games are only warned)."""
        variant = get_variant(self.variant_id)
        specs = variant.schedule if variant.is_contract else None
        game = Game.objects.create(
            variant_id=self.variant_id,
            options=self.options or variant.resolve_options({}),
            schedule=[spec.as_dict() for spec in specs] if specs else None,
            target_deals=None if variant.is_contract else self.deals,
            clock_ends=self.clock_ends,
            circle=self.circle,
        )
        Seat.objects.bulk_create(
            Seat(game=game, position=i, name=p.name, person_id=p.person_id)
            for i, p in enumerate(players)
        )
        game.start(
            actor=actor, details={"tournament": self.name, "series": series, "table": number}
        )
        table = Table.objects.create(tournament=self, series=series, number=number, game=game)
        TableSeat.objects.bulk_create(
            TableSeat(table=table, entrant=p, series=series, position=i)
            for i, p in enumerate(players)
        )

    def confirm(
        self,
        table: Table,
        player: Entrant,
        *,
        seen: int | None = None,
        version: int,
        once: str,
        actor: Actor,
    ) -> Event:
        """A seated player confirms their table's result, from their own link: bound to the
        game's version (any later change of the game voids it). Not the phone that made the
        game's last change: another player's. ``seen``: the game's version the player's page
        showed; a change of that game since makes the confirmation stale (``StaleVersion``),
        whatever else of the tournament changed meanwhile."""

        def apply(tournament: Tournament) -> dict[str, Any]:
            game = Game.objects.get(pk=table.game_id)
            if seen is not None and game.version != seen:
                raise StaleVersion
            if not table.seated.filter(entrant=player).exists():
                raise NotConfirmable(str(_("Only a player of this table can confirm it.")))
            if not game.is_finished:
                raise NotConfirmable(str(_("The table's game has not ended yet.")))
            last = game.history().first()
            if last is not None and actor.device and last.device == actor.device:
                raise NotConfirmable(
                    str(_("Another player of the table confirms, from their own phone."))
                )
            Table.objects.filter(pk=table.pk).update(
                confirmed_version=game.version, confirmed_by=player, note=""
            )
            return {"series": table.series, "table": table.number, "name": player.name,
                    "game_version": game.version}  # fmt: skip

        return self.change(version=version, once=once, actor=actor, kind="confirmed", apply=apply)

    def reject(
        self,
        table: Table,
        player: Entrant,
        note: str,
        *,
        seen: int | None = None,
        version: int,
        once: str,
        actor: Actor,
    ) -> Event:
        """A seated player disagrees with their table's result: the note is shown at the
        table until it is corrected and confirmed. ``seen`` as for ``confirm``."""

        def apply(tournament: Tournament) -> dict[str, Any]:
            if seen is not None and Game.objects.get(pk=table.game_id).version != seen:
                raise StaleVersion
            if not table.seated.filter(entrant=player).exists():
                raise NotConfirmable(str(_("Only a player of this table can confirm it.")))
            Table.objects.filter(pk=table.pk).update(confirmed_version=None, note=note)
            return {"series": table.series, "table": table.number, "name": player.name,
                    "note": note}  # fmt: skip

        return self.change(version=version, once=once, actor=actor, kind="rejected", apply=apply)


class Table(models.Model):
    """One table of one series: a game of the score pad, and its confirmation."""

    tournament = models.ForeignKey("Tournament", on_delete=models.CASCADE, related_name="tables")
    series = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="tournament_table")
    # The game's version a seated player confirmed (None: not confirmed); a later change of
    # the game voids it.
    confirmed_version = models.PositiveIntegerField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        "Entrant", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    note = models.CharField(max_length=200, blank=True, default="")  # why it was rejected

    class Meta:
        ordering = ["series", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "series", "number"], name="table_number_once"
            ),
        ]

    def __str__(self) -> str:
        return f"series {self.series} table {self.number}"

    @property
    def confirmed(self) -> bool:
        return self.confirmed_version is not None and self.confirmed_version == self.game.version

    @property
    def state(self) -> str:
        """What the table's game stands at: "confirmed", "rejected" (until corrected and
        confirmed), "ended" (waiting for a player to confirm) or "playing"."""
        if self.confirmed:
            return "confirmed"
        if self.note:
            return "rejected"
        return "ended" if self.game.is_finished else "playing"


class TableSeat(models.Model):
    """A player at a table of a series: one table a series (the unique constraint)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seated")
    entrant = models.ForeignKey("Entrant", on_delete=models.CASCADE, related_name="seated")
    series = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField()  # the seat's position in the game

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["entrant", "series"], name="seated_once_a_series"),
        ]

    def __str__(self) -> str:
        return f"{self.entrant} at {self.table}"


class Entrant(models.Model):
    """A player of a tournament: a start number, a name, a link of their own."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(_("name"), max_length=NAME_MAX)
    key = models.CharField(max_length=4 * NAME_MAX, editable=False)  # as a Person's key (KEY_MAX)
    token = models.CharField(max_length=64, unique=True, default=new_token)
    # The first series the player is seated in (a late entry: a later one).
    first_series = models.PositiveSmallIntegerField(default=1)
    # The series the player dropped out in (0: before the first); None: still playing.
    dropped_after = models.PositiveSmallIntegerField(null=True, blank=True)
    # In a tournament of a circle: who of the circle plays (their games count in its ratings).
    person = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="entrant_number_once"),
            models.UniqueConstraint(fields=["tournament", "key"], name="entrant_name_once"),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.name}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.key = name_key(self.name)
        if kwargs.get("update_fields") is not None and "name" in kwargs["update_fields"]:
            kwargs["update_fields"] = [*kwargs["update_fields"], "key"]
        super().save(*args, **kwargs)

    @property
    def playing(self) -> bool:
        return self.dropped_after is None
