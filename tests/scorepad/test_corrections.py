import re

import pytest
from django.urls import reverse

from scorepad.models import Deal, Event
from tests.factories import ACTOR, classic_form_data, record_classic
from tests.scorepad.conftest import hidden

pytestmark = pytest.mark.django_db


def url(game, name, **kwargs):
    return reverse(name, kwargs={"token": game.editor_token, **kwargs})


def totals(game):
    return [s.total for s in game.seats.order_by("position")]


@pytest.fixture
def three_deals(game):
    record_classic(game, 0, jokers=1)  # 3 each: Anna +9
    record_classic(game, 1)  # 11 each: Ben +33
    record_classic(game, 2, wild_twos=2)  # 3 each: Cleo +9
    game.refresh_from_db()
    return game


def test_the_edit_form_is_filled_with_what_was_entered(creator, three_deals):
    body = creator.get(url(three_deals, "deal-edit", number=1)).content.decode()
    assert "Correct deal 1" in body
    assert re.search(r'name="went_out" value="0"[^>]* checked', body)
    assert re.search(r'name="jokers" value="1"[^>]* checked', body)
    assert re.search(r'name="mode" value="rows"[^>]* checked', body)


def test_editing_a_deal_recomputes_the_totals_and_keeps_the_change_in_the_history(
    creator, three_deals
):
    game = three_deals
    assert totals(game) == [-5, 27, -5, -17]
    body = creator.get(url(game, "deal-edit", number=2)).content.decode()
    data = classic_form_data(game, 3, jokers=2)  # Dan went out, 5 each
    data.update(version=hidden(body, "version"), once=hidden(body, "once"))
    response = creator.post(url(game, "deal-edit", number=2), data)
    assert response.status_code == 302
    assert totals(game) == [1, -11, 1, 9]
    event = Event.objects.filter(game=game).first()
    assert (event.kind, event.deal_number, event.actor) == ("edited", 2, "creator")
    assert event.details["before"]["scores"] == {"0": -11, "1": 33, "2": -11, "3": -11}
    assert event.details["after"]["scores"] == {"0": -5, "1": -5, "2": -5, "3": 15}


def test_deleting_a_deal_asks_first_then_removes_it_and_renumbers(creator, three_deals):
    game = three_deals
    body = creator.get(url(game, "deal-delete", number=2)).content.decode()
    assert "Delete deal 2?" in body
    response = creator.post(
        url(game, "deal-delete", number=2),
        {"version": hidden(body, "version"), "once": hidden(body, "once")},
    )
    assert response.status_code == 302
    assert list(Deal.objects.filter(game=game).values_list("number", "went_out")) == [
        (1, 0),
        (2, 2),
    ]
    assert totals(game) == [6, -6, 6, -6]
    assert Event.objects.filter(game=game).first().kind == "deleted"


def test_undo_removes_the_last_deal_once(creator, three_deals):
    game = three_deals
    data = {"version": str(game.version), "once": "undo-token-0123456789ab"}
    creator.post(url(game, "deal-undo"), data)
    creator.post(url(game, "deal-undo"), data)  # double tap
    assert game.deals.count() == 2
    assert Event.objects.filter(game=game, kind="undone").count() == 1


def test_the_history_page_shows_who_changed_what_and_when(creator, three_deals):
    game = three_deals
    game.undo_last_deal(version=game.version, once="u" * 22, actor=ACTOR)
    body = creator.get(url(game, "game-history")).content.decode()
    assert "Last deal undone" in body
    assert "deal 3" in body
    assert "Deal recorded" in body
    assert "the phone that started the game" in body
    assert "phone test01" in body


def test_editing_a_deal_that_is_gone_says_so(creator, three_deals):
    assert creator.get(url(three_deals, "deal-edit", number=9)).status_code == 404


def test_the_history_says_who_went_out_before_and_after_an_edit(creator, three_deals):
    game = three_deals
    body = creator.get(url(game, "deal-edit", number=1)).content.decode()
    data = classic_form_data(game, 3, jokers=2)
    data.update(version=hidden(body, "version"), once=hidden(body, "once"))
    creator.post(url(game, "deal-edit", number=1), data)
    page = creator.get(url(game, "game-history")).content.decode()
    assert "Before: Anna went out, payment 3" in page
    assert "After: Dan went out, payment 5" in page


def test_the_edit_form_leads_to_deleting_the_deal(creator, three_deals):
    body = creator.get(url(three_deals, "deal-edit", number=3)).content.decode()
    assert f'href="{url(three_deals, "deal-delete", number=3)}"' in body


def test_deleting_twice_with_the_same_form_deletes_once(creator, three_deals):
    game = three_deals
    body = creator.get(url(game, "deal-delete", number=1)).content.decode()
    data = {"version": hidden(body, "version"), "once": hidden(body, "once")}
    creator.post(url(game, "deal-delete", number=1), data)
    response = creator.post(url(game, "deal-delete", number=1), data)
    assert game.deals.count() == 2
    assert (
        "That was already done; it happened once."
        in creator.get(response["Location"]).content.decode()
    )
