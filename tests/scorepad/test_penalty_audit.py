"""The penalty audit of issue 16: the cards entered for a whole deal against the decks of that
deal, and the stake game's zero sum on every stored deal (a corrupted row is flagged, not
summed)."""

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from scorepad.models import Deal, DealScore, Seat
from scorepad.sheet import build_sheet, load_game
from tests.factories import GameFactory, penalty_form_data, record_classic, record_penalty
from tests.scorepad.conftest import own

pytestmark = pytest.mark.django_db

FIVE = ["Anna", "Ben", "Cleo", "Dan", "Eva"]


@pytest.fixture
def spanish(client):
    """Five at a Spanish table: two decks for deals 1 and 2, three for 3 and 4, four after."""
    game = GameFactory(variant_id="contract-spanish", players=FIVE)
    own(client, game)
    return game


def url(game, name="deal-new", **kwargs):
    return reverse(name, kwargs={"token": game.editor_token, **kwargs})


def three_sevens(game, **fields):
    return penalty_form_data(
        game, 0, {3: 10, 4: 5}, cards={1: "7H 2C", 2: "7H", 3: ""}, **fields
    ) | {"cards_3": "7H", "points_3": ""}


def test_a_card_entered_more_often_than_this_deal_s_decks_hold_is_refused_naming_its_holders(
    client, spanish
):
    body = client.post(url(spanish), three_sevens(spanish)).content.decode()
    assert (
        "3 × 7♥ entered, held by Ben, Cleo and Dan, but the 2 decks of this deal hold only 2"
        in (body)
    )
    assert not Deal.objects.exists()


def test_the_same_cards_pass_in_a_deal_with_more_decks(client, spanish):
    for _ in range(4):
        record_penalty(spanish, 0, {1: 5, 2: 5, 3: 5, 4: 5})
    spanish.refresh_from_db()
    response = client.post(url(spanish), three_sevens(spanish))
    assert response.status_code == 302
    assert Deal.objects.filter(game=spanish, number=5).exists()


def test_correcting_an_early_deal_audits_it_against_that_deal_s_decks(client, spanish):
    for _ in range(4):
        record_penalty(spanish, 0, {1: 5, 2: 5, 3: 5, 4: 5})
    spanish.refresh_from_db()
    before = list(
        DealScore.objects.filter(deal__number=1)
        .order_by("seat__position")
        .values_list("points", flat=True)
    )
    body = client.post(url(spanish, "deal-edit", number=1), three_sevens(spanish)).content.decode()
    assert "held by Ben, Cleo and Dan, but the 2 decks of this deal hold only 2" in body
    after = list(
        DealScore.objects.filter(deal__number=1)
        .order_by("seat__position")
        .values_list("points", flat=True)
    )
    assert after == before


def test_more_jokers_than_the_deal_has_name_the_players_holding_them(client):
    romme = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"])  # 3 jokers
    own(client, romme)
    data = penalty_form_data(romme, 0, cards={1: "JK JK 5S", 2: "JK JK"})
    body = client.post(url(romme), data).content.decode()
    assert "4 jokers entered, held by Ben and Cleo, but this deal has only 3" in body
    assert not Deal.objects.exists()


def test_the_audit_speaks_the_page_language(client, spanish):
    with translation.override("de"):
        path = url(spanish)
    data = three_sevens(spanish) | {"cards_1": "DH 2C", "cards_2": "DH", "cards_3": "DH"}
    body = client.post(path, data).content.decode()
    assert "3 × D♥ eingegeben, bei Ben, Cleo und Dan" in body
    assert "aber die 2 Blätter dieser Runde haben nur 2 davon" in body


# --- the stake game's zero sum -------------------------------------------------------------------


@pytest.fixture
def classic(client):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    own(client, game)
    record_classic(game, 0, jokers=1)  # 3 each: Anna +6, Ben -3, Cleo -3
    record_classic(game, 1)  # 11 each: Ben +22
    record_classic(game, 2, wild_twos=2)  # 3 each: Cleo +6
    return game


def corrupt(game, number, position, points):
    """Change one stored score directly in the database, as a hand-made edit would."""
    DealScore.objects.filter(deal__game=game, deal__number=number, seat__position=position).update(
        points=points
    )
    cache.clear()


def test_a_sound_sheet_flags_nothing(classic):
    sheet = build_sheet(load_game(type(classic).objects.filter(pk=classic.pk)))
    assert [row.flaw for row in sheet.rows] == [None, None, None]
    assert sheet.totals == [6 - 11 - 3, -3 + 22 - 3, -3 - 11 + 6]


def test_a_corrupted_row_is_flagged_and_not_added_into_the_totals(classic):
    corrupt(classic, 2, 0, -50)  # Anna "paid" 50: the deal sums to -39
    sheet = build_sheet(load_game(type(classic).objects.filter(pk=classic.pk)))
    flagged = sheet.rows[1]
    assert flagged.flaw
    assert "the scores sum to -39, not 0" in flagged.flaw
    assert [c.points for c in flagged.cells] == [-50, 22, -11]  # shown as stored
    assert sheet.rows[0].flaw is None
    assert sheet.rows[2].flaw is None
    # Deal 2 is left out: deals 1 and 3 only.
    assert sheet.totals == [6 - 3, -3 - 3, -3 + 6]
    assert [c.total for c in flagged.cells] == [6, -3, -3]
    assert sum(sheet.totals) == 0


def test_a_zero_sum_row_that_does_not_match_the_payment_is_flagged(classic):
    corrupt(classic, 1, 1, -4)
    corrupt(classic, 1, 2, -2)
    sheet = build_sheet(load_game(type(classic).objects.filter(pk=classic.pk)))
    assert "Ben has -4, but a payment of 3 makes it -3" in sheet.rows[0].flaw


def test_the_sheet_page_shows_the_flag_and_its_note(client, classic):
    corrupt(classic, 2, 0, -50)
    body = client.get(reverse("game", kwargs={"token": classic.viewer_token})).content.decode()
    assert "Deal 2 is not counted in the totals" in body
    assert "the scores sum to -39, not 0" in body
    assert 'class="flagged"' in body


def test_the_history_page_shows_the_flag(client, classic):
    corrupt(classic, 2, 0, -50)
    path = reverse("game-history", kwargs={"token": classic.viewer_token})
    body = client.get(path).content.decode()
    assert "Deal 2 is not counted in the totals" in body


def test_a_saved_change_leaves_the_corrupted_deal_out_of_the_stored_totals(client, classic):
    corrupt(classic, 2, 0, -50)
    record_classic(classic, 0, jokers=1)  # any change recomputes the stored totals
    totals = list(Seat.objects.filter(game=classic).order_by("position").values_list("total"))
    assert totals == [(6 - 3 + 6,), (-3 - 3 - 3,), (-3 + 6 - 3,)]


def test_a_missing_row_is_flagged(classic):
    DealScore.objects.filter(deal__game=classic, deal__number=3, seat__position=1).delete()
    sheet = build_sheet(load_game(type(classic).objects.filter(pk=classic.pk)))
    # A deal's players are those it scores: Ben's payment is now received but never paid.
    assert "the scores sum to 3, not 0" in sheet.rows[2].flaw
    assert sheet.totals == [6 - 11, -3 + 22, -3 - 11]


def test_correcting_the_flagged_deal_clears_the_flag(client, classic):
    corrupt(classic, 2, 0, -50)
    classic.refresh_from_db()
    data = {
        "version": str(classic.version),
        "once": "fix-once-1",
        "went_out": "1",
        "mode": "rows",
        "wild_twos": "0",
        "jokers": "0",
    }
    response = client.post(url(classic, "deal-edit", number=2), data)
    assert response.status_code == 302
    sheet = build_sheet(load_game(type(classic).objects.filter(pk=classic.pk)))
    assert [row.flaw for row in sheet.rows] == [None, None, None]
    assert sheet.totals == [6 - 11 - 3, -3 + 22 - 3, -3 - 11 + 6]


def test_a_result_that_is_not_zero_sum_is_never_saved(classic):
    from scorepad.models import DealResult, Event, StoredDealBroken
    from tests.factories import ACTOR

    classic.refresh_from_db()
    broken = DealResult(
        status=Deal.Status.SCORED,
        went_out=0,
        scores={0: 6, 1: -3, 2: -4},
        entry={"mode": "rows", "wild_twos": 0, "jokers": 1},
        payment=3,
    )
    events = Event.objects.count()
    with pytest.raises(StoredDealBroken):
        classic.record_deal(broken, version=classic.version, once="broken-1", actor=ACTOR)
    assert Deal.objects.filter(game=classic).count() == 3
    assert Event.objects.count() == events


def test_deals_of_a_table_whose_players_come_and_go_are_not_flagged(client):
    from tests.factories import ACTOR, classic_form_data

    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    own(client, game)
    record_classic(game, 0, jokers=1)  # four players: Anna +9
    game.refresh_from_db()
    game.seat_leaves(3, version=game.version, once="dan-leaves-0123456789", actor=ACTOR)
    game.refresh_from_db()
    response = client.post(url(game), classic_form_data(game, 1))  # three play: Ben +22
    assert response.status_code == 302
    assert DealScore.objects.filter(deal__game=game, deal__number=2).count() == 3
    sheet = build_sheet(load_game(type(game).objects.filter(pk=game.pk)))
    assert [row.flaw for row in sheet.rows] == [None, None]
    assert sheet.totals == [9 - 11, -3 + 22, -3 - 11, -3]
    # Ben's row of deal 2 removed: the others' payments are received by nobody.
    DealScore.objects.filter(deal__game=game, deal__number=2, seat__position=1).delete()
    sheet = build_sheet(load_game(type(game).objects.filter(pk=game.pk)))
    assert "the scores sum to -22, not 0" in sheet.rows[1].flaw
    assert sheet.totals == [9, -3, -3, -3]


def test_a_stale_correction_with_too_many_copies_changes_nothing(client, spanish):
    from django.test import Client

    for _ in range(4):
        record_penalty(spanish, 0, {1: 5, 2: 5, 3: 5, 4: 5})
    spanish.refresh_from_db()
    stale = three_sevens(spanish)  # made on this version
    other = own(Client(), spanish)  # another phone corrects deal 1 first
    fixed = penalty_form_data(spanish, 1, {0: 10, 2: 5, 3: 5, 4: 5})
    assert other.post(url(spanish, "deal-edit", number=1), fixed).status_code == 302
    body = client.post(url(spanish, "deal-edit", number=1), stale).content.decode()
    assert "held by Ben, Cleo and Dan, but the 2 decks of this deal hold only 2" in body
    scores = DealScore.objects.filter(deal__game=spanish, deal__number=1)
    assert list(scores.order_by("seat__position").values_list("points", flat=True)) == [
        10,
        0,
        5,
        5,
        5,
    ]
    # The same form sent again (a replay) is refused the same way and changes nothing.
    again = client.post(url(spanish, "deal-edit", number=1), stale).content.decode()
    assert "held by Ben, Cleo and Dan" in again
    assert Deal.objects.filter(game=spanish).count() == 4
