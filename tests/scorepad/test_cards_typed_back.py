"""Typed hands come back in the page's letters, as on the card grid's buttons; links, the
export and the API keep the canonical notation (issue 23, item 9)."""

import json
import re

import pytest
from django.urls import reverse

from tests.factories import GameFactory, record_classic, record_penalty
from tests.scorepad.conftest import own

pytestmark = pytest.mark.django_db

HAND = "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH JK"


def field_value(page: str, name: str) -> str:
    box = re.search(rf'<textarea[^>]* name="{name}"[^>]*>\s*([^<]*)</textarea>', page)
    if box:
        return box.group(1).strip()
    tag = re.search(rf'<input[^>]* name="{name}"[^>]*>', page).group(0)
    return re.search(r'value="([^"]*)"', tag).group(1)


def test_a_german_correction_shows_the_winners_hand_in_german_letters(client):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    record_classic(game, 0, mode="hand", hand=HAND)
    own(client, game)
    url = reverse("deal-edit", kwargs={"token": game.editor_token, "number": 1})
    with_de = client.get(url.replace("/en/", "/de/", 1)).content.decode()
    assert field_value(with_de, "hand") == "4S 5S 6S 7S 9H 10H BH DH 10C BC DC KC AD 3D KH JK"
    # the grid's keys type the same letters
    assert 'data-card="QH" data-type="DH"' in with_de
    with_en = client.get(url).content.decode()
    assert field_value(with_en, "hand") == HAND
    # the export keeps the canonical notation
    export = client.get(reverse("game-export-json", kwargs={"token": game.editor_token}))
    assert HAND in json.dumps(json.loads(export.content))


def test_a_polish_correction_shows_the_cards_left_in_polish_letters(client):
    game = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"])
    record_penalty(game, 0, {2: 5}, cards={1: "JH QS KD"})
    own(client, game)
    url = reverse("deal-edit", kwargs={"token": game.editor_token, "number": 1})
    page = client.get(url.replace("/en/", "/pl/", 1)).content.decode()
    assert field_value(page, "cards_1") == "WH DS KD"
    # sent back as shown, the deal keeps the same cards in canonical notation
    data = {"version": field_value(page, "version"), "once": field_value(page, "once")}
    data.update(went_out="0", cards_1="WH DS KD", points_2="5", number="1")
    data["base"] = field_value(page, "base")
    response = client.post(url.replace("/en/", "/pl/", 1), data, follow=True)
    assert response.status_code == 200
    assert game.deals.get(number=1).entry["left"]["1"]["cards"] == "JH QS KD"
