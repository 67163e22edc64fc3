"""The migrations match the models: `makemigrations --check --dry-run` finds nothing to do."""

import io

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_the_models_need_no_new_migration():
    out = io.StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit:  # --check exits with 1 when a migration would be written
        pytest.fail(f"makemigrations would write a migration:\n{out.getvalue()}")
    assert "No changes detected" in out.getvalue()


@pytest.mark.django_db
def test_the_change_feed_s_triggers_are_on_the_game_and_evening_tables():
    """Migration 0009's triggers survive every later migration (SQLite makes a table anew to
    add a column that is not null, and drops its triggers with it): without them no phone
    learns of a change until it reloads."""
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT tbl_name FROM sqlite_master WHERE type = 'trigger'")
        else:
            cursor.execute(
                "SELECT event_object_table FROM information_schema.triggers"
                " WHERE trigger_name LIKE 'scorepad_%%_live'"
            )
        tables = {row[0] for row in cursor.fetchall()}
    assert {"scorepad_game", "scorepad_evening"} <= tables
