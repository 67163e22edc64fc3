"""The links and QR codes of the Share page: what another phone at the table can open."""

import pytest
from django.test import override_settings

from scorepad.views.sheet import _qr

TABLE = "http://192.168.1.20:8000"


def share(client, game, host: str, **headers) -> str:
    answer = client.get(f"/en/games/{game.editor_token}/share/", HTTP_HOST=host, **headers)
    assert answer.status_code == 200
    return answer.content.decode()


def assert_links(body: str, base: str, game) -> None:
    for token in (game.viewer_token, game.editor_token):
        url = f"{base}/en/games/{token}/"
        assert f'href="{url}"' in body
        assert _qr(url) in body, f"the QR code does not encode {url}"


@override_settings(TABLE_URL=TABLE, ALLOWED_HOSTS=["127.0.0.1", "localhost", "192.168.1.20"])
@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000"])
def test_on_the_host_computer_under_serve_the_links_use_the_lan_address(client, game, host):
    body = share(client, game, host)
    assert_links(body, TABLE, game)
    assert "127.0.0.1" not in body
    assert "localhost:8000" not in body


@override_settings(TABLE_URL=TABLE, ALLOWED_HOSTS=["192.168.1.20"])
def test_a_phone_on_the_lan_gets_the_address_it_used(client, game):
    assert_links(share(client, game, "192.168.1.20:8000"), TABLE, game)


@override_settings(TABLE_URL="", ALLOWED_HOSTS=["127.0.0.1"])
def test_without_serve_the_links_keep_the_address_of_the_request(client, game):
    assert_links(share(client, game, "127.0.0.1:8000"), "http://127.0.0.1:8000", game)


@override_settings(
    PUBLIC_URL="https://cards.example.org",
    TABLE_URL=TABLE,
    ALLOWED_HOSTS=["127.0.0.1", "internal-app"],
)
@pytest.mark.parametrize("host", ["127.0.0.1:8000", "internal-app:8000"])
def test_public_url_wins_everywhere(client, game, host):
    assert_links(share(client, game, host), "https://cards.example.org", game)


@override_settings(
    PUBLIC_URL="",
    TABLE_URL="",
    ALLOWED_HOSTS=["cards.example.org"],
    SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"),
)
def test_behind_a_proxy_the_links_take_its_scheme_and_host(client, game):
    body = share(client, game, "cards.example.org", HTTP_X_FORWARDED_PROTO="https")
    assert_links(body, "https://cards.example.org", game)


@override_settings(
    PUBLIC_URL="",
    TABLE_URL="",
    ALLOWED_HOSTS=["cards.example.org", "10.0.0.7"],
    USE_X_FORWARDED_HOST=True,
    SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"),
)
def test_behind_a_proxy_that_forwards_the_host(client, game):
    body = share(
        client,
        game,
        "10.0.0.7:8000",
        HTTP_X_FORWARDED_HOST="cards.example.org",
        HTTP_X_FORWARDED_PROTO="https",
    )
    assert_links(body, "https://cards.example.org", game)
