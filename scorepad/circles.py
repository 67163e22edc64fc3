"""Circles: who may see and change one, and the people of a circle as its pages show them.

A circle is reached like a game: its viewer link or its editor link (random tokens of 144
bits, revocable), and the session of the phone that started it grants editor rights. The
phone's cookie of opened links (``access.SEEN``) lists circle links too, for the home page.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import wraps

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from .access import editor_link_shown, one_writer, private_to_editors, seen_tokens
from .models import Circle

CREATED = "scorepad_circles"  # ids of the circles this phone started


@dataclass
class CircleAccess:
    circle: Circle
    token: str
    role: str  # "editor" or "viewer"
    via: str  # "creator", "editor_link" or "viewer_link"

    @property
    def can_edit(self) -> bool:
        return self.role == "editor"


def created_circle_ids(request: HttpRequest) -> list[int]:
    return list(request.session.get(CREATED, []))


def remember_created_circle(request: HttpRequest, circle: Circle) -> None:
    editor_link_shown(request)
    ids = created_circle_ids(request)
    if circle.pk not in ids:
        request.session[CREATED] = [*ids, circle.pk]


def resolve_circle(request: HttpRequest, token: str) -> CircleAccess:
    circle = Circle.objects.by_token(token).order_by().first()
    if circle is None:
        raise Http404("no circle behind this link")
    if circle.pk in created_circle_ids(request):
        editor_link_shown(request)
        return CircleAccess(circle, token, "editor", "creator")
    if token == circle.editor_token:
        editor_link_shown(request)
        return CircleAccess(circle, token, "editor", "editor_link")
    return CircleAccess(circle, token, "viewer", "viewer_link")


def circle_view(*, editor: bool = False):
    """Resolve the circle link of the URL into ``access``; with ``editor``, viewers get a
    403 that says what the link can do. A POST runs with the circle locked."""

    def decorate(view):
        @wraps(view)
        @private_to_editors
        def inner(request: HttpRequest, token: str, *args, **kwargs) -> HttpResponse:
            with one_writer(request, Circle.objects.by_token(token)):
                access = resolve_circle(request, token)
                if editor and not access.can_edit:
                    return render(
                        request, "scorepad/circle_forbidden.html", {"access": access}, status=403
                    )
                return view(request, access, *args, **kwargs)

        return inner

    return decorate


def is_circle_editor(request: HttpRequest, circle: Circle) -> bool:
    """Whether this phone holds the circle's editor rights: it started the circle, or it
    opened the circle's editor link (its cookie of opened links)."""
    return circle.pk in created_circle_ids(request) or circle.editor_token in seen_tokens(request)


def known_circles(request: HttpRequest) -> list[Circle]:
    """The circles this phone started or opened a link of, each with ``link_token`` (the
    editor link where the phone may change it) and ``can_edit``."""
    ids, seen = created_circle_ids(request), seen_tokens(request)
    if not ids and not seen:
        return []
    circles = list(Circle.objects.known_to(ids, seen))
    seen_set = set(seen)
    for circle in circles:
        circle.can_edit = circle.pk in ids or circle.editor_token in seen_set
        circle.link_token = circle.editor_token if circle.can_edit else circle.viewer_token
        if circle.can_edit:
            editor_link_shown(request)
    return circles
