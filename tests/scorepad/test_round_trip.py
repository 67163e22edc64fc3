"""Every game the app can make comes back the same: its own JSON export imports to the same
sheet, and a backup restores it as it was. Players who joined, left, came back and were
renamed, a target, deals undone, deleted and brought back, an ended game (issue 21, item 6:
the player limits count the players at the table, not every seat ever used)."""

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from scorepad.models import Circle, Event, Game
from scorepad.sheet import build_sheet, load_game
from scorepad.transfer import ImportProblem, import_game
from tests.factories import GameFactory, classic_form_data, penalty_form_data
from tests.scorepad.conftest import own

pytestmark = pytest.mark.django_db


def write(phone, game, name, data, **kwargs):
    """One write through the app's own form, at the game's current version."""
    game.refresh_from_db()
    data = {"version": game.version, "once": f"{name}-{game.version}-0123456789abcdef", **data}
    response = phone.post(reverse(name, kwargs={"token": game.editor_token, **kwargs}), data)
    assert response.status_code in (200, 302), (name, response.status_code)
    return response


def seat_change(phone, game, kind, **fields):
    return write(phone, game, "game-players", {"form": kind, **fields})


def deal(phone, game, went_out, points=None):
    game.refresh_from_db()
    if game.variant_id == "classic":
        data = classic_form_data(game, went_out)
    else:
        data = penalty_form_data(game, went_out, points)
    response = phone.post(reverse("deal-new", kwargs={"token": game.editor_token}), data)
    assert response.status_code == 302, response.content.decode()[:2000]


def last_event(game, kind):
    return Event.objects.filter(game=game, kind=kind).order_by("-pk").first()


def classic_of_fourteen_seats():
    """The classic game: twelve at the table, two leave and two others join (14 seats), one
    is renamed, a deal is deleted and brought back, one undone and redone, a target."""
    game = GameFactory(variant_id="classic", players=[f"P{i}" for i in range(12)])
    phone = own(Client(), game)
    deal(phone, game, 0)
    seat_change(phone, game, "leave", position=3, op="leave")
    seat_change(phone, game, "leave", position=5, op="leave")
    seat_change(phone, game, "join", name="Quinn")
    seat_change(phone, game, "join", name="Rosa")
    deal(phone, game, 12)
    seat_change(phone, game, "rename", position=1, name="Pia")
    deal(phone, game, 1)
    write(phone, game, "deal-delete", {}, number=2)
    write(phone, game, "deal-restore", {"event": last_event(game, "deleted").pk})
    write(phone, game, "deal-undo", {})
    write(phone, game, "deal-redo", {})
    seat_change(phone, game, "target", target_deals="9", target_score="")
    return game


def romme_of_five_seats():
    """Rommé is for 2 to 4: four play, one leaves, another joins (five seats), the one who
    left comes back after a third leaves; the game ends and resumes and ends again."""
    game = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo", "Dan"])
    phone = own(Client(), game)
    deal(phone, game, 0, {1: 20, 2: 35, 3: 5})
    seat_change(phone, game, "leave", position=1, op="leave")
    seat_change(phone, game, "join", name="Eve", start="average")
    deal(phone, game, 4, {0: 10, 2: 15, 3: 5})
    seat_change(phone, game, "leave", position=2, op="leave")
    seat_change(phone, game, "leave", position=1, op="back")
    deal(phone, game, 1, {0: 10, 3: 15, 4: 5})
    write(phone, game, "game-end", {})
    write(phone, game, "game-end", {"op": "resume"})
    write(phone, game, "deal-undo", {})
    write(phone, game, "game-end", {})
    return game


def nordic_with_a_newcomer():
    game = GameFactory(variant_id="contract-nordic", players=["Anna", "Ben", "Cleo"])
    phone = own(Client(), game)
    deal(phone, game, 0, {1: 10, 2: 5})
    seat_change(phone, game, "join", name="Dan", start="zero")
    deal(phone, game, 3, {0: 20, 1: 5, 2: 15})
    seat_change(phone, game, "leave", position=0, op="leave")
    seat_change(phone, game, "rename", position=3, name="Daniel")
    deal(phone, game, 1, {2: 10, 3: 5})
    return game


MAKERS = [classic_of_fourteen_seats, romme_of_five_seats, nordic_with_a_newcomer]


def sheet_of(game):
    """What a person sees of a game: seats, rows, totals and standings, status and target."""
    game = load_game(Game.objects.filter(pk=game.pk))
    sheet = build_sheet(game)
    return {
        "status": game.status,
        "target": (game.target_score, game.target_deals),
        "seats": [(s.name, s.active, s.start, s.total, s.place) for s in sheet.seats],
        "rows": [
            (
                row.deal.number,
                row.deal.status,
                row.deal.went_out,
                row.deal.entry,
                row.dealer.position,
                [(c.points, c.total, c.away) for c in row.cells],
            )
            for row in sheet.rows
        ],
        "totals": sheet.totals,
        "standings": [(seat.name, st.total, st.place) for seat, st in sheet.standings],
    }


@pytest.mark.parametrize("make", MAKERS, ids=lambda m: m.__name__)
def test_a_games_own_export_imports_to_the_same_sheet(make):
    game = make()
    phone = own(Client(), game)
    raw = phone.get(reverse("game-export-json", kwargs={"token": game.viewer_token})).content
    response = phone.post(
        reverse("game-import"), {"file": SimpleUploadedFile("g.json", raw, "application/json")}
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    imported = Game.objects.exclude(pk=game.pk).get()
    assert sheet_of(imported) == sheet_of(game)


@pytest.mark.parametrize("make", MAKERS, ids=lambda m: m.__name__)
def test_a_backup_of_such_a_game_restores_the_same_sheet(make, tmp_path):
    game = make()
    before = sheet_of(game)
    path = tmp_path / "backup.json"
    call_command("backup", "export", str(path), stderr=io.StringIO())
    Game.objects.all().delete()
    Circle.objects.all().delete()
    call_command("backup", "import", str(path), stdout=io.StringIO())
    assert sheet_of(Game.objects.get(pk=game.pk)) == before


def test_a_file_with_too_many_at_the_table_in_one_deal_is_still_refused():
    game = romme_of_five_seats()
    document = json.loads(
        Client().get(reverse("game-export-json", kwargs={"token": game.viewer_token})).content
    )
    document["deals"][0]["players"] = [0, 1, 2, 3, 4]
    document["deals"][0]["scores"] = [0, 20, 35, 5, 0]
    with pytest.raises(ImportProblem, match="is for 2 to 4 players; the table has 5"):
        import_game(document, actor=None)


def test_a_file_whose_table_at_the_end_is_too_large_is_refused():
    game = romme_of_five_seats()
    document = json.loads(
        Client().get(reverse("game-export-json", kwargs={"token": game.viewer_token})).content
    )
    document["left"] = []
    with pytest.raises(ImportProblem, match="is for 2 to 4 players; the table has 5"):
        import_game(document, actor=None)


@pytest.mark.parametrize("deals", [0, 1])
def test_a_game_whose_first_dealer_sits_past_the_table_count_imports(deals):
    """The first dealer is a seat (of every seat ever used), not a place among those at the
    table: four sit down, the fourth deals first, one leaves before the first deal. The walk
    found its export refused ("Choose who deals first")."""
    game = GameFactory(variant_id="contract-nordic", players=["Anna", "Ben", "Cleo", "Dan"])
    Game.objects.filter(pk=game.pk).update(first_dealer=3)
    phone = own(Client(), game)
    seat_change(phone, game, "leave", position=1, op="leave")
    if deals:
        deal(phone, game, 0, {2: 10, 3: 5})
    raw = phone.get(reverse("game-export-json", kwargs={"token": game.viewer_token})).content
    assert json.loads(raw)["first_dealer"] == 3
    response = phone.post(
        reverse("game-import"), {"file": SimpleUploadedFile("g.json", raw, "application/json")}
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    imported = Game.objects.exclude(pk=game.pk).get()
    assert imported.first_dealer == 3
    assert sheet_of(imported) == sheet_of(game)
