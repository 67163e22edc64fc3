"""Two phones changing one evening at the same moment, and one phone sending a form twice:
real threads and transactions (PostgreSQL when DATABASE_URL is set, else SQLite)."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorepad.models import Evening, EveningBalance, EveningGame, Event
from tests.factories import ACTOR, GameFactory, record_classic
from tests.scorepad.test_concurrency import run_together

pytestmark = pytest.mark.django_db(transaction=True)


def evening_with_a_game():
    game = GameFactory(variant_id="classic", players=["Anna", "Ben"])
    record_classic(game, 0)
    game.refresh_from_db()
    game.end(version=game.version, once=None, actor=ACTOR)
    evening = Evening.objects.create(stake="0.10")
    EveningGame.objects.create(evening=evening, game=game, stake="0.10", position=1)
    return evening, game


def url(name, evening):
    with translation.override("en"):
        return reverse(name, kwargs={"token": evening.editor_token})


def test_two_phones_carrying_the_same_evening_at_once_start_one_next_evening():
    evening, _game = evening_with_a_game()
    forms = [{"version": evening.version, "once": f"carry-{i}-{'x' * 16}"} for i in range(2)]
    statuses = run_together(
        2, lambda i: Client().post(url("evening-carry", evening), forms[i]).status_code
    )
    assert sorted(statuses) == [302, 409]
    assert Evening.objects.count() == 2
    evening.refresh_from_db()
    assert evening.next_evening is not None
    assert EveningBalance.objects.filter(evening=evening.next_evening).count() == 2


def test_one_evening_form_sent_twice_at_once_changes_it_once():
    evening, game = evening_with_a_game()
    data = {"version": evening.version, "once": "y" * 22, "game": game.pk}
    statuses = run_together(
        2, lambda i: Client().post(url("evening-remove", evening), data).status_code
    )
    assert statuses == [302, 302]
    assert evening.games.count() == 0
    assert Event.objects.filter(kind="removed").count() == 1


def test_phones_adding_games_at_once_add_each_once_and_lose_none():
    evening, _game = evening_with_a_game()
    games = [GameFactory(variant_id="romme", players=["Anna", "Ben"]) for _ in range(3)]

    def keep_trying(i):
        client = Client()
        for _attempt in range(20):
            fresh = Evening.objects.get(pk=evening.pk)
            data = {
                "version": fresh.version,
                "once": f"add-{i}-{_attempt}-{'z' * 12}",
                "game": games[i].editor_token,
                "stake": "0.01",
            }
            if client.post(url("evening-add", evening), data).status_code == 302:
                return True
        return False

    assert run_together(3, keep_trying) == [True, True, True]
    assert sorted(evening.games.values_list("position", flat=True)) == [1, 2, 3, 4]
    assert Event.objects.filter(kind="added").count() == 3
