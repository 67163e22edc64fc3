"""The kernel of everything shared by a link: a game, an evening, a circle (and whatever
comes next: a tournament's links are more kinds of the same).

A shared thing (``Shared``) is reached through its links: random tokens of 144 bits, one
column per kind of link (``LINKS``: a viewer's and an editor's today), each replaceable
(``replace_link``: the old one then leads nowhere). Every change goes through ``change``:

1. one ``UPDATE`` moves the version on, if the thing is still at the version the form was
   made at and no entry of the history holds the form's one-time token (``once``), in the
   same statement; when it changes nothing, one more query tells "already done" (the token
   is in the history) from "stale";
2. ``apply`` makes the change itself, in the same transaction (the row is the change's now);
3. one ``Event`` records who changed what: the history, one table for every kind of shared
   thing, whose unique ``form_token`` makes a replayed form count once, whatever kind of
   thing it was sent to.

So every write moves exactly one version and writes exactly one entry of the history (a
thing's version is the number of entries of its history), a stale form changes nothing, and
a form sent twice is saved once. What a change does after its commit (the viewers' kept sheet,
``scorepad/warm.py``) is the caller's, registered with ``transaction.on_commit``
(``scorepad/views/writes.py``): nothing here reaches a request.

One table with a nullable foreign key per kind and a check that exactly one is set, rather
than Django's generic relations: a thing's history is one indexed query, deleting the thing
deletes its history (the database's cascade), and a one-time token is unique across every
kind with one unique column (docs/architecture.md, "The kernel").
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from django.db import IntegrityError, models, transaction
from django.db.models import Exists, F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from . import pauses

TOKEN_BYTES = 18  # 144 bits; token_urlsafe gives 24 characters


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


class StaleVersion(Exception):
    """The thing changed since the form was rendered: nothing was saved."""


class AlreadyDone(Exception):
    """This form (its one-time token) was already saved: nothing was saved again."""


@dataclass(frozen=True)
class Actor:
    """Who makes a change: the phone that started the thing (session) or a link's holder,
    and which phone."""

    role: str  # "creator", "editor_link" or "import"
    device: str = ""


class SharedQuerySet(models.QuerySet):
    """The queries every shared thing answers, whatever its links."""

    def by_token(self, token: str) -> Self:
        """The thing a link of any kind leads to."""
        fields = self.model.LINKS.values()
        return self.filter(Q(*[Q(**{field: token}) for field in fields], _connector=Q.OR))

    def one(self) -> Any:
        """The thing of a ``by_token`` query, or None (a token is one thing's at most: no
        ORDER BY, LIMIT 1)."""
        return next(iter(self.order_by()[:1]), None)

    def version(self) -> int | None:
        """The version of the thing of a ``by_token`` query, or None: one query."""
        return next(iter(self.order_by().values_list("version", flat=True)[:1]), None)

    def known_to(self, ids: Sequence[int], tokens: Sequence[str]) -> Self:
        """Things a phone started (its session's ids) or opened a link of that still leads
        to them."""
        tokens = list(tokens)
        links = [Q(**{f"{field}__in": tokens}) for field in self.model.LINKS.values()]
        return self.filter(Q(Q(pk__in=list(ids)), *links, _connector=Q.OR))


class Shared(models.Model):
    """What a game, an evening and a circle have in common: links, a version, a history."""

    # The kinds of link: the name a form posts (``replace_link``) and the column keeping it.
    LINKS: ClassVar[dict[str, str]] = {"viewer": "viewer_token", "editor": "editor_token"}
    # The field of ``Event`` that names a thing of this kind.
    OWNER: ClassVar[str]

    version = models.PositiveIntegerField(default=1)
    viewer_token = models.CharField(max_length=64, unique=True, default=new_token)
    editor_token = models.CharField(max_length=64, unique=True, default=new_token)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        abstract = True

    def change(
        self,
        *,
        version: int,
        once: str | None,
        actor: Actor,
        kind: str,
        apply: Callable[[Any], dict[str, Any]],
    ) -> Event:
        """Apply one change if the thing is still at ``version`` and ``once`` was never
        used, and return its entry of the history; raises StaleVersion or AlreadyDone, and
        then nothing is changed. ``apply`` makes the change inside the transaction (the
        thing's row is locked by the version's update) and returns the details the history
        keeps (``deal_number``, when it names one, is a column of its own)."""
        unused = ~Exists(Event.objects.filter(form_token=once)) if once else Q()
        try:
            with transaction.atomic():
                bumped = (
                    type(self)
                    ._default_manager.filter(unused, pk=self.pk, version=version)
                    .update(version=F("version") + 1, updated_at=timezone.now())
                )
                if not bumped:
                    if once and Event.objects.filter(form_token=once).exists():
                        raise AlreadyDone
                    raise StaleVersion
                pauses.point(f"{self.OWNER}.write")  # the row is this change's now
                self.locked()
                details = apply(self)
                event = Event.objects.create(
                    **{self.OWNER: self},
                    kind=kind,
                    deal_number=details.pop("deal_number", None),
                    details=details,
                    actor=actor.role,
                    device=actor.device,
                    form_token=once or None,
                )
        except IntegrityError:
            # Two requests carrying the same one-time token raced past the check: the unique
            # column let one of them through.
            if once and Event.objects.filter(form_token=once).exists():
                raise AlreadyDone from None
            raise
        self.version = version + 1
        return event

    def history(self) -> models.QuerySet[Event]:
        """The entries of this thing's history (newest first, as ``Event`` orders them)."""
        return Event.objects.filter(**{self.OWNER: self})

    def locked(self) -> None:
        """What of the thing's row is read again once the change holds it (``change``):
        nothing, unless a kind says otherwise."""

    def replace_link(self, which: str, *, version: int, once: str | None, actor: Actor) -> Event:
        """A new link of the kind ``which``; the old one leads nowhere from now on."""
        field = self.LINKS[which]

        def apply(thing: Shared) -> dict[str, Any]:
            setattr(thing, field, new_token())
            type(thing)._default_manager.filter(pk=thing.pk).update(
                **{field: getattr(thing, field)}
            )
            return {"link": which}

        return self.change(
            version=version, once=once, actor=actor, kind="link_replaced", apply=apply
        )

    def start(
        self,
        *,
        actor: Actor,
        once: str | None = None,
        kind: str = "started",
        details: dict[str, Any] | None = None,
    ) -> Event:
        """The first entry of a new thing's history (its version 1)."""
        return Event.objects.create(
            **{self.OWNER: self},
            kind=kind,
            details=details or {},
            actor=actor.role,
            device=actor.device,
            form_token=once or None,
        )


# The kinds of shared thing: each a foreign key of ``Event``, exactly one set in an entry.
OWNERS = ("game", "evening", "circle", "tournament")


def one_owner(owners: Sequence[str]) -> Q:
    """Exactly one of the foreign keys ``owners`` is set."""
    return Q(
        *[Q(**{f"{o}__isnull": o != owner for o in owners}) for owner in owners],
        _connector=Q.OR,
    )


class Event(models.Model):
    """One entry of the history of a shared thing: who changed what, when. Exactly one of
    ``game``, ``evening``, ``circle`` and ``tournament`` names the thing."""

    KINDS: ClassVar[dict[str, dict[str, Any]]] = {
        "game": {
            "started": _("Game started"),
            "imported": _("Game imported"),
            "recorded": _("Deal recorded"),
            "edited": _("Deal edited"),
            "deleted": _("Deal deleted"),
            "undone": _("Last deal undone"),
            "restored": _("Deal brought back"),
            "joined": _("Player joined"),
            "left": _("Player left"),
            "returned": _("Player back at the table"),
            "took_over": _("Seat taken over"),
            "renamed": _("Player renamed"),
            "target": _("Target set"),
            "finished": _("Game ended"),
            "resumed": _("Game resumed"),
            "link_replaced": _("Link replaced"),
            "circle": _("Game put into a circle"),
            "carried": _("Money carried to the next evening"),
        },
        "evening": {
            "started": _("Evening started"),
            "carried_in": _("Balances carried in"),
            "added": _("Game added"),
            "removed": _("Game taken out"),
            "carried": _("Balances carried to the next evening"),
            "adjusted": _("Carried balances corrected"),
            "link_replaced": _("Link replaced"),
        },
        "tournament": {
            "started": _("Tournament started"),
            "entered": _("Player entered"),
            "dropped": _("Player dropped out"),
            "proposed": _("Seating proposed"),
            "swapped": _("Players swapped"),
            "series": _("Series started"),
            "corrected": _("Confirmed table corrected by the director"),
            "confirmed": _("Table's result confirmed"),
            "rejected": _("Table's result rejected"),
            "link_replaced": _("Link replaced"),
        },
        "circle": {
            "started": _("Circle started"),
            "renamed": _("Person renamed"),
            "merged": _("Two people merged"),
            "separated": _("People separated again"),
            "link_replaced": _("Link replaced"),
        },
    }
    ACTORS: ClassVar[dict[str, Any]] = {
        "editor_link": _("an editor link"),
        "import": _("an import"),
        "registration": _("the registration link"),
        "player": _("a player's own link"),
    }
    CREATORS: ClassVar[dict[str, Any]] = {
        "game": _("the phone that started the game"),
        "evening": _("the phone that started the evening"),
        "circle": _("the phone that started the circle"),
        "tournament": _("the director's phone"),
    }
    OWNERS: ClassVar[tuple[str, ...]] = OWNERS

    game = models.ForeignKey(
        "scorepad.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="events"
    )
    evening = models.ForeignKey(
        "scorepad.Evening", null=True, blank=True, on_delete=models.CASCADE, related_name="events"
    )
    circle = models.ForeignKey(
        "scorepad.Circle", null=True, blank=True, on_delete=models.CASCADE, related_name="events"
    )
    tournament = models.ForeignKey(
        "scorepad.Tournament",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="events",
    )
    at = models.DateTimeField(default=timezone.now)
    kind = models.CharField(max_length=16)
    deal_number = models.IntegerField(null=True, blank=True)
    details = models.JSONField(default=dict, blank=True)
    actor = models.CharField(max_length=16)
    device = models.CharField(max_length=16, blank=True)
    form_token = models.CharField(max_length=64, unique=True, null=True, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=one_owner(OWNERS), name="event_of_one_thing"),
        ]

    def __str__(self) -> str:
        number = f" {self.deal_number}" if self.deal_number is not None else ""
        return f"{self.kind}{number} of {self.owner} {self.owner_id}"

    @property
    def owner(self) -> str:
        """The kind of thing this entry is of: "game", "evening", "circle" or "tournament"."""
        return next(o for o in self.OWNERS if getattr(self, f"{o}_id") is not None)

    @property
    def owner_id(self) -> int | None:
        return getattr(self, f"{self.owner}_id")

    @property
    def label(self) -> str:
        return str(self.KINDS[self.owner].get(self.kind, self.kind))

    @property
    def actor_label(self) -> str:
        if self.actor == "creator":
            return str(self.CREATORS[self.owner])
        return str(self.ACTORS.get(self.actor, self.actor))
