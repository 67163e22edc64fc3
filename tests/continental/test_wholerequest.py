"""continental/wholerequest.py: gunicorn's threaded worker as ``serve`` runs it (the worker
class of continental/gunicorn_conf.py) reads each request whole before a thread takes it, so
connections that stall halfway through their request (a phone on a flaky Wi-Fi, or on
purpose) never hold the threads; such a connection is closed after the request timeout."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from continental.wholerequest import ReadConn

ROOT = Path(__file__).resolve().parents[2]

APP = """
def app(environ, start_response):
    body = environ["wsgi.input"].read()
    text = f"{environ['REQUEST_METHOD']} {len(body)}".encode()
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(text)))])
    return [text]
"""
# The project's own settings decide the worker class (threads: serve's case).
CONF = """
from continental.gunicorn_conf import worker_class, threads, keepalive
workers = 1
"""


def read_answer(sock: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length")
    )
    while len(body) < length:
        body += sock.recv(65536)
    return body


def request(port: int, timeout: float = 10) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return read_answer(sock)


def stalled(port: int) -> socket.socket:
    """A connection that sent its request line and one header, and then nothing."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    return sock


@contextlib.contextmanager
def gunicorn(folder: Path, timeout: str, conf: str = ""):
    """gunicorn with the project's worker class, one worker of two threads; ``timeout``: the
    request timeout (GUNICORN_REQUEST_TIMEOUT); yields its port."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "app.py").write_text(APP)
    (folder / "conf.py").write_text(CONF + conf)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "gunicorn", "-c", str(folder / "conf.py")),
            *("-b", f"127.0.0.1:{port}", "--chdir", str(folder), "app:app"),
        ],
        cwd=ROOT,
        env={
            "PYTHONPATH": str(ROOT),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "GUNICORN_THREADS": "2",
            "GUNICORN_REQUEST_TIMEOUT": timeout,
        },
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                request(port)
                break
            except OSError:
                assert process.poll() is None, "gunicorn did not start"
                assert time.monotonic() < deadline, "gunicorn did not answer"
                time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(10)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A request timeout of 60 s: far beyond each test's own time."""
    with gunicorn(tmp_path_factory.mktemp("gunicorn"), "60") as port:
        yield port


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory):
    with gunicorn(tmp_path_factory.mktemp("gunicorn-quick"), "1") as port:
        yield port


def still_open(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        return sock.recv(1) != b""
    except BlockingIOError:
        return True
    finally:
        sock.setblocking(True)


def test_stalled_requests_hold_no_thread(server):
    """Twelve connections stalled halfway through their request (the worker has two
    threads): a whole request is answered meanwhile, before any of them is let go."""
    held = [stalled(server) for _ in range(12)]
    try:
        assert request(server) == b"GET 0"
        assert request(server) == b"GET 0"
        assert all(still_open(sock) for sock in held)
    finally:
        for sock in held:
            sock.close()


def test_a_request_that_does_not_arrive_in_time_is_closed(quick_server):
    sock = stalled(quick_server)
    quiet = socket.create_connection(("127.0.0.1", quick_server), timeout=30)  # sends nothing
    with sock, quiet:
        assert sock.recv(1024) == b"", "the stalled connection got an answer"
        assert quiet.recv(1024) == b""


def test_a_body_in_pieces_and_a_kept_connection_are_served_as_before(server):
    body = b"points=" + b"7" * 5000
    with socket.create_connection(("127.0.0.1", server), timeout=10) as sock:
        head = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(body)
        sock.sendall(head + body[:100])
        time.sleep(0.2)  # the rest a moment later, as over a slow Wi-Fi
        sock.sendall(body[100:])
        assert read_answer(sock) == b"POST 5007"
        # The same connection again (kept alive), its request in two pieces.
        sock.sendall(b"GET / HTTP/1.1\r\nHo")
        time.sleep(0.2)
        sock.sendall(b"st: x\r\n\r\n")
        assert read_answer(sock) == b"GET 0"


def test_a_big_body_is_left_to_the_thread(server):
    body = b"x" * 300_000  # beyond what the main loop reads ahead
    with socket.create_connection(("127.0.0.1", server), timeout=10) as sock:
        sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(body))
        sock.sendall(body)
        assert read_answer(sock) == b"POST 300000"


def test_stalled_connections_never_fill_the_worker(tmp_path):
    """A worker takes 20 connections at most (``worker_connections``): of 40 stalled ones, the
    oldest are let go to make room, and a whole request is still taken and answered."""
    with gunicorn(tmp_path, "60", "worker_connections = 20\n") as port:
        held = [stalled(port) for _ in range(40)]
        try:
            assert request(port) == b"GET 0"
            assert not all(still_open(sock) for sock in held)
        finally:
            for sock in held:
                sock.close()


@pytest.mark.parametrize(
    ("ahead", "whole"),
    [
        (b"GET / HTTP/1.1\r\nHost: x\r\n", False),
        (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", True),
        (b"POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\nab", False),
        (b"POST / HTTP/1.1\r\ncontent-length:4\r\n\r\nabcd", True),
        (b"POST / HTTP/1.1\r\nContent-Length: 9999999\r\n\r\n", True),  # the thread reads it
        (b"GET / HTTP/1.1\r\nX: " + b"y" * 70_000, True),  # too big: the parser refuses it
    ],
)
def test_what_counts_as_a_whole_request(ahead, whole):
    conn = ReadConn.__new__(ReadConn)
    conn.ahead = bytearray(ahead)
    assert conn.whole() is whole


def test_serve_and_every_threaded_worker_use_it(monkeypatch):
    import runpy

    monkeypatch.setenv("GUNICORN_THREADS", "4")
    monkeypatch.delenv("GUNICORN_WORKER_CLASS", raising=False)
    conf = runpy.run_path(str(ROOT / "continental" / "gunicorn_conf.py"))
    assert conf["worker_class"] == "continental.wholerequest.WholeRequestWorker"
    monkeypatch.setenv("GUNICORN_THREADS", "1")
    conf = runpy.run_path(str(ROOT / "continental" / "gunicorn_conf.py"))
    assert conf["worker_class"] == "sync"
