"""The end of each answer's connection, off the worker's path.

Since version 26, gunicorn ends a connection it answered the way RFC 9112 (section 9.6) asks:
it sends its FIN, then reads (up to 2 s) until the phone closes its side too, and only then
closes; so a request body the app did not read never makes the kernel reset the connection
and cut the answer short. It does that in the worker: a sync worker serves no one else
until the phone's FIN has come back, a whole round trip of the table's Wi-Fi after the
answer was sent (and longer for an answer bigger than a few packets), and a threaded
worker's main loop, which accepts the next connections, waits the same way. On loopback
that is nothing; with phones 20 ms away, a worker answers some 45 requests a second whatever
its CPU could do (``bench/linger.py``).

Here each sync worker hands that wait to a thread of its own (``install``, from
``continental/gunicorn_conf.py``'s ``post_fork``, which says why not the threaded ones): the
worker sends its FIN at once (``shutdown``) and goes on to the next request; the thread
waits on all the connections handed to it together (one ``selectors`` loop) and closes each
when the phone has closed its side, when 64 KB were drained, or after 2 s, as gunicorn
would have. A connection whose
phone has closed already, or a TLS one (gunicorn's own ``certfile``), is closed at once as
before.
"""

from __future__ import annotations

import contextlib
import logging
import os
import selectors
import socket
import ssl
import threading
import time

from gunicorn import util

log = logging.getLogger(__name__)

LINGER = 2.0  # seconds a connection waits for the phone's FIN at most (gunicorn's own)
MAX_DRAIN = 65536  # bytes read from a phone that keeps sending, at most (gunicorn's own)
MOST = 2048  # connections lingering at once in a worker; beyond, the next closes at once


class Closer:
    """A thread that lingers on connections whose FIN was sent, and closes them."""

    def __init__(self) -> None:
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._lock = threading.Lock()
        self._handed: list[socket.socket] = []
        # socket -> [deadline, bytes drained]
        self._lingering: dict[socket.socket, list[float]] = {}
        self._thread = threading.Thread(target=self._run, name="closer", daemon=True)
        self._thread.start()

    def __len__(self) -> int:
        return len(self._lingering) + len(self._handed)

    def hand(self, sock: socket.socket) -> None:
        """Linger on ``sock`` (its FIN sent) until the phone closes; the caller goes on."""
        with self._lock:
            self._handed.append(sock)
        with contextlib.suppress(OSError):  # the pipe is full: the thread is awake already
            self._wake_w.send(b"\0")

    def _run(self) -> None:
        while True:
            try:
                self._turn()
            except Exception:  # never let the thread die: the worker would linger on nothing
                log.exception("closing the answered connections")
                time.sleep(0.1)

    def _turn(self) -> None:
        now = time.monotonic()
        timeout = min((d[0] for d in self._lingering.values()), default=now + 60) - now
        for key, _ in self._selector.select(max(timeout, 0)):
            if key.data is None:
                with contextlib.suppress(OSError):
                    while self._wake_r.recv(4096):
                        pass
                continue
            self._drain(key.fileobj)  # type: ignore[arg-type]
        with self._lock:
            handed, self._handed = self._handed, []
        now = time.monotonic()
        for sock in handed:
            if sock in self._lingering:
                continue  # handed twice (gunicorn's error path ends a connection twice)
            try:
                sock.setblocking(False)
                self._selector.register(sock, selectors.EVENT_READ, True)
            except (OSError, ValueError, KeyError):
                _close(sock)
                continue
            self._lingering[sock] = [now + LINGER, 0]
        for sock in [s for s, d in self._lingering.items() if d[0] <= now]:
            self._end(sock)

    def _drain(self, sock: socket.socket) -> None:
        state = self._lingering.get(sock)
        if state is None:
            return
        try:
            data = sock.recv(4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        state[1] += len(data)
        if not data or state[1] >= MAX_DRAIN:
            self._end(sock)

    def _end(self, sock: socket.socket) -> None:
        self._lingering.pop(sock, None)
        with contextlib.suppress(KeyError, ValueError, OSError):
            self._selector.unregister(sock)
        _close(sock)


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.close()


_closer: Closer | None = None
_pid: int | None = None
_starting = threading.Lock()


def _this_workers() -> Closer:
    """This process's closer, started on first use (after the fork: a thread is not forked)."""
    global _closer, _pid
    with _starting:
        if _closer is None or _pid != os.getpid():
            _closer, _pid = Closer(), os.getpid()
        return _closer


def close_later(sock: socket.socket) -> None:
    """gunicorn's ``util.close_graceful``, its waiting done by this worker's ``Closer``."""
    if isinstance(sock, ssl.SSLSocket):
        return _GRACEFUL(sock)
    try:
        sock.shutdown(socket.SHUT_WR)  # the FIN: the phone has the whole answer now
    except OSError:
        return _close(sock)  # the phone is gone already
    try:
        sock.setblocking(False)
        if sock.recv(4096) == b"":
            return _close(sock)  # the phone had closed its side: nothing to wait for
    except BlockingIOError:
        pass  # nothing to read yet: the phone's FIN is on its way
    except OSError:
        return _close(sock)
    lingering = _this_workers()
    if len(lingering) >= MOST:
        return _close(sock)
    lingering.hand(sock)


_GRACEFUL = util.close_graceful  # gunicorn's own, for TLS connections


def install() -> None:
    """In a gunicorn worker (``post_fork``): its connections end through ``close_later``.
    The sync and threaded workers call ``util.close_graceful`` through the module."""
    util.close_graceful = close_later
