"""One card face: the partial ``cards/face.html#face`` draws every card of the checker, the
score pad and the rules pages."""

import re
import xml.etree.ElementTree as etree

import pytest
from django.urls import reverse
from django.utils import translation

from rules.engine.cards import Card, parse_card
from rules.pages import render_markdown
from rules.pages.faces import face
from rules.pages.markup import RenderContext
from scorepad.models import Event
from tests.factories import GameFactory
from tests.scorepad.conftest import own

pytestmark = pytest.mark.django_db


def shape(element: etree.Element) -> tuple:
    """A face as a comparable tree: tag, attributes (any order), text, children."""
    return (
        element.tag,
        sorted(element.items()),
        element.text,
        [shape(child) for child in element],
    )


def faces_of(html: str) -> list[etree.Element]:
    found = re.findall(
        r'<span (?=[^>]*class="pc[ "])[^>]*>(?:<span [^>]*>[^<]*</span>){2,3}</span>', html
    )
    return [etree.fromstring(f) for f in found]


@pytest.mark.parametrize(
    ("lang", "card", "stands"),
    [("en", "QH", None), ("de", "JK", "2D"), ("pl", "2C", "7D"), ("fi", "10S", None)],
)
def test_the_rules_pages_draw_a_card_with_the_markup_of_the_partial(lang, card, stands):
    text = f"[[cards: {card}{'=' + stands if stands else ''}]]"
    html, _, _ = render_markdown(text, RenderContext(variant=None, lang=lang))
    (drawn,) = faces_of(html)
    partial = etree.fromstring(
        face(parse_card(card), lang, parse_card(stands) if stands else None)["html"]
    )
    assert shape(drawn) == shape(partial)


def test_the_checker_draws_the_hand_with_the_partial(client):
    body = client.get("/de/check/?cards=QH+JK", follow=True).content.decode()
    assert face(parse_card("QH"), "de")["html"] in body
    assert face(Card(0, ""), "de")["html"] in body


def test_the_history_shows_the_cards_drawn_for_the_first_dealer_as_faces(client):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben"])
    own(client, game)
    Event.objects.create(
        game=game, kind="started", details={"draw": [{"0": "QH", "1": "5S"}]}, actor="creator"
    )
    with translation.override("en"):
        url = reverse("game-history", kwargs={"token": game.editor_token})
    body = client.get(url).content.decode()
    assert face(parse_card("QH"), "en")["html"] in body
    assert face(parse_card("5S"), "en")["html"] in body
