"""``manage.py backup``: every game to one JSON document, and back into an empty database."""

import io
import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from scorepad.models import (
    Actor,
    Circle,
    Deal,
    DealScore,
    Event,
    Game,
    Person,
)
from scorepad.sheet import build_sheet, load_game
from tests.factories import CircleFactory, GameFactory, record_classic, record_penalty

pytestmark = pytest.mark.django_db

HAND = "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH JK"
ACTOR = Actor("editor_link", "phone2")


@pytest.fixture
def games():
    """Games of all four variants: played, corrected, undone, ended, sharing players."""
    classic = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    classic.value_per_point = "0.50"
    classic.save()
    record_classic(classic, 0, jokers=1)
    record_classic(classic, 3, mode="hand", hand=HAND)
    record_classic(classic, "abandoned")
    record_classic(classic, 2, wild_twos=1)
    classic.refresh_from_db()
    classic.undo_last_deal(version=classic.version, once="undo-1", actor=ACTOR)

    nordic = GameFactory(variant_id="contract-nordic", players=3)
    record_penalty(nordic, 0, {1: 10, 2: 5})
    record_penalty(nordic, 1, {0: 20}, cards_2="5H 7C QS")
    nordic.replace_link("viewer", version=nordic.version, once="link-1", actor=ACTOR)

    spanish = GameFactory(variant_id="contract-spanish", players=2)
    for _ in range(7):
        record_penalty(spanish, 0, {}, cards_1="8H 9H JK")  # the seventh deal ends it

    romme = GameFactory(variant_id="romme", first_dealer=1, players=3)
    record_penalty(romme, 0, {1: 30, 2: 12})
    record_penalty(romme, 1, {0: 50, 2: 3})
    romme.refresh_from_db()
    romme.end(version=romme.version, once="end-1", actor=ACTOR)

    # A circle: its game, a person who sits in none, and one merged into another.
    circle = CircleFactory(name="Tuesdays")
    again = GameFactory(variant_id="classic", players=["Eve", "Finn", "Anna"], circle=circle)
    record_classic(again, 2, jokers=2)
    Person.objects.create(circle=circle, name="Nobody yet")
    cleo = Person.objects.create(circle=circle, name="Cleopatra")
    circle.merge(cleo.pk, circle.find("Anna").pk, version=1, once="merge-1", actor=ACTOR)

    # Timestamps that differ from "now", so a restore that forgot them would show.
    past = timezone.now() - timedelta(days=30)
    Game.objects.filter(pk=nordic.pk).update(created_at=past, updated_at=past)
    Deal.objects.filter(game=nordic, number=1).update(created_at=past, updated_at=past)
    return Game.objects.order_by("pk")


def snapshot():
    """Everything a restore must bring back, by ids, tokens and positions."""
    out = {
        "circles": list(Circle.objects.order_by("pk").values_list()),
        "people": list(Person.objects.order_by("pk").values_list()),
        "circle history": list(
            Event.objects.filter(circle__isnull=False)
            .order_by("pk")
            .values_list("circle", "at", "kind", "details", "actor", "device", "form_token")
        ),
    }
    for game in Game.objects.order_by("pk"):
        sheet = build_sheet(load_game(Game.objects.filter(pk=game.pk)))
        out[game.pk] = {
            "game": Game.objects.filter(pk=game.pk).values().get(),
            "seats": [(s.position, s.name, s.person_id, s.total, s.place) for s in sheet.seats],
            "totals": sheet.totals,
            "standings": [(seat.name, st.total, st.place) for seat, st in sheet.standings],
            "rows": [
                (
                    row.deal.number,
                    row.deal.status,
                    row.deal.went_out,
                    row.deal.handromme,
                    row.deal.entry,
                    row.deal.payment,
                    row.deal.payment_rows,
                    row.deal.created_at,
                    row.deal.updated_at,
                    row.dealer.position,
                    [(c.points, c.total) for c in row.cells],
                )
                for row in sheet.rows
            ],
            "history": list(
                game.events.order_by("pk").values_list(
                    "at", "kind", "deal_number", "details", "actor", "device", "form_token"
                )
            ),
        }
    return out


def export_text():
    out = io.StringIO()
    call_command("backup", "export", stdout=out)
    return out.getvalue()


def empty_the_database():
    Game.objects.all().delete()  # seats, deals, scores and history go with them
    Circle.objects.all().delete()


def restore(path):
    out = io.StringIO()
    call_command("backup", "import", str(path), stdout=out)
    return out.getvalue()


def test_a_backup_restores_every_sheet_as_it_was(games, tmp_path):
    before = snapshot()
    assert {g.variant_id for g in games} == {
        "classic",
        "contract-nordic",
        "contract-spanish",
        "romme",
    }
    path = tmp_path / "backup.json"
    call_command("backup", "export", str(path), stderr=io.StringIO())
    document = json.loads(path.read_text())
    assert document["format"] == "continental-scorepad-backup"
    assert len(document["games"]) == 5
    assert len(document["circles"]) == 1
    assert [p["name"] for p in document["circles"][0]["people"]] == [
        "Eve",
        "Finn",
        "Anna",
        "Nobody yet",
        "Cleopatra",
    ]
    assert document["circles"][0]["people"][4]["merged_into"] == Person.objects.get(name="Anna").pk

    empty_the_database()
    assert not DealScore.objects.exists()
    assert not Event.objects.exists()
    assert restore(path) == "Restored 5 games and 5 people of circles.\n"

    assert snapshot() == before
    # The links still lead to their games, one-time tokens already used stay used.
    nordic = Game.objects.get(variant_id="contract-nordic")
    assert Game.objects.by_token(before[nordic.pk]["game"]["viewer_token"]).get() == nordic
    assert Event.objects.filter(form_token="link-1").count() == 1
    # New rows get fresh ids after the restored ones (sequences moved on, on PostgreSQL too).
    newer = GameFactory(variant_id="romme", players=["New", "Newer"])
    assert newer.pk > max(g.pk for g in games)
    # And the restored game plays on.
    record_penalty(nordic, 2, {0: 5, 1: 5})
    nordic.refresh_from_db()
    assert nordic.version == before[nordic.pk]["game"]["version"] + 1


def test_the_export_to_stdout_is_the_same_document(games):
    document = json.loads(export_text())
    assert [g["id"] for g in document["games"]] == [g.pk for g in games]
    classic = document["games"][0]
    assert classic["variant"] == "classic"
    assert classic["value_per_point"] == "0.50"
    assert [d["number"] for d in classic["deals"]] == [1, 2, 3]
    assert [e["kind"] for e in classic["history"]] == ["recorded"] * 4 + ["undone"]


def test_a_backup_is_restored_only_into_an_empty_database(games, tmp_path):
    path = tmp_path / "backup.json"
    path.write_text(export_text())
    with pytest.raises(CommandError, match="already has games or players") as refused:
        restore(path)
    assert refused.value.returncode == 2
    assert Game.objects.count() == 5


def test_the_refusal_exits_with_status_2_from_the_command_line(games, tmp_path):
    path = tmp_path / "backup.json"
    path.write_text(export_text())
    # As manage.py runs it: a CommandError becomes a message and an exit status.
    from django.core.management import ManagementUtility

    with pytest.raises(SystemExit) as exited:
        ManagementUtility(["manage.py", "backup", "import", str(path)]).execute()
    assert exited.value.code == 2


@pytest.mark.parametrize(
    "spoil",
    [
        # The last game's deal scores do not match its inputs: the earlier games were
        # already written inside the transaction, and must go too.
        lambda doc: doc["games"][-1]["deals"][0].update(scores=[99, -99, 0]),
        lambda doc: doc["games"][-1].update(seats=[123456]),
        lambda doc: doc["games"][-1]["history"].append({"kind": "recorded"}),
        lambda doc: doc["games"][-1].update(totals=[1, 2, 3]),
        lambda doc: doc["games"][-1].update(viewer_token=doc["games"][0]["viewer_token"]),
        lambda doc: doc.update(format_version=99),
        lambda doc: doc["circles"][0]["people"].append(doc["circles"][0]["people"][0]),
    ],
    ids=["scores", "seat", "history", "totals", "token", "version", "player"],
)
def test_a_corrupt_backup_imports_nothing(games, tmp_path, spoil):
    document = json.loads(export_text())
    document["games"].append(document["games"].pop(0))  # a classic game (with Anna) goes last
    spoil(document)
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(document))
    empty_the_database()
    with pytest.raises(CommandError, match="Nothing was imported") as refused:
        restore(path)
    assert refused.value.returncode == 1
    assert not Circle.objects.exists()
    assert not Game.objects.exists()
    assert not Deal.objects.exists()
    assert not Event.objects.exists()


def test_a_file_that_is_not_json_imports_nothing(tmp_path, db):
    path = tmp_path / "backup.json"
    path.write_text('{"format": "continental-scorepad-backup", "games": [')
    with pytest.raises(CommandError, match="is not a JSON backup"):
        restore(path)
    with pytest.raises(CommandError, match="Cannot read"):
        restore(tmp_path / "missing.json")
    assert not Game.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_export_outside_a_transaction_reads_one_snapshot(tmp_path):
    # Run as manage.py does, not inside a test's transaction (PostgreSQL: REPEATABLE READ).
    game = GameFactory(variant_id="romme", players=["Anna", "Ben"])
    record_penalty(game, 0, {1: 25})
    path = tmp_path / "backup.json"
    call_command("backup", "export", str(path), stderr=io.StringIO())
    document = json.loads(path.read_text())
    assert document["games"][0]["totals"] == [0, 25]
    empty_the_database()
    restore(path)
    assert [s.total for s in Game.objects.get().seats.order_by("position")] == [0, 25]


def test_the_command_counts_one_thing_in_the_singular():
    from scorepad.management.commands.backup import counted

    assert counted(1, "circle") == "1 circle"
    assert counted(2, "circle") == "2 circles"
    assert counted(1, "person", "people") == "1 person"
    assert counted(0, "person", "people") == "0 people"
