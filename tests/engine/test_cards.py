"""Cards and their notation (docs/rules.md#cards-and-notation, docs/interfaces.md#canonical-notation)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.cards import (
    ALL_CARDS,
    JOKER,
    LOCAL_RANKS,
    Card,
    CardError,
    card,
    check_copies,
    format_cards,
    local_code,
    parse_card,
    parse_cards,
    sort_cards,
)

LANGS = sorted(LOCAL_RANKS)


# --- canonical notation --------------------------------------------------------------------


def test_canonical_notation_reads_rank_then_suit_letter():
    assert parse_cards("AS 2H 10D TC QS KH JK") == [
        Card(1, "S"),
        Card(2, "H"),
        Card(10, "D"),
        Card(10, "C"),
        Card(12, "S"),
        Card(13, "H"),
        JOKER,
    ]


def test_ten_may_be_written_10_or_t():
    assert parse_card("10H") == parse_card("TH") == Card(10, "H")


def test_notation_is_case_insensitive():
    assert parse_cards("as 10h th qd jk kc") == parse_cards("AS 10H TH QD JK KC")


def test_cards_may_be_separated_by_spaces_or_commas():
    assert parse_cards("AS,2H, 3D  4C") == parse_cards("AS 2H 3D 4C")


def test_suit_symbols_are_accepted():
    assert parse_cards("A♠ 10♥ Q♦ 7♣") == parse_cards("AS 10H QD 7C")


def test_output_spells_ten_as_10_never_t():
    assert format_cards(parse_cards("TH TS")) == "10H 10S"


def test_joker_is_written_jk():
    assert JOKER.code == "JK"
    assert JOKER.is_joker
    assert format_cards([JOKER]) == "JK"


def test_card_codes_and_symbols():
    assert card("10H").code == "10H"
    assert card("10H").symbol == "10♥"
    assert card("QS").symbol == "Q♠"
    assert str(card("AD")) == "AD"


def test_red_suits_are_hearts_and_diamonds():
    assert card("AH").is_red
    assert card("AD").is_red
    assert not card("AS").is_red
    assert not card("AC").is_red


def test_a_card_outside_the_deck_is_refused():
    with pytest.raises(CardError):
        Card(14, "S")
    with pytest.raises(CardError):
        Card(5, "X")
    with pytest.raises(CardError, match="a joker has no suit"):
        Card(0, "S")


# --- local rank letters -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "text", "expected"),
    [
        ("de", "BH DD KS", "JH QD KS"),
        ("pl", "WH DS KC", "JH QS KC"),
        ("nb", "KnH DS KC", "JH QS KC"),
        ("nb", "knh", "JH"),
        ("es", "SH CS RC", "JH QS KC"),
        ("es", "JH QS KC", "JH QS KC"),
        ("de", "D♥ B♠", "QH JS"),
    ],
)
def test_local_rank_letters_are_read_in_their_language(lang, text, expected):
    assert parse_cards(text, lang) == parse_cards(expected)


def test_local_letters_are_case_insensitive():
    assert parse_cards("bh dd", "de") == parse_cards("JH QD")


def test_canonical_notation_is_read_in_every_language():
    for lang in LANGS:
        assert parse_cards("AS 10H TD JC QS KH JK", lang) == parse_cards("AS 10H TD JC QS KH JK")


def test_local_letters_are_not_guessed_in_another_language():
    with pytest.raises(CardError) as exc:
        parse_cards("AS BH", "en")
    assert exc.value.token == "BH"
    assert "BH" in str(exc.value)


def test_an_unreadable_token_is_named_in_the_error():
    with pytest.raises(CardError) as exc:
        parse_cards("AS ZZ 3H")
    assert exc.value.token == "ZZ"
    assert str(exc.value) == "“ZZ” is not a card."


@pytest.mark.parametrize("token", ["1H", "11H", "XS", "10", "S", "AX", "KJ"])
def test_tokens_that_are_not_cards_are_refused(token):
    with pytest.raises(CardError) as exc:
        parse_card(token)
    assert exc.value.token == token


def test_local_code_writes_the_language_letters_with_suit_symbols():
    assert local_code(card("QH"), "de") == "D♥"
    assert local_code(card("JS"), "nb") == "Kn♠"
    assert local_code(card("JD"), "pl") == "W♦"
    assert local_code(card("10C"), "en") == "10♣"
    assert local_code(JOKER, "de") == "JK"


# --- copies and order -----------------------------------------------------------------------


def test_too_many_copies_of_a_card_are_refused_with_a_clear_message():
    with pytest.raises(CardError) as exc:
        check_copies(parse_cards("7S 7S 7S"), decks=2, jokers=4)
    assert exc.value.code == "too_many_copies"
    assert exc.value.token == "7S"
    assert str(exc.value) == "3 × 7S, but 2 decks hold only 2"


def test_too_many_jokers_are_refused_with_a_clear_message():
    with pytest.raises(CardError) as exc:
        check_copies(parse_cards("JK JK JK"), decks=2, jokers=2)
    assert exc.value.code == "too_many_copies"
    assert str(exc.value) == "3 jokers, but the game has only 2"


def test_as_many_copies_as_decks_are_accepted():
    check_copies(parse_cards("7S 7S JK JK"), decks=2, jokers=2)


def test_canonical_order_is_suit_then_rank_joker_last():
    cards = parse_cards("JK 3C AH KS 2S 10D AS")
    assert format_cards(sort_cards(cards)) == "AS 2S KS AH 10D 3C JK"


# --- round trips ------------------------------------------------------------------------------

hands = st.lists(st.sampled_from(ALL_CARDS), max_size=20)


@given(hands)
def test_canonical_notation_round_trips(cards):
    assert parse_cards(format_cards(cards)) == cards


@given(hands)
def test_lower_case_canonical_notation_round_trips(cards):
    assert parse_cards(format_cards(cards).lower()) == cards


@given(hands)
def test_suit_symbol_notation_round_trips(cards):
    assert parse_cards(" ".join(c.symbol for c in cards)) == cards


@given(hands, st.sampled_from(LANGS))
def test_local_display_round_trips_in_its_language(cards, lang):
    text = ", ".join(local_code(c, lang) for c in cards)
    assert parse_cards(text, lang) == cards


@given(hands, st.sampled_from(LANGS))
def test_canonical_notation_round_trips_in_every_language(cards, lang):
    assert parse_cards(format_cards(cards), lang) == cards


# --- the language's letters typed back (issue 23, item 9) ------------------------------------


@pytest.mark.parametrize("lang", ["en", "de", "nb", "pl", "fi", "es"])
def test_a_hand_typed_back_in_a_languages_letters_reads_as_the_same_cards(lang):
    from rules.engine.cards import RANKS, SUITS, Card, format_local, parse_cards

    every = [Card(rank, suit) for suit in SUITS for rank in RANKS] + [parse_cards("JK")[0]]
    assert parse_cards(format_local(every, lang), lang) == every


def test_the_letters_typed_back_are_the_buttons_letters():
    from rules.engine.cards import format_local, parse_cards

    hand = parse_cards("JH QH KH AS 10C JK")
    assert format_local(hand, "de") == "BH DH KH AS 10C JK"
    assert format_local(hand, "nb") == "KnH DH KH AS 10C JK"
    assert format_local(hand, "pl") == "WH DH KH AS 10C JK"
    assert format_local(hand, "en") == "JH QH KH AS 10C JK"
