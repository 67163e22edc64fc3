import json

import pytest


def post(client, payload, raw=None):
    body = raw if raw is not None else json.dumps(payload)
    return client.post("/api/check", data=body, content_type="application/json")


def test_it_rejects_get(client):
    assert client.get("/api/check").status_code == 405


@pytest.mark.parametrize(
    ("payload", "fragment"),
    [
        ({"variant": "poker", "cards": "AS"}, "unknown variant 'poker'"),
        ({"variant": "classic", "cards": "AS ZZ"}, "“ZZ” is not a card."),
        ({"variant": "classic", "cards": "AS 2S 3S"}, "not 3"),
        ({"variant": "classic", "cards": "AS " * 16}, "16 × AS"),
        ({"variant": "contract-nordic", "cards": "AS " * 13}, "needs the deal"),
        ({"variant": "contract-nordic", "cards": "AS " * 13, "deal": 9}, "deal must be"),
        ({"variant": "classic", "cards": "AS", "options": {"twos_wild": 3}}, "twos_wild"),
        ({"variant": "classic", "cards": "AS", "options": {"colour": 1}}, "unknown option"),
        ({"variant": "romme", "cards": "AS 2S 3S"}, "15 cards"),
    ],
)
def test_bad_requests_get_400_with_a_message_naming_the_problem(client, payload, fragment):
    response = post(client, payload)
    assert response.status_code == 400
    assert fragment in response.json()["error"]


@pytest.mark.parametrize("raw", ["", "not json", "[1, 2]", '"cards"', "null", "\udcff"])
def test_a_body_that_is_not_a_json_object_gets_400(client, raw):
    response = post(client, None, raw=raw.encode("utf-8", "surrogatepass"))
    assert response.status_code == 400
    assert "error" in response.json()


def test_it_needs_no_csrf_token(client):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    response = strict.post(
        "/api/check", data=json.dumps({"variant": "poker"}), content_type="application/json"
    )
    assert response.status_code == 400


RULES_EXAMPLE = "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH JK"


def test_the_rules_example_goes_out_with_payment_3_discarding_the_king_of_hearts(client):
    response = post(client, {"variant": "classic", "cards": RULES_EXAMPLE})
    assert response.status_code == 200
    result = response.json()
    assert result["goes_out"] is True
    assert result["payment"] == 3
    assert result["discard"] == "KH"
    assert result["payment_rows"] == [
        {"row": "going_out", "points": 1},
        {"row": "jokers", "points": 2},
    ]
    assert [{"card": "AD", "as": "AD"}, {"card": "JK", "as": "2D"}, {"card": "3D", "as": "3D"}] in (
        result["melds"]
    )
    assert result["waits"] is None


def test_a_hand_that_does_not_go_out_lists_its_waits_sorted(client):
    result = post(client, {"variant": "classic", "cards": RULES_EXAMPLE[:-3]}).json()
    assert result["goes_out"] is False
    assert result["payment"] is None
    assert result["waits"] == ["2S", "2H", "2D", "2C", "JK"]


# Issue 15: two identical cards never share a classic run, whatever their roles. Without the
# rule this hand went out with the run 2♠(=Q♠) 2♠(=K♠) A♠ (docs/rules.md#identical-cards).
TWO_SPADES_TOGETHER = "AS 2S 2S 5S 6S 7S 4H 5H 6H 7D 8D 9D 9C 10C JC"


def test_two_identical_twos_in_one_run_do_not_go_out(client):
    result = post(client, {"variant": "classic", "cards": TWO_SPADES_TOGETHER}).json()
    assert result["goes_out"] is False
    assert result["melds"] == []
    assert result["payment"] is None
    assert "3S" in result["waits"]
    assert "JK" in result["waits"]


def test_a_hand_that_can_keep_its_identical_twos_apart_goes_out(client):
    result = post(client, {"variant": "classic", "cards": TWO_SPADES_TOGETHER + " 8H"}).json()
    assert result["goes_out"] is True
    assert result["payment"] == 3
    assert result["discard"] == "AS"
    for meld in result["melds"]:
        assert sum(1 for p in meld if p["card"] == "2S") <= 1


def test_output_spells_cards_canonically_whatever_the_input(client):
    cards = "4♠ 5s 6S 7S 9H TH JH QH 10C JC QC KC AD 3D KH joker"
    result = post(client, {"variant": "classic", "cards": cards}).json()
    assert result["cards"] == RULES_EXAMPLE


def test_twos_wild_off_makes_twos_ordinary(client):
    hand = "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH 2C"
    on = post(client, {"variant": "classic", "cards": hand}).json()
    off = post(client, {"variant": "classic", "cards": hand, "options": {"twos_wild": False}})
    assert on["goes_out"] is True
    assert off.json()["goes_out"] is False


def test_a_contract_answer_has_the_contract_fields(client):
    hand = "4S 5S 6S 7S 9H 10H JH QH 2C 3C AH KD 5D"
    result = post(client, {"variant": "contract-nordic", "cards": hand, "deal": 3}).json()
    assert result["deal"] == 3
    assert result["contract"] == {"sets": 0, "runs": 2}
    assert result["can_open"] is True
    assert result["discard"] == "KD"
    assert result["left_in_hand"] == ["5D", "2C", "3C"]
    assert result["penalty"] == 15
    assert result["goes_out"] is False
    # the red ace stands in as a wild card and says for what
    assert {"card": "AH", "as": "8S"} in result["melds"][0]


def test_a_contract_hand_that_cannot_open_pays_for_the_whole_hand(client):
    hand = "4S 9S 6H 7D 9H KH JC QC 2C 3D AS KD 5D"
    result = post(client, {"variant": "contract-spanish", "cards": hand, "deal": 7}).json()
    assert result["can_open"] is False
    assert result["melds"] == []
    assert result["penalty"] == 5 + 10 + 5 + 5 + 10 + 10 + 10 + 10 + 5 + 5 + 20 + 10 + 5


def test_a_romme_answer_has_the_opening_value_against_the_minimum(client):
    hand = "AH 2H 3H 4H 5H KS KH KD 9C 9D JK 10S 7C 8C 4D"
    result = post(client, {"variant": "romme", "cards": hand}).json()
    assert result["opening_points"] == 89
    assert result["can_open"] is True
    assert result["handromme"] is False
    assert result["discard"] == "10S"
    low = post(client, {"variant": "romme", "cards": hand, "options": {"opening_minimum": 30}})
    assert low.json()["can_open"] is True


def test_outs_count_the_unseen_copies_of_each_wait(client):
    cards = RULES_EXAMPLE[:-3]
    result = post(client, {"variant": "classic", "cards": cards, "seen": "2S JK"}).json()
    assert result["waits"] == ["2S", "2H", "2D", "2C", "JK"]
    assert result["outs"] == {"2S": 1, "2H": 2, "2D": 2, "2C": 2, "JK": 1}
    table = post(client, {"variant": "classic", "cards": cards, "players": 12}).json()
    assert table["outs"] == {"2S": 4, "2H": 4, "2D": 4, "2C": 4, "JK": 4}
    assert post(client, {"variant": "classic", "cards": RULES_EXAMPLE}).json()["outs"] is None


def test_seen_cards_beyond_the_decks_get_400(client):
    payload = {"variant": "classic", "cards": RULES_EXAMPLE[:-3], "seen": "JK JK JK", "players": 3}
    response = post(client, payload)
    assert response.status_code == 400
    assert "hold 3 × JK, but the decks hold only 2" in response.json()["error"]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_api_page_describes_seen_players_and_outs(client, lang):
    html = client.get(f"/{lang}/api/").content.decode()
    for field in ("<code>seen</code>", "<code>players</code>", "<code>outs</code>"):
        assert field in html
