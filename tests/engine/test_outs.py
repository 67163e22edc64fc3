"""Outs: the unseen copies of each card a classic hand one card short waits for."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from rules.engine.cards import JOKER, card, format_cards, parse_cards
from rules.engine.check import CheckError, check_hand
from rules.engine.outs import check_seen, count_outs, table_decks
from rules.engine.variants import get_variant

from .test_solver_classic import ALL, brute_goes_out, examples, waiting_hands

CLASSIC = get_variant("classic")
NOT_OUT = "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH"  # waits: every 2 and the joker
# waits 3H 10D 5C and the joker (jokers only), and holds both jokers of two decks
TWO_JOKERS = "10S JS QS 2H 4H 5D 6D 7D 9D JD JD 4C 6C JK JK"


def check(cards: str, **request) -> dict:
    return check_hand({"variant": "classic", "cards": cards, **request})


# --- the arithmetic ---------------------------------------------------------------------------


def test_each_wait_counts_the_copies_of_two_decks_minus_the_hand():
    hand = parse_cards("5S 6S 8S 8H JK")
    outs = count_outs([card("7S"), card("8S"), JOKER], hand, 2, 2)
    assert outs == {card("7S"): 2, card("8S"): 1, JOKER: 1}


def test_copies_in_the_hand_and_seen_copies_are_taken_off():
    hand = parse_cards("7S 5S 6S JK")
    seen = parse_cards("7S 2H 2H 2H")
    outs = count_outs([card("7S"), card("2H"), JOKER], hand, 4, 4, seen)
    assert outs == {card("7S"): 2, card("2H"): 1, JOKER: 3}
    assert sum(outs.values()) == 6


def test_a_wait_held_whole_by_the_hand_is_never_listed():
    hand = parse_cards("8S 8S JK JK")
    outs = count_outs([card("7S"), card("8S"), JOKER], hand, 2, 2)
    assert outs == {card("7S"): 2}
    # three decks: one more copy of each is still somewhere
    assert count_outs([card("8S"), JOKER], hand, 3, 3) == {card("8S"): 1, JOKER: 1}


def test_a_wait_whose_last_copies_were_seen_stays_with_none_left():
    outs = count_outs([card("7S")], parse_cards("7S"), 2, 2, parse_cards("7S"))
    assert outs == {card("7S"): 0}


def test_the_waits_keep_their_order():
    waits = parse_cards("2S 2H 2D 2C JK")
    assert list(count_outs(waits, [], 2, 2)) == waits


def test_the_table_follows_the_players():
    assert table_decks(CLASSIC, 5) == (2, 2)
    assert table_decks(CLASSIC, 6) == (3, 3)
    assert table_decks(CLASSIC, 12) == (4, 4)


def test_without_players_the_fewest_decks_that_hold_the_cards():
    assert table_decks(CLASSIC, None) == (2, 2)
    assert table_decks(CLASSIC, None, parse_cards("7S 7S JK JK")) == (2, 2)
    assert table_decks(CLASSIC, None, parse_cards("7S 7S 7S")) == (3, 3)
    assert table_decks(CLASSIC, None, parse_cards("JK JK JK JK")) == (4, 4)


def test_seen_cards_beyond_the_decks_are_refused():
    check_seen(parse_cards("7S"), parse_cards("7S"), 2, 2)
    with pytest.raises(ValueError, match="hold 3 × 7S, but the decks hold only 2"):
        check_seen(parse_cards("7S 7S"), parse_cards("7S"), 2, 2)


# --- in the result object ---------------------------------------------------------------------


def test_outs_of_the_rules_example_one_card_short():
    result = check(NOT_OUT)
    assert result["waits"] == ["2S", "2H", "2D", "2C", "JK"]
    assert result["outs"] == {"2S": 2, "2H": 2, "2D": 2, "2C": 2, "JK": 2}


def test_outs_with_seen_cards_and_a_table_of_six():
    result = check(NOT_OUT, seen="2S 2S JK", players=6)
    assert result["outs"] == {"2S": 1, "2H": 3, "2D": 3, "2C": 3, "JK": 2}
    assert result["waits"] == ["2S", "2H", "2D", "2C", "JK"]  # waits are the hand's own


def test_the_joker_is_a_wait_but_not_an_out_when_the_hand_holds_both():
    result = check(TWO_JOKERS, options={"twos_wild": False})
    assert result["waits"] == ["3H", "10D", "5C", "JK"]
    assert result["outs"] == {"3H": 2, "10D": 2, "5C": 2}
    assert check(TWO_JOKERS, options={"twos_wild": False}, players=9)["outs"]["JK"] == 2


def test_outs_are_null_when_waits_are():
    assert check(NOT_OUT + " JK")["outs"] is None  # goes out
    assert check("AS 3S 5S 7S 9S JS KS AH 3H 5H 7H 9H JH KH AD 3D")["outs"] is None  # 16


def test_seen_cards_may_be_a_list_and_in_local_letters():
    assert check(NOT_OUT, seen=["2s", "Jk"])["outs"]["JK"] == 1
    german = check_hand({"variant": "classic", "cards": NOT_OUT, "seen": "2♠"}, "de")
    assert german["outs"]["2S"] == 1


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"seen": "XX"}, "XX"),
        ({"seen": 5}, "seen must be a string of card tokens"),
        ({"players": 13}, "for 2 to 12 players, not 13"),
        ({"players": True}, "players must be a whole number"),
        ({"players": "4"}, "players must be a whole number"),
        ({"seen": "2S 2S 2S 2S 2S"}, "hold 5 × 2S, but the decks hold only 4"),
        ({"seen": "2S", "players": 2}, None),
        ({"seen": "2S 2S 2S", "players": 4}, "hold 3 × 2S, but the decks hold only 2"),
    ],
)
def test_bad_seen_or_players_are_refused(request_, message):
    if message is None:
        check(NOT_OUT, **request_)
        return
    with pytest.raises(CheckError, match=message):
        check(NOT_OUT, **request_)


def test_a_hand_beyond_the_table_of_the_players_is_refused():
    hand = "7S 7S 7S 4S 5S 6S 9H 10H JH QH 10C JC QC KC AD"
    assert check(hand)["variant"] == "classic"  # three decks when nobody says otherwise
    with pytest.raises(CheckError, match="3 × 7S, but 2 decks hold only 2"):
        check(hand, players=4)


@pytest.mark.parametrize("variant", ["romme", "contract-nordic"])
def test_seen_and_players_belong_to_the_classic_game(variant):
    deal = {"deal": 1} if variant != "romme" else {}
    hand = "AS AS AH 2S 2S 2H 3S 4S 5S 6S 7S 8S 9S 10S JS"
    hand = hand if variant == "romme" else hand[: len("AS AS AH 2S 2S 2H 3S 4S 5S 6S 7S 8S 9S")]
    for field in ({"seen": "2S"}, {"players": 4}):
        with pytest.raises(CheckError, match=f"{next(iter(field))} applies to the classic game"):
            check_hand({"variant": variant, "cards": hand, **deal, **field})
    assert "outs" not in check_hand({"variant": variant, "cards": hand, **deal, "seen": None})


# --- against a brute force --------------------------------------------------------------------


def brute_outs(hand, seen, decks, jokers, twos_wild) -> dict[str, int]:
    """Every card of the table that is not all in the hand and lets the hand go out when
    drawn, with the copies left: all decks' copies minus the hand's and the seen ones."""
    in_hand, out = Counter(hand), Counter(seen)
    result = {}
    for c in ALL:
        limit = jokers if c.is_joker else decks
        if in_hand[c] < limit and brute_goes_out([*hand, c], twos_wild):
            result[c.code] = limit - in_hand[c] - out[c]
    return result


@st.composite
def outs_cases(draw):
    hand, twos_wild = draw(waiting_hands())
    assume(max(Counter(hand).values()) <= 4)  # within the largest table (four decks, jokers)
    players = draw(st.sampled_from([None, 2, 6, 9]))
    decks, jokers = table_decks(CLASSIC, players, hand)
    if max(Counter(hand).values()) > decks:
        players, (decks, jokers) = None, table_decks(CLASSIC, None, hand)
    rnd = random.Random(draw(st.integers(0, 2**32)))
    left = Counter({c: (jokers if c.is_joker else decks) for c in ALL}) - Counter(hand)
    pool = list(left.elements())
    seen = rnd.sample(pool, draw(st.integers(0, min(30, len(pool)))))
    return hand, seen, players, twos_wild


@examples(40)
@given(outs_cases())
def test_outs_match_a_brute_force_count(case):
    hand, seen, players, twos_wild = case
    request = {"cards": format_cards(hand), "options": {"twos_wild": twos_wild}}
    result = check(seen=format_cards(seen), players=players, **request)
    if result["goes_out"]:
        assert result["outs"] is None
        return
    decks, jokers = table_decks(CLASSIC, players, [*hand, *seen])
    assert result["outs"] == brute_outs(hand, seen, decks, jokers, twos_wild), format_cards(hand)
    assert list(result["outs"]) == [c for c in result["waits"] if c in result["outs"]]
    assert all(n >= 0 for n in result["outs"].values())
