"""The words of the rules pages per language, from ``rules/content/words/<lang>.toml``.

Page furniture, table headings, card names, the house-rule options and the glossary. Loaded
once per process and language.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from rules.engine.cards import RED_SUITS, SUIT_SYMBOLS, Card, local_code

CONTENT_DIR = Path(__file__).resolve().parent.parent / "content"
DEFAULT_LANG = "en"


@cache
def words(lang: str) -> dict[str, Any]:
    """The words of one language; a language without its file falls back to English."""
    path = CONTENT_DIR / "words" / f"{lang}.toml"
    if not path.exists():
        path = CONTENT_DIR / "words" / f"{DEFAULT_LANG}.toml"
    with path.open("rb") as f:
        return tomllib.load(f)


def rank_text(c: Card, lang: str) -> str:
    """The rank as the language writes it on a card face: German ``D`` for a queen."""
    return local_code(c, lang)[:-1]


def card_text(c: Card, lang: str) -> str:
    """Short form for text: ``D♥`` in German, ``JK`` for a joker."""
    return local_code(c, lang)


def card_name(c: Card, lang: str) -> str:
    """The full name read out by a screen reader: ``queen of hearts``, ``Herz-Dame``."""
    w = words(lang)["cards"]
    if c.is_joker:
        return w["joker"]
    return w["name"].format(rank=w["ranks"][c.rank - 1], suit=w["suits"][c.suit])


def suit_symbol(c: Card) -> str:
    return "" if c.is_joker else SUIT_SYMBOLS[c.suit]


def is_red(c: Card) -> bool:
    return c.suit in RED_SUITS
