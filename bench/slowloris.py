"""Slow connections against the table server as ``serve`` runs it: the game page's p95 while
connections that sent a request line and one header, and nothing more, stay open.

    .venv/bin/python bench/slowloris.py                        # 200 slow connections
    .venv/bin/python bench/slowloris.py --slow 24,200 --seconds 10

This starts ``gunicorn -c continental/gunicorn_conf.py`` as ``serve`` does (2 workers, 4
threads each; SQLite in a temporary directory, BENCH_VIEWS on) twice: with gunicorn's own
threaded worker (GUNICORN_WORKER_CLASS=gthread) and with the app's, which reads each request
whole before a thread takes it (continental/wholerequest.py). Against each, ``--clients``
phones ask for a game page (6 players, 20 deals) back to back, first with nothing else open
(idle), then while each number of ``--slow`` connections is held: a connection the server
closes is opened again at once, as an attacker or a crowd of flaky phones would. It prints
the page's answers, p50/p95 and the failures (no answer within 10 s), and the p95 over the
idle one. Loopback only; figures, nothing fails on speed.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load import HOST, Gunicorn, bench_env, make_game, percentile, prepare

STALLED = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"  # and nothing more


class Slow:
    """``count`` connections that sent a request line and one header, held open (one the
    server closes is opened again) until ``stop``."""

    def __init__(self, port: int, count: int) -> None:
        self.port, self.count = port, count
        self.reopened = 0
        self.done = threading.Event()
        self.socks: list[socket.socket] = []
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _open(self) -> socket.socket | None:
        try:
            sock = socket.create_connection((HOST, self.port), timeout=5)
            sock.sendall(STALLED)
            sock.setblocking(False)
            return sock
        except OSError:
            return None

    def _run(self) -> None:
        while not self.done.is_set():
            for i, sock in enumerate(self.socks):
                try:
                    closed = sock.recv(4096) == b""
                except BlockingIOError:
                    closed = False
                except OSError:
                    closed = True
                if closed:
                    sock.close()
                    fresh = self._open()
                    if fresh is not None:
                        self.socks[i] = fresh
                        self.reopened += 1
            self.done.wait(0.2)

    def __enter__(self) -> Slow:
        for _ in range(self.count):
            sock = self._open()
            if sock is not None:
                self.socks.append(sock)
        self.thread.start()
        time.sleep(1)  # every worker has them before the phones ask
        return self

    def __exit__(self, *exc) -> None:
        self.done.set()
        self.thread.join()
        for sock in self.socks:
            with contextlib.suppress(OSError):
                sock.close()


def phones(port: int, page: str, clients: int, seconds: float) -> tuple[list[float], int]:
    took: list[float] = []
    failed = [0]
    until = time.monotonic() + seconds

    def phone() -> None:
        while time.monotonic() < until:
            begun = time.monotonic()
            conn = http.client.HTTPConnection(HOST, port, timeout=10)
            try:
                conn.request("GET", page, headers={"Accept-Encoding": "gzip"})
                response = conn.getresponse()
                response.read()
                if response.status == 200:
                    took.append(time.monotonic() - begun)
                else:
                    failed[0] += 1
            except (OSError, http.client.HTTPException):
                failed[0] += 1
            finally:
                conn.close()

    threads = [threading.Thread(target=phone) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return took, failed[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--slow", default="200", help="slow connections held, steps (200)")
    parser.add_argument("--clients", type=int, default=4, help="phones asking at once (4)")
    parser.add_argument("--seconds", type=float, default=10.0, help="per figure (10)")
    parser.add_argument(
        "--workers", default="continental,gthread", help="worker classes (continental,gthread)"
    )
    args = parser.parse_args()
    steps = [int(n) for n in args.slow.split(",")]
    print(
        f"# bench/slowloris.py: gunicorn as serve runs it (2 workers x 4 threads), SQLite;"
        f" {args.clients} phones ask for a game page, {args.seconds:g} s per figure"
    )
    with tempfile.TemporaryDirectory(prefix="scorepad-slowloris-") as tmp:
        data = Path(tmp)
        env = bench_env(data / "data", data / "static")
        prepare(env)
        game = make_game(env)
        for worker in args.workers.split(","):
            name = {
                "continental": "continental.wholerequest.WholeRequestWorker",
                "gthread": "gthread",
            }[worker]
            print(f"  worker class {name}:")
            env_worker = {**env, "GUNICORN_WORKER_CLASS": name}
            with Gunicorn(env_worker, 2, data / f"gunicorn-{worker}.log", threads=4) as server:
                phones(server.port, game["page"], args.clients, 2)  # warm
                idle, failed = phones(server.port, game["page"], args.clients, args.seconds)
                idle_p95 = percentile(idle, 95)
                print(
                    f"    idle:                  {len(idle):5d} answers, p50"
                    f" {percentile(idle, 50):7.1f} p95 {idle_p95:7.1f} ms, {failed} failed"
                )
                for count in steps:
                    with Slow(server.port, count) as slow:
                        took, failed = phones(server.port, game["page"], args.clients, args.seconds)
                        held = len(slow.socks)
                    p95 = percentile(took, 95)
                    # A phone that got no answer has no time: then the p95 of those answered
                    # says nothing, and the verdict is the failures.
                    verdict = (
                        f"p95 {p95 / idle_p95:.2f} x idle"
                        if not failed
                        else "frozen: phones failed"
                    )
                    print(
                        f"    {held:3d} slow connections: {len(took):5d} answers, p50"
                        f" {percentile(took, 50):7.1f} p95 {p95:7.1f} ms, {failed} failed"
                        f" (no answer in 10 s); {verdict};"
                        f" {slow.reopened} closed by the server and opened again"
                    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
