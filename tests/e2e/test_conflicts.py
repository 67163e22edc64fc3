"""Three phones on one sheet: two correct the same deal at once and both corrections end up
on the sheet; two record the same deal at once and the second is asked whether it is
another deal; an undo is taken back with Redo. The third phone follows it all live."""

import pytest
from playwright.sync_api import expect

from scorepad.models import Deal, Game
from tests.e2e.conftest import PHONE
from tests.factories import GameFactory, record_penalty

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.every_database,  # the database changes what the phones see: tests/databases.py
    pytest.mark.django_db(transaction=True),
]


def phone(browser, live_server, game):
    context = browser.new_context(viewport=PHONE, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/en/games/{game.editor_token}/")
    return page


def scores(game: Game) -> list[dict[int, int]]:
    return [
        {s.seat.position: s.points for s in d.scores.select_related("seat")}
        for d in Deal.objects.filter(game=game).order_by("number")
    ]


def both_open_deal_2(a, c) -> None:
    for p in (a, c):
        p.locator("#sheet .actions a.button.big").click()
        expect(p.locator("#panel-title")).to_have_text("Record deal 2")


def enter(p, went_out: str, points: dict[int, str]) -> None:
    """Who went out and the others' points, then Save."""
    p.locator(".deal-form label.chip", has_text=went_out).click()
    for pos, value in points.items():
        p.locator(f"#id_points_{pos}").fill(value)
    p.locator(".deal-form").get_by_role("button", name="Save").click()


def test_three_phones_two_corrections_and_two_recordings_at_once(browser, live_server):
    game = GameFactory(variant_id="contract-nordic", players=["Anna", "Ben", "Cleo"])
    record_penalty(game, 2, {0: 10, 1: 15})  # deal 1: Cleo went out
    a, b, c = (phone(browser, live_server, game) for _ in range(3))

    # A and C both open "Correct deal 1"; A corrects Anna, C corrects Ben.
    for p in (a, c):
        p.get_by_role("link", name="Correct deal 1").click()
        expect(p.locator("#panel-title")).to_have_text("Correct deal 1")
    a.locator("#id_points_0").fill("20")
    a.locator(".deal-form").get_by_role("button", name="Save").click()
    expect(a.locator("#game .messages")).to_contain_text("Deal 1 corrected.")
    expect(b.locator("#sheet tfoot")).to_contain_text("20")  # B follows live

    c.locator("#id_points_1").fill("25")
    c.locator(".deal-form").get_by_role("button", name="Save").click()
    expect(c.locator("#game .message.error")).to_contain_text("Another phone corrected deal 1")
    expect(c.locator(".conflict .taken")).to_contain_text("Penalty points of Anna: 20 (was 10)")
    # Ben was corrected on C only: not a place where the phones differ (issue 21, item 5).
    expect(c.locator(".conflict .differences")).to_have_count(0)
    expect(c.locator(".conflict")).to_contain_text("your changes and the other phone's fit")
    expect(c.locator("#id_points_0")).to_have_value("20")
    expect(c.locator("#id_points_1")).to_have_value("25")
    assert scores(game) == [{0: 20, 1: 15, 2: 0}]  # nothing saved without a tap
    c.locator(".deal-form").get_by_role("button", name="Save").click()
    expect(c.locator("#game .messages")).to_contain_text("Deal 1 corrected.")
    assert scores(game) == [{0: 20, 1: 25, 2: 0}]  # both corrections
    expect(b.locator("#sheet tfoot")).to_contain_text("25")

    # A and C both record deal 2.
    both_open_deal_2(a, c)
    enter(a, "Anna", {1: "5", 2: "5"})
    expect(a.locator("#game .messages")).to_contain_text("Deal 2 recorded.")
    enter(c, "Ben", {0: "40", 2: "5"})
    expect(c.locator("#game .message.error")).to_contain_text("Another phone recorded deal 2")
    expect(c.locator(".conflict")).to_contain_text("Deal 2 as the other phone recorded it")
    # The choice comes first, under a title that asks it (not "Record deal 3" yet), above
    # this phone's entry; on a phone's screen without scrolling down the form.
    expect(c.locator("#panel-title")).to_have_text("Another deal, or deal 2 again?")
    choice = c.get_by_role("button", name="Another deal: record it as deal 3")
    c.evaluate("() => document.getElementById('panel').scrollIntoView({block: 'start'})")
    top = choice.bounding_box()["y"]
    assert top < c.locator(".deal-form .went-out").bounding_box()["y"]
    assert 0 <= top < PHONE["height"] - 60, top
    expect(c.locator(".deal-form .form-actions").last).not_to_contain_text("Another deal")
    assert len(scores(game)) == 2
    c.get_by_role("button", name="Another deal: record it as deal 3").click()
    expect(c.locator("#game .messages")).to_contain_text("Deal 3 recorded.")
    assert scores(game)[1:] == [{0: 0, 1: 5, 2: 5}, {0: 40, 1: 0, 2: 5}]

    # B undoes deal 3 by mistake, and takes it back with Redo.
    b.reload()
    b.get_by_role("button", name="Undo deal 3").click()
    expect(b.locator("#game .messages")).to_contain_text("Deal 3 undone.")
    assert len(scores(game)) == 2
    b.locator("#game .messages").get_by_role("button", name="Redo").click()
    expect(b.locator("#game .messages")).to_contain_text("Deal 3 brought back.")
    assert scores(game)[2] == {0: 40, 1: 0, 2: 5}
    expect(a.locator("#sheet tbody tr")).to_have_count(3)


def test_the_same_deal_corrects_it_with_this_phones_entry(browser, live_server):
    game = GameFactory(variant_id="contract-nordic", players=["Anna", "Ben", "Cleo"])
    record_penalty(game, 2, {0: 10, 1: 15})
    a, c = (phone(browser, live_server, game) for _ in range(2))
    both_open_deal_2(a, c)
    enter(a, "Anna", {1: "5", 2: "5"})
    expect(a.locator("#game .messages")).to_contain_text("Deal 2 recorded.")
    enter(c, "Anna", {1: "5", 2: "50"})  # the right count, typed on the second phone
    expect(c.locator(".conflict")).to_contain_text("Deal 2 as the other phone recorded it")
    c.get_by_role("button", name="The same deal: correct deal 2 with mine").click()
    expect(c.locator("#game .messages")).to_contain_text("Deal 2 corrected.")
    assert scores(game) == [{0: 10, 1: 15, 2: 0}, {0: 0, 1: 5, 2: 50}]


def test_the_phone_whose_value_was_replaced_is_told(browser, live_server):
    """A and C correct the same score differently; C sees where they differ and saves its
    own: A's sheet says that its value was replaced, and by what; C's and B's say nothing."""
    game = GameFactory(variant_id="contract-nordic", players=["Anneliese", "Ben", "Cleo"])
    record_penalty(game, 2, {0: 10, 1: 15})
    a, b, c = (phone(browser, live_server, game) for _ in range(3))
    for p in (a, c):
        p.get_by_role("link", name="Correct deal 1").click()
        expect(p.locator("#panel-title")).to_have_text("Correct deal 1")
    a.locator("#id_points_0").fill("15")
    a.locator(".deal-form").get_by_role("button", name="Save").click()
    expect(a.locator("#game .messages")).to_contain_text("Deal 1 corrected.")

    c.locator("#id_points_0").fill("20")
    c.locator(".deal-form").get_by_role("button", name="Save").click()
    differences = c.locator(".conflict .differences li")
    expect(differences).to_have_count(1)  # Anneliese's points only: both phones changed them
    expect(differences).to_contain_text("The other phone saved: 15 · Yours, now in the form: 20")
    c.locator(".deal-form").get_by_role("button", name="Save").click()
    expect(c.locator("#game .messages")).to_contain_text("Deal 1 corrected.")
    assert scores(game) == [{0: 20, 1: 15, 2: 0}]

    told = "Deal 1 · Anneliese · The other phone's correction was kept. Yours: 15. Now: 20."
    expect(a.locator("#sheet .replaced")).to_have_text(told)  # by the live update
    expect(b.locator("#sheet tfoot")).to_contain_text("20")
    expect(b.locator("#sheet .replaced")).to_have_count(0)
    expect(c.locator("#sheet .replaced")).to_have_count(0)
