"""A player who leaves cannot win (issue 45, item 3; docs/rules.md, "Players who come and
go"): Marek left a Nordic game after deal 6 with the lowest total. As the table sees it: the
winner line, the star, the standings with who left when, the share text, the BG Stats play,
the places the ratings and the year page count."""

import html
import re

import pytest
from django.test import Client

from scorepad.models import Game, Person, Seat
from scorepad.records import game_records
from tests.factories import CircleFactory, GameFactory, record_penalty
from tests.scorepad.conftest import own
from tests.scorepad.test_players_come_and_go import change
from tests.scorepad.test_share_result import end, page, picture, play, shared_text, texts

pytestmark = pytest.mark.django_db

ANNA, BEN, CLEO, MAREK = range(4)


def six_deals_and_marek_leaves(circle=None) -> Game:
    """After deal 6: Anna 50, Ben 100, Cleo 95, Marek 45; then Marek leaves."""
    game = GameFactory(
        variant_id="contract-nordic", players=["Anna", "Ben", "Cleo", "Marek"], circle=circle
    )
    record_penalty(game, MAREK, {ANNA: 10, BEN: 20, CLEO: 15})
    record_penalty(game, ANNA, {BEN: 20, CLEO: 20, MAREK: 10})
    record_penalty(game, CLEO, {ANNA: 10, BEN: 20, MAREK: 10})
    record_penalty(game, MAREK, {ANNA: 20, BEN: 20, CLEO: 20})
    record_penalty(game, BEN, {ANNA: 10, CLEO: 10, MAREK: 15})
    record_penalty(game, ANNA, {BEN: 20, CLEO: 30, MAREK: 10})
    change(own(Client(), game), game, "leave", position=MAREK, op="leave")
    game.refresh_from_db()
    return game


def marek_leaves(circle=None) -> Game:
    """Anna 80, Ben 120, Cleo 95 at the end; Marek left after deal 6 with 45."""
    game = six_deals_and_marek_leaves(circle)
    record_penalty(game, CLEO, {ANNA: 30, BEN: 20})
    return end(game)


def standings_items(body: str) -> list[str]:
    listed = body[body.index('<ol class="standings">') :]
    return listed[: listed.index("</ol>")].split("<li")[1:]


def seen(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def test_marek_who_left_with_the_lowest_total_is_last_and_anna_wins_on_the_sheet(client):
    game = marek_leaves()
    body = page(client, "game", game.viewer_token)
    assert "Winner: Anna" in body
    assert "Winner: Marek" not in body
    items = standings_items(body)
    assert [seen(li.split(">", 1)[1]) for li in items] == [
        "1. Anna 80",
        "2. Cleo 95",
        "3. Ben 120",
        "4. Marek left after deal 6 45",
    ]
    assert "leader" in items[0].split(">", 1)[0]
    assert "leader" not in items[3].split(">", 1)[0]
    head = body[body.index("<thead>") : body.index("</thead>")]
    assert '<span class="visually-hidden"> (left after deal 6)</span>' in head


def test_the_share_text_and_picture_say_who_left_when_and_star_the_winner_alone(client):
    game = marek_leaves()
    text = shared_text(page(client, "game", game.viewer_token))
    lines = text.splitlines()
    assert lines[0].endswith(": 1. Anna 80 · 2. Cleo 95 · 3. Ben 120 · 4. Marek 45")
    assert lines[1] == "Marek left after deal 6."
    _svg, root = picture(client, "game-result", game.viewer_token)
    starred = [t for t in texts(root) if "★" in t]
    assert starred == ["Anna ★"]
    for lang, said in (
        ("de", "Marek ist nach Runde 6 gegangen."),
        ("pl", "Marek: odejście od stołu po rozdaniu 6."),
        ("es", "Marek dejó la mesa tras la ronda 6."),
    ):
        assert said in shared_text(page(client, "game", game.viewer_token, lang))


def test_the_bgstats_play_makes_anna_the_winner_and_marek_last(client):
    game = marek_leaves()
    players = {p["name"]: p for p in play(page(client, "game", game.viewer_token))["players"]}
    assert [name for name, p in players.items() if p["winner"]] == ["Anna"]
    assert players["Marek"]["rank"] == 4
    assert players["Marek"]["score"] == "45"


def test_the_ratings_and_the_year_count_marek_last_and_a_win_for_anna(client):
    circle = CircleFactory()
    game = marek_leaves(circle)
    stored = {seat.name: seat.place for seat in Seat.objects.filter(game=game)}
    assert stored == {"Anna": 1, "Cleo": 2, "Ben": 3, "Marek": 4}
    marek = Person.objects.get(circle=circle, name="Marek")
    anna = Person.objects.get(circle=circle, name="Anna")
    places = game_records(marek)[0].places()
    assert places[marek.pk] == 4
    assert places[anna.pk] == 1


def test_a_player_who_comes_back_before_the_end_is_ranked_by_total_again(client):
    game = marek_leaves()
    Seat.objects.filter(game=game, name="Marek").update(active=True)
    game.recompute_totals()
    assert Seat.objects.get(game=game, name="Marek").place == 1


def test_the_circles_year_gives_the_win_to_anna_not_to_marek(client):
    circle = CircleFactory()
    game = marek_leaves(circle)
    year = game.finished_at.year
    body = client.get(f"/en/circles/{circle.viewer_token}/year/{year}/").content.decode()
    wins = {
        html.unescape(name): int(re.search(r"<dt>Wins</dt><dd>(\d+)</dd>", stats).group(1))
        for name, stats in re.findall(
            r'<h3 class="year-name">([^<]+)</h3>\s*<dl class="stats">(.*?)</dl>', body, re.S
        )
    }
    assert wins == {"Anna": 1, "Ben": 0, "Cleo": 0, "Marek": 0}
