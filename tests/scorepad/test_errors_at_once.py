"""Errors at the table (issue 23, item 8): every penalty's problem at once, in the form and
in its live preview; a variant's player limit said as names are added."""

import re

import pytest
from django.urls import reverse

from rules.engine.scoring import penalty_errors
from rules.engine.variants import get_variant
from scorepad.forms.deals import PenaltyDealForm
from scorepad.models import Game
from tests.factories import GameFactory, penalty_form_data, seats
from tests.scorepad.conftest import own
from tests.scorepad.test_new_game import URL

pytestmark = pytest.mark.django_db


def test_the_engine_names_every_hands_problem_not_only_the_first():
    nordic = get_variant("contract-nordic")
    found = penalty_errors(nordic, [0, 1, 2, 3], 0, {1: 7, 2: 13, 3: 20})
    assert [e.player for e in found] == [1, 2]
    assert penalty_errors(nordic, [0, 1, 2, 3], 0, {1: 5, 2: 15, 3: 20}) == []


def test_three_wrong_penalties_are_all_named_after_one_save(client):
    game = GameFactory(variant_id="contract-nordic", players=["Anna", "Ben", "Cleo", "Dan"])
    data = penalty_form_data(game, 0, {1: 7, 2: 13, 3: 9})
    form = PenaltyDealForm(data, game=game, seats=seats(game))
    assert not form.is_valid()
    assert {"points_1", "points_2", "points_3"} <= set(form.errors)
    for name in ("Ben", "Cleo", "Dan"):
        assert any(name in str(e) for e in form.errors.values())
    # the page after Save lists the three, and nothing was recorded
    own(client, game)
    url = reverse("deal-new", kwargs={"token": game.editor_token})
    body = client.post(url, data).content.decode()
    for name in ("Ben", "Cleo", "Dan"):
        assert f"{name}: " in body
    assert game.deals.count() == 0
    # the live preview says them as they are typed
    preview = client.get(
        url, data, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="preview"
    ).content.decode()
    assert sum(f"{name}: " in preview for name in ("Ben", "Cleo", "Dan")) == 3


def test_the_player_limit_is_said_as_names_are_added(client):
    seated = [f"n:P{i}" for i in range(5)]
    body = client.post(
        URL, {"op": "add", "name": "P5", "seat": seated, "variant": "contract-nordic"}
    ).content.decode()
    # one sentence per game that takes fewer than six, shown for the game chosen (app.css)
    notes = re.findall(
        r'<p class="errorlist opts opts-([a-z-]+) over-limit"[^>]*>([^<]+)</p>', body
    )
    assert dict(notes)["contract-nordic"].endswith(" is for 3 to 5 players; the table has 6.")
    assert "classic" not in dict(notes)
    body = client.post(
        URL, {"op": "add", "name": "P4", "seat": seated[:4], "variant": "contract-nordic"}
    ).content.decode()
    assert "opts-contract-nordic over-limit" not in body
    assert Game.objects.count() == 0
