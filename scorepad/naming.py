"""The one rule of every name that is compared or stored (a seat's, a person's of a circle,
a circle's, an evening's), whichever way it comes in: typed, picked, imported or restored.

A name is NFC, with runs of white space folded to single spaces and none at either end, and
without the characters that change how it looks but not what it reads: the bidi embeddings
and overrides (U+202A-U+202E), the bidi isolates (U+2066-U+2069), the zero-width space
(U+200B), the word joiner (U+2060) and the byte-order mark (U+FEFF). So "Anna" followed by
a zero-width space is Anna, and a right-to-left override cannot make a name look like
another. The zero-width joiner and non-joiner stay: emoji (👨‍👩‍👧) and some scripts need them.

Two names are one when their ``name_key`` is: the name's case folded (Python's
``casefold``, NFC again after it); SQLite's ``lower()`` folds ASCII only, so the key is
computed here and stored (``Person.key``), never asked of the database."""

from __future__ import annotations

import unicodedata

REMOVED = dict.fromkeys(
    [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200B, 0x2060, 0xFEFF], None
)


def normal_name(raw: str) -> str:
    """``raw`` by the name rule (it may come out empty)."""
    return " ".join(unicodedata.normalize("NFC", raw.translate(REMOVED)).split())


def name_key(name: str) -> str:
    """What a name is compared by: two names with one key are one name."""
    return unicodedata.normalize("NFC", normal_name(name).casefold())


def distinct_name(name: str, taken: set[str], limit: int) -> str:
    """``name``, or when its key is in ``taken`` the first of "name (2)", "name (3)", ...
    whose key is not (shortened to ``limit`` characters with its mark)."""
    if name_key(name) not in taken:
        return name
    n = 2
    while True:
        mark = f" ({n})"
        candidate = name[: limit - len(mark)].rstrip() + mark
        if name_key(candidate) not in taken:
            return candidate
        n += 1
