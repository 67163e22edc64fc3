"""Where a game, its evening and its circle meet (issue "Trust, part three", items 1, 2, 6
and 11): one game's editor link yields no other game's editor link, a viewer link puts no
game in an evening, the share pictures are under viewer links, and a game added from the
evening page counts at its own money per point."""

from __future__ import annotations

import html
import re
from decimal import Decimal

import pytest
from django.test import Client

from scorepad.access import circle_grant
from scorepad.models import Evening, EveningGame, Game, Person
from tests.factories import ACTOR, CircleFactory, GameFactory
from tests.scorepad.conftest import hidden, own
from tests.scorepad.test_evenings import finished_classic, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def circle_games():
    circle = CircleFactory()
    mine = finished_classic_in(circle)
    others = [finished_classic_in(circle) for _ in range(2)]
    return circle, mine, others


def finished_classic_in(circle):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"], circle=circle)
    from tests.factories import record_classic

    record_classic(game, 0)
    game.refresh_from_db()
    game.end(version=game.version, once=None, actor=ACTOR)
    game.refresh_from_db()
    return game


def test_a_circle_game_s_editor_link_starts_an_evening_without_the_circle_s_other_editor_links(
    circle_games,
):
    circle, mine, others = circle_games
    guest = Client()
    page = guest.get(url("evening-new") + f"?game={mine.editor_token}").content.decode()
    assert mine.editor_token in page  # its own game, ticked
    for other in others:
        assert other.editor_token not in page
    reference = hidden(page, "circle")
    grant = circle_grant(reference)
    assert grant is not None
    assert grant.circle == circle
    assert not grant.whole_circle
    # The reference opens no more than the link it was made from: not the circle's games.
    again = guest.get(url("evening-new") + f"?circle={reference}").content.decode()
    for other in others:
        assert other.editor_token not in again
    # A form sent by hand with another game's editor link is refused, and nothing starts.
    answer = guest.post(
        url("evening-new"),
        {
            "stake": "0.10",
            "circle": reference,
            "once": hidden(page, "once"),
            "games": [mine.editor_token, others[0].editor_token],
        },
    )
    assert answer.status_code == 200
    assert "Choose the games from the list." in answer.content.decode()
    assert not Evening.objects.exists()
    # With its own game the evening starts, in the circle.
    answer = guest.post(
        url("evening-new"),
        {
            "stake": "0.10",
            "circle": reference,
            "once": hidden(page, "once"),
            "games": [mine.editor_token],
        },
    )
    evening = Evening.objects.get()
    assert evening.circle == circle
    assert [e.game for e in evening.games.all()] == [mine]


def test_a_circle_evening_s_editor_page_offers_no_game_the_phone_cannot_change(circle_games):
    circle, mine, others = circle_games
    evening = Evening.objects.create(stake="0.10", circle=circle)
    guest = Client()
    page = guest.get(url("evening", evening.editor_token)).content.decode()
    for game in [mine, *others]:
        assert game.editor_token not in page
    # The phone that holds one game's editor link is offered that game alone.
    guest.get(url("game", mine.editor_token))
    page = guest.get(url("evening", evening.editor_token)).content.decode()
    assert mine.editor_token in page
    assert all(other.editor_token not in page for other in others)
    # The circle's editor is offered all of them.
    keeper = Client()
    keeper.get(url("circle", circle.editor_token))
    page = keeper.get(url("evening", evening.editor_token)).content.decode()
    assert all(game.editor_token in page for game in [mine, *others])


def test_a_circle_reference_made_from_a_game_dies_with_the_game_s_editor_link(circle_games):
    _circle, mine, _others = circle_games
    page = Client().get(url("evening-new") + f"?game={mine.editor_token}").content.decode()
    reference = hidden(page, "circle")
    mine.replace_link("editor", version=mine.version, once=None, actor=ACTOR)
    assert circle_grant(reference) is None
    answer = Client().get(url("game-new") + f"?circle={reference}")
    assert 'name="circle"' not in answer.content.decode()
    assert Person.objects.count() == 3


def test_a_viewer_link_puts_no_game_in_an_evening():
    game = finished_classic(["Anna", "Ben"])
    viewer = Client()
    viewer.get(url("game", game.viewer_token))  # the phone holds the viewer link only
    evenings = viewer.get(url("game-evenings", game.viewer_token)).content.decode()
    assert "Start an evening with this game" not in evenings
    assert "Only a phone with the game's editor link can put it in an evening." in evenings
    page = viewer.get(url("evening-new") + f"?game={game.viewer_token}").content.decode()
    assert f'value="{game.viewer_token}"' not in page  # not offered to tick
    answer = viewer.post(
        url("evening-new"),
        {"stake": "0.10", "once": hidden(page, "once"), "games": [game.viewer_token]},
    )
    assert answer.status_code == 200
    assert not Evening.objects.exists()
    # Nor into an evening of the viewer's own: adding takes the game's editor link.
    own_evening = Evening.objects.create(stake="0.10")
    page = viewer.get(url("evening", own_evening.editor_token)).content.decode()
    answer = viewer.post(
        url("evening-add", own_evening.editor_token),
        {
            "game": game.viewer_token,
            "stake": "0.10",
            "version": hidden(page, "version"),
            "once": hidden(page, "once"),
        },
    )
    assert "Adding a game to an evening takes the game's editor link." in html.unescape(
        answer.content.decode()
    )
    assert not EveningGame.objects.exists()
    # The owner's own evening still takes it.
    owner = own(Client(), game)
    page = owner.get(url("evening-new")).content.decode()
    owner.post(
        url("evening-new"),
        {"stake": "0.10", "once": hidden(page, "once"), "games": [game.editor_token]},
    )
    assert EveningGame.objects.get().game == game


def picture_src(page: str) -> str:
    match = re.search(r'<p class="result-picture"><img src="([^"]+)"', page)
    assert match, "no share picture"
    return match.group(1)


def test_the_share_pictures_are_under_the_viewer_links():
    game = finished_classic(["Anna", "Ben"])
    page = own(Client(), game).get(url("game", game.editor_token)).content.decode()
    src = picture_src(page)
    assert game.viewer_token in src
    assert game.editor_token not in src
    assert Client().get(src).status_code == 200
    evening = Evening.objects.create(stake="0.10")
    EveningGame.objects.create(evening=evening, game=game, stake="0.10", position=1)
    page = Client().get(url("evening", evening.editor_token)).content.decode()
    src = picture_src(page)
    assert evening.viewer_token in src
    assert evening.editor_token not in src
    assert Client().get(src).status_code == 200
    assert (
        evening.editor_token not in page.split('class="result-picture"')[1].split("</section>")[0]
    )


def test_a_game_added_from_the_evening_page_counts_at_its_own_money_per_point():
    # Marek wins 17 points at 0,50 a point: +8,50 for each of the two others' 8,50... the
    # sheet says +17,00 in all for him; the evening at 0,05 must not make it +1,70.
    game = GameFactory(
        variant_id="classic", players=["Marek", "Kasia"], value_per_point=Decimal("0.50")
    )
    from tests.factories import record_classic

    record_classic(game, 0)
    game.refresh_from_db()
    other = finished_classic(["Marek", "Kasia"])
    phone = own(own(Client(), game), other)
    evening = Evening.objects.create(stake="0.05")
    page = phone.get(url("evening", evening.editor_token)).content.decode()
    # Two games to choose from: the money per point is left for the game's own.
    assert re.search(r'name="stake"[^>]*>', page)
    assert 'name="stake" value=' not in page
    add_as_shown(phone, evening, page, game)
    assert EveningGame.objects.get(game=game).stake == Decimal("0.50")
    # The only game left is chosen, at its own price, or at the evening's without one.
    page = phone.get(url("evening", evening.editor_token)).content.decode()
    assert re.search(r'name="stake" value="0.05"', page)
    add_as_shown(phone, evening, page, other)
    assert EveningGame.objects.get(game=other).stake == Decimal("0.05")
    assert Game.objects.count() == 2


def add_as_shown(phone, evening, page, game):
    """Add ``game`` from the evening page ``page``, the money per point left empty."""
    data = {"game": game.editor_token, "stake": "", "version": hidden(page, "version")}
    data["once"] = hidden(page, "once")
    return phone.post(url("evening-add", evening.editor_token), data)
