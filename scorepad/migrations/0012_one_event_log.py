"""One history for every shared thing (scorepad/kernel.py): the entries of the three
tables of before (a game's, an evening's, a circle's) move into ``Event``, nothing lost.

A game's entries keep their ids (an entry that brought a deal back names the entry it undid
by id); the evenings' and the circles' come after them, in the order they were made. A
one-time token is now unique across every kind of thing: should two tables hold the same one
(a form's token sent to a game and then to an evening), the later entry keeps its place in
the history without it. The way back splits them again."""

import django.db.models.deletion
import django.utils.timezone
from django.core.management.color import no_style
from django.db import migrations, models

FIELDS = ("at", "kind", "details", "actor", "device", "form_token")
OLD = (("GameEvent", "game"), ("CircleEvent", "circle"), ("EveningEvent", "evening"))
BATCH = 2000


def _copy(schema_editor, rows, target, make, *, reset: bool) -> None:
    """``make(row)`` of every row into ``target``, in batches; with ``reset``, the ids given
    explicitly are followed by the next ones made (PostgreSQL's sequence)."""
    db = schema_editor.connection.alias
    batch = []
    for row in rows.using(db).order_by("pk").iterator(chunk_size=BATCH):
        batch.append(make(row))
        if len(batch) == BATCH:
            target.objects.using(db).bulk_create(batch)
            batch = []
    target.objects.using(db).bulk_create(batch)
    if reset:
        with schema_editor.connection.cursor() as cursor:
            for sql in schema_editor.connection.ops.sequence_reset_sql(no_style(), [target]):
                cursor.execute(sql)


def one_log(apps, schema_editor):
    Event = apps.get_model("scorepad", "Event")
    seen: set[str] = set()

    for name, owner in OLD:

        def moved(row, owner=owner):
            token = row.form_token
            if token in seen:
                token = None
            elif token:
                seen.add(token)
            values = {field: getattr(row, field) for field in FIELDS}
            values.update(form_token=token, deal_number=getattr(row, "deal_number", None))
            values[f"{owner}_id"] = getattr(row, f"{owner}_id")
            if owner == "game":  # kept: a "restored" entry names the entry it undid
                values["id"] = row.pk
            return Event(**values)

        model = apps.get_model("scorepad", name)
        _copy(schema_editor, model.objects.all(), Event, moved, reset=owner == "game")


def three_logs(apps, schema_editor):
    Event = apps.get_model("scorepad", "Event")
    for name, owner in OLD:
        model = apps.get_model("scorepad", name)

        def back(event, owner=owner, model=model):
            values = {field: getattr(event, field) for field in FIELDS}
            values[f"{owner}_id"] = getattr(event, f"{owner}_id")
            if owner == "game":
                values.update(id=event.pk, deal_number=event.deal_number)
            return model(**values)

        rows = Event.objects.filter(**{f"{owner}__isnull": False})
        _copy(schema_editor, rows, model, back, reset=owner == "game")


class Migration(migrations.Migration):
    dependencies = [
        ("scorepad", "0011_game_carried"),
    ]

    operations = [
        migrations.CreateModel(
            name="Event",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("at", models.DateTimeField(default=django.utils.timezone.now)),
                ("kind", models.CharField(max_length=16)),
                ("deal_number", models.IntegerField(blank=True, null=True)),
                ("details", models.JSONField(blank=True, default=dict)),
                ("actor", models.CharField(max_length=16)),
                ("device", models.CharField(blank=True, max_length=16)),
                ("form_token", models.CharField(blank=True, max_length=64, null=True, unique=True)),
                (
                    "circle",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="scorepad.circle",
                    ),
                ),
                (
                    "evening",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="scorepad.evening",
                    ),
                ),
                (
                    "game",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="scorepad.game",
                    ),
                ),
            ],
            options={
                "ordering": ["-at", "-pk"],
            },
        ),
        migrations.RunPython(one_log, three_logs),
        migrations.DeleteModel(
            name="CircleEvent",
        ),
        migrations.DeleteModel(
            name="EveningEvent",
        ),
        migrations.DeleteModel(
            name="GameEvent",
        ),
        migrations.AlterField(
            model_name="event",
            name="game",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="events",
                to="scorepad.game",
            ),
        ),
        migrations.AlterField(
            model_name="event",
            name="evening",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="events",
                to="scorepad.evening",
            ),
        ),
        migrations.AlterField(
            model_name="event",
            name="circle",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="events",
                to="scorepad.circle",
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(
                        ("circle__isnull", True), ("evening__isnull", True), ("game__isnull", False)
                    ),
                    models.Q(
                        ("circle__isnull", True), ("evening__isnull", False), ("game__isnull", True)
                    ),
                    models.Q(
                        ("circle__isnull", False), ("evening__isnull", True), ("game__isnull", True)
                    ),
                    _connector="OR",
                ),
                name="event_of_one_thing",
            ),
        ),
    ]
