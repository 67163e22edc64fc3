"""Writes a phone kept while it had no connection, sent from its outbox (static/js/table.js)
with ``X-Scorepad-Outbox``: a short JSON answer, once per one-time token, and a conflict
(never an overwrite) when another phone moved the sheet on meanwhile."""

import pytest
from django.test import Client
from django.urls import reverse

from scorepad.forms.change import once_token
from scorepad.models import Game
from tests.factories import GameFactory, classic_form_data, record_classic
from tests.scorepad.test_concurrency import run_together

OUTBOX = {"HTTP_X_SCOREPAD_OUTBOX": "1"}


def url(game, name, **kwargs):
    return reverse(name, kwargs={"token": game.editor_token, **kwargs})


def send(client, game, name, data, **kwargs):
    answer = client.post(url(game, name, **kwargs), data, **OUTBOX)
    assert answer["Content-Type"] == "application/json"
    return answer.status_code, answer.json()


def fresh(game) -> Game:
    return Game.objects.get(pk=game.pk)


def test_a_kept_deal_is_recorded_and_its_replay_changes_nothing(client, game):
    data = classic_form_data(game, 2, jokers=1)
    assert send(client, game, "deal-new", data)[0] == 200
    status, answer = send(client, game, "deal-new", data)  # the answer was lost: sent again
    assert (status, answer["outcome"]) == (200, "already")
    assert fresh(game).deals.count() == 1
    assert answer["version"] == fresh(game).version == game.version + 1


def test_the_answer_names_the_outcome_and_the_new_version(client, game):
    status, answer = send(client, game, "deal-new", classic_form_data(game, 0))
    assert status == 200
    assert answer == {
        "outcome": "saved",
        "version": game.version + 1,
        "message": "Deal 1 recorded.",
    }


def test_kept_deals_made_one_after_another_chain_their_versions(client, game):
    first = classic_form_data(game, 0)
    second = classic_form_data(game, 1)
    second["version"] = str(game.version + 1)  # made on top of the first, on the same phone
    assert send(client, game, "deal-new", first)[1]["outcome"] == "saved"
    assert send(client, game, "deal-new", second)[1]["outcome"] == "saved"
    assert [d.went_out for d in fresh(game).deals.all()] == [0, 1]


def test_a_kept_deal_meets_another_phones_deal_as_a_conflict(game):
    phone_a, phone_b = Client(), Client()
    kept = classic_form_data(game, 2)  # made on phone A without a connection
    assert phone_b.post(url(game, "deal-new"), classic_form_data(game, 1)).status_code == 302
    status, answer = send(phone_a, game, "deal-new", kept)
    assert (status, answer["outcome"]) == (409, "conflict")
    assert "another phone saved a change" in answer["message"]
    assert [d.went_out for d in fresh(game).deals.all()] == [1]


def test_a_kept_correction_never_overwrites_a_newer_one(game):
    record_classic(game, 0)
    phone_a, phone_b = Client(), Client()
    game.refresh_from_db()
    mine = classic_form_data(game, 2)  # phone A's correction, kept
    theirs = classic_form_data(game, 3)
    assert phone_b.post(url(game, "deal-edit", number=1), theirs).status_code == 302
    status, answer = send(phone_a, game, "deal-edit", mine, number=1)
    assert (status, answer["outcome"]) == (409, "conflict")
    assert fresh(game).deals.get().went_out == 3


def test_a_kept_correction_of_a_deal_deleted_meanwhile_is_gone(client, game):
    record_classic(game, 0)
    game.refresh_from_db()
    mine = classic_form_data(game, 2)
    delete = {"version": game.version, "once": once_token()}
    assert Client().post(url(game, "deal-delete", number=1), delete).status_code == 302
    status, answer = send(client, game, "deal-edit", mine, number=1)
    assert (status, answer["outcome"]) == (410, "gone")
    assert "no longer exists" in answer["message"]
    assert fresh(game).deals.count() == 0


def test_a_kept_form_with_a_mistake_is_refused_with_its_errors(client, game):
    data = classic_form_data(game, 0, jokers=9)
    status, answer = send(client, game, "deal-new", data)
    assert (status, answer["outcome"]) == (422, "invalid")
    assert answer["errors"]
    assert answer["message"]
    assert fresh(game).deals.count() == 0


@pytest.mark.parametrize("name", ["deal-undo", "deal-delete"])
def test_a_kept_undo_or_delete_happens_once(client, game, name):
    record_classic(game, 0)
    record_classic(game, 1)
    game.refresh_from_db()
    data = {"version": game.version, "once": once_token()}
    kwargs = {"number": 2} if name == "deal-delete" else {}
    assert send(client, game, name, data, **kwargs)[1]["outcome"] == "saved"
    assert send(client, game, name, data, **kwargs)[1]["outcome"] == "already"
    assert fresh(game).deals.count() == 1


def test_a_replayed_undo_of_the_only_deal_is_already_done(client, game):
    record_classic(game, 0)
    game.refresh_from_db()
    data = {"version": game.version, "once": once_token()}
    assert send(client, game, "deal-undo", data)[1]["outcome"] == "saved"
    assert send(client, game, "deal-undo", data)[1]["outcome"] == "already"


def test_a_kept_deal_for_a_game_that_ended_meanwhile_is_gone(client, game):
    record_classic(game, 0)
    game.refresh_from_db()
    kept = classic_form_data(game, 1)
    Client().post(url(game, "game-end"), {"version": game.version, "once": once_token()})
    status, answer = send(client, game, "deal-new", kept)
    assert (status, answer["outcome"]) == (410, "gone")
    assert fresh(game).deals.count() == 1


def test_the_outbox_leaves_no_message_for_the_next_page(client, game):
    send(client, game, "deal-new", classic_form_data(game, 0))
    page = client.get(url(game, "game")).content.decode()
    assert "Deal 1 recorded." not in page


def test_a_viewer_link_cannot_send_from_an_outbox(client, game):
    answer = client.post(
        reverse("deal-new", kwargs={"token": game.viewer_token}),
        classic_form_data(game, 0),
        **OUTBOX,
    )
    assert answer.status_code == 403
    assert fresh(game).deals.count() == 0


def test_a_replaced_link_is_not_found(client, game):
    data = classic_form_data(game, 0)
    old = game.editor_token
    game.replace_link("editor", version=game.version, once=once_token(), actor=_actor())
    answer = client.post(reverse("deal-new", kwargs={"token": old}), data, **OUTBOX)
    assert answer.status_code == 404
    assert fresh(game).deals.count() == 0


def _actor():
    from scorepad.models import Actor

    return Actor(role="creator", device="test")


@pytest.mark.django_db(transaction=True)
def test_two_tabs_sending_the_same_kept_deal_at_once_record_it_once():
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    data = classic_form_data(game, 0, jokers=1)

    def sending(_i):
        answer = Client().post(url(game, "deal-new"), data, **OUTBOX)
        return answer.status_code, answer.json()["outcome"]

    results = run_together(4, sending)
    assert sorted(outcome for _status, outcome in results).count("saved") == 1
    assert {outcome for _status, outcome in results} <= {"saved", "already"}
    assert fresh(game).deals.count() == 1
