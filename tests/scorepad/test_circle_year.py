"""A circle's year (issue 27): per variant, the finished games and evenings of one year, and
each player's best deal, longest winning streak, the rival they most often finish just
behind and the one they play most with. The figures from small hand-made games (plain
Python, scorepad/stats.py), then the page: reached through either link, changing nothing,
in a fixed number of queries, with merged people counted as one."""

import datetime as dt
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from scorepad.models import Circle, Game, Person
from scorepad.stats import GameRecord, best_deal, circle_year, directly_above
from tests.factories import ACTOR, CircleFactory, GameFactory, record_classic, record_penalty

CLASSIC = "classic"
NORDIC = "contract-nordic"
LANGUAGES = ["en", "de", "nb", "pl", "fi", "es"]


def game(key, deals, players=("A", "B", "C"), variant=CLASSIC, finished=True, evening=None):
    return GameRecord(key, variant, tuple(players), tuple(deals), finished, evening=evening)


def won_by(key, winner, players=("A", "B", "C"), **kw):
    """A classic game of one deal that ``winner`` goes out in, the others paying 1 each."""
    deal = {p: (len(players) - 1 if p == winner else -1) for p in players}
    return game(key, [deal], players, **kw)


def ranked(key, order, **kw):
    """A penalty game whose places follow ``order`` (a list of players or tied groups)."""
    deal = {}
    for points, group in enumerate(order):
        for p in group if isinstance(group, tuple) else (group,):
            deal[p] = points * 10
    return game(key, [deal], tuple(deal), variant=NORDIC, **kw)


def figures(games, player, variant=CLASSIC):
    (part,) = [v for v in circle_year(games) if v.variant == variant]
    return {r.player: r for r in part.players}[player]


# --- the figures ------------------------------------------------------------------------------


def test_best_deal_is_the_highest_payment_in_classic_and_the_lowest_penalty_else():
    classic = [game(1, [{"A": 6, "B": -6}, {"A": -2, "B": 2}], ("A", "B"))]
    assert best_deal(classic, "A").points == 6
    assert best_deal(classic, "B").points == 2
    penalty = [game(2, [{"A": 0, "B": 35}, {"A": 40, "B": 5}], ("A", "B"), variant=NORDIC)]
    assert best_deal(penalty, "A").points == 0
    assert best_deal(penalty, "B").points == 5


def test_of_equal_best_deals_the_earliest_counts():
    games = [won_by(1, "B"), won_by(2, "A"), won_by(3, "A")]
    assert best_deal(games, "A").game == 2
    assert figures(games, "A").best.game == 2


def test_the_longest_winning_streak_counts_finished_games_won_in_a_row_in_date_order():
    winners = ["A", "A", "B", "A", "A", "A", "C"]
    games = [won_by(i, w) for i, w in enumerate(winners)]
    assert figures(games, "A").longest_streak == 3
    assert figures(games, "B").longest_streak == 1
    assert figures(games, "C").longest_streak == 1
    assert figures(games, "A").wins == 5
    assert figures(games, "A").games == 7


def test_a_game_in_progress_counts_for_nothing():
    games = [won_by(1, "A"), won_by(2, "B", finished=False), won_by(3, "A")]
    a = figures(games, "A")
    assert a.games == 2
    assert a.longest_streak == 2
    assert circle_year([won_by(1, "A", finished=False)]) == []
    big = [game(1, [{"A": 2, "B": -2}]), game(2, [{"A": 50, "B": -50}], finished=False)]
    assert figures(big, "A").best.points == 2


def test_the_rival_is_the_player_placed_directly_above_most_often():
    games = [
        ranked(1, ["B", "A", "C"]),
        ranked(2, ["C", "B", "A"]),  # B directly above A, not C
        ranked(3, ["A", "C", "B"]),  # A first: nobody above
    ]
    assert figures(games, "A", NORDIC).rival.other == "B"
    assert figures(games, "A", NORDIC).rival.times == 2
    assert figures(games, "C", NORDIC).rival.other == "A"


def test_tied_players_above_are_both_directly_above_and_a_tie_in_count_goes_to_the_first_met():
    assert sorted(directly_above({"A": 3, "B": 2, "C": 2, "D": 1}, "A")) == ["B", "C"]
    assert directly_above({"A": 1, "B": 1}, "A") == []  # first place shared: a win
    games = [ranked(1, [("B", "C"), "A"]), ranked(2, ["D", "B", "C", "A"])]
    rival = figures(games, "A", NORDIC).rival
    assert (rival.other, rival.times) == ("C", 2)  # C twice, B once
    games = [ranked(1, ["C", "A", "B"]), ranked(2, ["B", "A", "C"])]
    assert figures(games, "A", NORDIC).rival.other == "C"  # one each: C came first


def test_a_winner_of_every_game_has_no_rival():
    assert figures([won_by(1, "A"), won_by(2, "A")], "A").rival is None


def test_plays_most_with_counts_shared_games_ties_to_the_first_met():
    games = [
        won_by(1, "A", ("A", "B")),
        won_by(2, "A", ("A", "C", "D")),
        won_by(3, "C", ("A", "C")),
    ]
    partner = figures(games, "A").partner
    assert (partner.other, partner.times) == ("C", 2)
    assert figures(games, "B").partner.other == "A"
    assert figures(games, "D").partner.other == "A"  # A and C once each: A sat first


def test_each_variant_has_its_own_year_and_evenings_count_once():
    games = [
        won_by(1, "A", evening=10),
        won_by(2, "B", evening=10),
        ranked(3, ["C", "B", "A"], evening=11),
        won_by(4, "A"),
    ]
    parts = {v.variant: v for v in circle_year(games)}
    assert list(parts) == [CLASSIC, NORDIC]  # the order of the rules pages
    assert (parts[CLASSIC].games, parts[CLASSIC].evenings) == (3, 1)
    assert (parts[NORDIC].games, parts[NORDIC].evenings) == (1, 1)
    assert figures(games, "A").longest_streak == 1  # the Nordic game is not in the classic year
    assert figures(games, "C", NORDIC).longest_streak == 1


# --- the page ---------------------------------------------------------------------------------


def finish(g, when=None):
    g.refresh_from_db()
    g.end(version=g.version, once=f"end-{g.pk:020d}", actor=ACTOR)
    if when is not None:
        Game.objects.filter(pk=g.pk).update(finished_at=when)


def play(circle, names, winners, when=None):
    g = GameFactory(players=names, circle=circle)
    for winner in winners:
        record_classic(g, winner)
    finish(g, when)
    return g


def year_url(circle, year, token=None, lang="en"):
    with translation.override(lang):
        return reverse("circle-year", args=[token or circle.viewer_token, year])


def figures_on(body):
    """Each player's figures on the page: {name: {label: text}}."""
    out = {}
    for name, dl in re.findall(
        r'<h3 class="year-name">([^<]+)</h3>\s*<dl class="stats">(.*?)</dl>', body, re.S
    ):
        out[name] = {
            dt_: re.sub(r"<[^>]+>", "", dd).strip()
            for dt_, dd in re.findall(r"<dt>([^<]+)</dt><dd>(.*?)</dd>", dl, re.S)
        }
    return out


WHEN = timezone.make_aware(dt.datetime(2025, 6, 1, 20))


@pytest.fixture
def year(db):
    """Anna, Ben and Cleo's 2025 in the classic game, a game of 2024, one still going."""
    circle = CircleFactory()
    play(circle, ["Anna", "Ben", "Cleo"], [0, 0], WHEN)
    play(circle, ["Anna", "Ben", "Cleo"], [1], WHEN + dt.timedelta(days=1))
    play(circle, ["Anna", "Ben", "Cleo"], [1, 2], WHEN + dt.timedelta(days=2))
    play(circle, ["Anna", "Ben"], [0], WHEN - dt.timedelta(days=365))
    going = GameFactory(players=["Anna", "Ben", "Cleo"], circle=circle)
    record_classic(going, 2)
    return circle


@pytest.mark.django_db
def test_the_circle_page_offers_each_year_with_a_finished_game(year, client):
    for token in (year.viewer_token, year.editor_token):
        body = client.get(reverse("circle", args=[token])).content.decode()
        assert year_url(year, 2025, token) in body
        assert year_url(year, 2024, token) in body
    assert client.get(year_url(year, 2023)).status_code == 404


@pytest.mark.django_db
def test_the_year_shows_each_players_figures(year, client):
    body = client.get(year_url(year, 2025)).content.decode()
    shown = figures_on(body)
    assert set(shown) == {"Anna", "Ben", "Cleo"}
    assert shown["Anna"]["Games"] == "3"  # the game in progress and 2024's do not count
    assert shown["Anna"]["Wins"] == "1"
    assert shown["Ben"]["Longest winning streak"] == "2 games"  # the second and third
    assert shown["Anna"]["Best deal"].startswith("+")  # a payment received, signed
    # Cleo is behind Anna in the first game, behind Ben in the second: a tie, the first met.
    assert shown["Cleo"]["Finishes most often just behind"] == "Anna, 1 time"
    assert shown["Anna"]["Finishes most often just behind"] == "Ben, 2 times"  # 2nd, 3rd
    assert "3 finished games" in body


@pytest.mark.django_db
def test_merged_people_count_as_one(db, client):
    circle = CircleFactory()
    play(circle, ["Anna", "Ben"], [0], WHEN)
    play(circle, ["Annie", "Ben"], [0], WHEN + dt.timedelta(days=1))
    annie, anna = (Person.objects.get(circle=circle, name=n) for n in ("Annie", "Anna"))
    circle.merge(annie.pk, anna.pk, version=circle.version, once="merge-annie-x", actor=ACTOR)
    shown = figures_on(client.get(year_url(circle, 2025)).content.decode())
    assert set(shown) == {"Anna", "Ben"}
    assert shown["Anna"]["Games"] == "2"
    assert shown["Anna"]["Longest winning streak"] == "2 games"
    assert shown["Ben"]["Plays most with"] == "Anna, 2 games"


@pytest.mark.django_db
def test_a_viewer_link_sees_the_year_and_cannot_change_anything(year):
    viewer = Client()
    before = (
        Circle.objects.get(pk=year.pk).version,
        list(Game.objects.values_list("version", flat=True)),
    )
    answer = viewer.get(year_url(year, 2025))
    assert answer.status_code == 200
    body = answer.content.decode()
    assert "<form" not in body
    assert year.editor_token not in body
    assert 'name="csrfmiddlewaretoken"' not in body
    assert viewer.post(year_url(year, 2025), {"version": 1}).status_code == 405
    after = (
        Circle.objects.get(pk=year.pk).version,
        list(Game.objects.values_list("version", flat=True)),
    )
    assert after == before


@pytest.mark.django_db
def test_the_year_needs_the_same_queries_for_one_game_as_for_many(client):
    circle = CircleFactory()
    play(circle, ["Anna", "Ben", "Cleo"], [0, 1], WHEN)
    with CaptureQueriesContext(connection) as one:
        assert client.get(year_url(circle, 2025)).status_code == 200
    for day in range(1, 6):
        g = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"], circle=circle)
        record_penalty(g, 0, {1: 10 * day, 2: 5})
        finish(g, WHEN + dt.timedelta(days=day))
        play(circle, ["Anna", "Ben", "Dora"], [day % 3], WHEN + dt.timedelta(days=day))
    with CaptureQueriesContext(connection) as many:
        body = client.get(year_url(circle, 2025)).content.decode()
    assert "Dora" in body
    assert "11 finished games" in body
    assert len(many) == len(one), [q["sql"] for q in many.captured_queries]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_year_speaks_every_language(year, client, lang):
    body = client.get(year_url(year, 2025, lang=lang)).content.decode()
    assert f'<html lang="{lang}"' in body
    english = ["Finishes most often just behind", "Plays most with", "finished games"]
    if lang != "en":
        assert not [w for w in english if w in body], lang
    assert len(figures_on(body)) == 3


@pytest.mark.django_db
def test_this_year_s_game_still_going_counts_for_nothing_this_year(client):
    """The year of today: a game finished and one still going, both started this year; only
    the finished one counts (a fixture of past years alone cannot tell)."""
    circle = CircleFactory()
    play(circle, ["Anna", "Ben"], [0])
    going = GameFactory(players=["Anna", "Ben"], circle=circle)
    record_classic(going, 1)
    record_classic(going, 1)
    this_year = timezone.localtime().year
    shown = figures_on(client.get(year_url(circle, this_year)).content.decode())
    assert shown["Anna"]["Games"] == "1"
    assert shown["Ben"]["Wins"] == "0"
    assert shown["Anna"]["Wins"] == "1"


@pytest.mark.django_db
def test_the_best_deal_and_its_day_read_apart_and_finnish_counts_one_time(year, client):
    """Issue 45, words: the best deal's score and its date were run together ("0 7.12.2026");
    a dot stands between them. Finnish counts one time as "1 kerta" (not "kerran", once)."""
    shown = figures_on(client.get(year_url(year, 2025)).content.decode())
    assert re.fullmatch(r"[+−-]?\d+\s+·\s+\d\d/\d\d/2025", shown["Anna"]["Best deal"]), shown
    finnish = figures_on(client.get(year_url(year, 2025, lang="fi")).content.decode())
    assert finnish["Cleo"]["Useimmin heti edellä sijoittunut"] == "Anna, 1 kerta"
