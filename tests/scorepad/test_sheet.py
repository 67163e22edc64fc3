import gzip
import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from tests.factories import GameFactory, record_classic
from tests.scorepad.conftest import own

pytestmark = pytest.mark.django_db

# The game, the session, and the sheet of the game's version from the database cache (the
# page around it is rendered per answer: its tokens are its own). The written-out single
# query of the game and its kept page is gone with the RenderedSheet table: one query more.
SHEET_QUERIES = 3
# The first view of a version: game, session, the cache (nothing kept yet), seats with
# players, deals, scores, the version again (is the HTML that version's?), and keeping the
# sheet (the cache's count, look-up and insert in a savepoint; on SQLite the busy timeout
# read, set to 0 and put back, so the write never waits behind a writer), and the last
# change of the history (a phone whose correction another overwrote is told).
SHEET_QUERIES_FIRST = 16


def played(players: int, deals: int):
    game = GameFactory(variant_id="classic", players=players)
    for number in range(deals):
        record_classic(game, number % players, jokers=number % 3)
    game.refresh_from_db()
    return game


def first_and_again(client, url: str, django_assert_max_num_queries) -> tuple[int, int]:
    """Queries of the first view of a sheet version (rendered and cached) and of the next."""
    counts = []
    for _ in range(2):
        with django_assert_max_num_queries(SHEET_QUERIES_FIRST) as context:
            assert client.get(url).status_code == 200
        counts.append(len(context))
    return counts[0], counts[1]


@pytest.mark.parametrize(("players", "deals"), [(2, 3), (12, 30)])
def test_the_sheet_costs_the_same_queries_whatever_the_players_and_deals(
    client, django_assert_max_num_queries, players, deals
):
    game = played(players, deals)
    own(client, game)
    url = reverse("game", kwargs={"token": game.editor_token})
    first, again = first_and_again(client, url, django_assert_max_num_queries)
    assert again == SHEET_QUERIES < first
    body = client.get(url).content.decode()
    assert body.count('<tr class="">') + body.count('<tr class="abandoned">') == deals
    assert f"Record deal {deals + 1}" in body


@pytest.mark.parametrize(("players", "deals"), [(2, 3), (12, 30)])
def test_a_viewers_sheet_costs_the_same_queries_too(
    client, django_assert_max_num_queries, players, deals
):
    game = played(players, deals)
    url = reverse("game", kwargs={"token": game.viewer_token})
    first, again = first_and_again(client, url, django_assert_max_num_queries)
    # A phone that only opens links has no session: the game and its cached sheet.
    assert again == SHEET_QUERIES - 1 < first


def test_the_sheet_shows_one_column_per_player_running_totals_and_the_standings(creator, game):
    record_classic(game, 0, jokers=1)  # Anna +9
    record_classic(game, 1, wild_twos=1)  # Ben +6
    body = creator.get(reverse("game", kwargs={"token": game.editor_token})).content.decode()
    head = body[body.index("<thead>") : body.index("</thead>")]
    assert re.findall(r'class="name">([^<]+)<', head) == ["Anna", "Ben", "Cleo", "Dan"]
    foot = body[body.index("<tfoot>") : body.index("</tfoot>")]
    assert re.findall(r"<td>([^<]+)</td>", foot) == ["+7", "+3", "−5", "−5"]
    assert "<small>+9</small>" in body
    assert "<small>+7</small>" in body
    assert '<th scope="col" class="m0 leader"><span class="name">Anna' in body


def test_the_header_says_who_deals_who_starts_and_the_cards_and_decks(client):
    game = GameFactory(
        variant_id="contract-nordic", players=["Anna", "Ben", "Cleo"], first_dealer=2
    )
    own(client, game)
    body = client.get(reverse("game", kwargs={"token": game.editor_token})).content.decode()
    assert "Deal 1 of 7" in body
    assert "<strong>2 sets</strong>" in body
    assert "<dt>Deals</dt><dd>Cleo</dd>" in body
    assert "<dt>Starts</dt><dd>Anna</dd>" in body
    assert "12 each" in body
    assert "2 decks and 4 jokers" in body


def test_a_custom_schedule_shows_its_contracts(client):
    game = GameFactory(
        variant_id="contract-spanish",
        players=2,
        schedule=[{"cards": 16, "sets": 1, "runs": 2, "set_min": 3, "run_min": 5}],
    )
    own(client, game)
    body = client.get(reverse("game", kwargs={"token": game.editor_token})).content.decode()
    assert "Deal 1 of 1" in body
    assert "1 set and 2 runs (runs of 5+)" in body
    assert "16 each" in body


def test_romme_tells_that_the_starting_player_gets_one_card_more(client):
    game = GameFactory(variant_id="romme", players=3)
    own(client, game)
    body = client.get(reverse("game", kwargs={"token": game.editor_token})).content.decode()
    assert "14 each, 15 to who starts" in body
    assert "2 decks and 3 jokers" in body


def test_the_running_totals_chart_is_an_inline_svg_drawn_by_the_server(creator, game):
    record_classic(game, 0, jokers=1)
    record_classic(game, 1)
    body = creator.get(reverse("game", kwargs={"token": game.editor_token})).content.decode()
    svg = body[body.index("<svg viewBox") : body.index("</svg>")]
    assert svg.count("<polyline") == 4
    assert '<polyline class="m0" points="30,' in svg
    assert "Running totals after each deal" in body
    assert "<script" not in svg
    assert "style=" not in body


def test_no_inline_script_or_style_on_the_score_pad_pages(creator, game):
    record_classic(game, 0)
    for name in ("game", "deal-new", "game-share", "game-history"):
        body = creator.get(reverse(name, kwargs={"token": game.editor_token})).content.decode()
        assert "style=" not in body
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", body.split("</head>")[1])


def test_the_first_load_of_a_big_sheet_weighs_under_60_kb_compressed(client):
    game = played(12, 30)
    body = client.get(reverse("game", kwargs={"token": game.viewer_token})).content
    assets = re.findall(rb'(?:src|href)="/static/([^"]+)"', body)
    assert {a.split(b"/")[-1] for a in assets} >= {b"app.css", b"table.js", b"icon.svg"}
    total = len(gzip.compress(body))
    for asset in assets:
        total += len(gzip.compress(Path(finders.find(asset.decode())).read_bytes()))
    assert total < 60_000, total
