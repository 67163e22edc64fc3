"""Circles: a seat's name belongs to its game; people exist only inside a circle.

Before this, a ``Player`` row was shared by every game it sat in, found again by its exact
name: a name typed anywhere, or a viewer's "Play again", joined a stranger's game to one's
own. Those shared rows cannot tell friends from such paths, so no game is put into a circle
here: every seat keeps its player's name as its own (``Seat.name``), every game and evening
stays outside any circle, and the ``Player`` rows go. A phone holding the editor links of
several games is offered to make a circle of them (the circle's page).
"""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models

import scorepad.models


def names_from_players(apps, schema_editor):
    Seat = apps.get_model("scorepad", "Seat")
    seats = list(Seat.objects.select_related("player").only("pk", "player__name"))
    for seat in seats:
        seat.name = seat.name
    Seat.objects.bulk_update(seats, ["name"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("scorepad", "0007_network_one_evening_per_game")]

    operations = [
        migrations.CreateModel(
            name="Circle",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=40, verbose_name="name")),
                ("version", models.PositiveIntegerField(default=1)),
                (
                    "viewer_token",
                    models.CharField(default=scorepad.models.new_token, max_length=64, unique=True),
                ),
                (
                    "editor_token",
                    models.CharField(default=scorepad.models.new_token, max_length=64, unique=True),
                ),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("updated_at", models.DateTimeField(default=django.utils.timezone.now)),
            ],
            options={"ordering": ["-updated_at", "-pk"]},
        ),
        migrations.CreateModel(
            name="Person",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=40, verbose_name="name")),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "circle",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="persons",
                        to="scorepad.circle",
                    ),
                ),
                (
                    "merged_into",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="merged",
                        to="scorepad.person",
                    ),
                ),
            ],
            options={"ordering": ["name", "pk"]},
        ),
        migrations.CreateModel(
            name="CircleEvent",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("at", models.DateTimeField(default=django.utils.timezone.now)),
                ("kind", models.CharField(max_length=16)),
                ("details", models.JSONField(blank=True, default=dict)),
                ("actor", models.CharField(max_length=16)),
                ("device", models.CharField(blank=True, max_length=16)),
                ("form_token", models.CharField(blank=True, max_length=64, null=True, unique=True)),
                (
                    "circle",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="events",
                        to="scorepad.circle",
                    ),
                ),
            ],
            options={"ordering": ["-at", "-pk"]},
        ),
        migrations.AddField(
            model_name="game",
            name="circle",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="games",
                to="scorepad.circle",
            ),
        ),
        migrations.AddField(
            model_name="evening",
            name="circle",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="evenings",
                to="scorepad.circle",
            ),
        ),
        migrations.AddField(
            model_name="eveningbalance",
            name="person",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="balances",
                to="scorepad.person",
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="name",
            field=models.CharField(default="", max_length=40, verbose_name="name"),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="seat",
            name="person",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="seats",
                to="scorepad.person",
            ),
        ),
        migrations.RunPython(names_from_players, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="seat", name="seat_player_once"),
        migrations.RemoveField(model_name="seat", name="player"),
        migrations.DeleteModel(name="Player"),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(fields=("game", "person"), name="seat_person_once"),
        ),
        migrations.AlterField(
            model_name="gameevent",
            name="kind",
            field=models.CharField(
                choices=[
                    ("started", "Game started"),
                    ("imported", "Game imported"),
                    ("recorded", "Deal recorded"),
                    ("edited", "Deal edited"),
                    ("deleted", "Deal deleted"),
                    ("undone", "Last deal undone"),
                    ("restored", "Deal brought back"),
                    ("joined", "Player joined"),
                    ("left", "Player left"),
                    ("returned", "Player back at the table"),
                    ("renamed", "Player renamed"),
                    ("target", "Target set"),
                    ("finished", "Game ended"),
                    ("resumed", "Game resumed"),
                    ("link_replaced", "Link replaced"),
                    ("circle", "Game put into a circle"),
                ],
                max_length=16,
            ),
        ),
    ]
