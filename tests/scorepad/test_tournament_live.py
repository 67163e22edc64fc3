"""A tournament followed live (scorepad/views/tournaments.py: the live part, its check, the
part the stream carries, table mode) and its round clock (the series' start, each table
game's end of time: the classic game and Rommé end after the deal in play, the contract
games are only warned)."""

from datetime import timedelta
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorepad.models import Entrant, Game, Tournament
from scorepad.views.tournaments import carried_part, live_id_now
from tests.factories import record_penalty

from .test_tournaments import (
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


def _seated(director: Client, names=("Anna", "Ben", "Cleo", "Dan"), **setup) -> Tournament:
    tournament, _ = _set_up(director, **{"deals": "1", "series": "2", **setup})
    for name in names:
        _enter(director, tournament.editor_token, name)
    _series(director, tournament)
    return Tournament.objects.get(pk=tournament.pk)


def _live(token: str, shown: str) -> tuple[int, str]:
    answer = Client().get(reverse("tournament-live", kwargs={"token": token}) + f"?v={shown}")
    return answer.status_code, unescape(answer.content.decode())


@pytest.fixture
def director() -> Client:
    return Client()


def test_the_live_check_answers_204_until_a_table_changes_then_the_new_part(director):
    """A viewer's page shows its state (the tournament's and its games' versions); a deal at a
    table (a change of the game alone) and a confirmation (of the tournament) each make the
    check answer with the new part: the table's state, then the standings."""
    tournament = _seated(director)
    shown = live_id_now(tournament.viewer_token)
    assert _live(tournament.viewer_token, shown) == (204, "")
    table = tournament.tables_of(1)[0]
    _play_out(table)
    status, part = _live(tournament.viewer_token, shown)
    assert status == 200
    assert "ended, waiting for a player to confirm" in part
    shown = live_id_now(tournament.viewer_token)
    assert f'data-live-id="{shown}"' in part
    _confirm(Client(), table.seated.all()[1].entrant)
    status, part = _live(tournament.viewer_token, shown)
    assert status == 200
    name = table.seated.all()[1].entrant.name
    assert f"confirmed by {name}" in part
    assert "Standings" in part
    # The viewer's part holds no form and no editor link; the director's has its forms.
    assert "<form" not in part
    assert table.game.editor_token not in part
    _, directors = _live(tournament.editor_token, "")
    assert "tournament-drop" not in directors  # the URL names, not the view's
    assert reverse("tournament-drop", kwargs={"token": tournament.editor_token}) in directors
    assert table.game.editor_token in directors


def test_the_part_the_stream_carries_is_the_viewers_part_of_that_state(director):
    """Rendered once per state for every phone (continental/live.py): in each language asked,
    with the versions it shows, as the viewer's own check would answer."""
    tournament = _seated(director)
    version, games, parts = carried_part(tournament.pk, {"en", "de"})
    assert version == tournament.version
    assert games == {t.game_id: t.game.version for t in tournament.tables_of(1)}
    ident = f"{version}.{sum(games.values())}"
    assert ident == live_id_now(tournament.viewer_token)
    _, asked = _live(tournament.viewer_token, "")
    assert unescape(parts["en"]) == asked
    assert "Durchgang 1 von 2" in parts["de"]
    assert "/de/tournaments/" in parts["de"]


def test_a_players_page_and_the_viewers_page_follow_the_stream(director, settings):
    """With the live streams on, a viewer's page and a player's page name the tournament's
    stream and take the part it carries; the director's asks its own."""
    settings.LIVE_STREAMS = True
    tournament = _seated(director)
    viewer = Client().get(reverse("tournament", kwargs={"token": tournament.viewer_token}))
    html = viewer.content.decode()
    assert f'data-live="/live/tournaments/{tournament.viewer_token}"' in html
    assert 'data-live-carry="#tournament-live"' in html
    anna = Entrant.objects.get(name="Anna")
    html = Client().get(reverse("tournament-player", kwargs={"token": anna.token})).content
    html = html.decode()
    assert f'data-live="/live/tournaments/{tournament.viewer_token}"' in html
    assert 'id="player-block"' in html
    assert 'data-watch="1:playing"' in html
    html = director.get(reverse("tournament", kwargs={"token": tournament.editor_token}))
    html = html.content.decode()
    assert f'data-live="/live/tournaments/{tournament.editor_token}"' in html
    assert "data-live-carry" not in html


def test_table_mode_shows_the_series_the_clock_and_the_standings_under_the_viewer_link(director):
    tournament = _seated(director, minutes="40")
    url = reverse("tournament-table", kwargs={"token": tournament.editor_token})
    answer = director.get(url)
    viewer_url = reverse("tournament-table", kwargs={"token": tournament.viewer_token})
    assert answer.status_code == 302
    assert answer["Location"] == viewer_url
    html = unescape(Client().get(viewer_url).content.decode())
    assert "Series 1 of 2" in html
    for name in ("Anna", "Ben", "Cleo", "Dan"):
        assert name in html
    ends = timezone.localtime(tournament.clock_ends).strftime("%H:%M")
    assert f"The series' time ends at {ends}." in html
    assert "<form" not in html
    assert tournament.editor_token not in html
    for table in tournament.tables_of(1):
        _play_out(table)
        _confirm(Client(), table.seated.all()[1].entrant)
    html = unescape(Client().get(viewer_url).content.decode())
    assert "Standings" in html
    assert "Behind the one above on" in html


def test_seating_a_series_starts_its_clock_once_for_every_table(director):
    before = timezone.now()
    tournament = _seated(director, names=("A", "B", "C", "D", "E", "F"), minutes="30")
    assert before <= tournament.series_started <= timezone.now()
    ends = tournament.series_started + timedelta(minutes=30)
    assert tournament.clock_ends == ends
    assert [t.game.clock_ends for t in tournament.tables_of(1)] == [ends, ends]
    event = tournament.events.get(kind="series")
    assert event.details["started"] == tournament.series_started.isoformat()


def test_two_directors_seat_the_same_series_once(director):
    """Two phones of the director start the proposed seating from pages at the same version:
    the series is seated once and its clock started once; the second is told the page was
    stale."""
    tournament, _ = _set_up(director, deals="1", series="2", minutes="30")
    for name in ("Anna", "Ben", "Cleo", "Dan"):
        _enter(director, tournament.editor_token, name)
    _post_page_form(director, tournament, "tournament-propose")  # the seating both pages show
    second = Client()
    page = lambda phone: phone.get(  # noqa: E731
        reverse("tournament", kwargs={"token": tournament.editor_token})
    ).content.decode()
    first_page, second_page = page(director), page(second)
    url = reverse("tournament-series", kwargs={"token": tournament.editor_token})
    one = director.post(url, {"version": _version(first_page), "once": _once(first_page)})
    assert one.status_code == 302
    started = Tournament.objects.get(pk=tournament.pk).series_started
    two = second.post(url, {"version": _version(second_page), "once": _once(second_page)})
    assert two.status_code == 409
    assert "changed" in unescape(two.content.decode())
    tournament.refresh_from_db()
    assert tournament.current == 1
    assert tournament.series_started == started
    assert tournament.tables.count() == 1


def _time_up(tournament: Tournament) -> None:
    """The series' clock ran out a second ago."""
    past = timezone.now() - timedelta(minutes=tournament.minutes or 0, seconds=1)
    Tournament.objects.filter(pk=tournament.pk).update(series_started=past)
    Game.objects.filter(tournament_table__tournament=tournament).update(
        clock_ends=timezone.now() - timedelta(seconds=1)
    )


def test_when_the_clock_runs_out_the_deal_in_play_is_the_last(director):
    """Rommé with 10 deals or 20 minutes: before the time is up a deal is one of many; once
    it is up, the game's page says the deal in play is the last, and the next deal recorded
    ends the game."""
    tournament = _seated(director, deals="10", minutes="20")
    table = tournament.tables_of(1)[0]
    game = table.game
    seats = list(game.seats.order_by("position"))
    record_penalty(game, 0, {s.position: 10 for s in seats[1:]})
    game.refresh_from_db()
    assert not game.is_finished
    page = Client().get(reverse("game", kwargs={"token": game.viewer_token})).content.decode()
    assert "data-clock" in page
    assert "Time left:" in unescape(page)
    _time_up(tournament)
    page = Client().get(reverse("game", kwargs={"token": game.viewer_token})).content.decode()
    assert "Time is up: the deal in play is the last." in unescape(page)
    game.refresh_from_db()
    record_penalty(game, 1, {s.position: 5 for s in seats if s.position != 1})
    game.refresh_from_db()
    assert game.is_finished
    assert game.deal_count() == 2
    assert game.events.get(kind="recorded", deal_number=2).details.get("target") is True


def test_the_clock_only_warns_a_contract_game(director):
    tournament = _seated(director, deals="", minutes="20", variant="contract-nordic")
    game = tournament.tables_of(1)[0].game
    assert game.clock_ends is not None
    _time_up(tournament)
    page = Client().get(reverse("game", kwargs={"token": game.viewer_token})).content.decode()
    assert "Time is up: finish the seven deals." in unescape(page)
    game.refresh_from_db()
    seats = list(game.seats.order_by("position"))
    record_penalty(game, 0, {s.position: 10 for s in seats[1:]})
    game.refresh_from_db()
    assert not game.is_finished
    viewer = Client().get(reverse("tournament", kwargs={"token": tournament.viewer_token}))
    assert "Time is up: finish the seven deals." in unescape(viewer.content.decode())


def test_two_tables_confirm_at_once_and_both_are_saved(director):
    """Two tables' players open their pages at the same version of the tournament and
    confirm: a confirmation binds to its table's game, so the other table's confirmation
    meanwhile makes neither form stale; both are saved, each once."""
    tournament = _seated(director, names=("A", "B", "C", "D", "E", "F"))
    first, second = tournament.tables_of(1)
    for table in (first, second):
        _play_out(table)
    before = Tournament.objects.get(pk=tournament.pk).version
    one, two = Client(), Client()
    players = [first.seated.all()[1].entrant, second.seated.all()[1].entrant]
    pages = [
        phone.get(reverse("tournament-player", kwargs={"token": p.token})).content.decode()
        for phone, p in zip((one, two), players, strict=True)
    ]
    answers = []
    for phone, player, page in zip((one, two), players, pages, strict=True):
        url = reverse("tournament-confirm", kwargs={"token": player.token})
        data = {"version": _version(page), "once": _once(page), "answer": "confirm"}
        answers.append(phone.post(url, data))
        answers.append(phone.post(url, data))  # the same form again: done once
    assert [a.status_code for a in answers] == [302] * 4
    assert all(t.confirmed for t in Tournament.objects.get(pk=tournament.pk).tables_of(1))
    assert Tournament.objects.get(pk=tournament.pk).version == before + 2


def test_a_confirmation_shown_before_its_game_changed_is_answered_with_the_fresh_page(director):
    """A player's page shows the ended game; the table then corrects it (its last deal undone
    and recorded again): the confirmation from the earlier page is stale, nothing is
    confirmed, the fresh page says why, and confirming from it is saved."""
    tournament = _seated(director, names=("A", "B", "C", "D", "E", "F"))
    table = tournament.tables_of(1)[0]
    _play_out(table)
    player = table.seated.all()[1].entrant
    phone = Client()
    page = phone.get(reverse("tournament-player", kwargs={"token": player.token})).content.decode()
    game = Game.objects.get(pk=table.game_id)
    game.undo_last_deal(version=game.version, once="undo-1", actor=_actor())
    _play_out(Tournament.objects.get(pk=tournament.pk).tables_of(1)[0])
    url = reverse("tournament-confirm", kwargs={"token": player.token})
    data = {"version": _version(page), "once": _once(page), "answer": "confirm"}
    stale = phone.post(url, data)
    assert stale.status_code == 409
    fresh = unescape(stale.content.decode())
    assert "The table's game changed after this page showed it" in fresh
    assert not Tournament.objects.get(pk=tournament.pk).tables_of(1)[0].confirmed
    again = phone.post(url, {"version": _version(fresh), "once": _once(fresh), "answer": "confirm"})
    assert again.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).tables_of(1)[0].confirmed


def _actor():
    from scorepad.kernel import Actor

    return Actor("creator", "")
