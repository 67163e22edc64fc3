import json

import pytest
from django.test import override_settings

pytestmark = pytest.mark.django_db


def post_check(client, addr="10.0.0.1"):
    return client.post(
        "/api/check",
        data=json.dumps({"variant": "nope", "cards": ""}),
        content_type="application/json",
        REMOTE_ADDR=addr,
    )


@override_settings(RATE_LIMITS={"api": 3, "write": 2})
def test_the_api_answers_429_with_a_clear_message_past_the_limit(client):
    assert [post_check(client).status_code for _ in range(3)] == [400, 400, 400]
    response = post_check(client)
    assert response.status_code == 429
    assert "Too many requests" in response.json()["error"]
    assert response["Retry-After"] == "60"


@override_settings(RATE_LIMITS={"api": 1, "write": 2})
def test_limits_count_per_client(client):
    assert post_check(client, "10.0.0.1").status_code == 400
    assert post_check(client, "10.0.0.2").status_code == 400
    assert post_check(client, "10.0.0.1").status_code == 429


@override_settings(RATE_LIMITS={"api": 100, "write": 1})
def test_writes_are_limited_but_reads_are_not(client):
    client.post("/en/", REMOTE_ADDR="10.0.0.3")
    assert client.post("/en/", REMOTE_ADDR="10.0.0.3").status_code == 429
    assert client.get("/en/", REMOTE_ADDR="10.0.0.3").status_code == 200


@override_settings(RATE_LIMITS={"api": 1, "write": 1}, TRUSTED_PROXY_HOPS=1)
def test_behind_a_trusted_proxy_the_forwarded_address_counts(client):
    assert post_check(client, "127.0.0.1").status_code == 400
    response = client.post(
        "/api/check",
        data="{}",
        content_type="application/json",
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR="203.0.113.9",
    )
    assert response.status_code == 400


@override_settings(RATE_LIMITS={"api": 2, "write": 0})
def test_a_limit_of_0_turns_that_limit_off(client):
    assert all(client.post("/en/", REMOTE_ADDR="10.0.0.4").status_code != 429 for _ in range(5))
    assert [post_check(client, "10.0.0.4").status_code for _ in range(3)] == [400, 400, 429]


@override_settings(RATE_LIMITS={"api": 0, "write": 1})
def test_an_api_limit_of_0_turns_the_api_limit_off(client):
    assert all(post_check(client, "10.0.0.5").status_code == 400 for _ in range(5))


@override_settings(RATE_LIMITS={"api": 3, "write": 3})
def test_a_new_window_starts_counting_again(client, monkeypatch):
    import continental.ratelimit as ratelimit

    now = [1_000_000.0]
    monkeypatch.setattr(ratelimit, "now", lambda: now[0])
    assert [post_check(client, "10.0.0.6").status_code for _ in range(4)] == [400] * 3 + [429]
    now[0] += ratelimit.WINDOW_SECONDS
    assert [post_check(client, "10.0.0.6").status_code for _ in range(4)] == [400] * 3 + [429]
