"""The arithmetic of a player's record (scorepad/stats.py, plain Python): ratings, wins,
deals, streaks and head-to-head, from plain game records, no database."""

from pathlib import Path

import pytest

from scorepad.stats import (
    GameRecord,
    Streaks,
    head_to_head,
    player_records,
    rate,
    rating_chart,
    streaks,
)
from tests.test_import_graph import ROOT, imported_names

CLASSIC = "classic"
NORDIC = "contract-nordic"


def classic_game(key, winners, players=("A", "B", "C"), finished=True):
    """A classic game of one deal per winner, each paying 1 per other player."""
    deals = []
    for winner in winners:
        deals.append({p: (len(players) - 1 if p == winner else -1) for p in players})
    return GameRecord(key, CLASSIC, tuple(players), tuple(deals), finished)


def penalty_game(key, deals, players=("A", "B", "C"), finished=True):
    return GameRecord(key, NORDIC, tuple(players), tuple(deals), finished)


def test_the_stats_module_imports_no_django():
    path = ROOT / "scorepad" / "stats.py"
    names = [name for _line, name in imported_names(path.read_text(), "scorepad.stats")]
    assert names
    assert not [n for n in names if n.split(".")[0] == "django"]
    assert Path(path).exists()


def test_places_come_from_the_counted_deals_highest_first_in_classic():
    game = classic_game(1, ["B", "B", "A"])
    assert game.places() == {"B": 1, "A": 2, "C": 3}


def test_places_are_lowest_first_in_a_penalty_game_and_ties_share_a_place():
    game = penalty_game(1, [{"A": 0, "B": 20, "C": 20}])
    assert game.places() == {"A": 1, "B": 2, "C": 2}


def test_the_player_who_always_finishes_first_is_rated_highest():
    games = [classic_game(i, ["A", "A", "B"]) for i in range(4)]  # A first, B second, C last
    ratings, history = rate(games)
    assert ratings["A"].mu > ratings["B"].mu > ratings["C"].mu
    assert [len(history[p]) for p in "ABC"] == [4, 4, 4]
    # Every game makes the rating surer.
    sigmas = [r.sigma for r in history["A"]]
    assert sigmas == sorted(sigmas, reverse=True)
    assert sigmas[0] < 25 / 3


def test_players_who_always_tie_keep_equal_ratings():
    games = [penalty_game(i, [{"A": 10, "B": 10, "C": 10}]) for i in range(3)]
    ratings, _ = rate(games)
    assert ratings["A"] == ratings["B"] == ratings["C"]


def test_a_game_in_progress_is_not_rated():
    ratings, history = rate([classic_game(1, ["A"], finished=False)])
    assert ratings == {}
    assert history == {}


def test_the_order_of_the_games_matters_the_latest_weighs_more():
    early = rate([classic_game(1, ["A"]), classic_game(2, ["B"])])[0]
    late = rate([classic_game(2, ["B"]), classic_game(1, ["A"])])[0]
    assert early["B"].mu > early["A"].mu
    assert late["A"].mu > late["B"].mu


def test_head_to_head_counts_finished_games_both_sat_at():
    games = [
        classic_game(1, ["A"]),  # A ahead of B
        classic_game(2, ["B"]),  # B ahead of A
        classic_game(3, ["A", "A"]),  # A ahead
        penalty_game(4, [{"A": 5, "B": 5, "C": 0}]),  # level
        classic_game(5, ["A"], players=("A", "C")),  # B not there
        classic_game(6, ["B"], finished=False),  # not finished
    ]
    h = head_to_head(games, "A", "B")
    assert (h.games, h.ahead, h.behind, h.level) == (4, 2, 1, 1)
    back = head_to_head(games, "B", "A")
    assert (back.games, back.ahead, back.behind, back.level) == (4, 1, 2, 1)


@pytest.mark.parametrize(
    ("results", "expected"),
    [
        ([], Streaks(0, 0)),
        ([True, True, False, True, True, True], Streaks(3, 3)),
        ([True, True, True, False, False], Streaks(3, -2)),
        ([False], Streaks(0, -1)),
        ([False, True], Streaks(1, 1)),
    ],
)
def test_streaks(results, expected):
    assert streaks(results) == expected


def test_a_streak_says_won_and_not_won_now():
    assert (Streaks(3, -2).won_now, Streaks(3, -2).not_won_now) == (0, 2)
    assert (Streaks(3, 3).won_now, Streaks(3, 3).not_won_now) == (3, 0)


def test_a_player_record_counts_wins_deals_and_streaks_per_variant():
    games = [
        classic_game(1, ["A", "B", "A"]),  # A wins: deals +2, -1, +2
        classic_game(2, ["B"]),  # B wins: A -1
        classic_game(3, ["A"], finished=False),  # in progress: its deal counts, no win
        penalty_game(4, [{"A": 0, "B": 10, "C": 25}, {"A": 40, "B": 0, "C": 5}]),  # C wins
    ]
    classic, nordic = player_records(games, "A")
    assert (classic.variant, classic.games, classic.finished, classic.wins) == (CLASSIC, 3, 2, 1)
    assert classic.win_rate == 0.5
    assert classic.deals == 5
    assert classic.average == pytest.approx((2 - 1 + 2 - 1 + 2) / 5)
    assert (classic.best, classic.worst) == (2, -1)
    assert classic.streaks == Streaks(1, -1)
    assert classic.rating is not None
    assert len(classic.history) == 2
    assert classic.rank is not None
    assert classic.rated == 3
    assert [(h.opponent, h.games, h.ahead, h.behind, h.level) for h in classic.head_to_head] == [
        ("B", 2, 1, 1, 0),
        ("C", 2, 1, 0, 1),  # game 2: A and C both paid B, level second
    ]
    # Penalty game: the best deal is the lowest.
    assert (nordic.best, nordic.worst, nordic.wins) == (0, 40, 0)


def test_the_rank_is_by_the_conservative_rating():
    games = [classic_game(i, ["A", "A", "B"]) for i in range(3)]
    ranks = {p: player_records(games, p)[0].rank for p in "ABC"}
    assert ranks == {"A": 1, "B": 2, "C": 3}


def test_a_variant_never_played_has_no_record():
    assert player_records([classic_game(1, ["B"], players=("B", "C"))], "A") == []


def test_the_rating_chart_draws_the_line_and_the_band_from_the_start():
    _ratings, history = rate([classic_game(i, ["A"]) for i in range(3)])
    chart = rating_chart(history["A"])
    assert chart is not None
    (line,) = chart.series
    assert len(line.points.split()) == 4  # the start and three games
    assert len(chart.band.split()) == 8  # upper edge and lower edge
    assert chart.grid.count("M") == 4  # a grid line at the start and at each game
    ys = [float(p.split(",")[1]) for p in line.points.split()]
    assert ys[-1] < ys[0]  # A's rating rose: higher on the chart (smaller y)
    assert chart.low < 25 < chart.high
    assert rating_chart([]) is None


def test_a_player_who_missed_deals_counts_only_the_deals_played_and_a_starting_total():
    game = GameRecord(
        1,
        NORDIC,
        ("A", "B", "C"),
        ({"A": 0, "B": 20}, {"A": 5, "B": 0, "C": 10}),  # C joined for deal 2
        True,
        start={"C": 30},
    )
    assert game.places() == {"A": 1, "B": 2, "C": 3}  # A 5, B 20, C 30 + 10
    [record] = player_records([game], "C")
    assert (record.deals, record.average, record.best) == (1, 10, 10)
