"""Imports a hand-made file can poison no more: money per point past the column, texts that
no database stores (NUL, lone surrogates), and a backup that goes on past a damaged game.
Run on SQLite and, with DATABASE_URL, on PostgreSQL."""

import io
import json
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.urls import reverse

from scorepad.models import Circle, Event, Game, Person
from tests.factories import CircleFactory, GameFactory, record_classic, record_penalty

pytestmark = pytest.mark.django_db


def document(**changes):
    doc = {
        "format": "continental-scorepad",
        "format_version": 1,
        "variant": "classic",
        "players": ["Anna", "Ben"],
        "deals": [],
    }
    doc.update(changes)
    return doc


def post_import(client, doc, *, upload=False):
    text = json.dumps(doc)
    if upload:
        data = {"file": SimpleUploadedFile("g.json", text.encode(), "application/json")}
    else:
        data = {"text": text}
    return client.post(reverse("game-import"), data)


# --- 0. deals that are no list are said so, before anything counts them ---------------------


@pytest.mark.parametrize("deals", [1.5, 7, "ab", {"n": 1}, True])
@pytest.mark.parametrize("upload", [False, True])
def test_deals_that_are_no_list_are_refused_with_a_message(client, deals, upload):
    response = post_import(client, document(deals=deals), upload=upload)
    assert response.status_code == 200
    assert "The deals of the export are not a list." in response.content.decode()
    assert not Game.objects.exists()


# --- 1. money per point: rounded to cents, then bounded like the new-game form --------------


@pytest.mark.parametrize("value", ["9999999.999", "9999999.995", "10000000", "1e7", "0.004", "-1"])
def test_money_per_point_past_the_form_bounds_is_refused_after_rounding(client, value):
    response = post_import(client, document(value_per_point=value))
    assert response.status_code == 200
    assert "The money per point must be an amount from 0.01 to 9999999.99." in (
        response.content.decode()
    )
    assert not Game.objects.exists()


@pytest.mark.parametrize("value", ["NaN", "Infinity", "1e999999999", "abc", [1], {"a": 1}, True])
def test_money_per_point_that_is_no_number_is_refused(client, value):
    response = post_import(client, document(value_per_point=value))
    assert response.status_code == 200
    assert "The money per point is not a number." in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("value", "stored"),
    [("9999999.994", "9999999.99"), ("0.005", "0.01"), (0.5, "0.50"), (2, "2.00")],
)
def test_money_per_point_is_rounded_to_cents_and_the_game_pages_work(client, value, stored):
    response = post_import(client, document(value_per_point=value))
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.value_per_point == Decimal(stored)
    for name in ("game", "game-history", "game-export-csv", "game-export-json"):
        assert client.get(reverse(name, kwargs={"token": game.editor_token})).status_code == 200


def test_the_de_page_says_the_money_bound_in_german(client):
    response = client.post(
        "/de/games/import/", {"text": json.dumps(document(value_per_point="9999999.999"))}
    )
    assert "Das Geld pro Punkt muss zwischen 0,01 und 9999999,99 liegen." in (
        response.content.decode()
    )


# --- 2. texts no database stores ---------------------------------------------------------------

UNSTORABLE = ["Anna\x00", "\x00", "Be\ud800n", "\udfff", "Cleo\udbff\udc00x\x00"]


@pytest.mark.parametrize("name", UNSTORABLE, ids=repr)
@pytest.mark.parametrize("upload", [False, True], ids=["pasted", "uploaded"])
def test_a_name_with_nul_or_a_lone_surrogate_is_a_form_error(client, name, upload):
    response = post_import(client, document(players=[name, "Ben"]), upload=upload)
    assert response.status_code == 200
    assert "The file holds a character that cannot be stored" in response.content.decode()
    assert not Game.objects.exists()
    assert not Circle.objects.exists()


@pytest.mark.parametrize(
    "where",
    [
        lambda doc, bad: doc.update(options={bad: True}),  # a key
        lambda doc, bad: doc.update(status=bad),
        lambda doc, bad: doc["deals"].append({"status": "scored", "entry": {"cards": [bad]}}),
        lambda doc, bad: doc.update(nested=[[[{"x": [bad]}]]]),
    ],
    ids=["key", "status", "deal", "nested"],
)
@pytest.mark.parametrize("bad", ["\x00", "\ud800"], ids=["nul", "surrogate"])
def test_an_unstorable_character_anywhere_in_the_file_is_refused(client, where, bad):
    doc = document()
    where(doc, bad)
    response = post_import(client, doc)
    assert response.status_code == 200
    assert "The file holds a character that cannot be stored" in response.content.decode()
    assert not Game.objects.exists()


def test_the_refusal_is_said_in_the_language_of_the_page(client):
    response = client.post(
        "/fi/games/import/", {"text": json.dumps(document(players=["A\x00", "B"]))}
    )
    assert "Tiedostossa on merkki, jota ei voi tallentaa" in response.content.decode()


def test_a_character_that_only_looks_odd_is_imported(client):
    # U+FFFD, emoji (a surrogate pair in JSON), other control characters: all storable.
    names = ["\ufffd", "\U0001f0cf Jo", "tab\tbed"]
    response = post_import(client, document(players=names))
    assert response.status_code == 302
    game = Game.objects.get()
    assert [s.name for s in game.seats.order_by("position")] == [
        "\ufffd",
        "\U0001f0cf Jo",
        "tab bed",
    ]


# --- backup: export goes on past a damaged game, import cleans unstorable texts ------------


@pytest.fixture
def three_games():
    first = GameFactory(variant_id="classic", players=["Anna", "Ben"], circle=CircleFactory())
    record_classic(first, 0, jokers=1)
    second = GameFactory(variant_id="romme", players=["Cleo", "Dan"])
    record_penalty(second, 0, {1: 20})
    third = GameFactory(variant_id="contract-nordic", players=3)
    return [first, second, third]


def damage_value_per_point(game):
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE scorepad_game SET value_per_point = '10000000.00' WHERE id = %s", [game.pk]
        )


def damage_variant(game):
    Game.objects.filter(pk=game.pk).update(variant_id="no-such-game")


@pytest.mark.parametrize("damage", [damage_value_per_point, damage_variant])
def test_the_backup_export_names_a_damaged_game_and_writes_the_others(
    three_games, tmp_path, damage
):
    if damage is damage_value_per_point and connection.vendor != "sqlite":
        pytest.skip("PostgreSQL's numeric(9,2) column cannot hold that value at all")
    damage(three_games[1])
    path = tmp_path / "backup.json"
    err = io.StringIO()
    with pytest.raises(CommandError, match="1 damaged game") as partial:
        call_command("backup", "export", str(path), stderr=err)
    assert partial.value.returncode == 3
    assert f"Game #{three_games[1].pk} could not be read" in err.getvalue()
    written = json.loads(path.read_text())
    assert [g["id"] for g in written["games"]] == [three_games[0].pk, three_games[2].pk]
    assert len(written["circles"][0]["people"]) == 2  # every person is kept


def test_a_whole_backup_still_exits_0(three_games, tmp_path):
    call_command("backup", "export", str(tmp_path / "b.json"), stderr=io.StringIO())
    assert len(json.loads((tmp_path / "b.json").read_text())["games"]) == 3


def test_a_backup_with_nul_and_lone_surrogates_is_restored_cleaned_with_a_report(
    three_games, tmp_path
):
    out = io.StringIO()
    call_command("backup", "export", stdout=out)
    # As an SQLite database that stored them before the import check held them: Anna's
    # name with a NUL wherever it is written, a device name with a lone surrogate.
    doc = json.loads(out.getvalue().replace('"Anna"', '"An\\u0000na"'))
    anna = next(p for p in doc["circles"][0]["people"] if p["name"] == "An\x00na")
    doc["games"][1]["history"][0]["device"] = "ph\ud800one"
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(doc))
    Game.objects.all().delete()
    Circle.objects.all().delete()
    err, out = io.StringIO(), io.StringIO()
    call_command("backup", "import", str(path), stdout=out, stderr=err)
    assert out.getvalue() == "Restored 3 games and 2 people of circles.\n"
    report = err.getvalue()
    assert f"Circle #{doc['circles'][0]['id']}: 1 text(s) held a NUL" in report
    assert f"Game #{three_games[0].pk}: 3 text(s)" in report  # players, dealer, standings
    assert f"Game #{three_games[1].pk}: 1 text(s)" in report
    assert Person.objects.get(pk=anna["id"]).name == "Anna"
    assert Event.objects.get(game_id=three_games[1].pk).device == "ph\ufffdone"
