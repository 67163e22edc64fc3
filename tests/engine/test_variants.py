"""The four variants of docs/rules.md as data: decks, wild cards, penalties, options, schedules."""

import pytest

from rules.engine.cards import JOKER, card
from rules.engine.variants import (
    CLASSIC,
    NORDIC,
    ROMME,
    SPANISH,
    VARIANT_IDS,
    DealSpec,
    OptionError,
    build_schedule,
    get_variant,
)

classic = get_variant(CLASSIC)
nordic = get_variant(NORDIC)
spanish = get_variant(SPANISH)
romme = get_variant(ROMME)


def test_the_four_variant_ids():
    assert VARIANT_IDS == ("classic", "contract-nordic", "contract-spanish", "romme")
    for vid in VARIANT_IDS:
        assert get_variant(vid).id == vid


def test_an_unknown_variant_is_refused():
    with pytest.raises(OptionError) as exc:
        get_variant("poker")
    assert exc.value.code == "bad_variant"
    assert "poker" in str(exc.value)


# --- players and decks ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "low", "high"),
    [(classic, 2, 12), (nordic, 3, 5), (spanish, 2, 8), (romme, 2, 4)],
)
def test_players_allowed(variant, low, high):
    variant.check_players(low)
    variant.check_players(high)
    for bad in (low - 1, high + 1):
        with pytest.raises(OptionError) as exc:
            variant.check_players(bad)
        assert exc.value.code == "bad_players"


@pytest.mark.parametrize(
    ("players", "decks"),
    [(2, 2), (5, 2), (6, 3), (8, 3), (9, 4), (12, 4)],
)
def test_classic_decks_and_jokers_by_player_count(players, decks):
    assert classic.decks(players) == (decks, decks)


def test_nordic_uses_two_decks_with_two_jokers_each():
    for players in (3, 4, 5):
        for deal in range(1, 8):
            assert nordic.decks(players, deal) == (2, 4)


def test_romme_uses_two_decks_and_one_joker_per_player():
    assert [romme.decks(p) for p in (2, 3, 4)] == [(2, 2), (2, 3), (2, 4)]


@pytest.mark.parametrize("players", [2, 3])
def test_spanish_two_or_three_players_use_two_decks_throughout(players):
    assert [spanish.decks(players, d)[0] for d in range(1, 8)] == [2] * 7


def test_spanish_four_players_add_a_third_deck_from_deal_five():
    assert [spanish.decks(4, d)[0] for d in range(1, 8)] == [2, 2, 2, 2, 3, 3, 3]


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_spanish_five_to_eight_players_add_a_deck_after_deals_two_and_four(players):
    assert [spanish.decks(players, d)[0] for d in range(1, 8)] == [2, 2, 3, 3, 4, 4, 4]


def test_spanish_decks_have_two_jokers_each():
    for deal in range(1, 8):
        decks, jokers = spanish.decks(6, deal)
        assert jokers == 2 * decks


def test_dealing_direction_and_first_dealer():
    assert classic.direction == nordic.direction == romme.direction == "left"
    assert spanish.direction == "right"
    assert classic.dealer_rule == "lowest"
    assert nordic.dealer_rule == "highest"


def test_cards_dealt():
    assert classic.cards_dealt() == 15
    assert romme.cards_dealt() == 14
    assert [nordic.cards_dealt(d) for d in range(1, 8)] == [12] * 7
    assert [spanish.cards_dealt(d) for d in range(1, 8)] == [6, 7, 8, 9, 10, 11, 12]


# --- melds and wild cards ------------------------------------------------------------------------


def test_meld_rules_per_variant():
    assert (classic.run_min, classic.run_max, classic.run_wraps, classic.sets) == (
        3,
        5,
        False,
        None,
    )
    assert (nordic.run_min, nordic.run_wraps, nordic.sets) == (4, False, "set")
    assert (spanish.run_min, spanish.run_max, spanish.run_wraps) == (4, 13, True)
    assert (romme.run_min, romme.run_wraps, romme.sets) == (3, False, "group")


def test_wild_limits_per_variant():
    assert classic.wild_limit == "any"
    assert nordic.wild_limit == "not_more_than_natural"
    assert spanish.wild_limit == "needs_natural"
    assert romme.wild_limit == "needs_natural"


def test_jokers_are_wild_in_every_variant():
    for vid in VARIANT_IDS:
        assert get_variant(vid).can_be_wild(JOKER)


def test_classic_twos_are_wild_unless_jokers_only():
    assert classic.can_be_wild(card("2S"))
    assert classic.can_be_wild(card("2H"), {"twos_wild": True})
    assert not classic.can_be_wild(card("2S"), {"twos_wild": False})
    assert classic.can_be_wild(JOKER, {"twos_wild": False})
    assert not classic.can_be_wild(card("3S"))


def test_nordic_red_aces_are_wild_black_aces_are_not():
    assert nordic.can_be_wild(card("AH"))
    assert nordic.can_be_wild(card("AD"))
    assert not nordic.can_be_wild(card("AS"))
    assert not nordic.can_be_wild(card("AC"))
    assert not nordic.can_be_wild(card("2H"))


def test_spanish_and_romme_have_only_jokers_wild():
    for variant in (spanish, romme):
        assert not variant.can_be_wild(card("2S"))
        assert not variant.can_be_wild(card("AH"))


# --- penalties -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "points"),
    [
        ("2S", 5),
        ("9H", 5),
        ("10D", 10),
        ("JC", 10),
        ("QS", 10),
        ("KH", 10),
        ("AS", 20),
        ("AH", 20),
        ("JK", 50),
    ],
)
def test_nordic_card_penalties(code, points):
    assert nordic.penalty(card(code)) == points


@pytest.mark.parametrize(
    ("code", "points"),
    [("2S", 5), ("7H", 5), ("8D", 10), ("9C", 10), ("10S", 10), ("KH", 10), ("AS", 20), ("JK", 50)],
)
def test_spanish_card_penalties_count_eight_and_nine_as_ten(code, points):
    assert spanish.penalty(card(code)) == points


@pytest.mark.parametrize(
    ("code", "points"),
    [("2S", 2), ("7H", 7), ("10D", 10), ("JC", 10), ("QS", 10), ("KH", 10), ("AS", 11), ("JK", 20)],
)
def test_romme_card_penalties_are_face_values(code, points):
    assert romme.penalty(card(code)) == points


def test_classic_has_no_card_penalties():
    with pytest.raises(OptionError):
        classic.penalty(card("5S"))


def test_classic_payment_table():
    assert classic.payment_table == {
        "going_out": 1,
        "wild_twos": 1,
        "jokers": 2,
        "no_wild": 10,
        "first_turn_drawn": 7,
        "first_turn_undrawn": 10,
        "one_suit": 10,
    }


# --- options -----------------------------------------------------------------------------------


def test_option_defaults_follow_rules_md():
    assert classic.default_options() == {"twos_wild": True}
    assert nordic.default_options() == {"no_may_i_last_three": False}
    assert spanish.default_options() == {}
    assert romme.default_options() == {
        "opening_minimum": 51,
        "ace_low_is_one": False,
        "handromme_doubles": False,
        "joker_in_each_hand": True,
    }


def test_missing_options_take_their_defaults():
    assert classic.resolve_options(None) == {"twos_wild": True}
    assert romme.resolve_options({"opening_minimum": 40})["handromme_doubles"] is False


@pytest.mark.parametrize(
    ("given", "value"), [(False, False), ("false", False), ("off", False), ("ON", True)]
)
def test_switch_options_take_true_or_false(given, value):
    assert classic.resolve_options({"twos_wild": given}) == {"twos_wild": value}


@pytest.mark.parametrize("given", ["maybe", 1, 0, None])
def test_switch_options_refuse_other_values(given):
    with pytest.raises(OptionError, match="twos_wild"):
        classic.resolve_options({"twos_wild": given})


def test_opening_minimum_is_30_40_or_51():
    assert romme.resolve_options({"opening_minimum": 30})["opening_minimum"] == 30
    assert romme.resolve_options({"opening_minimum": "40"})["opening_minimum"] == 40
    for bad in (45, True, "fifty"):
        with pytest.raises(OptionError, match="opening_minimum"):
            romme.resolve_options({"opening_minimum": bad})


def test_an_unknown_option_is_refused():
    with pytest.raises(OptionError, match="unknown option 'twos_wild' for contract-spanish"):
        spanish.resolve_options({"twos_wild": False})


def test_options_must_be_a_mapping():
    with pytest.raises(OptionError):
        classic.resolve_options(["twos_wild"])


# --- deal schedules ----------------------------------------------------------------------------------


def test_the_seven_contracts():
    contracts = [(d.sets, d.runs) for d in nordic.schedule]
    assert contracts == [(2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3)]
    assert [(d.sets, d.runs) for d in spanish.schedule] == contracts
    assert [d.minimum_cards for d in nordic.schedule] == [6, 7, 8, 9, 10, 11, 12]


def test_deal_spec_by_number():
    spec = spanish.deal_spec(3)
    assert (spec.number, spec.cards, spec.sets, spec.runs) == (3, 8, 0, 2)
    assert spec.as_dict() == {"cards": 8, "sets": 0, "runs": 2, "set_min": 3, "run_min": 4}


@pytest.mark.parametrize("deal", [0, 8, True, "3", None])
def test_a_deal_outside_the_schedule_is_refused(deal):
    with pytest.raises(OptionError) as exc:
        nordic.deal_spec(deal)
    assert exc.value.code == "bad_deal"


def test_classic_and_romme_have_no_schedule():
    for variant in (classic, romme):
        with pytest.raises(OptionError):
            variant.deal_spec(1)


def test_a_custom_schedule_is_built_from_rows():
    schedule = build_schedule(
        [
            {"cards": 13, "sets": 2, "runs": 1},
            {"cards": 16, "sets": 0, "runs": 3, "run_min": 5},
            {"cards": "8", "sets": "2", "set_min": 4},
        ]
    )
    assert schedule == (
        DealSpec(1, 13, 2, 1),
        DealSpec(2, 16, 0, 3, run_min=5),
        DealSpec(3, 8, 2, 0, set_min=4),
    )


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([], "at least one deal"),
        ([{"cards": 10, "sets": 1}] * 21, "at most 20 deals"),
        ([{"sets": 1}], "how many cards"),
        (["two sets"], "not a deal"),
        ([{"cards": "ten", "sets": 1}], "numbers only"),
        ([{"cards": 0, "sets": 1}], "cards dealt must be 1 to 20"),
        ([{"cards": 21, "sets": 1}], "cards dealt must be 1 to 20"),
        ([{"cards": 10}], "needs a set or a run"),
        ([{"cards": 10, "sets": -1, "runs": 2}], "needs a set or a run"),
        ([{"cards": 10, "sets": 1, "set_min": 2}], "sets need 3 to 8 cards"),
        ([{"cards": 7, "runs": 2}], "needs 8 cards but only 7 are dealt"),
    ],
)
def test_a_bad_custom_schedule_is_refused(rows, message):
    with pytest.raises(OptionError, match=message) as exc:
        build_schedule(rows)
    assert exc.value.code == "bad_schedule"


def test_a_custom_schedule_replaces_the_default_one():
    schedule = build_schedule([{"cards": 16, "sets": 4}])
    assert spanish.cards_dealt(1, schedule) == 16
    assert spanish.deal_spec(1, schedule).sets == 4
