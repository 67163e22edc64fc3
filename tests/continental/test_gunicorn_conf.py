"""continental/gunicorn_conf.py: the workers' threads follow the database unless set."""

import runpy
from pathlib import Path

import pytest

CONF = Path(__file__).resolve().parents[2] / "continental" / "gunicorn_conf.py"


@pytest.mark.parametrize(
    ("url", "threads", "expected"),
    [
        ("", None, 1),  # SQLite: one writer, sync workers
        ("sqlite:////data/scorepad.sqlite3", None, 1),
        ("postgres://postgres@127.0.0.1:5432/scorepad", None, 4),
        ("postgresql://u:p@db/scorepad", None, 4),
        ("postgres://postgres@127.0.0.1:5432/scorepad", "2", 2),  # the environment decides
        ("", "3", 3),
    ],
)
def test_postgresql_gets_threaded_workers_and_the_environment_overrides(
    monkeypatch, url, threads, expected
):
    monkeypatch.setenv("DATABASE_URL", url)
    if threads is None:
        monkeypatch.delenv("GUNICORN_THREADS", raising=False)
    else:
        monkeypatch.setenv("GUNICORN_THREADS", threads)
    assert runpy.run_path(str(CONF))["threads"] == expected
