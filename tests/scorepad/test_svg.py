"""Every SVG on the game page, the evening page and the player page is well-formed XML in
every language, its numbers are SVG numbers (never a decimal comma), and every class it
draws with has a rule in the stylesheet (issue 21, item 3)."""

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorepad.access import circle_reference
from scorepad.models import Evening
from tests.factories import ACTOR, CircleFactory, GameFactory, record_classic, record_penalty
from tests.scorepad.conftest import hidden

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "de", "nb", "pl", "fi", "es"]
CSS = (Path(settings.BASE_DIR) / "static" / "css" / "app.css").read_text()

NUMBER = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
LENGTH = re.compile(rf"{NUMBER}(?:px|%)?")
NUMBERS = re.compile(rf"\s*{NUMBER}(?:(?:\s*,\s*|\s+){NUMBER})*\s*")
PATH_DATA = re.compile(rf"(?:\s*[MmLlHhVvCcSsQqTtAaZz]|\s*,?\s*{NUMBER})+\s*")
# Attributes that hold one number or length, and those that hold a list of numbers.
ONE = {"x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "width", "height",
       "refX", "refY", "markerWidth", "markerHeight", "stroke-width", "fill-opacity",
       "opacity", "stroke-opacity"}  # fmt: skip
MANY = {"viewBox", "points"}
URL = re.compile(r"url\(#([\w-]+)\)")


def finished_classic(names, deals, circle=None):
    game = GameFactory(variant_id="classic", players=names, circle=circle)
    for winner in deals:
        record_classic(game, winner)
    game.refresh_from_db()
    game.end(version=game.version, once=None, actor=ACTOR)
    return game


@pytest.fixture
def pages(db):
    """The pages with charts: a game's, an evening's (stake 0.15: amounts with decimals) and a
    player's (a rating with decimals), each reached by a phone that may open them."""
    client = Client()
    circle = CircleFactory()
    first = finished_classic(["Anna", "Ben", "Cleo"], [0, 1, 2, 0], circle)
    second = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"], circle=circle)
    record_penalty(second, 0, {1: 37, 2: 11})
    second.refresh_from_db()
    second.end(version=second.version, once=None, actor=ACTOR)
    third = finished_classic(["Anna", "Ben", "Cleo"], [1, 1], circle)
    ref = circle_reference(circle)
    form = client.get(reverse("evening-new"), {"circle": ref}).content.decode()
    answer = client.post(
        reverse("evening-new"),
        {
            "circle": ref,
            "name": "Friday",
            "stake": "0.15",
            "once": hidden(form, "once"),
            "games": [g.editor_token for g in (first, second, third)],
        },
    )
    assert answer.status_code == 302
    evening = Evening.objects.get()
    anna = first.seats.get(position=0).person
    return client, {
        "game": lambda: reverse("game", kwargs={"token": first.viewer_token}),
        "evening": lambda: reverse("evening", kwargs={"token": evening.viewer_token}),
        "player": lambda: reverse(
            "circle-player", kwargs={"token": circle.viewer_token, "pk": anna.pk}
        ),
    }


def svgs(body: str) -> list[str]:
    found = re.findall(r"<svg\b.*?</svg>", body, re.S)
    assert found, "no chart on the page"
    return found


def check_svg(text: str) -> None:
    root = ET.fromstring(text)  # well-formed, or ParseError
    ids = {e.get("id") for e in root.iter() if e.get("id")}
    # A chart draws with the stylesheet's classes; a QR code (segno) with its own colours.
    styled = "qr" not in (root.get("class") or "").split()
    for element in root.iter():
        for name, value in element.attrib.items():
            where = f"<{element.tag} {name}={value!r}>"
            if name in ONE:
                assert LENGTH.fullmatch(value), where
            elif name in MANY:
                assert NUMBERS.fullmatch(value), where
            elif name == "d":
                assert PATH_DATA.fullmatch(value), where
            for target in URL.findall(value):
                assert target in ids, where
        for css_class in (element.get("class") or "").split() if styled else []:
            assert re.search(rf"\.{re.escape(css_class)}\b", CSS), f"no CSS for .{css_class}"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("which", ["game", "evening", "player"])
def test_every_svg_is_well_formed_with_plain_numbers(pages, lang, which):
    client, urls = pages
    with translation.override(lang):
        answer = client.get(urls[which]())
    assert answer.status_code == 200
    for svg in svgs(answer.content.decode()):
        check_svg(svg)


@pytest.mark.parametrize("which", ["evening", "player"])
def test_the_evening_and_rating_charts_draw_with_the_players_marks(pages, which):
    """The same per-player marks as the sheet's chart: a class .mN on each line, a marker of
    the player's shape, and the legend with the same mark."""
    client, urls = pages
    body = client.get(urls[which]()).content.decode()
    svg = svgs(body)[0]
    lines = re.findall(
        r'<polyline class="m(\d+)" points="[^"]+" marker-mid="url\(#([\w-]+)\)"', svg
    )
    assert lines, svg
    for mark, marker in lines:
        assert re.search(rf'<marker id="{marker}" class="m{mark}"', svg)
    if which == "evening":
        assert len(lines) == 3
        legend = re.search(r'<ul class="legend">(.*?)</ul>', body, re.S).group(1)
        assert re.findall(r'<li class="m(\d+)">', legend) == [m for m, _ in lines]


# --- what is drawn: a visible stroke per line, in light and dark mode (issue 26) ----------------

MEDIA = re.compile(r"@media\s*([^{]*)\{((?:[^{}]*\{[^{}]*\})*)[^{}]*\}")
RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")


def declarations(css: str) -> list[tuple[str, dict[str, str]]]:
    return [
        (selector.strip(), dict(re.findall(r"([\w-]+)\s*:\s*([^;]+?)\s*(?:;|$)", body)))
        for selector, body in RULE.findall(css)
    ]


def scheme_rules(scheme: str) -> list[tuple[str, dict[str, str]]]:
    """The stylesheet's rules as a screen in ``scheme`` applies them: the rules outside any
    @media, then (dark) those of ``prefers-color-scheme: dark``, later ones winning."""
    css = re.sub(r"/\*.*?\*/", "", CSS, flags=re.S)
    rules = declarations(MEDIA.sub("", css))
    if scheme == "dark":
        for query, body in MEDIA.findall(css):
            if "prefers-color-scheme: dark" in query:
                rules += declarations(body)
    return rules


def resolve(value: str, scope: dict[str, str]) -> str:
    for _ in range(10):
        found = re.search(r"var\((--[\w-]+)\)", value)
        if not found:
            return value
        value = value.replace(found.group(0), scope[found.group(1)])
    raise AssertionError(value)  # pragma: no cover - a loop of custom properties


def drawn(selector_of: str, rules, scope: dict[str, str], prop: str) -> str:
    """The value of ``prop`` that the last rule with exactly this selector gives."""
    values = [d[prop] for s, d in rules if selector_of in s.split(",") and prop in d]
    assert values, f"no {prop} for {selector_of}"
    return resolve(values[-1], scope)


def luminance(colour: str) -> float:
    assert re.fullmatch(r"#[0-9a-f]{6}", colour, re.I), colour  # a colour, not none
    rgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    f = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * f[0] + 0.7152 * f[1] + 0.0722 * f[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted([luminance(a), luminance(b)], reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def line_colours(svg_text: str, scheme: str) -> list[str]:
    """The colour each line of a chart is stroked with on a screen in ``scheme``, checked
    to stand out from the chart's background."""
    rules = scheme_rules(scheme)
    scope: dict[str, str] = {}
    for selector, decl in rules:
        if selector == ":root":
            scope.update({k: v for k, v in decl.items() if k.startswith("--")})
    background = drawn(".chart svg", rules, scope, "background")
    root = ET.fromstring(svg_text)
    colours = []
    for line in root.iter("polyline"):
        assert len((line.get("points") or "").split()) >= 2, ET.tostring(line)
        assert line.get("stroke") in (None, ""), "a line's colour comes from its mark"
        (mark,) = [c for c in (line.get("class") or "").split() if re.fullmatch(r"m\d+", c)]
        own = {**scope, "--c": drawn(f".{mark}", rules, scope, "--c")}
        colour = drawn(".chart polyline", rules, own, "stroke")
        assert colour not in ("none", "transparent"), (mark, colour)
        assert contrast(colour, background) >= 3, (scheme, mark, colour, background)
        colours.append(colour)
    assert colours, "a chart without lines"
    return colours


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("which", ["game", "evening", "player"])
def test_every_chart_line_has_a_visible_stroke_in_light_and_dark_mode(pages, lang, which):
    """Parsed as SVG, each line of each chart (the sheet's, the evening's, the rating's) is
    stroked, through its mark's class and the stylesheet, with a colour that stands out from
    the chart's background in light and in dark mode, in every language; the players of one
    chart are told apart by colour."""
    client, urls = pages
    with translation.override(lang):
        body = client.get(urls[which]()).content.decode()
    charts = [s for s in svgs(body) if "qr" not in s[:80]]
    assert charts
    for svg in charts:
        for scheme in ("light", "dark"):
            colours = line_colours(svg, scheme)
            if which != "player":  # one line per player, three players
                assert len(colours) == 3, colours
                assert len(set(colours)) == 3, colours
