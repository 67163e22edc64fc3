"""The change feed of the live streams: a trigger on every game and evening whose version or
links change. On SQLite it writes a ``LiveChange`` row; on PostgreSQL it sends
``NOTIFY scorepad_live, '<kind>:<id>:<version>:<revoked>'``, delivered at commit to every
stream process listening (``continental/live.py``)."""

from django.db import migrations, models

TABLES = (("g", "scorepad_game"), ("e", "scorepad_evening"))
CHANGED = (
    "NEW.version <> OLD.version OR NEW.viewer_token <> OLD.viewer_token"
    " OR NEW.editor_token <> OLD.editor_token"
)
REVOKED = "NEW.viewer_token <> OLD.viewer_token OR NEW.editor_token <> OLD.editor_token"

PG_FUNCTION = f"""
CREATE OR REPLACE FUNCTION scorepad_live_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('scorepad_live', TG_ARGV[0] || ':' || NEW.id || ':' || NEW.version || ':'
    || CASE WHEN {REVOKED} THEN '1' ELSE '0' END);
  RETURN NULL;
END $$;
"""


def create(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        vendor = schema_editor.connection.vendor
        if vendor == "postgresql":
            cursor.execute(PG_FUNCTION)
        for kind, table in TABLES:
            if vendor == "postgresql":
                cursor.execute(
                    f"CREATE TRIGGER {table}_live AFTER UPDATE ON {table} FOR EACH ROW"
                    f" WHEN ({CHANGED}) EXECUTE FUNCTION scorepad_live_notify('{kind}')"
                )
            elif vendor == "sqlite":
                cursor.execute(
                    f"CREATE TRIGGER {table}_live AFTER UPDATE ON {table} FOR EACH ROW"
                    f" WHEN {CHANGED} BEGIN"
                    " INSERT INTO scorepad_livechange (kind, object_id, version, revoked)"
                    f" VALUES ('{kind}', NEW.id, NEW.version, {REVOKED}); END"
                )


def drop(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        vendor = schema_editor.connection.vendor
        for _kind, table in TABLES:
            if vendor == "postgresql":
                cursor.execute(f"DROP TRIGGER IF EXISTS {table}_live ON {table}")
            elif vendor == "sqlite":
                cursor.execute(f"DROP TRIGGER IF EXISTS {table}_live")
        if vendor == "postgresql":
            cursor.execute("DROP FUNCTION IF EXISTS scorepad_live_notify()")


class Migration(migrations.Migration):
    dependencies = [("scorepad", "0008_circles")]

    operations = [
        migrations.CreateModel(
            name="LiveChange",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("kind", models.CharField(max_length=1)),
                ("object_id", models.BigIntegerField()),
                ("version", models.PositiveIntegerField()),
                ("revoked", models.BooleanField(default=False)),
            ],
        ),
        migrations.RunPython(create, drop),
    ]
