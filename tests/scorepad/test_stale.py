"""Never lose or double a deal: one-time tokens and the optimistic version check."""

import pytest
from django.urls import reverse

from scorepad.models import Deal, DealScore
from tests.factories import classic_form_data, record_classic
from tests.scorepad.conftest import hidden

pytestmark = pytest.mark.django_db


def new_deal_url(game):
    return reverse("deal-new", kwargs={"token": game.editor_token})


def test_submitting_the_same_deal_form_twice_records_it_once(creator, game):
    body = creator.get(new_deal_url(game)).content.decode()
    data = classic_form_data(game, 0, jokers=1)
    data.update(version=hidden(body, "version"), once=hidden(body, "once"))
    first = creator.post(new_deal_url(game), data)
    second = creator.post(new_deal_url(game), data)  # double tap, or the back button
    assert first.status_code == second.status_code == 302
    assert second["Location"] == first["Location"]
    assert Deal.objects.count() == 1
    assert DealScore.objects.count() == 4
    page = creator.get(first["Location"]).content.decode()
    assert "That was already saved; it is recorded once." in page


def test_a_deal_saved_on_a_sheet_that_changed_meanwhile_is_refused_with_the_fresh_sheet(
    creator, game
):
    body = creator.get(new_deal_url(game)).content.decode()
    stale = classic_form_data(game, 1, wild_twos=2)
    stale.update(version=hidden(body, "version"), once=hidden(body, "once"))
    record_classic(game, 0, jokers=1)  # another phone saves deal 1 first
    response = creator.post(new_deal_url(game), stale)
    page = response.content.decode()
    assert response.status_code == 409
    # The deal recorded meanwhile is shown, and the player asked (tests/scorepad/test_conflicts.py)
    assert "Another phone recorded deal 1 while you were entering this" in page
    assert "+9" in page  # the fresh sheet, with the other phone's deal
    assert Deal.objects.count() == 1
    # what was entered is kept, with the fresh version: saving again now records deal 2
    assert hidden(page, "version") == "2"
    assert (
        'name="wild_twos" value="2"' in page.replace(' id="id_wild_twos_2"', "")
        or "checked" in page
    )
    resend = {**stale, "version": "2"}
    assert creator.post(new_deal_url(game), resend).status_code == 302
    assert list(Deal.objects.values_list("number", "went_out")) == [(1, 0), (2, 1)]


def test_an_htmx_save_on_a_stale_sheet_still_swaps_the_fresh_sheet_in(creator, game):
    body = creator.get(new_deal_url(game)).content.decode()
    stale = classic_form_data(game, 1)
    stale.update(version=hidden(body, "version"), once=hidden(body, "once"))
    record_classic(game, 0)
    response = creator.post(
        new_deal_url(game), stale, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="game"
    )
    assert response.status_code == 200
    assert "Another phone recorded deal 1 while you were entering this" in response.content.decode()


def test_editing_a_deal_that_another_phone_deleted_says_so(creator, game):
    record_classic(game, 0)
    url = reverse("deal-edit", kwargs={"token": game.editor_token, "number": 1})
    body = creator.get(url).content.decode()
    data = classic_form_data(game, 1)
    data.update(version=hidden(body, "version"), once=hidden(body, "once"))
    game.refresh_from_db()
    from tests.factories import ACTOR

    game.undo_last_deal(version=game.version, once="z" * 22, actor=ACTOR)
    response = creator.post(url, data)
    assert response.status_code == 302
    assert "Deal 1 no longer exists." in creator.get(response["Location"]).content.decode()
    assert not Deal.objects.exists()


def test_a_form_with_errors_saves_nothing_at_all(creator, game):
    data = classic_form_data(game, 0, mode="hand", hand="AS KS")
    creator.post(new_deal_url(game), data)
    game.refresh_from_db()
    assert game.version == 1
    assert not Deal.objects.exists()
    assert not DealScore.objects.exists()


def test_a_deal_form_without_its_hidden_fields_explains_and_saves_nothing(creator, game):
    data = classic_form_data(game, 0)
    del data["version"], data["once"]
    body = creator.post(new_deal_url(game), data).content.decode()
    assert "The form was incomplete" in body
    assert not Deal.objects.exists()


def test_a_share_form_with_a_bad_version_changes_nothing(creator, game):
    token = game.viewer_token
    url = reverse("game-share", kwargs={"token": game.editor_token})
    response = creator.post(url, {"version": "x", "once": "o" * 22, "link": "viewer"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.viewer_token == token
