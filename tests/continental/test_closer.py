"""continental/closer.py: a gunicorn worker hands the end of each answered connection (waiting
for the phone's FIN) to a thread, and serves the next phone meanwhile."""

import runpy
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from gunicorn import util
from gunicorn.workers.gthread import ThreadWorker
from gunicorn.workers.sync import SyncWorker

from continental import closer

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pair():
    """(server side, phone side) of a loopback TCP connection."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        phone = socket.create_connection(listener.getsockname(), timeout=5)
        server, _ = listener.accept()
    yield server, phone
    for sock in (server, phone):
        sock.close()


def wait_closed(sock: socket.socket, seconds: float = 3.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if sock.fileno() == -1:
            return True
        time.sleep(0.01)
    return False


def read_all(sock: socket.socket) -> bytes:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


@pytest.mark.parametrize("timeout", [None, 5.0])
def test_the_worker_goes_on_while_the_phone_still_holds_its_side(pair, timeout):
    server, phone = pair
    server.settimeout(timeout)  # a socket with a timeout must not wait for it either
    server.sendall(b"the answer")
    begun = time.monotonic()
    closer.close_later(server)
    assert time.monotonic() - begun < 0.1, "the worker waited for the phone"
    assert read_all(phone) == b"the answer"  # all of it, then the FIN
    assert server.fileno() != -1, "closed before the phone closed its side"
    phone.close()
    assert wait_closed(server), "the connection was never closed"


def test_a_phone_that_never_closes_is_let_go_after_the_linger(pair, monkeypatch):
    monkeypatch.setattr(closer, "LINGER", 0.2)
    server, _phone = pair
    closer.close_later(server)
    assert wait_closed(server, 2.0)


def test_a_phone_that_keeps_sending_is_let_go_after_the_drain(pair, monkeypatch):
    monkeypatch.setattr(closer, "MAX_DRAIN", 10_000)
    server, phone = pair
    closer.close_later(server)
    phone.sendall(b"x" * 20_000)
    assert wait_closed(server)


def test_a_request_body_left_unread_does_not_cut_the_answer_short(pair):
    """The reason for lingering at all: closing on unread data resets the connection."""
    server, phone = pair
    phone.sendall(b"a body the app never read" * 100)
    time.sleep(0.05)
    server.sendall(b"x" * 200_000)
    closer.close_later(server)
    assert len(read_all(phone)) == 200_000
    phone.close()
    assert wait_closed(server)


def test_a_phone_that_closed_first_is_closed_at_once(pair):
    server, phone = pair
    phone.close()
    time.sleep(0.05)
    closer.close_later(server)
    assert server.fileno() == -1


def test_the_server_config_installs_it_in_each_sync_worker(monkeypatch):
    monkeypatch.setattr(util, "close_graceful", util.close_graceful)  # restored after
    monkeypatch.delenv("GUNICORN_CLOSE_IN_WORKER", raising=False)
    conf = runpy.run_path(str(ROOT / "continental" / "gunicorn_conf.py"))
    conf["post_fork"](None, SyncWorker.__new__(SyncWorker))
    assert util.close_graceful is closer.close_later


@pytest.mark.parametrize(
    ("worker", "asked"), [(ThreadWorker, ""), (SyncWorker, "true")], ids=["threaded", "asked"]
)
def test_the_server_config_keeps_gunicorns_close_in_threaded_workers_or_when_asked(
    monkeypatch, worker, asked
):
    original = util.close_graceful
    monkeypatch.setattr(util, "close_graceful", original)
    monkeypatch.setenv("GUNICORN_CLOSE_IN_WORKER", asked)
    conf = runpy.run_path(str(ROOT / "continental" / "gunicorn_conf.py"))
    conf["post_fork"](None, worker.__new__(worker))
    assert util.close_graceful is original


APP = """
def app(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
    return [b"ok"]
"""
CONF = """
def post_fork(server, worker):
    from continental.closer import install
    if {install}:
        install()
"""


def ask(port: int) -> socket.socket:
    """A phone's request, read to the end of its answer; its side left open."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    assert read_all(sock).endswith(b"\r\n\r\nok")
    return sock


@pytest.mark.parametrize(("install", "held"), [(True, False), (False, True)])
def test_one_sync_worker_answers_the_next_phone_while_the_first_holds_its_side(
    tmp_path, install, held
):
    """Through gunicorn's real sync worker: with the closer, a phone that keeps its side
    open does not hold the one worker; with gunicorn's own close it does (up to 2 s)."""
    (tmp_path / "app.py").write_text(APP)
    (tmp_path / "conf.py").write_text(textwrap.dedent(CONF.format(install=install)))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "gunicorn", "-c", str(tmp_path / "conf.py"), "-w", "1"),
            *("-b", f"127.0.0.1:{port}", "--chdir", str(tmp_path), "app:app"),
        ],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                ask(port).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "gunicorn did not start"
                time.sleep(0.1)
        first = ask(port)  # read, its side held open
        begun = time.monotonic()
        ask(port).close()
        took = time.monotonic() - begun
        first.close()
        assert (took > 1.0) is held, f"the second phone waited {took:.2f} s"
    finally:
        server.terminate()
        server.wait(10)


def test_a_connection_ended_twice_is_closed_once_and_the_thread_goes_on(pair):
    """gunicorn's sync worker ends a connection twice when the app fails mid-answer."""
    server, phone = pair
    closer.close_later(server)
    closer.close_later(server)
    phone.close()
    assert wait_closed(server)
    other_server, other_phone = socket.socketpair()
    closer.close_later(other_server)
    other_phone.close()
    assert wait_closed(other_server), "the closer thread stopped"
