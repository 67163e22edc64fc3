"""Card faces: what one face shows, in the words of a language, and its HTML from the template.

The markup of a face is written once, in the partial ``templates/cards/face.html#face``; the
hand checker, the score pad and the rules pages all draw cards with it. A face is rendered
once per card, language and stand-in and kept (there are at most 53 × 53 per language).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from rules.engine.cards import Card, local_code, parse_card

from .words import card_name, rank_text, words

FACE_TEMPLATE = "cards/face.html#face"


@lru_cache(maxsize=4096)
def face(card: Card, lang: str, stands_for: Card | None = None) -> dict[str, Any]:
    """One card face: its code, the rank and suit it shows, its spoken label and its HTML."""
    w = words(lang)["cards"]
    wild = stands_for is not None and stands_for != card
    label = card_name(card, lang)
    if stands_for is not None and wild:
        label = w["stands_for"].format(card=label, **{"as": card_name(stands_for, lang)})
    f: dict[str, Any] = {
        "code": card.code,
        "rank": w["joker_face"] if card.is_joker else rank_text(card, lang),
        "suit": "★" if card.is_joker else local_code(card, lang)[-1],
        "label": label,
        "joker": card.is_joker,
        "red": card.is_red,
        "wild": wild,
        "as_code": local_code(stands_for, lang) if stands_for is not None and wild else "",
        "as_red": stands_for is not None and wild and stands_for.is_red,
    }
    f["html"] = face_html(f)
    return f


def face_html(f: dict[str, Any]) -> SafeString:
    """The face drawn by the template partial (its output is already escaped)."""
    return render_to_string(FACE_TEMPLATE, {"f": f})


def faces(codes, lang: str) -> list[dict[str, Any]]:
    """Faces of canonical card codes (``["QH", "JK"]``) or cards."""
    return [face(c if isinstance(c, Card) else parse_card(c), lang) for c in codes]
