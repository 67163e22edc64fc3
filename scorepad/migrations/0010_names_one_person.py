"""One name, one person: each person of a circle has a stored name key (``Person.key``,
``scorepad.naming.name_key``), unique in its circle.

What exists is repaired first:

- every person's name is put under the name rule (NFC, spaces folded, the invisible bidi
  and zero-width controls removed);
- two people of one circle with one key (twins: "Zoe" made by two phones at once, or
  "Anna" and "Anna" with a zero-width space) stay two people: the oldest keeps the name,
  each younger one is renamed "Zoe (2)", "Zoe (3)", ... Nothing tells whether twins are
  one person (one name typed by two phones) or two (two friends at one table): the
  circle's editor merges them in one tap when they are one, and no seat or total changes;
- a merge that makes one person of two seats of one game (a merge that raced a new game
  or a join) is undone, as Separate would undo it: the person merged in is their own
  person again, so no game lists a person twice.

The functions are copied here, not imported, so that this migration does what it did when
it was written.
"""

import unicodedata

from django.db import migrations, models

REMOVED = dict.fromkeys(
    [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200B, 0x2060, 0xFEFF], None
)
NAME_MAX = 40


def normal_name(raw):
    return " ".join(unicodedata.normalize("NFC", raw.translate(REMOVED)).split())


def name_key(name):
    return unicodedata.normalize("NFC", normal_name(name).casefold())


def distinct_name(name, taken):
    if name_key(name) not in taken:
        return name
    n = 2
    while True:
        mark = f" ({n})"
        candidate = name[: NAME_MAX - len(mark)].rstrip() + mark
        if name_key(candidate) not in taken:
            return candidate
        n += 1


def one_name_one_person(apps, schema_editor):
    Person = apps.get_model("scorepad", "Person")
    taken: dict[int, set[str]] = {}
    changed = []
    for person in Person.objects.order_by("circle_id", "created_at", "pk"):
        keys = taken.setdefault(person.circle_id, set())
        name = distinct_name(normal_name(person.name) or "?", keys)
        keys.add(name_key(name))
        person.name, person.key = name, name_key(name)
        changed.append(person)
    Person.objects.bulk_update(changed, ["name", "key"], batch_size=500)


def one_seat_per_person(apps, schema_editor):
    Person = apps.get_model("scorepad", "Person")
    Seat = apps.get_model("scorepad", "Seat")
    while True:
        parent = dict(Person.objects.values_list("pk", "merged_into_id"))

        def root(pk, parent=parent):
            seen = {pk}
            while parent.get(pk) is not None and parent[pk] not in seen:
                pk = parent[pk]
                seen.add(pk)
            return pk

        undo = set()
        by_game: dict[tuple[int, int], list[int]] = {}
        for game, person in Seat.objects.filter(person__isnull=False).values_list(
            "game_id", "person_id"
        ):
            by_game.setdefault((game, root(person)), []).append(person)
        for people in by_game.values():
            if len(people) > 1:
                # Those merged into another come back as their own people; when none of
                # the seats is the person they all count as, the first stays merged.
                merged = [pk for pk in sorted(people) if parent[pk] is not None]
                undo.update(merged[1:] if len(merged) == len(people) else merged)
        if not undo:
            break
        Person.objects.filter(pk__in=undo).update(merged_into=None)
    if schema_editor.connection.vendor == "postgresql":
        # The foreign keys' checks of the rows changed, now: PostgreSQL alters no table
        # (the constraint below) with checks still pending.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


class Migration(migrations.Migration):
    dependencies = [("scorepad", "0009_live_changes")]

    operations = [
        migrations.AddField(
            model_name="person",
            name="key",
            field=models.CharField(default="", editable=False, max_length=160),
            preserve_default=False,
        ),
        migrations.RunPython(one_name_one_person, migrations.RunPython.noop),
        migrations.RunPython(one_seat_per_person, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="person",
            constraint=models.UniqueConstraint(fields=("circle", "key"), name="person_name_once"),
        ),
    ]
