"""Text a database can store: an import, a restored backup and the backup's clean-up
(``manage.py backup``) refuse or mend what neither database keeps."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from django.utils.translation import gettext_lazy as _

# NUL: no database stores it in text (PostgreSQL refuses it, SQLite keeps it and a restore
# into PostgreSQL then fails). A lone surrogate (what "\\ud800" in JSON gives) cannot even be
# encoded to UTF-8 for either database.
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")

UNSTORABLE_MESSAGE = _(
    "The file holds a character that cannot be stored (a NUL or a broken character). "
    "Nothing was imported."
)


def _strings(document: Any) -> Iterator[str]:
    """Every string of a parsed JSON document, keys included, without recursion (a deeply
    nested document must not overflow the stack)."""
    stack = [document]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            yield from (k for k in value if isinstance(k, str))
            stack.extend(value.values())
        elif isinstance(value, list | tuple):
            stack.extend(value)


def has_unstorable_text(document: Any) -> bool:
    """Whether a string anywhere in ``document`` holds a NUL or a lone surrogate."""
    return any(UNSTORABLE.search(text) for text in _strings(document))


def storable_text(document: Any) -> tuple[Any, int]:
    """A copy of ``document`` with NULs removed and lone surrogates replaced by U+FFFD, and
    how many strings were changed (the document must not be a cycle: parsed JSON never is)."""
    changed = 0

    def fix(text: str) -> str:
        nonlocal changed
        fixed = UNSTORABLE.sub(_replacement, text)
        changed += fixed != text
        return fixed

    root: list[Any] = [document]
    stack: list[tuple[Any, Any]] = [(root, 0)]
    while stack:
        parent, key = stack.pop()
        value = parent[key]
        if isinstance(value, str):
            parent[key] = fix(value)
        elif isinstance(value, dict):
            parent[key] = copy = {fix(k) if isinstance(k, str) else k: v for k, v in value.items()}
            stack.extend((copy, k) for k in copy)
        elif isinstance(value, list | tuple):
            parent[key] = items = list(value)
            stack.extend((items, i) for i in range(len(items)))
    return root[0], changed


def _replacement(match: re.Match[str]) -> str:
    return "" if match.group() == "\x00" else "\ufffd"
