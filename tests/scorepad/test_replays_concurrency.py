"""One form sent many times at once (a phone on a poor connection, the outbox sending
again): the change is made once, and every other copy is answered "already done", never a
refusal of the form against the state the first copy made (issue 21, item 13: of twenty
identical join posts twelve were answered 422 "already at this table"). The one-time token
is checked first, in the same transaction and lock as the change. Real threads and
transactions (PostgreSQL when DATABASE_URL is set, else SQLite)."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorepad.models import Evening, EveningGame, Event, Game
from tests.factories import ACTOR, GameFactory, record_classic, record_penalty
from tests.scorepad.test_concurrency import run_together

pytestmark = pytest.mark.django_db(transaction=True)

ALREADY = "That was already done; it happened once."
ONCE = "same-form-sent-again-0123456789"


def url(name, token, **kwargs):
    with translation.override("en"):
        return reverse(name, kwargs={"token": token, **kwargs})


def send_together(count, path, data):
    """``count`` phones post the same form at the same moment; the pages they end on."""

    def post(_i):
        response = Client().post(path, data, follow=True)
        return response.status_code, response.content.decode()

    return run_together(count, post)


def assert_once(answers, done: str):
    statuses = [status for status, _ in answers]
    assert statuses == [200] * len(answers), statuses
    said = [(done in page, ALREADY in page) for _, page in answers]
    assert said.count((True, False)) == 1, said
    assert said.count((False, True)) == len(answers) - 1, said


def romme():
    game = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"])
    record_penalty(game, 0, {1: 20, 2: 35})
    game.refresh_from_db()
    return game


SEAT_WRITES = {
    "join": ({"name": "Dana", "start": "zero"}, "Dana joins the table", "joined"),
    "rename": ({"position": 1, "name": "Bert"}, "Ben is now called Bert.", "renamed"),
    "leave": ({"position": 1, "op": "leave"}, "Ben left the table", "left"),
    "target": ({"target_score": "200", "target_deals": ""}, "Target saved", "target"),
}


@pytest.mark.parametrize(("kind", "case"), SEAT_WRITES.items(), ids=SEAT_WRITES.keys())
def test_a_players_page_form_sent_twenty_times_at_once_is_done_once(kind, case):
    fields, done, event = case
    game = romme()
    data = {"form": kind, "version": game.version, "once": ONCE, **fields}
    answers = send_together(20, url("game-players", game.editor_token), data)
    assert_once(answers, done)
    assert Event.objects.filter(game=game, kind=event).count() == 1
    assert Game.objects.get(pk=game.pk).version == game.version + 1
    assert game.seats.count() == (4 if kind == "join" else 3)


def test_a_player_returning_sent_at_once_comes_back_once():
    game = romme()
    game.seat_leaves(1, version=game.version, once="left-first-0123456789", actor=ACTOR)
    game.refresh_from_db()
    data = {"form": "leave", "version": game.version, "once": ONCE, "position": 1, "op": "back"}
    answers = send_together(12, url("game-players", game.editor_token), data)
    assert_once(answers, "Ben is back at the table")


def test_redo_sent_at_once_brings_the_deal_back_once():
    game = romme()
    record_penalty(game, 1, {0: 10, 2: 15})
    game.refresh_from_db()
    game.undo_last_deal(version=game.version, once="undo-first-0123456789", actor=ACTOR)
    game.refresh_from_db()
    data = {"version": game.version, "once": ONCE}
    answers = send_together(12, url("deal-redo", game.editor_token), data)
    assert_once(answers, "Deal 2 brought back.")
    assert game.deals.count() == 2


def test_bringing_back_from_the_history_sent_at_once_brings_it_back_once():
    game = romme()
    record_penalty(game, 1, {0: 10, 2: 15})
    game.refresh_from_db()
    game.delete_deal(1, version=game.version, once="delete-first-0123456789", actor=ACTOR)
    game.refresh_from_db()
    event = Event.objects.get(game=game, kind="deleted")
    data = {"version": game.version, "once": ONCE, "event": event.pk}
    answers = send_together(12, url("deal-restore", game.editor_token), data)
    assert_once(answers, "Deal 1 brought back.")
    assert game.deals.count() == 2


def finished_game(players=("Anna", "Ben")):
    game = GameFactory(variant_id="classic", players=list(players))
    record_classic(game, 0)
    game.refresh_from_db()
    game.end(version=game.version, once=None, actor=ACTOR)
    return game


def test_adding_a_game_to_an_evening_sent_at_once_adds_it_once():
    game = finished_game()
    evening = Evening.objects.create(stake="0.10")
    data = {"version": evening.version, "once": ONCE, "game": game.editor_token, "stake": "0.10"}
    answers = send_together(12, url("evening-add", evening.editor_token), data)
    assert_once(answers, "The game was added to the evening.")
    assert EveningGame.objects.filter(evening=evening).count() == 1


def test_taking_a_game_out_of_an_evening_sent_at_once_takes_it_out_once():
    game = finished_game()
    evening = Evening.objects.create(stake="0.10")
    EveningGame.objects.create(evening=evening, game=game, stake="0.10", position=1)
    data = {"version": evening.version, "once": ONCE, "game": game.pk}
    answers = send_together(12, url("evening-remove", evening.editor_token), data)
    assert_once(answers, "The game was taken out of the evening.")
    assert Event.objects.filter(kind="removed").count() == 1


def test_carrying_an_evening_sent_at_once_carries_it_once():
    game = finished_game()
    evening = Evening.objects.create(stake="0.10")
    EveningGame.objects.create(evening=evening, game=game, stake="0.10", position=1)
    data = {"version": evening.version, "once": ONCE}
    answers = send_together(12, url("evening-carry", evening.editor_token), data)
    assert_once(answers, "The balances were carried")
    assert Evening.objects.count() == 2


@pytest.mark.parametrize(("kind", "case"), SEAT_WRITES.items(), ids=SEAT_WRITES.keys())
def test_a_players_page_form_sent_again_later_is_already_done(kind, case):
    """The same copy sent after the first one was saved: no race needed."""
    fields, done, event = case
    game = romme()
    data = {"form": kind, "version": game.version, "once": ONCE, **fields}
    path = url("game-players", game.editor_token)
    answers = [(r.status_code, r.content.decode()) for r in (
        Client().post(path, data, follow=True) for _ in range(2)
    )]  # fmt: skip
    assert_once(answers, done)
    assert Event.objects.filter(game=game, kind=event).count() == 1


def test_the_deal_that_ends_a_game_sent_at_once_is_recorded_once():
    """The seventh deal of a contract game ends it: a copy is "already done", not "the game
    has ended"."""
    from tests.factories import penalty_form_data

    game = GameFactory(variant_id="contract-spanish", players=2)
    for _ in range(6):
        record_penalty(game, 0, {}, cards_1="8H 9H JK")
    game.refresh_from_db()
    data = penalty_form_data(game, 0, {}, cards_1="8H 9H JK")
    answers = send_together(8, url("deal-new", game.editor_token), data)
    assert [s for s, _ in answers] == [200] * 8
    said = [("Deal 7 recorded." in p, ALREADY in p or "already saved" in p) for _, p in answers]
    assert said.count((True, False)) == 1, said
    assert said.count((False, True)) == 7, said
    assert game.deals.count() == 7
