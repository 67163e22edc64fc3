"""Serve the score pad with gunicorn and time it under concurrent load, next to a bare page.

    .venv/bin/python bench/load.py                      # SQLite, then PostgreSQL
    .venv/bin/python bench/load.py --db sqlite --seconds 5 --clients 10

For each database (SQLite in a temporary DATA_DIR; PostgreSQL in a database of its own,
``scorepad_load``, created and dropped here, skipped when PostgreSQL does not answer on
127.0.0.1:5432) it migrates, creates a classic game of 6 players and 20 deals through the
ORM, starts gunicorn on a free loopback port with continental/gunicorn_conf.py (production
settings: DEBUG off, manifest static files; rate limits off, BENCH_VIEWS on), and drives
concurrent clients (threads, one http.client connection each) for a fixed time at:

* the bare page ``/bench/bare`` (a fixed HttpResponse, no template, no database),
* the game page through its viewer link, as a returning viewer (keeps its cookies) and as a
  new visitor (no cookies: it is sent the opened-links cookie every time), and
  through its editor link (the page with the forms, their tokens filled in per answer),
* the live-update endpoint with the current version (the "unchanged" 204),
* ``POST /api/check`` with a classic 16-card hand.

It prints requests/s, median and 95th percentile latency, errors, and each target's p95 over
the bare page's p95 (docs/architecture.md#quality-bars: the game page within 3x, the unchanged live update within
1.5x), and the SQL queries of those answers counted in-process. The client threads share
the machine's cores with the server, so compare the ratios, not the absolute figures.
Figures only: nothing here fails on speed. Loopback only; every loop is bounded by time.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
PG_ADMIN = f"host={HOST} port=5432 user=postgres dbname=postgres"
PG_DB = "scorepad_load"
SECRET_KEY = "bench-only-secret-key-not-for-production-" + "q7Vd2Kx9Lm" * 3
CHECK_BODY = json.dumps(
    {"variant": "classic", "cards": "3H 4H 5H 6S 7S 8S 9C 10C JC QD KD AD 4C 5C 2D 9H"}
).encode()
GOALS = {
    "game page (returning viewer)": 3.0,
    "game page (new visitor)": 3.0,
    "game page (editor)": 3.0,
    "live update": 1.5,
}

# Settings the bench decides, whatever the calling shell has.
CLEARED = ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "PLAIN_STATIC", "DEBUG", "SECURE")


def bench_env(data_dir: Path, static_root: Path, database_url: str = "") -> dict[str, str]:
    """The environment of every manage.py, setup and gunicorn process of one run."""
    env = {k: v for k, v in os.environ.items() if k not in CLEARED and not k.startswith("GUNI")}
    env.update(
        SECRET_KEY=SECRET_KEY,
        ALLOWED_HOSTS=f"{HOST},localhost",
        DATA_DIR=str(data_dir),
        STATIC_ROOT=str(static_root),
        RATE_LIMIT="false",
        BENCH_VIEWS="true",
        LOG_LEVEL="WARNING",
        PYTHONDONTWRITEBYTECODE="1",
    )
    if database_url:
        env["DATABASE_URL"] = database_url
    return env


def manage(env: dict[str, str], *args: str) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if result.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stdout}{result.stderr}")


def prepare(env: dict[str, str], *, static: bool = True) -> None:
    """collectstatic (manifest and compressed copies, as in production), migrate, cache table."""
    if static:
        manage(env, "collectstatic", "--noinput", "-v", "0")
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "createcachetable")


# Runs in a child process with the bench environment: builds the game through the ORM the way
# the deal forms do (tests/factories.py), and counts the queries of the answers in-process.
SETUP_CODE = r"""
import json, os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "continental.settings")
import django
django.setup()
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from tests.factories import GameFactory, record_classic

players, deals = int(sys.argv[1]), int(sys.argv[2])
game = GameFactory(players=players)
for i in range(deals):
    record_classic(game, i % players)
game.refresh_from_db()

def url(name, token):
    return reverse(name, kwargs={"token": token})

page = url("game", game.viewer_token)
version = url("game-version", game.viewer_token) + f"?v={game.version}"

def queries(client, path, headers=None):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path, headers=headers)
    return {"status": response.status_code, "sql": [q["sql"] for q in ctx.captured_queries]}

returning = Client(HTTP_HOST="127.0.0.1")
returning.get(page)
editor_page = url("game", game.editor_token)
editor = Client(HTTP_HOST="127.0.0.1")
editor.get(editor_page)
counts = {
    "live update": queries(Client(HTTP_HOST="127.0.0.1"), version, {"HX-Request": "true"}),
    "game page (new visitor)": queries(Client(HTTP_HOST="127.0.0.1"), page),
    "game page (returning viewer)": queries(returning, page),
    "game page (editor)": queries(editor, editor_page),
}
print("BENCH-SETUP " + json.dumps({
    "game": game.pk, "players": game.seats.count(), "deals": game.deals.count(),
    "version": game.version, "page": page, "version_url": version,
    "editor_page": editor_page, "queries": counts,
}))
"""


def make_game(env: dict[str, str], players: int = 6, deals: int = 20) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", SETUP_CODE, str(players), str(deals)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    for line in result.stdout.splitlines():
        if line.startswith("BENCH-SETUP "):
            return json.loads(line.removeprefix("BENCH-SETUP "))
    raise RuntimeError(f"creating the game failed:\n{result.stdout}{result.stderr}")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


class Gunicorn:
    """gunicorn -c continental/gunicorn_conf.py on a free loopback port, stopped on exit."""

    def __init__(self, env: dict[str, str], workers: int, log_path: Path):
        self.port = free_port()
        # Each worker logs the time it spent on a request (%(D)s, microseconds): the server
        # time, without the queueing and the client's own work that the clients measure.
        self.access_log = log_path.with_suffix(".access.log")
        self.env = {
            **env,
            "GUNICORN_BIND": f"{HOST}:{self.port}",
            "GUNICORN_WORKERS": str(workers),
            "GUNICORN_ACCESSLOG": str(self.access_log),
        }
        self.log_path = log_path
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> Gunicorn:
        self.log = open(self.log_path, "ab")  # noqa: SIM115 (closed in __exit__)
        self.proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "gunicorn", "-c", "continental/gunicorn_conf.py"),
                *("--access-logformat", "%(m)s %(U)s %(s)s %(D)s"),
                "continental.wsgi",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        try:
            self.wait_ready()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.proc.returncode}:\n{self.tail()}")
            try:
                conn = http.client.HTTPConnection(HOST, self.port, timeout=2)
                conn.request("GET", "/bench/bare")
                status = conn.getresponse().status
                conn.close()
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not answer within {timeout:.0f} s:\n{self.tail()}")

    def log_offset(self) -> int:
        return self.access_log.stat().st_size if self.access_log.exists() else 0

    def server_times(self, offset: int, path: str) -> list[float]:
        """Seconds each worker spent on ``path`` in the access log lines after ``offset``."""
        time.sleep(0.3)  # the last responses' lines are written after the responses
        with open(self.access_log, "rb") as log:
            log.seek(offset)
            lines = log.read().decode(errors="replace").splitlines()
        wanted = path.partition("?")[0]
        times = []
        for line in lines:
            parts = line.split()
            if len(parts) == 4 and parts[1] == wanted and parts[3].isdigit():
                times.append(int(parts[3]) / 1e6)
        return times

    def tail(self, lines: int = 30) -> str:
        self.log.flush()
        text = self.log_path.read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])

    def __exit__(self, *exc) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # graceful: workers finish their request
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.log.close()


@dataclass
class Target:
    name: str
    path: str
    expect: int
    method: str = "GET"
    body: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    cookies: bool = False  # keep the cookies the server sets (a returning browser)


@dataclass
class Result:
    target: Target
    seconds: float
    latencies: list[float]  # as the clients saw them: queueing included
    errors: int
    first_error: str = ""
    server: list[float] = field(default_factory=list)  # the workers' time, from the access log

    @property
    def rps(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0


def percentile(values: list[float], p: float) -> float:
    """Milliseconds; nearest rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k] * 1000


def median(values: list[float]) -> float:
    return statistics.median(values) * 1000 if values else float("nan")


def drive(port: int, target: Target, seconds: float, clients: int) -> Result:
    """``clients`` threads send ``target`` back to back until ``seconds`` have passed."""
    lock = threading.Lock()
    latencies: list[float] = []
    errors = [0]
    first_error: list[str] = []
    go = threading.Event()
    deadline = [0.0]

    def fail(message: str) -> None:
        with lock:
            errors[0] += 1
            if not first_error:
                first_error.append(message)

    def client() -> None:
        mine: list[float] = []
        jar: dict[str, str] = {}
        conn = http.client.HTTPConnection(HOST, port, timeout=10)
        go.wait(30)
        while time.perf_counter() < deadline[0]:
            headers = {"Accept-Encoding": "gzip", **target.headers}
            if jar:
                headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in jar.items())
            if target.body is not None:
                headers["Content-Type"] = "application/json"
            start = time.perf_counter()
            try:
                # http.client reconnects by itself when the server closed the connection
                # (gunicorn's sync workers close it after every response).
                conn.request(target.method, target.path, body=target.body, headers=headers)
                response = conn.getresponse()
                response.read()
            except (OSError, http.client.HTTPException) as exc:
                fail(f"{type(exc).__name__}: {exc}")
                conn.close()
                conn = http.client.HTTPConnection(HOST, port, timeout=10)
                continue
            elapsed = time.perf_counter() - start
            if response.status != target.expect:
                fail(f"HTTP {response.status}")
                continue
            mine.append(elapsed)
            if target.cookies:
                for header in response.headers.get_all("Set-Cookie") or []:
                    for name, morsel in SimpleCookie(header).items():
                        jar[name] = morsel.value
        conn.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    started = time.perf_counter()
    deadline[0] = started + seconds
    go.set()
    for thread in threads:
        thread.join(timeout=seconds + 30)
    took = time.perf_counter() - started
    return Result(target, took, latencies, errors[0], first_error[0] if first_error else "")


def targets(game: dict) -> list[Target]:
    return [
        Target("bare page", "/bench/bare", 200),
        Target("game page (returning viewer)", game["page"], 200, cookies=True),
        Target("game page (new visitor)", game["page"], 200),
        Target("game page (editor)", game["editor_page"], 200, cookies=True),
        Target("live update", game["version_url"], 204, headers={"HX-Request": "true"}),
        Target("POST /api/check", "/api/check", 200, method="POST", body=CHECK_BODY),
    ]


def verdict(name: str, ratio: float) -> str:
    goal = GOALS.get(name)
    return f"<= {goal:g}x: {'within' if ratio <= goal else 'OVER'}" if goal else ""


def print_table(results: list[Result]) -> None:
    bare = results[0]
    print("  As the clients saw it (latency includes waiting for a free worker):")
    print(
        f"    {'target':30} {'req/s':>7} {'median ms':>10} {'p95 ms':>8} {'errors':>7}"
        f" {'p95/bare':>9} {'median/bare':>12}  goal (p95)"
    )
    for result in results:
        name = result.target.name
        p95, med = percentile(result.latencies, 95), median(result.latencies)
        ratio = p95 / percentile(bare.latencies, 95)
        print(
            f"    {name:30} {result.rps:7.0f} {med:10.1f} {p95:8.1f} {result.errors:7d}"
            f" {ratio:8.2f}x {med / median(bare.latencies):11.2f}x  {verdict(name, ratio)}"
        )
        if result.first_error:
            print(f"      first error: {result.first_error}")
    print("  Server time per request (gunicorn access log %(D)s: the worker's time, no queue):")
    print(
        f"    {'target':30} {'count':>7} {'median ms':>10} {'p95 ms':>8}"
        f" {'p95/bare':>9} {'median/bare':>12}  goal (p95)"
    )
    for result in results:
        name = result.target.name
        p95, med = percentile(result.server, 95), median(result.server)
        ratio = p95 / percentile(bare.server, 95)
        print(
            f"    {name:30} {len(result.server):7d} {med:10.2f} {p95:8.2f}"
            f" {ratio:8.2f}x {med / median(bare.server):11.2f}x  {verdict(name, ratio)}"
        )


def print_queries(game: dict) -> None:
    print("  SQL queries per answer (counted in-process with CaptureQueriesContext):")
    for name, info in game["queries"].items():
        print(f"    {name:30} {len(info['sql']):3d} queries (HTTP {info['status']})")
    for sql in game["queries"]["live update"]["sql"]:
        print(f"      live update: {sql}")


def run_database(label: str, env: dict[str, str], args, log_path: Path) -> None:
    print(f"\n== {label} ==")
    t0 = time.perf_counter()
    prepare(env, static=False)
    game = make_game(env)
    print(
        f"  game #{game['game']}: {game['players']} players, {game['deals']} deals,"
        f" version {game['version']}; ready in {time.perf_counter() - t0:.1f} s"
    )
    print_queries(game)
    with Gunicorn(env, args.workers, log_path) as server:
        print(
            f"  gunicorn on {HOST}:{server.port}, {args.workers} sync workers;"
            f" {args.clients} clients, {args.seconds:g} s per target"
            f" (after {args.warmup:g} s of warm-up)"
        )
        results = []
        for target in targets(game):
            if args.warmup > 0:
                drive(server.port, target, args.warmup, args.clients)
            offset = server.log_offset()
            result = drive(server.port, target, args.seconds, args.clients)
            result.server = server.server_times(offset, target.path)
            results.append(result)
    print_table(results)
    print(f"  load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def postgres_answers() -> str | None:
    """The server's version, or None (with the reason printed) when it does not answer."""
    try:
        import psycopg

        with psycopg.connect(PG_ADMIN, connect_timeout=3, autocommit=True) as conn:
            return conn.execute("SHOW server_version").fetchone()[0]
    except Exception as exc:  # noqa: BLE001 (any failure means: skip PostgreSQL)
        print(f"\n== PostgreSQL: skipped, no answer on {HOST}:5432 ({exc}) ==")
        return None


def pg_admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN, connect_timeout=5, autocommit=True) as conn:
        conn.execute(sql)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="per target (default 10)")
    parser.add_argument("--clients", type=int, default=20, help="concurrent clients (20)")
    parser.add_argument("--warmup", type=float, default=1.0, help="unmeasured seconds first")
    parser.add_argument("--workers", type=int, default=int(os.environ.get("GUNICORN_WORKERS", "2")))
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    args = parser.parse_args(argv)
    args.seconds = min(max(args.seconds, 0.5), 300.0)
    args.clients = min(max(args.clients, 1), 200)

    import django
    import gunicorn

    print(
        f"Python {platform.python_version()}, Django {django.get_version()},"
        f" gunicorn {gunicorn.__version__}, {os.cpu_count()} CPUs (shared by server and clients),"
        f" load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    tmp = Path(tempfile.mkdtemp(prefix="scorepad-load-"))
    try:
        static_root = tmp / "static"
        sqlite_env = bench_env(tmp / "sqlite", static_root)
        t0 = time.perf_counter()
        manage(sqlite_env, "collectstatic", "--noinput", "-v", "0")
        print(f"collectstatic into {static_root}: {time.perf_counter() - t0:.1f} s")
        if args.db in ("sqlite", "both"):
            run_database("SQLite (WAL)", sqlite_env, args, tmp / "gunicorn-sqlite.log")
        if args.db in ("postgres", "both") and (version := postgres_answers()):
            pg_admin(f"DROP DATABASE IF EXISTS {PG_DB} WITH (FORCE)")
            pg_admin(f"CREATE DATABASE {PG_DB}")
            try:
                url = f"postgres://postgres@{HOST}:5432/{PG_DB}"
                env = bench_env(tmp / "pg-data", static_root, url)
                run_database(f"PostgreSQL {version}", env, args, tmp / "gunicorn-pg.log")
            finally:
                pg_admin(f"DROP DATABASE IF EXISTS {PG_DB} WITH (FORCE)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
