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

from typing import Any, ClassVar

from django.db import models
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules.engine.variants import VARIANT_IDS

from .kernel import Actor, Event, Shared, SharedQuerySet, new_token
from .models import NAME_MAX, Circle
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


class Tournament(Shared):
    """A club tournament: its setup, its players (``Entrant``) and its series."""

    OWNER = "tournament"
    LINKS: ClassVar[dict[str, str]] = {
        **Shared.LINKS,
        "registration": "registration_token",
    }

    class Ranking(models.TextChoices):
        PLACES = "places", _("placement points first")
        RELATIVE = "relative", _("score against the table first")

    class Seating(models.TextChoices):
        RESULT = "result", _("by the running result")
        DRAW = "draw", _("drawn again")
        APART = "apart", _("so that players meet as rarely as possible")

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
    seed = models.PositiveIntegerField()
    # The series in play (0: none yet, players enter).
    current = models.PositiveSmallIntegerField(default=0)
    registration_token = models.CharField(max_length=64, unique=True, default=new_token)
    # The club: its people are the players, its ratings count the tournament's games.
    circle = models.ForeignKey(
        Circle, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments"
    )

    objects = SharedQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def registration_open(self) -> bool:
        """Players enter until the last series starts (late entries join the next one)."""
        return self.current < self.series

    def players(self) -> list[Entrant]:
        return list(self.entrants.order_by("number"))

    def enter(self, name: str, *, version: int, once: str, actor: Actor) -> Event:
        """A new player, with the next start number and a link of their own; from the next
        series on (the first, before the tournament starts)."""
        name = normal_name(name) or name

        def apply(tournament: Tournament) -> dict[str, Any]:
            if not tournament.registration_open:
                raise TournamentClosed
            entrants = tournament.entrants.all()
            taken = next((e for e in entrants if e.key == name_key(name)), None)
            if taken is not None:
                raise EntrantNameTaken(taken)
            if len(entrants) >= PLAYERS_MAX:
                raise TournamentFull
            number = (entrants.aggregate(m=Max("number"))["m"] or 0) + 1
            entrant = Entrant.objects.create(
                tournament=tournament,
                number=number,
                name=name,
                first_series=tournament.current + 1,
            )
            return {"entrant": entrant.pk, "number": number, "name": name}

        return self.change(version=version, once=once, actor=actor, kind="entered", apply=apply)

    def drop_out(self, entrant_pk: int, *, version: int, once: str, actor: Actor) -> Event:
        """A player leaves the tournament: from the series in play on (a leaver of its game,
        docs/rules.md, Choice 30), seated in none after it."""

        def apply(tournament: Tournament) -> dict[str, Any]:
            entrant = tournament.entrants.get(pk=entrant_pk, dropped_after__isnull=True)
            entrant.dropped_after = tournament.current
            entrant.save(update_fields=["dropped_after"])
            return {"entrant": entrant.pk, "name": entrant.name, "series": tournament.current}

        return self.change(version=version, once=once, actor=actor, kind="dropped", apply=apply)


class Entrant(models.Model):
    """A player of a tournament: a start number, a name, a link of their own."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(_("name"), max_length=NAME_MAX)
    key = models.CharField(max_length=NAME_MAX * 2, editable=False)  # name_key(name)
    token = models.CharField(max_length=64, unique=True, default=new_token)
    # The first series the player is seated in (a late entry: a later one).
    first_series = models.PositiveSmallIntegerField(default=1)
    # The series the player dropped out in (0: before the first); None: still playing.
    dropped_after = models.PositiveSmallIntegerField(null=True, blank=True)
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
