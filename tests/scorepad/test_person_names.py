"""One name, one person of a circle (issue "Trust, part three", item 4): the stored key of
the name rule (``Person.key``) is unique in a circle, whatever the path that makes a person;
the migration keeps twins apart by a mark; a carry never fails on two players of one name.
The interleaved writes are in test_name_races.py. Run on SQLite and on PostgreSQL."""

import re

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from scorepad.models import Circle, Evening, EveningBalance, Game, Person
from tests.factories import ACTOR, CircleFactory, GameFactory
from tests.scorepad.conftest import hidden, own


@pytest.mark.django_db
def test_a_circle_holds_one_person_of_a_name_case_and_invisible_marks_aside():
    circle = CircleFactory()
    Person.objects.create(circle=circle, name="Émile")
    for twin in ("émile", "E\u0301MILE", "Émile\u200b"):
        with pytest.raises(IntegrityError), transaction.atomic():
            Person.objects.create(circle=circle, name=twin)
    Person.objects.create(circle=CircleFactory(), name="émile")  # another circle's
    assert circle.find("ÉMILE").name == "Émile"
    assert circle.person_for("e\u0301mile").name == "Émile"
    assert Person.objects.filter(circle=circle).count() == 1


@pytest.mark.django_db
def test_a_person_is_not_renamed_to_a_name_merged_into_someone():
    circle = CircleFactory()
    cleo = Person.objects.create(circle=circle, name="Cleo")
    cleopatra = Person.objects.create(circle=circle, name="Cleopatra")
    circle.merge(cleo.pk, cleopatra.pk, version=circle.version, once="merge-1", actor=ACTOR)
    url = reverse("circle-rename", kwargs={"token": circle.editor_token})
    circle.refresh_from_db()
    data = {"version": circle.version, "once": "rename-1", "person": cleopatra.pk, "name": "cleo"}
    answer = Client().post(url, data, follow=True)
    assert "Cleopatra is someone else of the circle" in answer.content.decode()
    cleopatra.refresh_from_db()
    assert cleopatra.name == "Cleopatra"
    # Separated again, each is their own name.
    circle.refresh_from_db()
    circle.separate(cleo.pk, version=circle.version, once="separate-1", actor=ACTOR)
    assert [p.name for p in circle.people()] == ["Cleo", "Cleopatra"]


@pytest.mark.django_db
def test_games_that_seated_a_name_twice_make_two_people_of_a_new_circle():
    """Before the name rule a table could seat "Anna" and "Anna" with a zero-width space."""
    game = GameFactory(players=["\u202eAnna", "Anna\u200b", "Ben"])
    client = own(Client(), game)
    form = client.get(reverse("circle-new")).content.decode()
    offered = re.findall(r'name="games" id="[^"]+" value="([^"]+)"', form)
    client.post(
        reverse("circle-new"), {"name": "Ours", "once": hidden(form, "once"), "games": offered}
    )
    circle = Circle.objects.get()
    assert sorted(p.name for p in circle.people()) == ["Anna", "Anna (2)", "Ben"]
    assert Game.objects.get().seats.get(position=1).name == "Anna\u200b"  # the game's own
    people = [s.person_id for s in Game.objects.get().seats.all()]
    assert len(set(people)) == 3


@pytest.mark.django_db
def test_a_carry_keeps_two_players_of_one_name_apart():
    evening = Evening.objects.create(name="Friday", stake="0.10")
    balances = {"a": ("Zoe", None, 120), "b": ("Zoe", None, -100), "c": ("zoe (2)", None, -20)}
    following = evening.carry(balances, version=evening.version, once="carry-1", actor=ACTOR)
    carried = EveningBalance.objects.filter(evening=following).order_by("pk")
    assert [(b.name, b.cents) for b in carried] == [
        ("Zoe", 120),
        ("Zoe (2)", -100),
        ("zoe (2) (2)", -20),  # a name taken by a mark is marked in turn
    ]


@pytest.mark.django_db(transaction=True)
def test_the_migration_marks_twins_and_undoes_a_merge_that_seats_one_person_twice():
    from django.db import connection as db
    from django.db.migrations.executor import MigrationExecutor

    before = [("scorepad", "0009_live_changes")]
    after = [("scorepad", "0010_names_one_person")]
    executor = MigrationExecutor(db)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    OldCircle = old.get_model("scorepad", "Circle")
    OldPerson = old.get_model("scorepad", "Person")
    OldGame = old.get_model("scorepad", "Game")
    OldSeat = old.get_model("scorepad", "Seat")
    circle = OldCircle.objects.create(name="Fridays", viewer_token="v" * 24, editor_token="e" * 24)
    other = OldCircle.objects.create(name="Others", viewer_token="w" * 24, editor_token="f" * 24)
    made = {}
    for name in ("Zoe", "zoe\u200b", "ZOE", "\u202eAnna\u202c", "Bob", "Cleo"):
        made[name] = OldPerson.objects.create(circle=circle, name=name)
    theirs = OldPerson.objects.create(circle=other, name="Zoe")
    game = OldGame.objects.create(
        variant_id="classic",
        options={},
        circle=circle,
        viewer_token="g" * 24,
        editor_token="h" * 24,
    )
    for position, name in enumerate(["\u202eAnna\u202c", "Bob", "Cleo"]):
        OldSeat.objects.create(game=game, name=name, person=made[name], position=position)
    # Bob merged into Anna after the game seated both (the race of item 3); Cleo into Bob.
    OldPerson.objects.filter(pk=made["Bob"].pk).update(merged_into=made["\u202eAnna\u202c"])
    OldPerson.objects.filter(pk=made["Cleo"].pk).update(merged_into=made["Bob"])
    executor = MigrationExecutor(db)
    executor.loader.build_graph()
    executor.migrate(after)
    executor = MigrationExecutor(db)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    def person(name):
        return Person.objects.get(pk=made[name].pk)

    assert [person(n).name for n in ("Zoe", "zoe\u200b", "ZOE")] == ["Zoe", "zoe (2)", "ZOE (3)"]
    assert person("\u202eAnna\u202c").name == "Anna"
    assert Person.objects.get(pk=theirs.pk).name == "Zoe"  # each circle its own names
    assert person("Bob").merged_into_id is None
    assert person("Cleo").merged_into_id is None
    assert {p.key for p in Person.objects.filter(circle_id=circle.pk)} == {
        "zoe",
        "zoe (2)",
        "zoe (3)",
        "anna",
        "bob",
        "cleo",
    }


@pytest.mark.django_db
def test_a_backup_made_before_the_name_rule_restores_twins_apart(tmp_path):
    import io
    import json

    from django.core.management import call_command

    circle = CircleFactory(name="Fridays")
    zoe = Person.objects.create(circle=circle, name="Zoe")
    GameFactory(players=["Anna", "Anna\u200b", "Ben"])  # seated before the rule
    out = io.StringIO()
    call_command("backup", "export", stdout=out)
    document = json.loads(out.getvalue())
    people = document["circles"][0]["people"]
    twin = {**people[0], "id": zoe.pk + 100, "name": "zoe\u200b", "merged_into": None}
    document["circles"][0]["people"].append(twin)
    Game.objects.all().delete()
    Circle.objects.all().delete()
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    call_command("backup", "import", str(path), stdout=io.StringIO())
    circle = Circle.objects.get()
    assert sorted(p.name for p in circle.people()) == ["Zoe", "zoe (2)"]
    game = Game.objects.get()
    assert [s.name for s in game.seats.order_by("position")] == ["Anna", "Anna (2)", "Ben"]
