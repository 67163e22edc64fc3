"""A tournament on the kernel (scorepad/tournaments.py, views/tournaments.py): set up by its
director, players entered by the director or through the registration link's QR code, a
player's own link, a drop-out; every write with the kernel's version and one-time token,
from two phones, stale, replayed."""

import io
import json
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from scorepad.access import TOURNAMENTS
from scorepad.models import AlreadyDone, Entrant, Event, Tournament
from tests.factories import ACTOR

pytestmark = pytest.mark.django_db

SETUP = {
    "name": "Club night",
    "variant": "romme",
    "series": "3",
    "deals": "6",
    "minutes": "",
    "ranking": "places",
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
    assert 1 <= tournament.seed <= 999_999
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
    assert re.search(r'value="places"[^>]*checked', html)
    assert re.search(r'value="result"[^>]*checked', html)
