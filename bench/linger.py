"""How the end of a connection holds a gunicorn worker: phones that close their side a while
after the answer, as a phone on Wi-Fi does a round trip later.

    .venv/bin/python bench/linger.py                       # sync worker, 0/20/50 ms
    .venv/bin/python bench/linger.py --delays 0,30 --clients 16

gunicorn (since version 26) waits in the worker, after each answer, until the phone has
closed its side of the connection (continental/closer.py says why and what the app does
instead). This starts ``gunicorn -c continental/gunicorn_conf.py`` with one worker (SQLite
in a temporary directory, BENCH_VIEWS on) twice: with gunicorn's own close
(GUNICORN_CLOSE_IN_WORKER=true) and with the app's closer thread. Against each, ``--clients``
threads ask for the bare page ``/bench/bare`` over a new connection each (as the bench's
phones and a sync worker do: ``Connection: close``), read the answer to its end, wait
``delay`` ms (the phone's FIN on its way back) and close. It prints the requests a second the
one worker served and the answers' p50/p95 (sent to read to its end). Loopback only;
figures, nothing fails on speed.
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load import HOST, Gunicorn, bench_env, percentile, prepare

REQUEST = b"GET /bench/bare HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


def one_client(port: int, delay: float, until: float, took: list[float]) -> None:
    while time.monotonic() < until:
        begun = time.monotonic()
        sock = socket.create_connection((HOST, port), timeout=10)
        try:
            sock.sendall(REQUEST)
            while sock.recv(65536):
                pass
            took.append(time.monotonic() - begun)
            time.sleep(delay)  # the phone closes its side a round trip later
        finally:
            sock.close()


def measure(port: int, delay: float, clients: int, seconds: float) -> tuple[float, list[float]]:
    took: list[float] = []
    until = time.monotonic() + seconds
    threads = [
        threading.Thread(target=one_client, args=(port, delay, until, took)) for _ in range(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(took) / seconds, took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--delays", default="0,20,50", help="ms before a phone closes (0,20,50)")
    parser.add_argument("--clients", type=int, default=8, help="phones asking at once (8)")
    parser.add_argument("--seconds", type=float, default=5.0, help="per delay and way (5)")
    parser.add_argument("--threads", type=int, default=1, help="threads of the worker (1: sync)")
    args = parser.parse_args()
    delays = [float(d) / 1000 for d in args.delays.split(",")]
    kind = "sync" if args.threads == 1 else f"{args.threads} threads"
    print(
        f"# bench/linger.py: one gunicorn worker ({kind}),"
        f" {args.clients} phones, {args.seconds:g} s per figure"
    )
    if args.threads > 1:
        print(
            "# continental/gunicorn_conf.py installs the closer in sync workers only:"
            " both ways below are gunicorn's own"
        )
    with tempfile.TemporaryDirectory(prefix="scorepad-linger-") as tmp:
        data = Path(tmp)
        env = bench_env(data / "data", data / "static")
        prepare(env)
        for way, in_worker in (
            ("gunicorn's own close, in the worker", "true"),
            ("the closer thread", "false"),
        ):
            print(f"  {way}:")
            env_way = {**env, "GUNICORN_CLOSE_IN_WORKER": in_worker}
            with Gunicorn(
                env_way, 1, data / f"gunicorn-{in_worker}.log", threads=args.threads
            ) as server:
                for delay in delays:
                    rate, took = measure(server.port, delay, args.clients, args.seconds)
                    print(
                        f"    phones close {delay * 1000:3.0f} ms after the answer:"
                        f" {rate:7.1f} requests/s; answer p50 {percentile(took, 50):6.1f}"
                        f" p95 {percentile(took, 95):6.1f} ms"
                    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
