"""HTML kept once rendered, for a template whose output depends on nothing but the plain values
of its context: the same values, in the same language, are the same HTML.

Two users: every widget of a form (scorepad/forms/renderer.py; a deal form writes some thirty,
each through a template of its own) and every row of the score sheet (``sheet_row``, the
table is rendered again for each version while only its newest row is new). The key is made
of exactly what the template is given, so a change to anything it writes is a new key; a
context holding anything but plain values (a form, a model object) is rendered every time.
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from decimal import Decimal
from typing import ClassVar

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.functional import Promise
from django.utils.translation import get_language

PLAIN = (int, float, bool, Decimal, type(None))


class Unkeyable(Exception):
    """A value of the context whose HTML may depend on more than what it prints as."""


def plain_key(value: object) -> object:
    """``value`` as a hashable key that tells apart every value a template could write
    differently: the type of each number (``1``, ``True`` and ``1.0`` are equal in Python,
    not on a page), whether a text is marked safe, the order of a dictionary's items
    (attributes are written in that order). A plain text is its own key; every other key
    is a tuple led by its kind, so no two kinds meet; its ``repr`` is as faithful (every
    leaf is a text, a number, a truth value or None)."""
    kind = type(value)
    if kind is str:
        return value
    if kind is dict and isinstance(value, dict):
        return ("d", tuple((plain_key(k), plain_key(v)) for k, v in value.items()))
    if (kind is list or kind is tuple) and isinstance(value, (list, tuple)):
        return (kind.__name__, tuple(plain_key(v) for v in value))
    if kind in PLAIN:
        return (kind.__name__, value)
    if isinstance(value, Promise):  # a lazy translation: what it says in this language
        value = str(value)
    if isinstance(value, str):  # a safe text (SafeString), or a lazy one's text
        return ("safe" if hasattr(value, "__html__") else "str", str(value))
    raise Unkeyable(kind.__name__)


class KeptHTML:
    """A bounded memory of rendered HTML, per process, safe across a worker's threads: at most
    ``size`` characters of HTML (each entry counted with its key's and its own upkeep); the
    least recently used goes first. A key is the digest of the plain key, 16 bytes, whatever
    the size of the context (a row of six players is some fifty values)."""

    UPKEEP = 200  # characters' worth of memory an entry costs beyond its HTML
    every: ClassVar[weakref.WeakSet[KeptHTML]] = weakref.WeakSet()  # every memory made

    def __init__(self, size: int) -> None:
        self.size = size
        self.used = 0
        self._kept: OrderedDict[bytes, str] = OrderedDict()
        self._lock = threading.Lock()
        KeptHTML.every.add(self)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.used = 0

    def __len__(self) -> int:
        return len(self._kept)

    def render(self, name: str, context: dict, render: Callable[[], str]) -> str:
        """The HTML of template ``name`` for ``context``: kept, or ``render()`` and kept."""
        try:
            plain = repr((name, get_language(), plain_key(context)))
        except Unkeyable:
            return render()
        key = hashlib.blake2b(plain.encode(), digest_size=16).digest()
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        html = render()
        with self._lock:
            if key not in self._kept:
                self._kept[key] = html
                self.used += len(html) + self.UPKEEP
            while self.used > self.size and self._kept:
                _, dropped = self._kept.popitem(last=False)
                self.used -= len(dropped) + self.UPKEEP
        return html


@receiver(setting_changed)
def _settings_changed(**kwargs) -> None:
    """HTML is kept by what its template is given, not by the settings it was rendered
    under (the static files' storage, the templates, a feature turned off): a test that
    changes the settings gets HTML rendered under them."""
    for kept in list(KeptHTML.every):
        kept.clear()
