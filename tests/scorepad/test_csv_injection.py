"""CSV formula injection (OWASP): a name a spreadsheet would run as a formula is exported as
text; the JSON export, the one that imports, keeps names exactly."""

import csv
import io
import json

import pytest
from django.urls import reverse

from scorepad.models import Game
from scorepad.transfer import csv_cell
from tests.factories import GameFactory, record_classic

pytestmark = pytest.mark.django_db

FORMULAS = [
    '=HYPERLINK("http://x","y")',
    "+cmd|' /C calc'!A0",
    "@SUM(1)",
    "-2+3",
    "\tTab",
    "\rReturn",
]


def test_every_cell_a_spreadsheet_would_run_starts_with_an_apostrophe(client):
    game = GameFactory(variant_id="classic", players=FORMULAS)
    record_classic(game, 0, jokers=1)  # the dealer and the winner are a formula too
    response = client.get(reverse("game-export-csv", kwargs={"token": game.viewer_token}))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"), newline="")))
    assert rows[0][3:] == ["'" + name for name in FORMULAS]
    assert rows[1][:3] == ["1", "'" + FORMULAS[0], "'" + FORMULAS[0]]
    # Scores stay numbers, negative ones too.
    assert rows[1][3:] == ["15", "-3", "-3", "-3", "-3", "-3"]
    assert rows[-1][3:] == ["15", "-3", "-3", "-3", "-3", "-3"]
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
            assert not (cell.startswith("-") and not cell.lstrip("-").isdigit()), cell


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("Anna", "Anna"),
        ("Anna=Ben", "Anna=Ben"),
        ("'quoted", "'quoted"),
        ("=1", "'=1"),
        ("", ""),
        (-3, -3),
        (None, None),
    ],
)
def test_only_text_that_starts_like_a_formula_changes(value, written):
    assert csv_cell(value) == written


def test_the_json_export_of_such_names_imports_back_unchanged(client):
    names = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", "@SUM(1)", "-Dan"]
    game = GameFactory(variant_id="classic", players=names)
    record_classic(game, 3, wild_twos=1)
    raw = client.get(reverse("game-export-json", kwargs={"token": game.viewer_token})).content
    assert json.loads(raw)["players"] == names
    response = client.post(reverse("game-import"), {"text": raw.decode()})
    assert response.status_code == 302
    imported = Game.objects.exclude(pk=game.pk).get()
    assert [s.name for s in imported.seats.order_by("position")] == names
    again = json.loads(
        client.get(reverse("game-export-json", kwargs={"token": imported.viewer_token})).content
    )
    assert again["deals"] == json.loads(raw)["deals"]
