"""Undo is safe: the message of an undo offers Redo, and the history brings back a deal
that was undone or deleted, scored again by the engine exactly as it was."""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from scorepad.management.commands.backup import export_database, import_database
from scorepad.models import Circle, Deal, Event, Game
from tests.factories import GameFactory, record_classic, record_penalty
from tests.scorepad.conftest import hidden, own

pytestmark = pytest.mark.django_db


def url(game, name, **kwargs):
    return reverse(name, kwargs={"token": game.editor_token, **kwargs})


def rows(game):
    return [
        (d.number, d.went_out, {s.seat.position: s.points for s in d.scores.all()})
        for d in Deal.objects.filter(game=game).prefetch_related("scores__seat").order_by("number")
    ]


def totals(game):
    return [s.total for s in game.seats.order_by("position")]


@pytest.fixture
def three_deals(game):
    record_classic(game, 0, jokers=1)
    record_classic(game, 1, mode="hand", hand="2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC JK 2H 3H")
    record_classic(game, 2, wild_twos=2)
    game.refresh_from_db()
    return game


def undo(phone, game):
    sheet = phone.get(reverse("game", kwargs={"token": game.editor_token})).content.decode()
    form = re.search(r'action="[^"]*/deals/undo/".*?</form>', sheet, re.S).group(0)
    return phone.post(
        url(game, "deal-undo"),
        {"version": hidden(form, "version"), "once": hidden(form, "once")},
        follow=True,
    )


def redo_form(page: str) -> dict[str, str]:
    form = re.search(r'<form method="post" action="[^"]*/deals/redo/".*?</form>', page, re.S)
    assert form, "no Redo beside the message"
    return {"version": hidden(form.group(0), "version"), "once": hidden(form.group(0), "once")}


def test_the_message_of_an_undo_offers_redo_and_redo_brings_the_deal_back(creator, three_deals):
    game = three_deals
    before, totals_before = rows(game), totals(game)
    page = undo(creator, game).content.decode()
    assert "Deal 3 undone." in page
    assert len(rows(game)) == 2
    answer = creator.post(url(game, "deal-redo"), redo_form(page), follow=True)
    assert "Deal 3 brought back." in answer.content.decode()
    assert rows(game) == before
    assert totals(game) == totals_before
    event = Event.objects.filter(game=game).first()
    assert (event.kind, event.deal_number) == ("restored", 3)
    assert "Redo" not in re.sub(r"<form[^>]*/deals/undo/.*?</form>", "", answer.content.decode())


def test_redo_twice_brings_it_back_once(creator, three_deals):
    page = undo(creator, three_deals).content.decode()
    form = redo_form(page)
    creator.post(url(three_deals, "deal-redo"), form)
    again = creator.post(url(three_deals, "deal-redo"), form, follow=True)
    assert "That was already done; it happened once." in again.content.decode()
    assert len(rows(three_deals)) == 3


def test_redo_after_another_phone_changed_the_sheet_changes_nothing(creator, three_deals):
    game = three_deals
    page = undo(creator, game).content.decode()
    game.refresh_from_db()
    record_classic(game, 3)  # another phone records a deal meanwhile
    answer = creator.post(url(game, "deal-redo"), redo_form(page))
    assert answer.status_code == 409
    assert "The sheet changed while you were entering this" in answer.content.decode()
    assert [r[0] for r in rows(game)] == [1, 2, 3]
    assert rows(game)[2][1] == 3


def test_a_viewer_sees_no_redo(three_deals):
    page = undo(own(Client(), three_deals), three_deals).content.decode()
    viewer = Client().get(reverse("game", kwargs={"token": three_deals.viewer_token}))
    assert "/deals/redo/" in page
    assert "/deals/redo/" not in viewer.content.decode()


def test_the_history_brings_back_a_deleted_deal_at_its_number(creator, three_deals):
    game = three_deals
    before, totals_before = rows(game), totals(game)
    body = creator.get(url(game, "deal-delete", number=2)).content.decode()
    creator.post(
        url(game, "deal-delete", number=2),
        {"version": hidden(body, "version"), "once": hidden(body, "once")},
    )
    assert [r[1] for r in rows(game)] == [0, 2]
    history = creator.get(url(game, "game-history")).content.decode()
    form = re.search(r'<form method="post" action="[^"]*/deals/restore/".*?</form>', history, re.S)
    assert "Bring back deal 2" in form.group(0)
    data = {n: hidden(form.group(0), n) for n in ("event", "version", "once")}
    answer = creator.post(url(game, "deal-restore"), data, follow=True)
    assert "Deal 2 brought back." in answer.content.decode()
    assert rows(game) == before
    assert totals(game) == totals_before
    history = creator.get(url(game, "game-history")).content.decode()
    assert "Bring back deal" not in history
    assert "Deal brought back" in history


def test_a_deal_brought_back_once_cannot_come_back_twice(creator, three_deals):
    game = three_deals
    page = undo(creator, game).content.decode()
    creator.post(url(game, "deal-redo"), redo_form(page))
    undone = Event.objects.get(game=game, kind="undone")
    game.refresh_from_db()
    answer = bring_back(creator, game, undone)
    assert "Deal 3 was brought back already." in answer.content.decode()
    assert len(rows(game)) == 3


@pytest.mark.parametrize("event", ["", "x", "99999999", "²"])
def test_a_made_up_event_brings_nothing_back(creator, three_deals, event):
    answer = creator.post(
        url(three_deals, "deal-restore"),
        {"event": event, "version": three_deals.version, "once": "made-up-0123456789abc"},
        follow=True,
    )
    assert answer.status_code == 200
    assert "There is no deal to bring back." in answer.content.decode()
    assert len(rows(three_deals)) == 3


def test_a_penalty_deal_of_cards_comes_back_as_it_was_scored(db):
    game = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"])
    phone = own(Client(), game)
    record_penalty(game, 0, {}, cards_1="KH QH JK", cards_2="5S 5D", handromme="on")
    game.refresh_from_db()
    before = rows(game)
    page = undo(phone, game).content.decode()
    phone.post(url(game, "deal-redo"), redo_form(page))
    assert rows(game) == before
    assert Deal.objects.get(game=game).handromme is True


def test_a_game_that_ended_brings_nothing_back(creator, three_deals):
    game = three_deals
    page = undo(creator, game).content.decode()
    form = redo_form(page)
    game.refresh_from_db()
    from tests.factories import ACTOR

    game.end(version=game.version, once="end-0123456789abcdefgh", actor=ACTOR)
    answer = creator.post(url(game, "deal-redo"), {**form, "version": game.version}, follow=True)
    assert "The game has ended" in answer.content.decode()
    assert len(rows(game)) == 2


def test_redo_kept_on_a_phone_without_connection_is_answered_for_its_outbox(creator, three_deals):
    page = undo(creator, three_deals).content.decode()
    form = redo_form(page)
    answer = creator.post(url(three_deals, "deal-redo"), form, HTTP_X_SCOREPAD_OUTBOX="1")
    assert answer.status_code == 200
    assert answer.json()["outcome"] == "saved"
    again = creator.post(url(three_deals, "deal-redo"), form, HTTP_X_SCOREPAD_OUTBOX="1")
    assert again.json()["outcome"] == "already"
    assert len(rows(three_deals)) == 3


def bring_back(creator, game, event):
    """Post Bring back for a history entry, with the game's current version."""
    return creator.post(
        url(game, "deal-restore"),
        {"event": event.pk, "version": game.version, "once": "restore-0123456789abcd"},
        follow=True,
    )


def restore_from_a_backup(creator, game):
    """Back up every game, empty the database and restore: the history gets new ids."""
    document, broken = export_database()
    assert not broken
    document = json.loads(json.dumps(document))
    # Entries made after the restore would otherwise reuse the old ids by chance.
    GameFactory(variant_id="classic", players=2).events.create(kind="created", actor="x")
    Game.objects.all().delete()
    Circle.objects.all().delete()
    import_database(document)
    game = Game.objects.get(editor_token=game.editor_token)
    return game, creator.get(url(game, "game-history")).content.decode()


def test_a_deal_brought_back_before_a_restore_is_not_offered_again_after_it(creator, three_deals):
    game = three_deals
    page = undo(creator, game).content.decode()
    creator.post(url(game, "deal-redo"), redo_form(page))
    body = creator.get(url(game, "deal-delete", number=1)).content.decode()
    creator.post(
        url(game, "deal-delete", number=1),
        {"version": hidden(body, "version"), "once": hidden(body, "once")},
    )
    game, history = restore_from_a_backup(creator, game)
    # Deal 3 came back before the backup; deal 1 was deleted and still waits.
    assert history.count("/deals/restore/") == 1
    assert "Bring back deal 1" in history
    undone = Event.objects.get(game=game, kind="undone")
    answer = bring_back(creator, game, undone)
    assert "Deal 3 was brought back already." in answer.content.decode()
    assert len(rows(game)) == 2
    form = re.search(r'<form method="post" action="[^"]*/deals/restore/".*?</form>', history, re.S)
    data = {n: hidden(form.group(0), n) for n in ("event", "version", "once")}
    answer = creator.post(url(game, "deal-restore"), data, follow=True)
    assert "Deal 1 brought back." in answer.content.decode()
    assert len(rows(game)) == 3


def test_redo_after_undoing_the_last_deal_of_an_ended_game_ends_it_again(creator, three_deals):
    """A classic game ended by hand: undo its last deal (the game goes on again), then Redo:
    the game is as it was, ended (it once stayed open and had to be ended again)."""
    from tests.factories import ACTOR

    game = three_deals
    game.end(version=game.version, once=None, actor=ACTOR)
    page = undo(creator, game).content.decode()
    game.refresh_from_db()
    assert not game.is_finished
    answer = creator.post(url(game, "deal-redo"), redo_form(page), follow=True)
    assert "Deal 3 brought back." in answer.content.decode()
    game.refresh_from_db()
    assert game.is_finished
    assert "Final standings" in answer.content.decode()


def test_a_deal_undone_long_ago_comes_back_into_a_game_that_goes_on(creator, three_deals):
    """Only a Redo right after the undo ends the game again: brought back from the history
    after another change, the deal joins the game as it goes on now."""
    from tests.factories import ACTOR

    game = three_deals
    game.end(version=game.version, once=None, actor=ACTOR)
    undo(creator, game)
    game.refresh_from_db()
    game.set_target(None, 10, version=game.version, once=None, actor=ACTOR)
    event = Event.objects.get(game=game, kind="undone")
    history = creator.get(url(game, "game-history")).content.decode()
    form = re.search(rf'<form[^>]*/deals/restore/".*?value="{event.pk}".*?</form>', history, re.S)
    assert form, "no bring back in the history"
    data = {"version": hidden(form.group(0), "version"), "once": hidden(form.group(0), "once")}
    creator.post(url(game, "deal-restore"), {**data, "event": event.pk})
    game.refresh_from_db()
    assert len(rows(game)) == 3
    assert not game.is_finished
