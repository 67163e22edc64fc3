"""The seats of a new game being set up (the new-game page and an import): who sits where,
a person of the circle tapped or a name typed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

from rules.engine.variants import VARIANTS

from .. import pauses
from ..models import NAME_MAX, Circle, Evening, Game, Person, Seat, roots
from ..naming import name_key
from .data import small_int
from .names import clean_name, name_or_error

if TYPE_CHECKING:
    from ..access import CircleGrant


@dataclass
class SeatEntry:
    """A seat of a game being set up: a person of the circle (by id) or a new name."""

    name: str
    person_id: int | None = None

    @property
    def value(self) -> str:
        return f"p:{self.person_id}" if self.person_id else f"n:{self.name}"


class OnePersonTwice(Exception):
    """Two seats of a new game are one person of the circle now (merged, or one name typed
    on two phones, since the seats were set up): nothing is seated."""

    def __init__(self, first: str, second: str):
        super().__init__(first, second)
        self.first, self.second = first, second

    @property
    def message(self) -> str:
        return _(
            "%(name)s and %(other)s are one person of the circle now (merged on another "
            "phone): check the players and start again."
        ) % {"name": self.first, "other": self.second}


MAX_SEATS = max(v.max_players for v in VARIANTS.values())


class SeatList:
    """The seating order being set up, carried in hidden ``seat`` inputs between requests.

    ``roster``: the people of the circle the game is for, to tap instead of typing (a typed
    name is matched against them, case aside, and against no one else); empty for a game
    outside any circle, whose seats have names only."""

    def __init__(
        self,
        values: list[str],
        roster: dict[int, Person] | None = None,
        limit: int | None = MAX_SEATS,
        *,
        circle: Circle | None = None,
    ) -> None:
        """``limit``: the most seats (the new-game page: the largest table; an import of a
        game where players came and went has more seats than players at the table)."""
        self.circle = circle
        # What brought the circle to the new-game page (views/games.py): carried as it came.
        self.grant: CircleGrant | None = None
        # The evening the new game is to count in ("Next game" of its editor), if any.
        self.evening: Evening | None = None
        self.roster = roster or {}
        self.entries: list[SeatEntry] = []
        self.error = ""
        self.limit = limit
        for value in values[:limit]:
            kind, _sep, rest = value.partition(":")
            person_id = small_int(rest) if kind == "p" else None
            if person_id is not None and person_id in self.roster:
                self._append(SeatEntry(self.roster[person_id].name, person_id))
            elif kind == "n" and clean_name(rest):
                self.add_name(rest[:NAME_MAX])

    def _append(self, entry: SeatEntry) -> bool:
        if any(name_key(e.name) == name_key(entry.name) for e in self.entries):
            self.error = _("%(name)s already has a seat.") % {"name": entry.name}
            return False
        if self.limit is not None and len(self.entries) >= self.limit:
            self.error = _("A game has at most %(n)d players.") % {"n": self.limit}
            return False
        self.entries.append(entry)
        return True

    def add_name(self, raw: str) -> bool:
        name, error = name_or_error(raw, _("Type a name first."))
        if error:
            self.error = error
            return False
        for person in self.roster.values():
            if person.key == name_key(name):
                return self._append(SeatEntry(person.name, person.pk))
        known = self.circle.find(name) if self.circle is not None else None
        if known is not None and known.pk in self.roster:  # a name merged into someone
            return self._append(SeatEntry(known.name, known.pk))
        return self._append(SeatEntry(name))

    def add_person(self, person_id: int) -> bool:
        person = self.roster.get(person_id)
        return person is not None and self._append(SeatEntry(person.name, person.pk))

    def apply(self, op: str) -> None:
        """``up:i``, ``down:i``, ``remove:i`` or ``pick:<person id>``."""
        verb, _sep, arg = op.partition(":")
        i = small_int(arg)
        if i is None:
            return
        if verb == "pick":
            self.add_person(i)
            return
        if not 0 <= i < len(self.entries):
            return
        if verb == "remove":
            del self.entries[i]
        elif verb == "up" and i > 0:
            self.entries[i - 1], self.entries[i] = self.entries[i], self.entries[i - 1]
        elif verb == "down" and i < len(self.entries) - 1:
            self.entries[i + 1], self.entries[i] = self.entries[i], self.entries[i + 1]

    @property
    def values(self) -> list[str]:
        return [e.value for e in self.entries]

    def seat(self, game: Game) -> list[Seat]:
        """Seat these players at a new game, in order. In a circle's game each seat is a
        person of the circle (a new name becomes a new person of it); outside, a name.

        The people were read before the game's transaction; here, with the circle locked,
        each seat is read again (a merge or another game's new name may have come between):
        two seats that are one person now raise ``OnePersonTwice``, and nothing is seated."""
        seats = []
        circle = self.circle if game.circle_id is not None else None
        who: dict[int, int] = {}
        seated: dict[int, str] = {}  # the person each seat counts as: its name here
        if circle is not None:
            circle.lock()
            who = roots(circle.pk)
        pauses.point("new_game.seat")
        for position, entry in enumerate(self.entries):
            person = None
            if circle is not None:
                if entry.person_id:
                    person = circle.persons.filter(pk=entry.person_id).first()
                if person is None:
                    person = circle.person_for(entry.name)
                root = who.get(person.pk, person.pk)
                if root in seated:
                    raise OnePersonTwice(seated[root], entry.name)
                seated[root] = entry.name
            seats.append(
                Seat.objects.create(game=game, name=entry.name, person=person, position=position)
            )
        return seats

    def unseated(self) -> list[Person]:
        taken = {e.person_id for e in self.entries}
        return [p for p in self.roster.values() if p.pk not in taken]
