"""The deal and new-game forms speak in one voice: ours, naming the player, in the page's
language, never Django's stock messages; points and cards that disagree are refused; the
preview says what its numbers are made of (issue 14, items 5 and 6)."""

import html
import re

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from scorepad.forms.deals import ClassicDealForm, PenaltyDealForm
from scorepad.forms.games import ImportForm, NewGameForm, SettleForm
from scorepad.forms.messages import stock_messages
from scorepad.forms.seats import SeatList
from scorepad.models import Deal
from tests.factories import GameFactory, classic_form_data, penalty_form_data, record_penalty, seats
from tests.scorepad.conftest import own

pytestmark = pytest.mark.django_db


@pytest.fixture
def nordic(client):
    game = GameFactory(variant_id="contract-nordic", players=["Anna", "Ben", "Cleo", "Dan"])
    own(client, game)
    return game


@pytest.fixture
def romme(client):
    game = GameFactory(
        variant_id="romme",
        players=["Anna", "Ben", "Cleo"],
        options={"handromme_doubles": True, "opening_minimum": 51},
    )
    own(client, game)
    return game


def url(game, name="deal-new", **kwargs):
    return reverse(name, kwargs={"token": game.editor_token, **kwargs})


def stock_fragments() -> list[str]:
    """The fixed start of every stock message of Django's form fields and validators."""
    fragments = set()
    for texts in stock_messages().values():
        for text in texts:
            head = re.split(r"%\(|\{", text)[0].strip()
            if len(head) >= 8:
                fragments.add(head)
    return sorted(fragments)


def test_the_stock_list_holds_the_messages_seen_at_the_table():
    fragments = stock_fragments()
    assert "Ensure this value is greater than or equal to" in fragments
    assert "Select a valid choice." in fragments
    assert "Enter a whole number." in fragments
    assert "This field is required." in fragments


def _forms(game_classic, game_penalty):
    seats_list = SeatList([], {})
    yield NewGameForm({"variant": "x"}, seats=seats_list)
    yield ClassicDealForm({}, game=game_classic, seats=seats(game_classic))
    yield PenaltyDealForm({}, game=game_penalty, seats=seats(game_penalty))
    yield SettleForm({})
    yield ImportForm({})


def test_no_field_of_our_forms_keeps_a_stock_message(nordic):
    classic = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    stock = {text for texts in stock_messages().values() for text in texts}
    for form in _forms(classic, nordic):
        form.is_valid()
        for name, field in form.fields.items():
            with translation.override("en"):
                kept = {code: str(m) for code, m in field.error_messages.items() if str(m) in stock}
            assert kept == {}, (type(form).__name__, name, kept)
            for validator in field.validators:
                code = getattr(validator, "code", "invalid")
                assert code in field.error_messages, (type(form).__name__, name, code)


BAD_DEALS = [
    {"went_out": "9"},
    {"went_out": "0", "points_1": "-5", "points_2": "abc", "points_3": "1e5"},
    {"went_out": "0", "points_1": "5", "points_2": "5", "cards_3": "5H " * 200},
    {"went_out": "0", "version": "x", "once": "y" * 100},
    {"went_out": "nobody", "points_0": "2.5", "points_1": "", "cards_2": "ZZ"},
]


@pytest.mark.parametrize("change", BAD_DEALS)
def test_no_stock_message_reaches_the_penalty_deal_form(client, nordic, change):
    data = penalty_form_data(nordic, "0", {1: 5, 2: 5, 3: 5})
    data.update(change)
    for preview in ("", "1"):
        body = html.unescape(
            client.post(url(nordic), {**data, "preview": preview}).content.decode()
        )
        live = html.unescape(
            client.get(
                url(nordic), data, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="preview"
            ).content.decode()
        )
        for fragment in stock_fragments():
            assert fragment not in body, fragment
            assert fragment not in live, fragment
    assert not Deal.objects.exists()


BAD_CLASSIC = [
    {"went_out": "x"},
    {"mode": "dice", "wild_twos": "99", "jokers": "-1", "first_turn": "sometimes"},
    {"mode": "hand", "hand": "AS " * 200},
]


@pytest.mark.parametrize("change", BAD_CLASSIC)
def test_no_stock_message_reaches_the_classic_deal_form(creator, game, change):
    data = classic_form_data(game, "0")
    data.update(change)
    body = html.unescape(creator.post(url(game), data).content.decode())
    for fragment in stock_fragments():
        assert fragment not in body, fragment
    assert not Deal.objects.exists()


BAD_NEW_GAMES = [
    {"variant": "poker"},
    {"variant": "romme", "opt_romme_opening_minimum": "7"},
    {"variant": "classic", "value_per_point": "abc"},
    {"variant": "classic", "value_per_point": "-3"},
    {"variant": "classic", "name": "N" * 300},
]


@pytest.mark.parametrize("change", BAD_NEW_GAMES)
def test_no_stock_message_reaches_the_new_game_form(client, change):
    data = {"op": "start", "seat": ["n:Anna", "n:Ben"], "first_dealer": "draw", **change}
    body = html.unescape(client.post(reverse("game-new"), data).content.decode())
    assert "errorlist" in body
    for fragment in stock_fragments():
        assert fragment not in body, fragment


def test_the_settle_up_asks_for_the_amount_in_its_own_words(client, game):
    form = SettleForm({"per_point": ""})
    assert not form.is_valid()
    assert form.errors["per_point"] == ["Type the money per point, e.g. 0.10."]


def test_negative_points_name_the_player_in_the_page_language(client, nordic):
    data = penalty_form_data(nordic, 0, {1: -5, 2: 5, 3: 5})
    body = html.unescape(client.post(url(nordic), data).content.decode())
    assert "Ben: penalty points cannot be negative" in body
    with translation.override("de"):
        german = gettext("%(player)s: penalty points cannot be negative") % {"player": "Ben"}
        body = html.unescape(client.post(url(nordic), data).content.decode())
    assert german != "Ben: penalty points cannot be negative"
    assert german in body
    assert not Deal.objects.exists()


def test_points_that_are_no_number_name_the_player(client, nordic):
    data = penalty_form_data(nordic, 0, {1: "ten", 2: 5, 3: 5})
    body = html.unescape(client.post(url(nordic), data).content.decode())
    assert "Ben: points are a whole number." in body


def test_the_score_pad_and_the_checker_read_a_card_in_the_same_words(client, nordic):
    with translation.override("de"):
        said = gettext("“%(token)s” is not a card.") % {"token": "ZZ"}
        checker = client.get(reverse("check"), {"type": "ZZ"}).content.decode()
        data = penalty_form_data(nordic, 0, {1: 5, 2: 5}, cards={3: "5H ZZ"})
        pad = client.post(url(nordic), data).content.decode()
    assert said != "“ZZ” is not a card."
    assert said in html.unescape(checker)
    assert f"Dan: {said}" in html.unescape(pad)


def test_points_and_cards_that_disagree_are_refused_naming_the_player(client, nordic):
    data = penalty_form_data(nordic, 0, {1: 5, 2: 5, 3: 10}, cards={3: "5H 7C QS"})
    response = client.post(url(nordic), data)
    body = html.unescape(response.content.decode())
    assert "Dan: the cards count 20, the points say 10. Clear one of the two." in body
    assert not Deal.objects.exists()


def test_points_and_cards_that_agree_are_saved(client, nordic):
    data = penalty_form_data(nordic, 0, {1: 5, 2: 5, 3: 20}, cards={3: "5H 7C QS"})
    assert client.post(url(nordic), data).status_code == 302
    assert Deal.objects.get().entry["left"]["3"] == {"cards": "5H 7C QS", "points": 20}


def test_the_preview_shows_the_handromme_doubling(client, romme):
    data = penalty_form_data(romme, 0, {1: 10}, cards={2: "KH QS"}, handromme="on")
    body = html.unescape(
        client.get(
            url(romme), data, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="preview"
        ).content.decode()
    )
    assert "Handrommé doubles the penalties of the other players (× 2)." in body
    assert "10 × 2 =</span> 20" in body
    assert "20 × 2 =</span> 40" in body


def test_the_preview_says_how_many_wild_cards_a_row_counts(creator, game):
    data = classic_form_data(game, 0, wild_twos=3, jokers=2)
    body = html.unescape(
        creator.get(
            url(game), data, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="preview"
        ).content.decode()
    )
    assert "3 × 1 =</span> 3" in body
    assert "2 × 2 =</span> 4" in body


def test_the_correction_form_shows_its_result_when_it_opens(client, nordic):
    record_penalty(nordic, 1, {0: 20, 2: 70, 3: 5})
    body = html.unescape(client.get(url(nordic, "deal-edit", number=1)).content.decode())
    preview = body[body.index('id="preview"') :]
    assert "This deal" in preview
    assert "The result of the deal shows here" not in preview
    assert re.search(r"Cleo</th><td>\s*70", preview)


def test_without_javascript_a_summary_at_the_top_links_each_error_to_its_control(client, nordic):
    data = penalty_form_data(nordic, 0, {2: 5, 3: "x"})
    body = html.unescape(client.post(url(nordic), data).content.decode())
    summary = body[body.index('class="errorlist error-summary"') :]
    summary = summary[: summary.index("</div>")]
    assert (
        '<a href="#id_points_1">Enter the penalty of Ben, as points or as the cards left.</a>'
        in summary
    )
    assert '<a href="#id_points_3">Dan: points are a whole number.</a>' in summary
    assert body.index("error-summary") < body.index('name="went_out"')
    # and beside the control
    assert 'aria-describedby="id_points_3_error"' in body
    assert re.search(r'id="id_points_3_error">\s*<li>Dan: points are a whole number.', body)


def test_the_new_game_summary_links_a_refused_name_to_the_name_box(client):
    data = {"op": "start", "name": "Anna", "seat": ["n:Anna", "n:Ben"], "variant": "classic"}
    body = html.unescape(client.post(reverse("game-new"), data).content.decode())
    assert '<a href="#id_name">Anna already has a seat.</a>' in body
    assert 'aria-describedby="id_name_error"' in body
    assert '<p class="errorlist" id="id_name_error">Anna already has a seat.</p>' in body


def test_the_import_says_what_is_wrong_at_the_top_too(client):
    body = html.unescape(client.post(reverse("game-import"), {"text": "{"}).content.decode())
    assert '<a href="#id_file">This is not a JSON export of a game.</a>' in body


def test_a_refused_settle_up_is_linked_above_its_form_which_lands_on_it(creator, game):
    from tests.factories import record_classic

    record_classic(game, 0)
    game.refresh_from_db()
    creator.post(url(game, "game-end"), {"version": game.version, "once": "end-1", "op": "end"})
    body = html.unescape(creator.get(url(game, "game") + "?per_point=1.234").content.decode())
    settle = body[body.index('id="settle-title"') :]
    assert settle.index('<a href="#id_per_point">') < settle.index("<form")
    assert "#settle-title" in settle[settle.index("<form") : settle.index("<form") + 200]


def test_the_penalty_card_grids_carry_each_cards_points(client, nordic):
    body = client.get(url(nordic)).content.decode()
    assert body.count('class="cards-entry"') == 4
    assert 'data-card="QS" data-points="10"' in body
    assert 'data-card="AS" data-points="20"' in body
    assert 'data-card="JK" data-points="50"' in body
    assert 'data-sum-for="id_cards_2"' in body


def test_the_classic_card_grid_carries_no_points(creator, game):
    body = creator.get(url(game)).content.decode()
    assert 'data-card="QS"' in body
    assert "data-points" not in body
