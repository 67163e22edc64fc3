import pytest
from django.urls import reverse

from tests.factories import ACTOR, record_classic

pytestmark = pytest.mark.django_db


def version_url(token, v):
    return reverse("game-version", kwargs={"token": token}) + f"?v={v}"


def test_the_sheet_polls_a_small_endpoint_every_few_seconds(client, game):
    body = client.get(reverse("game", kwargs={"token": game.viewer_token})).content.decode()
    assert f'hx-get="{version_url(game.viewer_token, 1)}"' in body
    assert 'hx-trigger="every 3s"' in body
    assert 'hx-target="#sheet"' in body


def test_an_unchanged_sheet_answers_204_from_one_query(client, game, django_assert_num_queries):
    with django_assert_num_queries(1):
        response = client.get(version_url(game.viewer_token, 1))
    assert response.status_code == 204
    assert response.content == b""


def test_a_changed_sheet_answers_with_the_fresh_sheet_partial(client, game):
    record_classic(game, 2, jokers=1)
    response = client.get(version_url(game.viewer_token, 1), HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<section id="sheet"')
    assert "+9" in body
    assert version_url(game.viewer_token, 2) in body
    assert "<html" not in body
    # the success messages of the sheet it replaces go (issue 23, item 5)
    assert '<div id="messages" class="messages" role="status" hx-swap-oob="true"></div>' in body


def test_a_revoked_link_stops_the_polling(client, game):
    old = game.viewer_token
    game.replace_link("viewer", version=game.version, once="v" * 22, actor=ACTOR)
    assert client.get(version_url(old, 1)).status_code == 286


def test_an_editor_with_a_deal_form_open_gets_the_fresh_sheet_without_the_actions(creator, game):
    record_classic(game, 2)
    response = creator.get(
        version_url(game.editor_token, 1),
        HTTP_HX_REQUEST="true",
        HTTP_HX_CURRENT_URL=f"http://testserver/en/games/{game.editor_token}/deals/new/",
    )
    assert "Record deal 2" not in response.content.decode()
    response = creator.get(version_url(game.editor_token, 1), HTTP_HX_REQUEST="true")
    assert "Record deal 2" in response.content.decode()
