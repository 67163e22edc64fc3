"""The director's part of a tournament (issue 46): the next series' seating proposed, shown
with its seed, two players swapped and started exactly as shown; a drop-out mid-series (a
leaver of the table's game) and the next series' tables; a confirmed table corrected by the
director in both histories; a tournament of a circle, whose people play and whose games
count in its ratings."""

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from rules.engine import tournament as engine
from rules.engine.variants import get_variant
from scorepad.models import Circle, Entrant, Person, Tournament
from scorepad.records import game_records
from tests.factories import record_penalty
from tests.scorepad.test_tournaments import (
    _confirm,
    _enter,
    _once,
    _play_out,
    _post_page_form,
    _series,
    _set_up,
    _version,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def director() -> Client:
    return Client()


def _page(client: Client, tournament: Tournament) -> str:
    token = Tournament.objects.get(pk=tournament.pk).editor_token
    return unescape(client.get(reverse("tournament", kwargs={"token": token})).content.decode())


def _with_players(director: Client, names: str, **setup) -> Tournament:
    tournament, _ = _set_up(director, **setup)
    for name in names.split():
        _enter(director, tournament.editor_token, name)
    return Tournament.objects.get(pk=tournament.pk)


def _names(tournament: Tournament, numbers) -> list[str]:
    by_number = {p.number: p.name for p in tournament.players()}
    return [by_number[n] for n in numbers]


def test_the_director_sees_the_proposed_seating_swaps_two_players_and_starts_it(director):
    t = _with_players(director, "Anna Ben Cleo Dan Eva Finn", deals="1", series="2")
    proposed = _post_page_form(director, t, "tournament-propose")
    assert "The seating of series 1 is proposed" in unescape(proposed.content.decode())
    t.refresh_from_db()
    drawn = engine.draw(range(1, 7), get_variant("romme"), t.seed, 1)
    assert t.proposed().tables == drawn.tables
    page = _page(director, t)
    assert f"Proposed seating: drawn from the seed {t.seed}." in page
    first, second = drawn.tables[0][0], drawn.tables[1][0]  # players at different tables
    a, b = _names(t, (first, second))
    assert f"{a} ({first})" in page
    # A second director's phone had the page open before the swap: its start is stale.
    other = Client()
    other_page = _page(other, t)
    swapped = _post_page_form(director, t, "tournament-swap", a=first, b=second)
    assert f"Swapped: {a} ⇄ {b}." in unescape(swapped.content.decode())
    start = reverse("tournament-series", kwargs={"token": t.editor_token})
    stale = other.post(start, {"version": _version(other_page), "once": _once(other_page)})
    assert stale.status_code == 409
    assert "The tournament changed while you were on this page" in unescape(stale.content.decode())
    t.refresh_from_db()
    assert t.current == 0
    assert not t.tables.exists()
    # The fresh page shows the swap; its start seats exactly that.
    page = _page(director, t)
    assert f"swapped: {a} ⇄ {b}" in page
    expected = engine.swap(drawn, first, second).tables
    assert (
        "Series 1 is seated" in _post_page_form(director, t, "tournament-series").content.decode()
    )
    t.refresh_from_db()
    assert [s.tables for s in t.seatings()] == [expected]
    page = _page(director, t)
    assert f"Seating: drawn from the seed {t.seed}; swapped: {a} ⇄ {b}." in page
    history = [(e.kind, e.details.get("seed")) for e in t.events.all()[:3]]
    assert history == [("series", t.seed), ("swapped", t.seed), ("proposed", t.seed)]
    assert f"Players swapped: {a} ⇄ {b}" in page
    assert f"Series started · series 1 · drawn from the seed {t.seed}; swapped" in page


def test_a_swap_that_cannot_be_made_is_refused_and_changes_nothing(director):
    t = _with_players(director, "Anna Ben Cleo", deals="1", series="2")
    refused = _post_page_form(director, t, "tournament-swap", a=1, b=2)
    assert "The seating of the next series is not proposed" in unescape(refused.content.decode())
    refused = _post_page_form(director, t, "tournament-series")
    assert "The seating of the next series is not proposed" in unescape(refused.content.decode())
    _post_page_form(director, t, "tournament-propose")
    version = Tournament.objects.get(pk=t.pk).version
    for a, b in ((1, 1), (1, 9), ("x", 2)):
        answer = _post_page_form(director, t, "tournament-swap", a=a, b=b)
        assert "Choose two different players of the proposed seating." in answer.content.decode()
    assert Tournament.objects.get(pk=t.pk).version == version


def test_a_late_entry_drops_the_proposed_seating(director):
    t = _with_players(director, "Anna Ben Cleo", deals="1", series="2")
    _post_page_form(director, t, "tournament-propose")
    _enter(director, t.editor_token, "Dan")
    t.refresh_from_db()
    assert t.proposal is None
    page = _page(director, t)
    assert "the proposed seating is dropped: propose it again" in page
    assert "Propose the seating of series 1" in page
    _series(director, t)
    t.refresh_from_db()
    assert sorted(t.seatings()[0].players) == [1, 2, 3, 4]


def test_a_drop_out_mid_series_leaves_the_game_and_the_next_series_seats_the_rest(director):
    """Nine Rommé players sit 3 + 3 + 3; one drops out mid-series: a leaver of the table's
    game, which plays on; the ranking puts them last; series 2 seats the eight left at
    the engine's tables for eight (4 + 4)."""
    t = _with_players(director, "A1 B2 C3 D4 E5 F6 G7 H8 I9", deals="1", series="2")
    _series(director, t)
    t.refresh_from_db()
    assert [len(table.seated.all()) for table in t.tables_of(1)] == [3, 3, 3]
    table = t.tables_of(1)[0]
    leaver = table.seated.all()[0]
    answer = _post_page_form(director, t, "tournament-drop", player=leaver.entrant.pk)
    assert f"{leaver.entrant.name} has dropped out." in unescape(answer.content.decode())
    game = table.game
    game.refresh_from_db()
    seats = list(game.seats.order_by("position"))
    assert [s.active for s in seats] == [False, True, True]
    assert [e.kind for e in game.history()[:1]] == ["left"]
    page = _page(director, t)
    assert f"Player dropped out: {leaver.entrant.name} · left the game of table 1" in page
    # The table plays on without them; the other tables too.
    record_penalty(game, seats[1].position, {seats[2].position: 20})
    for other in t.tables_of(1)[1:]:
        _play_out(other)
    for each in Tournament.objects.get(pk=t.pk).tables_of(1):
        _confirm(Client(), next(s.entrant for s in each.seated.all() if s.entrant.playing))
    t.refresh_from_db()
    ranking = t.ranked()
    assert ranking.rows[-1].player == leaver.entrant.number
    assert ranking.rows[-1].dropped
    _series(director, t)
    t.refresh_from_db()
    tables = t.tables_of(2)
    assert tuple(len(x.seated.all()) for x in tables) == engine.table_sizes(
        8, get_variant("romme")
    ) == (4, 4)  # fmt: skip
    seated = {s.entrant.number for x in tables for s in x.seated.all()}
    assert leaver.entrant.number not in seated
    assert len(seated) == 8


def test_a_drop_out_that_would_leave_a_table_too_small_waits_for_its_game(director):
    """Three Nordic players at one table (3 to 5): the table's game cannot go on with two,
    so a drop-out mid-game is refused in words; once the game has ended it is taken, and
    the next series cannot seat two players."""
    t = _with_players(
        director, "Anna Ben Cleo", variant="contract-nordic", deals="", minutes="30", series="2"
    )
    _series(director, t)
    t.refresh_from_db()
    anna = Entrant.objects.get(name="Anna")
    version = t.version
    refused = _post_page_form(director, t, "tournament-drop", player=anna.pk)
    assert (
        "Anna cannot leave table 1 now: its game needs at least 3 players. Once the table's"
        " game has ended, Anna can drop out." in unescape(refused.content.decode())
    )
    t.refresh_from_db()
    anna.refresh_from_db()
    assert t.version == version
    assert anna.playing
    assert all(s.active for s in t.tables_of(1)[0].game.seats.all())
    game = t.tables_of(1)[0].game
    for _deal in range(7):
        record_penalty(game, 0, {1: 10, 2: 10})
    game.refresh_from_db()
    assert game.is_finished
    dropped = _post_page_form(director, t, "tournament-drop", player=anna.pk)
    assert "Anna has dropped out." in dropped.content.decode()
    assert all(s.active for s in game.seats.all())  # she played the game to its end
    _confirm(Client(), Entrant.objects.get(name="Ben"))
    refused = _post_page_form(director, t, "tournament-propose")
    assert "there is no way to seat 2" in unescape(refused.content.decode())
    assert Tournament.objects.get(pk=t.pk).proposal is None


def test_the_director_corrects_a_confirmed_table_and_both_histories_say_so(director):
    """A second director opened the director's link: the confirmed game is closed to the
    table but not to them; their correction voids the confirmation, the game's history and
    the tournament's name it; a player confirms again. Once the director's link is
    replaced, the old one's phone may correct nothing."""
    t = _with_players(director, "Anna Ben Cleo", deals="1", series="2")
    _series(director, t)
    table = Tournament.objects.get(pk=t.pk).tables_of(1)[0]
    _play_out(table)
    _confirm(Client(), table.seated.all()[1].entrant)
    second = Client()
    page = _page(second, t)  # the director's link, opened on another phone
    game = table.game
    game.refresh_from_db()
    assert game.editor_token in page
    edit = reverse("deal-edit", kwargs={"token": game.editor_token, "number": 1})
    form = second.get(edit).content.decode()
    data = {
        "version": game.version,
        "once": _once(form),
        "went_out": "0",
        "points_1": "15",
        "points_2": "20",
    }
    answer = second.post(edit, data, follow=True)
    assert answer.status_code == 200
    game.refresh_from_db()
    assert [s.total for s in game.seats.order_by("position")] == [0, 15, 20]
    table = Tournament.objects.get(pk=t.pk).tables_of(1)[0]
    assert not table.confirmed
    assert game.history().first().kind == "edited"
    page = _page(director, t)
    assert "Confirmed table corrected by the director · series 1, table 1, deal 1" in page
    corrected = t.events.get(kind="corrected")
    assert corrected.details["game_version"] == game.version
    # A player confirms again.
    _confirm(Client(), table.seated.all()[2].entrant)
    assert Tournament.objects.get(pk=t.pk).tables_of(1)[0].confirmed
    # The director's link replaced: the phone that held the old one corrects nothing.
    replaced = _post_page_form(director, t, "tournament-link", link="editor")
    assert replaced.status_code == 200
    game.refresh_from_db()
    undo = second.post(
        reverse("deal-undo", kwargs={"token": game.editor_token}),
        {"version": game.version, "once": "old-director-1"},
        follow=True,
    )
    assert "This series is confirmed; the director can correct it." in undo.content.decode()
    assert game.deals.count() == 1


def _circle(client: Client, *names: str) -> Circle:
    form = client.get(reverse("circle-new")).content.decode()
    client.post(reverse("circle-new"), {"name": "Club", "once": _once(form)})
    circle = Circle.objects.get(name="Club")
    for name in names:
        Person.objects.create(circle=circle, name=name)
    return circle


def test_a_tournament_of_a_circle_seats_its_people_and_its_games_count(director):
    circle = _circle(director, "Anna", "Ben", "Cleo")
    page = director.get(reverse("circle", kwargs={"token": circle.editor_token})).content
    link = re.search(r'href="([^"]*/tournaments/new/\?circle=[^"]+)"', page.decode())[1]
    form = director.get(unescape(link)).content.decode()
    assert "A tournament of the circle Club" in form
    ref = re.search(r'name="circle" value="([^"]+)"', form)[1]
    data = {"name": "Club cup", "variant": "romme", "series": "1", "deals": "1",
            "minutes": "", "ranking": "points", "seating": "result", "once": _once(form),
            "circle": unescape(ref)}  # fmt: skip
    director.post(reverse("tournament-new"), data)
    t = Tournament.objects.get(name="Club cup")
    assert t.circle == circle
    page = _page(director, t)
    assert "People of the circle Club" in page
    people = {p.name: p.pk for p in circle.people()}
    answer = _post_page_form(
        director, t, "tournament-enter-people", person=[people["Anna"], people["Ben"]]
    )
    assert "Entered: Anna, Ben." in answer.content.decode()
    # Two phones at once: the director ticks Cleo while a player types a newcomer's name at
    # the same version: one is saved, the other told the tournament changed; sent again,
    # both are in, and the newcomer is a person of the circle, once.
    phone = Client()
    reg = unescape(
        phone.get(reverse("tournament", kwargs={"token": t.registration_token})).content.decode()
    )
    mine = _page(director, t)
    tick = director.post(
        reverse("tournament-enter-people", kwargs={"token": t.editor_token}),
        {"version": _version(mine), "once": _once(mine), "person": people["Cleo"]},
    )
    assert tick.status_code == 302
    typed = phone.post(
        reverse("tournament-enter", kwargs={"token": t.registration_token}),
        {"version": _version(reg), "once": _once(reg), "name": "zoe"},
    )
    assert typed.status_code == 409
    _enter(phone, t.registration_token, "Zoe")
    assert [p.name for p in Tournament.objects.get(pk=t.pk).players()] == [
        "Anna", "Ben", "Cleo", "Zoe"
    ]  # fmt: skip
    zoe = circle.persons.get(name="Zoe")
    assert Entrant.objects.get(name="Zoe").person == zoe
    # A name the circle knows is its person, spelled the circle's way.
    refused = _enter(director, t.editor_token, "anna", follow=True)
    assert "Anna is entered already" in unescape(refused.content.decode())
    # So is a person entered under the name they had before the circle renamed them.
    zoe.name = "Zoey"
    zoe.save()
    refused = _enter(director, t.editor_token, "Zoey", follow=True)
    assert "Zoe is entered already (start number 4)" in unescape(refused.content.decode())
    _series(director, t)
    t.refresh_from_db()
    game = t.tables_of(1)[0].game
    assert game.circle == circle
    assert {s.person.name for s in game.seats.all()} == {"Anna", "Ben", "Cleo", "Zoey"}
    _play_out(t.tables_of(1)[0])
    # The game counts in the circle's records and ratings.
    records = game_records(zoe)
    assert [(r.key, r.finished) for r in records] == [(game.pk, True)]
    ratings = director.get(reverse("circle-players", kwargs={"token": circle.editor_token}))
    assert "Zoe" in ratings.content.decode()


def test_only_the_circles_editor_starts_its_tournament(director):
    circle = _circle(director, "Anna")
    from scorepad.access import circle_reference

    Circle.objects.filter(pk=circle.pk).update(editor_token="replaced-token-123456789")
    stale_ref = circle_reference(circle)
    answer = Client().get(reverse("tournament-new"), {"circle": stale_ref}, follow=True)
    assert "Only the circle's editor link starts its tournament" in unescape(
        answer.content.decode()
    )
    assert not Tournament.objects.exists()
