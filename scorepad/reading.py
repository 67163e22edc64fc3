"""A new version's rows, read once and shared by the answers one request renders of it.

A deal's POST renders the new version's sheet twice: the viewers' answer, inside the change's
transaction (scorepad/warm.py), and the editor's answer after the commit. Both show the same
rows in the same language; only the editor's links and held form differ. The change keeps
the rows it wrote in memory (``Game.change(rows=...)``), so here they are pinned for the
version the change made (``pin``) and both answers build their sheet from them once
(``board.full_sheet``): the viewers' answer reads no seat, deal or score again, and what is
the same for both (the replaced values' notes, the standings of a game in play) is worked
out once (``once``).

Rows pinned here are that version's for certain: the change wrote them in the transaction
that made the version. So an answer rendered from them is kept without asking the database
whether the game is still at that version (``board.still_at``): it is that version's even if
another phone has moved the game on since.

The pins live as long as the request that made them (``scope``, opened by
``warm.WarmViewersMiddleware``; the viewers' request made inside it shares it), in the
thread that serves it, and never outside one: a command or an import pins nothing.

A request that made a change also keeps what it rendered for the cache (the viewers'
answer, each sheet's kept parts) until its answer is rendered (``defer_writes``, ``later``),
and then writes them in one transaction (``take_later``, the middleware's): a deal's POST
is two transactions, its change and what it kept.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from django.utils.translation import get_language

T = TypeVar("T")

_local = threading.local()


class Pinned:
    """The game object holding a version's rows, and what was worked out from them."""

    def __init__(self, game: Any, event: Any = None) -> None:
        self.game = game
        self.event = event  # the history entry of the change that made the version
        self.made: dict[tuple[str, str | None], Any] = {}


def _pins() -> dict[tuple[int, int], Pinned] | None:
    return getattr(_local, "pins", None)


@contextmanager
def scope() -> Iterator[None]:
    """Pins made while this runs (one request) are found while it runs, and then forgotten."""
    outer, outer_later = _pins(), getattr(_local, "later", None)
    _local.pins, _local.later = {}, None
    try:
        yield
    finally:
        _local.pins, _local.later = outer, outer_later


def defer_writes() -> None:
    """This request made a change: its cache writes wait for the end of its answer."""
    if _pins() is not None and getattr(_local, "later", None) is None:
        _local.later = []


def later(write: Callable[[], None]) -> bool:
    """Keep ``write`` for the end of this request when it defers its writes (True); False:
    the caller writes now."""
    kept = getattr(_local, "later", None)
    if kept is None:
        return False
    kept.append(write)
    return True


def take_later() -> list[Callable[[], None]]:
    """The writes kept for the end of this request, handed over once."""
    kept = getattr(_local, "later", None) or []
    _local.later = None
    return kept


def pin(game: Any, version: int, event: Any = None) -> None:
    """``game``'s loaded seats and deals (with their scores) are ``version``'s rows: the
    change that made ``version`` wrote them, in its transaction, and ``event`` in the
    history, its newest entry."""
    pins = _pins()
    if pins is not None:
        pins[(game.pk, version)] = Pinned(game, event)


def unpin(game: Any, version: int) -> None:
    """The change that would have made ``version`` was rolled back: its rows are nobody's."""
    pins = _pins()
    if pins is not None:
        pins.pop((game.pk, version), None)


def pinned(game: Any) -> Pinned | None:
    """The rows pinned for ``game`` at the version it was read at, if any."""
    pins = _pins()
    return None if pins is None else pins.get((game.pk, game.version))


def once(game: Any, name: str, make: Callable[[], T]) -> T:
    """``make()`` for ``game`` at its version in this language, worked out once in this
    request when its rows are pinned; otherwise worked out every time."""
    found = pinned(game)
    if found is None:
        return make()
    key = (name, get_language())
    if key not in found.made:
        found.made[key] = make()
    return found.made[key]
