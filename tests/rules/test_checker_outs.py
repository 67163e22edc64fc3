"""The checker page's outs: per wait the copies left, the total, and the seen cards that are
taken off (entered with the same grid and typing as the hand, without JavaScript too)."""

import re
from urllib.parse import parse_qsl, urlsplit

import pytest

pytestmark = pytest.mark.django_db

NOT_OUT = "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH"  # waits: every 2 and the joker
TWO_JOKERS = "10S JS QS 2H 4H 5D 6D 7D 9D JD JD 4C 6C JK JK"  # jokers only: waits 3H 10D 5C JK
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "check-result"}


def page(client, lang="en", **query):
    response = client.get(f"/{lang}/check/", query, follow=True)
    assert response.status_code == 200
    return response


def html_of(response) -> str:
    return response.content.decode()


def outs_of(html: str) -> list[tuple[str, str]]:
    """(card's label, "N left") for each wait listed in the answer."""
    return re.findall(
        r'<span class="check-out"><span class="pc[^"]*" role="img" aria-label="([^"]+)">.*?'
        r'<span class="check-left">([^<]+)</span>',
        html,
    )


def seen_of(html: str) -> list[str]:
    match = re.search(r'name="seen" value="([^"]*)"', html)
    assert match, "no seen field"
    return match.group(1).split()


def query_of(response) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(response.redirect_chain[-1][0]).query))


def test_each_wait_shows_its_copies_left_and_the_total(client):
    html = html_of(page(client, cards=NOT_OUT))
    assert outs_of(html) == [
        ("two of spades", "2 left"),
        ("two of hearts", "2 left"),
        ("two of diamonds", "2 left"),
        ("two of clubs", "2 left"),
        ("joker", "2 left"),
    ]
    assert "10 cards left in all that complete it" in html
    assert "Cards left: of 2 decks and 2 jokers" in html


def test_seen_cards_are_taken_off_the_cards_left(client):
    html = html_of(page(client, cards=NOT_OUT, seen="2S 2S JK"))
    assert outs_of(html)[0] == ("two of spades", "0 left")
    assert outs_of(html)[-1] == ("joker", "1 left")
    assert "7 cards left in all that complete it" in html
    assert seen_of(html) == ["2S", "2S", "JK"]


def test_the_players_set_the_decks(client):
    response = page(client, cards=NOT_OUT, players="6")
    html = html_of(response)
    assert outs_of(html)[0] == ("two of spades", "3 left")
    assert "Cards left: of 3 decks and 3 jokers" in html
    assert '<option value="6" selected>6</option>' in html
    assert "6 players" in html  # the settings' one-line summary


def test_an_unknown_number_of_players_is_named_and_left_out(client):
    html = html_of(page(client, cards=NOT_OUT, players="13"))
    assert "There is no table of “13” players: choose 2 to 12" in html
    assert outs_of(html)[0] == ("two of spades", "2 left")


def test_a_wait_held_whole_by_the_hand_is_not_listed(client):
    html = html_of(page(client, cards=TWO_JOKERS, twos_wild="false"))
    assert [label for label, _ in outs_of(html)] == [
        "three of hearts",
        "ten of diamonds",
        "five of clubs",
    ]
    assert "6 cards left in all" in html


def test_a_hand_whose_every_wait_is_in_it_says_so(client, monkeypatch):
    # No hand found by search holds every copy of all its waits (two jokers make most cards
    # a wait), so the engine's answer is stood in for: waits whose outs are all left out.
    from dataclasses import replace

    from rules.checker import presenter
    from rules.engine.cards import JOKER

    real = presenter.check

    def held_whole(request, lang=None):
        return replace(real(request, lang), waits=(JOKER,), outs={})

    monkeypatch.setattr(presenter, "check", held_whole)
    html = html_of(page(client, cards=NOT_OUT))
    assert "Every card that would complete it is already in the hand." in html
    assert "Does not go out · no card left completes it" in html
    assert outs_of(html) == []


def test_tapping_a_card_with_seen_chosen_marks_it_seen_without_javascript(client):
    response = page(client, cards=NOT_OUT, to="seen", add="2H")
    assert query_of(response)["seen"] == "2H"
    assert query_of(response)["to"] == "seen"
    assert query_of(response)["cards"].split() == [
        *NOT_OUT.split()[:8],
        "KH",
        "AD",
        "3D",
        "10C",
        "JC",
        "QC",
        "KC",
    ]
    html = html_of(response)
    assert 'name="to" value="seen" checked' in html
    assert outs_of(html)[1] == ("two of hearts", "1 left")


def test_typed_cards_go_to_the_seen_cards_too(client):
    response = page(client, "de", cards=NOT_OUT, to="seen", type="2♥ B♠")
    assert query_of(response)["seen"] == "JS 2H"


def test_a_seen_card_is_taken_back_and_the_seen_cards_cleared(client):
    response = page(client, cards=NOT_OUT, seen="2S JK", unsee="JK")
    assert query_of(response)["seen"] == "2S"
    response = page(client, cards=NOT_OUT, seen="2S JK", clear="seen")
    assert "seen" not in query_of(response)
    assert query_of(response)["cards"]  # the hand stays


def test_more_copies_than_the_decks_hold_are_refused_and_nothing_changes(client):
    response = page(client, cards=NOT_OUT, seen="2S 2S", players="3", to="seen", add="2S")
    html = html_of(response)
    assert "No more two of spades: the decks of this game hold only 2." in html
    assert seen_of(html) == ["2S", "2S"]
    # the hand counts with the seen cards: a hand card beyond the decks is refused as well
    html = html_of(page(client, cards="4S", seen="4S 4S", players="3", add="4S"))
    assert "No more four of spades" in html


def test_an_htmx_tap_swaps_the_seen_cards_in(client):
    response = client.get("/en/check/", {"cards": NOT_OUT, "to": "seen", "add": "JK"}, **HTMX)
    html = html_of(response)
    assert 'id="check-seen" hx-swap-oob="true"' in html
    assert seen_of(html) == ["JK"]
    assert "seen=JK" in response["HX-Replace-Url"]


def test_other_games_have_no_seen_cards(client):
    response = page(client, variant="romme", seen="2S", to="seen", players="4", add="3S")
    html = html_of(response)
    assert 'name="seen"' not in html
    assert 'name="players"' not in html
    assert query_of(response) == {"variant": "romme", "cards": "3S"}


@pytest.mark.parametrize("lang", ["de", "nb", "pl", "fi", "es"])
def test_the_outs_are_said_in_every_language(client, lang):
    html = html_of(page(client, lang, cards=NOT_OUT, seen="JK"))
    assert "cards left in all" not in html
    assert "left</span>" not in html
    assert len(outs_of(html)) == 5
