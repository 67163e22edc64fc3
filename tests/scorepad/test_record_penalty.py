import pytest
from django.urls import reverse
from django.utils import translation

from scorepad.models import Deal, DealScore, Game
from tests.factories import GameFactory, penalty_form_data, record_penalty
from tests.scorepad.conftest import own

pytestmark = pytest.mark.django_db


@pytest.fixture
def nordic(client):
    game = GameFactory(variant_id="contract-nordic", players=["Anna", "Ben", "Cleo", "Dan"])
    own(client, game)
    return game


@pytest.fixture
def romme(client):
    game = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"])
    own(client, game)
    return game


def url(game, name="deal-new", **kwargs):
    return reverse(name, kwargs={"token": game.editor_token, **kwargs})


def scores(game, number=1):
    deal = Deal.objects.get(game=game, number=number)
    return [s.points for s in DealScore.objects.filter(deal=deal).order_by("seat__position")]


def test_the_form_asks_points_or_cards_for_each_player(client, nordic):
    body = client.get(url(nordic)).content.decode()
    assert "Nobody: the stock ran out" in body
    for pos in range(4):
        assert f'name="points_{pos}"' in body
        assert f'name="cards_{pos}"' in body
    assert 'data-target="id_cards_3"' in body
    assert "Handrommé" not in body


def test_penalty_points_are_recorded_and_the_winner_scores_zero(client, nordic):
    data = penalty_form_data(nordic, 1, {0: 20, 2: 70, 3: 5})
    response = client.post(url(nordic), data)
    assert response.status_code == 302
    assert scores(nordic) == [20, 0, 70, 5]


def test_cards_left_in_hand_are_scored_by_the_engine(client, nordic):
    # Nordic: 5, 7 and Q = 5 + 5 + 10 = 20; ace and joker = 20 + 50 = 70
    data = penalty_form_data(nordic, 0, {3: 10}, cards={1: "5H 7C QS", 2: "AS JK"})
    client.post(url(nordic), data)
    assert scores(nordic) == [0, 20, 70, 10]
    deal = Deal.objects.get(game=nordic)
    assert deal.entry["left"]["1"] == {"cards": "5H 7C QS", "points": 20}
    assert deal.entry["left"]["3"] == {"points": 10}


def test_points_not_a_multiple_of_five_are_refused_next_to_the_player(client, nordic):
    body = client.post(
        url(nordic), penalty_form_data(nordic, 0, {1: 10, 2: 17, 3: 5})
    ).content.decode()
    assert "Cleo: 17 is not a multiple of 5" in body
    assert not Deal.objects.exists()


def test_more_points_than_a_hand_can_be_worth_are_refused(client, nordic):
    body = client.post(
        url(nordic), penalty_form_data(nordic, 0, {1: 10, 2: 5000, 3: 5})
    ).content.decode()
    assert "Cleo: 5000 points is more than a hand can be worth" in body
    assert not Deal.objects.exists()


def test_a_missing_penalty_is_asked_for(client, nordic):
    body = client.post(url(nordic), penalty_form_data(nordic, 0, {1: 10, 3: 5})).content.decode()
    assert "Enter the penalty of Cleo, as points or as the cards left." in body
    assert not Deal.objects.exists()


def test_an_unreadable_card_is_named_next_to_the_player(client, nordic):
    data = penalty_form_data(nordic, 0, {1: 10, 3: 5}, cards={2: "5H XX"})
    body = client.post(url(nordic), data).content.decode()
    assert "Cleo: “XX” is not a card." in body
    assert not Deal.objects.exists()


def test_nobody_went_out_every_hand_counts(client, nordic):
    client.post(url(nordic), penalty_form_data(nordic, "nobody", {0: 5, 1: 10, 2: 15, 3: 20}))
    deal = Deal.objects.get()
    assert deal.went_out is None
    assert scores(nordic) == [5, 10, 15, 20]


def test_the_winner_with_cards_left_is_refused(client, nordic):
    data = penalty_form_data(nordic, 0, {0: 10, 1: 10, 2: 10, 3: 5})
    body = client.post(url(nordic), data).content.decode()
    # An instruction, not a fact (issue 45, item 8): what to do with the box.
    assert "Anna: leave the points empty; going out scores 0" in body
    assert not Deal.objects.exists()
    with translation.override("pl"):
        body = client.post(url(nordic).replace("/en/", "/pl/"), data).content.decode()
    assert "Anna: zostaw punkty puste; kto kończy rozdanie, ma 0" in body


def test_the_contract_game_ends_by_itself_after_the_seventh_deal(client, nordic):
    for _ in range(6):
        record_penalty(nordic, 0, {1: 10, 2: 20, 3: 5})
    nordic.refresh_from_db()
    response = client.post(url(nordic), penalty_form_data(nordic, 1, {0: 5, 2: 5, 3: 5}))
    assert response.status_code == 302
    nordic.refresh_from_db()
    assert nordic.status == Game.Status.FINISHED
    body = client.get(reverse("game", kwargs={"token": nordic.editor_token})).content.decode()
    assert "Game over" in body
    assert "Winner: Anna" in body
    assert "Record deal" not in body
    assert client.get(url(nordic)).status_code == 302  # no eighth deal


def test_handromme_doubles_the_others_penalties_with_the_option(client):
    game = GameFactory(
        variant_id="romme",
        players=["Anna", "Ben", "Cleo"],
        options={
            "opening_minimum": 51,
            "ace_low_is_one": False,
            "handromme_doubles": True,
            "joker_in_each_hand": True,
        },
    )
    own(client, game)
    client.post(url(game), penalty_form_data(game, 2, {0: 12, 1: 30}, handromme=True))
    deal = Deal.objects.get()
    assert deal.handromme
    assert scores(game) == [24, 60, 0]


def test_handromme_without_the_option_counts_single(client, romme):
    body = client.get(url(romme)).content.decode()
    assert "Handrommé" in body
    client.post(url(romme), penalty_form_data(romme, 2, {0: 12, 1: 30}, handromme=True))
    assert scores(romme) == [12, 30, 0]


def test_handromme_needs_who_went_out(client, romme):
    data = penalty_form_data(romme, "nobody", {0: 12, 1: 30, 2: 3}, handromme=True)
    body = client.post(url(romme), data).content.decode()
    assert "Handrommé needs the player who went out." in body
    assert not Deal.objects.exists()


def test_romme_points_need_not_be_multiples_of_five(client, romme):
    client.post(url(romme), penalty_form_data(romme, 0, {1: 13, 2: 7}))
    assert scores(romme) == [0, 13, 7]


def test_spanish_deal_three_shows_its_contract_cards_and_more_decks(client):
    game = GameFactory(variant_id="contract-spanish", players=5, first_dealer=0)
    own(client, game)
    for _ in range(2):
        record_penalty(game, 0, {1: 5, 2: 5, 3: 5, 4: 5})
    body = client.get(reverse("game", kwargs={"token": game.editor_token})).content.decode()
    assert "Deal 3 of 7" in body
    assert "2 runs" in body
    assert "8 each" in body
    assert "3 decks and 6 jokers" in body
    # counter-clockwise: deal 1 seat 0, deal 2 seat 4, deal 3 seat 3 deals, seat 2 starts
    assert "<dt>Deals</dt><dd>Player 4</dd>" in body
    assert "<dt>Starts</dt><dd>Player 3</dd>" in body
