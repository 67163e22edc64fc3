"""The evening's choices at the table (issue 23, item 11): the only game that can be added
is ticked, and balances are not offered to carry while a game is still running."""

import re

import pytest
from django.test import Client

from scorepad.models import Evening
from tests.factories import ACTOR, GameFactory, record_classic
from tests.scorepad.conftest import hidden, own
from tests.scorepad.test_evenings import finished_classic, start, url

pytestmark = pytest.mark.django_db


def checked(page: str, name: str) -> list[str]:
    return re.findall(
        rf'<input type="(?:radio|checkbox)" name="{name}"[^>]* value="([^"]+)" checked', page
    )


def test_the_only_game_on_the_phone_is_ticked_for_a_new_evening(client: Client):
    game = finished_classic(["Anna", "Ben"])
    own(client, game)
    page = client.get(url("evening-new")).content.decode()
    assert checked(page, "games") == [game.editor_token]


def test_of_two_games_none_is_ticked_for_a_new_evening(client: Client):
    for winner in (0, 1):
        own(client, finished_classic(["Anna", "Ben"], winner=winner))
    page = client.get(url("evening-new")).content.decode()
    assert checked(page, "games") == []


def test_the_only_game_that_can_be_added_is_chosen(client):
    first, second = finished_classic(["Anna", "Ben"]), finished_classic(["Anna", "Ben"], 1)
    own(client, first)
    start(client, [first])
    own(client, second)
    evening = Evening.objects.get()
    page = client.get(url("evening", evening.editor_token)).content.decode()
    assert checked(page, "game") == [second.editor_token]


def test_carrying_is_not_offered_while_a_game_runs_and_the_page_says_why(client):
    done = finished_classic(["Anna", "Ben"])
    running = GameFactory(variant_id="classic", players=["Anna", "Ben"])
    record_classic(running, 0)
    for game in (done, running):
        own(client, game)
    start(client, [done, running])
    page = client.get(url("evening", Evening.objects.get().editor_token)).content.decode()
    assert "Carry the balances to the next evening" not in page
    assert "End the games in progress first" in page
    running.refresh_from_db()
    running.end(version=running.version, once=None, actor=ACTOR)
    page = client.get(url("evening", Evening.objects.get().editor_token)).content.decode()
    assert "Carry the balances to the next evening" in page
    assert hidden(page, "once")
