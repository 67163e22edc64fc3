"""Names that look the same are one name (issue "Trust, part three", item 5): every path
that takes a name puts it under one rule (``scorepad.naming``): NFC, spaces folded, the
bidi controls U+202A-U+202E and U+2066-U+2069, U+200B, U+2060 and U+FEFF removed, the
zero-width joiner and non-joiner kept. Run on SQLite and on PostgreSQL (DATABASE_URL)."""

import json

import pytest
from django.urls import reverse

from scorepad.access import circle_reference
from scorepad.models import Circle, Evening, Game, Person
from scorepad.naming import name_key, normal_name
from tests.factories import CircleFactory, GameFactory
from tests.scorepad.conftest import own

pytestmark = pytest.mark.django_db

ZWSP, RLO, PDF, LRI, PDI, WJ, BOM = (
    "\u200b",
    "\u202e",
    "\u202c",
    "\u2066",
    "\u2069",
    "\u2060",
    "\ufeff",
)
ZWJ, ZWNJ = "\u200d", "\u200c"
FAMILY = "👨\u200d👩\u200d👧"


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ("Anna" + ZWSP, "Anna"),
        (RLO + "annA" + PDF, "annA"),
        (LRI + "Ben" + PDI, "Ben"),
        ("Jo" + WJ + "e", "Joe"),
        (BOM + "Cleo", "Cleo"),
        ("  Anna \t  Maria\u00a0 ", "Anna Maria"),
        ("Zoe\u0301", "Zoé"),  # NFC: e and the combining acute are é
        (FAMILY, FAMILY),  # the joiners stay
        ("می" + ZWNJ + "خواهم", "می" + ZWNJ + "خواهم"),
        (ZWSP + RLO, ""),
    ],
)
def test_the_name_rule(raw, name):
    assert normal_name(raw) == name


def test_names_are_one_by_their_key_beyond_ascii():
    assert name_key("ÉMILE") == name_key("e\u0301mile")
    assert name_key("STRASSE") == name_key("straße")
    assert name_key("ΣΊΣΥΦΟΣ") == name_key("σίσυφος")
    assert name_key("Anna") != name_key("Anne")


def start(client, seats, circle=None):
    data = {"variant": "classic", "op": "start", "first_dealer": "0", "seat": seats}
    if circle is not None:
        data["circle"] = circle_reference(circle)
    return client.post(reverse("game-new"), data)


def test_a_name_and_the_same_name_with_a_zero_width_space_are_not_two_seats(client):
    answer = client.post(
        reverse("game-new"),
        {"variant": "classic", "op": "add", "seat": ["n:Anna", "n:Ben"], "name": "Anna" + ZWSP},
    )
    assert "Anna already has a seat." in answer.content.decode()
    answer = start(client, ["n:Anna", "n:Anna" + ZWSP, "n:Ben"])
    assert "Anna already has a seat." in answer.content.decode()
    assert not Game.objects.exists()


def test_a_right_to_left_override_is_not_kept_in_a_seat(client):
    start(client, ["n:" + RLO + "annA", "n:Ben"])
    assert [s.name for s in Game.objects.get().seats.order_by("position")] == ["annA", "Ben"]


def join(client, game, name):
    game.refresh_from_db()
    url = reverse("game-players", kwargs={"token": game.editor_token})
    data = {"form": "join", "version": game.version, "once": f"jn-{game.pk}-0123456789"}
    return client.post(url, {**data, "name": name, "start": "zero"})


def rename_seat(client, game, position, name):
    game.refresh_from_db()
    url = reverse("game-players", kwargs={"token": game.editor_token})
    data = {
        "form": "rename",
        "version": game.version,
        "once": f"rn-{game.pk}-{game.version}-0123456789",
    }
    return client.post(url, {**data, "position": position, "name": name})


def test_a_join_and_a_seat_rename_take_a_name_by_the_rule(client):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben"])
    own(client, game)
    refused = join(client, game, "anna" + ZWSP)
    assert refused.status_code == 422
    assert "anna is already at this table." in refused.content.decode()
    assert join(client, game, RLO + "Cleo" + PDF).status_code == 302
    assert rename_seat(client, game, 1, BOM + "Benny" + WJ).status_code == 302
    assert [s.name for s in game.seats.order_by("position")] == ["Anna", "Benny", "Cleo"]
    refused = rename_seat(client, game, 1, "CLEO" + ZWSP)
    assert "CLEO is already at this table." in refused.content.decode()


def test_in_a_circle_a_name_with_invisible_marks_is_the_person_without_them(client):
    circle = CircleFactory(name="Tuesdays")
    anna = Person.objects.create(circle=circle, name="Anna")
    start(client, ["n:ANNA" + ZWSP, "n:Ben"], circle=circle)
    game = Game.objects.get()
    assert game.seats.get(position=0).person == anna
    assert circle.find(RLO + "anna" + PDF) == anna
    assert sorted(Person.objects.filter(circle=circle).values_list("name", flat=True)) == [
        "Anna",
        "Ben",
    ]


def test_a_person_s_new_name_and_a_circle_s_and_an_evening_s_name_by_the_rule(client):
    page = client.get(reverse("circle-new")).content.decode()
    once = page.split('name="once" value="')[1].split('"')[0]
    client.post(reverse("circle-new"), {"name": RLO + "Tuesdays" + ZWSP, "once": once})
    circle = Circle.objects.get()
    assert circle.name == "Tuesdays"
    ben = Person.objects.create(circle=circle, name="Ben")
    url = reverse("circle-rename", kwargs={"token": circle.editor_token})
    data = {"version": circle.version, "once": "rename-0123456789", "person": ben.pk}
    assert client.post(url, {**data, "name": "Benny" + ZWSP + BOM}).status_code == 302
    ben.refresh_from_db()
    assert (ben.name, ben.key) == ("Benny", "benny")
    page = client.get(reverse("evening-new")).content.decode()
    once = page.split('name="once" value="')[1].split('"')[0]
    client.post(
        reverse("evening-new"), {"name": "Fri" + ZWSP + "day", "stake": "0,10", "once": once}
    )
    assert Evening.objects.get().name == "Friday"


def test_an_imported_game_s_names_by_the_rule(client):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    own(client, game)
    url = reverse("game-export-json", kwargs={"token": game.editor_token})
    document = json.loads(client.get(url).content)
    document["players"] = [RLO + "Anna" + PDF, "Ben" + ZWSP, "Cleo"]
    document["left"] = ["Ben"]
    body = client.post(reverse("game-import"), {"text": json.dumps(document)})
    assert body.status_code == 302, body.content.decode()[-3000:]
    imported = Game.objects.exclude(pk=game.pk).get()
    seats = [(s.name, s.active) for s in imported.seats.order_by("position")]
    assert seats == [("Anna", True), ("Ben", False), ("Cleo", True)]
    document["players"] = ["Anna", "anna" + ZWSP, "Cleo"]
    document["left"] = []
    body = client.post(reverse("game-import"), {"text": json.dumps(document)}).content.decode()
    assert "anna already has a seat." in body
