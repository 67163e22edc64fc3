"""A player joins a Rommé game halfway, another leaves, and a target ends it: on a phone,
through the Players page and the sheet."""

import pytest
from playwright.sync_api import expect

from scorepad.models import Game
from tests.factories import GameFactory, record_penalty

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_player_joins_one_leaves_and_the_target_ends_the_game(page):
    game = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"])
    record_penalty(game, 0, {1: 20, 2: 35})
    page.goto(f"{page.base}/en/games/{game.editor_token}/")
    page.get_by_role("link", name="Players and target").click()

    page.get_by_label("Name", exact=True).fill("Dana")
    page.locator("label.chip", has_text="The highest total at the table (35)").click()
    page.get_by_role("button", name="Add to the table").click()
    expect(page.locator(".messages")).to_contain_text("Dana joins the table from the next deal")
    page.get_by_role("button", name="Ben leaves the table").click()
    # leaving asks first (issue 23, item 10); Cancel leaves Ben at the table
    expect(page.get_by_text("Is Ben leaving the table?")).to_be_visible()
    page.locator("#leave-confirm").get_by_role("link", name="Cancel").click()
    expect(page.get_by_text("Is Ben leaving the table?")).to_have_count(0)
    assert Game.objects.get(pk=game.pk).seats.get(name="Ben").active
    page.get_by_role("button", name="Ben leaves the table").click()
    page.get_by_role("button", name="Yes, Ben leaves").click()
    expect(page.locator(".messages")).to_contain_text("Ben left the table")
    page.get_by_label("Ends when a player's total reaches").fill("60")
    page.get_by_role("button", name="Save the target").click()
    expect(page.locator(".messages")).to_contain_text("Target saved")

    page.get_by_role("link", name="Back to the sheet").click()
    expect(page.locator(".deal-facts")).to_contain_text("Game ends at 60 points")
    expect(page.locator("#sheet thead")).to_contain_text("Dana")
    # Ben, who left, is marked on the sheet and in the standings
    ben_head = page.locator("#sheet thead th", has_text="Ben")
    expect(ben_head.locator(".left-mark")).to_be_visible()
    expect(page.locator(".standings li", has_text="Ben")).to_contain_text("left after deal 1")
    expect(page.locator(".standings li", has_text="Anna")).not_to_contain_text("left after")
    page.locator("#sheet .actions a.button.big").click()
    form = page.locator(".deal-form")
    expect(form.locator("#id_points_1")).to_have_count(0)  # Ben is away
    form.locator("label.chip", has_text="Anna").click()
    form.locator("#id_points_2").fill("30")
    form.locator("#id_points_3").fill("10")
    form.get_by_role("button", name="Save").click()
    expect(page.locator("#game .messages")).to_contain_text("Deal 2 recorded.")
    expect(page.locator(".game-over")).to_contain_text("Game over")  # Cleo reached 65
    game = Game.objects.get(pk=game.pk)
    assert game.is_finished
    assert [s.total for s in game.seats.order_by("position")] == [0, 20, 65, 45]


def test_a_newcomer_takes_over_the_seat_of_a_player_who_left_with_its_total(page):
    game = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"])
    record_penalty(game, 0, {1: 5, 2: 35})
    page.goto(f"{page.base}/en/games/{game.editor_token}/players/")
    page.get_by_role("button", name="Ben leaves the table").click()
    page.get_by_role("button", name="Yes, Ben leaves").click()
    expect(page.locator(".messages")).to_contain_text("Ben left the table")
    page.get_by_label("Someone new takes over the seat of Ben").fill("Eva")
    page.get_by_role("button", name="Take over with the total 5").click()
    expect(page.locator(".messages")).to_contain_text(
        "Eva takes over from Ben from the next deal, with the total 5."
    )
    expect(page.get_by_label("Someone new takes over the seat of Ben")).to_have_count(0)
    page.get_by_role("link", name="Back to the sheet").click()
    expect(page.locator("#sheet thead")).to_contain_text("Eva")
    eva = page.locator(".standings li", has_text="Eva")
    expect(eva).to_contain_text("Eva took over from Ben after deal 1.")
    expect(eva.locator(".total")).to_have_text("5")  # Ben's total goes on as Eva's
    expect(page.locator(".standings li")).to_have_count(3)  # Ben's seat is Eva's
