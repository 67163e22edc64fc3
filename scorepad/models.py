"""Games at the table: players, seats, deals and their scores, and the history of changes.

A game keeps its variant, options and deal schedule as they were when it started. A deal
stores what was entered (who went out, the payment rows or the cards, each player's points
or cards) and the per-player scores the engine computed when it was saved. Every change to
a game bumps ``Game.version`` in the same transaction (the optimistic check of concurrent
editors) and writes one ``Event`` (the history), whose unique ``form_token`` makes a
replayed form record once: the kernel's protocol (``scorepad/kernel.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any, cast

from django.db import IntegrityError, connection, models, transaction
from django.db.models import F, Max, Min, Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules.engine.audit import AuditError, stake_deal_flaw
from rules.engine.evening import game_money
from rules.engine.scoring import running_totals, standings
from rules.engine.variants import (
    CLASSIC,
    LEFT,
    VARIANT_IDS,
    DealSpec,
    Variant,
    build_schedule,
    get_variant,
)

from . import pauses
from .kernel import (
    TOKEN_BYTES,
    Actor,
    AlreadyDone,
    Event,
    Shared,
    SharedQuerySet,
    StaleVersion,
    new_token,
)
from .naming import distinct_name, name_key, normal_name

__all__ = [
    "TOKEN_BYTES",
    "Actor",
    "AlreadyDone",
    "Entrant",
    "Event",
    "StaleVersion",
    "Table",
    "TableSeat",
    "Tournament",
    "new_token",
]

NAME_MAX = 40
KEY_MAX = 4 * NAME_MAX  # a name's case folded may be longer (ß: ss)


class StoredDealBroken(Exception):
    """A classic deal about to be stored is not zero-sum (rules/engine/audit.py): a fault of
    the code, never of a person's input (the forms score through the engine); the change's
    transaction is rolled back, nothing is saved."""


# The changes after which a target may be reached.
ADDS_A_DEAL = ("recorded", "restored")


class Circle(Shared):
    """The friends who play together: the one place where a name is a person across games.

    Shared by its links like a game (``kernel.Shared``). It owns its people (``Person``),
    their records and ratings, its games (``Game.circle``) and its evenings.
    """

    OWNER = "circle"

    # Set on the circles a phone's list gives (scorepad/circles.py), not stored: whether
    # this phone may change it, the token of the link it holds, the home page's new game.
    can_edit: bool
    link_token: str
    new_game_ref: str

    name = models.CharField(_("name"), max_length=NAME_MAX)

    objects = SharedQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-pk"]

    def __str__(self) -> str:
        return self.name

    def people(self) -> list[Person]:
        """The circle's people as they are now: a person merged into another is not one."""
        return list(self.persons.filter(merged_into__isnull=True).order_by("name", "pk"))

    def find(self, name: str) -> Person | None:
        """The person of this circle with this name (by ``name_key``: case, NFC and invisible
        controls do not count), or None; a name is never looked up outside the circle. A
        name merged into someone else is that someone (Cleo, merged into Cleopatra)."""
        person = self.persons.filter(key=name_key(name)).first()
        return person.root() if person is not None else None

    def lock(self) -> None:
        """Lock this circle's row until the transaction ends: the writes that resolve names
        to people or seat people (a new game, a join, a merge, a rename) take turns per
        circle, so each reads the people and seats the one before it wrote. PostgreSQL's
        ``FOR UPDATE``; on SQLite the IMMEDIATE transaction holds the one write lock."""
        list(Circle.objects.filter(pk=self.pk).select_for_update().values_list("pk", flat=True))

    def person_for(self, name: str) -> Person:
        """The person of this circle ``name`` is (``find``), or a new person of that name.
        Called with the circle locked (``lock``); the unique key is the last guard."""
        person = self.find(name)
        if person is not None:
            return person
        pauses.point("person.new")
        try:
            with transaction.atomic():
                return Person.objects.create(circle=self, name=name)
        except IntegrityError:  # the same name made meanwhile, by a writer without the lock
            found = self.find(name)
            if found is None:
                raise
            return found

    def _person(self, pk: int) -> Person:
        person = self.persons.filter(pk=pk, merged_into__isnull=True).first()
        if person is None:
            raise StaleVersion
        return person

    def rename_person(self, pk: int, name: str, *, version: int, once: str, actor: Actor):
        """A person's name in the circle; each game keeps the name its seat was given."""

        def apply(circle: Circle) -> dict[str, Any]:
            person = circle._person(pk)
            # Any other row of this name: another person, or a name merged into someone
            # (this person too: Cleopatra cannot be renamed Cleo while Cleo is merged in).
            other = circle.persons.filter(key=name_key(name)).exclude(pk=person.pk).first()
            if other is not None:
                raise NameTaken(other.root())
            before = person.name
            Person.objects.filter(pk=person.pk).update(name=name, key=name_key(name))
            return {"person": person.pk, "before": before, "after": name}

        return self.change(version=version, once=once, actor=actor, kind="renamed", apply=apply)

    def merge(self, pk: int, into: int, *, version: int, once: str, actor: Actor):
        """Two people are one: ``pk`` counts as ``into`` from now on (its seats keep their
        names and totals). Refused when both sat in one game: one person has one seat."""

        def apply(circle: Circle) -> dict[str, Any]:
            person, target = circle._person(pk), circle._person(into)
            if person.pk == target.pk:
                raise StaleVersion
            # A seat played before a newcomer took it over counts as a seat of both.
            mine = set(
                Seat.objects.filter(
                    Q(person__in=person.family()) | Q(before_person__in=person.family())
                ).values_list("game", flat=True)
            )
            theirs = Seat.objects.filter(
                Q(person__in=target.family()) | Q(before_person__in=target.family()),
                game__in=mine,
            )
            if theirs.exists():
                raise SameGame
            pauses.point("merge.write")
            Person.objects.filter(pk=person.pk).update(merged_into=target)
            return {
                "person": person.pk,
                "name": person.name,
                "into": target.pk,
                "into_name": target.name,
            }

        return self.change(version=version, once=once, actor=actor, kind="merged", apply=apply)

    def separate(self, pk: int, *, version: int, once: str, actor: Actor):
        """The way back from a merge: ``pk`` is its own person again."""

        def apply(circle: Circle) -> dict[str, Any]:
            person = circle.persons.filter(pk=pk, merged_into__isnull=False).first()
            if person is None:
                raise StaleVersion
            into = person.merged_into
            Person.objects.filter(pk=person.pk).update(merged_into=None)
            return {
                "person": person.pk,
                "name": person.name,
                "from": into.pk if into else None,
                "from_name": into.name if into else "",
            }

        return self.change(version=version, once=once, actor=actor, kind="separated", apply=apply)


class NameTaken(Exception):
    """Another person of the circle has this name already."""

    def __init__(self, person: Person):
        super().__init__(person.name)
        self.person = person


class SameGame(Exception):
    """Two people who sat in one game are two people: they cannot be merged."""


class Person(models.Model):
    """Someone of a circle. ``merged_into`` another person: counted as that person (their
    seats, records and ratings are that person's) until separated again."""

    game_count: int  # set by the circle's page, not stored: the person's games in it

    circle = models.ForeignKey(Circle, on_delete=models.CASCADE, related_name="persons")
    name = models.CharField(_("name"), max_length=NAME_MAX)
    # ``name_key(name)``, set by ``save`` (and by every update of the name): one name, one
    # row of the circle, merged or not (Circle.find).
    key = models.CharField(max_length=KEY_MAX, editable=False)
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="merged"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["circle", "key"], name="person_name_once"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name = normal_name(self.name) or self.name  # a seat's name from before the rule
        self.key = name_key(self.name)
        fields = kwargs.get("update_fields")
        if fields is not None and "name" in fields:
            kwargs["update_fields"] = {*fields, "key"}
        super().save(*args, **kwargs)

    def root(self) -> Person:
        """The person this one counts as (itself unless merged; merges may chain)."""
        person, seen = self, {self.pk}
        while person.merged_into_id is not None and person.merged_into_id not in seen:
            seen.add(person.merged_into_id)
            person = Person.objects.get(pk=person.merged_into_id)
        return person

    def family(self) -> list[int]:
        """The ids of this person and of everyone merged into them, at any depth."""
        found, todo = [self.pk], [self.pk]
        while todo:
            more = list(
                Person.objects.filter(merged_into__in=todo)
                .exclude(pk__in=found)
                .values_list("pk", flat=True)
            )
            found += more
            todo = more
        return found


def seated_twice(game: Game, person: Person) -> bool:
    """Whether someone who counts as ``person`` (the same person, merged in either way)
    sits at ``game`` already, or played a seat of it before a newcomer took it over (one
    person, one place in a game's records)."""
    family = person.root().family()
    return game.seats.filter(Q(person__in=family) | Q(before_person__in=family)).exists()


def roots(circle_id: int) -> dict[int, int]:
    """Each person id of a circle mapped to the id of the person it counts as."""
    parent = dict(Person.objects.filter(circle_id=circle_id).values_list("pk", "merged_into_id"))

    def up(pk: int) -> int:
        seen = {pk}
        while parent.get(pk) is not None and parent[pk] not in seen:
            pk = parent[pk]
            seen.add(pk)
        return pk

    return {pk: up(pk) for pk in parent}


class GameQuerySet(SharedQuerySet):
    def in_progress(self) -> GameQuerySet:
        return self.filter(status=Game.Status.IN_PROGRESS)

    def finished(self) -> GameQuerySet:
        return self.filter(status=Game.Status.FINISHED)

    def with_seats(self) -> GameQuerySet:
        return self.prefetch_related(Prefetch("seats", queryset=Seat.objects.order_by("position")))


class Game(Shared):
    OWNER = "game"

    # Set on the games a phone's list gives (scorepad/access.py), not stored: the token of
    # the link this phone holds.
    link_token: str

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("in progress")
        FINISHED = "finished", _("finished")

    variant_id = models.CharField(
        _("variant"), max_length=32, choices=[(v, v) for v in VARIANT_IDS], db_column="variant"
    )
    options = models.JSONField(default=dict)
    schedule = models.JSONField(null=True, blank=True)  # contract games: DealSpec.as_dict() rows
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.IN_PROGRESS)
    first_dealer = models.PositiveSmallIntegerField(default=0)  # a seat position
    value_per_point = models.DecimalField(max_digits=9, decimal_places=2, null=True, blank=True)
    # The table's target (classic and Rommé): the game ends by itself once a player's total
    # reaches ``target_score`` or ``target_deals`` deals are played.
    target_score = models.PositiveIntegerField(null=True, blank=True)
    target_deals = models.PositiveSmallIntegerField(null=True, blank=True)
    # A tournament table's round clock (``tournaments.Tournament.start_series``): when the
    # series' time is up. The classic game and Rommé end with the first deal recorded after it
    # (the deal in play is the last); the contract games are only warned.
    clock_ends = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The circle the game belongs to: its seats' people are the circle's. None: the game
    # shares no one with any other game (its seats have names only).
    circle = models.ForeignKey(
        Circle, null=True, blank=True, on_delete=models.SET_NULL, related_name="games"
    )
    # Its money was carried with its evening's balances to the next evening: a change of
    # its totals from then on carries the difference forward (``Evening.carry``).
    carried = models.BooleanField(default=False)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-pk"]
        indexes = [models.Index(fields=["status", "-updated_at"])]

    def __str__(self) -> str:
        return f"{self.variant_id} #{self.pk}"

    # --- rules of this game -------------------------------------------------------------
    @property
    def variant(self) -> Variant:
        return get_variant(self.variant_id)

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @cached_property
    def deal_specs(self) -> tuple[DealSpec, ...] | None:
        return build_schedule(self.schedule) if self.schedule else None

    @property
    def total_deals(self) -> int | None:
        """The number of deals of a contract game; None when the table decides (classic, Rommé)."""
        return len(self.deal_specs) if self.deal_specs else None

    @property
    def step(self) -> int:
        """+1 when the deal passes to the left (clockwise in seating order), -1 to the right."""
        return 1 if self.variant.direction == LEFT else -1

    def deal_spec(self, number: int) -> DealSpec | None:
        specs = self.deal_specs
        if specs and 1 <= number <= len(specs):
            return specs[number - 1]
        return None

    def decks(self, number: int, players: int) -> tuple[int, int]:
        return self.variant.decks(players, number)

    def cards_dealt(self, number: int) -> int:
        return self.variant.cards_dealt(number, self.deal_specs)

    def starter_cards(self, number: int) -> int:
        return self.variant.starter_cards(number, self.deal_specs)

    @property
    def time_is_up(self) -> bool:
        """A tournament table's round clock has run out (``clock_ends``)."""
        return self.clock_ends is not None and timezone.now() >= self.clock_ends

    @property
    def last_deal_in_play(self) -> bool:
        """The clock ran out in a game it ends: the deal in play is the last."""
        return self.time_is_up and self.can_have_target and not self.is_finished

    @property
    def can_have_target(self) -> bool:
        """A target ends the classic game and Rommé; the contract games keep their deals."""
        return self.total_deals is None

    def target_reached(self, deals: int, totals: Sequence[int]) -> bool:
        if not self.can_have_target:
            return False
        if self.target_deals and deals >= self.target_deals:
            return True
        if self.time_is_up:  # the deal in play when the clock ran out was the last
            return True
        target = self.target_score
        return target is not None and target != 0 and any(t >= target for t in totals)

    def deal_count(self) -> int:
        """The deals stored now. (Not ``self.deals.count()``: a game loaded for its page has
        its deals prefetched, and a change made since is not in that list. The walk found an
        undone last deal of a contract game that left the game ended.)"""
        return Deal.objects.filter(game_id=self.pk).count()

    def is_complete(self, deals: int) -> bool:
        """Whether this many deals end the game by themselves (the last deal of a contract game)."""
        return self.total_deals is not None and deals >= self.total_deals

    def confirmed_table(self, version: int) -> Table | None:
        """This game's table of a tournament if a player confirmed its result at ``version``
        (a change of it now is the director's correction), else None. The table is read
        with the game by every page and write (``access``): no query then."""
        if Game.tournament_table.is_cached(self):
            table = getattr(self, "tournament_table", None)
        else:
            table = Table.objects.filter(game_id=self.pk).first()
        if table is None or table.confirmed_version != version:
            return None
        return Table.objects.select_related("tournament").get(pk=table.pk)

    # --- changes: the kernel's, with the game's own part ----------------------------------
    def change(
        self,
        *,
        version: int,
        once: str | None,
        actor: Actor,
        kind: str,
        apply: Callable[[Game], dict[str, Any]],
        rows: Rows | None = None,
    ) -> Event:
        """One change through the kernel (``kernel.Shared.change``: the version and the
        one-time token checked in one statement, one history entry), with what every change
        of a game does in the same transaction after ``apply``: each seat's total and place
        stored again, a target reached ends the game, and a game whose money was carried to
        a next evening carries the difference forward (``carry_difference``). ``rows``: the
        seats and deals as they are after ``apply`` (``loaded_rows``, kept up to date by
        ``apply``), so the totals are worked out without reading them again; None reads
        them. Once it returns, ``loaded_rows(self.version)`` gives the new version's rows
        when they were kept up to date, None otherwise."""

        def whole(game: Game) -> dict[str, Any]:
            # A game whose money was carried (read at ``version``: carrying bumps it).
            before = carried_money(game) if game.carried else None
            details = apply(game)
            totals, deals = game.recompute_totals(rows)
            reached = kind in ADDS_A_DEAL and not game.is_finished
            if reached and game.target_reached(deals, totals):
                game.finish()
                details["target"] = True
            if before is not None:
                carry_difference(game, before, carried_money(game, before[0]), actor)
            table = game.confirmed_table(version)
            if table is not None:  # the director's correction: both histories say it
                director = Actor("creator", actor.device)
                deal = details.get("deal_number")
                table.tournament.correct(table, version + 1, kind, deal, director)
            return details

        try:
            event = super().change(version=version, once=once, actor=actor, kind=kind, apply=whole)
        except BaseException:
            if rows is not None:  # rolled back: what ``apply`` changed in them is not stored
                self.forget_rows()
            raise
        if rows is None:
            # ``apply`` changed rows this game may hold loaded; an answer that renders its
            # sheet from them reads them again (``board.full_sheet``).
            self.forget_rows()
        return event

    def forget_rows(self) -> None:
        cache = getattr(self, "_prefetched_objects_cache", {})
        cache.pop("deals", None)
        cache.pop("seats", None)

    def loaded_rows(self, version: int) -> Rows | None:
        """The seats and deals (with their scores) loaded with this game, when they are
        certainly those of ``version``: the game was read at that version (every change
        bumps the version in the transaction that changes the rows, and a version is never
        used twice, so the rows read with a game found at ``version`` are that version's
        once the bump from ``version`` succeeds); None when they were not loaded or the
        game was read at another version."""
        cache = getattr(self, "_prefetched_objects_cache", {})
        if self.version != version or "seats" not in cache or "deals" not in cache:
            return None
        deals = list(cache["deals"])
        if any("scores" not in getattr(d, "_prefetched_objects_cache", {}) for d in deals):
            return None
        return Rows(sorted(cache["seats"], key=lambda s: s.position), deals)

    def recompute_totals(self, rows: Rows | None = None) -> tuple[list[int], int]:
        """Store each seat's total and place, from the engine's running totals and standings
        (a player's starting balance included); return the totals in seating order and the
        number of deals. ``rows``: the seats and deals as they are now, else read."""
        if rows is None:
            seats = list(self.seats.order_by("position"))
            deals = list(self.deals.prefetch_related("scores").order_by("number"))
        else:
            seats, deals = rows.seats, rows.deals
        positions = {s.pk: s.position for s in seats}
        classic = self.variant_id == CLASSIC
        per_deal = [deal.counted_scores(positions, classic) for deal in deals]
        order = [s.position for s in seats]
        totals = running_totals(per_deal, order)[-1] if per_deal else dict.fromkeys(order, 0)
        totals = {s.position: totals[s.position] + s.start for s in seats}
        left = {s.position for s in seats if not s.active}
        places = {st.player: st.place for st in standings(totals, self.variant, left)}
        for seat in seats:
            seat.total = totals[seat.position]
            seat.place = places[seat.position]
        Seat.store_totals(seats)
        return [totals[pos] for pos in order], len(deals)

    # --- players who come and go -------------------------------------------------------------
    def playing_seats(self) -> list[Seat]:
        """The seats at the table now: the ones the next deal is recorded for."""
        return [s for s in self.seats.all() if s.active]

    def join(self, name: str, start: int, *, version: int, once: str, actor: Actor):
        """A player sits down after the last seat, from the next deal on, with ``start``. In
        a circle's game the name is matched (case aside) against the circle's people only,
        or becomes a new person of the circle; outside any circle it is a name only."""

        def apply(game: Game) -> dict[str, Any]:
            nonlocal name
            if game.is_finished:
                raise StaleVersion
            person = None
            if game.circle_id is not None:
                circle = Circle.objects.get(pk=game.circle_id)
                circle.lock()  # a merge or another game's new name waits, or went first
                person = circle.person_for(name)
                if seated_twice(game, person):
                    raise StaleVersion
                name = person.name  # the circle's spelling of who sits down
            pauses.point("join.write")
            last = game.seats.order_by("-position").values_list("position", flat=True).first()
            seat = Seat.objects.create(
                game=game, name=name, person=person, position=(last or 0) + 1, start=start
            )
            return {"position": seat.position, "name": name, "start": start}

        return self.change(version=version, once=once, actor=actor, kind="joined", apply=apply)

    def seat_leaves(
        self, position: int, *, version: int, once: str | None, actor: Actor, back=False
    ):
        """A player leaves the table (no more deals; the totals stay), or comes back."""

        def apply(game: Game) -> dict[str, Any]:
            seat = game.seats.get(position=position)
            Seat.objects.filter(pk=seat.pk).update(active=back)
            return {"position": position, "name": seat.name}

        kind = "returned" if back else "left"
        return self.change(version=version, once=once, actor=actor, kind=kind, apply=apply)

    def take_over(self, position: int, name: str, *, version: int, once: str, actor: Actor):
        """A newcomer takes over the seat of a player who left, from the next deal: the seat
        keeps its deals and total (the newcomer inherits it) and remembers who played it
        before and their last deal. A name in a circle's game is matched as in ``join``."""

        def apply(game: Game) -> dict[str, Any]:
            nonlocal name
            seat = game.seats.get(position=position)
            if game.is_finished or seat.active or seat.before_name:
                raise StaleVersion  # another phone brought them back, or was first
            person = None
            if game.circle_id is not None:
                circle = Circle.objects.get(pk=game.circle_id)
                circle.lock()  # as in ``join``: a merge or another new name waits
                person = circle.person_for(name)
                if seated_twice(game, person):
                    raise StaleVersion
                name = person.name
            played = DealScore.objects.filter(deal__game=game, seat=seat)
            until = played.aggregate(last=Max("deal__number"))["last"] or 0
            Seat.objects.filter(pk=seat.pk).update(
                name=name,
                person=person,
                active=True,
                before_name=seat.name,
                before_person=seat.person,
                before_until=until,
            )
            return {"position": position, "before": seat.name, "name": name, "deal": until}

        return self.change(version=version, once=once, actor=actor, kind="took_over", apply=apply)

    def rename(self, position: int, name: str, *, version: int, once: str, actor: Actor):
        """A seat's name, in this game alone (a person of a circle is renamed by the circle)."""

        def apply(game: Game) -> dict[str, Any]:
            seat = game.seats.get(position=position)
            before = seat.name
            Seat.objects.filter(pk=seat.pk).update(name=name)
            return {"position": position, "before": before, "after": name}

        return self.change(version=version, once=once, actor=actor, kind="renamed", apply=apply)

    def set_target(self, score: int | None, deals: int | None, *, version, once, actor: Actor):
        def apply(game: Game) -> dict[str, Any]:
            game.target_score, game.target_deals = score, deals
            Game.objects.filter(pk=game.pk).update(target_score=score, target_deals=deals)
            return {"score": score, "deals": deals}

        return self.change(version=version, once=once, actor=actor, kind="target", apply=apply)

    def check_result(self, result: DealResult) -> None:
        """The invariant of every saved classic deal: it is zero-sum among the players of the
        deal (those it scores), or StoredDealBroken."""
        if self.variant_id != CLASSIC or result.status == Deal.Status.ABANDONED:
            return
        flaw = stake_deal_flaw(
            sorted(result.scores), result.scores, result.went_out, result.payment
        )
        if flaw is not None:
            raise StoredDealBroken(str(flaw))

    # --- the operations of the score pad ----------------------------------------------------
    def record_deal(self, result: DealResult, *, version: int, once: str, actor: Actor):
        # The rows loaded with the game (its page's prefetch), when they are this version's:
        # the new deal joins them, and neither its number nor the totals read them again.
        rows = self.loaded_rows(version)

        def apply(game: Game) -> dict[str, Any]:
            number = (len(rows.deals) if rows else game.deal_count()) + 1
            if game.is_finished:
                raise StaleVersion
            deal = Deal(game=game, number=number)
            game.check_result(result)
            deal.set_result(result)
            deal.save()
            scores = deal.save_scores(result)
            if rows is not None:
                # Django's own prefetch caches, filled as a prefetch would have filled them.
                kept: Any = deal.scores.all()
                kept._result_cache, kept._prefetch_done = scores, True
                cast(Any, deal)._prefetched_objects_cache = {"scores": kept}
                rows.deals.append(deal)
                cast(Any, game)._prefetched_objects_cache["deals"]._result_cache = list(rows.deals)
            if game.is_complete(number):
                game.finish()
            return {"deal_number": number, "after": deal.snapshot(result)}

        return self.change(
            version=version, once=once, actor=actor, kind="recorded", apply=apply, rows=rows
        )

    def edit_deal(
        self,
        number: int,
        result: DealResult,
        *,
        version: int,
        once: str,
        actor: Actor,
        replaced: list[dict[str, str]] | None = None,
    ):
        """``replaced``: the values of another phone's correction this one overwrote, both
        having changed them (scorepad/conflicts.py), kept to tell that phone."""

        rows = self.loaded_rows(version)

        def apply(game: Game) -> dict[str, Any]:
            if rows is None:
                deal = game.deals.prefetch_related("scores__seat").get(number=number)
            else:
                found = next((d for d in rows.deals if d.number == number), None)
                if found is None:
                    raise Deal.DoesNotExist(f"no deal {number}")
                deal = found
                by_pk = {s.pk: s for s in rows.seats}
                for score in deal.scores.all():
                    score.seat = by_pk[score.seat_id]
            before = deal.snapshot()
            game.check_result(result)
            deal.set_result(result)
            deal.updated_at = timezone.now()
            deal.save()
            DealScore.objects.filter(deal=deal).delete()
            scores = deal.save_scores(result)
            if rows is not None:
                cast(Any, deal)._prefetched_objects_cache["scores"]._result_cache = scores
            details = {"deal_number": number, "before": before, "after": deal.snapshot(result)}
            if replaced:
                details["replaced"] = replaced
            return details

        return self.change(
            version=version, once=once, actor=actor, kind="edited", apply=apply, rows=rows
        )

    def delete_deal(self, number: int, *, version: int, once: str, actor: Actor, kind="deleted"):
        def apply(game: Game) -> dict[str, Any]:
            deal = game.deals.prefetch_related("scores__seat").get(number=number)
            before = deal.snapshot()
            deal.delete()
            # Renumber the later deals in two steps, so the unique (game, number) never clashes.
            later = Deal.objects.filter(game=game, number__gt=number)
            later.update(number=-(F("number") - 1))
            Deal.objects.filter(game=game, number__lt=0).update(number=-F("number"))
            details: dict[str, Any] = {"deal_number": number, "before": before}
            if game.is_finished and not game.is_complete(game.deal_count()):
                game.resume()
                details["resumed"] = True  # bringing the deal straight back ends it again
            return details

        return self.change(version=version, once=once, actor=actor, kind=kind, apply=apply)

    def restore_deal(
        self,
        result: DealResult,
        number: int,
        *,
        source: Event,
        version: int,
        once: str,
        actor: Actor,
    ):
        """Bring back a deal that was undone or deleted (``source``, its history entry) at
        the number it had: the later deals move down one row."""

        def apply(game: Game) -> dict[str, Any]:
            count = game.deal_count()
            if game.is_finished or game.is_complete(count):
                raise StaleVersion
            at = min(number, count + 1)
            later = Deal.objects.filter(game=game, number__gte=at)
            later.update(number=-(F("number") + 1))
            Deal.objects.filter(game=game, number__lt=0).update(number=-F("number"))
            deal = Deal(game=game, number=at)
            game.check_result(result)
            deal.set_result(result)
            deal.save()
            deal.save_scores(result)
            # The game is as it was before ``source`` when nothing happened since: a game
            # that taking the deal away resumed ends again (a classic game ended by hand).
            latest = game.events.order_by("-pk").values_list("pk", flat=True).first()
            details = source.details if isinstance(source.details, dict) else {}
            again = details.get("resumed") is True and latest == source.pk
            if game.is_complete(count + 1) or again:
                game.finish()
            return {"deal_number": at, "after": deal.snapshot(result), "source": source.pk}

        return self.change(version=version, once=once, actor=actor, kind="restored", apply=apply)

    def undo_last_deal(self, *, version: int, once: str, actor: Actor):
        last = self.deals.order_by("-number").values_list("number", flat=True).first()
        if last is None:
            raise StaleVersion
        return self.delete_deal(last, version=version, once=once, actor=actor, kind="undone")

    def end(self, *, version: int, once: str, actor: Actor):
        def apply(game: Game) -> dict[str, Any]:
            game.finish()
            return {}

        return self.change(version=version, once=once, actor=actor, kind="finished", apply=apply)

    def reopen(self, *, version: int, once: str, actor: Actor):
        def apply(game: Game) -> dict[str, Any]:
            game.resume()
            return {}

        return self.change(version=version, once=once, actor=actor, kind="resumed", apply=apply)

    def finish(self) -> None:
        self.status = self.Status.FINISHED
        self.finished_at = timezone.now()
        Game.objects.filter(pk=self.pk).update(status=self.status, finished_at=self.finished_at)

    def resume(self) -> None:
        self.status = self.Status.IN_PROGRESS
        self.finished_at = None
        Game.objects.filter(pk=self.pk).update(status=self.status, finished_at=None)


@dataclass
class Rows:
    """A game's seats (in seating order) and deals (in order, their scores prefetched)."""

    seats: list[Seat]
    deals: list[Deal]


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    # The seat's name belongs to its game; ``person``, in a circle's game only, says who of
    # the circle sits there (for the circle's records, ratings and evenings).
    name = models.CharField(_("name"), max_length=NAME_MAX)
    person = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    position = models.PositiveSmallIntegerField()  # 0, 1, ... in seating order (clockwise)
    total = models.IntegerField(default=0)  # from the engine, after every change
    place = models.PositiveSmallIntegerField(default=1)
    # A player who joined during the game starts from ``start`` (in the total); one who left
    # is not ``active``: no deal is recorded for them, their total stays. A seat plays in a
    # deal when it has a score in it (scorepad/sheet.py).
    start = models.IntegerField(default=0)
    active = models.BooleanField(default=True)
    # A newcomer who took over the seat of a player who left (Game.take_over): the seat's
    # deals and total stay the seat's, so the newcomer inherits the total; ``before_name``,
    # ``before_person`` (a circle's game) and ``before_until`` (the last deal they played, 0:
    # none) say who played it before. A seat is taken over once.
    before_name = models.CharField(max_length=NAME_MAX, blank=True, default="")
    before_person = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    before_until = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_once"),
            models.UniqueConstraint(fields=["game", "person"], name="seat_person_once"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.position + 1})"

    @classmethod
    def store_totals(cls, seats: Sequence[Seat]) -> None:
        """Write the ``total`` and ``place`` of ``seats`` (after every change) in one
        statement of CASE expressions, written here: ``bulk_update`` says the same but its
        building cost 1.2 ms of CPU a change for five seats (SQLite; 1.4 ms on PostgreSQL),
        and ``executemany`` runs one statement a seat."""
        if not seats:
            return
        quote = connection.ops.quote_name
        meta = cls._meta
        columns = {field.name: field.column for field in meta.concrete_fields}
        total, place, pk = (quote(columns[name]) for name in ("total", "place", "id"))
        cases = " ".join(["WHEN %s THEN %s"] * len(seats))
        ids = ", ".join(["%s"] * len(seats))
        params: list[int] = []
        for column in ("total", "place"):
            params += [value for seat in seats for value in (seat.pk, getattr(seat, column))]
        params += [seat.pk for seat in seats]
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {quote(meta.db_table)} SET {total} = CASE {pk} {cases} END, "
                f"{place} = CASE {pk} {cases} END WHERE {pk} IN ({ids})",
                params,
            )


@dataclass(frozen=True)
class DealResult:
    """A deal as a form validated it and the engine scored it (seat positions as keys)."""

    status: str  # Deal.Status
    went_out: int | None
    scores: dict[int, int]
    entry: dict[str, Any]
    handromme: bool = False
    payment: int | None = None
    payment_rows: tuple[dict[str, Any], ...] = ()


class Deal(models.Model):
    class Status(models.TextChoices):
        SCORED = "scored", _("scored")
        ABANDONED = "abandoned", _("abandoned")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deals")
    number = models.IntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SCORED)
    went_out = models.PositiveSmallIntegerField(null=True, blank=True)  # a seat position
    handromme = models.BooleanField(default=False)
    entry = models.JSONField(default=dict)  # what was entered, as entered (canonical cards)
    payment = models.PositiveIntegerField(null=True, blank=True)  # classic
    payment_rows = models.JSONField(default=list, blank=True)  # classic: [{"row", "points"}]
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="deal_number_once"),
        ]

    def __str__(self) -> str:
        return f"deal {self.number} of {self.game_id}"

    @property
    def is_abandoned(self) -> bool:
        return self.status == self.Status.ABANDONED

    def set_result(self, result: DealResult) -> None:
        self.status = result.status
        self.went_out = result.went_out
        self.handromme = result.handromme
        self.entry = result.entry
        self.payment = result.payment
        self.payment_rows = list(result.payment_rows)

    def save_scores(self, result: DealResult) -> list[DealScore]:
        seats = {s.position: s for s in self.game.seats.all()}
        return DealScore.objects.bulk_create(
            DealScore(deal=self, seat=seats[pos], points=points)
            for pos, points in sorted(result.scores.items())
        )

    def scores_by_position(self, positions: dict[int, int]) -> dict[int, int]:
        """Every seat's score in this deal (0 for all when abandoned), from the prefetched scores.

        ``positions`` maps seat ids to seat positions (no query per score).
        """
        stored = {positions[s.seat_id]: s.points for s in self.scores.all()}
        return {pos: stored.get(pos, 0) for pos in positions.values()}

    def flaw(self, positions: dict[int, int], classic: bool) -> AuditError | None:
        """What breaks the zero sum of this classic deal as stored (a row edited or removed
        in the database), or None; never anything for a penalty game. The players of a deal
        are the seats with a score in it (an abandoned deal has none), so a removed row
        shows as a payment nobody made. From the prefetched scores; ``positions`` maps seat
        ids to seat positions."""
        if not classic:
            return None
        stored = {positions.get(s.seat_id, -1): s.points for s in self.scores.all()}
        if self.is_abandoned:
            return stake_deal_flaw(list(stored), stored, None, None, abandoned=True)
        players = [pos for pos in positions.values() if pos in stored]
        return stake_deal_flaw(players, stored, self.went_out, self.payment)

    def counted_scores(self, positions: dict[int, int], classic: bool) -> dict[int, int]:
        """The scores this deal adds into the totals: its stored scores, or 0 for everybody
        when it is flagged (``flaw``): a corrupted row is reported, not summed."""
        if self.flaw(positions, classic) is not None:
            return dict.fromkeys(positions.values(), 0)
        return self.scores_by_position(positions)

    def snapshot(self, result: DealResult | None = None) -> dict[str, Any]:
        """What the history keeps of this deal: inputs and the scores by seat position."""
        if result is not None:
            scores = {str(k): v for k, v in sorted(result.scores.items())}
        else:
            scores = {str(s.seat.position): s.points for s in self.scores.all()}
        return {
            "status": self.status,
            "went_out": self.went_out,
            "handromme": self.handromme,
            "payment": self.payment,
            "entry": self.entry,
            "scores": scores,
        }


class DealScore(models.Model):
    """One player's score in one deal, as the engine computed it when the deal was saved."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="scores")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="scores")
    points = models.IntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["deal", "seat"], name="deal_score_once"),
        ]

    def __str__(self) -> str:
        return f"{self.points} in deal {self.deal_id}"


class RateCounter(models.Model):
    """Requests of one client in one rate-limit bucket during the current window
    (continental/ratelimit.py counts them with one atomic statement)."""

    client = models.CharField(max_length=200, primary_key=True)  # "write:203.0.113.9"
    period = models.BigIntegerField()  # the window's number: Unix time // window length
    hits = models.PositiveIntegerField()

    def __str__(self) -> str:
        return f"{self.client}: {self.hits} in window {self.period}"


# --- evenings ------------------------------------------------------------------------------


class EveningQuerySet(SharedQuerySet):
    def with_date(self) -> EveningQuerySet:
        """Each evening with the start of its first game, read in the same query (``date``)."""
        return self.annotate(first_game_at=Min("games__game__created_at"))


class Evening(Shared):
    """Several games played by the same people: one money ledger across them.

    Shared by its links like a game (``kernel.Shared``). Once its balances are carried to
    the next evening (``next_evening``) it is closed: its games can no longer change its
    money.
    """

    OWNER = "evening"

    # Set on the evenings a phone's list gives (scorepad/evenings.py), not stored: whether
    # this phone may change it, the token of the link it holds, and a game page's form to
    # add the game to it.
    can_edit: bool
    link_token: str
    add_form: Any

    name = models.CharField(_("name"), max_length=NAME_MAX, blank=True)
    stake = models.DecimalField(max_digits=9, decimal_places=2)  # the games' default stake
    next_evening = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="previous"
    )
    # The circle of the evening: only its games can be added, its balances are by person.
    circle = models.ForeignKey(
        Circle, null=True, blank=True, on_delete=models.SET_NULL, related_name="evenings"
    )

    objects = EveningQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-pk"]

    def __str__(self) -> str:
        return self.name or f"evening #{self.pk}"

    @property
    def is_closed(self) -> bool:
        return self.next_evening_id is not None

    @property
    def date(self) -> datetime:
        """The day it is played: the start of its first game, or, with no game yet, when it
        was made. The evening a carry makes is made when the one before ends, often a week
        before its first game."""
        if not hasattr(self, "first_game_at"):
            self.first_game_at = self.games.aggregate(first=Min("game__created_at"))["first"]
        return self.first_game_at or self.created_at

    def locked(self) -> None:
        """Whether it is closed, as the change that holds its row finds it (a carry made
        meanwhile closed it)."""
        self.next_evening_id = (
            Evening.objects.filter(pk=self.pk).values_list("next_evening_id", flat=True).get()
        )

    def add_game(self, game: Game, stake, *, version: int, once: str, actor: Actor):
        def apply(evening: Evening) -> dict[str, Any]:
            if evening.is_closed:
                raise EveningClosed
            if game.circle_id != evening.circle_id:
                raise OtherCircle
            counted_in(game, evening)
            last = evening.games.aggregate(models.Max("position"))["position__max"]
            try:
                with transaction.atomic():
                    EveningGame.objects.create(
                        evening=evening, game=game, stake=stake, position=(last or 0) + 1
                    )
            except IntegrityError:  # another phone added it meanwhile, here or elsewhere
                counted_in(game, evening)
                raise
            return {"game": game.pk, "stake": str(stake)}

        return self.change(version=version, once=once, actor=actor, kind="added", apply=apply)

    def remove_game(self, game_id: int, *, version: int, once: str, actor: Actor):
        def apply(evening: Evening) -> dict[str, Any]:
            if evening.is_closed:
                raise EveningClosed
            removed, _kinds = evening.games.filter(game_id=game_id).delete()
            if not removed:
                raise StaleVersion
            return {"game": game_id}

        return self.change(version=version, once=once, actor=actor, kind="removed", apply=apply)

    def carry(
        self,
        balances: dict[str, tuple[str, int | None, int]],
        *,
        version: int,
        once: str,
        actor: Actor,
        games: dict[int, int] | None = None,
    ) -> Evening:
        """Close this evening and start the next of its circle from ``balances`` (by player:
        the name, the person of the circle or None, the cents; worked out at ``version``
        from its games at ``games``' versions, by game id: the version checks keep them this
        evening's). Each game's version moves on too, with a history entry, and the game is
        marked ``carried``: a change of a game made meanwhile, or sent from a form of
        before, is stale, and every later change carries its difference forward
        (``carry_difference``)."""
        made: list[Evening] = []
        seen = (
            games
            if games is not None
            else dict(Game.objects.filter(evening_games__evening=self).values_list("pk", "version"))
        )

        def apply(evening: Evening) -> dict[str, Any]:
            if evening.is_closed:
                raise EveningClosed
            entries = set(evening.games.values_list("game_id", flat=True))
            if entries != set(seen):
                raise StaleVersion
            for game_id, game_version in seen.items():
                moved = Game.objects.filter(pk=game_id, version=game_version).update(
                    version=F("version") + 1, updated_at=timezone.now(), carried=True
                )
                if not moved:  # the game changed since its money was read
                    raise StaleVersion
            Event.objects.bulk_create(
                Event(
                    game_id=game_id,
                    kind="carried",
                    details={"evening": evening.pk},
                    actor=actor.role,
                    device=actor.device,
                )
                for game_id in seen
            )
            # Its name is its own (blank until it is given one), and its date is that of its
            # first game: it is another evening, not a copy of this one.
            following = Evening.objects.create(stake=evening.stake, circle_id=evening.circle_id)
            # Two players of one name (two people of a circle named alike before the name
            # rule, "Zoe" and "Zoe"): each balance keeps its own row, the second "Zoe (2)".
            taken: set[str] = set()
            rows = []
            for name, person, cents in balances.values():
                name = distinct_name(name, taken, NAME_MAX)
                taken.add(name_key(name))
                rows.append(
                    EveningBalance(evening=following, name=name, person_id=person, cents=cents)
                )
            EveningBalance.objects.bulk_create(rows)
            following.start(actor=actor, kind="carried_in", details={"from": evening.pk})
            Evening.objects.filter(pk=evening.pk).update(next_evening=following)
            evening.next_evening = following
            made.append(following)
            return {"to": following.pk, "balances": {n: c for n, _p, c in balances.values()}}

        self.change(version=version, once=once, actor=actor, kind="carried", apply=apply)
        return made[0]


class EveningClosed(Exception):
    """The evening's balances were carried to the next evening: it changes no more."""


class OtherCircle(Exception):
    """The game is not of the evening's circle (or the evening has one and the game none):
    an evening's money is its circle's."""


class CountedElsewhere(Exception):
    """The game is in another evening already: a game's money counts in one evening only
    (and so never together with a balance carried from the evening it was in)."""

    def __init__(self, evening: Evening):
        super().__init__(f"the game is in evening {evening.pk}")
        self.evening = evening


def counted_in(game: Game, evening: Evening) -> None:
    """Raise StaleVersion when ``game`` is in ``evening`` already, CountedElsewhere when it
    is in any other evening (open or closed)."""
    entry = EveningGame.objects.filter(game=game).select_related("evening").first()
    if entry is None:
        return
    if entry.evening_id == evening.pk:
        raise StaleVersion
    raise CountedElsewhere(entry.evening)


class EveningGame(models.Model):
    """A game of an evening, with the money one of its points is worth."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="games")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="evening_games")
    stake = models.DecimalField(max_digits=9, decimal_places=2)
    position = models.PositiveIntegerField()
    added_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["evening", "position"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "game"], name="evening_game_once"),
            # A game's money counts in one evening only.
            models.UniqueConstraint(fields=["game"], name="evening_game_one_evening"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} of evening {self.evening_id}"


class EveningBalance(models.Model):
    """A balance an evening starts from, carried from the evening before (in cents)."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="carried")
    name = models.CharField(max_length=NAME_MAX)
    # The person of the evening's circle the balance is carried for (None: by name).
    person = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.PROTECT, related_name="balances"
    )
    cents = models.BigIntegerField()

    class Meta:
        ordering = ["evening", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "name"], name="evening_balance_once"),
        ]

    def __str__(self) -> str:
        return f"{self.name}: {self.cents} in evening {self.evening_id}"


# (seat id) -> (the seat's name, its person, its money in the game, in cents)
SeatMoney = dict[int, tuple[str, int | None, int]]


def carried_money(
    game: Game, entry: EveningGame | None = None
) -> tuple[EveningGame, SeatMoney] | None:
    """The money each seat of ``game`` has in the closed evening it counts in (``entry``,
    when read already), as stored now; None when its evening is not closed (or it is in
    none)."""
    if entry is None:
        entry = EveningGame.objects.filter(game=game).select_related("evening").first()
    if entry is None or not entry.evening.is_closed:
        return None
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    money = game_money({s.pk: s.total for s in seats}, game.variant_id, entry.stake)
    return entry, {s.pk: (s.name, s.person_id, money[s.pk]) for s in seats}


def carry_difference(
    game: Game,
    before: tuple[EveningGame, SeatMoney],
    after: tuple[EveningGame, SeatMoney] | None,
    actor: Actor,
) -> None:
    """A game of a closed evening changed (in this transaction): the difference of its
    money goes to the balances carried to the next evening, and on along the chain of
    carried evenings, each of which moves to a new version with an "adjusted" entry. So the
    closed evening shows the corrected game, and the chain of evenings always adds up
    (docs/architecture.md, "Evenings")."""
    entry, was = before
    now = after[1] if after is not None else {}
    difference: dict[tuple[str, int | None], int] = {}
    for name, person, cents in was.values():
        difference[(name, person)] = difference.get((name, person), 0) - cents
    for name, person, cents in now.values():
        difference[(name, person)] = difference.get((name, person), 0) + cents
    difference = {key: cents for key, cents in difference.items() if cents}
    if not difference:
        return
    evening = entry.evening
    who = roots(evening.circle_id) if evening.circle_id is not None else {}

    def key(name: str, person: int | None) -> str:
        return f"p{who.get(person, person)}" if person is not None else name_key(name)

    following, passed = evening.next_evening_id, set()
    while following is not None and following not in passed:
        passed.add(following)
        rows = {
            key(r.name, r.person_id): r for r in EveningBalance.objects.filter(evening_id=following)
        }
        by_name = {r.name: r for r in rows.values()}
        for (name, person), cents in difference.items():
            row = rows.get(key(name, person)) or by_name.get(name)
            if row is not None:
                EveningBalance.objects.filter(pk=row.pk).update(cents=F("cents") + cents)
            else:
                row = EveningBalance.objects.create(
                    evening_id=following, name=name, person_id=person, cents=cents
                )
                rows[key(name, person)] = by_name[name] = row
        # A name whose balance the correction brought to nothing is no longer carried (a
        # seat renamed after the carry leaves its old name behind).
        EveningBalance.objects.filter(evening_id=following, cents=0).delete()
        Evening.objects.filter(pk=following).update(
            version=F("version") + 1, updated_at=timezone.now()
        )
        Event.objects.create(
            evening_id=following,
            kind="adjusted",
            details={
                "from": evening.pk,
                "game": game.pk,
                "balances": [[name, cents] for (name, _person), cents in difference.items()],
            },
            actor=actor.role,
            device=actor.device,
        )
        following = (
            Evening.objects.filter(pk=following).values_list("next_evening_id", flat=True).first()
        )


# PostgreSQL's channel of the change feed: the trigger of migration 0009 sends each change on
# it, ``warm.tell_kept`` each viewers' answer kept ("s"), ``continental/live.py`` listens.
LIVE_CHANNEL = "scorepad_live"


class LiveChange(models.Model):
    """One raised version of a game or an evening, or one of its links replaced: the change
    feed of the stream process on SQLite (``continental/live.py`` reads every row after the
    last it saw with one query). Written by a database trigger in the changing transaction
    (migration 0009), and by ``warm.tell_kept`` when a change's viewers' answer is kept; on
    PostgreSQL both send ``NOTIFY`` instead and this table stays empty. The stream process
    deletes the old rows."""

    # "g" a game, "e" an evening (the trigger's); "s" a game's viewers' answer kept (warm.py)
    kind = models.CharField(max_length=1)
    object_id = models.BigIntegerField()
    version = models.PositiveIntegerField()
    revoked = models.BooleanField(default=False)  # a link of it was replaced

    def __str__(self) -> str:
        return f"{self.kind}{self.object_id} v{self.version}"


# The tournament's models are the app's too (Django finds them here).
from .tournaments import Entrant, Table, TableSeat, Tournament  # noqa: E402
