import pytest
from django.urls import reverse

from scorepad.models import Deal, DealScore
from tests.factories import GameFactory, classic_form_data
from tests.scorepad.conftest import hidden, own

pytestmark = pytest.mark.django_db

# Worked example of docs/rules.md#classic-worked-examples: A♦ JK 3♦ is a run; 4+4+4+3 is laid, K♥ discarded; payment 3.
WORKED_HAND = "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH JK"


def url(game, name="deal-new", **kwargs):
    return reverse(name, kwargs={"token": game.editor_token, **kwargs})


def scores(game, number=1):
    deal = Deal.objects.get(game=game, number=number)
    return [s.points for s in DealScore.objects.filter(deal=deal).order_by("seat__position")]


def test_the_form_offers_who_went_out_the_rows_and_the_card_grid(creator, game):
    body = creator.get(url(game)).content.decode()
    assert "Record deal 1" in body
    for name in ("Anna", "Ben", "Cleo", "Dan"):
        assert f"<span>{name}</span>" in body
    assert "Nobody: abandoned deal, no score" in body
    assert 'name="wild_twos"' in body
    assert 'name="jokers"' in body
    assert 'aria-label="queen of hearts"' in body
    assert 'data-card="QH"' in body


def test_the_card_grid_speaks_the_page_language_with_the_rules_pages_words(creator, game):
    from rules.engine.cards import Card
    from rules.pages.words import card_name

    german = url(game).replace("/en/", "/de/", 1)
    body = creator.get(german).content.decode()
    assert 'aria-label="Herz-Dame"' in body
    assert 'data-card="QH"' in body
    assert f'aria-label="{card_name(Card(1, "S"), "de")}"' in body  # Pik-Ass


def test_the_sheets_example_one_joker_and_one_wild_two_pays_four_each(creator, game):
    data = classic_form_data(game, 0, wild_twos=1, jokers=1)
    response = creator.post(url(game), data)
    assert response.status_code == 302
    assert response["Location"] == reverse("game", kwargs={"token": game.editor_token})
    assert scores(game) == [12, -4, -4, -4]
    deal = Deal.objects.get(game=game)
    assert deal.payment == 4
    assert deal.went_out == 0
    assert deal.entry == {
        "mode": "rows",
        "wild_twos": 1,
        "jokers": 1,
        "first_turn": None,
        "one_suit": False,
    }
    assert [r["row"] for r in deal.payment_rows] == ["going_out", "wild_twos", "jokers"]


def test_no_wild_card_pays_eleven(creator, game):
    creator.post(url(game), classic_form_data(game, 1))
    assert scores(game) == [-11, 33, -11, -11]


def test_first_turn_and_one_suit_rows_add_up(creator, game):
    creator.post(url(game), classic_form_data(game, 2, first_turn="undrawn", one_suit=True))
    assert scores(game) == [
        -31,
        -31,
        93,
        -31,
    ]  # going out 1, no wild 10, first turn 10, one suit 10


def test_one_suit_with_a_joker_is_refused_in_place(creator, game):
    response = creator.post(url(game), classic_form_data(game, 0, jokers=1, one_suit=True))
    assert response.status_code == 200
    assert "a hand with a joker is never all one suit" in response.content.decode()
    assert not Deal.objects.exists()


def test_the_payment_computed_from_the_winners_hand(creator, game):
    data = classic_form_data(game, 3, mode="hand", hand=WORKED_HAND)
    response = creator.post(url(game), data)
    assert response.status_code == 302
    assert scores(game) == [-3, -3, -3, 9]
    deal = Deal.objects.get(game=game)
    assert deal.entry["mode"] == "hand"
    assert deal.entry["discard"] == "KH"
    assert deal.entry["cards"] == WORKED_HAND


def test_a_hand_in_local_rank_letters_is_read(creator, game):
    german = WORKED_HAND.replace("JH", "BH").replace("QH", "DH").replace("JC", "BC")
    german = german.replace("QC", "DC")
    response = creator.post(
        url(game).replace("/en/", "/de/"), classic_form_data(game, 0, mode="hand", hand=german)
    )
    assert response.status_code == 302
    assert Deal.objects.get(game=game).entry["cards"] == WORKED_HAND


def test_a_hand_that_does_not_go_out_is_refused_in_place(creator, game):
    hand = "AS 3S 5S 7S 9S JS KS 2H 4H 6H 8H 10H QH AD 3D 5D"
    response = creator.post(url(game), classic_form_data(game, 0, mode="hand", hand=hand))
    assert "This hand does not go out" in response.content.decode()
    assert not Deal.objects.exists()


def test_a_hand_that_needs_two_identical_twos_in_one_run_is_refused(creator, game):
    # issue 15: without the rule the hand went out with 2♠(=Q♠) 2♠(=K♠) A♠, discarding K♦
    hand = "AS 2S 2S 5S 6S 7S 4H 5H 6H 7D 8D 9D 9C 10C JC KD"
    response = creator.post(url(game), classic_form_data(game, 2, mode="hand", hand=hand))
    assert "This hand does not go out" in response.content.decode()
    assert not Deal.objects.exists()


def test_a_hand_that_keeps_its_identical_twos_apart_is_recorded(creator, game):
    hand = "AS 2S 2S 5S 6S 7S 4H 5H 6H 7D 8D 9D 9C 10C JC 8H"
    response = creator.post(url(game), classic_form_data(game, 2, mode="hand", hand=hand))
    assert response.status_code == 302
    assert scores(game) == [-3, -3, 9, -3]
    deal = Deal.objects.get(game=game)
    assert deal.entry["discard"] == "AS"
    assert all(sum(p["card"] == "2S" for p in meld) <= 1 for meld in deal.entry["melds"])


def test_an_unreadable_card_is_named(creator, game):
    response = creator.post(url(game), classic_form_data(game, 0, mode="hand", hand="AS ZZ 3S"))
    assert "Anna: “ZZ” is not a card." in response.content.decode()
    assert not Deal.objects.exists()


def test_more_copies_than_the_games_decks_hold_are_refused(creator, game):
    hand = "AS AS AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS KS"
    response = creator.post(url(game), classic_form_data(game, 0, mode="hand", hand=hand))
    assert "but 2 decks hold only 2" in response.content.decode()
    assert not Deal.objects.exists()


def test_an_abandoned_deal_scores_nothing_but_the_dealer_moves_on(creator, game):
    creator.post(url(game), classic_form_data(game, "abandoned"))
    deal = Deal.objects.get(game=game)
    assert deal.status == "abandoned"
    assert scores(game) == []
    body = creator.get(reverse("game", kwargs={"token": game.editor_token})).content.decode()
    assert "Deal 2" in body
    game.refresh_from_db()
    assert [s.total for s in game.seats.order_by("position")] == [0, 0, 0, 0]


def test_who_went_out_is_required(creator, game):
    response = creator.post(url(game), classic_form_data(game, None))
    assert "Tap who went out." in response.content.decode()
    assert not Deal.objects.exists()


def test_the_ledger_is_shown_before_saving_and_nothing_is_saved(creator, game):
    data = {**classic_form_data(game, 0, wild_twos=1, jokers=1), "preview": "1"}
    body = creator.post(url(game), data).content.decode()
    assert "Every other player pays Anna 4." in body
    assert "+12" in body
    assert "−4" in body
    assert not Deal.objects.exists()


def test_the_live_preview_answers_a_get_with_the_preview_partial_only(creator, game):
    data = classic_form_data(game, 1, jokers=2)
    response = creator.get(url(game), data, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="preview")
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="preview"')
    assert "Every other player pays Ben 5." in body
    assert 'hx-get="' in body
    assert 'hx-include="closest form"' in body
    assert not Deal.objects.exists()


def test_in_the_jokers_only_game_no_two_is_counted(client):
    game = GameFactory(players=["Anna", "Ben"], options={"twos_wild": False})
    own(client, game)
    body = client.get(url(game)).content.decode()
    assert 'name="wild_twos"' not in body
    client.post(url(game), classic_form_data(game, 0, jokers=1))
    assert scores(game) == [3, -3]


def test_a_saved_deal_form_carries_the_version_and_a_one_time_token(creator, game):
    body = creator.get(url(game)).content.decode()
    assert hidden(body, "version") == "1"
    assert len(hidden(body, "once")) >= 20


def test_htmx_gets_the_game_partial_with_the_form_in_place(creator, game):
    response = creator.get(url(game), HTTP_HX_REQUEST="true", HTTP_HX_TARGET="game")
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="game"')
    assert 'id="panel"' in body
    assert "<html" not in body
    assert response["HX-Push-Url"] == url(game)


def test_the_back_button_gets_the_whole_page_when_htmx_restores_the_history(creator, game):
    response = creator.get(
        url(game), HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true"
    )
    assert "<html" in response.content.decode()
