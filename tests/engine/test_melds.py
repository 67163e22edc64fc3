"""Meld validation and role finding: runs, sets and Rommé groups (docs/rules.md)."""

import random

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from rules.engine.cards import ALL_CARDS, JOKER, SUITS, Card, card, parse_cards, sort_cards
from rules.engine.melds import (
    GROUP,
    RUN,
    SET,
    Meld,
    MeldError,
    Placed,
    find_meld,
    validate_meld,
)
from rules.engine.variants import (
    CLASSIC,
    NORDIC,
    ROMME,
    SPANISH,
    DealSpec,
    OptionError,
    build_schedule,
    get_variant,
)

classic = get_variant(CLASSIC)
nordic = get_variant(NORDIC)
spanish = get_variant(SPANISH)
romme = get_variant(ROMME)
JOKERS_ONLY = {"twos_wild": False}


def roles(meld: Meld) -> str:
    """A meld written compactly: natural cards as themselves, wild cards as card=stands_for."""
    return " ".join(
        f"{p.card.code}={p.stands_for.code}" if p.is_wild else p.card.code for p in meld.placed
    )


def placed(text: str) -> list[Placed]:
    """Explicit roles from ``"AS 2C=2S JK=3S"`` notation."""
    out = []
    for token in text.split():
        c, _, stands = token.partition("=")
        out.append(Placed(card(c), card(stands or c)))
    return out


def find(variant, text, **kwargs) -> str:
    return roles(find_meld(parse_cards(text), variant, **kwargs))


# --- runs: shape ----------------------------------------------------------------------------


def test_a_run_is_one_suit_in_unbroken_order():
    meld = find_meld(parse_cards("7H 5H 6H"), romme)
    assert meld.kind == RUN
    assert roles(meld) == "5H 6H 7H"


def test_a_run_of_mixed_suits_is_refused():
    with pytest.raises(MeldError, match="a run is all one suit, not ♠ and ♥"):
        find_meld(parse_cards("7S 8H 9S"), classic)


def test_a_run_with_a_gap_is_refused_naming_the_missing_card():
    with pytest.raises(MeldError, match="8♠ is missing"):
        validate_meld(placed("6S 7S 9S 10S"), nordic)
    with pytest.raises(MeldError, match="8♠ is missing"):
        find_meld(parse_cards("6S 7S 9S 10S"), nordic)


def test_ace_is_low_in_a_two_three():
    assert find(classic, "3S AS 2S") == "AS 2S 3S"


def test_ace_is_high_in_queen_king_ace():
    assert find(classic, "AS QS KS") == "QS KS AS"
    assert roles(validate_meld(placed("AS KS QS"), romme)) == "QS KS AS"


def test_king_ace_two_is_not_a_run():
    for variant in (nordic, romme):
        with pytest.raises(MeldError, match="K-A-2 is not a run in this variant"):
            find_meld(parse_cards("QH KH AH 2H"), variant)
    with pytest.raises(MeldError, match="K-A-2 is not a run in this variant"):
        validate_meld(placed("KH AH 2H"), romme)
    with pytest.raises(MeldError, match="K-A-2 is not a run in this variant"):
        find_meld(parse_cards("KS AS 2S"), classic, JOKERS_ONLY)


def test_a_run_never_holds_the_ace_both_low_and_high():
    with pytest.raises(MeldError):
        validate_meld(placed("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"), spanish)


def test_spanish_runs_go_around_the_corner():
    assert find(spanish, "2S QS AS KS") == "QS KS AS 2S"
    assert roles(validate_meld(placed("2D 3D KD AD"), spanish)) == "KD AD 2D 3D"


def test_spanish_runs_may_be_thirteen_cards_long():
    thirteen = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
    assert find(spanish, thirteen) == thirteen
    wrapped = "5S 6S 7S 8S 9S 10S JS QS KS AS 2S 3S 4S"
    assert roles(validate_meld(placed(wrapped), spanish)) == thirteen
    with pytest.raises(MeldError, match="at most 13 cards"):
        find_meld(parse_cards(thirteen + " JK"), spanish)


def test_spanish_prefers_a_straight_run_to_one_around_the_corner():
    assert find(spanish, "QS KS JK JK") == "JK=JS QS KS JK=AS"
    assert find(spanish, "KS 2S JK JK") == "KS JK=AS 2S JK=3S"


def test_classic_runs_are_three_to_five_cards():
    assert find(classic, "5S 6S 7S 8S 9S") == "5S 6S 7S 8S 9S"
    with pytest.raises(MeldError, match="a run has at most 5 cards"):
        find_meld(parse_cards("5S 6S 7S 8S 9S 10S"), classic)
    with pytest.raises(MeldError, match="a run needs at least 3 cards"):
        find_meld(parse_cards("5S 6S"), classic)


def test_a_contract_run_needs_at_least_four_cards():
    with pytest.raises(MeldError, match="a run needs at least 4 cards"):
        find_meld(parse_cards("5S 6S 7S"), nordic, kind=RUN)
    with pytest.raises(MeldError, match="a run needs at least 4 cards"):
        validate_meld(placed("5S 6S 7S"), spanish)


def test_a_custom_deal_sets_the_minimum_lengths():
    deal = build_schedule([{"cards": 10, "sets": 1, "runs": 1, "run_min": 3, "set_min": 4}])[0]
    assert find(nordic, "5S 6S 7S", deal=deal) == "5S 6S 7S"
    with pytest.raises(MeldError, match="a set needs at least 4 cards"):
        find_meld(parse_cards("7S 7H 7D"), nordic, deal=deal)
    longer = DealSpec(1, 12, 0, 2, run_min=5)
    with pytest.raises(MeldError, match="a run needs at least 5 cards"):
        validate_meld(placed("5S 6S 7S 8S"), spanish, deal=longer)


def test_a_deal_applies_to_contract_games_only():
    with pytest.raises(ValueError, match="contract games only"):
        find_meld(parse_cards("5S 6S 7S"), classic, deal=nordic.deal_spec(1))


def test_romme_runs_are_three_or_more_cards():
    assert find(romme, "9H 10H JH QH KH AH") == "9H 10H JH QH KH AH"
    with pytest.raises(MeldError, match="a run needs at least 3 cards"):
        find_meld(parse_cards("9H 10H"), romme, kind=RUN)


def test_a_run_holds_each_rank_once():
    with pytest.raises(MeldError, match="two cards stand for 8♠"):
        validate_meld(placed("7S 8S JK=8S 9S"), spanish)


# --- classic: identical cards and wild 2s ----------------------------------------------------------


def test_two_identical_cards_may_never_be_in_the_same_run():
    with pytest.raises(
        MeldError, match=r"two identical cards \(7♠ 7♠\) may never be in the same run"
    ):
        find_meld(parse_cards("7S 7S 8S"), classic)
    with pytest.raises(MeldError, match="two identical cards"):
        validate_meld(placed("6S 7S 7S"), classic)


def test_two_identical_twos_never_share_a_run_whatever_their_roles():
    # docs/rules.md#identical-cards: the rule holds for wild cards too (the run
    # 2♠(=Q♠) 2♠(=K♠) A♠, and a natural 2♠ beside a wild one)
    for roles_text in ("2S=QS 2S=KS AS", "AS 2S 3S 2S=4S", "2S=5H 2S=6H 7H", "2S=5H 6H 2S=7H 8H"):
        with pytest.raises(
            MeldError, match=r"two identical cards \(2♠ 2♠\) may never be in the same run"
        ):
            validate_meld(placed(roles_text), classic)
    with pytest.raises(MeldError, match="two identical cards"):
        validate_meld(placed("2S=QS 2S=KS AS"), classic, {"twos_wild": True})
    for text in ("2S AS 2S 3S", "QS 2S 2S", "2S 2S 2S"):
        with pytest.raises(MeldError, match=r"two identical cards \(2♠ 2♠\)"):
            find_meld(parse_cards(text), classic)


def test_two_different_twos_and_two_jokers_may_share_a_run():
    assert roles(validate_meld(placed("2S=QS 2H=KS AS"), classic)) == "2S=QS 2H=KS AS"
    assert roles(validate_meld(placed("JK=QS JK=KS AS"), classic)) == "JK=QS JK=KS AS"
    assert find(classic, "AS 2S 2H 3S") == "AS 2S 3S 2H=4S"
    assert find(classic, "JK JK AS") == "AS JK=2S JK=3S"


def test_identical_cards_may_share_a_run_in_other_variants():
    # the rule is the classic sheet's; a Nordic run may hold a natural and a wild A♥
    meld = validate_meld(placed("AH 2H 3H AH=4H"), nordic)
    assert meld.wild_count == 1


def test_a_two_in_its_own_place_is_a_natural_card():
    meld = find_meld(parse_cards("AS 2S 3S"), classic)
    assert roles(meld) == "AS 2S 3S"
    assert meld.wild_count == 0
    assert find(classic, "2S 3S 4S") == "2S 3S 4S"


def test_a_two_anywhere_else_is_a_wild_card():
    # The sheet's example: 6♦ 2♣ 8♦ is the run 6♦ 7♦ 8♦, the 2♣ standing for the 7♦.
    meld = find_meld(parse_cards("6D 2C 8D"), classic)
    assert roles(meld) == "6D 2C=7D 8D"
    assert meld.wild_count == 1
    assert find(classic, "2H 2S 3S") == "2S 3S 2H=4S"


def test_a_two_of_another_suit_at_the_two_position_is_wild():
    meld = validate_meld(placed("AS 2H=2S 3S"), classic)
    assert meld.wild_count == 1


def test_king_ace_two_is_a_run_only_with_the_two_wild():
    # K♠ A♠ 2♠: the 2 cannot be natural (K-A-2), but as a wild card it makes Q-K-A.
    assert find(classic, "KS AS 2S") == "2S=QS KS AS"


def test_classic_run_may_be_all_wild_cards():
    meld = validate_meld(placed("JK=5H 2C=6H JK=7H"), classic)
    assert meld.wild_count == 3
    assert find(classic, "JK JK JK") == "JK=AS JK=2S JK=3S"
    assert find(classic, "2H 2D 2C") == "2H 2D=3H 2C=4H"


def test_jokers_only_game_makes_the_two_an_ordinary_card():
    with pytest.raises(MeldError, match="a run is all one suit, not ♦ and ♣"):
        find_meld(parse_cards("6D 2C 8D"), classic, JOKERS_ONLY)
    with pytest.raises(MeldError, match="2♣ is not a wild card in this variant"):
        validate_meld(placed("6D 2C=7D 8D"), classic, JOKERS_ONLY)
    assert find(classic, "AS 2S 3S", options=JOKERS_ONLY) == "AS 2S 3S"
    assert find(classic, "6D JK 8D", options=JOKERS_ONLY) == "6D JK=7D 8D"


def test_the_sheet_example_ace_joker_three_is_a_run():
    # 4♠ 5♠ 6♠ 7♠ · 9♥ 10♥ J♥ Q♥ · 10♣ J♣ Q♣ K♣ · A♦ 3♦ · K♥ draws a joker.
    melds = [
        find_meld(parse_cards(group), classic)
        for group in ("4S 5S 6S 7S", "9H 10H JH QH", "10C JC QC KC", "AD JK 3D")
    ]
    assert [len(m.placed) for m in melds] == [4, 4, 4, 3]
    assert roles(melds[3]) == "AD JK=2D 3D"
    assert sum(m.wild_count for m in melds) == 1


def test_classic_has_runs_only():
    with pytest.raises(MeldError, match="this variant has runs only, no sets"):
        find_meld(parse_cards("7S 7H 7D"), classic, kind=SET)
    with pytest.raises(MeldError, match="a run is all one suit"):
        find_meld(parse_cards("7S 7H 7D"), classic)


# --- contract sets --------------------------------------------------------------------------------


def test_a_contract_set_is_three_or_more_of_a_rank_suits_may_repeat():
    meld = find_meld(parse_cards("7S 7S 7H"), nordic)
    assert meld.kind == SET
    assert roles(meld) == "7S 7S 7H"
    assert find(spanish, "KD KD KD KC KS") == "KS KD KD KD KC"


def test_a_set_is_all_one_rank():
    with pytest.raises(MeldError, match="a set is all one rank"):
        find_meld(parse_cards("7S 7H 8D"), nordic, kind=SET)


def test_a_set_needs_at_least_three_cards():
    with pytest.raises(MeldError, match="a set needs at least 3 cards"):
        find_meld(parse_cards("7S 7H"), spanish)


def test_wild_cards_in_a_set_stand_for_the_missing_suits():
    assert find(spanish, "7H JK 7C") == "7H 7C JK=7S"
    assert find(nordic, "7S 7H 7D 7C JK JK") == "7S 7H 7D 7C JK=7S JK=7H"


# --- Nordic wild cards ------------------------------------------------------------------------------


def test_nordic_two_natural_and_two_wild_cards_are_allowed():
    assert find(nordic, "7S 7H JK JK") == "7S 7H JK=7D JK=7C"
    assert find(nordic, "7S 8S JK AH") == "7S 8S AH=9S JK=10S"


def test_nordic_one_natural_and_two_wild_cards_are_refused():
    with pytest.raises(
        MeldError, match=r"wild cards outnumber natural cards \(2 wild, 1 natural\)"
    ):
        find_meld(parse_cards("7S JK JK"), nordic)
    with pytest.raises(MeldError, match="wild cards outnumber natural cards"):
        validate_meld(placed("7S JK=8S AD=9S 10S JK=JS"), nordic)


def test_nordic_red_ace_in_a_set_of_aces_is_natural():
    meld = find_meld(parse_cards("AH AD AS"), nordic)
    assert meld.kind == SET
    assert meld.wild_count == 0
    meld = find_meld(parse_cards("AH AD JK JK"), nordic)
    assert roles(meld) == "AH AD JK=AS JK=AC"
    assert meld.wild_count == 2


def test_nordic_red_ace_in_a_set_of_aces_cannot_stand_for_another_ace():
    with pytest.raises(MeldError, match="A♥ in a set of aces is a natural card"):
        validate_meld(placed("AH=AS AS AC"), nordic)


def test_nordic_red_ace_at_an_ace_position_of_its_own_suit_is_natural():
    meld = find_meld(parse_cards("AH 2H 3H JK"), nordic)
    assert roles(meld) == "AH 2H 3H JK=4H"
    assert meld.wild_count == 1
    meld = find_meld(parse_cards("QD KD AD JK"), nordic)
    assert roles(meld) == "JK=JD QD KD AD"
    assert meld.wild_count == 1


def test_nordic_red_ace_elsewhere_is_wild():
    meld = find_meld(parse_cards("7S 8S AH 10S"), nordic)
    assert roles(meld) == "7S 8S AH=9S 10S"
    assert meld.wild_count == 1
    meld = validate_meld(placed("AD=AS 2S 3S 4S"), nordic)
    assert meld.wild_count == 1
    meld = find_meld(parse_cards("7S 7H AD"), nordic)
    assert roles(meld) == "7S 7H AD=7D"


def test_nordic_red_ace_is_wild_where_it_cannot_be_natural():
    # A♥ 5♥ 6♥ JK: with the ace natural the run would have a gap, so the ace is wild.
    assert find(nordic, "AH 5H 6H JK") == "5H 6H AH=7H JK=8H"


def test_nordic_black_ace_is_never_wild():
    with pytest.raises(MeldError, match="A♠ is not a wild card in this variant"):
        validate_meld(placed("7S 8S AS=9S 10S"), nordic)


def test_nordic_meld_of_only_wild_cards_is_refused():
    with pytest.raises(MeldError, match="wild cards outnumber natural cards"):
        find_meld(parse_cards("JK JK JK"), nordic, kind=SET)


# --- Spanish wild cards -------------------------------------------------------------------------


def test_spanish_set_of_two_jokers_and_one_natural_card_is_allowed():
    meld = find_meld(parse_cards("JK 9C JK"), spanish)
    assert meld.kind == SET
    assert roles(meld) == "9C JK=9S JK=9H"


def test_spanish_three_jokers_are_refused():
    with pytest.raises(MeldError, match="a meld needs at least one natural card"):
        find_meld(parse_cards("JK JK JK"), spanish)
    with pytest.raises(MeldError, match="a meld needs at least one natural card"):
        validate_meld(placed("JK=9S JK=9H JK=9C"), spanish)


def test_spanish_run_may_hold_more_jokers_than_natural_cards():
    assert find(spanish, "7S JK JK JK") == "7S JK=8S JK=9S JK=10S"


def test_a_run_is_tried_before_a_set():
    meld = find_meld(parse_cards("7S JK JK JK"), spanish)
    assert meld.kind == RUN
    meld = find_meld(parse_cards("7S JK JK JK"), spanish, kind=SET)
    assert roles(meld) == "7S JK=7H JK=7D JK=7C"


# --- Rommé ---------------------------------------------------------------------------------------


def test_romme_run_with_two_jokers_around_an_ace():
    # JK A♥ JK cannot be K♥ A♥ 2♥ (never around the corner); the ace is tried low first.
    meld = find_meld(parse_cards("JK AH JK"), romme)
    assert meld.kind == RUN
    assert roles(meld) == "AH JK=2H JK=3H"
    assert meld.wild_count == 2
    validate_meld(placed("JK=QH JK=KH AH"), romme)
    with pytest.raises(MeldError, match="K-A-2"):
        validate_meld(placed("JK=KH AH JK=2H"), romme)


def test_romme_run_with_two_jokers_in_the_middle():
    assert find(romme, "6S JK JK 9S") == "6S JK=7S JK=8S 9S"


def test_romme_group_is_three_or_four_cards_of_different_suits():
    meld = find_meld(parse_cards("8S 8H 8C"), romme)
    assert meld.kind == GROUP
    assert roles(meld) == "8S 8H 8C"
    assert find(romme, "AD AS AH AC") == "AS AH AD AC"


def test_two_cards_of_the_same_suit_in_a_group_are_refused():
    with pytest.raises(MeldError, match="two cards of the same suit in a group"):
        find_meld(parse_cards("8C 8H 8C"), romme)
    with pytest.raises(MeldError, match="two cards of the same suit in a group"):
        validate_meld(placed("8C 8H JK=8C"), romme)


def test_a_group_of_five_is_refused():
    with pytest.raises(MeldError, match="a group has at most 4 cards, one of each suit"):
        find_meld(parse_cards("8C 8H 8D 8S JK"), romme, kind=GROUP)
    with pytest.raises(MeldError, match="a group has at most 4 cards"):
        find_meld(parse_cards("8C 8H 8D 8S 8S"), romme)


def test_jokers_in_a_group_stand_for_suits_not_in_it():
    assert find(romme, "8C 8H JK") == "8H 8C JK=8S"
    assert find(romme, "8C JK 8H JK") == "8H 8C JK=8S JK=8D"


def test_romme_meld_needs_a_natural_card():
    with pytest.raises(MeldError, match="at least one natural card"):
        find_meld(parse_cards("JK JK JK"), romme)


def test_romme_has_groups_not_sets():
    with pytest.raises(MeldError, match="this variant has runs and groups, not sets"):
        find_meld(parse_cards("8C 8H 8D"), romme, kind=SET)


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="unknown kind of meld"):
        find_meld(parse_cards("8C 8H 8D"), romme, kind="pair")


# --- validate_meld details ---------------------------------------------------------------------------


def test_a_natural_card_cannot_stand_for_another_card():
    with pytest.raises(
        MeldError, match="7♠ is not a wild card in this variant: it stands for itself, not for 8♠"
    ):
        validate_meld(placed("7S=8S 9S 10S"), classic)


def test_a_wild_card_cannot_stand_for_a_joker():
    with pytest.raises(MeldError, match="cannot stand for a joker"):
        validate_meld([Placed(JOKER, JOKER), *placed("7S 8S")], classic)


def test_validate_returns_a_run_in_rank_order_with_its_kind():
    meld = validate_meld(placed("9H JK=10H 7H 8H"), nordic)
    assert meld.kind == RUN
    assert roles(meld) == "7H 8H 9H JK=10H"
    assert meld.cards == tuple(parse_cards("7H 8H 9H JK"))


def test_validate_puts_a_set_natural_cards_first():
    meld = validate_meld(placed("JK=7C 7H 7S"), nordic)
    assert meld.kind == SET
    assert roles(meld) == "7S 7H JK=7C"


def test_validate_takes_a_meld_and_checks_its_kind():
    meld = find_meld(parse_cards("7S 7H 7D"), nordic)
    assert validate_meld(meld, nordic) == meld
    with pytest.raises(MeldError, match="this meld is a set, not a run"):
        validate_meld(meld, nordic, kind=RUN)


def test_validate_refuses_a_run_given_as_a_set():
    with pytest.raises(MeldError, match="a set is all one rank"):
        validate_meld(placed("7S 8S 9S 10S"), nordic, kind=SET)


def test_meld_json_gives_each_card_and_what_it_stands_for():
    meld = find_meld(parse_cards("6D 2C 8D"), classic)
    assert meld.as_json() == [
        {"card": "6D", "as": "6D"},
        {"card": "2C", "as": "7D"},
        {"card": "8D", "as": "8D"},
    ]


def test_an_empty_meld_is_refused():
    with pytest.raises(MeldError, match="a meld needs cards"):
        validate_meld([], romme)
    with pytest.raises(MeldError, match="a meld needs cards"):
        find_meld([], romme)


def test_bad_options_are_refused():
    with pytest.raises(OptionError):
        find_meld(parse_cards("5S 6S 7S"), classic, {"twos_wild": "maybe"})


def test_find_meld_explains_cards_that_are_neither_run_nor_set():
    with pytest.raises(
        MeldError, match=r"not a run \(.*\) and not a set \(a set is all one rank\)"
    ):
        find_meld(parse_cards("7S 8H 9D 10C"), nordic)


# --- properties ------------------------------------------------------------------------------------

VARIANT_CASES = [
    (classic, None),
    (classic, JOKERS_ONLY),
    (nordic, None),
    (spanish, None),
    (romme, None),
]


def wild_pool(variant, options):
    cards = [JOKER]
    if variant.id == CLASSIC and not options:
        cards += [Card(2, s) for s in SUITS]
    if variant.id == NORDIC:
        cards += [card("AH"), card("AD")]
    return cards


@st.composite
def built_melds(draw):
    """A meld built from explicit roles: a run or set shape, some cards swapped for wild ones."""
    variant, options = draw(st.sampled_from(VARIANT_CASES))
    kinds = [RUN] + ([variant.sets] if variant.sets else [])
    kind = draw(st.sampled_from(kinds))
    suit = draw(st.sampled_from(SUITS))
    if kind == RUN:
        length = draw(st.integers(variant.run_min, min(variant.run_max, 8)))
        start = draw(st.integers(1, 13 if variant.run_wraps else 14 - length + 1))
        ranks = [(start - 1 + i) % 13 + 1 for i in range(length)]
        if start + length - 1 == 14 and not variant.run_wraps:
            ranks = [*list(range(start, 14)), 1]
        targets = [Card(r, suit) for r in ranks]
    else:
        rank = draw(st.integers(1, 13))
        length = draw(st.integers(3, 4 if kind == GROUP else 6))
        if kind == GROUP:
            suits = draw(st.permutations(SUITS))[:length]
        else:
            suits = draw(st.lists(st.sampled_from(SUITS), min_size=length, max_size=length))
        targets = [Card(rank, s) for s in suits]
    pool = wild_pool(variant, options)
    roles_ = []
    for target in targets:
        if draw(st.integers(0, 2)) == 0:
            roles_.append(Placed(draw(st.sampled_from(pool)), target))
        else:
            roles_.append(Placed(target, target))
    return variant, options, kind, roles_


@settings(max_examples=300)
@given(built_melds(), st.data())
def test_a_valid_meld_is_always_found_again_and_what_is_found_is_valid(case, data):
    variant, options, kind, roles_ = case
    try:
        meld = validate_meld(roles_, variant, options, kind=kind)
    except MeldError:
        assume(False)
        return
    cards = data.draw(st.permutations(meld.cards))
    found = find_meld(cards, variant, options, kind=kind)
    assert validate_meld(found, variant, options) == found
    assert sort_cards(found.cards) == sort_cards(meld.cards)
    assert found.wild_count <= meld.wild_count  # natural roles are preferred
    anything = find_meld(cards, variant, options)
    assert validate_meld(anything, variant, options) == anything


@st.composite
def random_cases(draw):
    """A variant and a few cards from a narrow pool (near ranks of one suit, or one rank),
    with the variant's wild cards and a stray card, so that many of them are melds."""
    variant, options = draw(st.sampled_from(VARIANT_CASES))
    low = draw(st.integers(1, 13))
    if draw(st.booleans()):  # run-like: one suit, near ranks
        suit = draw(st.sampled_from(SUITS))
        pool = [Card((low - 1 + i) % 13 + 1, suit) for i in range(6)]
    else:  # set-like: one rank, any suits, a card twice
        pool = [Card(low, s) for s in SUITS] + [Card(low, draw(st.sampled_from(SUITS)))]
    pool += [*wild_pool(variant, options)[:3], JOKER, draw(st.sampled_from(ALL_CARDS))]
    size = draw(st.sampled_from([3, 4, 4, 5, 5, 6, 3, 1, 2, 7]))
    return variant, options, draw(st.permutations(pool))[:size]


@settings(max_examples=300)
@given(random_cases())
def test_whatever_find_meld_returns_passes_validate_meld(case):
    variant, options, cards = case
    try:
        meld = find_meld(cards, variant, options)
    except MeldError as exc:
        event("refused")
        refusal = str(exc)
    else:
        refusal = None
    if refusal is not None:
        assert refusal  # a refusal always says why
        return
    event("found")
    assert validate_meld(meld, variant, options) == meld
    assert sort_cards(meld.cards) == sort_cards(cards)


@settings(max_examples=200)
@given(random_cases(), st.data())
def test_find_meld_does_not_depend_on_the_order_of_the_cards(case, data):
    variant, options, cards = case
    shuffled = data.draw(st.permutations(cards))

    def outcome(cs):
        try:
            return find_meld(cs, variant, options)
        except MeldError as exc:
            return str(exc)

    assert outcome(cards) == outcome(shuffled)


def test_find_meld_roles_are_deterministic():
    cards = parse_cards("JK 7S 2H JK 9S")
    rng = random.Random(7)
    results = set()
    for _ in range(20):
        rng.shuffle(cards)
        results.add(find(classic, " ".join(c.code for c in cards)))
    assert results == {"7S 2H=8S 9S JK=10S JK=JS"}
