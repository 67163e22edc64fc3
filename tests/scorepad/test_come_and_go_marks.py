"""Players who come and go, as the table sees them (issue 23, item 10): who left is marked
on the sheet and in the standings, a newcomer's chart line starts where they sat down,
leaving asks first (without script too), and the target is said as a person says it."""

import re

import pytest
from django.test import Client

from scorepad.models import Game
from scorepad.sheet import build_sheet
from tests.factories import ACTOR, GameFactory, record_penalty
from tests.scorepad.conftest import own
from tests.scorepad.test_players_come_and_go import change, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def romme(db):
    game = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"])
    record_penalty(game, 0, {1: 20, 2: 35})
    record_penalty(game, 1, {0: 10, 2: 15})
    game.refresh_from_db()
    return game


def test_a_newcomers_chart_line_starts_where_they_sat_down(romme):
    phone = own(Client(), romme)
    change(phone, romme, "join", name="Dana", start="number", start_points="40")
    record_penalty(romme, 3, {0: 5, 1: 5, 2: 5})  # Dana's first deal is deal 3
    sheet = build_sheet(Game.objects.get(pk=romme.pk))
    chart = sheet.chart()
    assert chart is not None
    lines = {s.name: s.points.split() for s in chart.series}
    assert len(lines["Anna"]) == 4  # deal 0 to deal 3
    assert len(lines["Dana"]) == 2  # from after deal 2 (40) to deal 3 (40)
    assert lines["Dana"][0].split(",")[0] == lines["Anna"][2].split(",")[0]
    assert lines["Dana"][0].split(",")[1] == lines["Dana"][1].split(",")[1]  # 40 both


def test_who_left_is_marked_on_the_sheet_and_in_the_standings(romme):
    phone = own(Client(), romme)
    change(phone, romme, "leave", position=1, op="leave")
    for lang, words in (("en", "left after deal 2"), ("de", "nach Runde 2 gegangen")):
        page = phone.get(f"/{lang}/games/{romme.editor_token}/").content.decode()
        head = page[page.index("<thead>") : page.index("</thead>")]
        assert head.count('class="left-mark"') == 1
        assert f'<span class="visually-hidden"> ({words})</span>' in head
        standings = page[page.index('<ol class="standings">') :]
        standings = standings[: standings.index("</ol>")]
        ben = next(li for li in standings.split("<li")[1:] if "Ben" in li)
        assert f'<small class="left-mark">{words}</small>' in ben
        assert standings.count("left-mark") == 1


def test_leaving_asks_first_and_the_question_works_without_script(romme):
    phone = own(Client(), romme)
    page = phone.get(url(romme)).content.decode()
    assert 'name="leave" value="1"' in page
    assert "Is Ben leaving the table?" not in page
    asked = phone.get(url(romme), {"leave": "1"}).content.decode()
    assert "Is Ben leaving the table?" in asked
    assert re.search(r'<button type="submit" name="op" value="leave"[^>]*>Yes, Ben leaves', asked)
    assert Game.objects.get(pk=romme.pk).seats.get(position=1).active  # asking changes nothing
    for junk in ("x", "99", "-1", "²"):
        assert phone.get(url(romme), {"leave": junk}).status_code == 200
    version = re.search(r'name="version" value="(\d+)"', asked).group(1)
    once = re.search(r'name="once" value="([^"]+1l)"', asked).group(1)
    data = {"form": "leave", "position": "1", "op": "leave", "version": version, "once": once}
    phone.post(url(romme), data)
    assert not Game.objects.get(pk=romme.pk).seats.get(position=1).active


@pytest.mark.parametrize(
    ("lang", "both", "score", "deals"),
    [
        (
            "en",
            "Game ends at 60 points or after deal 9",
            "Game ends at 60 points",
            "Game ends after deal 9",
        ),
        (
            "de",
            "Spielende bei 60 Punkten oder nach Runde 9",
            "Spielende bei 60 Punkten",
            "Spielende nach Runde 9",
        ),
        (
            "es",
            "La partida termina a los 60 puntos o tras la ronda 9",
            "La partida termina a los 60 puntos",
            "La partida termina tras la ronda 9",
        ),
    ],
)
def test_the_target_reads_as_a_person_says_it(romme, lang, both, score, deals):
    for target, text in (((60, 9), both), ((60, None), score), ((None, 9), deals)):
        romme.refresh_from_db()
        romme.set_target(*target, version=romme.version, once=None, actor=ACTOR)
        page = Client().get(f"/{lang}/games/{romme.viewer_token}/").content.decode()
        assert text in page
