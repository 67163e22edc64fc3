"""The checker's links: short contract URLs (old long ones still open), the way back to the
game it was opened from, and "Link to this hand" with its Copy button."""

import json
import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from django.template import Context, Template
from django.utils import translation

from rules.checker import checker_url
from rules.engine.variants import get_variant
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "check-result"}
SPANISH_HAND = (
    "AS 2S 3S 4S 5H 6H 7H 8H 9D 10D JD QD KC KC"  # deal 7 deals 12: 14 after drawing and a take
)


def game_link(game, token: str = "", next_deal=None) -> str:
    template = Template("{% load scorepad %}{% game_checker_url game next_deal token %}")
    html = template.render(Context({"game": game, "next_deal": next_deal, "token": token}))
    return html.replace("&amp;", "&")


def share_url_of(html: str) -> str:
    match = re.search(r'<p class="check-links"><a href="([^"]+)">', html)
    assert match, "no Link to this hand"
    return match.group(1).replace("&amp;", "&")


def query(url: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(url).query))


# --- short links ------------------------------------------------------------------------------


def test_a_typical_seven_deal_contract_hand_has_a_short_link(client):
    game = GameFactory(variant_id="contract-spanish", players=4)
    with translation.override("en"):
        url = game_link(game)
    assert "schedule" not in url  # the game's schedule is the usual one: nothing to say
    response = client.get(url + "&cards=" + SPANISH_HAND.replace(" ", "+"))
    assert response.status_code == 200  # canonical already
    link = share_url_of(response.content.decode())
    assert len(link) <= 200, (len(link), link)
    assert link.startswith("/en/check/?variant=contract-spanish&deal=7&cards=AS+2S")


def test_a_custom_schedule_is_written_short_and_read_back():
    schedule = [{"cards": 10, "sets": 1, "runs": 1, "run_min": 3} for _ in range(7)]
    with translation.override("en"):
        url = checker_url("contract-nordic", deal=3, schedule=schedule, cards=SPANISH_HAND)
    assert query(url)["schedule"] == "_".join(["10.1.1.3.3"] * 7)
    assert len(url) <= 200, (len(url), url)


def test_an_old_link_with_the_schedule_as_json_still_opens(client):
    rows = [s.as_dict() for s in get_variant("contract-spanish").schedule]
    old = {"variant": "contract-spanish", "deal": "7", "schedule": json.dumps(rows)}
    response = client.get("/en/check/", {**old, "cards": SPANISH_HAND}, follow=True)
    assert response.status_code == 200
    final = response.redirect_chain[-1][0]
    assert "schedule" not in final
    assert query(final)["deal"] == "7"
    assert "Deal 7: 3 runs · 12 cards dealt" in response.content.decode()
    custom = [{**row, "cards": row["cards"] + 1} for row in rows]
    response = client.get("/en/check/", {**old, "schedule": json.dumps(custom)}, follow=True)
    assert query(response.redirect_chain[-1][0])["schedule"].startswith("7.2.0_8.1.1_")
    assert "Deal 7: 3 runs · 13 cards dealt" in response.content.decode()


@pytest.mark.parametrize("text", ["7.2", "7.2.0_", "a.b.c", "7.2.0.3", "７.2.0", "9" * 5000])
def test_a_short_schedule_that_cannot_be_read_is_named(client, text):
    response = client.get("/en/check/", {"variant": "contract-nordic", "schedule": text})
    assert response.status_code == 200
    assert "deal schedule could not be read" in response.content.decode()


# --- back to the sheet ------------------------------------------------------------------------


def test_the_game_page_opens_the_checker_with_the_way_back(client):
    game = GameFactory(variant_id="classic", players=6)
    sheet = client.get(f"/en/games/{game.editor_token}/").content.decode()
    match = re.search(r'<a href="(/en/check/\?[^"]+)">Check a hand</a>', sheet)
    assert match, "no Check a hand link"
    url = match.group(1).replace("&amp;", "&")
    assert query(url)["back"] == f"/en/games/{game.editor_token}/"
    assert query(url)["players"] == "6"
    html = client.get(url).content.decode()
    assert f'<a href="/en/games/{game.editor_token}/">← Back to the sheet</a>' in html
    assert f'name="back" value="/en/games/{game.editor_token}/"' in html


def test_the_way_back_survives_taps_with_and_without_javascript(client):
    game = GameFactory(variant_id="classic", players=3)
    back = f"/en/games/{game.viewer_token}/"
    # without JavaScript the form sends the hidden field: the redirect keeps it
    response = client.get("/en/check/", {"back": back, "add": "QH"}, follow=True)
    assert query(response.redirect_chain[-1][0])["back"] == back
    assert "Back to the sheet" in response.content.decode()
    # htmx: the address bar keeps it too, and the link is not in the swapped parts
    response = client.get("/en/check/", {"back": back, "cards": "QH", "add": "KH"}, **HTMX)
    assert query(response["HX-Replace-Url"])["back"] == back
    assert f"back={back}" in response["HX-Replace-Url"]  # slashes as they are, for the log mask


def test_the_way_back_follows_the_page_language(client):
    game = GameFactory(variant_id="classic", players=3)
    back = f"/en/games/{game.viewer_token}/"
    html = client.get("/de/check/", {"back": back}, follow=True).content.decode()
    assert f'<a href="/de/games/{game.viewer_token}/">' in html


@pytest.mark.parametrize(
    "back",
    [
        "https://example.com/en/games/abcdefghijklmnopqrstuvwxyz/",
        "//example.com/en/games/abcdefghijklmnopqrstuvwxyz/",
        "/en/games/new/",
        "/en/check/",
        "/en/games/abcdefghijklmnopqrstuvwxyz/share/",
        "javascript:alert(1)",
    ],
)
def test_a_back_that_is_not_a_game_page_is_dropped(client, back):
    response = client.get("/en/check/", {"cards": "QH", "back": back}, follow=True)
    assert "back" not in query(response.redirect_chain[-1][0])
    assert "Back to the sheet" not in response.content.decode()


def test_link_to_this_hand_never_carries_the_way_back(client):
    game = GameFactory(variant_id="classic", players=3)
    back = f"/en/games/{game.editor_token}/"
    query_ = {"back": back, "cards": "QH", "seen": "KH", "to": "seen"}
    html = client.get("/en/check/", query_, follow=True).content.decode()
    link = share_url_of(html)
    assert game.editor_token not in link
    assert "to=" not in link
    assert query(link) == {"variant": "classic", "cards": "QH", "seen": "KH"}


def test_the_players_of_the_link_are_those_still_at_the_table():
    game = GameFactory(variant_id="classic", players=7)
    game.seats.filter(position__in=[0, 1]).update(active=False)
    with translation.override("en"):
        assert query(game_link(game))["players"] == "5"
        game.seats.filter(position__gt=1).exclude(position=6).update(active=False)
        assert "players" not in query(game_link(game))  # one player is no table


def test_a_contract_game_links_without_players():
    game = GameFactory(variant_id="contract-nordic", players=4)
    with translation.override("en"):
        url = game_link(game, game.viewer_token)
    assert "players" not in query(url)
    assert query(url)["back"] == f"/en/games/{game.viewer_token}/"


# --- the Copy button --------------------------------------------------------------------------


def test_link_to_this_hand_has_a_copy_button_hidden_without_javascript(client):
    html = client.get("/en/check/", {"cards": "QH"}, follow=True).content.decode()
    match = re.search(r'<p class="share-actions" hidden>\s*<button [^>]*data-copy="([^"]+)"', html)
    assert match, "no Copy button"
    assert (
        match.group(1).replace("&amp;", "&")
        == "http://testserver/en/check/?variant=classic&cards=QH"
    )
    assert "js/share" in html
    assert "share.js" in html
    # the answer swapped in by htmx brings its own button
    fragment = client.get("/en/check/", {"cards": "QH", "add": "KH"}, **HTMX).content.decode()
    assert 'class="share-actions" hidden' in fragment


def test_no_copy_button_without_a_hand(client):
    assert "share-actions" not in client.get("/en/check/").content.decode()
