"""Server-Timing for bench/load.py (continental/timing.py): with BENCH_VIEWS each answer says
the worker's CPU, its garbage collector's share and its whole time for the request."""

import gc
import re

import pytest
from django.conf import settings as django_settings

TIMING = re.compile(
    r"cpu;dur=([\d.]+), gc;dur=([\d.]+), app;dur=([\d.]+),"
    r" writer;dur=([\d.]+), commit;dur=([\d.]+), others;dur=(\d+)"
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
    cpu, collected, whole, writer, commit, others = map(
        float, TIMING.fullmatch(answer["Server-Timing"]).groups()
    )
    assert others == 0  # no other request in progress
    assert cpu > 0
    assert collected <= whole
    assert writer + commit <= whole
    assert cpu <= whole * 1.5 + 1  # a thread's CPU clock ticks coarser than the wall clock


def test_only_the_bench_asks_for_it(client, db):
    assert "continental.timing.ServerTimingMiddleware" not in django_settings.MIDDLEWARE
    assert "Server-Timing" not in client.get("/en/")


def test_a_request_that_says_when_it_was_sent_is_told_how_long_it_waited(client, db, timed):
    import time

    answer = client.get("/en/", headers={"X-Bench-Sent": f"{time.time() - 0.25:.6f}"})
    queued = re.search(r", queued;dur=([\d.]+), others;dur=0$", answer["Server-Timing"])
    assert queued
    assert 250 <= float(queued.group(1)) < 10_000
    # Without the header, or with one that is not a time, nothing is said of it.
    assert "queued" not in client.get("/en/")["Server-Timing"]
    assert "queued" not in client.get("/en/", headers={"X-Bench-Sent": "soon"})["Server-Timing"]


def test_an_answer_says_how_many_other_requests_were_in_progress(client, db, timed):
    from continental.timing import IN_PROGRESS

    IN_PROGRESS.enter()  # another worker's request, in the memory every worker shares
    try:
        busy = client.get("/en/")["Server-Timing"]
    finally:
        IN_PROGRESS.leave()
    assert busy.endswith(", others;dur=1")
    assert client.get("/en/")["Server-Timing"].endswith(", others;dur=0")
