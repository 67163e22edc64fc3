"""Back up every game of the database to one JSON document, and restore it.

    manage.py backup export [FILE|-]     (default: standard output)
    manage.py backup import FILE|-

The backup keeps every circle (its name, links, version, history and people, with who is
merged into whom) and every game (its circle, and each seat's person of it): its id, variant,
options, schedule, seats, deals with their inputs and scores, history, viewer and editor
links, version, status and timestamps; and every evening (its name, stake, links, version,
games with their stakes, balances carried in, the evening carried to, history). Each game's entry is a per-game JSON export
(``scorepad.transfer``) with these extra keys, so one game can also be imported on its own.

A game that cannot be read (a row damaged outside the app) is named on stderr and left out;
the others are written and the exit status is 3.

A restore goes into an empty database only (exit status 2 when any game or player is
there). Every value of the file is read first with the type, range and length of the column
it goes to (``scorepad.backupfile``: PostgreSQL's, on SQLite too), so that what restores
into one database restores into the other; a value that breaks them is refused with one
line naming its place (``evenings[1].carried[0].name: a text of 10000 characters, not a
text of at most 40 characters.``). The restore runs in one transaction: every deal goes
through the engine again and must score what the file says, and a file with any problem
restores nothing (exit status 1). Texts no database stores (NUL, lone surrogates: an SQLite
database may hold them from before) are cleaned, and each player or game cleaned is named on
stderr, so an SQLite database can always move to PostgreSQL.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.management.color import no_style
from django.db import DatabaseError, connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import override

from rules.engine.variants import VARIANT_IDS
from scorepad.backupfile import check_backup, check_numbers, load, parse_time, place
from scorepad.forms.storable import storable_text
from scorepad.kernel import Shared
from scorepad.models import (
    NAME_MAX,
    Actor,
    Circle,
    Deal,
    Entrant,
    Evening,
    EveningBalance,
    EveningGame,
    Event,
    Game,
    Person,
    Seat,
    Table,
    TableSeat,
    Tournament,
)
from scorepad.naming import distinct_name, name_key, normal_name
from scorepad.sheet import build_sheet, load_game
from scorepad.tokens import LINK
from scorepad.transfer import ImportProblem, export_document, import_game

FORMAT = "continental-scorepad-backup"
# 2: circles and their people; a seat names its person. 3: one history for every shared
# thing (scorepad/kernel.py): a one-time token is used once across circles, games and
# evenings. 4: a seat taken over names who played it before (``before_seats``, the person;
# the name and the deal are in the game's export). 5: tournaments, their players and history.
FORMAT_VERSION = 5
READS = (
    1,
    2,
    3,
    4,
    5,
)  # a backup of version 1 (players shared by name) restores its games outside circles
ACTOR = Actor("import", "backup")
NOT_EMPTY = 2
DEEP = "{file} is nested too deeply to be a backup. Nothing was imported."
PARTIAL = 3  # the backup was written, but some games could not be read and are not in it


def _time(value):
    return value.isoformat() if value is not None else None


def _check_links(
    games: list[Any], evenings: list[Any], circles: list[Any], tournaments: list[Any]
) -> None:
    """The links of the games, evenings, circles and tournaments (and of each tournament's
    players): each the shape the app makes (an empty or odd one opens nothing), no link
    used twice; and no evening carried, directly or round a circle, into itself. The
    messages say where, never the link itself (a key to a game)."""
    seen: dict[str, str] = {}
    players = [
        {"id": f"{item.get('id')}, player {p.get('number')}", "player_token": p.get("token")}
        for item in tournaments
        if isinstance(item, dict)
        for p in item.get("players") or []
        if isinstance(p, dict)
    ]
    kinds = (
        ("Game", games, ("viewer", "editor")),
        ("Evening", evenings, ("viewer", "editor")),
        ("Circle", circles, ("viewer", "editor")),
        ("Tournament", tournaments, ("viewer", "editor", "registration")),
        ("Tournament", players, ("player",)),
    )
    for kind, items, links in kinds:
        for n, item in enumerate(items, start=1):
            if not isinstance(item, dict):
                continue  # said later, with the rest of what is wrong with it
            label = f"{kind} #{item.get('id', n)}"
            for which in links:
                token = item.get(f"{which}_token")
                if not (isinstance(token, str) and LINK.fullmatch(token)):
                    raise ImportProblem(f"{label}: the {which} link is not a link the app makes.")
                _check(
                    token not in seen,
                    f"{label}: its {which} link is also a link of {seen.get(token)}.",
                )
                seen[token] = f"{label} ({which})"
    following = {
        item.get("id"): item.get("next_evening") for item in evenings if isinstance(item, dict)
    }
    for start in following:
        at, steps = following.get(start), 0
        while at is not None and steps <= len(following):
            _check(
                at != start, f"Evening #{start} is carried, directly or in a circle, into itself."
            )
            at, steps = following.get(at), steps + 1


# --- export ---------------------------------------------------------------------------------
def export_game(game_id: int) -> dict[str, Any]:
    game = load_game(Game.objects.filter(pk=game_id))
    assert game is not None  # one of the games the export lists
    sheet = build_sheet(game)
    document = export_document(sheet)
    for item, deal in zip(document["deals"], (row.deal for row in sheet.rows), strict=True):
        item["created_at"] = _time(deal.created_at)
        item["updated_at"] = _time(deal.updated_at)
    document.update(
        id=game.pk,
        circle=game.circle_id,
        seats=[seat.person_id for seat in sheet.seats],
        before_seats=[seat.before_person_id for seat in sheet.seats],
        version=game.version,
        clock_ends=_time(game.clock_ends),
        viewer_token=game.viewer_token,
        editor_token=game.editor_token,
        updated_at=_time(game.updated_at),
        history=export_history(game),
    )
    return document


def _shared_fields(thing: Shared) -> dict[str, Any]:
    """What the kernel keeps of every shared thing: its version, its links, its times."""
    return {
        "version": thing.version,
        **{field: getattr(thing, field) for field in thing.LINKS.values()},
        "created_at": _time(thing.created_at),
        "updated_at": _time(thing.updated_at),
    }


def export_circles() -> list[dict[str, Any]]:
    """Every circle with its people (who is merged into whom) and its history."""
    return [
        {
            "id": circle.pk,
            "name": circle.name,
            **_shared_fields(circle),
            "people": [
                {
                    "id": person.pk,
                    "name": person.name,
                    "merged_into": person.merged_into_id,
                    "created_at": _time(person.created_at),
                }
                for person in circle.persons.order_by("pk")
            ],
            "history": export_history(circle),
        }
        for circle in Circle.objects.order_by("pk")
    ]


def export_history(shared: Shared) -> list[dict[str, Any]]:
    """A shared thing's history, oldest first (the kernel's one history: each kind's entries
    in the file as before); a game's entries with their ids, which a "restored" entry's
    source names, and their deal numbers."""
    out = []
    for event in shared.history().order_by("pk"):
        item: dict[str, Any] = {"id": event.pk} if isinstance(shared, Game) else {}
        item.update(at=_time(event.at), kind=event.kind)
        if isinstance(shared, Game):
            item["deal_number"] = event.deal_number
        item.update(
            details=event.details,
            actor=event.actor,
            device=event.device,
            form_token=event.form_token,
        )
        out.append(item)
    return out


def restored_history(shared: Shared, history: list[Any], label: str) -> list[Event]:
    """The entries of a thing's history as the file keeps them, stored."""
    events = [
        Event(
            **{shared.OWNER: shared},
            at=parse_time(item["at"], label),
            kind=item["kind"],
            deal_number=item.get("deal_number") if isinstance(shared, Game) else None,
            details=item.get("details") or {},
            actor=item["actor"],
            device=item.get("device") or "",
            form_token=item.get("form_token") or None,
        )
        for item in history
    ]
    # Both databases return the new ids (PostgreSQL; SQLite from 3.35, which Django 5.2 needs).
    return Event.objects.bulk_create(events)


def export_tournaments() -> list[dict[str, Any]]:
    """Every tournament with its players and history."""
    fields = ("series", "deals", "minutes", "ranking", "seating", "current", "seed")
    return [
        {
            "id": tournament.pk,
            "name": tournament.name,
            "variant": tournament.variant_id,
            "options": tournament.options,
            **{field: getattr(tournament, field) for field in fields},
            "series_started": _time(tournament.series_started),
            **_shared_fields(tournament),
            "circle": tournament.circle_id,
            "proposal": tournament.proposal,
            "players": [
                {
                    "id": player.pk,
                    "number": player.number,
                    "name": player.name,
                    "token": player.token,
                    "first_series": player.first_series,
                    "dropped_after": player.dropped_after,
                    "person": player.person_id,
                    "created_at": _time(player.created_at),
                }
                for player in tournament.entrants.order_by("pk")
            ],
            "tables": [
                {
                    "series": table.series,
                    "number": table.number,
                    "game": table.game_id,
                    "players": [seat.entrant_id for seat in table.seated.all()],
                    "confirmed_version": table.confirmed_version,
                    "confirmed_by": table.confirmed_by_id,
                    "note": table.note,
                }
                for table in tournament.tables.prefetch_related("seated").order_by("pk")
            ],
            "history": export_history(tournament),
        }
        for tournament in Tournament.objects.order_by("pk")
    ]


def export_evenings(game_ids: set[int]) -> list[dict[str, Any]]:
    """Every evening, with the games of ``game_ids`` (a game left out is left out of its
    evenings too)."""
    return [
        {
            "id": evening.pk,
            "name": evening.name,
            "stake": str(evening.stake),
            **_shared_fields(evening),
            "next_evening": evening.next_evening_id,
            "circle": evening.circle_id,
            "games": [
                {
                    "game": entry.game_id,
                    "stake": str(entry.stake),
                    "position": entry.position,
                    "added_at": _time(entry.added_at),
                }
                for entry in evening.games.order_by("position")
                if entry.game_id in game_ids
            ],
            "carried": [
                {"name": balance.name, "person": balance.person_id, "cents": balance.cents}
                for balance in evening.carried.order_by("pk")
            ],
            "history": export_history(evening),
        }
        for evening in Evening.objects.order_by("pk")
    ]


def export_database() -> tuple[dict[str, Any], list[tuple[int, str]]]:
    """Every player and game, read in one transaction (one consistent snapshot); and the
    games that could not be read (id, why), left out so that the others are kept."""
    outermost = not connection.in_atomic_block
    # SQLite: the IMMEDIATE transaction holds writers back (they wait, within the busy
    # timeout) while the backup is read.
    with transaction.atomic():
        if connection.vendor == "postgresql" and outermost:
            # One snapshot for all the queries, and no locks that would hold up the players.
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        circles = export_circles()
        games, damaged = [], []
        for pk in Game.objects.order_by("pk").values_list("pk", flat=True):
            try:
                # A savepoint: a game the database cannot read leaves the rest readable.
                with transaction.atomic():
                    games.append(export_game(pk))
            except (ArithmeticError, LookupError, TypeError, ValueError, DatabaseError) as exc:
                damaged.append((pk, f"{type(exc).__name__}: {exc}"))
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "exported_at": _time(timezone.now()),
        "circles": circles,
        "games": games,
        "evenings": export_evenings({game["id"] for game in games}),
        "tournaments": export_tournaments(),
    }, damaged


# --- import ---------------------------------------------------------------------------------
class NotEmpty(Exception):
    pass


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise ImportProblem(message)


def _storable(item: Any, label: str, cleaned: list[str]) -> Any:
    """``item`` with NULs removed and lone surrogates replaced (no database stores them; an
    SQLite database may hold them from before), noting in ``cleaned`` what was changed."""
    item, changed = storable_text(item)
    if changed:
        cleaned.append(
            f"{label}: {changed} text(s) held a NUL or a broken character; "
            "NULs were removed, broken characters replaced by U+FFFD."
        )
    return item


def import_database(document: Any, cleaned: list[str] | None = None) -> tuple[int, int]:
    """Restore a backup into an empty database; return (players, games) restored. Texts no
    database can store are cleaned, and each place is told in ``cleaned``."""
    cleaned = [] if cleaned is None else cleaned
    _check(
        isinstance(document, dict) and document.get("format") == FORMAT,
        "This is not a backup of the score pad.",
    )
    check_numbers(document)  # a number of 5,000 digits or a NaN, wherever it stands
    _check(
        document.get("format_version") in READS,
        f"This backup has format version {document.get('format_version')!r}; "
        f"this version of the app reads {FORMAT_VERSION}.",
    )
    games = document.get("games")
    _check(isinstance(games, list), "The backup has no list of games.")
    old = document.get("format_version") == 1  # its seats name shared players: names only
    circles = [] if old else document.get("circles", [])
    _check(isinstance(circles, list), "The backup's circles are not a list.")
    circles = [
        _storable(item, f"Circle #{item.get('id') if isinstance(item, dict) else n}", cleaned)
        for n, item in enumerate(circles, start=1)
    ]
    games = [
        _storable(entry, f"Game #{entry.get('id') if isinstance(entry, dict) else n}", cleaned)
        for n, entry in enumerate(games, start=1)
    ]
    evenings = document.get("evenings", [])  # a backup from before evenings has none
    _check(isinstance(evenings, list), "The backup's evenings are not a list.")
    evenings = [
        _storable(item, f"Evening #{item.get('id') if isinstance(item, dict) else n}", cleaned)
        for n, item in enumerate(evenings, start=1)
    ]
    tournaments = document.get("tournaments", [])  # a backup from before tournaments has none
    _check(isinstance(tournaments, list), "The backup's tournaments are not a list.")
    tournaments = [
        _storable(item, f"Tournament #{item.get('id') if isinstance(item, dict) else n}", cleaned)
        for n, item in enumerate(tournaments, start=1)
    ]
    # Every value of the type, range and length of its column (before any is stored), then
    # what the columns hold once: ids, links, one-time tokens, balances' names.
    check_backup(
        {"circles": circles, "games": games, "evenings": evenings, "tournaments": tournaments},
        old=old,
    )
    _check_links(games, evenings, circles, tournaments)
    _check_once(circles, games, evenings)
    _once([(("tournaments", n, "id"), item["id"]) for n, item in enumerate(tournaments)], "id")
    _check_form_tokens(circles, "circle", "Circle")
    _check_form_tokens(games, "game", "Game")
    _check_form_tokens(evenings, "evening", "Evening")
    _check_form_tokens(tournaments, "tournament", "Tournament")
    _one_history(
        games, circles, evenings, tournaments, strict=document.get("format_version") in (3, 4, 5)
    )
    with transaction.atomic():
        if any(m.objects.exists() for m in (Game, Circle, Evening, Tournament)):
            raise NotEmpty
        try:
            people = _import_circles(circles)
        except ImportProblem:
            raise
        except (AttributeError, KeyError, TypeError, ValueError, ArithmeticError) as exc:
            raise ImportProblem(f"A circle is not readable ({exc!r}).") from None
        for number, entry in enumerate(games, start=1):
            _check(isinstance(entry, dict), f"Game {number} of the backup is not readable.")
            label = f"Game #{entry.get('id', number)}"
            try:
                _import_game(entry, people, old=old)
            except ImportProblem as exc:
                raise ImportProblem(f"{label}: {exc}") from None
            except (AttributeError, KeyError, TypeError, ValueError, ArithmeticError) as exc:
                raise ImportProblem(f"{label} is not readable ({exc!r}).") from None
        try:
            _import_evenings(evenings, people, old=old)
        except ImportProblem:
            raise
        except (AttributeError, KeyError, TypeError, ValueError, ArithmeticError) as exc:
            raise ImportProblem(f"An evening is not readable ({exc!r}).") from None
        try:
            _import_tournaments(tournaments)
        except ImportProblem:
            raise
        except (AttributeError, KeyError, TypeError, ValueError, ArithmeticError) as exc:
            raise ImportProblem(f"A tournament is not readable ({exc!r}).") from None
        # Ids were given explicitly: move the sequences past them (PostgreSQL).
        with connection.cursor() as cursor:
            models = [Circle, Person, Game, Evening, Tournament, Entrant, Table, TableSeat]
            for sql in connection.ops.sequence_reset_sql(no_style(), models):
                cursor.execute(sql)
    return len(people), len(games)


def _check_form_tokens(items: list[Any], what: str, kind: str) -> None:
    """The one-time tokens of a history are used once: a token twice is a damaged file."""
    used: set[Any] = set()
    for n, item in enumerate(items, start=1):
        history = item.get("history") if isinstance(item, dict) else None
        for event in history if isinstance(history, list) else []:
            token = event.get("form_token") if isinstance(event, dict) else None
            if token:
                _check(
                    token not in used,
                    f"{kind} #{item.get('id', n)}: a one-time token of its history is used "
                    f"twice in the {what}s of the backup.",
                )
                used.add(token)


def _one_history(*kinds: list[Any], strict: bool) -> None:
    """A one-time token is used once across every history (format 3 on: a token twice is a
    damaged file). A backup of before kept three histories, which may share a token (a
    form's token sent to a game, then to an evening): the later entry keeps its place in the
    history without it, as migration 0012 did (games first, then circles, then evenings)."""
    used: set[Any] = set()
    for items in kinds:
        for n, item in enumerate(items, start=1):
            history = item.get("history") if isinstance(item, dict) else None
            for event in history if isinstance(history, list) else []:
                token = event.get("form_token") if isinstance(event, dict) else None
                if not token:
                    continue
                if token in used:
                    _check(
                        not strict,
                        f"#{item.get('id', n)}: a one-time token of its history is used twice "
                        "in the backup.",
                    )
                    event["form_token"] = None
                used.add(token)


def _check_once(circles: list[Any], games: list[Any], evenings: list[Any]) -> None:
    """What a column holds once (the shapes already read): each id of a circle, a person, a
    game and an evening; an evening carried into by one evening only; a balance's name once
    in its evening. Said with the place of the second."""
    for key, items in (("circles", circles), ("games", games), ("evenings", evenings)):
        _once([((key, n, "id"), item["id"]) for n, item in enumerate(items)], "id")
    _once(
        [
            (("circles", n, "people", i, "id"), person["id"])
            for n, circle in enumerate(circles)
            for i, person in enumerate(circle.get("people") or [])
        ],
        "id",
    )
    _once(
        [
            (("evenings", n, "next_evening"), item["next_evening"])
            for n, item in enumerate(evenings)
            if item.get("next_evening") is not None
        ],
        "next evening",
    )
    for n, item in enumerate(evenings):
        _once(
            [
                (("evenings", n, "carried", i, "name"), balance["name"])
                for i, balance in enumerate(item.get("carried") or [])
            ],
            "name",
        )


def _once(values: list[tuple[tuple[str | int, ...], Any]], what: str) -> None:
    first: dict[Any, tuple[str | int, ...]] = {}
    for path, value in values:
        if value in first:
            raise ImportProblem(f"{place(path)}: the same {what} as {place(first[value])}.")
        first[value] = path


def _import_circles(circles: list[Any]) -> dict[int, Person]:
    """The circles of a backup, their people (who is merged into whom) and history; the
    people by id."""
    people: dict[int, Person] = {}
    merges = []
    keys: dict[int, set[str]] = {}  # the name keys of each circle's people so far
    for item in circles:
        label = f"Circle #{item['id']}"
        circle = Circle.objects.create(
            pk=item["id"],
            name=normal_name(item.get("name") or ""),
            version=item["version"],
            viewer_token=item["viewer_token"],
            editor_token=item["editor_token"],
            created_at=parse_time(item.get("created_at"), label),
            updated_at=parse_time(item.get("updated_at"), label),
        )
        for person in item.get("people") or []:
            _check(person["name"] != "", f"{label}: person #{person['id']} has no name.")
            # The name rule, and one row per name: a backup made before it may hold two
            # people of one name (the later one is kept as "Zoe (2)", as migration 0010 does).
            taken = keys.setdefault(circle.pk, set())
            name = distinct_name(normal_name(person["name"]) or "?", taken, NAME_MAX)
            taken.add(name_key(name))
            people[person["id"]] = Person(
                pk=person["id"],
                circle=circle,
                name=name,
                key=name_key(name),
                created_at=parse_time(person.get("created_at"), label),
            )
            if person.get("merged_into") is not None:
                merges.append((person["id"], person["merged_into"], circle.pk, label))
        restored_history(circle, item.get("history") or [], label)
    Person.objects.bulk_create(people.values())
    for pk, into, circle_id, label in merges:
        _check(
            into in people and people[into].circle_id == circle_id and into != pk,
            f"{label}: a person is merged into someone not of the circle.",
        )
        people[pk].merged_into_id = into
    Person.objects.bulk_update([people[pk] for pk, *_rest in merges], ["merged_into"])
    return people


def _names_apart(entry: dict[str, Any]) -> dict[str, Any]:
    """The game's players under the name rule, two of one name kept apart ("Anna (2)"): a
    backup made before the rule may seat "Anna" and "Anna" with a zero-width space, which
    an import refuses as one name given twice. Those who left follow their seats."""
    players, left = entry.get("players"), entry.get("left") or []
    if not (isinstance(players, list) and all(isinstance(n, str) for n in players)):
        return entry  # the import says what is wrong
    taken: set[str] = set()
    names = []
    for name in players:
        names.append(distinct_name(normal_name(name) or "?", taken, NAME_MAX))
        taken.add(name_key(names[-1]))
    gone = [new for old, new in zip(players, names, strict=True) if old in left]
    return {**entry, "players": names, "left": gone if isinstance(left, list) else left}


def _import_game(entry: dict[str, Any], people: dict[int, Person], *, old: bool) -> None:
    circle = None if old else entry.get("circle")
    seat_ids: list[Any] = [None] * len(entry.get("players") or []) if old else entry["seats"]
    _check(
        circle is None or (isinstance(circle, int) and Circle.objects.filter(pk=circle).exists()),
        "the game's circle is not in the backup.",
    )
    _check(
        isinstance(seat_ids, list)
        and all(
            i is None if circle is None else (i in people and people[i].circle_id == circle)
            for i in seat_ids
        ),
        "a seated person is not in the game's circle.",
    )
    fields = {
        "pk": entry["id"],
        "viewer_token": entry["viewer_token"],
        "editor_token": entry["editor_token"],
        "version": entry["version"],
        "created_at": parse_time(entry.get("created_at"), "created_at"),
    }
    # Every deal is scored by the engine again and must match the file's scores.
    entry = _names_apart(entry)
    game = import_game(entry, actor=ACTOR, fields=fields, max_deals=None, max_seats=None)
    seats = list(game.seats.order_by("position"))
    _check(len(seats) == len(seat_ids), "the players' names do not match the seated players.")
    if circle is not None:
        Game.objects.filter(pk=game.pk).update(circle_id=circle)
        _check(
            len({people[i].pk for i in seat_ids}) == len(seat_ids),
            "a person of the circle has two seats.",
        )
        before_ids = entry.get("before_seats") or [None] * len(seats)
        _check(
            isinstance(before_ids, list)
            and len(before_ids) == len(seats)
            and all(
                i is None or (i in people and people[i].circle_id == circle) for i in before_ids
            ),
            "a person who played a seat before is not in the game's circle.",
        )
        for seat, person, before in zip(seats, seat_ids, before_ids, strict=True):
            seat.person = people[person]
            seat.before_person = people[before] if before is not None else None
        Seat.objects.bulk_update(seats, ["person", "before_person"])
    _check(
        [s.total for s in seats] == entry.get("totals"),
        "the totals in the file do not match the deals.",
    )
    # The file's own status, options and timestamps, as they were.
    _check(entry.get("status") in Game.Status.values, "unknown status.")
    Game.objects.filter(pk=game.pk).update(
        status=entry["status"],
        finished_at=parse_time(entry.get("finished_at"), "finished_at", optional=True),
        clock_ends=parse_time(entry.get("clock_ends"), "clock_ends", optional=True),
        updated_at=parse_time(entry.get("updated_at"), "updated_at"),
    )
    deals = list(game.deals.order_by("number"))
    for deal, item in zip(deals, entry["deals"], strict=True):
        deal.created_at = parse_time(item.get("created_at"), f"deal {deal.number}")
        deal.updated_at = parse_time(item.get("updated_at"), f"deal {deal.number}")
    Deal.objects.bulk_update(deals, ["created_at", "updated_at"])
    # The game's own history instead of the "imported" entry.
    game.events.all().delete()
    history = entry.get("history") or []
    _check(isinstance(history, list), "the history is not a list.")
    events = restored_history(game, history, "history")
    _repoint_sources(history, events)


def _repoint_sources(history: list[Any], events: list[Event]) -> None:
    """A "restored" entry names the entry of the deal it brought back by its id; the
    restored history has new ids, so point it at the new one. A source the backup does not
    hold (a backup from before ids were written) points at nothing rather than at whatever
    entry has that id now, which would hide that entry's Bring back or offer one twice."""
    new_id = {
        item["id"]: event.pk
        for item, event in zip(history, events, strict=True)
        if isinstance(item.get("id"), int) and not isinstance(item.get("id"), bool)
    }
    changed = []
    for event in events:
        details = event.details
        if event.kind == "restored" and isinstance(details, dict) and "source" in details:
            source = details["source"]
            known = isinstance(source, int) and not isinstance(source, bool)
            event.details = {**details, "source": new_id.get(source) if known else None}
            changed.append(event)
    Event.objects.bulk_update(changed, ["details"])


def _stake(value: Any, label: str) -> Decimal:
    stake = Decimal(str(value))
    _check(
        stake.is_finite() and Decimal("0.01") <= stake < 10_000_000 and stake == round(stake, 2),
        f"{label}: the stake {value!r} is not an amount from 0.01 to 9999999.99.",
    )
    return stake


def _import_evenings(evenings: list[Any], people: dict[int, Person], *, old: bool) -> None:
    """The evenings of a backup, after its games: ids, links and history as they were."""
    games = set(Game.objects.values_list("pk", flat=True))
    placed: dict[int, int] = {}  # game id -> the evening it is in: one evening per game
    made = []
    for item in evenings:
        label = f"Evening #{item['id']}"
        evening = Evening.objects.create(
            pk=item["id"],
            name=normal_name(item.get("name") or ""),
            stake=_stake(item["stake"], label),
            version=item["version"],
            viewer_token=item["viewer_token"],
            editor_token=item["editor_token"],
            created_at=parse_time(item.get("created_at"), label),
            updated_at=parse_time(item.get("updated_at"), label),
            circle_id=None if old else item.get("circle"),
        )
        _check(
            evening.circle_id is None or Circle.objects.filter(pk=evening.circle_id).exists(),
            f"{label}: the evening's circle is not in the backup.",
        )
        in_circle = (
            Q(circle__isnull=True) if evening.circle_id is None else Q(circle=evening.circle_id)
        )
        ours = set(Game.objects.filter(in_circle).values_list("pk", flat=True))
        for entry in item.get("games") or []:
            _check(entry["game"] in games, f"{label}: a game of the evening is not in the backup.")
            _check(entry["game"] in ours, f"{label}: a game of the evening is not of its circle.")
            _check(
                entry["game"] not in placed,
                f"{label}: game #{entry['game']} is in evening #{placed.get(entry['game'])} "
                "too; a game's money counts in one evening only.",
            )
            placed[entry["game"]] = evening.pk
            EveningGame.objects.create(
                evening=evening,
                game_id=entry["game"],
                stake=_stake(entry["stake"], label),
                position=entry["position"],
                added_at=parse_time(entry.get("added_at"), label),
            )
        carried = item.get("carried") or []
        _check(
            sum(b["cents"] for b in carried) == 0,
            f"{label}: the carried balances do not sum to zero.",
        )
        for b in carried:
            person = None if old else b.get("person")
            _check(
                person is None
                or (person in people and people[person].circle_id == evening.circle_id),
                f"{label}: a carried balance's person is not of the evening's circle.",
            )
        EveningBalance.objects.bulk_create(
            EveningBalance(
                evening=evening,
                name=b["name"],
                person_id=None if old else b.get("person"),
                cents=b["cents"],
            )
            for b in carried
        )
        restored_history(evening, item.get("history") or [], label)
        made.append((evening, item.get("next_evening")))
    ids = {evening.pk for evening, _next in made}
    for evening, following in made:
        if following is not None:
            _check(
                following in ids, f"Evening #{evening.pk}: the next evening is not in the backup."
            )
            Evening.objects.filter(pk=evening.pk).update(next_evening_id=following)
    # The games of a carried evening carry a later correction forward (models.carry_difference).
    closed = [evening.pk for evening, following in made if following is not None]
    Game.objects.filter(evening_games__evening__in=closed).update(carried=True)


def _import_tournaments(tournaments: list[Any]) -> None:
    """The tournaments of a backup, after its circles: ids, links, players and history as
    they were."""
    for item in tournaments:
        label = f"Tournament #{item['id']}"
        _check(item["variant"] in VARIANT_IDS, f"{label}: the game {item['variant']!r} is unknown.")
        for field, choices in (("ranking", Tournament.Ranking), ("seating", Tournament.Seating)):
            _check(
                item.get(field) is None or item[field] in choices.values,
                f"{label}: the {field} {item.get(field)!r} is unknown.",
            )
        _check(
            item.get("circle") is None or Circle.objects.filter(pk=item["circle"]).exists(),
            f"{label}: the tournament's circle is not in the backup.",
        )
        fields = ("series", "deals", "minutes", "ranking", "seating", "current")
        tournament = Tournament.objects.create(
            pk=item["id"],
            name=normal_name(item["name"]),
            variant_id=item["variant"],
            options=item.get("options") or {},
            **{field: item[field] for field in fields if item.get(field) is not None},
            seed=item["seed"],
            version=item["version"],
            **{field: item[field] for field in Tournament.LINKS.values()},
            circle_id=item.get("circle"),
            series_started=parse_time(item.get("series_started"), label, optional=True),
            created_at=parse_time(item.get("created_at"), label),
            updated_at=parse_time(item.get("updated_at"), label),
        )
        players = item.get("players") or []
        _once([((label, n, "number"), p["number"]) for n, p in enumerate(players)], "number")
        _once([((label, n, "name"), name_key(p["name"])) for n, p in enumerate(players)], "name")
        people = set(
            Person.objects.filter(circle_id=item.get("circle")).values_list("pk", flat=True)
        )
        for player in players:
            _check(
                player.get("person") in people | {None},
                f"{label}: a player is no person of the tournament's circle.",
            )
            Entrant.objects.create(
                pk=player["id"],
                tournament=tournament,
                number=player["number"],
                name=normal_name(player["name"]),
                token=player["token"],
                first_series=player.get("first_series") or 1,
                dropped_after=player.get("dropped_after"),
                person_id=player.get("person"),
                created_at=parse_time(player.get("created_at"), label),
            )
        _import_tables(tournament, item.get("tables") or [], label)
        _import_proposal(tournament, item.get("proposal"), {p["number"] for p in players}, label)
        restored_history(tournament, item.get("history") or [], label)


def _import_proposal(tournament: Tournament, proposal: Any, numbers: set[int], label: str) -> None:
    """A tournament's proposed seating of its next series: each of its players once."""
    if proposal is None:
        return

    def numbers_of(rows: Any) -> list[Any]:
        ok = isinstance(rows, list) and all(isinstance(row, list) for row in rows)
        return [n for row in rows for n in row] if ok else [None]

    seated = numbers_of(proposal.get("tables")) if isinstance(proposal, dict) else [None]
    swaps = proposal.get("swaps", []) if isinstance(proposal, dict) else [None]
    swapped = numbers_of(swaps)
    _check(
        isinstance(proposal, dict)
        and proposal.get("series") == tournament.current + 1
        and all(isinstance(n, int) and n in numbers for n in seated + swapped)
        and len(set(seated)) == len(seated)
        and all(isinstance(pair, list) and len(pair) == 2 for pair in swaps or [])
        and isinstance(proposal.get("how"), str)
        and isinstance(proposal.get("seed"), str),
        f"{label}: the proposed seating is not one of its players' seatings.",
    )
    Tournament.objects.filter(pk=tournament.pk).update(proposal=proposal)


def _import_tables(tournament: Tournament, tables: list[Any], label: str) -> None:
    """A tournament's tables: each a game of the backup, seating the tournament's players,
    each player at one table a series."""
    players = set(tournament.entrants.values_list("pk", flat=True))
    games = set(Game.objects.values_list("pk", flat=True))
    placed: set[tuple[int, int]] = set()
    for entry in tables:
        _check(entry["game"] in games, f"{label}: a table's game is not in the backup.")
        seated = entry.get("players") or []
        _check(
            set(seated) <= players and entry.get("confirmed_by") in players | {None},
            f"{label}: a table seats someone who is not a player of the tournament.",
        )
        for pk in seated:
            _check((pk, entry["series"]) not in placed, f"{label}: a player sits twice a series.")
            placed.add((pk, entry["series"]))
        table = Table.objects.create(
            tournament=tournament,
            series=entry["series"],
            number=entry["number"],
            game_id=entry["game"],
            confirmed_version=entry.get("confirmed_version"),
            confirmed_by_id=entry.get("confirmed_by"),
            note=entry.get("note") or "",
        )
        TableSeat.objects.bulk_create(
            TableSeat(table=table, entrant_id=pk, series=table.series, position=i)
            for i, pk in enumerate(seated)
        )


# --- the command --------------------------------------------------------------------------


def counted(n: int, one: str, many: str = "") -> str:
    """``1 game``, ``2 games``: what the command says to whoever runs it (in English)."""
    return f"{n} {one if n == 1 else many or one + 's'}"


class Command(BaseCommand):
    help = "Export every game to one JSON backup, or restore such a backup into an empty database."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        export = actions.add_parser("export", help="Write the backup (FILE, or - for stdout).")
        export.add_argument("file", nargs="?", default="-")
        restore = actions.add_parser(
            "import", help="Restore a backup (FILE, or - for stdin) into an empty database."
        )
        restore.add_argument("file")

    def handle(self, *args: Any, action: str, file: str, **options: Any) -> None:
        with override("en"):
            if action == "export":
                self.export(file)
            else:
                self.restore(file)

    def export(self, file: str) -> None:
        document, damaged = export_database()
        text = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
        if file == "-":
            self.stdout.write(text, ending="")
        else:
            self.write_file(Path(file), text, document)
        if damaged:
            for pk, why in damaged:
                self.stderr.write(f"Game #{pk} could not be read and is not in the backup ({why}).")
            raise CommandError(
                f"{len(damaged)} damaged game(s) left out; every other game was written.",
                returncode=PARTIAL,
            )

    def write_file(self, target: Path, text: str, document: dict[str, Any]) -> None:
        # Write next to the target and rename: a failed export never leaves half a file.
        fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=".backup-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        self.stderr.write(
            f"Wrote {counted(len(document['games']), 'game')} and "
            f"{counted(len(document['circles']), 'circle')} to {target}."
        )

    def restore(self, file: str) -> None:
        try:
            if file == "-":
                document = load(sys.stdin)
            else:
                with open(file, encoding="utf-8") as source:
                    document = load(source)
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror}.") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CommandError(f"{file} is not a JSON backup: {exc}") from None
        except RecursionError:
            raise CommandError(DEEP.format(file=file)) from None
        cleaned: list[str] = []
        try:
            players, games = import_database(document, cleaned)
        except NotEmpty:
            raise CommandError(
                "The database already has games or players: a backup is restored only into "
                "an empty database. Nothing was imported.",
                returncode=NOT_EMPTY,
            ) from None
        except ImportProblem as exc:
            raise CommandError(f"{exc} Nothing was imported.") from None
        except RecursionError:
            raise CommandError(DEEP.format(file=file)) from None
        except DatabaseError as exc:
            said = " ".join(str(exc).split())  # PostgreSQL's DETAIL on a line of its own
            raise CommandError(
                f"The database refused the backup ({said}). Nothing was imported."
            ) from None
        for line in cleaned:
            self.stderr.write(line)
        self.stdout.write(
            f"Restored {counted(games, 'game')} and {counted(players, 'person', 'people')} "
            "of circles."
        )
