"""A tournament on paper and beyond the room (scorepad/views/tournament_paper.py): the table
cards and paper score sheets of the series in play, the printed ranking, the standings as
CSV and JSON (docs/interfaces.md, "A tournament's standings"), and the ranking shared."""

import csv
import io
import json
import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from scorepad.models import Entrant, Tournament
from tests.factories import record_penalty
from tests.scorepad.test_tournaments import _confirm, _enter, _series, _set_up, _version

pytestmark = pytest.mark.django_db

NAMES = ("Anna", "Ben", "=Cleo()", "Dan")


def url(name: str, token: str) -> str:
    return reverse(name, kwargs={"token": token})


def _drop(director: Client, tournament: Tournament, name: str) -> None:
    html = director.get(url("tournament", tournament.editor_token)).content.decode()
    once = re.search(r'name="once" value="([^"]+)"', html)[1]
    player = Entrant.objects.get(name=name)
    data = {"version": _version(html), "once": once, "player": player.pk}
    answer = director.post(url("tournament-drop", tournament.editor_token), data, follow=True)
    assert f"{name} has dropped out." in unescape(answer.content.decode())


@pytest.fixture
def played():
    """Four Rommé players at one table, two series of a deal: in series 1 the first seat goes
    out, the second and third have 10 each (tied at the table) and the fourth 30, confirmed
    by the second; then the fourth drops out."""
    director = Client()
    tournament, _ = _set_up(director, deals="1", series="2")
    for name in NAMES:
        _enter(director, tournament.editor_token, name)
    _series(director, tournament)
    tournament.refresh_from_db()
    table = tournament.tables_of(1)[0]
    seated = [s.entrant for s in table.seated.all()]
    record_penalty(table.game, 0, {1: 10, 2: 10, 3: 30})
    _confirm(Client(), seated[1])
    _drop(director, tournament, seated[3].name)
    tournament.refresh_from_db()
    return director, tournament, seated


def test_the_standings_export_as_json_with_a_tie_and_a_drop_out(played):
    _director, tournament, seated = played
    answer = Client().get(url("tournament-json", tournament.viewer_token))
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/json"
    document = json.loads(answer.content)
    assert document["tournament"] == {
        "name": "Club night",
        "variant": "romme",
        "series": 2,
        "seed": tournament.seed,
        "ranking": "points",
        "after_series": 1,
        "final": False,
    }
    rows = document["standings"]
    assert [r["place"] for r in rows] == [1, 2, 3, 4]
    first, *tied, last = rows
    assert (first["name"], first["series"], first["points"], first["best"]) == (
        seated[0].name, [3.0], 3.0, 3.0
    )  # fmt: skip
    assert first["separated_by"] is None
    # The two tied at the table share places 2 and 3: (2 + 1) / 2 each; the lot parts them.
    assert {r["name"] for r in tied} == {seated[1].name, seated[2].name}
    assert [r["points"] for r in tied] == [1.5, 1.5]
    assert tied[0]["relative"] == tied[1]["relative"] == 2.5  # the mean 12.5 minus 10
    assert [r["separated_by"] for r in tied] == ["points", "lot"]
    # The lot is shown: each player's place in the lot drawn from the seed; it parts the tie.
    assert sorted(r["lot"] for r in rows) == [1, 2, 3, 4]
    assert tied[0]["lot"] < tied[1]["lot"]
    page = Client().get(url("tournament", tournament.viewer_token)).content.decode()
    assert f"the lot: place {tied[1]['lot']} in the draw" in page
    # Who dropped out is last, whatever the points.
    assert (last["name"], last["dropped_out"], last["separated_by"]) == (
        seated[3].name, True, "dropped"
    )  # fmt: skip
    assert not any(r["dropped_out"] for r in rows[:3])
    assert {r["number"] for r in rows} == {e.number for e in seated}


def test_the_standings_export_as_csv_safe_against_formulas(played):
    _director, tournament, seated = played
    answer = Client().get(url("tournament-csv", tournament.viewer_token))
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="club-night-standings.csv"' in answer["Content-Disposition"]
    text = answer.content.decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text[1:])))
    assert rows[0] == ["place", "number", "name", "series_1", "points", "relative", "best",
                       "dropped_out", "separated_by", "lot"]  # fmt: skip
    by_name = {row[2]: row for row in rows[1:]}
    # The name a spreadsheet would run as a formula is written as text.
    assert "'=Cleo()" in by_name
    assert "=Cleo()" not in by_name

    def row_of(entrant):
        return by_name[("'" if entrant.name.startswith("=") else "") + entrant.name]

    assert row_of(seated[0])[:2] == ["1", str(seated[0].number)]
    assert row_of(seated[0])[3:5] == ["3.0", "3.0"]
    tied = [row_of(seated[1]), row_of(seated[2])]
    assert sorted(row[-2] for row in tied) == ["lot", "points"]
    assert {row[4] for row in tied} == {"1.5"}
    dropped = rows[-1]
    assert dropped[2].lstrip("'") == seated[3].name
    assert dropped[-3:-1] == ["yes", "dropped"]


def test_a_viewer_sees_the_exports_and_the_shared_ranking_but_no_table_cards(played):
    _director, tournament, seated = played
    html = Client().get(url("tournament", tournament.viewer_token)).content.decode()
    assert url("tournament-csv", tournament.viewer_token) in html
    assert url("tournament-ranking", tournament.viewer_token) in html
    assert url("tournament-sheets", tournament.viewer_token) in html
    assert "tournament-cards" not in html
    assert "/print/cards/" not in html
    assert Client().get(url("tournament-cards", tournament.viewer_token)).status_code == 403
    # The ranking to share, after series 1 of 2: its text and its picture.
    text = unescape(re.search(r"<textarea[^>]*data-result-text>(.*?)</textarea>", html, re.S)[1])
    assert text.startswith("Club night, ")
    assert f"1. {seated[0].name} 3" in text
    assert "Standings after series 1 of 2." in text
    picture = Client().get(url("tournament-result", tournament.viewer_token))
    assert picture["Content-Type"] == "image/svg+xml; charset=utf-8"
    svg = picture.content.decode()
    assert "Standings after series 1 of 2" in svg
    assert all(e.name in unescape(svg) for e in seated)
    assert tournament.editor_token not in svg
    assert tournament.viewer_token not in svg


def test_no_ranking_is_shared_before_a_series_is_confirmed_at_every_table():
    director = Client()
    tournament, _ = _set_up(director, deals="1", series="1")
    for name in NAMES:
        _enter(director, tournament.editor_token, name)
    _series(director, tournament)
    assert Client().get(url("tournament-result", tournament.viewer_token)).status_code == 404
    html = director.get(url("tournament", tournament.editor_token)).content.decode()
    assert "data-share-result" not in html
    assert url("tournament-cards", tournament.editor_token) in html
    page = Client().get(url("tournament-ranking", tournament.viewer_token)).content.decode()
    assert "No series is confirmed at every table yet." in page


def test_the_final_ranking_once_the_last_series_is_confirmed(played):
    director, tournament, seated = played
    _series(director, tournament)
    tournament.refresh_from_db()
    table = tournament.tables_of(2)[0]
    players = [s.entrant for s in table.seated.all()]
    assert seated[3] not in players  # who dropped out is seated no more
    record_penalty(table.game, 0, {1: 5, 2: 20})
    _confirm(Client(), players[1])
    page = Client().get(url("tournament-ranking", tournament.viewer_token)).content.decode()
    assert "Final ranking" in page
    tied = {seated[1].name, seated[2].name}
    rows = [re.findall(r"<td>(.*?)</td>", row) for row in re.findall(r"<tr><td>.*?</tr>", page)]
    assert [cells[3] for cells in rows if cells[2] in tied] == ["1.5", "1.5"]  # not 1.500
    assert re.search(r"<th scope=\"col\">S1</th><th scope=\"col\">S2</th>", page)
    html = director.get(url("tournament", tournament.editor_token)).content.decode()
    text = unescape(re.search(r"<textarea[^>]*data-result-text>(.*?)</textarea>", html, re.S)[1])
    assert "Final ranking" in unescape(
        Client().get(url("tournament-result", tournament.viewer_token)).content.decode()
    )
    assert "so far" not in text
    assert "after series" not in text
    document = Client().get(url("tournament-json", tournament.viewer_token)).json()
    assert document["tournament"]["final"] is True
    assert document["standings"][-1]["series"] == [0.0, None]  # dropped: not seated in 2


def test_the_table_cards_hold_each_tables_game_and_players(played):
    director, tournament, seated = played
    answer = director.get(url("tournament-cards", tournament.editor_token))
    assert "no-store" in answer["Cache-Control"]  # the games' editor links are in it
    html = unescape(answer.content.decode())
    table = tournament.tables_of(1)[0]
    assert "Table 1" in html
    assert html.count(' class="qr"') == 1
    assert f"/games/{table.game.editor_token}/" in html
    assert all(f"<li>{e.name}</li>" in html for e in seated)
    assert "css/paper.css" in html


def test_a_paper_sheet_has_a_row_a_deal_and_a_signature_line(played):
    _director, tournament, seated = played
    html = unescape(
        Client().get(url("tournament-sheets", tournament.viewer_token)).content.decode()
    )
    assert "Series 1: table 1" in html
    assert all(f'<th scope="col">{e.name}</th>' in html for e in seated)
    body = re.search(r"<tbody>(.*?)</tbody>", html, re.S)[1]
    assert body.count("<tr>") == 1  # the series' one deal
    assert "Total" in html
    assert "Confirmed by (another player of the table: name and signature)" in html


def test_a_contract_games_paper_sheet_has_its_seven_contracts():
    director = Client()
    tournament, _ = _set_up(director, variant="contract-nordic", deals="", minutes="45")
    for name in ("Anna", "Ben", "Cleo"):
        _enter(director, tournament.editor_token, name)
    _series(director, tournament)
    html = unescape(
        Client().get(url("tournament-sheets", tournament.viewer_token)).content.decode()
    )
    body = re.search(r"<tbody>(.*?)</tbody>", html, re.S)[1]
    assert body.count("<tr>") == 7
    assert "1 · 2 sets" in body
    assert "Contract" in html


def test_the_paper_answers_in_every_language(played):
    _director, tournament, _seated = played
    english = url("tournament-ranking", tournament.viewer_token)
    for lang, word in {"de": "Durchgang", "nb": "omgang", "pl": "runda", "fi": "sarja",
                       "es": "serie"}.items():  # fmt: skip
        path = english.replace("/en/", f"/{lang}/")
        html = Client().get(path).content.decode()
        assert f'lang="{lang}"' in html
        assert word.lower() in html.lower(), lang


def test_the_viewers_paper_and_exports_show_no_other_link(played):
    """docs/architecture.md, "Who a link lets in": a viewer's link shows nothing of the
    director's, the registration's or a table's game's links, on paper or exported."""
    _director, tournament, _seated = played
    secrets = [tournament.editor_token, tournament.registration_token] + [
        t.game.editor_token for t in tournament.tables_of(1)
    ]
    for name in ("tournament-sheets", "tournament-ranking", "tournament-csv",
                 "tournament-json", "tournament-result", "tournament"):  # fmt: skip
        answer = Client().get(url(name, tournament.viewer_token))
        assert answer.status_code == 200, name
        body = answer.content.decode()
        assert not [s for s in secrets if s in body], name
