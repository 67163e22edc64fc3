"""A game's money counts in one evening only: at most one EveningGame per game.

Before this, a game of an evening whose balances were carried could be added to the next
evening too, and its money was counted twice. A game found in several evenings stays in
the one it was added to first and is taken out of the others (with a "removed" event, and
their version raised so that an open page of theirs is stale)."""

from django.db import migrations, models
from django.db.models import F


def keep_the_first_evening(apps, schema_editor):
    EveningGame = apps.get_model("scorepad", "EveningGame")
    Evening = apps.get_model("scorepad", "Evening")
    EveningEvent = apps.get_model("scorepad", "EveningEvent")
    seen: set[int] = set()
    for entry in EveningGame.objects.order_by("added_at", "pk"):
        if entry.game_id not in seen:
            seen.add(entry.game_id)
            continue
        EveningEvent.objects.create(
            evening_id=entry.evening_id,
            kind="removed",
            details={"game": entry.game_id, "counted_in_another_evening": True},
            actor="migration",
        )
        Evening.objects.filter(pk=entry.evening_id).update(version=F("version") + 1)
        entry.delete()


class Migration(migrations.Migration):
    dependencies = [
        ("scorepad", "0006_evenings"),
    ]

    operations = [
        migrations.RunPython(keep_the_first_evening, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="eveninggame",
            constraint=models.UniqueConstraint(fields=("game",), name="evening_game_one_evening"),
        ),
    ]
