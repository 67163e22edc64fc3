"""Undoing or deleting the deal that ended a contract game opens the game again, and the
table can play that deal once more (the walk of issue 21 found the game left ended: the
count of deals was read from the page's prefetched list, taken before the deal went)."""

import pytest
from django.test import Client

from rules.engine.variants import get_variant
from scorepad.models import Game
from tests.factories import GameFactory
from tests.scorepad.conftest import own
from tests.scorepad.test_round_trip import deal, last_event, write

pytestmark = pytest.mark.django_db


def a_game_played_to_its_end(deals: int) -> tuple[Game, Client]:
    schedule = [s.as_dict() for s in get_variant("contract-nordic").schedule[:deals]]
    game = GameFactory(
        variant_id="contract-nordic", players=["Anna", "Ben", "Cleo"], schedule=schedule
    )
    phone = own(Client(), game)
    for _ in range(deals):
        deal(phone, game, 0, {1: 10, 2: 5})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game, phone


@pytest.mark.parametrize("deals", [1, 7])
def test_undoing_the_last_deal_opens_the_game_again(deals):
    game, phone = a_game_played_to_its_end(deals)
    write(phone, game, "deal-undo", {})
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS
    assert game.deals.count() == deals - 1
    deal(phone, game, 1, {0: 20, 2: 5})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert [s.total for s in game.seats.order_by("position")] == [
        20,
        10 * (deals - 1),
        5 * deals,
    ]


def test_deleting_a_deal_of_an_ended_game_opens_it_and_redo_ends_it_again():
    game, phone = a_game_played_to_its_end(3)
    write(phone, game, "deal-delete", {}, number=2)
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS
    write(phone, game, "deal-restore", {"event": last_event(game, "deleted").pk})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.deals.count() == 3


@pytest.mark.parametrize("variant", ["classic", "romme"])
def test_undoing_a_deal_of_a_game_ended_by_hand_opens_it_again(variant):
    game = GameFactory(variant_id=variant, players=["Anna", "Ben", "Cleo"])
    phone = own(Client(), game)
    deal(phone, game, 0, None if variant == "classic" else {1: 10, 2: 5})
    deal(phone, game, 1, None if variant == "classic" else {0: 10, 2: 5})
    write(phone, game, "game-end", {})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    write(phone, game, "deal-undo", {})
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS
    assert game.deals.count() == 1
