"""Many players on one phone: short column headings, one mark per player on the sheet, the
standings and the chart, and a chart with its axes (issue 14, items 7 and 9)."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from scorepad.charts import MARKS, SHAPES, axis_values, deal_label_step, mark_path
from scorepad.sheet import fitting_length, label_length, short_names
from tests.factories import GameFactory, record_classic
from tests.scorepad.conftest import own

CSS = (Path(settings.BASE_DIR) / "static" / "css" / "app.css").read_text()
TWELVE = [
    "Maximiliane Friederike",
    "Bartholomäus",
    "Anna Berg",
    "Anna Kowalska",
    "Ben",
    "Bernd",
    "Bea",
    "Zofia Wiśniewska",
    "Jukka",
    "Ingrid Marie",
    "Sánchez",
    "Åsa",
]


# --- short names ----------------------------------------------------------------------------


def test_up_to_four_players_the_headings_keep_the_whole_names():
    names = ["Maximiliane Friederike", "Bartholomäus", "Anna", "Åsa"]
    assert short_names(names) == names


@pytest.mark.parametrize("players", range(5, 13))
def test_five_players_and_more_get_labels_that_fit_and_differ(players):
    labels = short_names(TWELVE[:players])
    most = fitting_length(TWELVE[:players])
    assert most >= label_length(players)
    assert all(1 <= len(label) <= most for label in labels), labels
    assert len({label.casefold() for label in labels}) == players, labels


def test_five_names_that_fit_the_phone_side_by_side_stay_whole():
    """Issue 45, item 8: "Piotrek" was cut to "Piotr" in a row that has room for him."""
    names = ["Piotrek", "Marek", "Kasia", "Ania", "Zofia"]
    assert short_names(names) == names
    # Seven short names fit as well: none is wider than a total.
    seven = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gro"]
    assert short_names(seven) == seven


def test_only_the_names_too_long_for_the_row_are_cut_as_far_as_it_needs():
    names = ["Anna", "Ben", "Cleo", "Dan", "Maximiliane"]
    assert short_names(names) == ["Anna", "Ben", "Cleo", "Dan", "Maximilia"]
    # Five long names: each as long as the row allows, still more than label_length's five.
    long = ["Małgorzata", "Władysław", "Krzysztof", "Wojciech", "Agnieszka"]
    assert short_names(long) == ["Małgor", "Władys", "Krzysz", "Wojcie", "Agnies"]


def test_a_label_is_the_first_name_else_the_initials_else_first_and_last_letters():
    # Two characters each: first names that clash with nobody stay (Ma, Zo, Ju ...), Anna
    # and Anna take their initials, Ben, Bernd and Bea their first and last letters, and
    # Bartholomäus, whose "Ba" Bea took in the end, his.
    assert short_names(TWELVE) == [
        "Ma", "Bs", "AB", "AK", "Bn", "Bd", "Ba", "Zo", "Ju", "In", "Sá", "Ås",
    ]  # fmt: skip


def test_the_same_name_twice_gets_a_number():
    labels = short_names(["Anna", "Anna", "Ben", "Cleo", "Dan"])
    assert labels[:2] == ["Anna1", "Anna2"]
    assert labels[2:] == ["Ben", "Cleo", "Dan"]


# --- the page -------------------------------------------------------------------------------


@pytest.fixture
def twelve(client, db):
    game = GameFactory(variant_id="classic", players=TWELVE)
    for deal in range(12):
        record_classic(game, (deal * 5) % 12, jokers=deal % 2)
    own(client, game)
    body = client.get(reverse("game", kwargs={"token": game.editor_token})).content.decode()
    return body


def part(body: str, start: str, end: str) -> str:
    return body[body.index(start) : body.index(end, body.index(start))]


def test_a_cut_name_is_whole_in_the_title_for_screen_readers_and_on_tap(twelve):
    head = part(twelve, "<thead>", "</thead>")
    labels = short_names(TWELVE)
    for i, (name, label) in enumerate(zip(TWELVE, labels, strict=True)):
        assert (
            f'<button type="button" class="who" popovertarget="who-{i}" title="{name}">'
            f'<span aria-hidden="true">{label}</span>'
            f'<span class="visually-hidden">{name}</span></button>'
        ) in head
        assert f'<span class="who-full" id="who-{i}" popover>{name}</span>' in head
    assert head.count('<th scope="col"') == 13


def test_a_player_has_one_mark_on_the_sheet_the_standings_and_the_chart(twelve):
    head = part(twelve, "<thead>", "</thead>")
    standings = part(twelve, '<ol class="standings">', "</ol>")
    svg = part(twelve, "<svg viewBox", "</svg>")
    legend = part(twelve, '<ul class="legend">', "</ul>")
    for i, name in enumerate(TWELVE):
        assert re.search(
            rf'<th scope="col" class="m{i}( leader)?"><button[^>]*title="{name}"', head
        )
        assert re.search(
            rf'<li class="m{i}( leader)?">.*?<span class="who">{name}</span>', standings
        )
        assert f'<li class="m{i}">{name}</li>' in legend
        assert f'<marker id="mk{i}" class="m{i}"' in svg
        assert f'<path d="{mark_path(i)}"/></marker>' in svg
        assert re.search(
            rf'<polyline class="m{i}" points="[^"]+" marker-mid="url\(#mk{i}\)" '
            rf'marker-end="url\(#mk{i}\)"/>',
            svg,
        )


def test_the_chart_writes_its_values_and_the_deal_numbers(twelve):
    svg = part(twelve, "<svg viewBox", "</svg>")
    values = re.findall(r"<text x=\"27\" y=\"\d+\">([^<]+)</text>", svg)
    assert "0" in values
    assert len(values) >= 3
    assert all(re.fullmatch(r"[+−]\d+|0", v) for v in values), values  # signed, as the sheet
    deals = re.findall(r'<g class="deals">(.*?)</g>', svg)[0]
    assert re.findall(r">(\d+)<", deals) == ["1", "2", "4", "6", "8", "10", "12"]


def test_a_penalty_game_writes_its_values_unsigned(client, db):
    from tests.factories import record_penalty

    game = GameFactory(variant_id="contract-nordic", players=["Eva", "Finn", "Gro"])
    for deal in range(3):
        record_penalty(game, deal % 3, {(deal + 1) % 3: 25, (deal + 2) % 3: 40})
    body = client.get(reverse("game", kwargs={"token": game.viewer_token})).content.decode()
    values = re.findall(r'<g class="values">(.*?)</g>', body)[0]
    assert re.findall(r">([^<]+)</text>", values) == ["0", "20", "40", "60"]


# --- the marks ------------------------------------------------------------------------------


def test_no_two_players_share_a_shape_and_fill():
    paths = [mark_path(m) for m in range(MARKS)]
    assert len(set(paths)) == MARKS
    # the second six are the first six with a hole
    assert all(mark_path(m + len(SHAPES)).startswith(mark_path(m)) for m in range(len(SHAPES)))


def css_marks() -> dict[int, tuple[str, str]]:
    found = re.findall(r'\.m(\d+) \{ --c: var\(--(p\d)\); --k: path\(evenodd, "([^"]+)"\); \}', CSS)
    return {int(m): (colour, path) for m, colour, path in found}


def test_the_stylesheet_cuts_the_same_shapes_the_chart_draws():
    marks = css_marks()
    assert sorted(marks) == list(range(MARKS))
    for m, (_, path) in marks.items():
        assert path == mark_path(m)


def test_neighbours_at_the_table_differ_in_colour_and_shape():
    marks = css_marks()
    for m in range(MARKS - 1):
        assert marks[m][0] != marks[m + 1][0]
        assert SHAPES[m % len(SHAPES)] != SHAPES[(m + 1) % len(SHAPES)]


def contrast(a: str, b: str) -> float:
    def lum(colour: str) -> float:
        rgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    high, low = sorted([lum(a), lum(b)], reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_every_mark_colour_stands_out_from_the_sheet_in_light_and_dark():
    light, dark = (
        dict(re.findall(r"--(p\d): (#[0-9a-f]{6});", block))
        for block in re.findall(r":root \{ [^}]*?(--p0: [^}]+)\}", CSS)
    )
    cards = re.findall(r"--card: (#[0-9a-f]{6});", CSS)[:2]  # light, then dark
    assert len(light) == len(dark) == 6
    assert len(cards) == 2
    for palette, card in ((light, cards[0]), (dark, cards[1])):
        for colour in palette.values():
            assert contrast(colour, card) >= 3, (colour, card)  # WCAG 1.4.11, graphics


# --- the axes -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [(-55, 55, [-50, 0, 50]), (0, 1, [0, 1]), (-81, 169, [-50, 0, 50, 100, 150]), (-7, 3, None)],
)
def test_the_axis_takes_round_values_with_zero_among_them(low, high, expected):
    values = axis_values(low, high)
    assert 0 in values
    assert 2 <= len(values) <= 6
    assert all(low <= v <= high for v in values)
    step = values[1] - values[0]
    assert str(step).strip("0") in ("1", "2", "5")
    if expected is not None:
        assert values == expected


@pytest.mark.parametrize(("deals", "step"), [(1, 1), (10, 1), (12, 2), (20, 2), (30, 5), (99, 10)])
def test_the_chart_numbers_every_deal_or_every_few(deals, step):
    assert deal_label_step(deals) == step
