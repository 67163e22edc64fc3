"""Where an answer's time went, for bench/load.py: a ``Server-Timing`` header (the W3C
header browsers' developer tools show) with this worker's CPU for the request, the garbage
collector's share of it, and the whole time in the worker. What is left of the whole after
the CPU is waiting: for a core, for SQLite's one writer, for the disk.

Only with ``BENCH_VIEWS`` (off in production): the figures tell a stranger how loaded the
server is.
"""

from __future__ import annotations

import gc
import threading
import time

from django.http import HttpRequest, HttpResponse

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
        response = self.get_response(request)
        cpu = time.thread_time() - cpu
        wall = time.perf_counter() - wall
        response["Server-Timing"] = (
            f"cpu;dur={cpu * 1000:.2f}, gc;dur={_local.gc * 1000:.2f}, app;dur={wall * 1000:.2f}"
        )
        return response
