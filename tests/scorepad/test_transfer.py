import csv
import html
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scorepad.access import GAMES
from scorepad.models import Deal, Event, Game
from tests.factories import GameFactory, record_classic, record_penalty

pytestmark = pytest.mark.django_db

HAND = "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH JK"


@pytest.fixture
def played(game):
    record_classic(game, 0, jokers=1)
    record_classic(game, 3, mode="hand", hand=HAND)
    record_classic(game, "abandoned")
    game.refresh_from_db()
    return game


def export(client, game, kind):
    return client.get(reverse(f"game-export-{kind}", kwargs={"token": game.viewer_token}))


def test_the_csv_export_has_a_row_per_deal_and_the_totals(client, played):
    response = export(client, played, "csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment;" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["deal", "dealer", "went out", "Anna", "Ben", "Cleo", "Dan"]
    assert rows[1] == ["1", "Anna", "Anna", "9", "-3", "-3", "-3"]
    assert rows[2] == ["2", "Ben", "Dan", "-3", "-3", "-3", "9"]
    assert rows[3] == ["3", "Cleo", "abandoned", "", "", "", ""]
    assert rows[4] == ["total", "", "", "6", "-6", "-6", "6"]


def test_the_csv_export_of_a_contract_game_names_the_contracts(client):
    game = GameFactory(variant_id="contract-nordic", players=3)
    record_penalty(game, 0, {1: 10, 2: 5})
    rows = list(csv.reader(io.StringIO(export(client, game, "csv").content.decode("utf-8-sig"))))
    assert rows[0][3] == "contract"
    assert rows[1][3] == "2 sets"


def test_the_json_export_keeps_inputs_and_scores(client, played):
    document = json.loads(export(client, played, "json").content)
    assert document["format"] == "continental-scorepad"
    assert document["format_version"] == 1
    assert document["variant"] == "classic"
    assert document["options"] == {"twos_wild": True}
    assert document["players"] == ["Anna", "Ben", "Cleo", "Dan"]
    assert document["deals"][1]["entry"]["cards"] == HAND
    assert document["deals"][1]["scores"] == [-3, -3, -3, 9]
    assert document["deals"][2]["status"] == "abandoned"
    assert document["totals"] == [6, -6, -6, 6]


def test_an_export_imports_as_a_new_game_of_this_phone_with_the_same_sheet(client, played):
    raw = export(client, played, "json").content
    response = client.post(
        reverse("game-import"), {"file": SimpleUploadedFile("g.json", raw, "application/json")}
    )
    imported = Game.objects.exclude(pk=played.pk).get()
    assert response.status_code == 302
    assert response["Location"] == reverse("game", kwargs={"token": imported.editor_token})
    assert client.session[GAMES.created] == [imported.pk]
    again = json.loads(export(client, imported, "json").content)
    original = json.loads(raw)
    for key in ("variant", "options", "schedule", "players", "first_dealer", "deals", "totals"):
        assert again[key] == original[key], key
    assert Event.objects.get(game=imported).kind == "imported"


def test_a_contract_game_with_cards_imports_and_ends_by_itself(client):
    game = GameFactory(variant_id="contract-spanish", players=2)
    for _ in range(7):
        record_penalty(game, 0, {}, cards_1="8H 9H JK")
    document = json.loads(export(client, game, "json").content)
    assert document["deals"][0]["scores"] == [0, 70]
    client.post(reverse("game-import"), {"text": json.dumps(document)})
    imported = Game.objects.exclude(pk=game.pk).get()
    assert imported.status == Game.Status.FINISHED
    assert [s.total for s in imported.seats.order_by("position")] == [0, 490]


def test_an_export_whose_scores_were_changed_is_refused(client, played):
    document = json.loads(export(client, played, "json").content)
    document["deals"][0]["scores"] = [90, -30, -30, -30]
    body = client.post(reverse("game-import"), {"text": json.dumps(document)}).content.decode()
    assert "Deal 1: the scores in the file do not match what was entered." in body
    assert Game.objects.count() == 1
    assert Deal.objects.count() == 3


def test_an_export_with_an_impossible_deal_is_refused_and_nothing_is_created(client, played):
    document = json.loads(export(client, played, "json").content)
    document["deals"][1]["entry"]["cards"] = "AS KS"
    del document["deals"][1]["scores"]
    body = client.post(reverse("game-import"), {"text": json.dumps(document)}).content.decode()
    assert "Deal 2 cannot be scored" in body
    assert Game.objects.count() == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "This is not a JSON export of a game."),
        ("[]", "This is not a JSON export of a game."),
        ('{"format": "continental-scorepad", "format_version": 9}', "newer version"),
        ("", "Choose an export file or paste its JSON."),
    ],
)
def test_what_is_not_an_export_is_refused_with_a_message(client, text, message):
    body = client.post(reverse("game-import"), {"text": text}).content.decode()
    assert message in body
    assert not Game.objects.exists()


def test_an_export_with_too_few_players_is_refused(client, played):
    document = json.loads(export(client, played, "json").content)
    document["players"] = ["Solo"]
    document["deals"] = []
    body = client.post(reverse("game-import"), {"text": json.dumps(document)}).content.decode()
    # the new-game form's own check, and its words
    assert "Continental — the 15-card game is for 2 to 12 players; the table has 1." in body


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"first_dealer": 7}, "Choose who deals first, or let the app draw."),
        ({"first_dealer": "draw"}, "Choose who deals first, or let the app draw."),
        ({"players": ["Anna", "  Anna "]}, "Anna already has a seat."),
        ({"players": ["Anna", "B" * 41]}, "A name has at most 40 characters."),
        ({"variant": "poker"}, "Choose the game you play."),
        ({"options": {"twos_wild": "yes"}}, "twos_wild"),
    ],
)
def test_an_import_is_checked_by_the_new_game_form(client, played, change, message):
    """What the new-game page refuses, an import refuses with the same words."""
    document = json.loads(export(client, played, "json").content)
    document.update(change)
    body = html.unescape(
        client.post(reverse("game-import"), {"text": json.dumps(document)}).content.decode()
    )
    assert message in body
    assert Game.objects.count() == 1


def test_an_imported_contract_schedule_goes_through_the_new_game_form(client):
    game = GameFactory(
        variant_id="contract-spanish",
        players=2,
        schedule=[{"cards": 16, "sets": 1, "runs": 2, "set_min": 3, "run_min": 5}],
    )
    document = json.loads(export(client, game, "json").content)
    response = client.post(reverse("game-import"), {"text": json.dumps(document)})
    assert response.status_code == 302
    imported = Game.objects.exclude(pk=game.pk).get()
    assert imported.schedule == game.schedule
    document["schedule"] = [{"cards": 16, "sets": -1, "runs": 2}]
    body = client.post(reverse("game-import"), {"text": json.dumps(document)}).content.decode()
    assert "Deal 1: write the cards dealt, the sets and the runs as numbers" in body
    assert Game.objects.count() == 2


@pytest.mark.parametrize(
    "deal",
    [
        {"status": "scored", "went_out": 0, "entry": {"left": "nonsense"}},
        {"status": "scored", "went_out": [1], "entry": []},
        "not a deal",
    ],
)
def test_a_garbled_deal_is_refused_without_an_error_page(client, deal):
    document = {
        "format": "continental-scorepad",
        "format_version": 1,
        "variant": "romme",
        "players": ["Anna", "Ben"],
        "deals": [deal],
    }
    response = client.post(reverse("game-import"), {"text": json.dumps(document)})
    assert response.status_code == 200
    assert "Deal 1" in response.content.decode()
    assert not Game.objects.exists()


def csv_rows(client, game, lang: str, delimiter: str) -> list[list[str]]:
    raw = client.get(f"/{lang}/games/{game.viewer_token}/export.csv").content
    assert raw.startswith(b"\xef\xbb\xbf"), "no byte-order mark: Excel on Windows misreads UTF-8"
    return list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=delimiter))


def test_the_german_csv_export_is_one_a_german_spreadsheet_reads(client, db):
    game = GameFactory(variant_id="contract-nordic", players=["Åsa", "Jörg", "Zoë"])
    record_penalty(game, 0, {1: 10, 2: 5})
    record_penalty(game, 1, {0: 20, 2: 5})
    rows = csv_rows(client, game, "de", ";")
    assert rows[0][:4] == ["Runde", "Geber", "fertig", "Kontrakt"]
    assert rows[0][4:] == ["Åsa", "Jörg", "Zoë"]
    assert rows[1][3] == "2 Sätze"
    assert rows[2][3] == "1 Satz und 1 Folge"
    assert rows[-1][4:] == ["20", "10", "10"]


def test_the_english_csv_export_keeps_commas_and_words_its_contracts(client, db):
    game = GameFactory(variant_id="contract-nordic", players=3)
    record_penalty(game, 0, {1: 10, 2: 5})
    record_penalty(game, 1, {0: 20, 2: 5})
    rows = csv_rows(client, game, "en", ",")
    assert [rows[1][3], rows[2][3]] == ["2 sets", "1 set and 1 run"]


def test_the_csv_export_marks_handromme(client, db):
    game = GameFactory(variant_id="romme", players=["Anna", "Ben"])
    record_penalty(game, 0, {1: 30}, handromme="on")
    rows = csv_rows(client, game, "en", ",")
    assert rows[1][2] == "Anna (Handrommé)"
