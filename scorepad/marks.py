"""The players' marks, shared by every chart (the sheet's, the evening's, a player's rating):
a colour and a shape per player, and the line of a chart drawn with one. Plain Python, no
Django: ``scorepad/stats.py`` uses it too. The charts are drawn by one template,
``templates/scorepad/_chart.html``, with the classes ``.m0`` ... ``.m11`` of
``static/css/app.css``."""

from __future__ import annotations

from dataclasses import dataclass

MARKS = 12  # .m0 ... .m11 in static/css/app.css: a colour and a shape each

# The players' marks, drawn in a box of 10 by 10: a circle, a square, a triangle, a diamond,
# a triangle upside down and a cross, filled (marks 0 to 5) and hollow (6 to 11, the same
# shapes with a hole, on a dashed line). The stylesheet cuts the same shapes for the sheet's
# headings and the legends (``clip-path: path(evenodd, ...)``; a test keeps them equal), so
# a player is told apart by shape and fill as well as by colour.
SHAPES = (
    ("M5 .5A4.5 4.5 0 1 1 5 9.5A4.5 4.5 0 1 1 5 .5Z", "M5 3A2 2 0 1 0 5 7A2 2 0 1 0 5 3Z"),
    ("M1 1H9V9H1Z", "M3.3 3.3V6.7H6.7V3.3Z"),
    ("M5 0L10 9H0Z", "M5 3.6L7 7.2H3Z"),
    ("M5 0L10 5L5 10L0 5Z", "M5 2.8L7.2 5L5 7.2L2.8 5Z"),
    ("M0 1H10L5 10Z", "M3 2.8H7L5 6.4Z"),
    ("M3 0H7V3H10V7H7V10H3V7H0V3H3Z", "M4.3 1.3H5.7V4.3H8.7V5.7H5.7V8.7H4.3V5.7H1.3V4.3H4.3Z"),
)


def mark_path(mark: int) -> str:
    """The outline of a player's mark (SVG path data; evenodd for a hollow one)."""
    outer, inner = SHAPES[mark % len(SHAPES)]
    return outer if mark % MARKS < len(SHAPES) else f"{outer}{inner}"


def coordinate(value: float) -> str:
    """A number as SVG reads it, whatever the page's language: 8, 8.5, -3.2 (never 8,5)."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def points(xy: list[tuple[float, float]]) -> str:
    """The ``points`` of an SVG polyline or polygon."""
    return " ".join(f"{coordinate(x)},{coordinate(y)}" for x, y in xy)


@dataclass(frozen=True)
class Line:
    """One line of a chart, in a player's mark."""

    name: str
    points: str  # the SVG polyline points
    mark: int

    @property
    def path(self) -> str:
        return mark_path(self.mark)
