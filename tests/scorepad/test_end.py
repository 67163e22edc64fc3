from decimal import Decimal

import pytest
from django.urls import reverse

from scorepad.models import Game
from tests.factories import record_classic, record_penalty

pytestmark = pytest.mark.django_db


def url(game, name="game"):
    return reverse(name, kwargs={"token": game.editor_token})


def end(client, game, op="end"):
    game.refresh_from_db()
    return client.post(
        url(game, "game-end"),
        {"version": game.version, "once": f"{op}-{game.version:020d}", "op": op},
    )


@pytest.fixture
def played(game):
    record_classic(game, 0, jokers=1)  # Anna +9, others -3
    record_classic(game, 1)  # Ben +33, others -11
    return game


def test_ending_the_classic_game_shows_the_final_standings_highest_balance_first(creator, played):
    response = end(creator, played)
    assert response.status_code == 302
    played.refresh_from_db()
    assert played.status == Game.Status.FINISHED
    body = creator.get(url(played)).content.decode()
    assert "Final standings" in body
    assert "Winner: Ben" in body
    standings = body[body.index('class="standings"') :]
    assert standings.index("Ben") < standings.index("Anna") < standings.index("Cleo")
    assert "Record deal" not in body
    assert "Resume the game" in body


def test_the_settle_up_gives_the_fewest_payments_in_money(creator, played):
    end(creator, played)
    body = creator.get(url(played) + "?per_point=0.10").content.decode()
    # balances: Anna -2, Ben +30, Cleo -14, Dan -14 -> three payments to Ben
    assert "Anna pays Ben 0.20" in body
    assert "Cleo pays Ben 1.40" in body
    assert "Dan pays Ben 1.40" in body
    assert "3 payments square everybody" in body


def test_the_settle_up_uses_the_value_set_at_the_start(creator, played):
    Game.objects.filter(pk=played.pk).update(value_per_point=Decimal("0.50"))
    end(creator, played)
    body = creator.get(url(played)).content.decode()
    assert "Cleo pays Ben 7.00" in body


def test_a_bad_value_per_point_is_refused_in_place(creator, played):
    end(creator, played)
    body = creator.get(url(played) + "?per_point=-1").content.decode()
    assert "The amount is at least 0.01." in body
    assert "pays" not in body


def test_a_finished_game_can_be_resumed(creator, played):
    end(creator, played)
    end(creator, played, op="resume")
    played.refresh_from_db()
    assert played.status == Game.Status.IN_PROGRESS
    assert "Record deal 3" in creator.get(url(played)).content.decode()


def test_a_penalty_game_is_won_by_the_lowest_total(client):
    from tests.factories import GameFactory
    from tests.scorepad.conftest import own

    game = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"])
    own(client, game)
    record_penalty(game, 0, {1: 30, 2: 12})
    record_penalty(game, 1, {0: 50, 2: 3})
    end(client, game)
    body = client.get(url(game)).content.decode()
    assert "Winner: Cleo" in body  # 15, against Anna 50 and Ben 30
    assert "Settle up" not in body


@pytest.mark.parametrize("typed", ["0,10", "0.10", " 0,1 "])
def test_a_german_settle_up_reads_a_decimal_comma_and_a_point(creator, played, typed):
    end(creator, played)
    path = url(played).replace("/en/", "/de/")
    body = creator.get(path, {"per_point": typed}).content.decode()
    assert "Cleo zahlt 1,40 an Ben" in body
    assert "Anna zahlt 0,20 an Ben" in body


def test_the_amount_set_at_the_start_is_shown_as_german_writes_it(creator, played):
    Game.objects.filter(pk=played.pk).update(value_per_point=Decimal("0.50"))
    end(creator, played)
    body = creator.get(url(played).replace("/en/", "/de/")).content.decode()
    assert 'value="0,50"' in body
    assert "Cleo zahlt 7,00 an Ben" in body


@pytest.mark.parametrize("typed", ["1.000,50", "0,105", "1,2,3", "zehn", "0.10€"])
def test_an_amount_it_cannot_read_is_refused_with_a_message(creator, played, typed):
    end(creator, played)
    body = creator.get(url(played), {"per_point": typed}).content.decode()
    assert "Write the amount with at most two decimals" in body
    assert "pays" not in body


def test_money_per_point_at_the_start_reads_the_german_decimal_comma(client, db):
    answer = client.post(
        "/de/games/new/",
        {
            "variant": "classic",
            "op": "start",
            "seat": ["n:Åsa", "n:Ben"],
            "first_dealer": "draw",
            "value_per_point": "0,10",
        },
    )
    assert answer.status_code == 302
    assert Game.objects.get().value_per_point == Decimal("0.10")
