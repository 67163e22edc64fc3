"""The hand checker page /<lang>/check/: a GET form whose every state is a URL."""

import os
import re
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from django.test import Client
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.checker import checker_url
from rules.engine.cards import parse_cards

pytestmark = pytest.mark.django_db

RULES_EXAMPLE = "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH JK"
NOT_OUT = "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH"  # waits: every 2 and the joker
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "check-result"}


def page(client, lang="en", **query):
    """The page for this query, after the redirect to its canonical URL if there is one."""
    return client.get(f"/{lang}/check/", query, follow=True)


def body(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def followed(client, lang="en", **query):
    """The page after the redirect to its canonical URL."""
    response = client.get(f"/{lang}/check/", query)
    assert response.status_code == 302
    return client.get(response["Location"]), response["Location"]


def query_of(url: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(url).query))


def hand_of(html: str) -> list[str]:
    match = re.search(r'name="cards" value="([^"]*)"', html)
    assert match, "no hidden cards field"
    return match.group(1).split()


def brief_of(html: str) -> str:
    match = re.search(r'class="check-brief [a-z]+">(?:<a [^>]*>)?([^<]*)<', html)
    assert match, "no brief verdict"
    return match.group(1)


def faces_in(html: str, css: str) -> list[str]:
    """The aria-labels of the card faces inside the first element with class ``css``."""
    start = html.index(f'class="{css}')
    end = html.index("</p>", start) if "</p>" in html[start:] else len(html)
    return re.findall(r'class="pc[^"]*" role="img" aria-label="([^"]+)"', html[start:end])


# --- the page and its variants ----------------------------------------------------------------


def test_the_empty_page_shows_the_grid_and_asks_for_cards(client):
    html = body(page(client))
    assert "Check a hand" in html
    assert html.count('name="add"') == 53  # 52 cards and the joker
    assert "Tap the cards of the hand, or type them." in html
    assert hand_of(html) == []


def test_the_rules_example_goes_out_paying_3_and_discards_the_king_of_hearts(client):
    html = body(page(client, variant="classic", cards=RULES_EXAMPLE))
    assert brief_of(html) == "Goes out · payment 3"
    assert "Goes out" in html
    discard = html[html.index('class="check-discard"') :]
    assert 'aria-label="king of hearts"' in discard[: discard.index("</p>")]
    rows = re.findall(
        r'<th scope="row">([^<]+)(?:<span class="muted">× (\d+)</span>)?</th><td>(\d+)</td>', html
    )
    assert [(label.strip(), count, points) for label, count, points in rows] == [
        ("Going out", "", "1"),
        ("Each joker", "1", "2"),
        ("Each other player pays", "", "3"),
    ]
    # the joker is drawn as a wild card that says what it stands for
    assert 'aria-label="joker as two of diamonds"' in html
    assert '<span class="pc-as red">2♦</span>' in html


def test_a_classic_hand_that_does_not_go_out_shows_its_waits(client):
    html = body(page(client, variant="classic", cards=NOT_OUT))
    assert brief_of(html).strip() == "Does not go out · waits:"
    assert faces_in(html, "check-brief") == faces_in(html, "pcs check-waits")
    assert faces_in(html, "pcs check-waits") == [
        "two of spades",
        "two of hearts",
        "two of diamonds",
        "two of clubs",
        "joker",
    ]


def test_two_identical_twos_never_share_a_run_on_the_page(client):
    # issue 15 (docs/rules.md#identical-cards): without the rule the hand went out with
    # the run 2♠(=Q♠) 2♠(=K♠) A♠; it does not, and with an 8♥ it goes out another way
    hand = "AS 2S 2S 5S 6S 7S 4H 5H 6H 7D 8D 9D 9C 10C JC"
    html = body(page(client, variant="classic", cards=hand))
    assert brief_of(html).startswith("Does not go out")
    html = body(page(client, variant="classic", cards=hand + " 8H"))
    assert brief_of(html) == "Goes out · payment 3"
    discard = html[html.index('class="check-discard"') :]
    assert 'aria-label="ace of spades"' in discard[: discard.index("</p>")]


def test_many_waits_are_counted_in_the_verdict_and_drawn_in_the_answer(client):
    hand = "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC 4D 5D 7D"
    html = body(page(client, variant="classic", cards=hand))
    assert brief_of(html) == "Does not go out · 7 cards complete it"
    assert len(faces_in(html, "pcs check-waits")) == 7


def test_a_hand_no_single_card_completes_says_so(client):
    hand = "AS 3S 5S 7S 9S JS KS AH 3H 5H 7H 9H JH KH 4D"
    html = body(page(client, variant="classic", cards=hand))
    assert "No single card completes this hand." in html


def test_first_turn_options_add_their_payment_row(client):
    html = body(page(client, variant="classic", cards=RULES_EXAMPLE, first_turn="drawn"))
    assert "First turn, after drawing" in html
    assert brief_of(html) == "Goes out · payment 10"
    # without drawing the hand holds 15 cards: 16 are one too many
    html = body(page(client, variant="classic", cards=RULES_EXAMPLE, first_turn="undrawn"))
    assert "On the first turn without drawing the hand holds 15 cards" in html


def test_twos_wild_off_comes_from_the_query(client):
    hand = "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH 2C"
    assert brief_of(body(page(client, variant="classic", cards=hand))).startswith("Goes out")
    off = body(page(client, variant="classic", cards=hand, twos_wild="false"))
    assert brief_of(off).startswith("Does not go out")
    assert '<option value="false" selected>' in off


def test_a_contract_hand_shows_the_contract_melds_cards_left_and_penalty(client):
    hand = "4S 5S 6S 7S 9H 10H JH QH 2C 3C AH KD 5D"
    html = body(page(client, variant="contract-nordic", deal="3", cards=hand))
    assert "Deal 3: 2 runs" in html
    assert "The contract can be laid" in html
    assert brief_of(html) == "Contract laid · penalty 15"
    assert 'aria-label="ace of hearts as eight of spades"' in html
    left = html[html.index("Left in hand") :]
    assert re.findall(r'aria-label="([^"]+)"', left[: left.index("</dd>")]) == [
        "five of diamonds",
        "two of clubs",
        "three of clubs",
    ]


def test_a_contract_hand_that_cannot_open_pays_for_the_whole_hand(client):
    hand = "4S 9S 6H 7D 9H KH JC QC 2C 3D AS KD 5D"
    html = body(page(client, variant="contract-spanish", deal="7", cards=hand))
    assert "The contract cannot be laid" in html
    assert brief_of(html) == "No contract · penalty 110"


def test_a_romme_hand_shows_its_opening_value_against_the_minimum(client):
    hand = "AH 2H 3H 4H 5H KS KH KD 9C 9D JK 10S 7C 8C 4D"
    html = body(page(client, variant="romme", cards=hand))
    assert brief_of(html) == "Can open · 89 of 51"
    assert "(at least 51 needed)" in html
    assert "Handrommé" in html
    raised = body(page(client, variant="romme", cards=hand, opening_minimum="40"))
    assert brief_of(raised) == "Can open · 89 of 40"


def test_a_game_opens_the_checker_with_its_schedule_deal_and_house_rules(client):
    schedule = [
        {"cards": 6, "sets": 2, "runs": 0},
        {"cards": 7, "sets": 1, "runs": 1},
        {"cards": 8, "sets": 0, "runs": 2, "set_min": 3, "run_min": 4},
        {"cards": 16, "sets": 1, "runs": 3, "set_min": 3, "run_min": 4},
    ]
    url = checker_url("contract-spanish", deal=4, schedule=schedule, cards="4S")
    assert url.startswith("/en/check/?variant=contract-spanish&deal=4&schedule=")
    html = body(client.get(url))  # canonical already: no redirect
    assert html.count('name="deal"') == 4
    assert "Deal 4: 1 set and 3 runs · 16 cards dealt" in html
    assert "16 more cards: the hand is checked after drawing, with 17 cards." in html
    schedule_field = re.search(r'name="schedule" value="([^"]+)"', html).group(1)
    assert schedule_field == "6.2.0_7.1.1_8.0.2_16.1.3"  # the short form: cards.sets.runs


def test_a_long_custom_schedule_survives_the_round_trip(client):
    schedule = [{"cards": 10, "sets": 1, "runs": 1, "run_min": 3} for _ in range(20)]
    url = checker_url("contract-spanish", deal=20, schedule=schedule)
    html = body(client.get(url))
    assert html.count('name="deal"') == 20
    assert "Deal 20: 1 set and 1 run (runs of 3+) · 10 cards dealt" in html


def test_checker_url_carries_only_house_rules_that_differ_from_the_defaults():
    with translation.override("de"):
        url = checker_url("classic", options={"twos_wild": False}, cards="KH 4S")
    assert url == "/de/check/?variant=classic&twos_wild=false&cards=4S+KH"
    with translation.override("en"):
        assert checker_url("romme", options={"opening_minimum": 51}) == "/en/check/?variant=romme"


# --- entering cards: add, remove, type, clear -------------------------------------------------


def test_add_and_remove_redirect_to_the_canonical_url(client):
    response, location = followed(client, variant="classic", cards="5S 4S", add="QH")
    assert query_of(location) == {"variant": "classic", "cards": "4S 5S QH"}
    assert hand_of(body(response)) == ["4S", "5S", "QH"]
    response, location = followed(client, variant="classic", cards="4S 5S QH", remove="5S")
    assert query_of(location)["cards"] == "4S QH"
    response, location = followed(client, variant="classic", cards="4S QH", clear="1")
    assert query_of(location) == {"variant": "classic"}


def test_a_card_may_be_added_more_than_once_up_to_the_decks_limit(client):
    response, _ = followed(client, variant="classic", cards="QH", add="QH")
    assert hand_of(body(response)) == ["QH", "QH"]
    # classic tables use up to four decks and four jokers
    html = body(page(client, variant="classic", cards="QH QH QH QH", add="QH"))
    assert "No more queen of hearts: the decks of this game hold only 4." in html
    assert hand_of(html) == ["QH"] * 4
    html = body(page(client, variant="romme", cards="QH QH", add="QH"))
    assert "hold only 2" in html
    html = body(page(client, variant="contract-nordic", cards="JK JK JK JK", add="JK"))
    assert "No more jokers: this game has only 4 jokers." in html


def test_typed_local_rank_letters_are_read_in_the_pages_language(client):
    _, location = followed(client, "de", variant="classic", type="DH BH kh AsS")
    assert query_of(location)["cards"] == "AS JH QH KH"
    assert urlsplit(location).path == "/de/check/"
    _, location = followed(client, "pl", variant="classic", type="WC DC")
    assert query_of(location)["cards"] == "JC QC"
    _, location = followed(client, "nb", variant="classic", type="KnS ES 10♥")
    assert query_of(location)["cards"] == "AS JS 10H"


def test_a_typed_token_that_cannot_be_read_is_named_and_nothing_is_added(client):
    html = body(page(client, variant="classic", cards="4S", type="5S ZZ 6S"))
    assert "“ZZ” is not a card." in html
    assert hand_of(html) == ["4S"]
    assert 'value="5S ZZ 6S"' in html  # kept in the field to correct
    assert 'aria-invalid="true"' in html
    # in English "DH" is no card; the hint shows how this language writes them
    html = body(page(client, variant="classic", type="DH"))
    assert "“DH” is not a card." in html
    assert "Type cards like QH 10S JD AC JK" in html
    assert "Karten so eintippen: DH 10S BD AC JK" in body(page(client, "de"))


def test_a_bad_token_in_the_link_is_named_and_left_out(client):
    html = body(page(client, variant="classic", cards="4S XX 5S"))
    assert "“XX” in the link is not a card and was left out." in html
    assert hand_of(html) == ["4S", "5S"]


def test_too_many_copies_in_a_typed_hand_are_refused_naming_the_card(client):
    html = body(page(client, variant="romme", type="2C 2C 2C"))
    assert "No more two of clubs" in html
    assert hand_of(html) == []


@pytest.mark.parametrize(
    ("query", "text"),
    [
        ({"variant": "classic", "cards": "4S 5S 6S"}, "12 more cards: 15 cards show"),
        (
            {"variant": "classic", "cards": RULES_EXAMPLE + " 2S"},
            "1 card too many: the hand holds 15 to 16 cards.",
        ),
        (
            {"variant": "classic", "cards": NOT_OUT, "first_turn": "drawn"},
            "1 more card: on the first turn",
        ),
        ({"variant": "romme", "cards": RULES_EXAMPLE}, "1 card too many: the hand holds 15 cards."),
        (
            {"variant": "romme", "cards": "4S"},
            "14 more cards: the hand is checked after drawing, with 15 cards.",
        ),
        ({"variant": "contract-spanish", "deal": "3", "cards": "4S 5S"}, "7 more cards"),
        (
            {"variant": "contract-spanish", "deal": "1", "cards": RULES_EXAMPLE + " 2S 2H 2D 2C"},
            "too many: the hand holds 7 to 19 cards.",
        ),
    ],
)
def test_a_hand_of_the_wrong_size_gets_guidance_not_an_error(client, query, text):
    html = body(page(client, **query))
    assert text in html


def test_settings_that_cannot_be_read_are_named_and_the_page_still_answers(client):
    html = body(page(client, variant="poker", cards=RULES_EXAMPLE))
    assert "There is no game “poker”" in html
    assert brief_of(html) == "Goes out · payment 3"
    html = body(page(client, variant="contract-nordic", deal="12"))
    assert "There is no deal “12”" in html
    html = body(page(client, variant="contract-nordic", schedule="[{]"))
    assert "deal schedule could not be read" in html
    html = body(page(client, variant="classic", options='{"colour": 1}'))
    assert "could not be read and were left out: colour=1" in html


# --- URLs, htmx, safety ------------------------------------------------------------------------


def test_the_canonical_url_reproduces_the_hand_without_a_redirect(client):
    _, location = followed(client, variant="classic", type=RULES_EXAMPLE.lower())
    again = Client().get(location)
    html = body(again)
    assert hand_of(html) == sorted(RULES_EXAMPLE.split(), key=lambda c: parse_cards(c)[0].sort_key)
    assert brief_of(html) == "Goes out · payment 3"
    assert f'href="{location.replace("&", "&amp;")}"' in html  # "Link to this hand"


def test_an_htmx_tap_gets_the_changed_parts_and_the_canonical_url(client):
    response = client.get(
        "/en/check/", {"variant": "classic", "cards": NOT_OUT, "add": "JK"}, **HTMX
    )
    html = body(response)
    assert "<html" not in html
    assert response["HX-Replace-Url"] == "/en/check/?" + urlencode(
        {"variant": "classic", "cards": "4S 5S 6S 7S 9H 10H JH QH KH AD 3D 10C JC QC KC JK"}
    )
    assert html.count('hx-swap-oob="true"') == 4  # settings, hand, seen, typing; the answer: target
    assert "Goes out" in html
    assert "HX-Request" in response["Vary"]
    assert response["Server-Timing"].startswith("check;dur=")


def test_an_htmx_history_restore_gets_the_whole_page(client):
    response = client.get(
        "/en/check/",
        {"variant": "classic", "cards": "4S 5S"},
        **HTMX,
        HTTP_HX_HISTORY_RESTORE_REQUEST="true",
    )
    assert "<html" in body(response)


def test_cards_are_named_for_screen_readers_in_the_pages_language(client):
    en = body(page(client, variant="classic", cards="QH"))
    assert '<span class="visually-hidden">queen of hearts</span>' in en  # the grid key
    assert '>Remove </span><span class="pc red" role="img" aria-label="queen of hearts"' in en
    de = body(page(client, "de", variant="classic", cards="QH"))
    assert '<span class="visually-hidden">Herz-Dame</span>' in de
    assert '<span class="pc-rank">D</span>' in de  # the German rank letter on the face


def test_the_page_obeys_the_content_security_policy(client):
    html = body(page(client, variant="classic", cards=RULES_EXAMPLE))
    assert " style=" not in html
    assert not re.search(r"<script(?![^>]*\bsrc=)", html)
    assert not re.search(r"\son[a-z]+=", html)  # no inline event handlers


def test_only_get_is_allowed(client):
    assert client.post("/en/check/", {"cards": "QH"}).status_code == 405


QUERY_KEYS = st.sampled_from(
    [
        "variant",
        "deal",
        "cards",
        "add",
        "remove",
        "type",
        "clear",
        "first_turn",
        "schedule",
        "options",
        "twos_wild",
        "opening_minimum",
        "ace_low_is_one",
        "x",
    ]
)
QUERY_VALUES = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "classic",
            "contract-nordic",
            "contract-spanish",
            "romme",
            "0",
            "-1",
            "7",
            "99999999999999999999",
            "1e999",
            "[" * 200,
            '[{"cards": 1e999, "sets": 1}]',
            '[{"cards": 6, "sets": 2}]',
            '{"twos_wild": [1]}',
            "drawn",
            "undrawn",
            "JK JK JK JK JK JK JK JK JK",
            RULES_EXAMPLE,
            NOT_OUT,
            "AS " * 50,
            "10H\x00",
        ]
    ),
)


@settings(
    max_examples=int(os.environ.get("CHECKER_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    lang=st.sampled_from(["en", "de", "nb", "pl", "fi", "es"]),
    pairs=st.lists(st.tuples(QUERY_KEYS, QUERY_VALUES), max_size=8),
    htmx=st.booleans(),
)
def test_random_query_strings_never_give_a_server_error(client, lang, pairs, htmx):
    headers = HTMX if htmx else {}
    response = client.get(f"/{lang}/check/?" + urlencode(pairs), **headers)
    assert response.status_code < 500
    if response.status_code == 200:
        assert "could not be worked out" not in response.content.decode()
    elif any("\x00" in k + v for k, v in pairs):
        assert response.status_code == 400  # a NUL character is refused before any view
    else:
        assert response.status_code == 302
        follow = client.get(response["Location"])
        assert follow.status_code == 200  # the canonical URL answers at once
