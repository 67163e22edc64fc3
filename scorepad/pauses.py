"""Named points of the change protocol, between what a write reads and what it writes,
where a test can hold one request while another runs (tests/scorepad/test_name_races.py):
the races of two writes on one person or seat, played in every order, deterministically.

Outside such a test nothing is held: ``point`` is one dictionary lookup."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

_held: dict[str, Callable[[str], None]] = {}


def point(name: str) -> None:
    """The request reached the point ``name``; a test holding it decides when it goes on."""
    hook = _held.get(name)
    if hook is not None:
        hook(name)


@contextmanager
def holding(names: list[str], hook: Callable[[str], None]) -> Iterator[None]:
    """Call ``hook(name)`` at each of these points while inside (tests only)."""
    for name in names:
        _held[name] = hook
    try:
        yield
    finally:
        for name in names:
            _held.pop(name, None)
