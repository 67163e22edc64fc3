"""A weekly table in a real headless Chromium at phone width, without JavaScript, in two
languages: start a circle, its first game, rename a person, merge two names of one person,
an evening of its games, carry the balances, and next week's game from the roster; and the
circle's pages have no axe violations."""

import json

import pytest
from playwright.sync_api import expect

from scorepad.models import Circle, Evening, Game
from tests.e2e.conftest import PHONE, screenshot
from tests.e2e.test_accessibility import axe_violations
from tests.factories import ACTOR, record_classic

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(browser, live_server):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base = live_server.url
    yield page
    context.close()


def finish(game, winners):
    for winner in winners:
        record_classic(game, winner, no_wild=True)
    game.refresh_from_db()
    game.end(version=game.version, once=None, actor=ACTOR)


def new_game_of_the_circle(page, remove=(), add=()):
    page.locator('a[href*="/games/new/?circle="]').first.click()
    for index in remove:
        page.locator(f'button[value="remove:{index}"]').click()
    for name in add:
        page.locator("#id_name").fill(name)
        page.locator('button[name="op"][value="add"]').click()
    page.locator('input[name="variant"][value="classic"]').check()
    page.locator('input[name="first_dealer"][value="0"]').check()
    page.locator('button[name="op"][value="start"]').click()
    return Game.objects.order_by("-pk").first()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_weekly_table_keeps_its_people_across_games_and_evenings(phone, lang):
    page = phone
    page.goto(f"{page.base}/{lang}/circles/new/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.locator("#id_circle_name").fill("Tuesdays")
    page.locator("form.circle-new button").click()
    circle = Circle.objects.get()
    assert page.url.endswith(f"/{lang}/circles/{circle.editor_token}/")
    home = f"{page.base}/{lang}/circles/{circle.editor_token}/"

    # The first game: three names typed; they become the circle's people.
    first = new_game_of_the_circle(page, add=["Anna", "Ben", "Cleo"])
    assert first.circle == circle
    finish(first, [0, 2])
    # The second week Cleo typed herself as Cleopatra.
    page.goto(home)
    second = new_game_of_the_circle(page, remove=[2], add=["Cleopatra"])
    assert [s.name for s in second.seats.order_by("position")] == ["Anna", "Ben", "Cleopatra"]
    finish(second, [2, 1])

    # Rename Anna across the circle, and make Cleo and Cleopatra one person.
    page.goto(home)
    page.locator("#id_rename_person").select_option(label="Anna")
    page.locator("#id_rename_name").fill("Annie")
    page.locator('form[action*="/people/rename/"] button').click()
    expect(page.locator(".people")).to_contain_text("Annie")
    page.locator("#id_merge_person").select_option(label="Cleo")
    page.locator("#id_merge_into").select_option(label="Cleopatra")
    page.locator('form[action*="/people/merge/"] button').click()
    expect(page.locator(".merged")).to_contain_text("Cleo")
    expect(page.locator(".people li")).to_have_count(3)
    screenshot(page, f"circle-{lang}")
    assert first.seats.get(position=0).name == "Anna"  # each game keeps its seats' names

    # The evening of both games settles by person: Cleo's money is Cleopatra's.
    page.locator('a[href*="/evenings/new/?circle="]').click()
    page.locator('input[name="stake"]').fill("0.10")
    for box in page.locator('input[name="games"]').all():
        box.check()
    page.locator("form.evening-new button[type=submit]").click()
    evening = Evening.objects.get()
    assert evening.circle == circle
    names = page.locator(".sheet thead th .name").all_inner_texts()
    assert sorted(names) == ["Annie", "Ben", "Cleopatra"]
    page.locator('form[action*="/carry/"] button').click()
    following = Evening.objects.exclude(pk=evening.pk).get()
    assert following.circle == circle
    assert {b.person.name for b in following.carried.all()} <= {"Annie", "Ben", "Cleopatra"}

    # Next week's game: the last game's people are seated already, two taps.
    page.goto(home)
    page.locator('a[href*="/games/new/?circle="]').first.click()
    expect(page.locator('input[name="seat"]')).to_have_count(3)
    page.locator('input[name="variant"][value="classic"]').check()
    page.locator('button[name="op"][value="start"]').click()
    third = Game.objects.order_by("-pk").first()
    assert third.circle == circle
    assert [s.person for s in third.seats.order_by("position")] == [
        s.person for s in second.seats.order_by("position")
    ]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_circle_pages_have_no_axe_violations(browser, live_server, scheme):
    from scorepad.models import Person
    from tests.factories import CircleFactory, GameFactory

    circle = CircleFactory(name="Tuesdays")
    game = GameFactory(players=["Anna", "Ben", "Cleo"], circle=circle)
    finish(game, [0, 1])
    Person.objects.create(circle=circle, name="Cleopatra", merged_into=circle.find("Cleo"))
    found = {}
    for path in (
        "/en/circles/new/",
        f"/en/circles/{circle.editor_token}/",
        f"/de/circles/{circle.viewer_token}/",
        f"/de/circles/{circle.viewer_token}/players/",
        f"/en/circles/{circle.viewer_token}/players/{circle.find('Anna').pk}/",
        f"/en/games/{game.editor_token}/players/",
    ):
        violations = axe_violations(browser, live_server.url + path, scheme)
        if violations:
            found[path] = violations
    assert found == {}, json.dumps(found, indent=1)
