"""The money of an evening: game money, the running ledger, standings, settle-up, carrying."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.evening import (
    EveningGame,
    from_cents,
    game_money,
    game_points,
    ledger,
    to_cents,
)
from rules.engine.scoring import ScoreError


def test_classic_money_is_the_total_times_the_stake():
    assert game_money({"Anna": 12, "Bo": -4, "Cy": -8}, "classic", Decimal("0.10")) == {
        "Anna": 120,
        "Bo": -40,
        "Cy": -80,
    }


def test_penalty_game_each_player_pays_each_lower_player_the_difference():
    # Anna 50, Bo 120, Cy 130: Bo pays Anna 70, Cy pays Anna 80 and Bo 10.
    points = game_points({"Anna": 50, "Bo": 120, "Cy": 130}, "contract-nordic")
    assert points == {"Anna": 150, "Bo": -60, "Cy": -90}
    money = game_money({"Anna": 50, "Bo": 120, "Cy": 130}, "romme", Decimal("0.01"))
    assert money == {"Anna": 150, "Bo": -60, "Cy": -90}


def test_penalty_game_with_equal_totals_moves_no_money():
    assert game_money({"a": 40, "b": 40}, "contract-spanish", 1) == {"a": 0, "b": 0}


def test_a_classic_game_whose_totals_do_not_sum_to_zero_is_refused():
    with pytest.raises(ScoreError):
        game_points({"a": 3, "b": -2}, "classic")


@pytest.mark.parametrize("stake", [Decimal("0"), Decimal("-0.10"), Decimal("0.001"), True, 0.1])
def test_a_stake_must_be_positive_cents(stake):
    with pytest.raises(ScoreError):
        game_money({"a": 1, "b": -1}, "classic", stake)


def test_cents_round_trip():
    assert to_cents(Decimal("1.25")) == 125
    assert to_cents(3) == 300
    assert from_cents(-125) == Decimal("-1.25")
    with pytest.raises(ScoreError):
        to_cents(Decimal("NaN"))


def test_ledger_runs_over_the_games_from_the_carried_balances():
    games = [
        EveningGame({"Anna": 12, "Bo": -12}, "classic", Decimal("0.10")),
        EveningGame({"Bo": 30, "Cy": 10}, "romme", Decimal("0.05")),
    ]
    book = ledger({"Cy": 50, "Anna": -50}, games)
    assert book.players == ("Cy", "Anna", "Bo")
    assert book.games == ({"Cy": 0, "Anna": 120, "Bo": -120}, {"Cy": 100, "Anna": 0, "Bo": -100})
    assert book.running[0] == {"Cy": 50, "Anna": 70, "Bo": -120}
    # Bo has 20 points more than Cy in the Rommé game: he pays Cy 20 × 0.05.
    assert book.balances == {"Cy": 150, "Anna": 70, "Bo": -220}
    assert book.carry() == {"Cy": 150, "Anna": 70, "Bo": -220}


def test_an_evening_without_games_has_its_carried_balances():
    book = ledger({"a": 10, "b": -10}, [])
    assert book.balances == {"a": 10, "b": -10}
    assert [s.player for s in book.standings()] == ["a", "b"]


def test_carry_leaves_out_the_players_at_zero():
    book = ledger({}, [EveningGame({"a": 2, "b": -2, "c": 0}, "classic", Decimal("1"))])
    assert book.carry() == {"a": 200, "b": -200}


def test_standings_highest_balance_first_ties_share_a_place():
    book = ledger({"a": -20, "b": 10, "c": 10}, [])
    assert [(s.player, s.place) for s in book.standings()] == [("b", 1), ("c", 1), ("a", 3)]


def test_settle_up_pays_in_money_with_the_fewest_payments():
    book = ledger({"a": -150, "b": 100, "c": 50, "d": -100, "e": 100}, [])
    transfers = book.settle()
    # Two zero-sum groups are possible ({a, b, c}, {d, e}): three payments, not four.
    assert len(transfers) == 3
    assert all(isinstance(t.amount, Decimal) for t in transfers)
    paid = {k: Decimal(0) for k in "abcde"}
    for t in transfers:
        paid[t.payer] -= t.amount
        paid[t.payee] += t.amount
    assert paid == {k: from_cents(v) for k, v in book.balances.items()}


def test_carried_balances_must_sum_to_zero():
    with pytest.raises(ScoreError):
        ledger({"a": 10, "b": -5}, [])


totals = st.dictionaries(st.sampled_from("abcdef"), st.integers(0, 500), min_size=2)


@given(totals, st.sampled_from(["contract-nordic", "contract-spanish", "romme"]))
def test_penalty_game_money_sums_to_zero(points, variant):
    assert sum(game_money(points, variant, Decimal("0.05")).values()) == 0


@given(
    st.lists(
        st.tuples(totals, st.sampled_from(["contract-nordic", "romme"]), st.integers(1, 500)),
        max_size=6,
    )
)
def test_every_running_balance_sums_to_zero(games):
    book = ledger(
        {"z": 75, "a": -75},
        [EveningGame(t, v, from_cents(stake)) for t, v, stake in games],
    )
    for balance in book.running:
        assert sum(balance.values()) == 0
    assert sum(book.carry().values()) == 0
