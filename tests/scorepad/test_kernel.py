"""The kernel of everything shared by a link (scorepad/kernel.py, views/writes.py): one
change protocol, one history, one link replacement, one write helper, for a game, an
evening and a circle alike. Where the three copies of before drifted, the game's behaviour
holds for all: a one-time token on every write, a stale link replacement goes back with a
message, a token is used once across every kind."""

import json

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorepad.access import CIRCLES, EVENINGS, GAMES
from scorepad.models import AlreadyDone, Circle, Evening, Event, Game, StaleVersion
from tests.factories import ACTOR, GameFactory

pytestmark = pytest.mark.django_db


def _owned(kind, shared) -> Client:
    client = Client()
    session = client.session
    session[kind.created] = [shared.pk]
    session.save()
    return client


@pytest.fixture
def things(db):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    circle = Circle.objects.create(name="Tuesdays")
    circle.start(actor=ACTOR)
    evening = Evening.objects.create(name="Friday", stake="0.10")
    evening.start(actor=ACTOR)
    return {"game": game, "evening": evening, "circle": circle}


KINDS = {"game": GAMES, "evening": EVENINGS, "circle": CIRCLES}
SHARE = {"game": "game-share", "evening": "evening-link", "circle": "circle-link"}
PAGE = {"game": "game-share", "evening": "evening", "circle": "circle"}


@pytest.mark.parametrize("kind", ["game", "evening", "circle"])
def test_every_change_moves_one_version_and_writes_one_entry(things, kind):
    shared = things[kind]
    version, entries = shared.version, shared.events.count()
    shared.replace_link("viewer", version=shared.version, once="one-token", actor=ACTOR)
    shared.refresh_from_db()
    assert (shared.version, shared.events.count()) == (version + 1, entries + 1)
    with pytest.raises(AlreadyDone):
        shared.replace_link("viewer", version=shared.version, once="one-token", actor=ACTOR)
    with pytest.raises(StaleVersion):
        shared.replace_link("viewer", version=shared.version - 1, once="two", actor=ACTOR)
    shared.refresh_from_db()
    assert (shared.version, shared.events.count()) == (version + 1, entries + 1)


def test_a_one_time_token_is_used_once_across_every_kind(things):
    """A game's form token sent to an evening is "already done": one history, one column."""
    game, evening, circle = things["game"], things["evening"], things["circle"]
    game.replace_link("viewer", version=game.version, once="shared-token", actor=ACTOR)
    for other in (evening, circle):
        with pytest.raises(AlreadyDone):
            other.replace_link("viewer", version=other.version, once="shared-token", actor=ACTOR)
        other.refresh_from_db()
        assert other.version == 1


def test_an_entry_names_exactly_one_thing(things):
    game, evening = things["game"], things["evening"]
    for owners in ({"game": game, "evening": evening}, {}):
        with pytest.raises(IntegrityError), transaction.atomic():
            Event.objects.create(kind="renamed", actor="creator", **owners)


@pytest.mark.parametrize("kind", ["game", "evening", "circle"])
def test_a_write_without_its_one_time_token_changes_nothing(things, kind):
    """Evening writes and a circle's link replacement took none before: now every write
    needs one, as a game's always did."""
    shared = things[kind]
    client = _owned(KINDS[kind], shared)
    url = reverse(SHARE[kind], kwargs={"token": shared.editor_token})
    answer = client.post(url, {"link": "viewer", "version": shared.version}, follow=True)
    assert "The form was incomplete; nothing was changed." in answer.content.decode()
    before = shared.viewer_token
    shared.refresh_from_db()
    assert (shared.viewer_token, shared.version) == (before, 1)


@pytest.mark.parametrize("kind", ["game", "evening", "circle"])
def test_a_stale_link_replacement_goes_back_with_a_message(things, kind):
    """A 409 page for evenings and circles before; now, as for a game, back to the page the
    form was on, with a message in the phone's language, nothing replaced."""
    shared = things[kind]
    client = _owned(KINDS[kind], shared)
    with translation.override("de"):
        url = reverse(SHARE[kind], kwargs={"token": shared.editor_token})
        page = reverse(PAGE[kind], kwargs={"token": shared.editor_token})
    data = {"link": "editor", "version": shared.version + 5, "once": "stale-form"}
    answer = client.post(url, data)
    assert (answer.status_code, answer["Location"]) == (302, page)
    shown = client.get(page).content.decode()
    assert "nichts wurde ersetzt" in shown
    before = shared.editor_token
    shared.refresh_from_db()
    assert shared.editor_token == before


@pytest.mark.parametrize("kind", ["game", "evening", "circle"])
def test_replacing_the_link_a_phone_used_takes_it_on_under_the_new_one(things, kind):
    shared = things[kind]
    client = Client()  # through the editor link, not the phone that started it
    url = reverse(SHARE[kind], kwargs={"token": shared.editor_token})
    data = {"link": "editor", "version": shared.version, "once": "fresh-token"}
    answer = client.post(url, data)
    old = shared.editor_token
    shared.refresh_from_db()
    assert shared.editor_token != old
    assert answer["Location"] == reverse(PAGE[kind], kwargs={"token": shared.editor_token})
    assert client.get(reverse(PAGE[kind], kwargs={"token": old})).status_code == 404
    entry = shared.events.latest("pk")
    assert (entry.kind, entry.actor, entry.details) == (
        "link_replaced",
        "editor_link",
        {"link": "editor"},
    )


def test_the_evening_shows_its_history_in_the_phones_language(things):
    evening = things["evening"]
    client = _owned(EVENINGS, evening)
    evening.replace_link("viewer", version=evening.version, once=None, actor=ACTOR)
    with translation.override("pl"):
        page = client.get(reverse("evening", kwargs={"token": evening.editor_token}))
    html = page.content.decode()
    history = html[html.index('id="evening-history-title"') :]
    assert "Historia" in html
    assert history.index("Link wymieniony") < history.index("Wieczór rozpoczęty")  # newest first


def test_a_game_read_by_its_link_is_one_resolver_for_every_kind(things):
    """The same link in another kind's address leads nowhere."""
    game, evening = things["game"], things["evening"]
    assert Client().get(reverse("evening", kwargs={"token": game.viewer_token})).status_code == 404
    assert Client().get(reverse("game", kwargs={"token": evening.viewer_token})).status_code == 404
    assert Client().get(reverse("circle", kwargs={"token": game.editor_token})).status_code == 404


def test_the_backup_holds_a_token_once_across_the_file(things, tmp_path):
    from django.core.management import call_command

    from scorepad.management.commands.backup import import_database
    from scorepad.transfer import ImportProblem

    game, evening = things["game"], things["evening"]
    game.replace_link("viewer", version=game.version, once="tok-a", actor=ACTOR)
    evening.replace_link("viewer", version=evening.version, once="tok-b", actor=ACTOR)
    out = tmp_path / "backup.json"
    call_command("backup", "export", str(out))
    document = json.loads(out.read_text())
    assert document["format_version"] == 5
    for entry in document["evenings"][0]["history"]:
        if entry["form_token"] == "tok-b":
            entry["form_token"] = "tok-a"  # the game's token again, in the evening's history
    Game.objects.all().delete()
    Evening.objects.all().delete()
    Circle.objects.all().delete()
    with pytest.raises(ImportProblem, match="used twice"):
        import_database(json.loads(json.dumps(document)))
    # A backup of before (three histories) may hold it: the later entry goes without it.
    document["format_version"] = 2
    import_database(document)
    assert Event.objects.filter(form_token="tok-a").count() == 1
    assert Event.objects.get(form_token="tok-a").game_id == game.pk
    assert (
        Event.objects.filter(evening__isnull=False, kind="link_replaced").get().form_token is None
    )
