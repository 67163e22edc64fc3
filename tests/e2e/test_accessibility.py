"""axe-core, injected into every page at phone width, in light and dark mode: no violations."""

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"

PAGES = [
    "/en/",
    "/de/",
    "/en/api/",
    "/en/rules/",
    "/en/rules/classic/",
    "/pl/rules/contract-spanish/",
    "/fi/rules/romme/summary/",
    "/nb/rules/glossary/",
    "/es/rules/tournament/",
]


def axe_violations(browser, url: str, scheme: str, viewport: dict | None = None) -> list[dict]:
    if not AXE.exists():
        pytest.fail("axe-core is not installed: run the README's test command (npm ci)")
    # The page's strict CSP forbids injected scripts; only this test context bypasses it.
    context = browser.new_context(viewport=viewport or PHONE, color_scheme=scheme, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(url)
        page.add_script_tag(path=str(AXE))
        result = page.evaluate(
            "async () => { const r = await axe.run(document, {resultTypes: ['violations']});"
            " return r.violations.map(v => ({id: v.id, impact: v.impact,"
            " nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)})); }"
        )
    finally:
        context.close()
    return result


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", PAGES)
def test_page_has_no_axe_violations(browser, live_server, path, scheme):
    violations = axe_violations(browser, live_server.url + path, scheme)
    assert violations == [], json.dumps(violations, indent=1)


def score_pad_pages() -> list[str]:
    """A classic game with deals and a finished Nordic game: every score-pad screen."""
    from scorepad.access import circle_reference
    from scorepad.models import Person
    from tests.factories import CircleFactory, GameFactory, record_classic, record_penalty

    game = GameFactory(players=["Anna", "Ben", "Cleo", "Dan"])
    record_classic(game, 0, wild_twos=1, jokers=1)
    record_classic(game, 2)
    nordic = GameFactory(variant_id="contract-nordic", players=["Eva", "Finn", "Gro"])
    for deal in range(7):
        record_penalty(nordic, deal % 3, {(deal + 1) % 3: 25, (deal + 2) % 3: 40})
    # Twelve players: short headings with the full names on tap (popover buttons).
    big = GameFactory(players=[f"Spieler Nummer {n}" for n in range(1, 13)])
    for deal in range(3):
        record_classic(big, deal, jokers=1)
    # Money per point, a player who left and a target (issue 23): the marks and sentences
    # they bring to the sheet and the Players page's question before a player leaves.
    from decimal import Decimal

    from tests.factories import ACTOR

    came_and_went = GameFactory(players=["Anna", "Ben", "Cleo", "Dan"])
    came_and_went.value_per_point = Decimal("0.10")
    came_and_went.save()
    record_classic(came_and_went, 1, jokers=1)
    came_and_went.refresh_from_db()
    came_and_went.seat_leaves(1, back=False, version=came_and_went.version, once=None, actor=ACTOR)
    came_and_went.refresh_from_db()
    came_and_went.set_target(100, 9, version=came_and_went.version, once=None, actor=ACTOR)
    editor = game.editor_token
    circle = CircleFactory(name="Tuesdays")
    circle_game = GameFactory(players=["Anna", "Ben", "Cleo"], circle=circle)
    record_classic(circle_game, 1)
    Person.objects.create(circle=circle, name="Cleopatra", merged_into=circle.find("Cleo"))
    anna = circle.find("Anna")
    # A circle's year (issue 27): a finished classic game and a finished Rommé game.
    for variant, players in (("classic", ["Anna", "Ben", "Cleo"]), ("romme", ["Anna", "Ben"])):
        done = GameFactory(variant_id=variant, players=players, circle=circle)
        if variant == "classic":
            record_classic(done, 0)
        else:
            record_penalty(done, 1, {0: 35})
        done.refresh_from_db()
        done.end(version=done.version, once=None, actor=ACTOR)
    done.refresh_from_db()
    year = done.finished_at.year
    from scorepad.models import Evening, EveningGame

    evening = Evening.objects.create(name="Friday", stake=Decimal("0.10"))
    EveningGame.objects.create(evening=evening, game=game, stake=Decimal("0.10"), position=1)
    return [
        f"/en/circles/{circle.viewer_token}/year/{year}/",
        f"/pl/circles/{circle.editor_token}/year/{year}/",
        f"/en/games/{game.viewer_token}/table/",
        f"/de/games/{came_and_went.editor_token}/table/",
        f"/nb/games/{nordic.viewer_token}/table/",
        f"/en/games/{big.viewer_token}/table/",
        f"/es/evenings/{evening.viewer_token}/table/",
        f"/en/evenings/{evening.viewer_token}/",
        f"/en/games/{came_and_went.editor_token}/",
        f"/de/games/{came_and_went.editor_token}/players/?leave=2",
        "/en/check/",
        f"/en/games/{big.editor_token}/",
        "/en/games/new/",
        "/en/games/",
        "/en/circles/new/",
        f"/en/circles/{circle.editor_token}/",
        f"/de/circles/{circle.viewer_token}/",
        f"/en/circles/{circle.viewer_token}/players/",
        f"/es/circles/{circle.viewer_token}/players/{anna.pk}/",
        f"/en/games/new/?circle={circle_reference(circle)}",
        f"/en/games/{game.viewer_token}/",
        f"/en/games/{editor}/",
        f"/en/games/{editor}/deals/new/",
        f"/en/games/{editor}/deals/1/edit/",
        f"/en/games/{editor}/history/",
        f"/en/games/{editor}/share/",
        f"/en/games/{editor}/players/",
        f"/en/games/{nordic.editor_token}/players/",
        f"/nb/games/{nordic.editor_token}/",
        f"/nb/games/{nordic.editor_token}/deals/new/",
        "/de/check/?variant=classic&cards=4S+5S+6S+7S+9H+10H+JH+QH+10C+JC+QC+KC+AD+3D+KH+JK",
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_score_pad_pages_have_no_axe_violations(browser, live_server, scheme):
    found = {}
    for path in score_pad_pages():
        violations = axe_violations(browser, live_server.url + path, scheme)
        if violations:
            found[path] = violations
    assert found == {}, json.dumps(found, indent=1)
