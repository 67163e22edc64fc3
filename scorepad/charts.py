"""Every chart of the app, in one place: the sheet's running totals, an evening's balances
and a player's rating. One family of dataclasses (``Chart`` of ``Series``), the players'
marks (a colour and a shape each) and one template, ``templates/scorepad/_chart.html``,
which draws any ``Chart`` with the classes ``.m0`` ... ``.m11`` of ``static/css/app.css``.

Plain Python, no Django (the engine's cents aside). Every number a chart holds is already SVG text (``coordinate``:
``8.5``, never the page's ``8,5``), so the template writes it as it is in every language."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from rules.engine.evening import from_cents

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

WIDTH = 320  # every chart is this wide; its height is its own (SHEET, EVENING, RATING)
PAD = 8  # the margin around the plot
SHEET_HEIGHT, EVENING_HEIGHT, RATING_HEIGHT = 200, 180, 160
VALUES_ROOM = 30  # the sheet's: room on the left for the values of the axis
DEALS_ROOM = 18  # and below for the deal numbers


def mark_path(mark: int) -> str:
    """The outline of a player's mark (SVG path data; evenodd for a hollow one)."""
    outer, inner = SHAPES[mark % len(SHAPES)]
    return outer if mark % MARKS < len(SHAPES) else f"{outer}{inner}"


def coordinate(value: float) -> str:
    """A number as SVG reads it, whatever the page's language: 8, 8.5, -3.2 (never 8,5)."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def points(xy: Sequence[tuple[float, float]]) -> str:
    """The ``points`` of an SVG polyline or polygon."""
    return " ".join(f"{coordinate(x)},{coordinate(y)}" for x, y in xy)


@dataclass(frozen=True)
class Series:
    """One line of a chart, in a player's mark."""

    name: str
    points: str  # the SVG polyline points
    mark: int

    @property
    def path(self) -> str:
        """The mark drawn at each point of the line."""
        return mark_path(self.mark)


@dataclass(frozen=True)
class Chart:
    """What the partial draws: lines in the players' marks over a grid, and what a chart
    has of its own: a zero line (``axis``), a band under the first line, labels of values
    on the left and of deal numbers below. ``low`` and ``high`` are for the caption."""

    height: int
    series: tuple[Series, ...]
    grid: str  # SVG path data of the grid lines
    low: int | Decimal | float
    high: int | Decimal | float
    axis: str = ""  # SVG path data of the line of zero
    band: str = ""  # polygon points of a band around the first line
    values: tuple[tuple[str, str], ...] = ()  # (y, text) of the values on the left
    deals: tuple[tuple[str, str], ...] = ()  # (x, text) of the deal numbers below
    stretch: bool = False  # drawn to the figure's box (no text in it to distort)
    key: str = ""  # makes the markers' ids unique on a page of several charts
    width: int = WIDTH

    @property
    def values_x(self) -> int:
        return VALUES_ROOM - 3

    @property
    def deals_y(self) -> int:
        return self.height - 5

    @property
    def marker_prefix(self) -> str:
        return f"{self.key}-mk" if self.key else "mk"

    @property
    def caption_id(self) -> str:
        return f"chart-caption-{self.key}" if self.key else "chart-caption"


@dataclass(frozen=True)
class Frame:
    """The plot's box and the range of its values: where step ``i`` and value ``v`` fall.
    ``digits``: how the coordinates are rounded (None: to whole numbers)."""

    left: float
    right: float
    top: float
    bottom: float
    steps: int
    low: float
    high: float
    digits: int | None = 1

    def x(self, i: int) -> float:
        return round(self.left + (self.right - self.left) * i / self.steps, self.digits)

    def y(self, v: float) -> float:
        span = self.high - self.low
        return round(self.top + (self.bottom - self.top) * (self.high - v) / span, self.digits)

    def line(self, column: Sequence[float], first: int = 0) -> str:
        """The points of one player's values, from step ``first`` on."""
        return points([(self.x(j), self.y(v)) for j, v in enumerate(column) if j >= first])

    def verticals(self, steps: Sequence[int]) -> str:
        top, bottom = coordinate(self.top), coordinate(self.bottom)
        return "".join(f"M{coordinate(self.x(j))} {top}V{bottom}" for j in steps)


def _span(values: Sequence[float]) -> tuple[float, float]:
    low, high = min(values), max(values)
    return (low, high) if low != high else (low, low + 1)


def running_totals(
    names: Sequence[str],
    marks: Sequence[int],
    columns: Sequence[Sequence[int]],
    firsts: Sequence[int],
    *,
    classic: bool,
) -> Chart:
    """The sheet's chart: each player's running total from deal 0 to the last deal (a player
    who joined later from ``firsts``, the deal before their first), with round values on the
    left (``classic``: +12, −4, as the classic game writes them) and the deal numbers below."""
    low, high = _span([v for col, first in zip(columns, firsts, strict=True) for v in col[first:]])
    steps = len(columns[0]) - 1
    left, right = VALUES_ROOM, WIDTH - PAD
    frame = Frame(left, right, PAD, SHEET_HEIGHT - DEALS_ROOM, steps, low, high, digits=None)
    ticks = axis_values(int(low), int(high))
    every = deal_label_step(steps)
    numbered = [j for j in range(1, steps + 1) if j % every == 0 or j == 1]
    grid = frame.verticals(numbered)
    grid += "".join(f"M{left} {coordinate(frame.y(v))}H{right}" for v in ticks if v)
    return Chart(
        height=SHEET_HEIGHT,
        series=tuple(
            Series(name, frame.line(col, first), mark)
            for name, mark, col, first in zip(names, marks, columns, firsts, strict=True)
        ),
        grid=grid,
        low=int(low),
        high=int(high),
        axis=f"M{left} {coordinate(frame.y(0))}H{right}",
        values=tuple((coordinate(frame.y(v)), signed(v) if classic else str(v)) for v in ticks),
        deals=tuple((coordinate(frame.x(j)), str(j)) for j in numbered),
    )


def balances(names: Sequence[str], columns: Sequence[Sequence[int]]) -> Chart:
    """An evening's chart: each player's balance in cents from the start of the evening to
    the end of each game, a grid line at each game and the line of a zero balance."""
    low, high = _span([v for col in columns for v in col] + [0])
    steps = len(columns[0]) - 1
    frame = Frame(PAD, WIDTH - PAD, PAD, EVENING_HEIGHT - PAD, steps, low, high)
    return Chart(
        height=EVENING_HEIGHT,
        series=tuple(
            Series(name, frame.line(col), i % MARKS)
            for i, (name, col) in enumerate(zip(names, columns, strict=True))
        ),
        grid=frame.verticals(range(steps + 1)),
        low=from_cents(int(low)),
        high=from_cents(int(high)),
        axis=f"M0 {coordinate(frame.y(0))}H{WIDTH}",
        stretch=True,
    )


def rating(history: Sequence[tuple[float, float]], key: str = "") -> Chart:
    """A player's rating (mu, sigma) from the start and after each finished game: the line
    of mu in the first mark and the band mu ± sigma, a grid line at each game."""
    low = min(mu - sigma for mu, sigma in history)
    high = max(mu + sigma for mu, sigma in history)
    steps = len(history) - 1
    frame = Frame(PAD, WIDTH - PAD, PAD, RATING_HEIGHT - PAD, steps, low, high)
    upper = [(frame.x(i), frame.y(mu + sigma)) for i, (mu, sigma) in enumerate(history)]
    lower = [(frame.x(i), frame.y(mu - sigma)) for i, (mu, sigma) in enumerate(history)]
    return Chart(
        height=RATING_HEIGHT,
        series=(Series("", frame.line([mu for mu, _ in history]), 0),),
        grid=frame.verticals(range(steps + 1)),
        low=round(low, 1),
        high=round(high, 1),
        band=points(upper + lower[::-1]),
        stretch=True,
        key=key,
    )


def signed(value: int | None) -> str:
    """+12, −4, 0: the classic game's balances read as gains and losses (the sheet, its axis,
    the shared result)."""
    if value is None:
        return ""
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def axis_values(low: int, high: int, most: int = 5) -> list[int]:
    """Round values for the axis of the running totals, 0 among them: multiples of a step of
    1, 2 or 5 times a power of ten, the smallest that cuts ``low`` to ``high`` into at most
    ``most`` parts."""
    span = high - low
    step = next(
        m * 10**power for power in range(19) for m in (1, 2, 5) if span <= most * m * 10**power
    )
    first = math.ceil(low / step) * step
    return list(range(first, high + 1, step))


def deal_label_step(deals: int) -> int:
    """Every how many deals the chart writes the deal number (the first one always)."""
    for step in (1, 2, 5, 10, 20, 50):
        if deals <= step * 10:
            return step
    return 100
