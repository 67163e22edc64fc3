"""The card grid: a reusable keyboard of cards that types card tokens into a text input.

    {% load cards %}
    {% card_grid "id_hand" %}

Four suit rows of thirteen ranks and a joker key, as HTML buttons with spoken names
("queen of hearts"); ``static/js/cards.js`` makes them type canonical tokens (``QH``) into
the input whose id is given. Without JavaScript the grid stays hidden and the text input
alone works (it accepts canonical tokens and the local rank letters of the language).
"""

from __future__ import annotations

from django import template
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from rules.engine.cards import JOKER, RANKS, SUITS, Card, local_code

register = template.Library()

RANK_NAMES = {
    1: gettext_lazy("ace"),
    2: gettext_lazy("two"),
    3: gettext_lazy("three"),
    4: gettext_lazy("four"),
    5: gettext_lazy("five"),
    6: gettext_lazy("six"),
    7: gettext_lazy("seven"),
    8: gettext_lazy("eight"),
    9: gettext_lazy("nine"),
    10: gettext_lazy("ten"),
    11: gettext_lazy("jack"),
    12: gettext_lazy("queen"),
    13: gettext_lazy("king"),
}
SUIT_NAMES = {
    "S": gettext_lazy("spades"),
    "H": gettext_lazy("hearts"),
    "D": gettext_lazy("diamonds"),
    "C": gettext_lazy("clubs"),
}


def card_name(card: Card) -> str:
    if card.is_joker:
        return _("joker")
    return _("%(rank)s of %(suit)s") % {
        "rank": RANK_NAMES[card.rank],
        "suit": SUIT_NAMES[card.suit],
    }


@register.inclusion_tag("cards/grid.html")
def card_grid(target: str, label: str = "") -> dict:
    lang = get_language()
    suits = []
    for suit in SUITS:
        cards = []
        for rank in RANKS:
            card = Card(rank, suit)
            cards.append(
                {"code": card.code, "face": local_code(card, lang), "name": card_name(card)}
            )
        suits.append({"suit": suit, "name": SUIT_NAMES[suit], "red": suit in "HD", "cards": cards})
    return {
        "target": target,
        "label": label or _("Cards"),
        "suits": suits,
        "joker": {"code": JOKER.code, "name": card_name(JOKER)},
    }


@register.filter
def card_face(code: str) -> str:
    """A canonical card token as this language writes it, with its suit symbol."""
    from rules.engine.cards import parse_card

    try:
        return local_code(parse_card(code), get_language())
    except ValueError:
        return code
