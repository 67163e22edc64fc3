"""Circles: who may see and change one. A circle is shared like a game (``kernel.Shared``,
``access.shared_view``); the phone's cookie of opened links (``access.SEEN``) lists circle
links too, for the home page.
"""

from __future__ import annotations

from django.http import HttpRequest

from .access import CIRCLES, known, shared_view
from .models import Circle


def circle_view(*, editor: bool = False):
    """``access.shared_view`` of a circle."""
    return shared_view(CIRCLES, editor=editor)


def known_circles(request: HttpRequest) -> list[Circle]:
    """The circles this phone started or opened a link of (``access.known``)."""
    return known(request, CIRCLES, Circle.objects.all())
