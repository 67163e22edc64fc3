"""Where an answer's time went, for bench/load.py: a ``Server-Timing`` header (the W3C
header browsers' developer tools show) with this worker's CPU for the request, the garbage
collector's share of it, and the whole time in the worker. What is left of the whole after
the CPU is waiting: for a core, for SQLite's one writer, for the disk. On SQLite the answer
also says how long its transactions waited for the other writers (``writer``) and how long
their commits took (``commit``: a commit may write the WAL back into the database).

Only with ``BENCH_VIEWS`` (off in production): the figures tell a stranger how loaded the
server is.
"""

from __future__ import annotations

import gc
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


class ServerTimingMiddleware:
    """First in the chain: the whole of the request as this worker served it."""

    def __init__(self, get_response):
        self.get_response = get_response
        if _collecting not in gc.callbacks:
            gc.callbacks.append(_collecting)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        wall, cpu = time.perf_counter(), time.thread_time()
        _local.gc = 0.0
        take_spent()
        response = self.get_response(request)
        cpu = time.thread_time() - cpu
        wall = time.perf_counter() - wall
        writer, commit = take_spent()
        response["Server-Timing"] = (
            f"cpu;dur={cpu * 1000:.2f}, gc;dur={_local.gc * 1000:.2f}, app;dur={wall * 1000:.2f},"
            f" writer;dur={writer * 1000:.2f}, commit;dur={commit * 1000:.2f}"
        )
        return response
