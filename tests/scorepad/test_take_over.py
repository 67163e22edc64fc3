"""A newcomer takes over the seat of a player who left (issue 45, item 3): the seat's deals
and total are the newcomer's from the next deal, and the sheet, the history, the share text,
the BG Stats play, the ratings, exports and backups say who played it before and until when.
One change through the kernel: one version, one history entry, a one-time token; two phones,
a stale version and a replay (run on SQLite and on PostgreSQL)."""

import io
import json
import re

import pytest
from django.core.management import call_command
from django.test import Client

from scorepad.models import Event, Game, Person, Seat
from scorepad.records import game_records
from tests.factories import CircleFactory, record_penalty
from tests.scorepad.conftest import own
from tests.scorepad.test_backup import empty_the_database, restore
from tests.scorepad.test_leavers import ANNA, BEN, CLEO, MAREK, six_deals_and_marek_leaves
from tests.scorepad.test_players_come_and_go import change, url
from tests.scorepad.test_share_result import end, page, play, shared_text

pytestmark = pytest.mark.django_db


def ola_takes_over(circle=None) -> Game:
    """Ola takes Marek's seat with his 45 and goes out in deal 7: Ola 45 wins."""
    game = six_deals_and_marek_leaves(circle)
    answer = change(own(Client(), game), game, "takeover", position=MAREK, name="Ola")
    assert "Ola takes over from Marek from the next deal, with the total 45." in (
        answer.content.decode()
    )
    record_penalty(game, MAREK, {ANNA: 30, BEN: 20, CLEO: 5})
    return end(game)


def test_the_players_page_offers_the_seat_of_who_left_with_its_total():
    game = six_deals_and_marek_leaves()
    body = own(Client(), game).get(url(game)).content.decode()
    assert "Someone new takes over the seat of Marek" in body
    assert "Take over with the total 45" in body
    assert body.count('name="form" value="takeover"') == 1  # only the seat of who left


def test_ola_takes_over_with_marek_total_in_one_change_and_one_history_entry():
    game = six_deals_and_marek_leaves()
    version = game.version
    change(own(Client(), game), game, "takeover", position=MAREK, name="Ola")
    game.refresh_from_db()
    assert game.version == version + 1
    seat = game.seats.get(position=MAREK)
    assert (seat.name, seat.active, seat.total, seat.before_name, seat.before_until) == (
        "Ola",
        True,
        45,
        "Marek",
        6,
    )
    events = list(Event.objects.filter(game=game, kind="took_over"))
    assert len(events) == 1
    history = own(Client(), game).get(url(game, "game-history"))
    assert history.status_code == 200
    assert "Seat taken over" in history.content.decode()
    assert "Ola took over from Marek after deal 6." in history.content.decode()


def test_the_sheet_share_text_and_bgstats_say_who_played_the_seat(client):
    game = ola_takes_over()
    body = page(client, "game", game.viewer_token)
    assert "Winner: Ola" in body
    assert "Ola took over from Marek after deal 6." in body
    text = shared_text(body)
    assert text.splitlines()[0].endswith(": 1. Ola 45 · 2. Anna 80 · 3. Cleo 100 · 4. Ben 120")
    assert text.splitlines()[1] == "Ola took over from Marek after deal 6."
    for lang, said in (
        ("de", "Ola hat nach Runde 6 den Platz von Marek übernommen."),
        ("fi", "Ola jatkoi pelaajan Marek paikalla jaon 6 jälkeen."),
    ):
        assert said in shared_text(page(client, "game", game.viewer_token, lang))
    players = {p["name"]: p for p in play(body)["players"]}
    assert (players["Ola"]["winner"], players["Ola"]["rank"]) == (True, 1)
    assert (players["Marek"]["winner"], players["Marek"]["rank"]) == (False, 5)
    assert players["Marek"]["score"] == "45"


def test_the_ratings_count_marek_as_a_player_who_left_and_ola_with_the_seat():
    circle = CircleFactory()
    game = ola_takes_over(circle)
    ola = Person.objects.get(circle=circle, name="Ola")
    marek = Person.objects.get(circle=circle, name="Marek")
    (record,) = [r for r in game_records(ola) if r.key == game.pk]
    assert record.places()[ola.pk] == 1
    assert record.places()[marek.pk] == 5
    assert Seat.objects.get(game=game, position=MAREK).before_person == marek


def test_two_phones_a_stale_version_and_a_replay_take_over_once():
    game = six_deals_and_marek_leaves()
    first, second = own(Client(), game), own(Client(), game)
    form = {"form": "takeover", "version": game.version, "position": MAREK}
    # The second phone renamed Anna meanwhile: the first phone's version is stale.
    change(second, game, "rename", position=ANNA, name="Ania")
    stale = first.post(url(game), {**form, "name": "Ola", "once": "takeover-stale-0123456789"})
    assert stale.status_code == 409
    assert "The table changed while you were entering this" in stale.content.decode()
    assert Game.objects.get(pk=game.pk).seats.get(position=MAREK).name == "Marek"
    game.refresh_from_db()
    form["version"] = game.version
    done = first.post(url(game), {**form, "name": "Ola", "once": "takeover-ola-0123456789"})
    assert done.status_code in (200, 302, 303)
    again = first.post(
        url(game), {**form, "name": "Ola", "once": "takeover-ola-0123456789"}, follow=True
    )
    assert "That was already done; it happened once." in again.content.decode()
    # The second phone, on the version before Ola sat down, tries Piotr: the seat is taken,
    # said on the page, and nothing changes.
    late = second.post(url(game), {**form, "name": "Piotr", "once": "takeover-piotr-0123456789"})
    assert late.status_code in (409, 422)
    assert re.search(
        r"The table changed while you were entering this|Only the seat of a player who left",
        late.content.decode(),
    )
    game.refresh_from_db()
    assert game.seats.get(position=MAREK).name == "Ola"
    assert Event.objects.filter(game=game, kind="took_over").count() == 1


def test_a_player_at_the_table_cannot_take_over_and_a_seat_at_the_table_is_not_offered():
    game = six_deals_and_marek_leaves()
    version = game.version
    answer = change(own(Client(), game), game, "takeover", position=MAREK, name="Anna")
    assert "Anna is already at this table." in answer.content.decode()
    answer = change(own(Client(), game), game, "takeover", position=ANNA, name="Ola")
    assert re.search(r"Only the seat of a player who left", answer.content.decode())
    game.refresh_from_db()
    assert game.version == version


def test_a_backup_and_an_export_keep_who_played_the_seat_before(tmp_path):
    circle = CircleFactory()
    game = ola_takes_over(circle)
    path = tmp_path / "backup.json"
    call_command("backup", "export", str(path), stderr=io.StringIO())
    document = json.loads(path.read_text())
    assert document["format_version"] == 5
    (entry,) = document["games"]
    assert entry["took_over"] == [None, None, None, {"name": "Marek", "deal": 6}]
    marek = Person.objects.get(circle=circle, name="Marek")
    assert entry["before_seats"] == [None, None, None, marek.pk]
    empty_the_database()
    restore(path)
    seat = Seat.objects.get(game_id=game.pk, position=MAREK)
    assert (seat.name, seat.before_name, seat.before_until, seat.before_person_id) == (
        "Ola",
        "Marek",
        6,
        marek.pk,
    )


def test_the_circles_players_list_gives_marek_his_game_and_deals_and_ola_the_win(client):
    circle = CircleFactory()
    ola_takes_over(circle)
    body = client.get(f"/en/circles/{circle.viewer_token}/players/").content.decode()
    people = dict(re.findall(r'<h2 id="player-\d+">(.*?)</h2>(.*?)</section>', body, re.S))
    marek = next(part for name, part in people.items() if "Marek" in name)
    ola = next(part for name, part in people.items() if "Ola" in name)
    assert "<dt>Games</dt><dd>1</dd>" in marek
    assert "0 of 1 finished game" in marek
    assert "1 of 1 finished game" in ola
    assert re.search(r"<dt>Deals</dt><dd>6</dd>", marek)
    assert re.search(r"<dt>Deals</dt><dd>1</dd>", ola)
