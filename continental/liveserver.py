"""The stream process's server: uvicorn's HTTP protocol (h11) and lifespan behind an accept
loop of the app's own, which counts every open connection, not only the streams.

    python -m continental.liveserver --host 127.0.0.1 --port 8001

uvicorn alone holds a connection that never finishes its request for ever (its keep-alive
timeout starts after an answer only), counts it in no limit (``--limit-concurrency`` answers
503 once a request has arrived, and only then), and leaves accepting to asyncio, whose accept
loop, once the open-files limit is met, logs a traceback for every try and schedules a
hundred more (a burst of half-open connections wrote 97 MB of them in 30 s while the process
answered nothing). Here (``Gate``):

- a connection that has not sent a whole request ``LIVE_REQUEST_TIMEOUT`` seconds after it
  opened, or after its last answer, is closed (checked twice a second);
- every open connection counts: at most ``max_connections()`` (the open-files limit less half
  of ``live.FD_MARGIN``; the streams' own limit, 503 from the app, comes 32 files earlier),
  and, unless a proxy is trusted (``TRUSTED_PROXY_HOPS``: then every connection is the
  proxy's), ``LIVE_PER_ADDRESS`` + ``PER_ADDRESS_SLACK`` from one address; a connection
  beyond is answered a bare 503 with ``Retry-After`` and closed at once, so the process never
  runs out of files while it accepts;
- should accepting fail all the same (the system's own table full), the loop rests a moment
  and says so once;
- what was refused or closed is logged as one line per ``LIVE_LOG_EVERY`` seconds with its
  counts (``live.refusals``), never a line per connection.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import socket
import sys
import time
from collections import Counter
from functools import partial

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

PER_ADDRESS_SLACK = 8  # connections from one address beyond its streams: reloads, a refusal
REFUSED_BODY = b"Too many connections; the page asks instead.\n"
REFUSED = (
    b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 30\r\nCache-Control: no-store\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\nConnection: close\r\n"
    b"Content-Length: %d\r\n\r\n%s" % (len(REFUSED_BODY), REFUSED_BODY)
)
OUT_OF_FILES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


class Tracked(H11Protocol):
    """uvicorn's protocol, telling the gate when its connection ends."""

    gate: Gate
    address = "?"
    made = False
    since = 0.0  # when its wait for a request began
    last_cycle: object = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self.made = True
        self.gate.protocols.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.gate.lost(self)
        super().connection_lost(exc)


def _same(protocol: Tracked) -> Tracked:
    return protocol


class Gate:
    def __init__(self, server: LiveServer, listener: socket.socket) -> None:
        from django.conf import settings

        from continental import live

        self.server, self.listener, self.live = server, listener, live
        self.loop = asyncio.get_running_loop()
        self.most = live.max_connections()
        hops = settings.TRUSTED_PROXY_HOPS
        self.per_address = 0 if hops else settings.LIVE_PER_ADDRESS + PER_ADDRESS_SLACK
        self.timeout = settings.LIVE_REQUEST_TIMEOUT
        self.count = 0
        self.by_address: Counter[str] = Counter()
        self.protocols: set[Tracked] = set()
        self.accepting = False
        self.closed = False

    def start(self) -> None:
        self.listener.setblocking(False)
        self.resume()

    def resume(self) -> None:
        if not self.closed and not self.accepting:
            self.loop.add_reader(self.listener.fileno(), self.accept)
            self.accepting = True

    def rest(self, seconds: float) -> None:
        if self.accepting:
            self.loop.remove_reader(self.listener.fileno())
            self.accepting = False
        self.loop.call_later(seconds, self.resume)

    def close(self) -> None:
        self.closed = True
        if self.accepting:
            self.loop.remove_reader(self.listener.fileno())
            self.accepting = False
        self.listener.close()

    def accept(self) -> None:
        refusals = self.live.refusals
        for _ in range(64):
            try:
                sock, peer = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:
                continue
            except OSError as exc:
                # Out of files or memory (the margin is gone: the system's table is full), or
                # anything else: rest a moment, say it once per interval, never a traceback.
                out = exc.errno in OUT_OF_FILES
                refusals.add(f"accept failed ({exc.strerror or exc})")
                self.rest(0.5 if out else 1.0)
                return
            address = peer[0] if isinstance(peer, tuple) else "?"
            if self.count >= self.most:
                self.refuse(sock, "503 at accept: connections at the open-files limit")
                continue
            if self.per_address and self.by_address[address] >= self.per_address:
                self.refuse(sock, "503 at accept: too many connections from one address")
                continue
            self.count += 1
            self.by_address[address] += 1
            sock.setblocking(False)
            protocol = self.protocol(address)
            made = self.loop.create_task(
                self.loop.connect_accepted_socket(partial(_same, protocol), sock)
            )
            made.add_done_callback(partial(self._made, protocol, sock))

    def protocol(self, address: str) -> Tracked:
        server = self.server
        protocol = Tracked(
            config=server.config,
            server_state=server.server_state,
            app_state=server.lifespan.state,
        )
        protocol.gate, protocol.address, protocol.since = self, address, time.monotonic()
        return protocol

    def _made(self, protocol: Tracked, sock: socket.socket, task: asyncio.Task) -> None:
        if (task.cancelled() or task.exception() is not None) and not protocol.made:
            self._release(protocol.address)
            with contextlib.suppress(OSError):
                sock.close()

    def lost(self, protocol: Tracked) -> None:
        if protocol in self.protocols:
            self.protocols.discard(protocol)
            self._release(protocol.address)

    def _release(self, address: str) -> None:
        self.count -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]

    def refuse(self, sock: socket.socket, reason: str) -> None:
        self.live.refusals.add(reason)
        with contextlib.suppress(OSError):
            sock.setblocking(False)
            sock.send(REFUSED)
        with contextlib.suppress(OSError):
            sock.close()

    def sweep(self) -> None:
        """Close the connections whose request has not arrived within the timeout: waiting
        since they opened, or since their last answer was complete."""
        now = time.monotonic()
        for protocol in list(self.protocols):
            cycle = protocol.cycle
            if cycle is not None and not cycle.response_complete:
                continue  # a request being answered (a stream, for its lifetime)
            if cycle is not protocol.last_cycle:
                protocol.last_cycle, protocol.since = cycle, now
            elif now - protocol.since > self.timeout and not protocol.transport.is_closing():
                self.live.refusals.add("closed: no whole request in time")
                protocol.transport.close()
        self.live.refusals.flush()


class LiveServer(uvicorn.Server):
    """uvicorn's server with the gate as its accept loop."""

    gate: Gate | None = None

    def __init__(self, config: uvicorn.Config, listener: socket.socket) -> None:
        super().__init__(config)
        self.listener = listener

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await self.lifespan.startup()  # raises the open-files limit first (live._lifespan)
        if self.lifespan.should_exit:
            sys.exit(3)
        self.servers = []
        self.gate = Gate(self, self.listener)
        self.gate.start()
        self.started = True

    async def on_tick(self, counter: int) -> bool:
        if self.gate is not None and counter % 5 == 0:
            self.gate.sweep()
        return await super().on_tick(counter)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if self.gate is not None:
            self.gate.close()
        await super().shutdown(sockets)


def listen(host: str, port: int, backlog: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family, backlog=backlog)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--log-level", default="warning")
    parser.add_argument("--timeout-graceful-shutdown", type=int, default=2)
    args = parser.parse_args(argv)
    config = uvicorn.Config(
        "continental.live:app",
        host=args.host,
        port=args.port,
        http="h11",
        lifespan="on",
        access_log=False,  # it would name every phone's link
        log_level=args.log_level,
        timeout_graceful_shutdown=args.timeout_graceful_shutdown,
    )
    listener = listen(args.host, args.port, config.backlog)
    LiveServer(config, listener).run()


if __name__ == "__main__":
    main()
