"""A club tournament's tables, seatings and ranking (docs/rules.md#tournament): the worked
examples by hand, the draw against the published generator, and properties over random
tournaments."""

import hashlib
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.tournament import (
    APART,
    BEST,
    DRAW,
    DROPPED,
    LOT,
    POINTS,
    RELATIVE,
    RELATIVE_FIRST,
    RESULT,
    Seating,
    Stream,
    TableResult,
    TournamentError,
    draw,
    lots,
    meetings,
    placement_points,
    rank,
    repeated_pairs,
    seat_apart,
    seat_by_result,
    series_scores,
    sizes_between,
    swap,
    table_sizes,
)
from rules.engine.variants import CLASSIC, NORDIC, ROMME, VARIANT_IDS, get_variant

romme = get_variant(ROMME)
nordic = get_variant(NORDIC)
classic = get_variant(CLASSIC)
SEED = "482913"
F = Fraction


# --- the tables -------------------------------------------------------------------------------


def test_thirteen_romme_players_sit_four_three_three_three():
    assert table_sizes(13, romme) == (4, 3, 3, 3)


def test_thirteen_nordic_players_sit_four_four_five():
    assert table_sizes(13, nordic) == (4, 4, 5)


@pytest.mark.parametrize(
    ("players", "variant", "sizes"),
    [
        (12, romme, (4, 4, 4)),
        (5, romme, (3, 2)),  # one table of five is not allowed: no bye, so 3 + 2
        (5, classic, (5,)),  # (5-4)² = 1 beats 3 + 2: 1 + 4
        (6, classic, (3, 3)),  # 2 beats one table of six (4) and 4 + 2 (4)
        (10, nordic, (4, 3, 3)),  # 5 + 5 ties at 2: more tables of four
        (3, nordic, (3,)),
        (2, romme, (2,)),
    ],
)
def test_the_sizes_nearest_four(players, variant, sizes):
    assert table_sizes(players, variant) == sizes


def test_a_range_without_four_is_measured_against_four_too():
    assert sizes_between(12, 5, 8) == (6, 6)  # a table of twelve is too big
    assert sizes_between(11, 5, 8) == (5, 6)
    assert sizes_between(7, 2, 3) == (3, 2, 2)


def test_too_few_players_for_a_table_are_refused_with_the_range():
    with pytest.raises(TournamentError) as caught:
        table_sizes(2, nordic)
    assert str(caught.value) == (
        "Tables of this game seat 3 to 5 players: there is no way to seat 2."
    )
    with pytest.raises(TournamentError):
        sizes_between(7, 5, 5)  # no even split reaches 7 with fives


def partitions(n, low, high, smallest=None):
    """Every multiset of table sizes from ``low`` to ``high`` that sums to ``n``."""
    smallest = smallest or low
    if n == 0:
        yield ()
        return
    for size in range(smallest, min(high, n) + 1):
        for rest in partitions(n - size, low, high, size):
            yield (size, *rest)


@given(st.integers(1, 28), st.integers(1, 6), st.integers(0, 6))
def test_the_sizes_are_the_nearest_four_of_every_way_to_seat_everybody(n, low, extra):
    """Brute force: of all the ways to seat n, the least sum of (size − 4)², then the most
    tables of four, then the fewest tables."""
    high = low + extra
    every = list(partitions(n, low, high))
    if not every:
        with pytest.raises(TournamentError):
            sizes_between(n, low, high)
        return
    best = min(every, key=lambda p: (sum((s - 4) ** 2 for s in p), -p.count(4), len(p)))
    sizes = sizes_between(n, low, high)
    assert sorted(sizes) == sorted(best)
    assert sum(sizes) == n
    assert all(low <= s <= high for s in sizes)
    assert list(sizes) == sorted(sizes, key=lambda s: (abs(s - 4), -s))


# --- the draw ---------------------------------------------------------------------------------


def published_number(seed, purpose, k):
    """The generator as docs/rules.md#tournament states it, written again here."""
    digest = hashlib.sha256(f"{seed}/{purpose}/{k}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def published_shuffle(items, seed, purpose):
    items, k = list(items), 0
    for i in range(len(items) - 1, 0, -1):
        limit = 2**64 - 2**64 % (i + 1)
        while (number := published_number(seed, purpose, k)) >= limit:
            k += 1
        k += 1
        j = number % (i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def test_the_first_draw_is_the_published_shuffle_cut_into_tables():
    seating = draw(range(1, 14), romme, SEED)
    order = published_shuffle(range(1, 14), SEED, "draw 1")
    assert seating == Seating(
        (tuple(order[:4]), *(tuple(order[i : i + 3]) for i in (4, 7, 10))), DRAW, SEED
    )
    # Pinned, so that a change of the generator cannot pass unnoticed.
    assert seating.tables == ((12, 2, 5, 3), (1, 4, 13), (8, 11, 7), (9, 6, 10))


def test_the_stream_is_sha256_in_counter_mode():
    stream = Stream(SEED, "draw 1")
    assert [stream.next() for _ in range(3)] == [
        published_number(SEED, "draw 1", k) for k in range(3)
    ]


def test_a_series_drawn_again_uses_its_own_stream():
    again = draw(range(1, 14), romme, SEED, series=2)
    order = published_shuffle(range(1, 14), SEED, "draw 2")
    assert again.players == tuple(order)
    assert again != draw(range(1, 14), romme, SEED)


def test_a_draw_needs_a_seed():
    with pytest.raises(ValueError, match="a seed is a non-empty text"):
        draw([1, 2, 3], romme, "")


@given(st.integers(2, 60), st.sampled_from(VARIANT_IDS), st.text(min_size=1, max_size=12))
def test_the_same_seed_gives_the_same_draw(n, variant_id, seed):
    variant = get_variant(variant_id)
    if n < variant.min_players:
        return
    first = draw(range(n), variant, seed)
    assert draw(range(n), variant, seed) == first
    assert first.seed == seed


# --- seatings ---------------------------------------------------------------------------------


def seated_once(seating, players):
    return Counter(seating.players) == Counter(players)


def history_of(n, variant, seed, series):
    return [draw(range(n), variant, seed, k) for k in range(1, series + 1)]


@given(
    st.integers(2, 60),
    st.sampled_from(VARIANT_IDS),
    st.integers(0, 4),
    st.text(min_size=1, max_size=6),
)
def test_every_player_is_seated_exactly_once_at_tables_of_the_variant(n, variant_id, past, seed):
    variant = get_variant(variant_id)
    if n < variant.min_players:
        return
    players = list(range(n))
    history = history_of(n, variant, seed, past)
    for seating in (
        draw(players, variant, seed),
        seat_by_result(players, variant),
        seat_apart(players, variant, history, seed, past + 1),
    ):
        assert seated_once(seating, players)
        assert tuple(len(t) for t in seating.tables) == table_sizes(n, variant)


def test_by_the_result_the_top_four_sit_at_table_one():
    seating = seat_by_result([7, 2, 9, 1, 4, 3, 8, 5, 6, 10, 11, 12, 13], romme)
    assert seating == Seating(((7, 2, 9, 1), (4, 3, 8), (5, 6, 10), (11, 12, 13)), RESULT)


def test_by_the_result_the_nordic_table_of_five_is_the_last():
    seating = seat_by_result(range(1, 14), nordic)
    assert seating.tables == ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12, 13))


def test_seated_apart_nobody_meets_again_while_that_can_be():
    """Sixteen players at four tables: after one series, another without a repeat exists (each
    old table spread over the four new ones), and the seating finds one."""
    first = seat_by_result(range(16), romme)
    second = seat_apart(range(16), romme, [first], SEED, 2)
    assert second.how == APART
    assert second.seed == SEED
    assert repeated_pairs([first, second]) == 0
    assert seat_apart(range(16), romme, [first], SEED, 2) == second


@given(
    st.integers(4, 40),
    st.sampled_from(VARIANT_IDS),
    st.integers(1, 8),
    st.text(min_size=1, max_size=6),
    st.randoms(use_true_random=False),
)
def test_seated_apart_never_repeats_more_pairs_than_by_the_result(n, variant_id, past, seed, rnd):
    variant = get_variant(variant_id)
    if n < variant.min_players:
        return
    history = history_of(n, variant, seed, past)
    order = list(range(n))
    rnd.shuffle(order)  # a running result
    apart = seat_apart(order, variant, history, seed, past + 1)
    by_result = seat_by_result(order, variant)
    assert repeated_pairs([*history, apart]) <= repeated_pairs([*history, by_result])


def test_meetings_and_repeats_count_each_pair():
    one = Seating(((1, 2, 3), (4, 5)), DRAW, SEED)
    two = Seating(((1, 2, 4), (3, 5)), DRAW, SEED)
    met = meetings([one, two, one])
    assert met[frozenset((1, 2))] == 3
    assert met[frozenset((4, 5))] == 2
    assert frozenset((1, 5)) not in met
    # 1-2 three times (2), 1-3 twice, 2-3 twice, 4-5 twice, 3-5 once: 2 + 1 + 1 + 1 = 5
    assert repeated_pairs([one, two, one]) == 5


# --- the director's swap ----------------------------------------------------------------------


def test_the_director_swaps_two_players_of_different_tables():
    seating = seat_by_result(range(1, 14), romme)
    swapped = swap(seating, 2, 9)
    assert swapped.tables == ((1, 9, 3, 4), (5, 6, 7), (8, 2, 10), (11, 12, 13))
    assert swapped.swaps == ((2, 9),)
    assert swapped.how == RESULT
    assert seating.tables[0] == (1, 2, 3, 4)  # the seating it came from is unchanged


def test_a_swap_of_a_player_who_is_not_seated_is_refused():
    seating = seat_by_result(range(1, 14), romme)
    with pytest.raises(TournamentError) as caught:
        swap(seating, 2, 14)
    assert str(caught.value) == "14 is not seated at any table."


def test_a_swap_of_a_player_with_themselves_changes_nothing():
    seating = seat_by_result(range(1, 14), romme)
    assert swap(seating, 5, 5) == seating


@given(st.integers(2, 40), st.data())
def test_a_swap_keeps_every_player_seated_once(n, data):
    seating = draw(range(n), romme, SEED)
    a = data.draw(st.integers(0, n - 1))
    b = data.draw(st.integers(0, n - 1))
    swapped = swap(seating, a, b)
    assert seated_once(swapped, range(n))
    assert [len(t) for t in swapped.tables] == [len(t) for t in seating.tables]
    if a != b:
        assert swapped.table_of(a) == seating.table_of(b)
        assert swapped.table_of(b) == seating.table_of(a)


# --- placement points and the relative score ---------------------------------------------------


def test_placement_points_scale_every_table_to_a_table_of_four():
    assert [placement_points(4, r) for r in (1, 2, 3, 4)] == [3, 2, 1, 0]
    assert [placement_points(3, r) for r in (1, 2, 3)] == [3, F(3, 2), 0]
    assert [placement_points(5, r) for r in (1, 2, 3, 4, 5)] == [3, F(9, 4), F(3, 2), F(3, 4), 0]
    assert placement_points(2, 1) == 3
    assert placement_points(2, 2) == 0


def test_tied_players_share_the_mean_of_the_places_they_span():
    assert placement_points(4, 2, tied=2) == F(3, 2)  # (2 + 1) / 2
    assert placement_points(3, 1, tied=2) == F(9, 4)  # (3 + 1.5) / 2
    assert placement_points(4, 1, tied=4) == F(3, 2)


def test_a_nordic_table_of_five():
    scores = series_scores([TableResult({"a": 40, "b": 95, "c": 60, "d": 120, "e": 60})], nordic)
    assert {p: s.points for p, s in scores.items()} == {
        "a": 3,
        "c": F(15, 8),  # places 2 and 3 shared: (2.25 + 1.5) / 2
        "e": F(15, 8),
        "b": F(3, 4),
        "d": 0,
    }
    # The mean penalty is 75: relative = 75 − own.
    assert {p: s.relative for p, s in scores.items()} == {
        "a": 35,
        "b": -20,
        "c": 15,
        "d": -45,
        "e": 15,
    }


def test_the_classic_relative_score_is_the_money_won_over_the_table_size():
    scores = series_scores([TableResult({"a": 12, "b": -4, "c": -8})], classic)
    assert {p: s.relative for p, s in scores.items()} == {"a": 4, "b": F(-4, 3), "c": F(-8, 3)}
    assert {p: s.points for p, s in scores.items()} == {"a": 3, "b": F(3, 2), "c": 0}


def test_a_player_who_left_is_last_at_the_table_whatever_the_total():
    scores = series_scores([TableResult({1: 80, 2: 120, 3: 95, 4: 45}, frozenset({4}))], nordic)
    assert [scores[p].place for p in (1, 2, 3, 4)] == [1, 3, 2, 4]
    assert scores[4].points == 0
    assert scores[4].relative == 40  # the money follows the total (mean 85 − 45)


@given(
    st.lists(st.integers(0, 12), min_size=2, max_size=12),
    st.sampled_from([ROMME, NORDIC, CLASSIC]),
    st.data(),
)
def test_a_tables_placement_points_sum_to_the_scaled_table_of_four(scores, variant_id, data):
    """A table of four shares 3 + 2 + 1 + 0 = 6: 1.5 a player; so does every table, ties and
    players who left included."""
    players = list(range(len(scores)))
    if variant_id == CLASSIC:
        scores = [*scores[1:], -sum(scores[1:])]
    left = data.draw(st.frozensets(st.sampled_from(players)))
    result = TableResult(dict(zip(players, scores, strict=True)), left)
    got = series_scores([result], get_variant(variant_id))
    assert sum(s.points for s in got.values()) == F(6, 4) * len(players)
    assert sum(s.relative for s in got.values()) == 0


# --- the rules page's worked example ----------------------------------------------------------

# docs/rules.md#tournament: one series of 13 Rommé players at tables of 4, 3, 3, 3; number 13
# left table 4 after deal 4 with 25 points and did not come back.
EXAMPLE = [
    TableResult({1: 40, 2: 85, 3: 85, 4: 150}),
    TableResult({5: 30, 6: 90, 7: 120}),
    TableResult({8: 60, 9: 60, 10: 90}),
    TableResult({11: 20, 12: 75, 13: 25}, frozenset({13})),
]


def test_the_rules_page_example_placement_points_and_relative_scores():
    scores = series_scores(EXAMPLE, romme)
    assert {p: s.points for p, s in scores.items()} == {
        1: 3, 2: F(3, 2), 3: F(3, 2), 4: 0,
        5: 3, 6: F(3, 2), 7: 0,
        8: F(9, 4), 9: F(9, 4), 10: 0,
        11: 3, 12: F(3, 2), 13: 0,
    }  # fmt: skip
    assert {p: s.relative for p, s in scores.items()} == {
        1: 50, 2: 5, 3: 5, 4: -60,
        5: 50, 6: -10, 7: -40,
        8: 10, 9: 10, 10: -20,
        11: 20, 12: -35, 13: 15,
    }  # fmt: skip


def test_the_rules_page_example_ranking_with_the_tie_breaks_applied():
    assert lots(range(1, 14), SEED) == {
        7: 1, 2: 2, 1: 3, 8: 4, 11: 5, 13: 6, 12: 7, 5: 8, 9: 9, 3: 10, 10: 11, 6: 12, 4: 13
    }  # fmt: skip
    ranking = rank(range(1, 14), [EXAMPLE], romme, SEED)
    assert [(r.place, r.player, r.separated_by) for r in ranking.rows] == [
        (1, 1, None),
        (2, 5, LOT),  # 3 points and 50 each, best series 3 each: lot 3 before lot 8
        (3, 11, RELATIVE),
        (4, 8, POINTS),
        (5, 9, LOT),
        (6, 2, POINTS),
        (7, 3, LOT),
        (8, 6, RELATIVE),
        (9, 12, RELATIVE),
        (10, 10, POINTS),
        (11, 7, RELATIVE),
        (12, 4, RELATIVE),
        (13, 13, DROPPED),  # 25 points, the best relative score of table 4: still last
    ]
    assert ranking.rows[-1].dropped


def test_the_director_may_rank_by_the_relative_score_first():
    ranking = rank(range(1, 14), [EXAMPLE], romme, SEED, order=RELATIVE_FIRST)
    assert ranking.order == RELATIVE_FIRST
    assert [(r.player, r.separated_by) for r in ranking.rows] == [
        (1, None),
        (5, LOT),
        (11, RELATIVE),
        (8, RELATIVE),  # 10 after 20
        (9, LOT),
        (2, RELATIVE),
        (3, LOT),
        (6, RELATIVE),
        (10, RELATIVE),  # −20 before −35: its 0 points count only after
        (12, RELATIVE),
        (7, RELATIVE),
        (4, RELATIVE),
        (13, DROPPED),
    ]


def test_the_best_single_series_separates_equal_points_and_relative_scores():
    """a: 3 then 0; c: 0 then 3; b: 1.5 twice. All three have 3 points and relative 0; b's
    best series is 1.5, below the others' 3."""
    first = [TableResult({"a": 10, "b": 20, "c": 30})]
    second = [TableResult({"a": 30, "b": 20, "c": 10})]
    ranking = rank(["a", "b", "c"], [first, second], romme, SEED)
    assert [(r.points, r.relative) for r in ranking.rows] == [(3, 0)] * 3
    assert [(r.player, r.best, r.separated_by) for r in ranking.rows][2:] == [("b", F(3, 2), BEST)]
    assert ranking.rows[1].separated_by == LOT


# --- a whole tournament: 13 Rommé players over three series -------------------------------------


def test_thirteen_romme_players_over_three_series_with_a_late_entry_and_a_drop_out():
    """Players 1-12 are drawn at three tables of four; 13 enters late, before series 2, which
    is seated by the result at 4, 3, 3, 3; 1 leaves table 2 during series 2 with the table's
    lowest total and does not come back; series 3 seats the other twelve apart."""
    players = range(1, 14)
    first = draw(range(1, 13), romme, SEED)
    assert first.tables == ((11, 1, 7, 10), (8, 12, 6, 3), (4, 5, 2, 9))
    series1 = [
        TableResult({11: 35, 1: 60, 7: 60, 10: 120}),  # 3, 1.5, 1.5, 0; mean 68.75
        TableResult({8: 20, 12: 45, 6: 90, 3: 125}),  # 3, 2, 1, 0; mean 70
        TableResult({4: 15, 5: 70, 2: 80, 9: 95}),  # 3, 2, 1, 0; mean 65
    ]
    after1 = rank(players, [series1], romme, SEED)
    # 8 and 4 tie at 3 points, relative 50 and best 3: the lot (4 before 13); 13 entered late
    # with nothing, ahead of those who scored 0 at a table (their relative is below 0).
    assert after1.players == (8, 4, 11, 12, 5, 7, 1, 2, 6, 13, 9, 10, 3)
    assert after1.rows[9].series == (None,)

    second = seat_by_result(after1.players, romme)
    assert second.tables == ((8, 4, 11, 12), (5, 7, 1), (2, 6, 13), (9, 10, 3))
    series2 = [
        TableResult({8: 70, 4: 40, 11: 100, 12: 55}),  # 4: 3, 12: 2, 8: 1, 11: 0; mean 66.25
        TableResult({5: 70, 7: 30, 1: 20}, frozenset({1})),  # 7: 3, 5: 1.5, 1 left: 0; mean 40
        TableResult({2: 45, 6: 45, 13: 30}),  # 13: 3, 2 and 6: 0.75; mean 40
        TableResult({9: 25, 10: 55, 3: 100}),  # 3, 1.5, 0; mean 60
    ]
    after2 = rank(players, [series1, series2], romme, SEED)
    assert after2.players == (4, 7, 8, 12, 5, 13, 9, 11, 2, 6, 10, 3, 1)

    on = [p for p in after2.players if p != 1]
    third = seat_apart(on, romme, [first, second], SEED, 3)
    assert third.tables == ((4, 7, 13, 3), (5, 9, 11, 6), (8, 12, 2, 10))
    series3 = [
        TableResult({4: 50, 7: 25, 13: 25, 3: 80}),  # 7, 13: 2.5; 4: 1; 3: 0; mean 45
        TableResult({5: 10, 9: 60, 11: 35, 6: 95}),  # 5: 3, 11: 2, 9: 1, 6: 0; mean 50
        TableResult({8: 30, 12: 30, 2: 30, 10: 30}),  # all tied: 1.5 each, relative 0
    ]
    final = rank(players, [series1, series2, series3], romme, SEED)
    assert [(r.player, r.points, r.relative, r.separated_by) for r in final.rows] == [
        (4, 7, F("71.25"), None),
        (7, 7, F("38.75"), RELATIVE),
        (5, F("6.5"), 5, POINTS),
        (8, F("5.5"), F("46.25"), POINTS),
        (12, F("5.5"), F("36.25"), RELATIVE),
        (13, F("5.5"), 30, RELATIVE),
        (11, 5, 15, POINTS),
        (9, 4, -5, POINTS),
        (2, F("3.25"), -20, POINTS),
        (10, 3, F("-46.25"), POINTS),
        (6, F("1.75"), -70, POINTS),
        (3, 0, -130, POINTS),
        (1, F("1.5"), F("28.75"), DROPPED),
    ]
    rows = {r.player: r for r in final.rows}
    assert rows[13].series[0] is None
    assert rows[1].series[2] is None
    assert rows[1].series[1].place == 3  # left with 20, the lowest total: last at the table
    assert [r.place for r in final.rows] == list(range(1, 14))


def test_thirteen_nordic_players_sit_at_four_four_five_and_rank_across_the_sizes():
    seating = draw(range(1, 14), nordic, SEED)
    assert [len(t) for t in seating.tables] == [4, 4, 5]
    a, b, c = seating.tables
    results = [
        TableResult(dict(zip(a, (30, 60, 90, 120), strict=True))),
        TableResult(dict(zip(b, (30, 60, 90, 120), strict=True))),
        TableResult(dict(zip(c, (20, 50, 80, 110, 140), strict=True))),
    ]
    ranking = rank(range(1, 14), [results], nordic, SEED)
    points = {r.player: r.points for r in ranking.rows}
    assert [points[p] for p in a] == [3, 2, 1, 0]
    assert [points[p] for p in c] == [3, F(9, 4), F(3, 2), F(3, 4), 0]
    # The winners of the three tables: 3 points each; relative 45, 45 and 60 (mean 80 − 20).
    assert ranking.players[0] == c[0]
    assert ranking.rows[1].separated_by == RELATIVE
    assert {ranking.players[1], ranking.players[2]} == {a[0], b[0]}
    assert ranking.rows[2].separated_by == LOT


# --- the ranking as an order ------------------------------------------------------------------


@st.composite
def tournaments(draw_, variant_ids=(ROMME, NORDIC, CLASSIC)):
    """Some players, some series seated by the draw, random totals, some who left."""
    variant = get_variant(draw_(st.sampled_from(variant_ids)))
    n = draw_(st.integers(variant.min_players, 16))
    seed = draw_(st.text(min_size=1, max_size=6))
    series = []
    for k in range(1, draw_(st.integers(0, 3)) + 1):
        tables = []
        for table in draw(range(n), variant, seed, k).tables:
            totals = draw_(st.lists(st.integers(-5, 5), min_size=len(table), max_size=len(table)))
            if variant.id == CLASSIC:
                totals = [*totals[1:], -sum(totals[1:])]
            left = draw_(st.frozensets(st.sampled_from(table), max_size=1))
            tables.append(TableResult(dict(zip(table, totals, strict=True)), left))
        series.append(tables)
    dropped = draw_(st.frozensets(st.integers(0, n - 1), max_size=2))
    return variant, list(range(n)), series, seed, dropped


@given(
    tournaments(), st.sampled_from(["points", RELATIVE_FIRST]), st.randoms(use_true_random=False)
)
def test_the_ranking_is_a_total_order(tournament, order, rnd):
    variant, players, series, seed, dropped = tournament
    ranking = rank(players, series, variant, seed, dropped=dropped, order=order)
    assert sorted(ranking.players) == players
    assert [r.place for r in ranking.rows] == list(range(1, len(players) + 1))
    assert ranking.rows[0].separated_by is None
    assert all(r.separated_by is not None for r in ranking.rows[1:])
    # Whatever order the players are given in, the same ranking.
    shuffled = list(players)
    rnd.shuffle(shuffled)
    assert rank(shuffled, series, variant, seed, dropped=dropped, order=order) == ranking
    # Each separation is real: the criterion named differs, every one before it is equal.
    first = (POINTS, RELATIVE) if order == "points" else (RELATIVE, POINTS)
    criteria = [DROPPED, *first, BEST, LOT]

    def value(row, criterion):
        return {
            DROPPED: row.dropped,
            POINTS: -row.points,
            RELATIVE: -row.relative,
            BEST: -row.best,
            LOT: row.lot,
        }[criterion]

    for above, below in zip(ranking.rows, ranking.rows[1:], strict=False):
        at = criteria.index(below.separated_by)
        assert all(value(above, c) == value(below, c) for c in criteria[:at])
        assert value(above, criteria[at]) < value(below, criteria[at])
