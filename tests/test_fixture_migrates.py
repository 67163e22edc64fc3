"""Data made by the app of before keeps through every later migration and backup.

tests/fixtures holds one data set as the app of migration scorepad 0011_game_carried stored it
(bench/dataset.py made it through the pages: two circles with a merge and a separation, games
of every variant with corrections, undo, Redo, players coming and going, evenings carried and
corrected after the carry): every table as stored (tables-0011.json) and the backup that app
wrote (backup-format-2.json). Put back at 0011 and migrated to the latest migration, nothing
of it is lost, and its backup restores; the old backup restores too.

What is counted holds whatever the tables become: the rows of the things (games, seats,
deals, scores, circles, people, evenings, their games and balances) by model, and the
history's entries over every history model there is (a game's, an evening's and a circle's
of 0011, or one for all)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.apps import apps as current_apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader

FIXTURES = Path(__file__).parent / "fixtures"
TABLES = json.loads((FIXTURES / "tables-0011.json").read_text(encoding="utf-8"))
BACKUP = FIXTURES / "backup-format-2.json"
AT = [(TABLES["app"], TABLES["migration"])]
THINGS = (
    "Game",
    "Seat",
    "Deal",
    "DealScore",
    "Circle",
    "Person",
    "Evening",
    "EveningGame",
    "EveningBalance",
)
HISTORIES = ("GameEvent", "EveningEvent", "CircleEvent", "Event")


def histories(apps) -> list:
    """The history models of ``apps`` (a migration state's, or the app's now)."""
    found = []
    for name in HISTORIES:
        try:
            found.append(apps.get_model("scorepad", name))
        except LookupError:
            continue
    return found


def stored_counts(apps) -> dict[str, int]:
    """What the database holds now, by the models of ``apps``."""
    counts = {name: apps.get_model("scorepad", name).objects.count() for name in THINGS}
    counts["history"] = sum(model.objects.count() for model in histories(apps))
    return counts


def dumped_counts(apps) -> dict[str, int]:
    """The same in the dump, whose tables are those of the models of ``apps`` at 0011."""

    def rows(model) -> int:
        return len(TABLES["tables"][model._meta.db_table]["rows"])

    counts = {name: rows(apps.get_model("scorepad", name)) for name in THINGS}
    counts["history"] = sum(rows(model) for model in histories(apps))
    return counts


def models_at_0011():
    """The app's models as migration 0011 left them (the dump's tables)."""
    return MigrationLoader(None, ignore_no_migrations=True).project_state(AT).apps


def migrate(targets=None) -> None:
    """The database to ``targets``, or to the latest migrations."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets or executor.loader.graph.leaf_nodes())


def insert_the_dump(apps) -> None:
    """Every row of the dump into the empty tables of 0011, as stored; the id sequences past
    them (PostgreSQL)."""
    quote = connection.ops.quote_name
    with transaction.atomic(), connection.cursor() as cursor:
        for table, dumped in TABLES["tables"].items():
            if not dumped["rows"]:
                continue
            columns = ", ".join(quote(c) for c in dumped["columns"])
            marks = ", ".join(["%s"] * len(dumped["columns"]))
            cursor.executemany(
                f"INSERT INTO {quote(table)} ({columns}) VALUES ({marks})", dumped["rows"]
            )
        models = list(apps.get_app_config("scorepad").get_models())
        for sql in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(sql)


def empty_the_database() -> None:
    """No game, circle or evening (and so none of their rows): what a restore goes into."""
    for name in ("Evening", "Game", "Circle"):  # a seat's person is kept while it sits
        current_apps.get_model("scorepad", name).objects.all().delete()


def test_the_fixtures_are_every_table_at_0011_and_a_backup_of_format_2():
    assert AT == [("scorepad", "0011_game_carried")]
    models = models_at_0011().get_app_config("scorepad").get_models()
    assert set(TABLES["tables"]) == {model._meta.db_table for model in models}
    assert json.loads(BACKUP.read_text(encoding="utf-8"))["format_version"] == 2


@pytest.mark.django_db(transaction=True)
def test_the_tables_of_0011_migrate_to_the_latest_with_nothing_lost_and_back_up(tmp_path):
    old = models_at_0011()
    expected = dumped_counts(old)
    migrate(AT)
    try:
        insert_the_dump(old)
        assert stored_counts(old) == expected
    finally:
        migrate()
    assert stored_counts(current_apps) == expected
    Seat = current_apps.get_model("scorepad", "Seat")
    seats = TABLES["tables"][Seat._meta.db_table]
    totals = [dict(zip(seats["columns"], row, strict=True))["total"] for row in seats["rows"]]
    assert list(Seat.objects.order_by("pk").values_list("total", flat=True)) == totals
    one_history_as_the_three_were()

    backup = tmp_path / "backup.json"
    call_command("backup", "export", str(backup))
    empty_the_database()
    assert stored_counts(current_apps)["Game"] == 0
    call_command("backup", "import", str(backup))
    assert stored_counts(current_apps) == expected


def one_history_as_the_three_were() -> None:
    """Migration 0012: every entry of the three histories of before is one of the one
    history, with what it said, whose thing it is, and, for a game's, its id (a "restored"
    entry names the entry it undid by id); a thing's entries keep their order."""
    Event = current_apps.get_model("scorepad", "Event")
    for table, owner in (
        ("scorepad_gameevent", "game"),
        ("scorepad_circleevent", "circle"),
        ("scorepad_eveningevent", "evening"),
    ):
        dumped = TABLES["tables"][table]
        rows = [dict(zip(dumped["columns"], row, strict=True)) for row in dumped["rows"]]
        stored = list(Event.objects.filter(**{f"{owner}__isnull": False}).order_by("pk"))
        assert [e.kind for e in stored] == [r["kind"] for r in rows]
        assert [getattr(e, f"{owner}_id") for e in stored] == [r[f"{owner}_id"] for r in rows]
        assert [e.form_token for e in stored] == [r["form_token"] for r in rows]
        if owner == "game":
            assert [e.pk for e in stored] == [r["id"] for r in rows]
            assert [e.deal_number for e in stored] == [r["deal_number"] for r in rows]


@pytest.mark.django_db
def test_the_backup_of_format_2_restores_what_the_tables_hold():
    call_command("backup", "import", str(BACKUP))
    assert stored_counts(current_apps) == dumped_counts(models_at_0011())
