"""The rules page "Club tournament" (/<lang>/rules/tournament/): in every language, the same
sections, linked from the rules index and the tournament's pages, and its worked example
computed by the engine (tournament.table_sizes, draw, series_scores, rank) as docs/rules.md
works it out by hand."""

import html
import re
from fractions import Fraction

import pytest

from rules import pages
from rules.engine import tournament
from rules.engine.variants import get_variant
from rules.pages.markup import PLACEHOLDER_RE, ContentError, RenderContext, tournament_example
from rules.pages.words import words

LANGS = ["en", "de", "nb", "pl", "fi", "es"]
NUMBER = re.compile(r'<span class="num" data-example="([a-z]+)">([^<]*)</span>')


def body_of(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def tables(body: str, cls: str) -> list[list[list[str]]]:
    """The cells of every body row of each table of class ``cls``, in page order."""
    found = []
    for part in body.split(f'<table class="rules-table {cls}">')[1:]:
        tbody = part.split("</table>", 1)[0].split("<tbody>", 1)[1]
        found.append(
            [
                [text(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
                for row in re.findall(r"<tr>(.*?)</tr>", tbody, re.S)
            ]
        )
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_the_tournament_page_renders_in_every_language_with_the_same_sections(client, lang):
    body = body_of(client, f"/{lang}/rules/tournament/")
    page = pages.get_page(pages.TOURNAMENT, None, lang)
    assert page.lang == lang, "written in the page's language, not a fallback"
    assert f'<article class="rules rules-tournament" lang="{lang}" id="rules-tournament">' in body
    assert f"<h1>{page.title}</h1>" in body
    assert tuple(e.id for e in page.toc) == pages.TOURNAMENT_SECTION_IDS
    for section in pages.TOURNAMENT_SECTION_IDS:
        assert f'<h2 id="{section}">' in body
        assert f'href="#{section}"' in body
    assert "[[" not in body
    assert "]]" not in body
    assert "style=" not in body
    ids = re.findall(r' id="([^"]+)"', body)
    assert len(ids) == len(set(ids)), "duplicate ids"
    # The generator and the algorithm are named, in every language.
    assert "SHA-256" in body
    assert "Fisher" in body
    assert "Yates" in body
    assert "3 × (n − r) / (n − 1)" in body


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_index_links_to_the_tournament_page(client, lang):
    body = body_of(client, f"/{lang}/rules/")
    link = f'<a href="/{lang}/rules/tournament/">{words(lang)["page"]["tournament"]}</a>'
    assert link in body


@pytest.mark.parametrize("lang", LANGS)
def test_the_table_sizes_and_placement_points_are_the_engines(client, lang):
    body = body_of(client, f"/{lang}/rules/tournament/")
    shown = [t for kind, t in NUMBER.findall(body) if kind == "seating"]
    # Rommé 13 (twice: the tables and the example), the Nordic game 13, classic 6 and 5.
    assert shown == ["4 + 3 + 3 + 3", "4 + 4 + 5", "3 + 3", "5", "4 + 3 + 3 + 3"]
    placements = [t for kind, t in NUMBER.findall(body) if kind == "placement"]
    comma = "." if lang == "en" else ","
    assert placements == [
        "3, 2, 1, 0",
        f"3, 1{comma}5, 0",
        f"3, 2{comma}25, 1{comma}5, 0{comma}75, 0",
    ]


def test_the_draw_shown_is_the_engines_draw_from_the_seed(client):
    body = body_of(client, "/en/rules/tournament/")
    drawn = tournament.draw(list(range(1, 14)), get_variant("romme"), "482913", 1)
    assert tables(body, "draw")[0] == [
        [f"Table {n}", ", ".join(map(str, table))] for n, table in enumerate(drawn.tables, start=1)
    ]


EXAMPLE = (
    "romme seed=482913 | 1=40 2=85 3=85 4=150 | 5=30 6=90 7=120 | 8=60 9=60 10=90 "
    "| 11=20 12=75 13=25:left"
)


@pytest.mark.parametrize("lang", LANGS)
def test_every_language_works_the_same_example(lang):
    """The six pages give the same arguments to each example: one example, six languages."""
    source = pages.content_path(pages.TOURNAMENT, None, lang).read_text(encoding="utf-8")
    found = [(m[1], m[2]) for m in re.finditer(PLACEHOLDER_RE, source)]
    english = pages.content_path(pages.TOURNAMENT, None, "en").read_text(encoding="utf-8")
    assert found == [(m[1], m[2]) for m in re.finditer(PLACEHOLDER_RE, english)]
    assert ("series", EXAMPLE) in found
    assert ("ranking", EXAMPLE) in found
    assert ("ranking", EXAMPLE.replace("seed=482913", "seed=482913 order=relative")) in found


def test_the_worked_example_is_docs_rules_example_computed_by_the_engine(client):
    """docs/rules.md#worked-example, worked out by hand there: 13 Rommé players at 4, 3, 3, 3,
    number 13 leaving table 4; ties at table 1 and table 3 share the places' points; the
    ranking breaks ties by the score against the table, then the lot; 13 is last."""
    body = body_of(client, "/en/rules/tournament/")
    series = tables(body, "series")[0]
    by_player = {r[-5]: r[-4:] for r in series}  # number: total, place, points, relative
    assert by_player["1"] == ["40", "1", "3", "+50"]
    assert by_player["2"] == by_player["3"] == ["85", "2 =", "1.5", "+5"]
    assert by_player["8"] == by_player["9"] == ["60", "1 =", "2.25", "+10"]
    assert by_player["13"] == ["25 (left the game)", "3", "0", "+15"]
    assert series[0][0] == "Table 1"
    assert len(series) == 13
    first, relative_first = tables(body, "ranking")
    assert [r[1] for r in first] == [
        "1", "5", "11", "8", "9", "2", "3", "6", "12", "10", "7", "4", "13 (dropped out)",
    ]  # fmt: skip
    separated = {r[1]: r[-1] for r in first}
    assert separated["5"] == "the lot"  # 3 points, +50 and best 3 like 1: the lot
    assert separated["11"] == "score against the table"  # 3 points like 5, +20 against +50
    assert separated["8"] == "placement points"
    assert separated["13 (dropped out)"] == "dropped out"
    # The director's other order: 10 (−20) before 12 (−35).
    order = [r[1] for r in relative_first]
    assert order.index("10") < order.index("12")
    assert order[:3] == ["1", "5", "11"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_ranking_tables_are_the_engines_ranking_in_every_language(client, lang):
    body = body_of(client, f"/{lang}/rules/tournament/")
    shown = tables(body, "ranking")
    for table, args in zip(
        shown, [EXAMPLE, EXAMPLE.replace("seed=482913", "seed=482913 order=relative")], strict=True
    ):
        example = tournament_example(args)
        ranking = tournament.rank(
            example.players, [example.tables], example.variant, example.seed, order=example.order
        )
        assert [r[0] for r in table] == [str(r.place) for r in ranking.rows]
        assert [r[1].split(" ")[0] for r in table] == [str(r.player) for r in ranking.rows]
        assert [r[5] for r in table] == [str(r.lot) for r in ranking.rows]
        points = 2 if example.order == tournament.POINTS_FIRST else 3  # its column
        comma = "." if lang == "en" else ","
        assert [r[points] for r in table] == [_plain(r.points, comma) for r in ranking.rows]


def _plain(value: Fraction, comma: str) -> str:
    return f"{float(value):.2f}".rstrip("0").rstrip(".").replace(".", comma)


@pytest.mark.parametrize(
    "source",
    [
        "[[seating: poker 13]]",
        "[[seating: romme 1]]",
        "[[series: romme | 1=40 2=85]]",
        "[[ranking: romme seed=1 order=best | 1=40 2=85]]",
        "[[series: romme seed=1 | 1=40 2=85:gone]]",
        "[[draw: romme players=13]]",
    ],
)
def test_a_bad_tournament_placeholder_is_an_error_naming_it(source):
    ctx = RenderContext(variant=None, lang="en")
    with pytest.raises(ContentError, match=re.escape(source.split(":")[0].strip("[]"))):
        pages.render_markdown(source, ctx)


@pytest.mark.parametrize("lang", LANGS)
def test_the_tournament_words_are_in_every_language(lang):
    assert set(words(lang)["tournament"]) == set(words("en")["tournament"])
    assert all(words(lang)["tournament"].values())


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_the_tournaments_pages_link_to_how_the_tournament_works(client, lang):
    """The setup form, the director's page and a player's own page each link to the rules
    page in the page's language."""
    from django.utils import translation

    from scorepad.models import Entrant, Tournament

    with translation.override(lang):
        expected = translation.gettext("How the tournament works")
    link = f'<a href="/{lang}/rules/tournament/">{html.escape(expected, quote=False)}</a>'
    assert link in body_of(client, f"/{lang}/tournaments/new/")
    tournament = Tournament.objects.create(name="Club", variant_id="romme", deals=2)
    director = body_of(client, f"/{lang}/tournaments/{tournament.editor_token}/")
    assert link in director
    player = Entrant.objects.create(tournament=tournament, number=1, name="Anna")
    assert link in body_of(client, f"/{lang}/tournaments/players/{player.token}/")
    assert expected != "How the tournament works" or lang == "en"
