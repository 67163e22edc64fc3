"""The stream process's server (continental/liveserver.py) under connections that never finish
their request: each is closed after the request timeout, every connection counts in the
limits, the process never runs out of files while it accepts, and what it refuses is one log
line per interval, not a traceback per connection. Real stream processes on the test
database."""

from __future__ import annotations

import contextlib
import http.client
import socket
import time
from pathlib import Path

import pytest

from tests.factories import GameFactory, record_classic
from tests.live_process import Events, StreamProcess

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def streams_closed():
    yield
    Events.close_all()


def half_open(process: StreamProcess, sent: bytes = b"") -> socket.socket:
    """A connection that sent ``sent`` (nothing, or part of a request) and then nothing."""
    sock = socket.create_connection(("127.0.0.1", process.port), timeout=30)
    if sent:
        sock.sendall(sent)
    return sock


def closed_by_server(sock: socket.socket, deadline: float | None = None) -> bytes | None:
    """What the server sent before it closed ``sock`` (None: still open after its timeout,
    or at ``deadline``, a time.monotonic() shared by several sockets)."""
    data = b""
    if deadline is not None:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
    try:
        while chunk := sock.recv(4096):
            data += chunk
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass
    return data


def health(process: StreamProcess) -> int | None:
    conn = http.client.HTTPConnection("127.0.0.1", process.port, timeout=5)
    try:
        conn.request("GET", "/live/health")
        return conn.getresponse().status
    except (OSError, http.client.HTTPException):
        return None
    finally:
        conn.close()


def wait_for(condition, seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def log_lines(path: Path) -> list[str]:
    return path.read_text(errors="replace").splitlines() if path.exists() else []


def test_a_connection_that_never_finishes_its_request_is_closed_within_the_timeout():
    """Nothing sent, a request line and one header, and half a second request on a kept
    connection: each is closed by the server, while a stream open all along is not."""
    game = GameFactory()
    with StreamProcess(LIVE_REQUEST_TIMEOUT="1") as process:
        stream = Events(process.url, f"/live/games/{game.viewer_token}")
        assert stream.status == 200
        silent = half_open(process)
        stalled = half_open(process, b"GET /live/health HTTP/1.1\r\nHost: x\r\n")
        kept = half_open(process, b"GET /live/health HTTP/1.1\r\nHost: x\r\n\r\n")
        kept.settimeout(10)
        answer = b""
        while not answer.endswith(b"0\r\n\r\n"):  # the whole (chunked) answer
            answer += kept.recv(4096)
        assert answer.startswith(b"HTTP/1.1 200")
        kept.settimeout(30)
        kept.sendall(b"GET /live/health HTTP/1.1\r\nHo")
        with silent, stalled, kept:
            deadline = time.monotonic() + 30  # far above the 1 s asked for
            assert closed_by_server(silent, deadline) == b""
            assert closed_by_server(stalled, deadline) == b""
            assert closed_by_server(kept, deadline) == b""
        record_classic(game, 0)
        kinds = []
        while (item := stream.next())[0] != "version" or item[1] == "1":
            kinds.append(item[0])
        assert item[1] == "2", "the stream was closed with the half-open connections"


def test_half_open_connections_count_in_the_limits_and_never_exhaust_the_files(tmp_path):
    """With an open-files limit of 200, 260 connections that send nothing: those beyond the
    limit are refused at once with a bare 503 (no "Too many open files" in the log, no flood
    of tracebacks), the others are closed after the timeout, and then the process answers
    again."""
    log = tmp_path / "live.log"
    held: list[socket.socket] = []
    with StreamProcess(
        nofile=200, log=log, LIVE_REQUEST_TIMEOUT="3", LIVE_PER_ADDRESS="1000"
    ) as process:
        try:
            for _ in range(260):
                with contextlib.suppress(OSError):
                    held.append(half_open(process))
            deadline = time.monotonic() + 30  # ten times the timeout asked for
            answers = [closed_by_server(sock, deadline) for sock in held]
            assert None not in answers, "a half-open connection was never closed"
            refused = [a for a in answers if a.startswith(b"HTTP/1.1 503")]
            assert refused, "none was refused beyond the limit"
            assert all(b"Retry-After: 30" in a for a in refused)
            assert len(refused) < len(answers), "none was let in before the limit"
        finally:
            for sock in held:
                sock.close()
        assert wait_for(lambda: health(process) == 200), "the process answers no more"
        assert process.process is not None
        assert process.process.poll() is None
    lines = log_lines(log)
    text = "\n".join(lines)
    assert "Traceback" not in text
    assert "Too many open files" not in text
    assert len(lines) <= 6, text[:3000]


def test_connections_from_one_address_are_limited_at_accept():
    """LIVE_PER_ADDRESS=3: an address holds its 3 streams and a few more connections (a
    reload, a refusal to read); the rest is refused at once, before any request."""
    with StreamProcess(LIVE_PER_ADDRESS="3", LIVE_REQUEST_TIMEOUT="30") as process:
        held = [half_open(process) for _ in range(3 + 8)]
        extra = half_open(process)
        with extra:
            extra.settimeout(10)
            answer = closed_by_server(extra)
        assert answer is not None
        assert answer.startswith(b"HTTP/1.1 503"), answer
        held.pop().close()
        assert wait_for(lambda: health(process) == 200)
        for sock in held:
            sock.close()


def test_a_burst_of_refused_streams_logs_one_line_and_the_held_streams_go_on(tmp_path):
    """An open-files limit of 100: 36 streams held, then a burst of 100 more is refused (503
    from the app, then at accept) with one log line, and the held streams still hear every
    change."""
    game = GameFactory()
    log = tmp_path / "live.log"
    path = f"/live/games/{game.viewer_token}"
    with StreamProcess(nofile=100, log=log) as process:
        held = [Events(process.url, path) for _ in range(36)]
        assert {e.status for e in held} == {200}
        burst = [half_open(process, b"GET " + path.encode() + b" HTTP/1.1\r\nHost: x\r\n\r\n")]
        for _ in range(99):
            with contextlib.suppress(OSError):
                burst.append(
                    half_open(
                        process, burst and b"GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % path.encode()
                    )
                )
        deadline = time.monotonic() + 30
        answers = [closed_by_server(sock, deadline) for sock in burst]
        for sock in burst:
            sock.close()
        assert all(a is not None and (a == b"" or a.startswith(b"HTTP/1.1 503")) for a in answers)
        assert sum(1 for a in answers if a and a.startswith(b"HTTP/1.1 503")) >= 30
        record_classic(game, 0)
        for events in (held[0], held[-1]):
            assert events.next()[1] == "1"
            assert events.next()[1] == "2"
    lines = log_lines(log)
    text = "\n".join(lines)
    assert "Traceback" not in text
    assert len([line for line in lines if "refused" in line]) == 1, text[:3000]


def test_serve_runs_the_stream_process_under_this_server():
    from continental.bootstrap import LIVE_COMMAND

    assert LIVE_COMMAND[1:3] == ("-m", "continental.liveserver")
