"""Audits of a whole deal: cards entered against the deal's decks, the stake game's zero sum."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.audit import AuditError, check_deal_cards, excess_cards, stake_deal_flaw
from rules.engine.cards import card, parse_cards
from rules.engine.scoring import classic_ledger


def test_a_card_entered_more_often_than_the_decks_hold_names_every_holder():
    hands = {
        "Anna": parse_cards("7H 8S"),
        "Ben": parse_cards("7H"),
        "Cleo": parse_cards("7H 9C"),
    }
    [excess] = excess_cards(hands, decks=2, jokers=4)
    assert excess.card == card("7H")
    assert (excess.count, excess.limit) == (3, 2)
    assert excess.holders == ("Anna", "Ben", "Cleo")
    error = excess.error()
    assert str(error) == (
        "3 × 7H entered, held by ['Anna', 'Ben', 'Cleo'], but the 2 decks of this deal hold only 2"
    )


def test_as_many_copies_as_the_decks_hold_is_fine():
    hands = {"Anna": parse_cards("7H 7H"), "Ben": parse_cards("JK JK"), "Cleo": parse_cards("JK")}
    assert excess_cards(hands, decks=2, jokers=3) == []
    check_deal_cards(hands, decks=2, jokers=3)


def test_more_jokers_than_the_deal_has_are_flagged_with_their_holders():
    hands = {"Anna": parse_cards("JK 2S"), "Ben": parse_cards("JK JK")}
    [excess] = excess_cards(hands, decks=2, jokers=2)
    assert excess.card.is_joker
    assert excess.count == 3
    assert excess.holders == ("Anna", "Ben")
    with pytest.raises(AuditError, match="3 jokers entered") as info:
        check_deal_cards(hands, decks=2, jokers=2)
    assert info.value.params["players"] == ["Anna", "Ben"]


def test_one_hand_holding_too_many_copies_names_that_player_once():
    [excess] = excess_cards({0: parse_cards("QD QD QD"), 1: []}, decks=2, jokers=4)
    assert excess.holders == (0,)


def test_the_deal_decks_decide_three_copies_pass_with_three_decks():
    hands = {0: parse_cards("5C"), 1: parse_cards("5C"), 2: parse_cards("5C")}
    assert excess_cards(hands, decks=3, jokers=6) == []
    assert [e.card for e in excess_cards(hands, decks=2, jokers=4)] == [card("5C")]


def test_several_excess_cards_come_in_the_canonical_order():
    hands = {0: parse_cards("JK JK JK 3D 3D 3D"), 1: parse_cards("KS KS KS")}
    assert [e.card.code for e in excess_cards(hands, decks=2, jokers=2)] == ["KS", "3D", "JK"]


# --- the stake game's zero sum ------------------------------------------------------------------


def test_a_deal_as_the_ledger_makes_it_has_no_flaw():
    players = [0, 1, 2, 3]
    scores = classic_ledger(players, 2, 4)
    assert stake_deal_flaw(players, scores, 2, 4) is None


@given(st.integers(2, 8), st.integers(0, 40), st.data())
def test_every_ledger_is_sound_and_every_changed_score_is_flagged(n, payment, data):
    players = list(range(n))
    winner = data.draw(st.sampled_from(players))
    scores = classic_ledger(players, winner, payment)
    assert stake_deal_flaw(players, scores, winner, payment) is None
    who = data.draw(st.sampled_from(players))
    delta = data.draw(st.integers(-50, 50).filter(bool))
    corrupted = {**scores, who: scores[who] + delta}
    assert stake_deal_flaw(players, corrupted, winner, payment) is not None


def test_a_score_that_breaks_the_zero_sum_is_reported_with_the_sum():
    flaw = stake_deal_flaw([0, 1, 2], {0: 8, 1: -4, 2: -9}, 0, 4)
    assert isinstance(flaw, AuditError)
    assert flaw.params["total"] == -5
    assert "not received by anyone" in str(flaw)


def test_zero_sum_scores_that_do_not_match_the_payment_are_reported():
    flaw = stake_deal_flaw([0, 1, 2], {0: 8, 1: -3, 2: -5}, 0, 4)
    assert flaw is not None
    assert flaw.params["player"] == 1
    assert flaw.params["expected"] == -4


def test_a_missing_score_is_reported():
    flaw = stake_deal_flaw([0, 1, 2], {0: 8, 1: -4}, 0, 4)
    assert flaw is not None
    assert flaw.params["player"] == 2


def test_a_score_of_someone_not_at_the_table_is_reported():
    flaw = stake_deal_flaw([0, 1], {0: 4, 1: -4, 7: 0}, 0, 4)
    assert flaw is not None
    assert flaw.params["player"] == 7


def test_an_abandoned_deal_moves_nothing():
    assert stake_deal_flaw([0, 1, 2], {}, None, None, abandoned=True) is None
    assert stake_deal_flaw([0, 1, 2], {0: 0, 1: 0, 2: 0}, None, None, abandoned=True) is None
    flaw = stake_deal_flaw([0, 1, 2], {0: 3}, None, None, abandoned=True)
    assert flaw is not None
    assert flaw.params == {"player": 0, "points": 3}
