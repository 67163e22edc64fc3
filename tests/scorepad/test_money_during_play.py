"""Money during play (issue 23, item 6): with money per point set, each player's money
beside the totals while the game runs; money per point on the new-game form itself; the
phone starts its next game with the variant it started last."""

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from scorepad.models import Game
from tests.factories import GameFactory, record_classic, record_penalty
from tests.scorepad.test_new_game import URL, start

pytestmark = pytest.mark.django_db


def standings(page: str) -> list[str]:
    block = page[page.index('<ol class="standings">') :]
    block = block[: block.index("</ol>")]
    items = re.findall(r"<li[^>]*>(.*?)</li>", block, re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", li)).strip() for li in items]


def test_a_running_classic_game_shows_each_players_money_beside_the_totals(client):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    game.value_per_point = Decimal("0.10")
    game.save()
    record_classic(game, 0, no_wild=True)  # Anna +22, Ben −11, Cleo −11
    page = client.get(reverse("game", kwargs={"token": game.viewer_token})).content.decode()
    assert not game.is_finished
    assert standings(page) == ["1. Anna +22 +2.20", "2. Ben −11 −1.10", "2. Cleo −11 −1.10"]
    assert "Money at 0.10 per point." in page
    german = client.get(f"/de/games/{game.viewer_token}/").content.decode()
    assert "+2,20" in german
    assert "Geld bei 0,10 pro Punkt." in german


def test_without_money_per_point_the_standings_show_points_only(client):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    record_classic(game, 0, no_wild=True)
    page = client.get(reverse("game", kwargs={"token": game.viewer_token})).content.decode()
    assert standings(page) == ["1. Anna +22", "2. Ben −11", "2. Cleo −11"]
    assert "per point." not in page
    romme = GameFactory(variant_id="romme", players=["Anna", "Ben"])
    record_penalty(romme, 0, {1: 30})
    page = client.get(reverse("game", kwargs={"token": romme.viewer_token})).content.decode()
    assert standings(page) == ["1. Anna 0", "2. Ben 30"]


def test_money_per_point_is_on_the_new_game_form_not_in_the_house_rules(client):
    body = client.get(URL).content.decode()
    rules = body[body.index('<details class="house-rules"') :]
    rules = rules[: rules.index("</details>")]
    assert 'name="value_per_point"' in body
    assert 'name="value_per_point"' not in rules
    start(client, "classic", ["Anna", "Ben"], value_per_point="0,25")
    assert Game.objects.get().value_per_point == Decimal("0.25")


def test_the_phone_offers_the_variant_it_started_last(client):
    response = start(client, "contract-nordic", ["Anna", "Ben", "Cleo"])
    assert response.cookies["scorepad_variant"].value == "contract-nordic"
    body = client.get(URL).content.decode()
    assert re.search(r'<input[^>]*value="contract-nordic"[^>]*checked', body)
    # a named variant comes first; an unknown cookie is no variant
    body = client.get(URL + "?variant=romme").content.decode()
    assert re.search(r'<input[^>]*value="romme"[^>]*checked', body)
    client.cookies["scorepad_variant"] = "poker"
    body = client.get(URL).content.decode()
    assert client.get(URL).status_code == 200
    assert not re.search(r'<input[^>]*value="poker"', body)
