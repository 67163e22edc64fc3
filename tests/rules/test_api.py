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
        ({"variant": "classic", "cards": "AS ZZ"}, "'ZZ'"),
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
