import re

import pytest
from django.urls import reverse

from scorepad.access import GAMES
from scorepad.models import Event, Game
from tests.factories import GameFactory
from tests.scorepad.conftest import own

pytestmark = pytest.mark.django_db
URL = "/en/games/new/"


def start(client, variant, names, **extra):
    data = {"variant": variant, "op": "start", "seat": [f"n:{n}" for n in names]}
    data.setdefault("first_dealer", "draw")
    data.update(extra)
    return client.post(URL, data)


def test_the_page_offers_the_four_games_and_every_house_rule_with_its_default(client):
    body = client.get(URL).content.decode()
    for variant in ("classic", "contract-nordic", "contract-spanish", "romme"):
        assert f'value="{variant}"' in body
    assert "Twos are wild" in body
    assert "Default: on." in body
    assert "Opening minimum" in body
    assert "Default: 51." in body
    assert "Handrommé doubles" in body
    assert "Default: off." in body
    assert "Custom deal schedule" in body


def test_adding_moving_and_removing_players_keeps_the_seating_order(client):
    body = client.post(URL, {"op": "add", "name": "  Anna ", "seat": []}).content.decode()
    assert 'name="seat" value="n:Anna"' in body
    body = client.post(URL, {"op": "add", "name": "Ben", "seat": ["n:Anna"]}).content.decode()
    assert body.index('value="n:Anna"') < body.index('value="n:Ben"')
    body = client.post(URL, {"op": "up:1", "seat": ["n:Anna", "n:Ben"]}).content.decode()
    assert body.index('value="n:Ben"') < body.index('value="n:Anna"')
    body = client.post(URL, {"op": "remove:0", "seat": ["n:Ben", "n:Anna"]}).content.decode()
    assert 'value="n:Ben"' not in body
    assert 'value="n:Anna"' in body


def test_a_name_already_seated_is_refused_with_a_message(client):
    body = client.post(URL, {"op": "add", "name": "anna", "seat": ["n:Anna"]}).content.decode()
    assert "anna already has a seat." in body
    assert body.count('name="seat"') == 1


def test_starting_creates_the_game_with_its_options_and_grants_this_phone_editor_rights(client):
    response = start(client, "classic", ["Anna", "Ben", "Cleo"], first_dealer="1")
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("game", kwargs={"token": game.editor_token})
    assert game.options == {"twos_wild": False}  # the unticked box: jokers only
    assert game.first_dealer == 1
    assert [s.name for s in game.seats.order_by("position")] == ["Anna", "Ben", "Cleo"]
    assert client.session[GAMES.created] == [game.pk]
    assert Event.objects.get(game=game).kind == "started"


def test_a_typed_name_not_yet_added_joins_the_table_on_start(client):
    start(client, "romme", ["Anna"], name="Ben", opt_romme_opening_minimum="40")
    game = Game.objects.get()
    assert game.seats.count() == 2
    assert game.options["opening_minimum"] == 40
    assert game.options["joker_in_each_hand"] is False


def test_drawing_for_the_first_dealer_says_who_deals(client):
    response = start(client, "contract-nordic", ["Anna", "Ben", "Cleo"])
    body = client.get(response["Location"]).content.decode()
    assert "drew the highest card" in body
    assert "deals first." in body
    assert Event.objects.get().details["draw"]


def test_a_contract_game_stores_the_standard_schedule(client):
    start(client, "contract-spanish", ["Anna", "Ben"])
    game = Game.objects.get()
    assert [row["cards"] for row in game.schedule] == [6, 7, 8, 9, 10, 11, 12]


def test_a_custom_schedule_is_stored_with_the_game(client):
    start(client, "contract-nordic", ["Anna", "Ben", "Cleo"], schedule="8 1 1\n10 0 2 3 5\n")
    game = Game.objects.get()
    assert game.schedule == [
        {"cards": 8, "sets": 1, "runs": 1, "set_min": 3, "run_min": 4},
        {"cards": 10, "sets": 0, "runs": 2, "set_min": 3, "run_min": 5},
    ]


def test_an_impossible_schedule_is_refused_in_place(client):
    body = start(client, "contract-nordic", ["A", "B", "C"], schedule="6 1 1\n").content.decode()
    assert "deal 1: the contract needs 7 cards but only 6 are dealt" in body
    assert not Game.objects.exists()


def test_a_schedule_that_is_not_numbers_is_refused_in_place(client):
    body = start(client, "contract-nordic", ["A", "B", "C"], schedule="two sets\n").content.decode()
    assert "Deal 1: write the cards dealt" in body
    assert not Game.objects.exists()


def test_too_few_players_for_the_game_is_refused(client):
    body = start(client, "contract-nordic", ["Anna", "Ben"]).content.decode()
    assert "is for 3 to 5 players; the table has 2." in body
    assert not Game.objects.exists()


def test_no_game_chosen_is_refused(client):
    response = client.post(URL, {"op": "start", "seat": ["n:Anna", "n:Ben"]})
    assert "Choose the game you play." in response.content.decode()
    assert not Game.objects.exists()


def test_the_people_of_a_circle_are_offered_and_reused_in_its_game(client):
    from scorepad.access import circle_reference
    from tests.factories import CircleFactory

    circle = CircleFactory()
    earlier = GameFactory(players=["Anna", "Ben"], circle=circle)
    anna = earlier.seats.get(position=0).person
    ref = circle_reference(circle)
    body = client.get(URL, {"circle": ref}).content.decode()
    # The last game's people are seated already: a new week's game is two taps.
    assert re.findall(r'name="seat" value="(p:\d+)"', body) == [
        f"p:{s.person_id}" for s in earlier.seats.order_by("position")
    ]
    body = client.post(URL, {"op": "remove:0", "seat": [f"p:{anna.pk}"], "circle": ref})
    body = client.post(URL, {"op": f"pick:{anna.pk}", "seat": [], "circle": ref})
    assert f'name="seat" value="p:{anna.pk}"' in body.content.decode()
    start_data = {"variant": "classic", "op": "start", "seat": [f"p:{anna.pk}", "n:ben"]}
    client.post(URL, {**start_data, "first_dealer": "draw", "circle": ref})
    game = Game.objects.exclude(pk=earlier.pk).get()
    assert game.circle == circle
    people = [s.person for s in game.seats.order_by("position")]
    assert people[0] == anna
    assert people[1] == circle.find("Ben")  # typed "ben" matched the circle's Ben
    assert [s.name for s in game.seats.order_by("position")] == ["Anna", "Ben"]


def test_a_game_outside_any_circle_offers_no_one_and_matches_no_name(client):
    """Names typed outside a circle are names: no one of another game, of this phone or
    not, is offered, and a seat of another game sent by hand is not seated."""
    from tests.factories import CircleFactory

    mine = GameFactory(players=["Zoe", "Yann"])
    own(client, mine)
    circle_game = GameFactory(players=["Zoe", "Xia"], circle=CircleFactory())
    stranger = circle_game.seats.get(position=0).person
    body = client.get(URL).content.decode()
    assert "Zoe" not in body
    assert "pick:" not in body
    body = client.post(
        URL, {"op": "add", "name": "Al", "seat": [f"p:{stranger.pk}"]}
    ).content.decode()
    assert "Zoe" not in body
    client.post(URL, {"variant": "classic", "op": "start", "seat": ["n:Zoe", "n:Al"],
                      "first_dealer": "0"})  # fmt: skip
    game = Game.objects.exclude(pk__in=[mine.pk, circle_game.pk]).get()
    assert game.circle is None
    assert [(s.name, s.person) for s in game.seats.order_by("position")] == [
        ("Zoe", None),
        ("Al", None),
    ]


def test_play_again_starts_the_form_with_the_same_players_and_house_rules(client, db):
    from tests.factories import GameFactory, record_penalty

    old = GameFactory(variant_id="romme", players=["Cleo", "Anna", "Ben"])
    old.options = {**old.options, "opening_minimum": 40}
    old.save()
    record_penalty(old, 0, {1: 10, 2: 20})
    body = client.get("/en/games/new/", {"again": old.viewer_token}).content.decode()
    seats = re.findall(r'name="seat" value="n:([^"]+)"', body)
    assert seats == ["Cleo", "Anna", "Ben"]
    assert re.search(r'value="romme"[^>]*checked', body)
    assert re.search(
        r'name="opt_romme_opening_minimum"[^>]*>.*?<option value="40" selected', body, re.S
    )


def test_play_again_with_a_link_that_leads_nowhere_is_a_plain_new_game(client, db):
    answer = client.get("/en/games/new/", {"again": "x" * 24})
    assert answer.status_code == 200
    assert 'name="seat"' not in answer.content.decode()


def test_a_finished_game_offers_to_play_again(client, db):
    from scorepad.models import Actor
    from tests.factories import GameFactory, record_classic

    game = GameFactory(variant_id="classic", players=["Anna", "Ben"])
    record_classic(game, 0)
    assert "Play again" not in client.get(f"/en/games/{game.viewer_token}/").content.decode()
    game.refresh_from_db()
    game.end(version=game.version, once="play-again-test", actor=Actor("creator", "t"))
    body = client.get(f"/en/games/{game.viewer_token}/").content.decode()
    # The game's reference, no link of it (issue 21, item 9: tests/scorepad/test_editor_link_leaks.py)
    from urllib.parse import quote

    from scorepad.access import again_reference

    assert f'href="/en/games/new/?again={quote(again_reference(game))}"' in body
