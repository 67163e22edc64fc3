"""Players who come and go: one joins during the game (from the next deal, with the
starting total the table chooses), one leaves (no more deals, the total stays) and comes
back, a player is renamed, and a target ends the classic game and Rommé when it is reached
(the contract games keep their seven deals)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorepad.models import Deal, Event, Game
from scorepad.sheet import build_sheet
from tests.factories import GameFactory, record_classic, record_penalty
from tests.scorepad.conftest import own

pytestmark = pytest.mark.django_db


def url(game, name="game-players", **kwargs):
    return reverse(name, kwargs={"token": game.editor_token, **kwargs})


def change(phone, game, kind, **fields):
    game.refresh_from_db()
    data = {"form": kind, "version": game.version, "once": f"{kind}-{game.version}-0123456789ab"}
    return phone.post(url(game), {**data, **fields}, follow=True)


@pytest.fixture
def romme(db):
    game = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"])
    record_penalty(game, 0, {1: 20, 2: 35})
    record_penalty(game, 1, {0: 10, 2: 15})
    game.refresh_from_db()
    return game


@pytest.fixture
def phone(romme):
    return own(Client(), romme)


def test_a_player_joins_from_the_next_deal_with_the_highest_total(phone, romme):
    page = change(phone, romme, "join", name="Dana", start="worst").content.decode()
    assert "Dana joins the table from the next deal, starting with 50." in page
    sheet = build_sheet(Game.objects.get(pk=romme.pk))
    assert [s.name for s in sheet.seats] == ["Anna", "Ben", "Cleo", "Dana"]
    assert sheet.totals == [10, 20, 50, 50]
    assert [c.away for c in sheet.rows[0].cells] == [False, False, False, True]
    deal_form = phone.get(url(romme, "deal-new")).content.decode()
    assert 'name="points_3"' in deal_form
    record_penalty(romme, 3, {0: 5, 1: 5, 2: 5})  # Dana went out in deal 3
    assert build_sheet(Game.objects.get(pk=romme.pk)).totals == [15, 25, 55, 50]
    sheet_page = phone.get(reverse("game", kwargs={"token": romme.editor_token})).content.decode()
    assert sheet_page.count('title="not at the table">·<') == 2


@pytest.mark.parametrize(
    ("start", "points", "expected"), [("zero", "", 0), ("average", "", 25), ("number", "40", 40)]
)
def test_the_table_chooses_the_starting_total(phone, romme, start, points, expected):
    change(phone, romme, "join", name="Dana", start=start, start_points=points)
    assert romme.seats.get(name="Dana").total == expected


def test_a_player_who_joins_the_stake_game_starts_at_zero_so_the_money_stays_square(db):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    phone = own(Client(), game)
    record_classic(game, 0, jokers=1)
    change(phone, game, "join", name="Dana", start="number", start_points="99")
    record_classic(game, 3)
    sheet = build_sheet(Game.objects.get(pk=game.pk))
    assert sum(sheet.totals) == 0
    assert sheet.totals[3] > 0
    assert sheet.rows[1].cells[3].went_out


def test_a_player_leaves_keeps_the_total_and_gets_no_more_deals(phone, romme):
    page = change(phone, romme, "leave", position=1, op="leave").content.decode()
    assert "Ben left the table: no more deals for them; their total stays." in page
    deal_form = phone.get(url(romme, "deal-new")).content.decode()
    assert 'name="points_1"' not in deal_form
    assert 'name="points_2"' in deal_form
    record_penalty(romme, 0, {2: 10})
    sheet = build_sheet(Game.objects.get(pk=romme.pk))
    assert sheet.totals == [10, 20, 60]
    assert sheet.rows[2].cells[1].away
    # Correcting a deal Ben played in still asks for Ben.
    assert 'name="points_1"' in phone.get(url(romme, "deal-edit", number=1)).content.decode()
    change(phone, romme, "leave", position=1, op="back")
    assert 'name="points_1"' in phone.get(url(romme, "deal-new")).content.decode()


def test_the_deal_passes_over_a_player_who_left(db):
    game = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo", "Dan"])
    phone = own(Client(), game)
    game.first_dealer = 0
    game.save()
    record_penalty(game, 0, {1: 5, 2: 5, 3: 5})  # Anna dealt deal 1
    change(phone, game, "leave", position=1, op="leave")
    sheet = build_sheet(Game.objects.get(pk=game.pk))
    assert sheet.next_deal.dealer.name == "Cleo"  # Ben is passed over
    assert sheet.next_deal.starter.name == "Dan"


def test_a_table_never_gets_below_the_fewest_players(db):
    game = GameFactory(variant_id="romme", players=["Anna", "Ben"])
    phone = own(Client(), game)
    page = change(phone, game, "leave", position=1, op="leave").content.decode()
    assert "Ben cannot leave: this game needs at least 2 players." in page
    assert game.seats.get(position=1).active


def test_a_player_is_renamed_everywhere_but_not_to_a_name_at_the_table(phone, romme):
    page = change(phone, romme, "rename", position=0, name="  Anna   Maria ").content.decode()
    assert "Anna is now called Anna Maria." in page
    assert romme.seats.get(position=0).name == "Anna Maria"
    page = change(phone, romme, "rename", position=1, name="cleo").content.decode()
    assert "cleo is already at this table." in page
    assert romme.seats.get(position=1).name == "Ben"
    event = Event.objects.filter(game=romme, kind="renamed").get()
    assert event.details == {"position": 0, "before": "Anna", "after": "Anna Maria"}


def test_a_stale_change_changes_nothing_and_a_replay_happens_once(phone, romme):
    other = Client()
    romme.refresh_from_db()
    stale = {"form": "rename", "version": romme.version, "position": 2, "name": "Clea"}
    change(other, romme, "join", name="Dana", start="zero")
    answer = phone.post(url(romme), {**stale, "once": "stale-rename-0123456789"})
    assert answer.status_code == 409
    assert "The table changed while you were entering this" in answer.content.decode()
    assert romme.seats.get(position=2).name == "Cleo"
    romme.refresh_from_db()
    fresh = {**stale, "version": romme.version, "once": "fresh-rename-0123456789"}
    phone.post(url(romme), fresh)
    again = phone.post(url(romme), fresh, follow=True)
    assert "That was already done; it happened once." in again.content.decode()
    assert Event.objects.filter(game=romme, kind="renamed").count() == 1


@pytest.mark.parametrize(
    "fields",
    [
        {"form": "join", "name": ""},
        {"form": "join", "name": "x" * 41},
        {"form": "join", "name": "Dana", "start": "number", "start_points": "-5"},
        {"form": "rename", "position": "9", "name": "Zed"},
        {"form": "leave", "position": "x", "op": "leave"},
        {"form": "target", "target_score": "0"},
        {"form": "target", "target_deals": "²"},
        {"form": "nonsense"},
    ],
)
def test_bad_input_gets_a_message_and_changes_nothing(phone, romme, fields):
    before = (romme.version, romme.seats.count())
    answer = change(phone, romme, fields.pop("form"), **fields)
    assert answer.status_code in (200, 422)
    assert re.search(r'class="(errorlist|message error)', answer.content.decode())
    romme.refresh_from_db()
    assert (romme.version, romme.seats.count()) == before


def test_a_viewer_cannot_open_the_players_page(romme):
    viewer = reverse("game-players", kwargs={"token": romme.viewer_token})
    assert Client().get(viewer).status_code == 403


def test_a_target_score_ends_romme_when_a_total_reaches_it(phone, romme):
    change(phone, romme, "target", target_score="60")
    record_penalty(romme, 0, {1: 5, 2: 5})  # Cleo at 55
    assert not Game.objects.get(pk=romme.pk).is_finished
    record_penalty(romme, 0, {1: 5, 2: 5})  # Cleo at 60
    game = Game.objects.get(pk=romme.pk)
    assert game.is_finished
    assert Event.objects.filter(game=game).first().details["target"] is True


def test_a_target_number_of_deals_ends_the_classic_game(db):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    phone = own(Client(), game)
    change(phone, game, "target", target_deals="2")
    record_classic(game, 0)
    assert not Game.objects.get(pk=game.pk).is_finished
    record_classic(game, 1)
    assert Game.objects.get(pk=game.pk).is_finished
    assert Deal.objects.filter(game=game).count() == 2


def test_a_contract_game_has_no_target(db):
    game = GameFactory(variant_id="contract-nordic", players=["Anna", "Ben", "Cleo"])
    phone = own(Client(), game)
    page = phone.get(url(game)).content.decode()
    assert "Ends after this many deals" not in page
    answer = change(phone, game, "target", target_deals="3").content.decode()
    assert "A contract game keeps its seven deals: it has no target." in answer
    assert Game.objects.get(pk=game.pk).target_deals is None


def test_an_export_of_a_table_that_changed_imports_as_it_was(phone, romme):
    from scorepad.transfer import export_document, import_game
    from tests.factories import ACTOR

    change(phone, romme, "join", name="Dana", start="worst")
    record_penalty(romme, 3, {0: 5, 1: 5, 2: 5})
    change(phone, romme, "leave", position=1, op="leave")
    change(phone, romme, "target", target_score="400")
    document = export_document(build_sheet(Game.objects.get(pk=romme.pk)))
    copy = import_game(document, actor=ACTOR)
    again = export_document(build_sheet(Game.objects.get(pk=copy.pk)))
    for key in ("players", "starts", "left", "target_score", "totals", "deals"):
        assert again[key] == document[key], key
    assert document["deals"][0]["players"] == [0, 1, 2]


def test_an_error_is_listed_at_the_top_linked_to_its_control_and_said_beside_it(phone, romme):
    page = change(phone, romme, "join", name="").content.decode()
    summary = re.search(r'<div class="errorlist error-summary".*?</div>', page, re.S).group(0)
    assert '<a href="#id_name">Enter a name.</a>' in summary
    assert page.index("error-summary") < page.index('id="join-title"')
    page = change(phone, romme, "rename", position=1, name="Anna").content.decode()
    assert '<a href="#rename-1">Anna is already at this table.</a>' in page
    assert 'id="rename-1-error"' in page
