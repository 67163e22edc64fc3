"""Money after a carry (issue "Trust, part three", item 13): a game of a carried evening can
still be corrected; the difference goes to the balances the next evening starts from (and
on along the chain of carried evenings), both evenings say so, and the chain always adds
up. A carry and a change of one of its games, one after the other in either order, never
lose the change."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.test import Client

from scorepad.access import EVENINGS, resolve
from scorepad.evenings import build_evening
from scorepad.models import Evening, EveningBalance, Event, Game, StaleVersion
from scorepad.results import evening_result
from tests.factories import ACTOR, CircleFactory, GameFactory, record_classic
from tests.scorepad.conftest import hidden, own
from tests.scorepad.test_evenings import (
    add_data,
    finished_classic,
    finished_romme,
    start,
    url,
)

pytestmark = pytest.mark.django_db


def fresh(evening: Evening) -> Evening:
    return Evening.objects.get(pk=evening.pk)


def final(evening: Evening) -> dict[str, int]:
    """Each player's balance at the end of ``evening`` as its page works it out now."""
    access = resolve(_Request(), fresh(evening).viewer_token, kind=EVENINGS)
    page = build_evening(access.evening)
    return {name: cents for name, cents in zip(page.names, page.balances, strict=True) if cents}


class _Request:
    def __init__(self) -> None:
        self.session: dict = {}
        self.COOKIES: dict = {}


def carried(evening: Evening) -> dict[str, int]:
    """The balances ``evening`` starts from, as stored (nobody at zero is carried)."""
    rows = EveningBalance.objects.filter(evening=fresh(evening))
    return {b.name: b.cents for b in rows if b.cents}


def carry(phone: Client, evening: Evening) -> Evening:
    page = phone.get(url("evening", evening.editor_token)).content.decode()
    data = {"version": hidden(page, "version"), "once": hidden(page, "once")}
    answer = phone.post(url("evening-carry", evening.editor_token), data)
    assert answer.status_code == 302, answer.content.decode()
    return fresh(evening).next_evening


def undo_last(phone: Client, game: Game) -> None:
    sheet = phone.get(url("game", game.editor_token)).content.decode()
    form = re.search(r'action="[^"]*/deals/undo/".*?</form>', sheet, re.S).group(0)
    answer = phone.post(
        url("deal-undo", game.editor_token),
        {"version": hidden(form, "version"), "once": hidden(form, "once")},
    )
    assert answer.status_code == 302, answer.content.decode()


@pytest.fixture
def evening_of_two(client):
    """Anna, Ben and Cleo: a classic game of two deals and a Rommé game, at 0,10 a point,
    started and carried by ``client``."""
    first = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    record_classic(first, 0, no_wild=True)
    record_classic(first, 1, no_wild=True)
    first.refresh_from_db()
    first.end(version=first.version, once=None, actor=ACTOR)
    second = finished_romme(["Anna", "Ben", "Cleo"], {1: 30, 2: 10})
    for game in (first, second):
        own(client, game)
    start(client, [first, second])
    return client, Evening.objects.get(), fresh_game(first), fresh_game(second)


def fresh_game(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def test_a_correction_after_the_carry_moves_the_next_evening_s_start_and_both_say_so(
    evening_of_two,
):
    phone, evening, first, _second = evening_of_two
    following = carry(phone, evening)
    assert carried(following) == final(evening)
    assert fresh_game(first).carried
    assert Event.objects.filter(game=first, kind="carried").count() == 1
    version_before = following.version
    undo_last(phone, fresh_game(first))  # Ben's deal goes: Anna +22 −11 −11 is left
    # The closed evening shows the corrected game, and the next starts where it ends now.
    assert carried(following) == final(evening)
    assert fresh(following).version == version_before + 1
    closed = phone.get(url("evening", evening.viewer_token)).content.decode()
    assert "was corrected after the carry" in closed
    assert "Ben −2.20" in closed.replace("&minus;", "−")
    nxt = phone.get(url("evening", following.viewer_token)).content.decode()
    assert "The balances carried in include corrections made after the carry" in nxt


def test_a_correction_goes_along_the_whole_chain_of_carried_evenings(evening_of_two):
    phone, evening, first, _second = evening_of_two
    following = carry(phone, evening)
    third = carry(phone, following)
    undo_last(phone, fresh_game(first))
    assert carried(following) == final(evening)
    assert carried(third) == final(following)
    assert sum(carried(third).values()) == 0


def test_a_game_changed_after_the_evening_page_was_read_makes_the_carry_stale(evening_of_two):
    phone, evening, first, _second = evening_of_two
    page = phone.get(url("evening", evening.editor_token)).content.decode()
    data = {"version": hidden(page, "version"), "once": hidden(page, "once")}
    access = resolve(_Request(), evening.editor_token, kind=EVENINGS)
    page_then = build_evening(access.evening)
    seen = {e.game_id: e.game.version for e in access.evening.games.all()}
    # Another phone undoes a deal after this carry read the games (and ends the game again).
    undo_last(phone, fresh_game(first))
    first = fresh_game(first)
    first.end(version=first.version, once=None, actor=ACTOR)
    with pytest.raises(StaleVersion):
        access.evening.carry(
            page_then.carry, version=access.evening.version, once=None, actor=ACTOR, games=seen
        )
    assert not fresh(evening).is_closed
    assert not fresh_game(first).carried
    # The page's own carry reads the games again: it carries the money as it is now.
    answer = phone.post(url("evening-carry", evening.editor_token), data, follow=True)
    assert answer.status_code == 200, answer.content.decode()
    assert carried(fresh(evening).next_evening) == final(evening)


def test_a_game_form_from_before_the_carry_is_stale_after_it(evening_of_two):
    phone, evening, first, _second = evening_of_two
    sheet = phone.get(url("game", first.editor_token)).content.decode()
    form = re.search(r'action="[^"]*/deals/undo/".*?</form>', sheet, re.S).group(0)
    following = carry(phone, evening)
    before = carried(following)
    phone.post(
        url("deal-undo", first.editor_token),
        {"version": hidden(form, "version"), "once": hidden(form, "once")},
    )
    assert fresh_game(first).deals.count() == 2  # nothing changed
    assert carried(following) == before == final(evening)


def test_a_circle_evening_carries_a_correction_by_person(client):
    circle = CircleFactory()
    game = GameFactory(variant_id="classic", players=["Anna", "Ben"], circle=circle)
    record_classic(game, 0, no_wild=True)
    record_classic(game, 1, no_wild=True)
    record_classic(game, 1, no_wild=True)
    game.refresh_from_db()
    game.end(version=game.version, once=None, actor=ACTOR)
    keeper = Client()
    keeper.get(url("circle", circle.editor_token))
    own(keeper, game)
    page = keeper.get(url("evening-new") + f"?game={game.editor_token}").content.decode()
    keeper.post(
        url("evening-new"),
        {
            "stake": "0.50",
            "circle": hidden(page, "circle"),
            "once": hidden(page, "once"),
            "games": [game.editor_token],
        },
    )
    evening = Evening.objects.get()
    following = carry(keeper, evening)
    undo_last(keeper, fresh_game(game))
    balances = EveningBalance.objects.filter(evening=following)
    assert all(b.person_id is not None for b in balances)
    assert carried(following) == final(evening)
    assert sum(carried(following).values()) == 0


def test_two_games_of_one_evening_each_in_their_own_evening_outside_any_circle(phone_two):
    """Names outside a circle: a seat renamed after the carry moves its money to the new
    name, and the chain still adds up."""
    phone, evening, first = phone_two
    following = carry(phone, evening)
    sheet = phone.get(url("game-players", first.editor_token)).content.decode()
    assert "Ben" in sheet
    first = fresh_game(first)
    first.rename(1, "Benjamin", version=first.version, once=None, actor=ACTOR)
    assert carried(following) == final(evening)
    assert "Ben" not in carried(following)


@pytest.fixture
def phone_two(client):
    first = finished_classic(["Anna", "Ben"], winner=1)
    own(client, first)
    start(client, [first])
    return client, Evening.objects.get(), fresh_game(first)


def test_a_carried_evening_s_settle_up_reads_as_carried_not_as_payments_due(evening_of_two):
    """Issue "The evening, third pass", item 1: once carried, nobody pays; the payments are
    shown struck through under a line that says so, so no one pays twice."""
    phone, evening, _first, _second = evening_of_two
    page = phone.get(url("evening", evening.viewer_token)).content.decode()
    due = re.findall(r'<ul class="transfers">\s*(.*?)</ul>', page, re.S)
    assert due, "an open evening shows its payments"
    assert "<del>" not in due[0]
    following = carry(phone, evening)
    page = phone.get(url("evening", evening.viewer_token)).content.decode()
    assert '<ul class="transfers">' not in page
    assert "Nobody pays now: these balances were carried to the next evening." in page
    struck = re.search(r'<ul class="transfers carried"[^>]*>(.*?)</ul>', page, re.S).group(1)
    items = re.findall(r"<li>(.*?)</li>", struck, re.S)
    assert items
    assert all(item.startswith("<del>") and item.endswith("</del>") for item in items)
    # The way on: the next evening's link this phone may use (its starter's: the editor's).
    assert url("evening", following.editor_token) in page


def test_the_next_evening_has_a_name_of_its_own_and_the_date_of_its_first_game(client):
    """Issue 45, item 2: the evening a carry makes is not a copy of the one before. It is made
    when "Thursday 7 December" ends; its first game is a week later. Its page, the share
    result, the circle's list and a refusal that names the evening before all tell the two
    apart: the next evening has no name until given one, and its date is its first game's."""
    circle = CircleFactory()
    first = finished_classic(["Anna", "Ben", "Cleo"], winner=0, no_wild=True)
    Game.objects.filter(pk=first.pk).update(created_at=datetime(2026, 12, 3, 19, tzinfo=UTC))
    own(client, first)
    start(client, [first], name="Thursday 3 December")
    evening = Evening.objects.get()
    Evening.objects.filter(pk=evening.pk).update(created_at=datetime(2026, 12, 3, 19, tzinfo=UTC))
    following = carry(client, evening)
    assert following.name == ""
    Evening.objects.filter(pk=following.pk).update(
        created_at=datetime(2026, 12, 3, 23, tzinfo=UTC)  # made as the first one ended
    )
    page = client.get(url("evening", following.editor_token)).content.decode()
    assert "<h1>Evening</h1>" in page
    assert "Thursday 3 December" not in re.sub(r"<a [^>]*>.*?</a>", "", page, flags=re.S)
    assert "Started on 12/03/2026" in page  # no game yet: when it was made
    # The first game of the next evening is played a week later: that is its date.
    second = finished_classic(["Anna", "Ben", "Cleo"], winner=1, no_wild=True)
    Game.objects.filter(pk=second.pk).update(created_at=datetime(2026, 12, 10, 19, tzinfo=UTC))
    own(client, second)
    page = client.get(url("evening", following.editor_token)).content.decode()
    add = add_data(page, second, "0,10")
    assert client.post(url("evening-add", following.editor_token), add).status_code == 302
    page = client.get(url("evening", following.editor_token)).content.decode()
    assert "Started on 12/10/2026" in page
    # A game of the evening before, offered to this one, is refused naming that evening
    # with its own date: not this page's name, not this page's date.
    page = client.get(url("evening", following.editor_token)).content.decode()
    refused = client.post(
        url("evening-add", following.editor_token),
        {
            **add,
            "version": hidden(page, "version"),
            "once": hidden(page, "once"),
            "game": first.editor_token,
        },
    ).content.decode()
    assert "counts in the evening “Thursday 3 December” of 12/03/2026 already" in refused
    # A circle's list of evenings: each with its own date (its editor's page).
    Evening.objects.filter(pk__in=[evening.pk, following.pk]).update(circle=circle)
    circle_page = client.get(url("circle", circle.editor_token)).content.decode()

    def listed(one: Evening) -> tuple[str, str]:
        link = re.escape(url("evening", one.editor_token))
        found = re.search(rf'href="{link}">([^<]*)</a> · <time [^>]*>([^<]*)</time>', circle_page)
        assert found, one
        return found.group(1), found.group(2)

    assert listed(following) == ("Evening", "12/10/2026")
    assert listed(evening) == ("Thursday 3 December", "12/03/2026")
    # What the next evening's result shares carries its first game's day.
    shared = evening_result(build_evening(fresh(following)))
    assert shared.date == "December 10"
    assert shared.filename == f"evening-2026-12-10-{following.pk}"
