import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def python(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    """The project's Python in a fresh process at the repository root, with only ``env``."""
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def bare_env(tmp_path: Path) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "DATA_DIR": str(tmp_path)}


def test_check_deploy_reports_nothing_with_production_settings(tmp_path):
    env = {
        **bare_env(tmp_path),
        "SECRET_KEY": "a-long-random-production-secret-" + "x9Kq2LmZp4" * 4,
        "ALLOWED_HOSTS": "continental.example",
        "SECURE": "true",
    }
    result = python(["manage.py", "check", "--deploy", "--fail-level", "DEBUG"], env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_settings_refuse_to_start_without_a_secret_key_when_debug_is_off(tmp_path):
    result = python(["manage.py", "check"], bare_env(tmp_path))
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_the_web_server_never_starts_on_the_kept_key(tmp_path):
    """A key file in data/ serves management commands (the README's examples after serve);
    the WSGI app still needs SECRET_KEY."""
    (tmp_path / "secret_key").write_text("k" * 60)
    env = {**bare_env(tmp_path), "HOME": str(tmp_path)}
    wsgi = python(["-c", "import continental.wsgi"], env)
    assert wsgi.returncode != 0
    assert "SECRET_KEY must be set" in wsgi.stderr
    command = python(["manage.py", "check"], env)
    assert command.returncode == 0, command.stderr


def test_the_master_loads_templates_and_pages_without_touching_the_database():
    """gunicorn's when_ready hook: without a database mark, any query here fails the test."""
    from django.db import connection

    from continental.warmup import template_names, warm

    loaded = warm()
    assert loaded["templates"] == len(template_names()) > 20
    # rules and summary per variant, the index, the glossary and the tournament
    assert loaded["pages"] == 6 * (2 * 4 + 3)
    assert "scorepad/game.html#sheet" in template_names()
    assert connection.connection is None


def test_the_master_sets_what_it_loaded_aside_from_the_garbage_collector():
    """gunicorn's when_ready hook freezes what ``warm`` loaded: a worker's full collection
    then walks only what the worker made, not the ~90,000 objects it inherited. Run in a
    process of its own (a frozen object stays frozen)."""
    import subprocess
    import sys

    script = (
        "import gc, os, django\n"
        "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'continental.settings')\n"
        "django.setup()\n"
        "from continental import gunicorn_conf\n"
        "class Log:\n"
        "    def info(self, *a): print(a[0] % a[1:])\n"
        "class Cfg: preload_app = True\n"
        "class Server: log = Log(); cfg = Cfg()\n"
        "before = len(gc.get_objects())\n"
        "gunicorn_conf.when_ready(Server())\n"
        "print('walked', before, len(gc.get_objects()), gc.get_freeze_count())\n"
    )
    env = {**os.environ, "SECRET_KEY": "x", "GUNICORN_BANNER": ""}
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    ).stdout
    walked = out.split("walked ")[1].split()
    before, after, frozen = map(int, walked)
    assert frozen > before > 20_000, out  # Django before warm(), and all warm() loaded
    assert after < 1_000, out  # what a full collection still walks
    said = int(out.split("objects set aside from the garbage collector: ")[1].split()[0])
    assert abs(said - frozen) < 100, out
