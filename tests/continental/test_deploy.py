import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_check_deploy_reports_nothing_with_production_settings(tmp_path):
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "SECRET_KEY": "a-long-random-production-secret-" + "x9Kq2LmZp4" * 4,
        "ALLOWED_HOSTS": "continental.example",
        "SECURE": "true",
        "DATA_DIR": str(tmp_path),
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "DEBUG"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_settings_refuse_to_start_without_a_secret_key_when_debug_is_off(tmp_path):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "DATA_DIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_the_master_loads_templates_and_pages_without_touching_the_database():
    """gunicorn's when_ready hook: without a database mark, any query here fails the test."""
    from django.db import connection

    from continental.warmup import template_names, warm

    loaded = warm()
    assert loaded["templates"] == len(template_names()) > 20
    assert loaded["pages"] == 6 * (2 * 4 + 1)  # rules and summary per variant, and the index
    assert "scorepad/game.html#sheet" in template_names()
    assert connection.connection is None
