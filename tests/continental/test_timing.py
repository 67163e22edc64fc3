"""Server-Timing for bench/load.py (continental/timing.py): with BENCH_VIEWS each answer says
the worker's CPU, its garbage collector's share and its whole time for the request."""

import gc
import re

import pytest
from django.conf import settings as django_settings

TIMING = re.compile(
    r"cpu;dur=([\d.]+), gc;dur=([\d.]+), app;dur=([\d.]+),"
    r" writer;dur=([\d.]+), commit;dur=([\d.]+)"
)


@pytest.fixture
def timed(settings):
    settings.MIDDLEWARE = ["continental.timing.ServerTimingMiddleware", *settings.MIDDLEWARE]
    yield
    from continental.timing import _collecting

    if _collecting in gc.callbacks:
        gc.callbacks.remove(_collecting)


def test_each_answer_says_where_its_time_went(client, db, timed):
    answer = client.get("/en/")
    cpu, collected, whole, writer, commit = map(
        float, TIMING.fullmatch(answer["Server-Timing"]).groups()
    )
    assert cpu > 0
    assert collected <= whole
    assert writer + commit <= whole
    assert cpu <= whole * 1.5 + 1  # a thread's CPU clock ticks coarser than the wall clock


def test_only_the_bench_asks_for_it(client, db):
    assert "continental.timing.ServerTimingMiddleware" not in django_settings.MIDDLEWARE
    assert "Server-Timing" not in client.get("/en/")
