"""gunicorn's threaded worker, reading each request whole before a thread takes it.

gunicorn's own threaded worker (``gthread``) hands a connection to one of its threads as soon
as the first bytes arrive, and that thread then reads the rest of the request: a phone on a
flaky Wi-Fi that sent its request line and one header and then went quiet holds the thread
until it comes back, and 8 of them (``serve``: 2 workers x 4 threads) stop every page. Here
the worker's main loop, which already waits on every socket at once, reads the request itself
(without blocking: what has arrived) until its head is complete, and the body too when it is
small (``AHEAD``, the forms' size); only then does a thread take it, with those bytes. A
request that has not arrived ``REQUEST_TIMEOUT`` seconds after its connection opened (or
after the previous answer, on a kept connection) is closed. A bigger body (an import) is read
by the thread as before. At the worker's limit of connections (``worker_connections``, 1,000)
the oldest connection still sending its request is closed to make room, so stalled ones never
stop the worker accepting. TLS (gunicorn's own ``certfile``) and HTTP/2 by prior knowledge
keep gunicorn's way.

``continental/gunicorn_conf.py`` uses this worker whenever a worker has threads (``serve``
does); a proxy that reads whole requests itself (nginx, Caddy) makes it a no-op.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import selectors
import time
from functools import partial

from gunicorn.http2 import negotiation
from gunicorn.workers.gthread import TConn, ThreadWorker

REQUEST_TIMEOUT = float(os.environ.get("GUNICORN_REQUEST_TIMEOUT", "10"))
HEAD_MOST = 64 * 1024  # a head bigger than gunicorn's limits is the parser's to refuse
AHEAD = 256 * 1024  # a body up to this size is read before a thread takes the request
HEAD_END = b"\r\n\r\n"
CONTENT_LENGTH = re.compile(rb"\r\ncontent-length[ \t]*:[ \t]*(\d{1,12})[ \t]*\r\n", re.I)


class ReadConn(TConn):
    """A connection with the bytes the main loop read ahead for its next request."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.ahead = bytearray()
        self.deadline = 0.0

    def init(self) -> None:
        super().init()
        if self.ahead and self.parser is not None:
            self.parser.unreader.unread(bytes(self.ahead))
            self.ahead = bytearray()

    def whole(self) -> bool:
        """Whether what was read holds the request's head and, when small, its body."""
        end = self.ahead.find(HEAD_END)
        if end < 0:
            return len(self.ahead) > HEAD_MOST
        length = CONTENT_LENGTH.search(self.ahead, 0, end + 2)
        body = int(length[1]) if length else 0
        return body > AHEAD or len(self.ahead) >= end + len(HEAD_END) + body


class WholeRequestWorker(ThreadWorker):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.reading: dict[ReadConn, None] = {}  # in the order of their deadlines

    def accept(self, listener) -> None:
        try:
            client_sock, client_addr = listener.accept()
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        if self.cfg.is_ssl or negotiation.prior_knowledge_allowed(self.cfg, client_addr):
            client_sock.setblocking(True)
            self.enqueue_req(TConn(self.cfg, client_sock, client_addr, listener.getsockname()))
            return
        conn = ReadConn(self.cfg, client_sock, client_addr, listener.getsockname())
        # At its connections' limit the worker would stop accepting: the oldest connection
        # still sending its request goes instead, so the stalled ones never shut the door.
        while self.nr_conns >= self.worker_connections and self.reading:
            self._drop(next(iter(self.reading)))
        self._read_request(conn)

    def on_client_socket_readable(self, conn, client) -> None:
        """A kept connection sends its next request: read it whole first, too."""
        if not isinstance(conn, ReadConn):
            super().on_client_socket_readable(conn, client)
            return
        self.poller.unregister(client)
        self.keepalived_conns.remove(conn)
        self._read_request(conn)

    def _read_request(self, conn: ReadConn) -> None:
        conn.ahead = bytearray()
        conn.deadline = time.monotonic() + REQUEST_TIMEOUT
        self.reading[conn] = None
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._readable, conn))

    def _readable(self, conn: ReadConn, _sock=None) -> None:
        try:
            data = conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:  # the phone closed before its request was whole
            self._drop(conn)
            return
        conn.ahead += data
        if conn.whole():
            self.poller.unregister(conn.sock)
            del self.reading[conn]
            conn.data_ready = True
            self.enqueue_req(conn)

    def _drop(self, conn: ReadConn) -> None:
        with contextlib.suppress(OSError, KeyError, ValueError):
            self.poller.unregister(conn.sock)
        self.reading.pop(conn, None)
        self.nr_conns -= 1
        conn.close()

    def murder_pending(self) -> None:
        """gunicorn's own, and the connections whose request did not arrive in time."""
        super().murder_pending()
        now = time.monotonic()
        for conn in list(self.reading):
            if conn.deadline > now and self.alive:
                break
            self._drop(conn)
