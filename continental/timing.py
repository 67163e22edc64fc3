"""Where an answer's time went, for bench/load.py: a ``Server-Timing`` header (the W3C
header browsers' developer tools show) with this worker's CPU for the request, the garbage
collector's share of it, and the whole time in the worker. What is left of the whole after
the CPU is waiting: for a core, for SQLite's one writer, for the disk. On SQLite the answer
also says how long its transactions waited for the other writers (``writer``) and how long
their commits took (``commit``: a commit may write the WAL back into the database). A
request that says when the bench's client sent it (``X-Bench-Sent``) is told how long it
waited before this middleware took it (``queued``); every answer says how many requests the
other workers were in when it began (``others``, ``InProgress``).

Only with ``BENCH_VIEWS`` (off in production): the figures tell a stranger how loaded the
server is.
"""

from __future__ import annotations

import gc
import mmap
import os
import threading
import time

from django.http import HttpRequest, HttpResponse

from continental.sqlite.base import take_spent

_local = threading.local()


def _collecting(phase: str, info: dict) -> None:
    if phase == "start":
        _local.gc_began = time.perf_counter()
    else:
        began = getattr(_local, "gc_began", None)
        if began is not None:
            _local.gc = getattr(_local, "gc", 0.0) + time.perf_counter() - began
            _local.gc_began = None


class InProgress:
    """How many requests the server's workers are in at once: a byte per worker process (by
    its pid, so two workers may now and then share one) in memory shared by every process
    forked after this one (gunicorn loads the app in its master first). A request told it
    waited long before a worker took it (``queued``) and that the others were all busy then
    waited for a free worker. The viewers' answer a POST renders through the middleware
    (scorepad/warm.py) counts as one more request while it renders."""

    SLOTS = 251

    def __init__(self) -> None:
        self.board = mmap.mmap(-1, self.SLOTS)
        self.lock = threading.Lock()

    def enter(self) -> int:
        """This request begins; the number of requests in progress besides it."""
        slot = os.getpid() % self.SLOTS
        with self.lock:
            self.board[slot] = min(255, self.board[slot] + 1)
            return sum(self.board[:]) - 1

    def leave(self) -> None:
        slot = os.getpid() % self.SLOTS
        with self.lock:
            self.board[slot] = max(0, self.board[slot] - 1)


IN_PROGRESS = InProgress()


class ServerTimingMiddleware:
    """First in the chain: the whole of the request as this worker served it."""

    def __init__(self, get_response):
        self.get_response = get_response
        if _collecting not in gc.callbacks:
            gc.callbacks.append(_collecting)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        queued = _queued(request.headers.get("X-Bench-Sent", ""))
        others = IN_PROGRESS.enter()
        wall, cpu = time.perf_counter(), time.thread_time()
        _local.gc = 0.0
        take_spent()
        try:
            response = self.get_response(request)
        finally:
            IN_PROGRESS.leave()
        cpu = time.thread_time() - cpu
        wall = time.perf_counter() - wall
        writer, commit = take_spent()
        response["Server-Timing"] = (
            f"cpu;dur={cpu * 1000:.2f}, gc;dur={_local.gc * 1000:.2f}, app;dur={wall * 1000:.2f},"
            f" writer;dur={writer * 1000:.2f}, commit;dur={commit * 1000:.2f}"
            + (f", queued;dur={queued * 1000:.2f}" if queued is not None else "")
            + f", others;dur={others}"
        )
        return response


def _queued(sent: str) -> float | None:
    """Seconds from the moment the bench's client wrote the request (``X-Bench-Sent``, its
    wall clock on this machine) to this worker's middleware taking it: the wait for a free
    worker, gunicorn's reading of it and Django's handler before the first middleware."""
    try:
        return max(0.0, time.time() - float(sent)) if sent else None
    except ValueError:
        return None
