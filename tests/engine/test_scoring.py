"""Scoring arithmetic: stake payments, ledgers, settle-up, penalty points, standings."""

from collections import deque
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.cards import ALL_CARDS, parse_cards
from rules.engine.scoring import (
    Payment,
    PaymentRow,
    ScoreError,
    Standing,
    Transfer,
    classic_ledger,
    classic_payment,
    hand_penalty,
    max_hand_penalty,
    penalty_deal,
    running_totals,
    settle_up,
    standings,
    winners,
)
from rules.engine.variants import CLASSIC, NORDIC, ROMME, SPANISH, OptionError, get_variant

classic = get_variant(CLASSIC)
nordic = get_variant(NORDIC)
spanish = get_variant(SPANISH)
romme = get_variant(ROMME)


def rows(payment: Payment) -> list[tuple[str, int]]:
    return [(r.row, r.points) for r in payment.rows]


# --- classic payments ----------------------------------------------------------------------------


def test_one_joker_and_one_wild_two_pay_four():
    # docs/rules.md#classic-worked-examples: Anna goes out using one joker and one 2 as a wild card: 1 + 1 + 2 = 4.
    payment = classic_payment(wild_twos=1, jokers=1)
    assert payment.total == 4
    assert rows(payment) == [("going_out", 1), ("wild_twos", 1), ("jokers", 2)]


def test_no_wild_card_at_all_pays_eleven():
    payment = classic_payment(wild_twos=0, jokers=0)
    assert payment.total == 11
    assert rows(payment) == [("going_out", 1), ("no_wild", 10)]


def test_the_sheet_hand_with_one_joker_pays_three():
    # 4♠ 5♠ 6♠ 7♠ · 9♥ 10♥ J♥ Q♥ · 10♣ J♣ Q♣ K♣ · A♦ JK 3♦: going out 1 + joker 2.
    payment = classic_payment(wild_twos=0, jokers=1)
    assert payment.total == 3
    assert rows(payment) == [("going_out", 1), ("jokers", 2)]


def test_each_wild_two_pays_one_and_each_joker_two():
    assert rows(classic_payment(3, 2)) == [("going_out", 1), ("wild_twos", 3), ("jokers", 4)]
    assert classic_payment(3, 2).total == 8
    assert rows(classic_payment(2, 0)) == [("going_out", 1), ("wild_twos", 2)]


def test_out_on_the_first_turn_after_drawing_pays_seven_more():
    payment = classic_payment(0, 1, first_turn="drawn")
    assert rows(payment) == [("going_out", 1), ("jokers", 2), ("first_turn_drawn", 7)]
    assert payment.total == 10


def test_out_on_the_first_turn_without_drawing_pays_ten_more():
    payment = classic_payment(0, 0, first_turn="undrawn")
    assert rows(payment) == [("going_out", 1), ("no_wild", 10), ("first_turn_undrawn", 10)]
    assert payment.total == 21


def test_all_fifteen_cards_of_one_suit_pay_ten_more():
    payment = classic_payment(1, 0, one_suit=True)
    assert rows(payment) == [("going_out", 1), ("wild_twos", 1), ("one_suit", 10)]
    assert payment.total == 12


def test_a_hand_with_a_joker_is_never_all_one_suit():
    with pytest.raises(ValueError, match="a joker has no suit"):
        classic_payment(0, 1, one_suit=True)


def test_jokers_only_game_pays_for_jokers_and_no_joker():
    assert classic_payment(0, 2, twos_wild=False).total == 5
    assert rows(classic_payment(0, 0, twos_wild=False)) == [("going_out", 1), ("no_wild", 10)]


def test_jokers_only_game_has_no_wild_twos():
    with pytest.raises(ValueError, match="no 2 is wild"):
        classic_payment(1, 0, twos_wild=False)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"wild_twos": -1, "jokers": 0}, "wild_twos"),
        ({"wild_twos": 0, "jokers": -2}, "jokers"),
        ({"wild_twos": True, "jokers": 0}, "wild_twos"),
        ({"wild_twos": 1.0, "jokers": 0}, "wild_twos"),
        ({"wild_twos": 10, "jokers": 6}, "a hand lays 15 cards"),
        ({"wild_twos": 0, "jokers": 0, "first_turn": "late"}, "first_turn"),
    ],
)
def test_impossible_payment_input_is_refused(kwargs, message):
    with pytest.raises(ScoreError, match=message):
        classic_payment(**kwargs)


def test_payment_rows_as_json():
    payment = classic_payment(1, 1)
    assert [r.as_json() for r in payment.rows] == [
        {"row": "going_out", "points": 1},
        {"row": "wild_twos", "points": 1},
        {"row": "jokers", "points": 2},
    ]
    assert payment.as_json()["payment"] == 4
    assert PaymentRow("no_wild", 10).as_json() == {"row": "no_wild", "points": 10}


# --- classic ledger --------------------------------------------------------------------------------


def test_the_winner_gains_the_payment_from_each_other_player():
    # docs/rules.md#classic-worked-examples: four players, Anna goes out paying 4: Anna +12, the others -4 each.
    assert classic_ledger(["Anna", "Bo", "Cara", "Dan"], "Anna", 4) == {
        "Anna": 12,
        "Bo": -4,
        "Cara": -4,
        "Dan": -4,
    }


def test_with_no_wild_card_anna_gains_thirty_three():
    ledger = classic_ledger(["Anna", "Bo", "Cara", "Dan"], "Anna", classic_payment(0, 0).total)
    assert ledger["Anna"] == 33
    assert ledger["Bo"] == -11


def test_ledger_refuses_a_winner_who_is_not_playing():
    with pytest.raises(ScoreError, match="Eve went out but is not one of the players") as exc:
        classic_ledger(["Anna", "Bo"], "Eve", 4)
    assert exc.value.player == "Eve"


def test_ledger_refuses_a_player_listed_twice_or_a_bad_payment():
    with pytest.raises(ScoreError, match="listed twice"):
        classic_ledger(["Anna", "Anna", "Bo"], "Anna", 4)
    with pytest.raises(ScoreError, match="payment"):
        classic_ledger(["Anna", "Bo"], "Anna", -4)
    with pytest.raises(ScoreError, match="at least 2 players"):
        classic_ledger(["Anna"], "Anna", 4)


@given(
    st.lists(st.text(min_size=1, max_size=5), min_size=2, max_size=12, unique=True),
    st.integers(0, 60),
    st.data(),
)
def test_a_ledger_always_sums_to_zero(players, payment, data):
    winner = data.draw(st.sampled_from(players))
    ledger = classic_ledger(players, winner, payment)
    assert sum(ledger.values()) == 0
    assert list(ledger) == players
    assert ledger[winner] == payment * (len(players) - 1)


# --- settle-up ---------------------------------------------------------------------------------------


def test_settle_up_after_one_classic_deal():
    assert settle_up({"Anna": 12, "Bo": -4, "Cara": -4, "Dan": -4}) == [
        Transfer("Bo", "Anna", Decimal(4)),
        Transfer("Cara", "Anna", Decimal(4)),
        Transfer("Dan", "Anna", Decimal(4)),
    ]


def test_settle_up_multiplies_by_the_value_of_a_point():
    transfers = settle_up({"Anna": 12, "Bo": -12}, Decimal("0.10"))
    assert transfers == [Transfer("Bo", "Anna", Decimal("1.20"))]
    assert settle_up({"Anna": 3, "Bo": -3}, 5) == [Transfer("Bo", "Anna", Decimal(15))]


def test_settle_up_finds_fewer_payments_than_greedy():
    # Greedy (largest debt to largest credit) needs 4 payments here; -6/+6 and -7/+2/+5
    # square up separately in 1 + 2 = 3.
    transfers = settle_up({"a": -7, "b": -6, "c": 2, "d": 5, "e": 6})
    assert len(transfers) == 3
    assert Transfer("b", "e", Decimal(6)) in transfers


def test_settle_up_with_everybody_square_is_empty():
    assert settle_up({"a": 0, "b": 0}) == []
    assert settle_up({}) == []


def test_settle_up_refuses_balances_that_do_not_sum_to_zero():
    with pytest.raises(ValueError, match="sum to zero, not 1"):
        settle_up({"a": 5, "b": -4})


@pytest.mark.parametrize("value", [0, -1, 0.1, "0.10", True, Decimal("NaN")])
def test_settle_up_refuses_a_bad_value_per_point(value):
    with pytest.raises(ScoreError, match="value of a point"):
        settle_up({"a": 1, "b": -1}, value)


def test_settle_up_output_order_is_deterministic():
    balances = {"z": -3, "y": 5, "x": -2}
    assert settle_up(balances) == [
        Transfer("z", "y", Decimal(3)),
        Transfer("x", "y", Decimal(2)),
    ]


def brute_force_minimum(values: list[int]) -> int:
    """Fewest transfers by breadth-first search: each transfer settles one player fully."""
    start = tuple(sorted(v for v in values if v))
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        state, steps = queue.popleft()
        if not state:
            return steps
        for i, vi in enumerate(state):
            for j in range(len(state)):
                if i == j:
                    continue
                nxt = list(state)
                nxt[j] += vi
                nxt[i] = 0
                key = tuple(sorted(v for v in nxt if v))
                if key not in seen:
                    seen.add(key)
                    queue.append((key, steps + 1))
    raise AssertionError("unreachable")


def zero_sum(values: list[int]) -> dict[str, int]:
    return {f"p{i}": v for i, v in enumerate([*values, -sum(values)])}


@settings(max_examples=300)
@given(st.lists(st.integers(-30, 30), min_size=1, max_size=11))
def test_settle_up_reproduces_every_balance_in_at_most_n_minus_1_transfers(values):
    balances = zero_sum(values)
    transfers = settle_up(balances)
    net = dict.fromkeys(balances, Decimal(0))
    for t in transfers:
        assert t.amount > 0
        assert t.payer != t.payee
        net[t.payer] -= t.amount
        net[t.payee] += t.amount
    assert net == {k: Decimal(v) for k, v in balances.items()}
    nonzero = sum(1 for v in balances.values() if v)
    assert len(transfers) <= max(nonzero - 1, 0)


@settings(max_examples=300)
@given(st.lists(st.integers(-9, 9), min_size=1, max_size=5))
def test_settle_up_equals_the_brute_force_minimum(values):
    balances = zero_sum(values)
    assert len(settle_up(balances)) == brute_force_minimum(list(balances.values()))


def test_settle_up_is_exact_for_twelve_players():
    balances = zero_sum([5, -5, 7, -3, -4, 9, -9, 1, 1, 1, -2])
    assert len(settle_up(balances)) == 7  # {5,-5} {7,-3,-4} {9,-9} {1,1,-2} {1,-1}: 12 - 5


# --- penalties ------------------------------------------------------------------------------------------


def test_nordic_five_seven_and_queen_are_twenty():
    assert hand_penalty(parse_cards("5S 7H QD"), nordic) == 20


def test_nordic_ace_and_joker_are_seventy():
    assert hand_penalty(parse_cards("AS JK"), nordic) == 70


def test_nordic_red_ace_left_in_hand_is_twenty():
    assert hand_penalty(parse_cards("AH AD"), nordic) == 40


def test_spanish_eight_and_nine_are_ten_points_each():
    assert hand_penalty(parse_cards("8S 9H"), spanish) == 20
    assert hand_penalty(parse_cards("8S 9H"), nordic) == 10
    assert hand_penalty(parse_cards("7C AS JK"), spanish) == 75


def test_romme_joker_is_twenty_and_ace_eleven():
    assert hand_penalty(parse_cards("JK AS"), romme) == 31
    assert hand_penalty(parse_cards("2S 10H KD"), romme) == 22


def test_an_empty_hand_has_no_penalty():
    assert hand_penalty([], romme) == 0


def test_classic_has_no_hand_penalty():
    with pytest.raises(ScoreError, match="no card penalties"):
        hand_penalty(parse_cards("5S"), classic)


def test_the_most_a_hand_can_be_worth():
    # Nordic: 32 cards at most (20 dealt in a custom deal + 12 taken out of turn), of two
    # decks and 4 jokers: 4 jokers, 8 aces, 20 tens to kings.
    assert max_hand_penalty(nordic, 4) == 4 * 50 + 8 * 20 + 20 * 10
    # Rommé with 2 players: 15 cards of 2 decks and 2 jokers.
    assert max_hand_penalty(romme, 2) == 2 * 20 + 8 * 11 + 5 * 10


# --- penalty deals ----------------------------------------------------------------------------------------

PLAYERS = ["Anna", "Bo", "Cara", "Dan"]


def test_the_player_who_went_out_scores_zero_the_others_their_hands():
    scores = penalty_deal(
        nordic,
        PLAYERS,
        "Anna",
        {"Bo": parse_cards("5S 7S QH"), "Cara": parse_cards("AS JK"), "Dan": 35},
    )
    assert scores == {"Anna": 0, "Bo": 20, "Cara": 70, "Dan": 35}
    assert list(scores) == PLAYERS


def test_the_player_who_went_out_may_be_given_as_zero_or_no_cards():
    given = {"Anna": 0, "Bo": 5, "Cara": 10, "Dan": 15}
    assert penalty_deal(spanish, PLAYERS, "Anna", given)["Anna"] == 0
    given = {"Anna": [], "Bo": 5, "Cara": 10, "Dan": 15}
    assert penalty_deal(spanish, PLAYERS, "Anna", given)["Anna"] == 0


def test_the_player_who_went_out_cannot_have_points():
    with pytest.raises(ScoreError, match="Anna: leave the points empty; going out scores 0") as exc:
        penalty_deal(nordic, PLAYERS, "Anna", {"Anna": 5, "Bo": 5, "Cara": 5, "Dan": 5})
    assert exc.value.player == "Anna"


def test_when_nobody_went_out_every_hand_counts():
    given = {"Anna": 10, "Bo": parse_cards("2S 3S"), "Cara": 50, "Dan": 5}
    assert penalty_deal(nordic, PLAYERS, None, given) == {
        "Anna": 10,
        "Bo": 10,
        "Cara": 50,
        "Dan": 5,
    }
    with pytest.raises(ScoreError, match="no points or cards given for Anna"):
        penalty_deal(nordic, PLAYERS, None, {"Bo": 5, "Cara": 5, "Dan": 5})


def test_every_other_player_needs_a_score():
    with pytest.raises(ScoreError, match="no points or cards given for Dan") as exc:
        penalty_deal(nordic, PLAYERS, "Anna", {"Bo": 5, "Cara": 5})
    assert exc.value.player == "Dan"


def test_an_unknown_player_is_refused():
    with pytest.raises(ScoreError, match="Eve is not one of the players"):
        penalty_deal(nordic, PLAYERS, "Anna", {"Bo": 5, "Cara": 5, "Dan": 5, "Eve": 5})
    with pytest.raises(ScoreError, match="Eve went out but is not one of the players"):
        penalty_deal(nordic, PLAYERS, "Eve", {"Bo": 5, "Cara": 5, "Dan": 5})


def test_negative_points_are_refused():
    with pytest.raises(ScoreError, match="Bo: penalty points cannot be negative"):
        penalty_deal(romme, ["Anna", "Bo"], "Anna", {"Bo": -3})


def test_contract_points_must_be_multiples_of_five():
    with pytest.raises(ScoreError, match="Bo: 23 is not a multiple of 5"):
        penalty_deal(nordic, PLAYERS, "Anna", {"Bo": 23, "Cara": 5, "Dan": 5})
    assert penalty_deal(romme, ["Anna", "Bo"], "Anna", {"Bo": 23}) == {"Anna": 0, "Bo": 23}


def test_more_points_than_a_hand_can_be_worth_are_refused():
    cap = max_hand_penalty(nordic, 4)
    penalty_deal(nordic, PLAYERS, "Anna", {"Bo": cap, "Cara": 5, "Dan": 5})
    with pytest.raises(ScoreError, match=f"Bo: {cap + 5} points is more than a hand can be worth"):
        penalty_deal(nordic, PLAYERS, "Anna", {"Bo": cap + 5, "Cara": 5, "Dan": 5})
    with pytest.raises(ScoreError, match="more than a hand can be worth"):
        penalty_deal(romme, ["Anna", "Bo"], "Anna", {"Bo": 1000})


@pytest.mark.parametrize("value", [True, 5.0, "20", None, {"points": 5}])
def test_points_must_be_whole_numbers_or_cards(value):
    with pytest.raises(ScoreError, match="Bo"):
        penalty_deal(romme, ["Anna", "Bo"], "Anna", {"Bo": value})


def test_too_many_copies_in_the_hands_are_refused():
    with pytest.raises(ScoreError, match="Bo: 3 × 7S, but 2 decks hold only 2"):
        penalty_deal(romme, ["Anna", "Bo"], "Anna", {"Bo": parse_cards("7S 7S 7S")})
    with pytest.raises(ScoreError, match="the hands together: 3 × 7S"):
        penalty_deal(
            romme,
            ["Anna", "Bo", "Cara"],
            "Anna",
            {"Bo": parse_cards("7S 7S"), "Cara": parse_cards("7S")},
        )


def test_more_cards_than_a_player_can_hold_are_refused():
    hand = parse_cards("2S 3S 4S 5S 6S 7S 8S 9S 2H 3H 4H 5H 6H 7H 8H 9H")
    with pytest.raises(ScoreError, match="Bo: 16 cards, more than a player can hold"):
        penalty_deal(romme, ["Anna", "Bo"], "Anna", {"Bo": hand})


def test_handromme_doubles_the_others_penalties_with_the_option():
    given = {"Bo": parse_cards("JK AS"), "Cara": 14}
    plain = penalty_deal(romme, ["Anna", "Bo", "Cara"], "Anna", given, handromme=True)
    assert plain == {"Anna": 0, "Bo": 31, "Cara": 14}
    doubled = penalty_deal(
        romme,
        ["Anna", "Bo", "Cara"],
        "Anna",
        given,
        handromme=True,
        options={"handromme_doubles": True},
    )
    assert doubled == {"Anna": 0, "Bo": 62, "Cara": 28}


def test_handromme_is_only_for_romme_with_a_winner():
    with pytest.raises(ScoreError, match="Handrommé is a Rommé rule"):
        penalty_deal(nordic, PLAYERS, "Anna", {"Bo": 5, "Cara": 5, "Dan": 5}, handromme=True)
    with pytest.raises(ScoreError, match="Handrommé needs the player who went out"):
        penalty_deal(romme, ["Anna", "Bo"], None, {"Anna": 5, "Bo": 5}, handromme=True)


def test_penalty_deal_checks_options_and_player_count():
    with pytest.raises(OptionError):
        penalty_deal(romme, ["Anna", "Bo"], "Anna", {"Bo": 5}, options={"doubles": True})
    with pytest.raises(ScoreError, match="for 3 to 5 players, not 2"):
        penalty_deal(nordic, ["Anna", "Bo"], "Anna", {"Bo": 5})
    with pytest.raises(ScoreError, match="payments"):
        penalty_deal(classic, ["Anna", "Bo"], "Anna", {"Bo": 5})


@settings(max_examples=200)
@given(
    st.sampled_from([nordic, spanish, romme]),
    st.lists(st.lists(st.sampled_from(ALL_CARDS), max_size=6), min_size=3, max_size=3),
    st.booleans(),
    st.booleans(),
)
def test_penalty_deal_is_never_negative(variant, hands, someone_out, doubles):
    players = ["Anna", "Bo", "Cara"]
    went_out = "Anna" if someone_out else None
    left = dict(zip(players, hands, strict=True))
    if someone_out:
        left["Anna"] = []
    handromme = variant is romme and someone_out and doubles
    try:
        scores = penalty_deal(
            variant,
            players,
            went_out,
            left,
            handromme=handromme,
            options={"handromme_doubles": True} if handromme else None,
        )
    except ScoreError:
        return  # too many copies of a card among the hands
    assert all(s >= 0 for s in scores.values())
    if went_out:
        assert scores[went_out] == 0


# --- totals and standings ---------------------------------------------------------------------------


def test_running_totals_add_up_deal_by_deal():
    deals = [{"a": 0, "b": 20, "c": 35}, {"a": 15, "b": 0, "c": 10}]
    assert running_totals(deals, ["a", "b", "c"]) == [
        {"a": 0, "b": 20, "c": 35},
        {"a": 15, "b": 20, "c": 45},
    ]
    assert running_totals([], ["a", "b"]) == []


def test_running_totals_need_every_player_in_every_deal():
    with pytest.raises(ScoreError, match="deal 2: no score for c"):
        running_totals([{"a": 0, "b": 1, "c": 2}, {"a": 0, "b": 1}], ["a", "b", "c"])
    with pytest.raises(ScoreError, match="deal 1: d is not one of the players"):
        running_totals([{"a": 0, "b": 1, "c": 2, "d": 3}], ["a", "b", "c"])


def test_lowest_total_wins_penalty_games_with_ties_sharing_a_place():
    totals = {"a": 40, "b": 25, "c": 40, "d": 90}
    assert standings(totals, nordic) == [
        Standing("b", 25, 1),
        Standing("a", 40, 2),
        Standing("c", 40, 2),
        Standing("d", 90, 4),
    ]
    assert winners(totals, romme) == ["b"]


def test_highest_total_wins_the_classic_game():
    totals = {"a": -8, "b": 33, "c": 33, "d": -58}
    assert standings(totals, classic) == [
        Standing("b", 33, 1),
        Standing("c", 33, 1),
        Standing("a", -8, 3),
        Standing("d", -58, 4),
    ]
    assert winners(totals, classic) == ["b", "c"]


def test_no_players_no_winners():
    assert standings({}, classic) == []
    assert winners({}, nordic) == []


# --- players who left (docs/rules.md, Choices: "All games: a player who left ...") ----------------


def test_marek_who_left_after_deal_6_with_the_lowest_total_does_not_win():
    """The worked example of issue 45: Marek left a Nordic game after deal 6 with 45 points,
    the lowest total; Anna ends at 80, Ben at 120, Cleo at 95. Anna wins; Marek is last."""
    totals = {"Anna": 80, "Ben": 120, "Cleo": 95, "Marek": 45}
    assert standings(totals, nordic, left={"Marek"}) == [
        Standing("Anna", 80, 1),
        Standing("Cleo", 95, 2),
        Standing("Ben", 120, 3),
        Standing("Marek", 45, 4),
    ]
    assert winners(totals, nordic, left={"Marek"}) == ["Anna"]


def test_players_who_left_rank_among_themselves_by_total_and_never_tie_a_finisher():
    totals = {"a": 10, "b": 10, "c": 5, "d": 30, "e": 5}
    assert standings(totals, classic, left={"a", "c", "e"}) == [
        Standing("d", 30, 1),
        Standing("b", 10, 2),
        Standing("a", 10, 3),
        Standing("c", 5, 4),
        Standing("e", 5, 4),
    ]
    assert winners(totals, classic, left={"a", "c", "e"}) == ["d"]


def test_when_nobody_is_left_at_the_table_the_totals_alone_rank():
    totals = {"a": 40, "b": 25}
    assert standings(totals, romme, left={"a", "b"}) == standings(totals, romme)
    assert winners(totals, romme, left={"x"}) == ["b"]
