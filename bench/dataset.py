"""A realistic data set, made in a fresh database through the app's own pages: the data of a
change of what is stored (a migration, a backup format) is tested on.

    .venv/bin/python bench/dataset.py [--seed 7] [--fixtures DIR]

Two phones post the forms of the pages as a browser without JavaScript does (Django's test
client and the form reader of the whole-app walk, tests/whole/browser.py): phone A starts
games, circles and evenings (its session makes it their editor), phone B changes some of
them through their editor links. What it makes, in about two months of Tuesdays and Fridays:

- two circles of 8 and 7 people: the first made of a game played before it, one of its
  people renamed, its viewer link replaced; the second with a name typed wrong merged into
  the person meant, a person merged by mistake and separated again, its editor link replaced;
- games of the four variants with 4 to 6 players, finished and in progress: corrections,
  a deal undone and done again (Redo), one deleted and brought back, an abandoned deal, a
  player who leaves and a substitute who joins, one who leaves and comes back, a seat
  renamed, targets, a game ended and resumed, a link replaced, a game imported from its
  export; three games outside any circle;
- the circle's evenings: one carried to the next, then a game of the carried evening
  corrected (its difference carried forward: an "adjusted" entry), the next still open with
  a game added later; an evening outside circles with a game taken out again and its link
  replaced.

The same seed makes the same data: the choices come from a seeded generator, every token
the app draws (links, one-time tokens, phones' names) from another, and the clock the app
reads starts on Friday 9 January 2026 and moves only as the script says (a few minutes a
deal). ``--fixtures DIR`` writes what tests/test_fixture_migrates.py reads: the backup
(``manage.py backup export``, DIR/backup-format-<its format>.json) and every table of the
score pad as stored (DIR/tables-<migration>.json). It prints what it made, a count a table.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import subprocess
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
START = datetime(2026, 1, 9, 18, 30, tzinfo=UTC)
AGENTS = {
    "A": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15",
    "B": "Mozilla/5.0 (Linux; Android 15; Pixel 8) AppleWebKit/537.36 Chrome/131.0 Mobile",
}
# Cards left in the hands of those who did not go out; no card twice in one deal.
HANDS = ["3H 4H", "KC", "7S 7D JK", "QH 10C", "5C 6C 8C", "AS", "9D 9H", "2S KH QD"]


class Clock:
    """The app's clock (``django.utils.timezone.now``): a millisecond later at every reading,
    and later by what the table takes between two things (``wait``)."""

    def __init__(self, start: datetime) -> None:
        self.at = start

    def now(self) -> datetime:
        self.at += timedelta(milliseconds=1)
        return self.at

    def wait(self, minutes: float) -> None:
        self.at += timedelta(minutes=minutes)

    def day(self, date: str, time: str = "19:00") -> None:
        """On to that evening (UTC)."""
        at = datetime.fromisoformat(f"{date}T{time}:00+00:00")
        assert at > self.at, f"{date} {time} is before {self.at}"
        self.at = at


def setup(data_dir: str, seed: int) -> Clock:
    """The settings, a seeded source of the app's tokens, the clock, and a fresh SQLite
    database in ``data_dir`` (the tables dump keeps SQLite's values; the test puts them into
    PostgreSQL too)."""
    os.environ.update(
        SECRET_KEY="bench-dataset",
        ALLOWED_HOSTS="testserver",
        DATA_DIR=data_dir,
        STATIC_ROOT=str(Path(data_dir) / "static"),  # empty: no page's files are fetched
        PLAIN_STATIC="true",
        RATE_LIMIT="false",
        LOG_LEVEL="WARNING",
        DJANGO_SETTINGS_MODULE="continental.settings",
    )
    for name in ("DEBUG", "DATABASE_URL"):
        os.environ.pop(name, None)
    (Path(data_dir) / "static").mkdir()
    # secrets.token_urlsafe and token_hex take their bytes from token_bytes.
    draw = random.Random(f"tokens {seed}")
    secrets.token_bytes = lambda n=32: draw.randbytes(n)
    clock = Clock(START)
    # Before Django loads the models: their defaults name this function.
    import django.utils.timezone

    django.utils.timezone.now = clock.now
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    return clock


class Table:
    """The phones at the table and what they do through the pages; every write is checked to
    have been saved (its thing's version moved on by one, or a new thing made)."""

    def __init__(self, seed: int, clock: Clock) -> None:
        from tests.whole.browser import Phone

        self.draw = random.Random(seed)
        self.clock = clock
        self.phones = {name: Phone(name) for name in AGENTS}
        for name, agent in AGENTS.items():
            self.phones[name].client.defaults["HTTP_USER_AGENT"] = agent

    # --- pages and forms ----------------------------------------------------------------
    def get(self, url: str, phone: str = "A"):
        page = self.phones[phone].get(url)
        assert page.status == 200, f"{url} answered {page.status}"
        return page

    def post(self, phone: str, form, values: dict | None = None, button=None):
        page = self.phones[phone].submit(form, values, button=button)
        assert page.status == 200, f"{form.action} answered {page.status}"
        return page

    def form(self, url: str, action: str, phone: str = "A", **kw):
        form = self.get(url, phone).form(action, **kw)
        assert form is not None, f"no form of {action} on {url}"
        return form

    def saved(self, thing, write: Callable[[], Any]) -> Any:
        """Do ``write``; it must move ``thing`` (a game, an evening, a circle) on one version."""
        before = type(thing).objects.get(pk=thing.pk).version
        out = write()
        thing.refresh_from_db()
        assert thing.version == before + 1, f"{thing!r}: the write was not saved"
        return out

    def made(self, model, write: Callable[[], Any]):
        """Do ``write``; it must make one new ``model``, which is returned."""
        before = set(model.objects.values_list("pk", flat=True))
        write()
        new = set(model.objects.values_list("pk", flat=True)) - before
        assert len(new) == 1, f"{len(new)} new {model.__name__} rows"
        return model.objects.get(pk=new.pop())

    @staticmethod
    def url(thing, rest: str = "") -> str:
        kind = type(thing).__name__.lower() + "s"
        return f"/en/{kind}/{thing.editor_token}/{rest}"

    # --- games --------------------------------------------------------------------------
    def new_game(self, variant: str, names: list[str], *, circle=None, **values):
        """A game of these players, from the new-game page (the circle's own, seated from
        its last game, when ``circle``: the seats are set to ``names``)."""
        from scorepad.models import Game

        url = "/en/games/new/"
        if circle is not None:
            [url] = self.get(self.url(circle)).links("/games/new/?circle=")
        form = self.form(url, "/games/new/")
        fields = {"variant": variant, "first_dealer": "0", "seat": [f"n:{n}" for n in names]}
        fields.update(values)
        game = self.made(Game, lambda: self.post("A", form, fields, form.button(value="start")))
        assert [s.name for s in game.seats.order_by("position")] == names
        assert game.circle_id == (circle.pk if circle is not None else None)
        self.clock.wait(2)
        return game

    def deal_values(self, game, form) -> dict[str, str]:
        """A deal as the table might enter it, for the players the form asks about."""
        draw = self.draw
        if game.variant_id == "classic":
            players = [c for c in form.choices("went_out") if c.isdigit()]
            return {
                "went_out": draw.choice(players),
                "mode": "rows",
                "wild_twos": draw.choice(form.choices("wild_twos") or ["0"]),
                "jokers": draw.choice(form.choices("jokers") or ["0"]),
                "first_turn": draw.choice(["", "", "", "drawn"]),
            }
        players = sorted(int(n[7:]) for n in form.names() if n.startswith("points_"))
        winner = draw.choice(players)
        values = {"went_out": str(winner)}
        hands = iter(draw.sample(HANDS, len(HANDS)))
        step = 5 if game.variant.is_contract else 1
        for pos in players:
            values[f"points_{pos}"] = values[f"cards_{pos}"] = ""
            if pos == winner:
                continue
            if draw.random() < 0.2:
                values[f"cards_{pos}"] = next(hands)
            else:
                values[f"points_{pos}"] = str(step * draw.randint(1, 24))
        return values

    def deal(self, game, phone: str = "A", **values) -> None:
        form = self.form(self.url(game, "deals/new/"), "/deals/new/", phone, has="went_out")
        entry = {**self.deal_values(game, form), **values}
        self.saved(game, lambda: self.post(phone, form, entry))
        self.clock.wait(self.draw.uniform(3, 9))

    def deals(self, game, count: int, phone: str = "A") -> None:
        for _ in range(count):
            self.deal(game, phone)

    def correct(self, game, number: int, phone: str = "A", **values) -> None:
        url = self.url(game, f"deals/{number}/edit/")
        form = self.form(url, f"/deals/{number}/edit/", phone, has="went_out")
        entry = {**self.deal_values(game, form), **values}
        self.saved(game, lambda: self.post(phone, form, entry))
        self.clock.wait(1)

    def undo_and_redo(self, game) -> None:
        form = self.form(self.url(game), "/deals/undo/")
        page = self.saved(game, lambda: self.post("A", form))
        redo = page.form("/deals/redo/")
        assert redo is not None, "no Redo beside the undo's message"
        self.saved(game, lambda: self.post("A", redo))
        self.clock.wait(1)

    def undo(self, game) -> None:
        form = self.form(self.url(game), "/deals/undo/")
        self.saved(game, lambda: self.post("A", form))
        self.clock.wait(1)

    def delete_and_bring_back(self, game, number: int) -> None:
        from scorepad.models import GameEvent

        form = self.form(self.url(game, f"deals/{number}/delete/"), f"/deals/{number}/delete/")
        self.saved(game, lambda: self.post("A", form))
        self.clock.wait(4)
        deleted = GameEvent.objects.filter(game=game, kind="deleted").latest("pk")
        page = self.get(self.url(game, "history/"))
        [form] = [
            f
            for f in page.forms
            if "/deals/restore/" in f.action and dict(f.defaults())["event"] == str(deleted.pk)
        ]
        self.saved(game, lambda: self.post("A", form))

    def end(self, game, op: str = "end") -> None:
        form = self.form(self.url(game), "/end/")
        self.saved(game, lambda: self.post("A", form, button=form.button(value=op)))

    def players(self, game, kind: str, values=None, *, position=None, op=None) -> None:
        """A change of the game's Players page: ``kind`` is its form (join, leave, rename,
        target); ``op`` the button pressed (leaving is asked first: "Is Ben leaving?")."""
        page = self.get(
            self.url(game, f"players/?leave={position}" if op == "leave" else "players/")
        )
        form = next(
            f
            for f in page.forms
            if dict(f.defaults()).get("form") == kind
            and (position is None or dict(f.defaults()).get("position") == str(position))
        )
        button = form.button(value=op) if op else None
        self.saved(game, lambda: self.post("A", form, values, button))

    def replace_link(self, thing, which: str, page: str = "") -> None:
        """A new viewer or editor link of a game (its Share page), an evening or a circle."""
        action = "/share/" if page else "/links/"
        forms = self.get(self.url(thing, page)).forms
        form = next(f for f in forms if action in f.action and f.button(value=which))
        self.saved(thing, lambda: self.post("A", form, button=form.button(value=which)))

    def import_copy(self, game):
        """The game's export imported as a new game (outside any circle)."""
        from scorepad.models import Game

        exported = self.get(self.url(game, "export.json")).html
        form = self.form("/en/games/import/", "/games/import/")
        return self.made(Game, lambda: self.post("A", form, {"text": exported}))

    def through_editor_link(self, game) -> None:
        """Phone B opens the game's editor link (its changes are the link's from then on)."""
        self.get(self.url(game), "B")

    # --- circles ------------------------------------------------------------------------
    def new_circle(self, name: str, games=()):
        from scorepad.models import Circle

        form = self.form("/en/circles/new/", "/circles/new/")
        values = {"name": name, "games": [g.editor_token for g in games]}
        circle = self.made(Circle, lambda: self.post("A", form, values))
        for game in games:
            game.refresh_from_db()
        return circle

    def circle_change(self, circle, action: str, values: dict) -> None:
        form = self.form(self.url(circle), action)
        self.saved(circle, lambda: self.post("A", form, values))

    def person(self, circle, name: str) -> int:
        person = circle.find(name)
        assert person is not None, f"no {name} in {circle}"
        return person.pk

    def merge(self, circle, name: str, into: str) -> None:
        person, target = self.person(circle, name), self.person(circle, into)
        self.circle_change(circle, "/people/merge/", {"person": person, "into": target})

    def separate(self, circle, name: str) -> None:
        pk = circle.persons.get(name=name).pk
        page = self.get(self.url(circle))
        [form] = [
            f
            for f in page.forms
            if "/people/separate/" in f.action and dict(f.defaults())["person"] == str(pk)
        ]
        self.saved(circle, lambda: self.post("A", form))

    # --- evenings -----------------------------------------------------------------------
    def new_evening(self, games, *, name: str = "", stake: str = "0.10", circle=None):
        from scorepad.models import Evening

        url = "/en/evenings/new/"
        if circle is not None:
            [url] = self.get(self.url(circle)).links("/evenings/new/?circle=")
        form = self.form(url, "/evenings/new/")
        values = {"name": name, "stake": stake, "games": [g.editor_token for g in games]}
        evening = self.made(Evening, lambda: self.post("A", form, values))
        assert evening.circle_id == (circle.pk if circle is not None else None)
        return evening

    def add(self, evening, game, stake: str = "") -> None:
        form = self.form(self.url(evening), "/games/add/")
        values = {"game": game.editor_token, "stake": stake}
        self.saved(evening, lambda: self.post("A", form, values))

    def take_out(self, evening, game) -> None:
        page = self.get(self.url(evening))
        [form] = [
            f
            for f in page.forms
            if "/games/remove/" in f.action and dict(f.defaults())["game"] == str(game.pk)
        ]
        self.saved(evening, lambda: self.post("A", form))

    def carry(self, evening):
        from scorepad.models import Evening

        form = self.form(self.url(evening), "/carry/")
        following = self.made(Evening, lambda: self.post("A", form))
        evening.refresh_from_db()
        assert evening.next_evening_id == following.pk, "the evening was not carried"
        return following


def play(table: Table) -> None:
    """The two months of the data set."""
    clock = table.clock

    # Friday: a game of friends, before they were a circle; the circle is made of it.
    first = table.new_game(
        "classic", ["Zoë", "Łukasz", "Päivi", "José", "Anna"], value_per_point="0.10"
    )
    table.deals(first, 5)
    table.correct(first, 2)
    table.deal(first, went_out="abandoned")
    table.deals(first, 2)
    table.end(first)
    club = table.new_circle("Tuesday Club", [first])

    # Tuesday: the circle's first evening, a contract game and a Rommé to a target.
    clock.day("2026-01-13")
    nordic = table.new_game(
        "contract-nordic", ["Zoë", "Łukasz", "Päivi", "José", "Ben"], circle=club
    )
    evening = table.new_evening([nordic], name="Tiistai", circle=club)
    table.through_editor_link(nordic)
    table.deals(nordic, 3)
    table.deals(nordic, 2, phone="B")
    table.undo_and_redo(nordic)
    table.correct(nordic, 4, phone="B")
    table.deals(nordic, 2)  # the seventh deal ends it
    assert nordic.is_finished
    romme = table.new_game("romme", ["Päivi", "Ben", "Cleo", "Dan"], circle=club)
    table.add(evening, romme)
    table.deals(romme, 2)
    table.players(romme, "target", {"target_score": "60", "target_deals": ""})
    while not romme.is_finished:
        table.deal(romme)
    second = table.carry(evening)

    # Wednesday: a deal of the carried evening's contract game was wrong.
    clock.day("2026-01-14", "08:15")
    table.correct(nordic, 2)
    assert second.events.filter(kind="adjusted").exists(), "the correction was not carried"
    table.replace_link(club, "viewer")

    # Tuesday: the next evening, six at the classic table, players coming and going.
    clock.day("2026-01-20")
    six = table.new_game("classic", ["Zoë", "Łukasz", "José", "Ben", "Cleo", "Dan"], circle=club)
    table.add(second, six, "0.05")
    table.deals(six, 3)
    table.players(six, "leave", position=3, op="leave")  # Ben goes home
    table.deals(six, 2)
    table.players(six, "join", {"name": "Anna"})  # Anna takes his chair
    table.deals(six, 2)
    table.delete_and_bring_back(six, 5)
    table.players(six, "leave", position=5, op="leave")  # Dan steps out for a deal
    table.deal(six)
    table.players(six, "leave", position=5, op="back")
    table.deals(six, 2)
    table.players(six, "target", {"target_score": "", "target_deals": "20"})
    spanish = table.new_game("contract-spanish", ["Päivi", "Ben", "Cleo", "Anna"], circle=club)
    table.add(second, spanish)
    table.deals(spanish, 3)
    table.replace_link(spanish, "editor", "share/")
    table.circle_change(
        club, "/people/rename/", {"person": table.person(club, "Dan"), "name": "Daniel"}
    )

    # Saturday: another circle, a family; a name typed wrong, a merge made by mistake.
    clock.day("2026-01-24", "16:00")
    family = table.new_circle("Perhe & Familia")
    home = table.new_game("classic", ["Mia", "Noah", "Oskar", "Åsa", "Emil"], circle=family)
    table.deals(home, 6)
    table.correct(home, 1)
    table.end(home)
    cards = table.new_game(
        "contract-spanish", ["Mia", "Noa", "Oskar", "Ines", "Emilia"], circle=family
    )
    table.deals(cards, 3)
    table.players(cards, "leave", position=4, op="leave")  # Emilia is tired
    table.players(cards, "join", {"name": "Åsa", "start": "worst"})
    table.deals(cards, 2)
    table.undo(cards)
    table.merge(family, "Noa", "Noah")
    table.merge(family, "Emilia", "Emil")
    table.separate(family, "Emilia")
    table.replace_link(family, "editor")

    # Friday: at a café, outside any circle; an evening of its own.
    clock.day("2026-01-30", "17:30")
    cafe = table.new_game("romme", ["José", "Ines", "Jürgen", "Zoë"])
    table.deals(cafe, 4)
    table.players(cafe, "rename", {"name": "Jürgen M."}, position=2)
    table.deals(cafe, 2)
    table.end(cafe)
    late = table.new_game("classic", ["José", "Ines", "Jürgen M.", "Zoë"])
    table.deals(late, 2)
    outside = table.new_evening([cafe], name="Café Łódź", stake="0.20")
    table.add(outside, late)
    table.take_out(outside, late)  # it was only a try-out
    table.replace_link(outside, "viewer")
    table.end(late)
    table.end(late, "resume")
    table.deals(late, 1)
    table.import_copy(cafe)


def counts() -> dict[str, int]:
    from django.apps import apps

    return {
        model._meta.db_table: model.objects.count()
        for model in apps.get_app_config("scorepad").get_models()
    }


def stored(value: Any, field) -> Any:
    """A column's value as SQLite keeps it, as a JSON value (Django's connection reads a
    datetime and a boolean as Python's): a datetime as the text Django stores (ISO 8601, UTC,
    "2026-01-09 19:13:59.501238"), a decimal as its text (SQLite keeps 0.10 as the number
    0.1), a boolean as true or false; texts (JSON columns too) and numbers as they are."""
    if isinstance(value, datetime):
        return str(value)
    if value is not None and field.get_internal_type() == "DecimalField":
        return str(Decimal(str(value)).quantize(Decimal(1).scaleb(-field.decimal_places)))
    return value


def table_dump(seed: int) -> dict[str, Any]:
    """Every table of the score pad, each row as stored, in the order of its columns."""
    from django.apps import apps
    from django.db import connection
    from django.db.migrations.recorder import MigrationRecorder

    applied = [
        name
        for app, name in MigrationRecorder(connection).applied_migrations()
        if app == "scorepad"
    ]
    quote = connection.ops.quote_name
    tables = {}
    with connection.cursor() as cursor:
        for model in apps.get_app_config("scorepad").get_models():
            fields = {f.column: f for f in model._meta.concrete_fields}
            table = model._meta.db_table
            cursor.execute(f"SELECT * FROM {quote(table)} ORDER BY {quote(model._meta.pk.column)}")
            columns = [c[0] for c in cursor.description]
            rows = [
                [stored(v, fields[c]) for c, v in zip(columns, row, strict=True)]
                for row in cursor.fetchall()
            ]
            tables[table] = {"columns": columns, "rows": rows}
    return {
        "made_by": f"bench/dataset.py --seed {seed}, with the app's code of {app_commit()}",
        "database": connection.vendor,
        "app": "scorepad",
        "migration": max(applied),
        "values": "as stored: datetimes as the ISO text Django keeps in SQLite (UTC), JSON "
        "columns as their text, decimals as text, booleans true/false; the tables in the "
        "order of the models",
        "tables": tables,
    }


def app_commit() -> str:
    """The last commit that changed the app's code (and whether it is changed since)."""

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout

    code = ("continental", "rules", "scorepad", "templates")
    commit = git("log", "-1", "--format=%h", "--", *code).strip() or "?"
    return commit + (" with changes not committed" if git("status", "--porcelain", *code) else "")


def dump_text(document: dict[str, Any]) -> str:
    """The dump as JSON, a row a line."""

    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    head = [f" {one(k)}: {one(v)}," for k, v in document.items() if k != "tables"]
    tables = []
    for name, table in document["tables"].items():
        rows = ",\n".join(f"    {one(row)}" for row in table["rows"])
        tables.append(
            f'  {one(name)}: {{\n   "columns": {one(table["columns"])},\n'
            f'   "rows": [\n{rows}\n   ]\n  }}'
        )
    return "{\n" + "\n".join(head) + '\n "tables": {\n' + ",\n".join(tables) + "\n }\n}\n"


def write_fixtures(folder: Path, seed: int) -> list[Path]:
    from django.core.management import call_command

    from scorepad.management.commands.backup import FORMAT_VERSION

    folder.mkdir(parents=True, exist_ok=True)
    backup = folder / f"backup-format-{FORMAT_VERSION}.json"
    call_command("backup", "export", str(backup))
    document = table_dump(seed)
    tables = folder / f"tables-{document['migration'][:4]}.json"
    tables.write_text(dump_text(document), encoding="utf-8")
    return [backup, tables]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--fixtures", type=Path, help="write the backup and the tables here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="scorepad-dataset-") as data_dir:
        clock = setup(data_dir, args.seed)
        play(Table(args.seed, clock))
        print(f"# bench/dataset.py --seed {args.seed}: rows a table")
        for table, n in counts().items():
            print(f"  {table:28} {n:5d}")
        if args.fixtures:
            for path in write_fixtures(args.fixtures, args.seed):
                print(f"  wrote {path} ({path.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
