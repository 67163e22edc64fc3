"""A tournament on the kernel (scorepad/tournaments.py, views/tournaments.py): set up by its
director, players entered by the director or through the registration link's QR code, a
player's own link, a drop-out; every write with the kernel's version and one-time token,
from two phones, stale, replayed."""

import io
import json
import re
from html import unescape

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from rules.engine import tournament as engine
from rules.engine.variants import get_variant
from scorepad.access import TOURNAMENTS
from scorepad.models import AlreadyDone, Entrant, Event, Table, TableSeat, Tournament
from tests.factories import ACTOR, record_penalty

pytestmark = pytest.mark.django_db

SETUP = {
    "name": "Club night",
    "variant": "romme",
    "series": "3",
    "deals": "6",
    "minutes": "",
    "ranking": "points",
    "seating": "result",
}


def _once(html: str) -> str:
    return re.search(r'name="once" value="([^"]+)"', html)[1]


def _version(html: str) -> str:
    return re.search(r'name="version" value="(\d+)"', html)[1]


def _set_up(client: Client, **changes) -> tuple[Tournament, str]:
    page = client.get(reverse("tournament-new"))
    once = _once(page.content.decode())
    answer = client.post(reverse("tournament-new"), {**SETUP, **changes, "once": once})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    tournament = Tournament.objects.get(events__form_token=once)
    return tournament, once


@pytest.fixture
def director() -> Client:
    return Client()


@pytest.fixture
def tournament(director) -> Tournament:
    return _set_up(director)[0]


def _enter(client: Client, token: str, name: str, *, version=None, once=None, follow=False):
    page = client.get(reverse("tournament", kwargs={"token": token})).content.decode()
    data = {
        "name": name,
        "version": version if version is not None else _version(page),
        "once": once or _once(page),
    }
    return client.post(reverse("tournament-enter", kwargs={"token": token}), data, follow=follow)


def test_the_director_sets_it_up_and_a_replay_of_the_form_makes_one(director):
    tournament, once = _set_up(director)
    assert (tournament.name, tournament.variant_id, tournament.series) == ("Club night", "romme", 3)
    assert tournament.deals == 6
    assert re.fullmatch(r"\d{6}", tournament.seed)
    assert [e.kind for e in tournament.events.all()] == ["started"]
    # The answer never came (a dropped connection): the phone sends the form again.
    again = director.post(reverse("tournament-new"), {**SETUP, "once": once}, follow=True)
    assert Tournament.objects.count() == 1
    assert "That was already done" in again.content.decode()
    assert again.redirect_chain[-1][0].endswith(f"/tournaments/{tournament.editor_token}/")
    # The director's phone is the director: its page shows the registration code.
    page = director.get(reverse("tournament", kwargs={"token": tournament.viewer_token}))
    assert "Players enter here" in page.content.decode()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": "  "}, "Give the tournament a name."),
        ({"series": "0"}, "A tournament has 1 to 12 series."),
        ({"series": "many"}, "A tournament has 1 to 12 series."),
        ({"deals": ""}, "Give the deals a series has, or its minutes, or both."),
        ({"variant": "poker"}, "Choose one of the choices shown."),
    ],
)
def test_a_setup_that_cannot_be_played_is_refused_in_words(director, changes, message):
    page = director.get(reverse("tournament-new"))
    data = {**SETUP, **changes, "once": _once(page.content.decode())}
    answer = director.post(reverse("tournament-new"), data)
    assert answer.status_code == 200
    assert message in answer.content.decode()
    assert not Tournament.objects.exists()


def test_a_contract_game_plays_its_seven_deals(director):
    tournament, _ = _set_up(director, variant="contract-nordic", deals="", minutes="45")
    assert (tournament.deals, tournament.minutes) == (None, 45)


def test_players_enter_from_the_director_and_from_the_registration_code(director, tournament):
    answer = _enter(director, tournament.editor_token, "Anna", follow=True)
    assert "Anna has start number 1." in answer.content.decode()
    phone = Client()
    answer = _enter(phone, tournament.registration_token, "Ben", follow=True)
    ben = Entrant.objects.get(name="Ben")
    # The phone lands on its player's own page and keeps its link.
    assert answer.redirect_chain[-1][0].endswith(f"/tournaments/players/{ben.token}/")
    assert "Ben, start number 2" in answer.content.decode()
    again = phone.get(reverse("tournament", kwargs={"token": tournament.registration_token}))
    assert "Your player: Ben, start number 2" in again.content.decode()
    tournament.refresh_from_db()
    assert tournament.version == 3 == tournament.events.count()
    # The history names the link each entry came through.
    page = director.get(reverse("tournament", kwargs={"token": tournament.editor_token}))
    assert "Player entered: Ben · the registration link" in unescape(page.content.decode())
    assert [p.name for p in tournament.players()] == ["Anna", "Ben"]
    # The director's page lists both; the viewer link may not enter anyone.
    viewer = Client()
    page = viewer.get(reverse("tournament", kwargs={"token": tournament.viewer_token}))
    assert "Anna" in page.content.decode()
    assert "Enter the tournament" not in page.content.decode()
    refused = _enter(viewer, tournament.viewer_token, "Cleo", version=3, once="viewer-once-1")
    assert refused.status_code == 403
    assert "This link can only show the tournament" in refused.content.decode()
    assert not Entrant.objects.filter(name="Cleo").exists()


def test_a_name_entered_twice_is_refused_and_changes_nothing(director, tournament):
    _enter(director, tournament.editor_token, "Anna")
    answer = _enter(Client(), tournament.registration_token, " anna ", follow=True)
    assert "Anna is entered already (start number 1)" in answer.content.decode()
    tournament.refresh_from_db()
    assert (tournament.version, Entrant.objects.count()) == (2, 1)


def test_two_phones_stale_and_replayed(director, tournament):
    """Two phones enter players from pages read at the same version: the second is told the
    tournament changed and enters no one; its form sent again is still refused; the first
    phone's form sent again (its answer was lost) enters its player once."""
    first, second = Client(), Client()
    token = tournament.registration_token
    pages = [c.get(reverse("tournament", kwargs={"token": token})).content.decode()
             for c in (first, second)]  # fmt: skip
    url = reverse("tournament-enter", kwargs={"token": token})
    sent = {"name": "Anna", "version": _version(pages[0]), "once": _once(pages[0])}
    assert first.post(url, sent).status_code == 302
    stale = second.post(
        url, {"name": "Ben", "version": _version(pages[1]), "once": _once(pages[1])}
    )
    assert stale.status_code == 409
    assert "The tournament changed while you were on this page" in stale.content.decode()
    assert first.post(url, sent).status_code == 302  # the replay
    assert [p.name for p in Tournament.objects.get().players()] == ["Anna"]
    assert Event.objects.filter(tournament=tournament, kind="entered").count() == 1


def test_a_write_without_version_or_token_changes_nothing(director, tournament):
    url = reverse("tournament-enter", kwargs={"token": tournament.editor_token})
    answer = director.post(url, {"name": "Anna"}, follow=True)
    assert "The form was incomplete; nothing was changed." in answer.content.decode()
    assert not Entrant.objects.exists()


def test_a_player_drops_out_and_a_late_entry_starts_later(director, tournament):
    _enter(director, tournament.editor_token, "Anna")
    anna = Entrant.objects.get()
    page = director.get(reverse("tournament", kwargs={"token": tournament.editor_token}))
    html = page.content.decode()
    url = reverse("tournament-drop", kwargs={"token": tournament.editor_token})
    data = {"player": anna.pk, "version": _version(html), "once": _once(html)}
    answer = director.post(url, data, follow=True)
    assert "Anna has dropped out." in answer.content.decode()
    anna.refresh_from_db()
    assert anna.dropped_after == 0
    assert not anna.playing
    again = director.post(url, data, follow=True)  # dropped once
    assert "That was already done" in again.content.decode()
    assert (
        "You have dropped out"
        in Client().get(reverse("tournament-player", kwargs={"token": anna.token})).content.decode()
    )
    # Once series 1 is in play, a new player starts with series 2.
    Tournament.objects.filter(pk=tournament.pk).update(current=1)
    _enter(director, tournament.editor_token, "Ben")
    assert Entrant.objects.get(name="Ben").first_series == 2
    # Once the last series is in play, no one enters.
    Tournament.objects.filter(pk=tournament.pk).update(current=3)
    answer = _enter(director, tournament.editor_token, "Cleo", follow=True)
    assert "no one enters any more" in answer.content.decode()
    assert not Entrant.objects.filter(name="Cleo").exists()


def test_the_registration_link_can_be_replaced(director, tournament):
    old = tournament.registration_token
    page = director.get(reverse("tournament", kwargs={"token": tournament.editor_token}))
    html = page.content.decode()
    url = reverse("tournament-link", kwargs={"token": tournament.editor_token})
    director.post(url, {"link": "registration", "version": _version(html), "once": _once(html)})
    tournament.refresh_from_db()
    assert tournament.registration_token != old
    assert Client().get(reverse("tournament", kwargs={"token": old})).status_code == 404
    assert TOURNAMENTS.model is Tournament


def test_an_unknown_player_link_is_not_found():
    assert Client().get(reverse("tournament-player", kwargs={"token": "x" * 24})).status_code == 404


def _as_stored(tournament: Tournament) -> tuple:
    return (
        Tournament.objects.filter(pk=tournament.pk).values().get(),
        list(Entrant.objects.filter(tournament=tournament).values().order_by("pk")),
        list(tournament.events.values("at", "kind", "details", "actor", "device", "form_token")),
    )


def test_a_backup_keeps_a_tournament_with_its_players_and_history(director, tournament, tmp_path):
    _enter(director, tournament.editor_token, "Anna")
    _enter(Client(), tournament.registration_token, "Ben")
    Entrant.objects.filter(name="Ben").update(dropped_after=1)
    before = _as_stored(tournament)
    path = tmp_path / "backup.json"
    call_command("backup", "export", str(path), stderr=io.StringIO())
    document = json.loads(path.read_text())
    assert document["format_version"] == 5
    assert [p["name"] for p in document["tournaments"][0]["players"]] == ["Anna", "Ben"]
    Tournament.objects.all().delete()
    assert not Event.objects.exists()
    call_command("backup", "import", str(path), stdout=io.StringIO())
    assert _as_stored(Tournament.objects.get()) == before
    # The links lead where they led; a one-time token used stays used.
    again = Tournament.objects.by_token(tournament.registration_token).get()
    with pytest.raises(AlreadyDone):
        again.enter("Cleo", version=again.version, once=before[2][0]["form_token"], actor=ACTOR)


def test_a_backup_with_a_player_link_twice_restores_nothing(director, tournament, tmp_path):
    _enter(director, tournament.editor_token, "Anna")
    _enter(director, tournament.editor_token, "Ben")
    path = tmp_path / "backup.json"
    call_command("backup", "export", str(path), stderr=io.StringIO())
    document = json.loads(path.read_text())
    players = document["tournaments"][0]["players"]
    players[1]["token"] = players[0]["token"]
    path.write_text(json.dumps(document))
    Tournament.objects.all().delete()
    with pytest.raises(CommandError, match="player link is also a link of Tournament"):
        call_command("backup", "import", str(path), stdout=io.StringIO())
    assert not Tournament.objects.exists()


def test_the_setup_form_opens_with_its_choices_made(director):
    """Three series, placement points first, seated by the running result: a director who
    names the tournament and picks its game is done."""
    html = director.get(reverse("tournament-new")).content.decode()
    assert re.search(r'name="series" value="3"', html)
    assert re.search(r'value="points"[^>]*checked', html)
    assert re.search(r'value="result"[^>]*checked', html)


def _post_page_form(director: Client, tournament: Tournament, name: str, **data):
    """Post the form ``name`` of the director's page as the page has it now."""
    html = director.get(reverse("tournament", kwargs={"token": tournament.editor_token}))
    html = html.content.decode()
    url = reverse(name, kwargs={"token": tournament.editor_token})
    return director.post(url, {"version": _version(html), "once": _once(html), **data}, follow=True)


def _series(director: Client, tournament: Tournament):
    """The director proposes the next series' seating (unless it is shown already), then
    starts it as shown."""
    html = director.get(reverse("tournament", kwargs={"token": tournament.editor_token}))
    if "/seating/" in html.content.decode():
        proposed = _post_page_form(director, tournament, "tournament-propose")
        if "is proposed" not in proposed.content.decode():
            return proposed
    return _post_page_form(director, tournament, "tournament-series")


def _confirm(phone: Client, player: Entrant, answer="confirm", note=""):
    html = phone.get(reverse("tournament-player", kwargs={"token": player.token}))
    html = html.content.decode()
    url = reverse("tournament-confirm", kwargs={"token": player.token})
    data = {"version": _version(html), "once": _once(html), "answer": answer, "note": note}
    return phone.post(url, data, follow=True)


def _play_out(table: Table) -> None:
    """The table's one deal of the series: its first player goes out."""
    game = table.game
    seats = list(game.seats.order_by("position"))
    record_penalty(game, 0, {s.position: 10 * s.position for s in seats[1:]})
    game.refresh_from_db()
    assert game.is_finished


def test_a_series_seats_every_player_once_and_confirmed_results_rank(director):
    """Five Rommé players (tables of 3 and 2) over two series of one deal: the series is
    seated from the seed, each player's page names their table; a result counts once a
    player of the table confirms it from their own phone; the next series waits for
    every table; the standings follow the engine's ranking."""
    tournament, _ = _set_up(director, deals="1", series="2")
    for name in ("Anna", "Ben", "Cleo", "Dan", "Eva"):
        _enter(director, tournament.editor_token, name)
    answer = _series(director, tournament)
    assert "Series 1 is seated: 2 tables." in answer.content.decode()
    tournament.refresh_from_db()
    tables = tournament.tables_of(1)
    assert [len(t.seated.all()) for t in tables] == [3, 2]
    assert sorted(s.entrant.name for t in tables for s in t.seated.all()) == [
        "Anna", "Ben", "Cleo", "Dan", "Eva"
    ]  # fmt: skip
    expected = engine.draw([1, 2, 3, 4, 5], get_variant("romme"), tournament.seed, 1)
    assert tournament.seatings() == [
        engine.Seating(expected.tables, tournament.seating)
    ]  # the engine's draw from the seed shown
    # Each table's game is an ordinary game of the score pad, its seats in seating order.
    first = tables[0]
    assert [s.name for s in first.game.seats.order_by("position")] == [
        s.entrant.name for s in first.seated.all()
    ]
    anna_table = Entrant.objects.get(name="Anna").seated.get(series=1).table
    page = Client().get(
        reverse("tournament-player", kwargs={"token": Entrant.objects.get(name="Anna").token})
    )
    assert f"you sit at table {anna_table.number}" in page.content.decode()
    # The next series waits for both tables.
    refused = _series(director, tournament)
    assert "These tables have not confirmed their result yet: 1, 2." in refused.content.decode()
    for table in tables:
        _play_out(table)
    mate = tables[0].seated.all()[1].entrant
    confirmed = _confirm(Client(), mate)
    assert "Your table's result is confirmed." in unescape(confirmed.content.decode())
    # A disagreement at table 2: rejected with a note, then confirmed.
    other = tables[1].seated.all()[0].entrant
    rejected = _confirm(Client(), other, "reject", "Dan had 10, not 0")
    assert "Your table's result is rejected" in unescape(rejected.content.decode())
    page = director.get(reverse("tournament", kwargs={"token": tournament.editor_token}))
    assert "Dan had 10, not 0" in page.content.decode()
    assert "confirmed by" in page.content.decode()
    _confirm(Client(), other)
    tournament.refresh_from_db()
    ranking = tournament.ranked()
    winners = {t.seated.all()[0].entrant.number for t in tables}  # each table's first went out
    assert {r.player for r in ranking.rows[:2]} == winners
    page = director.get(reverse("tournament", kwargs={"token": tournament.editor_token}))
    assert "Standings" in page.content.decode()
    # Series 2 is seated; then every series has been played.
    assert "Series 2 is seated" in _series(director, tournament).content.decode()
    tournament.refresh_from_db()
    assert tournament.current == 2
    assert TableSeat.objects.filter(series=2).count() == 5
    assert "Every series has been played." in _series(director, tournament).content.decode()


def test_a_confirmation_is_bound_to_the_games_version(director):
    tournament, _ = _set_up(director, deals="1", series="2")
    for name in ("Anna", "Ben", "Cleo"):
        _enter(director, tournament.editor_token, name)
    _series(director, tournament)
    table = Tournament.objects.get().tables_of(1)[0]
    player = table.seated.all()[1].entrant
    # The page offers no confirmation before the game ends; a form sent by hand is refused.
    page = Client().get(reverse("tournament-player", kwargs={"token": player.token}))
    assert "The result is right" not in page.content.decode()
    url = reverse("tournament-confirm", kwargs={"token": player.token})
    data = {"version": table.game.version, "once": "by-hand-1", "answer": "confirm"}
    assert "has not ended yet" in Client().post(url, data, follow=True).content.decode()
    _play_out(table)
    _confirm(Client(), player)
    table = Tournament.objects.get().tables_of(1)[0]
    assert table.confirmed
    # A later change of the game (a correction) voids the confirmation.
    game = table.game
    game.refresh_from_db()
    game.reopen(version=game.version, once="reopen-1", actor=ACTOR)
    table = Tournament.objects.get().tables_of(1)[0]
    assert not table.confirmed


def test_a_backup_keeps_the_series_tables_and_confirmations(director, tmp_path):
    tournament, _ = _set_up(director, deals="1", series="2")
    for name in ("Anna", "Ben", "Cleo", "Dan", "Eva"):
        _enter(director, tournament.editor_token, name)
    _series(director, tournament)
    table = Tournament.objects.get().tables_of(1)[0]
    _play_out(table)
    _confirm(Client(), table.seated.all()[1].entrant)
    before = Tournament.objects.get().ranked()
    seatings = Tournament.objects.get().seatings()
    path = tmp_path / "backup.json"
    call_command("backup", "export", str(path), stderr=io.StringIO())
    Tournament.objects.all().delete()
    from scorepad.models import Circle, Evening, Game

    Evening.objects.all().delete()
    Game.objects.all().delete()
    Circle.objects.all().delete()
    call_command("backup", "import", str(path), stdout=io.StringIO())
    restored = Tournament.objects.get()
    assert restored.seatings() == seatings
    assert restored.tables_of(1)[0].confirmed
    assert restored.ranked() == before


def test_the_phone_that_recorded_cannot_confirm(director):
    tournament, _ = _set_up(director, deals="1", series="1")
    for name in ("Anna", "Ben"):
        _enter(director, tournament.editor_token, name)
    _series(director, tournament)
    table = Tournament.objects.get().tables_of(1)[0]
    _play_out(table)  # recorded by the device "test01"
    phone = Client()
    session = phone.session
    session["scorepad_device"] = ACTOR.device
    session.save()
    answer = _confirm(phone, table.seated.all()[0].entrant)
    assert "Another player of the table confirms, from their own phone." in answer.content.decode()
    assert not Tournament.objects.get().tables_of(1)[0].confirmed


def test_a_confirmed_game_is_closed_to_its_table_but_not_to_the_director(director):
    """Once confirmed, the table's links change nothing (a late outbox replay is told why,
    not left waiting); the director's phone may correct it, which voids the confirmation."""
    tournament, _ = _set_up(director, deals="1", series="2")
    for name in ("Anna", "Ben", "Cleo"):
        _enter(director, tournament.editor_token, name)
    _series(director, tournament)
    table = Tournament.objects.get().tables_of(1)[0]
    _play_out(table)
    _confirm(Client(), table.seated.all()[1].entrant)
    game = table.game
    game.refresh_from_db()
    url = reverse("game-end", kwargs={"token": game.editor_token})  # "resume" the game
    phone = Client()
    answer = phone.post(url, {"version": game.version, "once": "table-1"}, follow=True)
    assert "This series is confirmed; the director can correct it." in answer.content.decode()
    replay = phone.post(
        reverse("deal-undo", kwargs={"token": game.editor_token}),
        {"version": game.version, "once": "outbox-1"},
        headers={"X-Scorepad-Outbox": "1"},
    )
    assert replay.status_code == 410
    assert replay.json()["outcome"] == "gone"
    assert "the director can correct it" in replay.json()["message"]
    game.refresh_from_db()
    assert game.is_finished
    assert Tournament.objects.get().tables_of(1)[0].confirmed
    # The director's phone undoes the deal: the confirmation is void.
    undo = director.post(
        reverse("deal-undo", kwargs={"token": game.editor_token}),
        {"version": game.version, "once": "director-1"},
        follow=True,
    )
    assert undo.status_code == 200
    game.refresh_from_db()
    assert game.deals.count() == 0
    assert not Tournament.objects.get().tables_of(1)[0].confirmed


def test_a_players_page_holding_the_tables_game_is_never_cached(director):
    tournament, _ = _set_up(director, deals="1", series="1")
    for name in ("Anna", "Ben"):
        _enter(director, tournament.editor_token, name)
    anna = Entrant.objects.get(name="Anna")
    before = Client().get(reverse("tournament-player", kwargs={"token": anna.token}))
    _series(director, tournament)
    page = Client().get(reverse("tournament-player", kwargs={"token": anna.token}))
    game = Tournament.objects.get().tables_of(1)[0].game
    assert game.editor_token in page.content.decode()
    assert "no-store" in page["Cache-Control"]
    assert "no-store" in before["Cache-Control"]  # a player's link is a key too


def test_each_link_shows_only_what_the_grant_table_gives_it(director):
    """docs/architecture.md, "Who a link lets in": the viewer and registration links show
    no other link; a player's own link shows its own table's game (by its editor link) and
    no other table's; the director's page shows every table's."""
    tournament, _ = _set_up(director, deals="1", series="2")
    for name in ("Anna", "Ben", "Cleo", "Dan", "Eva"):
        _enter(director, tournament.editor_token, name)
    _series(director, tournament)
    tournament = Tournament.objects.get()
    tables = tournament.tables_of(1)
    secrets = {
        "editor": tournament.editor_token,
        "registration": tournament.registration_token,
        **{f"table {t.number}": t.game.editor_token for t in tables},
    }

    def shown(token, url_name="tournament"):
        html = Client().get(reverse(url_name, kwargs={"token": token})).content.decode()
        return {name for name, secret in secrets.items() if secret in html and secret != token}

    assert shown(tournament.viewer_token) == set()
    assert shown(tournament.registration_token) == set()
    for table in tables:
        for seat in table.seated.all():
            assert shown(seat.entrant.token, "tournament-player") == {f"table {table.number}"}
    page = director.get(reverse("tournament", kwargs={"token": tournament.editor_token}))
    assert all(secret in page.content.decode() for secret in secrets.values())
