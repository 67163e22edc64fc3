"""Dealing in the engine: the draw for the first dealer (rules/engine/dealing.py) and how
many cards each player and the starting player get (Variant.cards_dealt, starter_cards)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.cards import Card, parse_card
from rules.engine.dealing import dealers, draw_first_dealer, next_playing
from rules.engine.variants import (
    CLASSIC,
    NORDIC,
    ROMME,
    SPANISH,
    VARIANT_IDS,
    build_schedule,
    get_variant,
)


class Stacked(random.Random):
    """A shuffle that puts the given cards on top, round after round (the rest unchanged)."""

    def __init__(self, *rounds: list[str]) -> None:
        super().__init__(0)
        self.rounds = list(rounds)

    def shuffle(self, pack: list[Card]) -> None:
        top = [parse_card(code) for code in self.rounds.pop(0)]
        rest = list(pack)
        for c in top:
            rest.remove(c)
        pack[:] = top + rest


def ranks(draw, highest: bool) -> dict[int, int]:
    return {
        pos: 14 if highest and parse_card(code).rank == 1 else parse_card(code).rank
        for pos, code in draw.rounds[-1].items()
    }


@pytest.mark.parametrize("seed", range(30))
def test_the_lowest_card_deals_in_the_classic_game_with_the_ace_low(seed):
    draw = draw_first_dealer(get_variant(CLASSIC), 5, random.Random(seed))
    last = ranks(draw, highest=False)
    assert not draw.highest
    assert last[draw.dealer] == min(last.values())
    assert list(last.values()).count(last[draw.dealer]) == 1


@pytest.mark.parametrize("seed", range(30))
def test_the_highest_card_deals_in_the_nordic_game_with_the_ace_high(seed):
    draw = draw_first_dealer(get_variant(NORDIC), 4, random.Random(seed))
    last = ranks(draw, highest=True)
    assert draw.highest
    assert last[draw.dealer] == max(last.values())
    assert list(last.values()).count(last[draw.dealer]) == 1


def test_an_ace_is_low_in_the_classic_draw_and_high_in_the_nordic_one():
    classic = draw_first_dealer(get_variant(CLASSIC), 3, Stacked(["KH", "AS", "5D"]))
    nordic = draw_first_dealer(get_variant(NORDIC), 3, Stacked(["KH", "AS", "5D"]))
    assert classic.dealer == 1
    assert nordic.dealer == 1
    low = draw_first_dealer(get_variant(CLASSIC), 3, Stacked(["KH", "2S", "5D"]))
    high = draw_first_dealer(get_variant(NORDIC), 3, Stacked(["KH", "2S", "5D"]))
    assert low.dealer == 1
    assert high.dealer == 0


def test_only_the_players_tied_for_the_deciding_card_draw_again():
    draw = draw_first_dealer(
        get_variant(CLASSIC), 4, Stacked(["3H", "KS", "3C", "9D"], ["QH", "4S"])
    )
    assert draw.rounds == [{0: "3H", 1: "KS", 2: "3C", 3: "9D"}, {0: "QH", 2: "4S"}]
    assert draw.dealer == 2


def test_the_draw_uses_the_decks_of_the_variant_so_two_players_can_draw_the_same_card():
    # Two decks for five players in the classic game: two queens of hearts exist.
    draw = draw_first_dealer(
        get_variant(CLASSIC), 5, Stacked(["QH", "QH", "KS", "KD", "KC"], ["2C", "JD"])
    )
    assert draw.rounds[0] == {0: "QH", 1: "QH", 2: "KS", 3: "KD", 4: "KC"}
    assert draw.dealer == 0


def test_the_draw_never_draws_a_joker_and_every_seat_draws_in_the_first_round():
    for variant_id in VARIANT_IDS:
        variant = get_variant(variant_id)
        for seed in range(10):
            draw = draw_first_dealer(variant, variant.max_players, random.Random(seed))
            assert sorted(draw.rounds[0]) == list(range(variant.max_players))
            assert all(not parse_card(c).is_joker for r in draw.rounds for c in r.values())
            assert 0 <= draw.dealer < variant.max_players


# --- cards dealt ---------------------------------------------------------------------------


def test_in_romme_the_starting_player_gets_one_card_more_than_the_others():
    romme = get_variant(ROMME)
    assert (romme.cards_dealt(), romme.starter_cards()) == (14, 15)


def test_outside_romme_the_starting_player_gets_as_many_cards_as_the_others():
    classic, nordic, spanish = get_variant(CLASSIC), get_variant(NORDIC), get_variant(SPANISH)
    assert classic.starter_cards() == classic.cards_dealt() == 15
    assert [nordic.starter_cards(d) for d in range(1, 8)] == [12] * 7
    assert [spanish.starter_cards(d) for d in range(1, 8)] == [6, 7, 8, 9, 10, 11, 12]


def test_the_starting_player_follows_a_custom_schedule():
    schedule = build_schedule([{"cards": 16, "sets": 2, "runs": 0}])
    assert get_variant(SPANISH).starter_cards(1, schedule) == 16


# --- who deals when players come and go -----------------------------------------------------


@given(
    n=st.integers(min_value=2, max_value=12),
    first=st.integers(min_value=0, max_value=11),
    step=st.sampled_from([1, -1]),
    deals=st.integers(min_value=1, max_value=30),
)
def test_with_the_same_players_the_deal_simply_rotates(n, first, step, deals):
    first %= n
    order = list(range(n))
    got = dealers(first, step, order, [set(order)] * deals)
    assert got == [(first + k * step) % n for k in range(deals)]


def test_a_player_who_left_is_passed_over_and_one_who_joined_takes_their_turn():
    order = [0, 1, 2, 3, 4]  # 4 joins before deal 3; 1 leaves after deal 3
    players = [{0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3, 4}, {0, 2, 3, 4}, {0, 2, 3, 4}]
    assert dealers(2, 1, order, players) == [2, 3, 4, 0, 2]


def test_a_first_dealer_who_is_not_in_the_first_deal_passes_it_on():
    assert dealers(1, -1, [0, 1, 2, 3], [{0, 2, 3}]) == [0]


def test_the_next_playing_seat_goes_either_way():
    assert next_playing([0, 1, 2, 3], 3, 1, {1, 2}) == 1
    assert next_playing([0, 1, 2, 3], 0, -1, {1, 2}) == 2
