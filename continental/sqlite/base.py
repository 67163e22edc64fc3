"""SQLite whose writers take turns promptly: the database engine of the embedded setup.

SQLite has one write lock; Django's IMMEDIATE transactions (``settings.DATABASES``) take it at
``BEGIN``. A writer that finds it held is put to sleep by SQLite's busy handler in growing
steps (1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, then 100 ms), so under a steady stream of
writes a waiting worker often sleeps tens of milliseconds after the lock was freed, and the
lock stands idle while work queues behind it (``bench/results/writer-turns-tried.txt``,
``push-writer-turns-sqlite.txt``).

Here a transaction first takes an advisory lock on a file beside the database (``flock`` on
``<name>-writer``), one per connection, trying again every millisecond at most, and only then
``BEGIN IMMEDIATE``: a waiting writer starts within a millisecond of the commit before it.
The lock is the operating system's: it goes with the connection's file, so a killed worker
never leaves it held. The wait keeps SQLite's limits: the database's ``timeout`` (then
"database is locked", as SQLite says it, ``continental/dbdown.py``'s page), or none at all
inside ``scorepad.board.no_waiting`` (a write that gives up at once when another writer is
busy). Writes outside a transaction and other programs on the same file do not take it;
SQLite's own lock still keeps them apart, as before.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.db.backends.sqlite3 import base

# The ignores below: Django's stubs do not declare the wrapper's transaction hooks that this
# class extends (they are Django's own, in BaseDatabaseWrapper and the sqlite3 wrapper).

SUFFIX = "-writer"
FIRST_PAUSE = 0.0002  # seconds; doubled after each try up to LONGEST_PAUSE
LONGEST_PAUSE = 0.001

# Seconds this thread's transactions waited for the other writers and spent committing, summed
# until read (continental/timing.py's Server-Timing, with BENCH_VIEWS).
spent = threading.local()


def _add(name: str, seconds: float) -> None:
    setattr(spent, name, getattr(spent, name, 0.0) + seconds)


def take_spent() -> tuple[float, float]:
    """(waiting for the writer lock, committing) in seconds since the last call, this thread."""
    found = getattr(spent, "writer", 0.0), getattr(spent, "commit", 0.0)
    spent.writer = spent.commit = 0.0
    return found


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._writer_file: int | None = None
        self._writer_held = False
        self._writer_wait: float | None = None  # seconds; None: the database's timeout

    # --- the advisory lock -------------------------------------------------------------
    def _writer_fd(self) -> int | None:
        if self._writer_file is None and not self.is_in_memory_db():
            try:
                path = f"{self.settings_dict['NAME']}{SUFFIX}"
                self._writer_file = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            except OSError:
                return None  # a read-only directory: SQLite's own lock alone
        return self._writer_file

    def _take_writer_lock(self) -> None:
        fd = self._writer_fd()
        if fd is None:
            return
        wait = self._writer_wait
        if wait is None:
            wait = float(self.settings_dict["OPTIONS"].get("timeout", 5))
        began = time.monotonic()
        deadline = began + wait
        pause = FIRST_PAUSE
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    _add("writer", time.monotonic() - began)
                    with self.wrap_database_errors:
                        raise self.Database.OperationalError("database is locked") from None  # type: ignore[attr-defined]
                time.sleep(pause)
                pause = min(pause * 2, LONGEST_PAUSE)
            else:
                _add("writer", time.monotonic() - began)
                self._writer_held = True
                return

    def _release_writer_lock(self) -> None:
        if self._writer_held and self._writer_file is not None:
            self._writer_held = False
            fcntl.flock(self._writer_file, fcntl.LOCK_UN)

    @contextmanager
    def writer_wait(self, seconds: float) -> Iterator[None]:
        """Transactions started inside wait at most ``seconds`` for the other writers."""
        before, self._writer_wait = self._writer_wait, seconds
        try:
            yield
        finally:
            self._writer_wait = before

    # --- Django's transaction hooks ----------------------------------------------------
    def _start_transaction_under_autocommit(self) -> None:
        self._take_writer_lock()
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]
        except BaseException:
            self._release_writer_lock()
            raise

    def _commit(self):
        began = time.monotonic()
        try:
            return super()._commit()  # type: ignore[misc]
        finally:
            _add("commit", time.monotonic() - began)
            if not (self.connection is not None and self.connection.in_transaction):
                self._release_writer_lock()

    def _rollback(self):
        try:
            return super()._rollback()  # type: ignore[misc]
        finally:
            self._release_writer_lock()

    def _close(self):
        try:
            return super()._close()  # type: ignore[misc]
        finally:
            self._writer_held = False
            if self._writer_file is not None:
                os.close(self._writer_file)  # the lock goes with the file
                self._writer_file = None
