"""SQLite's writers take turns promptly (continental/sqlite/base.py): a transaction waits for
the writer before it on a lock beside the database, trying again every millisecond at most,
gives up as SQLite does ("database is locked") after the database's timeout or at once
inside ``board.no_waiting``, and a killed process never leaves the lock held."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from contextlib import contextmanager

import pytest
from django.db import OperationalError
from django.db.utils import ConnectionHandler

from continental.sqlite import base
from scorepad import board


@pytest.fixture
def database(tmp_path, django_db_blocker):
    """Connections to a file of their own, one per thread, as the site opens them."""
    with django_db_blocker.unblock():
        yield from _database(tmp_path)


def _database(tmp_path):
    path = tmp_path / "turns.sqlite3"
    handler = ConnectionHandler(
        {
            "default": {
                "ENGINE": "continental.sqlite",
                "NAME": str(path),
                "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 5},
            }
        }
    )
    first = handler["default"]
    with first.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("CREATE TABLE t (who TEXT)")
    yield handler, path
    handler.close_all()


@contextmanager
def transaction(connection):
    """What ``transaction.atomic`` does on an outermost block, for a connection of our own."""
    connection.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
    try:
        yield
    except BaseException:
        connection.rollback()
        raise
    else:
        connection.commit()
    finally:
        connection.set_autocommit(True)


def write(connection, who: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO t (who) VALUES (%s)", [who])


def rows(connection) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT who FROM t ORDER BY rowid")
        return [who for (who,) in cursor.fetchall()]


def in_thread(handler, fn):
    """Runs ``fn(connection)`` in a thread with its own connection; its result or error."""
    outcome: dict = {}

    def run():
        connection = handler["default"]
        try:
            outcome["value"] = fn(connection)
        except Exception as error:
            outcome["error"] = error
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def test_the_embedded_settings_name_this_backend():
    code = (
        "import os; os.environ.pop('DATABASE_URL', None);"
        "os.environ.setdefault('SECRET_KEY', 'x');"
        "from continental import settings;"
        "print(settings.DATABASES['default']['ENGINE'])"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "continental.sqlite"


def test_a_writer_waits_its_turn_trying_every_millisecond_at_most(database, monkeypatch):
    handler, _ = database
    pauses: list[float] = []
    sleep = time.sleep

    def pause(seconds):
        pauses.append(seconds)
        sleep(seconds)

    monkeypatch.setattr(base.time, "sleep", pause)
    holder = handler["default"]
    with transaction(holder):
        write(holder, "first")
        thread, outcome = in_thread(handler, lambda c: _write_in_transaction(c, "second"))
        sleep(0.05)  # the second writer is waiting now
        assert "value" not in outcome
        assert "error" not in outcome
        write(holder, "first again")
    thread.join(10)
    assert outcome == {"value": None}
    assert rows(holder) == ["first", "first again", "second"]
    # It waited, in short steps: never asleep longer than a millisecond while it waited.
    assert len(pauses) > 10
    assert max(pauses) <= base.LONGEST_PAUSE


def _write_in_transaction(connection, who: str) -> None:
    with transaction(connection):
        write(connection, who)


def _impatient_write(handler, who: str, wait: float = 0.05) -> dict:
    """A write in another thread that waits at most ``wait`` seconds for its turn; what
    came of it."""

    def impatient(connection):
        with connection.writer_wait(wait):
            _write_in_transaction(connection, who)

    thread, outcome = in_thread(handler, impatient)
    thread.join(10)
    return outcome


def test_a_writer_gives_up_after_the_timeout_as_sqlite_says_it(database):
    handler, _ = database
    holder = handler["default"]
    with transaction(holder):
        write(holder, "held")
        outcome = _impatient_write(handler, "never")
    assert isinstance(outcome["error"], OperationalError)
    assert "database is locked" in str(outcome["error"])
    assert rows(holder) == ["held"]


def test_no_waiting_gives_up_at_once(database, monkeypatch):
    handler, _ = database
    holder = handler["default"]
    monkeypatch.setattr(board, "connection", None)  # replaced per thread below

    def at_once(connection):
        monkeypatch.setattr(board, "connection", connection)
        started = time.monotonic()
        try:
            with board.no_waiting():
                _write_in_transaction(connection, "never")
        except OperationalError as error:
            return error, time.monotonic() - started
        return None, 0.0

    with transaction(holder):
        write(holder, "held")
        thread, outcome = in_thread(handler, at_once)
        thread.join(10)
    error, _took = outcome["value"]
    assert isinstance(error, OperationalError)
    assert rows(holder) == ["held"]


def test_a_rollback_and_a_close_give_the_turn_back(database):
    handler, _ = database
    holder = handler["default"]

    def undone() -> None:
        with transaction(holder):
            write(holder, "undone")
            raise RuntimeError

    with pytest.raises(RuntimeError):
        undone()
    _check_another_writer_gets_in(handler, "after the rollback")
    holder.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
    write(holder, "lost with the connection")
    holder.close()
    _check_another_writer_gets_in(handler, "after the close")
    assert rows(handler["default"]) == ["after the rollback", "after the close"]


def _check_another_writer_gets_in(handler, who: str) -> None:
    assert _impatient_write(handler, who, wait=0.5) == {"value": None}


def test_a_killed_process_does_not_keep_the_turn(database):
    handler, path = database
    # Another process takes the turn (the lock file beside the database) and is killed.
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys, time;"
            f"fd = os.open({str(path) + base.SUFFIX!r}, os.O_RDWR | os.O_CREAT);"
            "fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        outcome = _impatient_write(handler, "while held")
        assert isinstance(outcome["error"], OperationalError)
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()
    _check_another_writer_gets_in(handler, "after the kill")
    assert rows(handler["default"]) == ["after the kill"]


def test_a_thread_learns_how_long_it_waited_for_the_writer_and_committed(database):
    """What Server-Timing says of a request on SQLite (continental/timing.py)."""
    handler, _ = database
    holder = handler["default"]

    def waited(connection):
        base.take_spent()
        _write_in_transaction(connection, "second")
        return base.take_spent(), base.take_spent()

    with transaction(holder):
        write(holder, "first")
        thread, outcome = in_thread(handler, waited)
        time.sleep(0.1)  # the second writer waits this long for the first
    thread.join(5)
    (writer, commit), again = outcome["value"]
    assert 0.08 <= writer < 2
    assert 0 < commit < writer
    assert again == (0.0, 0.0)  # read once: nothing waited since
