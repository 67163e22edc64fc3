"""How long SQLite's writers wait for each other: Django's backend against continental/sqlite.

    .venv/bin/python bench/writer_turns.py [--processes 5] [--hold 20] [--busy 0.5,0.7,0.85]
                                           [--seconds 20]

Several processes (gunicorn's sync workers) each open a transaction now and then (Poisson,
at a rate that keeps the one write lock busy the fraction ``--busy`` of the time), write a
row, hold the transaction ``--hold`` ms (a deal's POST holds it about 20 ms with the viewers'
answer rendered inside, ``scorepad/warm.py``; `bench/cpu.py` in process) and commit. The
wait counted runs from asking for the transaction to holding it. Through Django's own
SQLite backend, a waiting writer sleeps in SQLite's busy handler (steps of up to 100 ms);
through ``continental.sqlite``, it tries again every millisecond at most. Printed per backend
and load: the transactions done and the wait's median, p95, p99, max and mean. The holders
sleep rather than compute, so the machine's other load moves the figures little; the
processes run on a fresh file in a temporary directory.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BACKENDS = {
    "Django's sqlite3": "django.db.backends.sqlite3",
    "continental.sqlite": "continental.sqlite",
}


def handler_for(engine: str, path: str):
    from django.db.utils import ConnectionHandler

    return ConnectionHandler(
        {
            "default": {
                "ENGINE": engine,
                "NAME": path,
                "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
            }
        }
    )


def writer(engine: str, path: str, hold: float, rate: float, until: float, seed: int, out) -> None:
    sys.path.insert(0, str(ROOT))
    from django.conf import settings

    settings.configure(USE_TZ=True)
    import django

    django.setup()
    connection = handler_for(engine, path)["default"]
    rng = random.Random(seed)
    waits = []
    while time.monotonic() < until:
        time.sleep(rng.expovariate(rate))
        asked = time.monotonic()
        connection.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
        waits.append((time.monotonic() - asked) * 1000)
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO t (v) VALUES (%s)", [rng.random()])
        time.sleep(hold / 1000)
        connection.commit()
        connection.set_autocommit(True)
    connection.close()
    out.put(waits)


def run(engine: str, processes: int, hold: float, busy: float, seconds: float) -> list[float]:
    with tempfile.TemporaryDirectory(prefix="writer-turns-") as directory:
        path = os.path.join(directory, "turns.sqlite3")
        import sqlite3

        setup = sqlite3.connect(path)
        setup.execute("PRAGMA journal_mode=WAL")
        setup.execute("CREATE TABLE t (v REAL)")
        setup.commit()
        setup.close()
        rate = busy / (hold / 1000) / processes
        out: multiprocessing.Queue = multiprocessing.Queue()
        until = time.monotonic() + seconds
        workers = [
            multiprocessing.Process(target=writer, args=(engine, path, hold, rate, until, n, out))
            for n in range(processes)
        ]
        for process in workers:
            process.start()
        waits = [w for _ in workers for w in out.get()]
        for process in workers:
            process.join()
    return sorted(waits)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=5)
    parser.add_argument("--hold", type=float, default=20.0, help="ms a transaction is held")
    parser.add_argument(
        "--busy", default="0.5,0.7,0.85", help="share of time the lock is asked for"
    )
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    print(
        f"# bench/writer_turns.py: {args.processes} processes, transactions held {args.hold:g} ms,"
        f" {args.seconds:g} s each; load average before: "
        + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    print(
        f"  {'backend':20} {'busy':>5} {'done':>5} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7}"
        f" {'max ms':>7} {'mean ms':>7}"
    )
    for busy in (float(b) for b in args.busy.split(",")):
        for name, engine in BACKENDS.items():
            waits = run(engine, args.processes, args.hold, busy, args.seconds)

            def at(share: float, waits=waits) -> float:
                return waits[round(share * (len(waits) - 1))]

            print(
                f"  {name:20} {busy:5.2f} {len(waits):5d} {at(0.5):7.1f} {at(0.95):7.1f}"
                f" {at(0.99):7.1f} {waits[-1]:7.1f} {statistics.fmean(waits):7.1f}"
            )


if __name__ == "__main__":
    main()
