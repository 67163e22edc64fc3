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
