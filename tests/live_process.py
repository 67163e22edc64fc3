"""A real stream process (continental/liveserver.py running continental.live:app) on the test database, and a
small reader of its Server-Sent Events: for tests/continental/test_live_streams.py and the
browser tests of tests/e2e/test_live.py."""

from __future__ import annotations

import contextlib
import http.client
import os
import queue
import random
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import BinaryIO

from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def free_port(count: int = 1) -> int:
    """A port (and the ``count - 1`` after it) that a server can listen on, on every address.

    Chosen below Linux's range of ephemeral ports (32768-60999 by default): a port from that
    range may be free when asked and then taken as the local end of an outgoing connection (the
    tests' own PostgreSQL connections) before the server binds it; and a port that no one
    listens on can still be held by such a connection, which a connect probe cannot see
    (CI once failed that way on PostgreSQL)."""
    while True:
        port = random.randint(20000, 32000 - count)
        try:
            with contextlib.ExitStack() as held:
                for offset in range(count):
                    probe = held.enter_context(socket.socket())
                    probe.bind(("0.0.0.0", port + offset))
        except OSError:
            continue
        return port


def test_database_url() -> str:
    """The URL of the database the tests run on (pytest-django's test database)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


class StreamProcess:
    """The stream process (``python -m continental.liveserver``) in a subprocess; ``env`` adds
    settings."""

    def __init__(
        self,
        port: int | None = None,
        nofile: int | None = None,
        log: Path | None = None,
        **env: str,
    ):
        self.port = port or free_port()
        self.nofile = nofile
        self.log = log  # where its output goes (default: the test's own)
        self.env = {
            **os.environ,
            "DATABASE_URL": test_database_url(),
            "SECRET_KEY": "tests-only-secret-key",
            "LIVE_STREAMS": "true",
            "LIVE_RETRY_MS": "100-300",
            "LIVE_POLL_INTERVAL": "0.05",
            **env,
        }
        self.process: subprocess.Popen | None = None
        self._output: BinaryIO | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _limit(self):
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (self.nofile, self.nofile))

    def start(self) -> StreamProcess:
        self._output = self.log.open("ab") if self.log else None
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "continental.liveserver",
                "--port",
                str(self.port),
                "--log-level",
                "warning",
                "--timeout-graceful-shutdown",
                "1",
            ],
            cwd=ROOT,
            env=self.env,
            preexec_fn=self._limit if self.nofile else None,
            stdout=self._output,
            stderr=subprocess.STDOUT if self.log else None,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            # Each try's connection is closed, answered or not: on a loaded machine the
            # first tries time out while the process starts, and a socket left open there
            # is an unraisable ResourceWarning that fails whichever test comes next.
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
            try:
                conn.request("GET", "/live/health")
                if conn.getresponse().status == 200:
                    return self
            except (OSError, http.client.HTTPException):
                time.sleep(0.1)
            finally:
                conn.close()
            if self.process.poll() is not None:
                raise RuntimeError("the stream process stopped at start")
        raise RuntimeError("the stream process never answered")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self._output:
            self._output.close()

    def __enter__(self) -> StreamProcess:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


OPEN: list[Events] = []  # closed after each test (tests/continental/conftest.py)


class Events:
    """One open stream, read in a thread: ``next()`` gives (event, id, data) or a comment."""

    def __init__(self, base: str, path: str, headers: dict | None = None):
        OPEN.append(self)
        host, port = base.split("://", 1)[1].split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=30)
        self.conn.request("GET", path, headers=headers or {})
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.headers = self.response.headers  # any case
        self.items: queue.Queue = queue.Queue()
        self.retry: int | None = None
        if self.status == 200:
            threading.Thread(target=self._read, daemon=True).start()
        else:
            self.body = self.response.read().decode()

    def _read(self) -> None:
        fields: dict[str, str] = {}
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith(":"):
                    self.items.put(("comment", None, line))
                elif line == "":
                    if fields:
                        kind = fields.get("event", "message")
                        self.items.put((kind, fields.get("id"), fields.get("data")))
                    fields = {}
                else:
                    name, _, value = line.partition(": ")
                    if name == "retry":
                        self.retry = int(value)
                    elif name == "data" and "data" in fields:  # its lines joined, as a browser
                        fields["data"] += "\n" + value
                    else:
                        fields[name] = value
        except Exception:  # closed by the test, or by the server
            pass
        self.items.put(("closed", None, None))

    def next(self, timeout: float = 10, skip_beats: bool = True):
        """The next event; heartbeats (``event: beat``, and any comment line) are passed over
        unless ``skip_beats`` is false."""
        deadline = time.monotonic() + timeout
        while True:
            item = self.items.get(timeout=max(0.01, deadline - time.monotonic()))
            if item[0] in ("comment", "beat") and skip_beats:
                continue
            return item

    def close(self) -> None:
        # The reader thread holds the response: end the socket under it first.
        if self.conn.sock is not None:
            with contextlib.suppress(OSError):
                self.conn.sock.shutdown(socket.SHUT_RDWR)
        self.response.close()
        self.conn.close()

    @staticmethod
    def close_all() -> None:
        while OPEN:
            OPEN.pop().close()
