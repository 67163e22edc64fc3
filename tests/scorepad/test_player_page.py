"""A person's page in a circle: OpenSkill rating, record, streaks and head-to-head per
variant, computed on read from the circle's stored deals, so a corrected deal changes them at
once; reached through the circle's link only."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from scorepad.models import DealScore, Person
from tests.factories import (
    ACTOR,
    CircleFactory,
    GameFactory,
    classic_form_data,
    record_classic,
    seats,
)

pytestmark = pytest.mark.django_db


def finish(game):
    game.refresh_from_db()
    game.end(version=game.version, once=f"end-{game.pk:020d}", actor=ACTOR)


def play(names, winners, circle):
    """A finished classic game of the circle, one deal per winner (seat positions)."""
    game = GameFactory(players=names, circle=circle)
    for winner in winners:
        record_classic(game, winner)
    finish(game)
    return game


@pytest.fixture
def table(client):
    """Anna wins twice against Ben and Cleo, Ben wins once; all in one circle."""
    circle = CircleFactory()
    first = play(["Anna", "Ben", "Cleo"], [0, 0, 1], circle)
    people = [s.person for s in seats(first)]
    second = play(["Anna", "Ben", "Cleo"], [0], circle)
    third = play(["Anna", "Ben", "Cleo"], [1, 1], circle)
    return people, [first, second, third]


def page(client, player, lang="en"):
    with translation.override(lang):
        token = player.circle.viewer_token
        path = reverse("circle-player", kwargs={"token": token, "pk": player.pk})
    return client.get(path)


def stats(body):
    return dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", body))


def head_to_head(body):
    part = body[body.index("Head-to-head</h3>") :].split("</table>")[0]
    rows = re.findall(
        r'<tr><th scope="row">([^<]+)</th><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td>',
        part,
    )
    return {name: tuple(int(n) for n in counts) for name, *counts in rows}


def rating(body):
    return float(stats(body)["Rating"].split(" ± ")[0])


def test_the_players_list_links_each_player_s_page(client, table):
    people, _games = table
    token = people[0].circle.viewer_token
    body = client.get(reverse("circle-players", kwargs={"token": token})).content.decode()
    for player in people:
        path = reverse("circle-player", kwargs={"token": token, "pk": player.pk})
        assert f'href="{path}"' in body


def test_the_page_shows_rating_record_streaks_and_head_to_head(client, table):
    (anna, _ben, cleo), _games = table
    body = page(client, anna).content.decode()
    values = stats(body)
    assert values["Games"] == "3"
    assert values["Wins"] == "2 of 3 finished games"
    assert values["Win rate"] == "67%"
    assert values["Deals"] == "6"
    assert values["Longest winning streak"] == "2 games"
    assert values["Current streak"] == "1 game without a win"
    assert values["Rank"] == "1 of 3 rated players"
    assert re.fullmatch(r"\d+\.\d ± \d+\.\d", values["Rating"])
    assert head_to_head(body) == {"Ben": (3, 2, 1, 0), "Cleo": (3, 2, 0, 1)}  # game 3: level
    assert "Only finished games count for the rating" in body
    assert "<svg" in body
    assert "<polygon" in body
    assert "<polyline" in body
    assert rating(body) > rating(page(client, cleo).content.decode())


def test_a_corrected_deal_changes_the_ratings_and_the_head_to_head(client, table):
    (anna, ben, _cleo), (first, _second, _third) = table
    before_anna = rating(page(client, anna).content.decode())
    before_ben = rating(page(client, ben).content.decode())
    # Correct the first game: Ben went out in each of its deals.
    for number in (1, 2):
        first.refresh_from_db()
        data = classic_form_data(first, 1, once=f"fix-{number}")
        path = reverse("deal-edit", kwargs={"token": first.editor_token, "number": number})
        assert client.post(path, data).status_code == 302
    body = page(client, anna).content.decode()
    assert head_to_head(body)["Ben"] == (3, 1, 2, 0)
    assert stats(body)["Wins"] == "1 of 3 finished games"
    assert rating(body) < before_anna
    assert rating(page(client, ben).content.decode()) > before_ben


def test_a_flagged_deal_counts_for_nothing_on_the_player_page(client, table):
    (anna, _ben, _cleo), (first, _second, _third) = table
    DealScore.objects.filter(deal__game=first, deal__number=1, seat__position=0).update(points=500)
    values = stats(page(client, anna).content.decode())
    assert values["Deals"] == "5"
    assert values["Best deal"] == "+22"


def test_a_game_in_progress_counts_its_deals_but_not_for_the_rating(client):
    game = GameFactory(players=["Anna", "Ben"], circle=CircleFactory())
    record_classic(game, 0)
    anna = game.seats.get(position=0).person
    values = stats(page(client, anna).content.decode())
    assert values["Rating"] == "—"
    assert values["Wins"] == "no game finished yet"
    assert values["Deals"] == "1"
    assert values["Best deal"] == "+11"


def test_a_person_of_another_circle_is_not_found_through_this_circle(client, table):
    people, _games = table
    stranger = GameFactory(players=["Secret", "Agent"], circle=CircleFactory()).seats.first()
    token = people[0].circle.viewer_token
    path = reverse("circle-player", kwargs={"token": token, "pk": stranger.person_id})
    assert client.get(path).status_code == 404
    assert client.get(f"/en/circles/{token}/players/999999/").status_code == 404
    assert client.get("/en/players/").status_code == 404  # no list outside a circle


def test_the_page_speaks_the_page_language(client, table):
    (anna, _ben, _cleo), _games = table
    body = page(client, anna, "de").content.decode()
    assert 'lang="de"' in body
    assert "Direkter Vergleich" in body
    assert "Siegquote" in body
    assert "67 %" in body


def test_the_page_takes_the_same_number_of_queries_whatever_the_number_of_games(client, table):
    (anna, _ben, _cleo), _games = table

    def count():
        with CaptureQueriesContext(connection) as queries:
            assert page(client, anna).status_code == 200
        return len(queries)

    count()  # the first answer of a client reads once what it keeps (the session, the rate)
    few = count()
    for _ in range(3):
        play(["Anna", "Ben", "Cleo"], [2, 0], anna.circle)
    play(["Anna", "Dan"], [1], anna.circle)
    assert count() == few


def test_a_player_who_joined_late_counts_the_deals_played_and_the_starting_total(client):
    from tests.factories import record_penalty

    game = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"], circle=CircleFactory())
    record_penalty(game, 0, {1: 20, 2: 35})
    game.refresh_from_db()
    game.join("Dana", 50, version=game.version, once="dana-joins-0123456789", actor=ACTOR)
    record_penalty(game, 1, {0: 10, 2: 15, 3: 5})
    finish(game)
    dana = Person.objects.get(name="Dana")
    values = stats(page(client, dana).content.decode())
    assert values["Deals"] == "1"
    assert values["Best deal"] == "5"
    # Dana 55, Anna 10, Ben 20, Cleo 50: last place, behind everyone.
    assert head_to_head(page(client, dana).content.decode()) == {
        "Anna": (1, 0, 1, 0),
        "Ben": (1, 0, 1, 0),
        "Cleo": (1, 0, 1, 0),
    }


def test_a_merged_person_s_old_page_leads_to_the_person_they_count_as(client):
    """An old link to Cleo's page, once Cleo was merged into Cleopatra (and Cleopatra into
    Cleo P.), leads to Cleo P.'s page (it once answered 404); separated again, it is Cleo's
    own page again."""
    circle = CircleFactory()
    play(["Anna", "Ben", "Cleo"], [0], circle)
    play(["Anna", "Ben", "Cleopatra"], [1], circle)
    play(["Anna", "Ben", "Cleo P."], [2], circle)
    cleo, cleopatra, cleo_p = (circle.find(n) for n in ("Cleo", "Cleopatra", "Cleo P."))
    Person.objects.filter(pk=cleo.pk).update(merged_into=cleopatra)
    Person.objects.filter(pk=cleopatra.pk).update(merged_into=cleo_p)
    answer = page(client, cleo)
    assert answer.status_code == 302
    assert answer["Location"] == reverse(
        "circle-player", kwargs={"token": circle.viewer_token, "pk": cleo_p.pk}
    )
    assert "<h1>Cleo P." in client.get(answer["Location"]).content.decode()
    Person.objects.filter(pk=cleo.pk).update(merged_into=None)
    again = page(client, cleo)
    assert again.status_code == 200
    assert "<h1>Cleo</h1>" in again.content.decode()


def test_the_players_list_counts_a_merged_person_s_games_as_the_one_they_count_as(client):
    circle = CircleFactory()
    play(["Anna", "Ben", "Cleo"], [0], circle)
    play(["Anna", "Ben", "Cleo"], [2], circle)
    play(["Anna", "Ben", "Cleopatra"], [2], circle)
    cleo, cleopatra = circle.find("Cleo"), circle.find("Cleopatra")
    circle.merge(cleo.pk, cleopatra.pk, version=circle.version, once=None, actor=ACTOR)
    body = client.get(reverse("circle-players", kwargs={"token": circle.viewer_token}))
    body = body.content.decode()
    section = re.search(r'<h2 id="player-\d+">Cleopatra</h2>(.*?)</section>', body, re.S)
    assert section, "Cleopatra has no section"
    assert "<dt>Games</dt><dd>3</dd>" in section.group(1)
    assert "2 of 3 finished games" in section.group(1)
    assert ">Cleo<" not in body
