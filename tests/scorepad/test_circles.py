"""Circles (issue 22): a seat's name belongs to its game, people exist only inside a circle,
and a viewer link or a typed name never changes or reads another circle's data. Run on
SQLite and on PostgreSQL (DATABASE_URL)."""

import csv
import io
import json
import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from scorepad.access import CIRCLES, circle_reference
from scorepad.evenings import build_evening
from scorepad.models import Circle, Evening, Event, Game, Person, Seat
from scorepad.records import game_records
from scorepad.stats import player_records
from tests.factories import ACTOR, CircleFactory, GameFactory, record_classic, record_penalty
from tests.scorepad.conftest import hidden, own

pytestmark = pytest.mark.django_db


def finish(game):
    game.refresh_from_db()
    game.end(version=game.version, once=f"end-{game.pk:020d}", actor=ACTOR)
    game.refresh_from_db()
    return game


def what_a_shows(game):
    """Everything of game A a phone can read or that its history keeps."""
    game.refresh_from_db()
    client = Client()
    export = client.get(reverse("game-export-json", kwargs={"token": game.viewer_token}))
    table = client.get(reverse("game-export-csv", kwargs={"token": game.viewer_token}))
    history = client.get(reverse("game-history", kwargs={"token": game.viewer_token}))
    return (
        game.version,
        list(game.events.values_list("kind", flat=True)),
        [s.name for s in game.seats.order_by("position")],
        json.loads(export.content)["players"],
        next(iter(csv.reader(io.StringIO(table.content.decode())))),
        re.sub(
            r'name="csrfmiddlewaretoken" value="[^"]+"|nonce(="|-)[A-Za-z0-9+/=_-]+'
            r'|"X-CSRFToken": "[^"]+"',
            "",
            history.content.decode(),
        ),
    )


def start_from(client, href, extra=None):
    """Open the new-game page at ``href`` and start it as it is filled in."""
    body = client.get(href).content.decode()
    data = {
        "variant": "classic",
        "op": "start",
        "first_dealer": "0",
        "seat": re.findall(r'name="seat" value="([^"]+)"', body),
    }
    if 'name="circle"' in body:
        data["circle"] = hidden(body, "circle")
    client.post(reverse("game-new"), {**data, **(extra or {})})
    return Game.objects.order_by("-pk").first()


def rename_seat(client, game, position, name):
    game.refresh_from_db()
    data = {"form": "rename", "version": game.version, "once": f"rn-{game.pk}-{game.version}-xx"}
    url = reverse("game-players", kwargs={"token": game.editor_token})
    return client.post(url, {**data, "position": position, "name": name})


def join(client, game, name):
    game.refresh_from_db()
    data = {"form": "join", "version": game.version, "once": f"jn-{game.pk}-{game.version}-xx"}
    url = reverse("game-players", kwargs={"token": game.editor_token})
    return client.post(url, {**data, "name": name, "start": "zero"})


@pytest.fixture(params=["outside", "circle"])
def game_a(request):
    """Someone else's finished game A, outside any circle or in a circle."""
    circle = CircleFactory(name="Their table") if request.param == "circle" else None
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"], circle=circle)
    record_classic(game, 0, jokers=1)
    return finish(game)


# --- the two attack paths ----------------------------------------------------------------


def test_play_again_from_a_viewer_link_starts_a_game_with_names_only(game_a):
    before = what_a_shows(game_a)
    people = list(Person.objects.values_list())
    page = Client().get(reverse("game", kwargs={"token": game_a.viewer_token})).content.decode()
    href = re.search(r'<p class="play-again"><a [^>]*href="([^"]+)"', page).group(1)
    stranger = Client()
    mine = start_from(stranger, href.replace("&amp;", "&"))
    assert mine.pk != game_a.pk
    assert mine.circle is None
    assert [(s.name, s.person_id) for s in mine.seats.order_by("position")] == [
        ("Anna", None),
        ("Ben", None),
        ("Cleo", None),
    ]
    assert rename_seat(stranger, mine, 0, "Mallory").status_code == 302
    assert mine.seats.get(position=0).name == "Mallory"
    assert what_a_shows(game_a) == before  # names, exports, version and history of A
    assert list(Person.objects.values_list()) == people  # and no one of A's circle


def test_a_typed_name_never_reaches_another_game(game_a):
    before = what_a_shows(game_a)
    stranger = Client()
    stranger.post(
        reverse("game-new"),
        {"variant": "classic", "op": "start", "first_dealer": "0", "seat": ["n:Anna", "n:Zed"]},
    )
    mine = Game.objects.order_by("-pk").first()
    own(stranger, mine)
    assert join(stranger, mine, "Ben").status_code == 302
    assert rename_seat(stranger, mine, 0, "Mallory").status_code == 302
    assert rename_seat(stranger, mine, 2, "Eve").status_code == 302
    assert [s.person_id for s in mine.seats.all()] == [None, None, None]
    assert what_a_shows(game_a) == before


def test_a_name_typed_in_one_circle_is_never_matched_in_another(db):
    theirs = CircleFactory(name="Theirs")
    GameFactory(players=["Anna", "Ben"], circle=theirs)
    ours = CircleFactory(name="Ours")
    client = Client()
    mine = start_from(client, reverse("game-new") + f"?circle={circle_reference(ours)}",
                      {"seat": ["n:anna", "n:Ben"]})  # fmt: skip
    assert mine.circle == ours
    assert {s.person.circle_id for s in mine.seats.all()} == {ours.pk}
    own(client, mine)
    join(client, mine, "Cleo")
    rename_seat(client, mine, 0, "Annie")
    assert sorted(Person.objects.filter(circle=theirs).values_list("name", flat=True)) == [
        "Anna",
        "Ben",
    ]
    assert sorted(Person.objects.filter(circle=ours).values_list("name", flat=True)) == [
        "Ben",
        "Cleo",
        "anna",
    ]


def test_a_seat_rename_changes_that_game_alone_even_in_a_circle(db):
    circle = CircleFactory()
    first = GameFactory(players=["Anna", "Ben"], circle=circle)
    second = GameFactory(players=["Anna", "Ben"], circle=circle)
    client = own(Client(), second)
    version = first.version
    rename_seat(client, second, 0, "Annabel")
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.seats.get(position=0).name == "Anna"
    assert first.version == version
    assert second.seats.get(position=0).name == "Annabel"
    assert Event.objects.filter(game=second, kind="renamed").count() == 1
    assert circle.find("Anna") == first.seats.get(position=0).person  # the person stays


def test_a_circle_s_players_are_read_only_through_its_link(db):
    theirs = CircleFactory(name="Theirs")
    game = finish(GameFactory(players=["Secret", "Agent"], circle=theirs))
    ours = CircleFactory(name="Ours")
    secret = game.seats.get(position=0).person
    client = Client()
    path = reverse("circle-player", kwargs={"token": ours.viewer_token, "pk": secret.pk})
    assert client.get(path).status_code == 404
    listing = client.get(reverse("circle-players", kwargs={"token": ours.viewer_token}))
    assert "Secret" not in listing.content.decode()
    page = client.get(reverse("game", kwargs={"token": game.viewer_token})).content.decode()
    assert "/players/" not in page
    assert theirs.viewer_token not in page


# --- Play again from the editor link, the roster -----------------------------------------


def test_play_again_from_the_editor_link_stays_in_the_circle_with_its_people(db):
    circle = CircleFactory()
    game = GameFactory(players=["Anna", "Ben", "Cleo"], circle=circle)
    record_classic(game, 1)
    finish(game)
    page = Client().get(reverse("game", kwargs={"token": game.editor_token})).content.decode()
    href = re.search(r'<p class="play-again"><a [^>]*href="([^"]+)"', page).group(1)
    again = start_from(Client(), href.replace("&amp;", "&"))
    assert again.circle == circle
    assert [s.person_id for s in again.seats.order_by("position")] == [
        s.person_id for s in game.seats.order_by("position")
    ]
    # Once the game's editor link is replaced, its old page's Play again is names only.
    game.replace_link("editor", version=game.version, once="replace-e-01234", actor=ACTOR)
    later = start_from(Client(), href.replace("&amp;", "&"))
    assert later.circle is None


def test_a_circle_reference_dies_with_a_replaced_editor_link(db):
    circle = CircleFactory()
    GameFactory(players=["Anna", "Ben"], circle=circle)
    ref = circle_reference(circle)
    circle.replace_link("editor", version=circle.version, once="replace-c-0123", actor=ACTOR)
    response = Client().post(
        reverse("game-new"),
        {"variant": "classic", "op": "start", "seat": ["n:Anna", "n:Ben"], "circle": ref},
    )
    assert response.status_code == 200
    assert "editor link was replaced" in response.content.decode()
    assert Game.objects.count() == 1


# --- circle writes: viewer, stale, replay ------------------------------------------------


@pytest.fixture
def table(db):
    """A circle: Cleo and Cleopatra, typed twice in two games; Anna and Ben in both."""
    circle = CircleFactory(name="Tuesdays")
    one = GameFactory(players=["Anna", "Ben", "Cleo"], circle=circle)
    record_classic(one, 0, jokers=1)
    record_classic(one, 2)
    finish(one)
    two = GameFactory(players=["Anna", "Ben", "Cleopatra"], circle=circle)
    record_classic(two, 2, jokers=2)
    record_classic(two, 1)
    finish(two)
    return circle, one, two


def post(client, circle, route, token=None, **fields):
    circle.refresh_from_db()
    data = {"version": circle.version, "once": f"{route}-{circle.version}-0123456789", **fields}
    url = reverse(route, kwargs={"token": token or circle.editor_token})
    return client.post(url, data)


def picture(circle):
    return (
        Circle.objects.filter(pk=circle.pk).values_list().get(),
        sorted(Person.objects.filter(circle=circle).values_list()),
        sorted(Event.objects.filter(circle=circle).values_list("kind", "form_token")),
    )


def test_the_viewer_link_changes_nothing_of_the_circle(table):
    circle, *_games = table
    cleo, cleopatra = circle.find("Cleo"), circle.find("Cleopatra")
    before = picture(circle)
    viewer = circle.viewer_token
    for name, fields in [
        ("circle-rename", {"person": cleo.pk, "name": "Clea"}),
        ("circle-merge", {"person": cleo.pk, "into": cleopatra.pk}),
        ("circle-separate", {"person": cleo.pk}),
        ("circle-link", {"link": "editor"}),
    ]:
        answer = post(Client(), circle, name, token=viewer, **fields)
        assert answer.status_code == 403, name
        assert picture(circle) == before, name
    body = Client().get(reverse("circle", kwargs={"token": viewer})).content.decode()
    assert circle.editor_token not in body
    assert "csrfmiddlewaretoken" not in body


def test_a_stale_circle_form_changes_nothing_and_a_replay_happens_once(table):
    circle, *_games = table
    anna = circle.find("Anna")
    first = post(Client(), circle, "circle-rename", person=anna.pk, name="Annie")
    assert first.status_code == 302
    stale = Client().post(
        reverse("circle-rename", kwargs={"token": circle.editor_token}),
        {"version": 1, "once": "another-form-0123456789", "person": anna.pk, "name": "Ann"},
    )
    assert stale.status_code == 409
    assert "The circle changed" in stale.content.decode()
    replay = Client().post(
        reverse("circle-rename", kwargs={"token": circle.editor_token}),
        {"version": 1, "once": "circle-rename-1-0123456789", "person": anna.pk, "name": "Ann"},
    )
    assert replay.status_code == 302
    anna.refresh_from_db()
    assert anna.name == "Annie"
    assert Event.objects.filter(circle=circle, kind="renamed").count() == 1


def test_a_person_renamed_across_the_circle_keeps_each_game_s_seat_names(table):
    circle, one, _two = table
    anna = circle.find("Anna")
    post(Client(), circle, "circle-rename", person=anna.pk, name="Annabel")
    assert circle.find("Annabel") == anna
    assert one.seats.get(position=0).name == "Anna"
    # A name another person has is refused with its reason.
    client = Client()
    answer = post(client, circle, "circle-rename", person=anna.pk, name="ben")
    assert answer.status_code == 302
    anna.refresh_from_db()
    assert anna.name == "Annabel"
    body = client.get(answer["Location"]).content.decode()
    assert "Ben is someone else of the circle" in body


def ratings(person):
    return {r.variant: (r.rating, r.wins, r.deals) for r in player_records(
        game_records(person), person.pk)}  # fmt: skip


def test_merge_and_separate_keep_every_game_s_totals_and_the_ratings(table):
    circle, one, two = table
    totals = {g.pk: list(g.seats.order_by("position").values_list("total", flat=True))
              for g in (one, two)}  # fmt: skip
    cleo, cleopatra = circle.find("Cleo"), circle.find("Cleopatra")
    alone = (ratings(cleo), ratings(cleopatra))
    anna_before = ratings(circle.find("Anna"))
    client = Client()
    assert (
        post(client, circle, "circle-merge", person=cleo.pk, into=cleopatra.pk).status_code == 302
    )
    assert circle.find("Cleo") == cleopatra  # the name now leads to the one person
    merged = ratings(cleopatra)
    assert merged["classic"][2] == alone[0]["classic"][2] + alone[1]["classic"][2]  # deals
    assert merged["classic"][1] == alone[0]["classic"][1] + alone[1]["classic"][1]  # wins
    listing = client.get(reverse("circle-players", kwargs={"token": circle.viewer_token}))
    assert ">Cleo<" not in listing.content.decode()
    for game in (one, two):
        assert (
            list(game.seats.order_by("position").values_list("total", flat=True))
            == (totals[game.pk])
        )
    event = Event.objects.get(circle=circle, kind="merged")
    assert event.details["name"] == "Cleo"
    assert event.details["into_name"] == "Cleopatra"
    assert post(client, circle, "circle-separate", person=cleo.pk).status_code == 302
    cleo.refresh_from_db()
    assert cleo.merged_into is None
    assert (ratings(cleo), ratings(cleopatra)) == alone
    assert ratings(circle.find("Anna")) == anna_before
    assert Event.objects.filter(circle=circle, kind="separated").count() == 1


def test_two_people_of_one_game_cannot_be_merged(table):
    circle, *_games = table
    anna, ben = circle.find("Anna"), circle.find("Ben")
    before = picture(circle)
    client = Client()
    answer = post(client, circle, "circle-merge", person=anna.pk, into=ben.pk)
    assert answer.status_code == 302
    assert "sat in the same game" in client.get(answer["Location"]).content.decode()
    assert picture(circle) == before


# --- evenings of a circle ----------------------------------------------------------------


def test_an_evening_of_a_circle_settles_by_person_and_carries_to_its_next(table):
    circle, one, two = table
    evening = Evening.objects.create(stake="0.10", circle=circle)
    evening.add_game(one, "0.10", version=1, once="add-one-0123456789", actor=ACTOR)
    evening.add_game(two, "0.10", version=2, once="add-two-0123456789", actor=ACTOR)
    evening.refresh_from_db()
    assert len(build_evening(evening).names) == 4  # Cleo and Cleopatra are two
    circle.merge(
        circle.find("Cleo").pk, circle.find("Cleopatra").pk, version=1, once="m", actor=ACTOR
    )
    evening = Evening.objects.get(pk=evening.pk)
    page = build_evening(evening)
    assert sorted(page.names) == ["Anna", "Ben", "Cleopatra"]
    assert all(payer != "Cleo" and payee != "Cleo" for payer, payee, _ in page.transfers)
    following = evening.carry(page.carry, version=evening.version, once="carry-0123", actor=ACTOR)
    assert following.circle == circle
    assert {b.person_id for b in following.carried.all()} == {
        circle.find(n).pk for n in ("Anna", "Ben", "Cleopatra")
    }
    # A game of the next week, with Cleo typed again, is Cleopatra's in the next evening.
    three = GameFactory(players=["Anna", "Cleo"], circle=circle)
    assert three.seats.get(position=1).person == circle.find("Cleopatra")
    finish(three)
    following.add_game(three, "0.10", version=following.version, once="add-3", actor=ACTOR)
    following = Evening.objects.get(pk=following.pk)
    assert sorted(build_evening(following).names) == ["Anna", "Ben", "Cleopatra"]


def test_a_game_outside_the_circle_cannot_join_its_evening(table):
    circle, _one, _two = table
    client = Client()
    session = client.session
    session[CIRCLES.created] = [circle.pk]
    session.save()
    ref = circle_reference(circle)
    form = client.get(reverse("evening-new"), {"circle": ref}).content.decode()
    client.post(reverse("evening-new"),
                {"circle": ref, "stake": "0.10", "once": hidden(form, "once")})  # fmt: skip
    evening = Evening.objects.get()
    assert evening.circle == circle
    stranger = finish(GameFactory(players=["Anna", "Ben"]))  # the same names, no circle
    other = finish(GameFactory(players=["Anna", "Ben"], circle=CircleFactory()))
    before = list(evening.games.all())
    for game in (stranger, other):
        evening.refresh_from_db()
        answer = client.post(
            reverse("evening-add", kwargs={"token": evening.editor_token}),
            {"game": game.editor_token, "stake": "0.10", "version": evening.version,
             "once": f"add-{game.pk}-0123456789"},
        )  # fmt: skip
        assert answer.status_code == 200
        assert "can be added to its evening" in answer.content.decode()
    assert list(evening.games.all()) == before


def test_a_viewer_link_of_an_evening_reads_no_circle(table):
    circle, one, _two = table
    evening = Evening.objects.create(stake="0.10", circle=circle)
    evening.add_game(one, "0.10", version=1, once="add-one-0123456789", actor=ACTOR)
    body = Client().get(reverse("evening", kwargs={"token": evening.viewer_token})).content
    assert circle.viewer_token.encode() not in body
    assert circle.editor_token.encode() not in body


# --- the circle's pages and the home page -------------------------------------------------


def test_starting_a_circle_makes_this_phone_its_editor_and_lists_it_first_at_home(db):
    client = Client()
    form = client.get(reverse("circle-new")).content.decode()
    answer = client.post(
        reverse("circle-new"), {"name": "  Tuesday   table ", "once": hidden(form, "once")}
    )
    circle = Circle.objects.get()
    assert circle.name == "Tuesday table"
    assert answer["Location"] == reverse("circle", kwargs={"token": circle.editor_token})
    replay = client.post(reverse("circle-new"), {"name": "Again", "once": hidden(form, "once")})
    assert replay.status_code == 302
    assert Circle.objects.count() == 1
    home = client.get("/en/").content.decode()
    assert home.index("Tuesday table") < home.index("The games")
    assert "New game of Tuesday table" in home
    assert "no-store" in client.get("/en/").headers.get("Cache-Control", "")
    refused = Client().post(reverse("circle-new"), {"name": "", "once": "x" * 20})
    assert refused.status_code == 200
    assert "Type a name first." in refused.content.decode()


@pytest.mark.parametrize("lang", ["en", "de", "nb", "pl", "fi", "es"])
def test_the_circle_pages_answer_in_every_language(table, lang):
    circle, *_games = table
    for token in (circle.viewer_token, circle.editor_token):
        for name in ("circle", "circle-players"):
            page = Client().get(f"/{lang}" + reverse(name, kwargs={"token": token})[3:])
            assert page.status_code == 200
            assert f'lang="{lang}"' in page.content.decode()
    assert Client().get(f"/{lang}/circles/new/").status_code == 200


def test_an_old_backup_with_shared_players_restores_every_game_outside_circles(tmp_path):
    one = GameFactory(players=["Anna", "Ben"])
    record_classic(one, 0)
    out = io.StringIO()
    call_command("backup", "export", stdout=out)
    document = json.loads(out.getvalue())
    # As version 1 wrote it: players shared by id, seats naming them.
    document["format_version"] = 1
    document["players"] = [{"id": 7, "name": "Anna", "created_at": one.created_at.isoformat()},
                           {"id": 8, "name": "Ben", "created_at": one.created_at.isoformat()}]  # fmt: skip
    del document["circles"]
    document["games"][0]["seats"] = [7, 8]
    for evening in document["evenings"]:
        evening.pop("circle", None)
    Game.objects.all().delete()
    path = tmp_path / "old.json"
    path.write_text(json.dumps(document))
    call_command("backup", "import", str(path), stdout=io.StringIO())
    game = Game.objects.get()
    assert game.circle is None
    assert [(s.name, s.person_id) for s in game.seats.order_by("position")] == [
        ("Anna", None),
        ("Ben", None),
    ]
    assert Seat.objects.filter(person__isnull=False).count() == 0


def test_a_penalty_game_in_a_circle_counts_a_late_joiner_as_the_circle_s_person(db):
    circle = CircleFactory()
    GameFactory(variant_id="romme", players=["Anna", "Dana"], circle=circle)
    game = GameFactory(variant_id="romme", players=["Anna", "Ben"], circle=circle)
    record_penalty(game, 0, {1: 20})
    game.refresh_from_db()
    game.join("dana", 0, version=game.version, once="dana-joins-0123456789", actor=ACTOR)
    seat = game.seats.get(position=2)
    assert seat.person == circle.find("Dana")
    assert seat.name == "Dana"


def test_joining_a_circle_s_game_offers_its_people_and_an_outside_game_none(table):
    circle, _one, _two = table
    game = GameFactory(players=["Anna", "Ben"], circle=circle)
    client = own(Client(), game)
    body = client.get(reverse("game-players", kwargs={"token": game.editor_token})).content
    offered = re.findall(r'<button type="submit" name="name" value="([^"]+)"', body.decode())
    assert offered == ["Cleo", "Cleopatra"]
    outside = GameFactory(players=["Anna", "Ben"])
    own(client, outside)
    body = client.get(reverse("game-players", kwargs={"token": outside.editor_token})).content
    assert b"circle-people" not in body
    join(client, game, "cleopatra")
    seat = game.seats.get(position=2)
    assert (seat.name, seat.person) == ("Cleopatra", circle.find("Cleopatra"))


def test_a_phone_with_editor_links_makes_a_circle_of_its_games_and_nothing_else(db):
    mine = [GameFactory(players=["Anna", "Ben"]), GameFactory(players=["anna", "Cleo"])]
    viewed = GameFactory(players=["Anna", "Zed"])  # only its viewer link on this phone
    stranger = GameFactory(players=["Anna", "Eve"])  # a game of someone else entirely
    client = Client()
    for game in mine:
        own(client, game)
    client.get(reverse("game", kwargs={"token": viewed.viewer_token}))
    form = client.get(reverse("circle-new")).content.decode()
    offered = re.findall(r'name="games" id="[^"]+" value="([^"]+)"', form)
    assert sorted(offered) == sorted(g.editor_token for g in mine)
    assert "Anna, Ben, Cleo" in form  # the people, matched by name, for confirmation
    refused = client.post(
        reverse("circle-new"),
        {"name": "Ours", "once": hidden(form, "once"), "games": [stranger.editor_token]},
    )
    assert refused.status_code == 200
    assert not Circle.objects.exists()
    client.post(
        reverse("circle-new"),
        {"name": "Ours", "once": hidden(form, "once"), "games": offered},
    )
    circle = Circle.objects.get()
    assert set(circle.games.all()) == set(mine)
    assert sorted(p.name for p in circle.people()) == ["Anna", "Ben", "Cleo"]
    assert mine[1].seats.get(position=0).person == circle.find("Anna")
    assert mine[1].seats.get(position=0).name == "anna"  # the seat keeps its own name
    for game in (viewed, stranger):
        assert not Game.objects.get(pk=game.pk).circle
        assert not game.seats.filter(person__isnull=False)
    assert Event.objects.filter(game=mine[0], kind="circle").count() == 1


def test_circle_links_and_references_are_masked_in_the_logs(db):
    from continental.logfilters import mask

    circle = CircleFactory()
    ref = circle_reference(circle)
    line = f"GET /en/circles/{circle.editor_token}/players/ and /en/games/new/?circle={ref}"
    masked = mask(line)
    assert circle.editor_token not in masked
    assert ref.split(":")[0] not in masked  # the reference's payload: what it opens


def test_someone_of_the_circle_at_the_table_under_another_name_does_not_join_twice(table):
    circle, *_games = table
    circle.merge(
        circle.find("Cleo").pk, circle.find("Cleopatra").pk, version=1, once="m", actor=ACTOR
    )
    game = GameFactory(players=["Anna", "Cleopatra"], circle=circle)
    client = own(Client(), game)
    version = game.version
    rename_seat(client, game, 1, "Cleo P.")
    answer = join(client, game, "cleo")  # Cleo counts as Cleopatra, who sits here
    assert answer.status_code == 422
    assert "Cleopatra is already at this table." in answer.content.decode()
    game.refresh_from_db()
    assert game.version == version + 1
    assert game.seats.count() == 2
