"""Table mode (issue 27): a game's and an evening's screen for the middle of the table,
reached from the viewer and the editor link, holding nothing that writes, live through a
version check (204 while unchanged, the fresh board otherwise)."""

import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorepad.models import Evening, EveningGame
from tests.factories import ACTOR, GameFactory, record_classic, record_penalty
from tests.scorepad.conftest import own

pytestmark = pytest.mark.django_db


def url(name, token):
    return reverse(name, kwargs={"token": token})


def text(response) -> str:
    """The page's words, tags dropped and spaces squeezed."""
    body = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", body)


@pytest.fixture
def played():
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    game.value_per_point = Decimal("0.10")
    game.save()
    record_classic(game, 0, no_wild=True)  # Anna goes out: +33, the others -11
    game.refresh_from_db()
    return game


def test_the_viewer_link_shows_standings_last_deal_dealer_starter_and_money(client, played):
    response = client.get(url("game-table", played.viewer_token))
    assert response.status_code == 200
    page = text(response)
    assert "Table mode" in page
    assert "1. Anna +33 +3.30 in the last deal: +33 ✓ went out" in page
    assert "2. Ben −11 −1.10 in the last deal: −11" in page
    assert "Last deal: 1" in page
    # Deal 2: the dealer moves on one seat; who starts is the next one.
    sheet_page = text(client.get(url("game", played.viewer_token)))
    dealer = re.search(r"Deals (\w+) Starts (\w+)", sheet_page)
    assert dealer is not None
    assert f"Deals {dealer[1]} Starts {dealer[2]}" in page
    assert "Money at 0.10 per point." in page


def test_nothing_on_it_writes_and_an_editor_link_goes_to_the_viewer_links_table(played):
    for phone in (Client(), own(Client(), played)):
        response = phone.get(url("game-table", played.editor_token), follow=True)
        assert response.status_code == 200
        assert response.redirect_chain[-1][0] == url("game-table", played.viewer_token)
        body = response.content.decode()
        assert played.editor_token not in body
        assert "<form" not in body
        assert 'name="once"' not in body
        assert "csrfmiddlewaretoken" not in body
        assert "X-CSRFToken" not in body


def test_the_creators_phone_on_the_viewer_link_sees_no_editor_link_either(client, played):
    own(client, played)
    body = client.get(url("game-table", played.viewer_token)).content.decode()
    assert played.editor_token not in body
    assert "<form" not in body


def test_a_dead_link_is_not_found_and_its_version_check_stops(client, played):
    token = played.viewer_token
    played.replace_link("viewer", version=played.version, once=None, actor=ACTOR)
    assert client.get(url("game-table", token)).status_code == 404
    assert client.get(url("game-table-version", token) + "?v=1").status_code == 286


def test_the_page_speaks_the_language_of_its_address(client, played):
    with translation.override("de"):
        response = client.get(url("game-table", played.viewer_token))
    page = text(response)
    assert response.status_code == 200
    assert "Tischansicht" in page
    assert "Letzte Runde: 1" in page
    assert "Table mode" not in page


def test_the_version_check_answers_204_while_unchanged_and_the_fresh_board_after(client, played):
    check = url("game-table-version", played.viewer_token)
    assert client.get(f"{check}?v={played.version}").status_code == 204
    before = played.version
    record_classic(played, 1, no_wild=True)
    played.refresh_from_db()
    response = client.get(f"{check}?v={before}")
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="tm"')
    assert "Last deal: 2" in text(response)
    assert f"?v={played.version}" in body
    assert "<html" not in body
    assert "<form" not in body
    # Asked through the editor link, the fresh board still names only the viewer link.
    body = client.get(url("game-table-version", played.editor_token) + "?v=0").content.decode()
    assert played.editor_token not in body
    assert played.viewer_token in body


def test_a_contract_game_names_the_contract_of_the_next_deal(client):
    game = GameFactory(variant_id="contract-nordic", players=["Eva", "Finn", "Gro"])
    page = text(client.get(url("game-table", game.viewer_token)))
    first = text(client.get(url("game", game.viewer_token)))
    contract = re.search(r"Deal 1 of 7 · ([^·]+?) Deals", first)
    assert contract is not None
    assert f"Deal 1 of 7 · {contract[1]}" in page


def test_at_the_end_the_winners_moment_names_the_winner(client, played):
    played.end(version=played.version, once=None, actor=ACTOR)
    response = client.get(url("game-table", played.viewer_token))
    body = response.content.decode()
    assert re.search(r'class="tm-winner"[^>]*><span>Winner: Anna</span>', body)
    assert "Final standings" in text(response)


def test_more_than_six_players_go_in_columns(client):
    game = GameFactory(players=[f"P{n}" for n in range(1, 9)])
    body = client.get(url("game-table", game.viewer_token)).content.decode()
    assert re.search(r'<section id="tm" class="tm tm-n8 many tm-game"', body)
    six = GameFactory(players=6)
    body = client.get(url("game-table", six.viewer_token)).content.decode()
    assert re.search(r'<section id="tm" class="tm tm-n6 tm-game"', body)


def test_the_share_page_offers_table_mode_with_its_qr_code(client, played):
    page = client.get(url("game-share", played.viewer_token)).content.decode()
    table = "http://testserver" + url("game-table", played.viewer_token)
    assert f'href="{table}"' in page
    assert 'aria-label="QR code of the table mode"' in page
    # The editor's Share page too gives the viewer link's table, not the editor's.
    page = own(Client(), played).get(url("game-share", played.editor_token)).content.decode()
    assert f'href="{table}"' in page
    assert "http://testserver" + url("game-table", played.editor_token) not in page


@pytest.fixture
def evening():
    first = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    record_classic(first, 0, no_wild=True)  # Anna +22, Ben -11, Cleo -11
    first.refresh_from_db()
    first.end(version=first.version, once=None, actor=ACTOR)
    second = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"])
    record_penalty(second, 0, {1: 30, 2: 10})
    second.refresh_from_db()
    night = Evening.objects.create(name="Friday", stake=Decimal("0.10"))
    EveningGame.objects.create(evening=night, game=first, stake=Decimal("0.10"), position=1)
    EveningGame.objects.create(evening=night, game=second, stake=Decimal("0.10"), position=2)
    return night, second


def test_an_evenings_table_shows_its_money_and_the_game_in_progress(client, evening):
    night, _second = evening
    response = client.get(url("evening-table", night.viewer_token))
    assert response.status_code == 200
    page = text(response)
    assert "Friday" in page
    assert re.search(r"1\. Anna \+\d", page), page
    assert "Game 2 · Rommé with the 51-point opening Deal 2" in page
    assert re.search(r"Deals \w+ Starts \w+", page)
    assert "<form" not in response.content.decode()


def test_an_evenings_editor_link_goes_to_the_viewer_links_table(client, evening):
    night, _ = evening
    response = client.get(url("evening-table", night.editor_token), follow=True)
    assert response.redirect_chain[-1][0] == url("evening-table", night.viewer_token)
    assert night.editor_token not in response.content.decode()


def test_the_evenings_version_follows_a_deal_in_one_of_its_games(client, evening):
    night, second = evening
    page = client.get(url("evening-table", night.viewer_token)).content.decode()
    version = re.search(r'data-version="([^"]+)"', page)[1]
    check = url("evening-table-version", night.viewer_token)
    assert client.get(f"{check}?v={version}").status_code == 204
    record_penalty(second, 1, {0: 20, 2: 5})
    response = client.get(f"{check}?v={version}")
    assert response.status_code == 200
    assert "Game 2 · Rommé with the 51-point opening Deal 3" in text(response)
    fresh = re.search(r'data-version="([^"]+)"', response.content.decode())[1]
    assert fresh != version
    assert client.get(f"{check}?v={fresh}").status_code == 204
    assert client.get(url("evening-table-version", "x" * 30) + "?v=1").status_code == 286


def test_a_dead_evening_link_is_not_found(client):
    assert client.get(url("evening-table", "y" * 30)).status_code == 404


def test_the_evening_page_offers_its_table_mode(client, evening):
    night, _ = evening
    page = client.get(url("evening", night.viewer_token)).content.decode()
    assert "http://testserver" + url("evening-table", night.viewer_token) in page


def test_the_unchanged_checks_cost_one_query_for_a_game_and_two_for_an_evening(
    client, played, evening, django_assert_num_queries
):
    check = url("game-table-version", played.viewer_token) + f"?v={played.version}"
    with django_assert_num_queries(1):
        assert client.get(check).status_code == 204
    night, _ = evening
    page = client.get(url("evening-table", night.viewer_token)).content.decode()
    version = re.search(r'data-version="([^"]+)"', page)[1]
    check = url("evening-table-version", night.viewer_token) + f"?v={version}"
    with django_assert_num_queries(2):  # the evening, the sum of its games' versions
        assert client.get(check).status_code == 204


def test_no_inline_script_or_style_under_the_strict_policy(client, played):
    response = client.get(url("game-table", played.viewer_token))
    body = response.content.decode()
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", body) == []
    assert " style=" not in body
    assert "<style" not in body
    assert "/static/js/tablemode" in body
