"""The card grid: a reusable keyboard of cards that types card tokens into a text input.

    {% load cards %}
    {% card_grid "id_hand" %}

Four suit rows of thirteen ranks and a joker key, as HTML buttons with spoken names
("queen of hearts", from the same words as the rules pages and the checker); ``static/js/cards.js`` makes them type canonical tokens (``QH``) into
the input whose id is given. Without JavaScript the grid stays hidden and the text input
alone works (it accepts canonical tokens and the local rank letters of the language).
"""

from __future__ import annotations

import json

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from rules.engine.cards import (
    BAD_CARD,
    JOKER,
    RANKS,
    RED_SUITS,
    SUITS,
    Card,
    local_code,
    local_token,
    reading_table,
)
from rules.engine.variants import CLASSIC, Variant, get_variant
from rules.pages.words import card_name, words
from scorepad.kepthtml import KeptHTML

register = template.Library()


@register.simple_tag
def card_grid(
    target: str, label: str = "", variant: Variant | None = None, kept: bool = False
) -> SafeString:
    """``variant``: a game scored by penalties, whose keys then carry each card's points (the
    grid adds up the cards of the hand). ``kept``: a grid kept with the sheet
    (scorepad/board.py), on a page that loads its script itself: no static file named.

    The grid is the same for the same arguments in the same language (fifty-three keys, each
    player's in a penalty game's deal form): rendered once per worker and kept."""
    scored = variant.id if variant is not None and variant.id != CLASSIC else None
    target, label, kept = str(target), str(label), bool(kept)
    return mark_safe(
        GRIDS.render(
            "cards/grid.html",
            {"target": target, "label": label, "scored": scored, "kept": kept},
            lambda: render_to_string("cards/grid.html", _grid_context(target, label, scored, kept)),
        )
    )


# Kept by language and arguments (scorepad/kepthtml.py), emptied with the other kept HTML
# when a test changes the settings: 6,300-7,300 characters a grid, room for some 650.
GRIDS = KeptHTML(5_000_000)


def _grid_context(target: str, label: str, scored_id: str | None, kept: bool) -> dict:
    lang = get_language()
    scored = get_variant(scored_id) if scored_id else None
    points = scored is not None
    suit_names = words(lang)["cards"]["suits"]
    suits = []
    for suit in SUITS:
        cards = []
        for rank in RANKS:
            card = Card(rank, suit)
            cards.append(
                {
                    "code": card.code,
                    "face": local_code(card, lang),
                    "typed": local_token(card, lang),
                    "name": card_name(card, lang),
                    "points": scored.penalty(card) if scored else None,
                }
            )
        suits.append(
            {"suit": suit, "name": suit_names[suit], "red": suit in RED_SUITS, "cards": cards}
        )
    return {
        "target": target,
        "kept": kept,
        "label": label or _("Cards"),
        "suits": suits,
        "joker": {
            "code": JOKER.code,
            "name": card_name(JOKER, lang),
            "points": scored.penalty(JOKER) if scored else None,
        },
        "points": points,
        # How the engine reads a typed token in this language (suit symbols, local rank
        # letters): cards.js reads the hand with it, so its sum is the engine's.
        "reading": json.dumps(reading_table(lang), ensure_ascii=False, separators=(",", ":")),
        # What the engine says of a token it cannot read ({% translate %} would double its %).
        "unread": _(BAD_CARD),
    }


@register.filter
def card_face(code: str) -> str:
    """A canonical card token as this language writes it, with its suit symbol."""
    from rules.engine.cards import parse_card

    try:
        return local_code(parse_card(code), get_language())
    except ValueError:
        return code
