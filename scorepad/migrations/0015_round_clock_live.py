"""The round clock (the series' start, each table game's end of time) and the tournaments in
the live streams' change feed: the trigger of 0009 on the tournament's table too (kind "t"),
so a stream following a tournament hears its changes as it hears its tables' games'."""

from django.db import migrations, models

TABLE = "scorepad_tournament"
CHANGED = (
    "NEW.version <> OLD.version OR NEW.viewer_token <> OLD.viewer_token"
    " OR NEW.editor_token <> OLD.editor_token"
    " OR NEW.registration_token <> OLD.registration_token"
)
REVOKED = "NEW.viewer_token <> OLD.viewer_token OR NEW.editor_token <> OLD.editor_token"


def create(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        vendor = schema_editor.connection.vendor
        if vendor == "postgresql":  # the function of 0009
            cursor.execute(
                f"CREATE TRIGGER {TABLE}_live AFTER UPDATE ON {TABLE} FOR EACH ROW"
                f" WHEN ({CHANGED}) EXECUTE FUNCTION scorepad_live_notify('t')"
            )
        elif vendor == "sqlite":
            cursor.execute(
                f"CREATE TRIGGER {TABLE}_live AFTER UPDATE ON {TABLE} FOR EACH ROW"
                f" WHEN {CHANGED} BEGIN"
                " INSERT INTO scorepad_livechange (kind, object_id, version, revoked)"
                f" VALUES ('t', NEW.id, NEW.version, {REVOKED}); END"
            )


def drop(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        vendor = schema_editor.connection.vendor
        if vendor == "postgresql":
            cursor.execute(f"DROP TRIGGER IF EXISTS {TABLE}_live ON {TABLE}")
        elif vendor == "sqlite":
            cursor.execute(f"DROP TRIGGER IF EXISTS {TABLE}_live")


class Migration(migrations.Migration):
    dependencies = [("scorepad", "0014_tournaments")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="series_started",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="clock_ends",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(create, drop),
    ]
