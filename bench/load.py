"""Serve the score pad with gunicorn and time it under load: evenings of K tables, or one game.

    .venv/bin/python bench/load.py                          # evenings, SQLite then PostgreSQL
    .venv/bin/python bench/load.py --db sqlite --tables 50,200 --seconds 30
    .venv/bin/python bench/load.py --scenario one-game      # the older picture: one game reloaded
    .venv/bin/python bench/load.py --scenario tournament    # 100 tables finishing a series

Both scenarios run on SQLite (a temporary DATA_DIR) and on PostgreSQL (a database of its own,
``--pg-db``, created and dropped here; skipped when PostgreSQL does not answer on
127.0.0.1:5432); they migrate, start gunicorn on a free loopback port with
continental/gunicorn_conf.py as documented (production settings: DEBUG off, manifest static
files, its workers; BENCH_VIEWS on; the rate limits off: every client is 127.0.0.1).

**Evening** (the default): K tables (``--tables``, e.g. 50,200), each a classic game of 4-6
phones that joined it (one with the editor link, the others with the viewer link; each
table in one of the six languages; 0-10 deals already played). Every phone opens the game
page, then, as htmx does, polls the live update every 2 s while its screen is on
(``--visible``; table.js keeps the screen on by default), and reloads the page now and then.
The editor phone records a deal about every 60 s through the real deal form: it opens the
form the sheet holds (as table.js does: no request; its one-time token made on the phone,
the CSRF token in htmx's header), two previews while the points are entered, the POST,
answered with the sheet (an older server: the sheet it is redirected to); each other phone
then gets the new sheet from its next live update. After
every version it showed, the editor phone fetches the edit forms of those of the last three
deals that the sheet cannot correct itself (no ``data-values``) once (table.js's prefetch,
with the HX-Request header): in a game being played, none. A few checker
calls (one per table every ``--checker-every`` seconds on average) and a bare page every
0.1 s run side by side. Real time, not compressed: every table's first deal falls at a
random moment of its first minute, so the deal rate is right from the start, and only the
requests started within the measured ``--seconds`` count. The window opens ``--settle``
seconds (2) after the last phone joined; the push scenario prints how many requests were
still unanswered then (the joining's backlog, which the window would otherwise measure). Event-driven clients (asyncio, a
new connection per request as gunicorn's sync workers close it); every loop ends at the
window's end and every request within 30 s.

For each K it prints p50/p95/p99 per request kind, the errors, each kind's p95 over the bare
reference, and the CPU the server and the clients used. The **bare reference** is the bare
page's p95 under 20 concurrent clients (the quality bar's "bare Django view under
concurrent load", docs/architecture.md#quality-bars), measured before the evening on the
same server. **Capacity**: the largest K stepped that holds, with every smaller step, the
target: no error and every kind's p95 within 3x the bare reference; printed as
tables per core of this machine (server, database and clients share its cores).

**Push** (``--scenario push``): the same evening with the live streams: a stream process
(``python -m continental.liveserver``) runs beside gunicorn, every phone holds its game's stream
and fetches the sheet when an event names a newer version (a plain viewer's page, which
names its language to the stream, shows the sheet the event carried when it carried one,
without a request); it does not poll while the stream is held (static/js/live.js hears the
stream's beats instead). Every evening scenario prints the **update latency**:
from the editor's save answered to each other phone showing the new sheet (0 when that
phone showed it before the editor's own phone had its answer), and from Save (the POST
sent). The push
target is the issue's: no error, the update latency's p95 within 300 ms, and every kind's
p95 within 3 x its own p95 at the first step (make it small but not tiny, e.g. ``--tables
10,500,1500``: the idle server, measured for ``--idle-seconds``, 120, so that it holds
enough deals for a p95 of each kind; its reloads and hand checks come ``IDLE_MORE`` times as
often, for the same reason); the stream process's CPU, memory and the streams it held are printed.

**One game** (``--scenario one-game``, what the cache was first measured on): one classic
game of 6 players and 20 deals, driven by concurrent clients (threads, one http.client
connection each) for a fixed time per target: the bare page ``/bench/bare``; the game page
as a returning viewer, a new visitor and the editor; the unchanged live update; ``POST
/api/check``. It prints requests/s, median and p95, each target's p95 over the bare page's
(the game page within 3x, the unchanged live update within 1.5x), and the SQL queries of
those answers counted in-process. It flatters any cache: every answer is the same version.

The clients share the machine's cores with the server: compare the ratios, not the
absolute figures. Their own garbage collector is off during an evening (collected between
steps): in one loop of 7,500 phones it paused the loop up to 360 ms, time every kind then
counted. Each evening prints how late the clients' loop woke from a 10 ms sleep (a delay no
server caused) and the workers' own time from gunicorn's access log (POSTs apart): a p95
far above it was spent before a worker took the request. Each answer also says where its
time went in the worker (``Server-Timing``, continental/timing.py, with BENCH_VIEWS): its
CPU, the garbage collector's share, and the rest, waiting for a core or for SQLite's one
writer; printed per kind. Figures only: nothing here fails on speed. Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import http.client
import json
import os
import platform
import random
import re
import resource
import runpy
import secrets
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
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
PG_ADMIN = f"host={HOST} port=5432 user=postgres dbname=postgres"
PG_DB = "scorepad_load"  # the default of --pg-db
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


def run_setup(env: dict[str, str], code: str, marker: str, *args: str) -> dict:
    """Run ``code`` in a Python of the bench's environment; the JSON it prints after
    ``marker`` (what it made: links, tokens)."""
    result = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    for line in result.stdout.splitlines():
        if line.startswith(marker + " "):
            return json.loads(line.removeprefix(marker + " "))
    raise RuntimeError(f"the set-up failed:\n{result.stdout}{result.stderr}")


def make_game(env: dict[str, str], players: int = 6, deals: int = 20) -> dict:
    return run_setup(env, SETUP_CODE, "BENCH-SETUP", str(players), str(deals))


def free_port() -> int:
    """A free loopback port; within BENCH_PORTS ("18200-18299") when that is set (a machine
    shared by several people, each with a range of their own)."""
    low, _, high = os.environ.get("BENCH_PORTS", "").partition("-")
    candidates = range(int(low), int(high or low) + 1) if low else [0]
    for port in candidates:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind((HOST, port))
            except OSError:
                continue
            return sock.getsockname()[1]
    raise RuntimeError(f"no free port in BENCH_PORTS={os.environ['BENCH_PORTS']}")


class Gunicorn:
    """gunicorn -c continental/gunicorn_conf.py on a free loopback port, stopped on exit."""

    def __init__(
        self, env: dict[str, str], workers: int | None, log_path: Path, threads: int | None = None
    ):
        self.port = free_port()
        # Each worker logs the time it spent on a request (%(D)s, microseconds): the server
        # time, without the queueing and the client's own work that the clients measure.
        self.access_log = log_path.with_suffix(".access.log")
        self.env = {
            **env,
            "GUNICORN_BIND": f"{HOST}:{self.port}",
            "GUNICORN_ACCESSLOG": str(self.access_log),
        }
        if workers:
            self.env["GUNICORN_WORKERS"] = str(workers)
        if threads:
            self.env["GUNICORN_THREADS"] = str(threads)
        self.log_path = log_path
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> Gunicorn:
        self.log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "gunicorn", "-c", "continental/gunicorn_conf.py"),
                # The kind a request of the window was sent as (``Evening.call``'s header).
                *("--access-logformat", "%(m)s %(U)s %(s)s %(D)s %({x-bench-kind}i)s"),
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

    def wait_ready(self, timeout: float = 120.0) -> None:  # a busy shared machine is slow
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.proc.returncode}:\n{self.tail()}")
            conn = http.client.HTTPConnection(HOST, self.port, timeout=2)
            try:
                conn.request("GET", "/bench/bare")
                if conn.getresponse().status == 200:
                    return
            except OSError:
                pass
            finally:
                conn.close()  # also when the server is not listening yet
            time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not answer within {timeout:.0f} s:\n{self.tail()}")

    def log_offset(self) -> int:
        return self.access_log.stat().st_size if self.access_log.exists() else 0

    def logged(self, offset: int) -> list[tuple[str, str, float]]:
        """(method, path, seconds the worker spent) of each access log line after ``offset``."""
        return [(method, path, took) for method, path, took, _kind in self.logged_kinds(offset)]

    def logged_kinds(self, offset: int) -> list[tuple[str, str, float, str]]:
        """The same with the kind each line's request was sent as in the window ("" outside
        it: ``Evening.call`` names it in a header only there)."""
        time.sleep(0.3)  # the last responses' lines are written after the responses
        with open(self.access_log, "rb") as log:
            log.seek(offset)
            lines = log.read().decode(errors="replace").splitlines()
        found = []
        for line in lines:
            parts = line.split()
            if len(parts) in (4, 5) and parts[3].isdigit():
                tag = parts[4] if len(parts) == 5 else "-"
                kind = KINDS[int(tag)] if tag.isdigit() and int(tag) < len(KINDS) else ""
                found.append((parts[0], parts[1], int(parts[3]) / 1e6, kind))
        return found

    def server_times(self, offset: int, path: str) -> list[float]:
        """Seconds each worker spent on ``path`` in the access log lines after ``offset``."""
        wanted = path.partition("?")[0]
        return [took for _method, logged, took in self.logged(offset) if logged == wanted]

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


# --- the evening: K tables of phones --------------------------------------------------------

LANGS = ("en", "de", "nb", "pl", "fi", "es")
POLL_SECONDS = 2.0  # htmx's poll of the live update while the screen is on
FORM_PREFETCH_DELAY = 1.5  # table.js fetches the forms this long after a sheet settled
RELOAD_MEAN = 600.0  # a phone reloads the page (back from another app) every ~10 min
# In the push scenario's idle step (the reference of every kind), reloads and hand checks come
# this many times as often: at the evening's pace 10 tables gave 4-8 of each in 120 s, whose
# "p95" was their slowest; still idle (about 1 request a second more).
IDLE_MORE = 10
REQUEST_TIMEOUT = 30.0
CHECK_HANDS = (
    "3H 4H 5H 6S 7S 8S 9C 10C JC QD KD AD 4C 5C 2D 9H",
    "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH JK",
    "2C 3C 4C 5C 7D 8D 9D 10D JS QS KS AS 6H 6D 6C KH",
)
# Request kinds, in the order they are printed.
KINDS = (
    "bare page (side by side)",
    "live update, unchanged",
    "live update, new sheet",
    "game page (reload)",
    "deal form",
    "deal preview",
    "deal saved (POST)",
    "sheet after saving",
    "forms prefetch",
    "hand checker",
    "update latency",
    "update latency, from Save",
)
# Not a request: from the editor's save answered to each other phone showing the new sheet.
LATENCY = "update latency"
# The same from the moment the editor's phone sent the deal (a POST answered with the sheet
# itself answers later than a redirect did: measured from the answer, part of the sheet's
# rendering would not count). Printed, not judged.
FROM_SAVE = "update latency, from Save"
STREAM_OPENS = 150  # a second, at most, when the phones join an evening with streams
# static/js/live.js polls not at all while the stream is held (its beats say it is alive).

# Runs in a child process with the bench environment: ``tables`` classic games through the
# ORM the way the deal forms record them; prints their links, one JSON list.
EVENING_SETUP = r"""
import json, os, random, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "continental.settings")
import django
django.setup()
from django.urls import reverse
from django.utils import translation
from tests.factories import GameFactory, record_classic

tables, seed = int(sys.argv[1]), int(sys.argv[2])
langs = sys.argv[3].split(",")
rng = random.Random(seed)
out = []
for i in range(tables):
    phones = rng.randint(4, 6)
    game = GameFactory(variant_id="classic", players=phones)
    for number in range(rng.randint(0, 10)):
        record_classic(game, number % phones, jokers=rng.randint(0, 1), wild_twos=rng.randint(0, 1))
    lang = langs[i % len(langs)]
    with translation.override(lang):
        out.append({
            "phones": phones,
            "lang": lang,
            "viewer": reverse("game", kwargs={"token": game.viewer_token}),
            "editor": reverse("game", kwargs={"token": game.editor_token}),
            "check": reverse("check"),
        })
print("BENCH-EVENING " + json.dumps(out))
"""


def make_tables(env: dict[str, str], tables: int, seed: int) -> list[dict]:
    result = subprocess.run(
        [sys.executable, "-c", EVENING_SETUP, str(tables), str(seed), ",".join(LANGS)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    for line in result.stdout.splitlines():
        if line.startswith("BENCH-EVENING "):
            return json.loads(line.removeprefix("BENCH-EVENING "))
    raise RuntimeError(f"creating the tables failed:\n{result.stdout}{result.stderr}")


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    cookies: list[str]
    body: str


def _dechunk(data: bytes) -> bytes:
    out, rest = [], data
    for _ in range(100_000):  # bounded: a body of at most that many chunks
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out.append(rest[:size])
        rest = rest[size + 2 :]
    return b"".join(out)


CONTENT_LENGTH = re.compile(rb"\r\ncontent-length:\s*(\d+)", re.IGNORECASE)


async def fetch(
    port: int,
    method: str,
    path: str,
    headers: dict[str, str],
    body: bytes = b"",
    stamp: bool = False,
) -> Answer:
    """One request on a new loopback connection (gunicorn's sync workers close it after the
    answer), read as a browser reads it: to its Content-Length when it has one (the server
    may still work after the answer, scorepad/warm.py), else to the end."""

    async def exchange() -> bytes:
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}", "Connection: close"]
            lines += [f"{k}: {v}" for k, v in headers.items()]
            if body or method == "POST":
                lines.append(f"Content-Length: {len(body)}")
            if stamp:  # when it was sent: the worker says how long it waited (``queued``)
                lines.append(f"X-Bench-Sent: {time.time():.6f}")
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            length = CONTENT_LENGTH.search(head)
            if length is None:
                return head + await reader.read(-1)
            return head + await reader.readexactly(int(length.group(1)))
        finally:
            writer.close()

    data = await asyncio.wait_for(exchange(), REQUEST_TIMEOUT)
    head, _, raw = data.partition(b"\r\n\r\n")
    head_lines = head.decode("latin-1").split("\r\n")
    if not head_lines[0].startswith("HTTP/"):
        raise ConnectionError(f"no HTTP answer: {head_lines[0][:60]!r}")
    status = int(head_lines[0].split()[1])
    found: dict[str, str] = {}
    cookies = []
    for line in head_lines[1:]:
        name, _, value = line.partition(":")
        if name.lower() == "set-cookie":
            cookies.append(value.strip())
        found[name.lower()] = value.strip()
    if found.get("transfer-encoding", "").lower() == "chunked":
        raw = _dechunk(raw)
    return Answer(status, found, cookies, raw.decode("utf-8", errors="replace"))


class Evening:
    """The measured window of one evening: the samples of every kind, and its clock."""

    def __init__(self, port: int, start: float, seconds: float, live_port: int | None = None):
        self.port = port
        self.live_port = live_port  # the stream process: phones hold streams, not 2 s polls
        self.server_form = False  # the editor fetches the deal form instead of opening the held one
        self.reload_mean = RELOAD_MEAN  # seconds between a phone's reloads, on average
        self.saved: dict[tuple[str, int], float] = {}  # (table, version) -> save answered
        self.sent: dict[tuple[str, int], float] = {}  # (table, version) -> save sent
        self.streams = 0  # streams open now
        self.most_streams = 0
        self.stream_errors = 0
        self.pushed = 0  # sheets shown from their event, without a request
        self.start = start
        self.end = start + seconds
        self.samples: dict[str, list[float]] = {kind: [] for kind in KINDS}
        # Each counted answer's Server-Timing (continental/timing.py): the worker's CPU, its
        # garbage collector's share, its whole time for it, and on SQLite its waits for the writer
        # lock and its commits, in seconds.
        self.timing: dict[str, list[tuple[float, float, float, float, float, float, float]]] = {
            kind: [] for kind in KINDS
        }
        self.errors: dict[str, int] = dict.fromkeys(KINDS, 0)
        self.first_error: dict[str, str] = {}
        self.outside = 0  # requests made before the window (joining) or after it
        self.in_flight = 0  # requests sent and not answered yet
        self.in_flight_at_start = 0  # of them, when the window opened (the joining's backlog)
        # How late the clients' own loop woke in the window (seconds), and its garbage
        # collector's pauses: every kind measured waits for them alike.
        self.loop_late: list[float] = []
        self.gc_pauses: list[float] = []

    async def call(
        self,
        kind: str,
        method: str,
        path: str,
        headers: dict[str, str],
        body: bytes = b"",
        expect: tuple[int, ...] = (200,),
        kind_of=None,
    ) -> Answer | None:
        """``kind_of`` names the kind from the status when the answer decides it."""
        begun = time.monotonic()
        counted = self.start <= begun < self.end
        if counted and kind in KINDS:  # for the workers' own time of each kind (access log)
            headers = {**headers, "X-Bench-Kind": str(KINDS.index(kind))}
        self.in_flight += 1
        try:
            answer = await fetch(self.port, method, path, headers, body, stamp=counted)
        except (TimeoutError, OSError, ConnectionError, ValueError) as exc:
            self.fail(kind, counted, f"{type(exc).__name__}: {exc}")
            return None
        finally:
            self.in_flight -= 1
        took = time.monotonic() - begun
        if answer.status not in expect:
            self.fail(kind, counted, f"HTTP {answer.status} for {method} {path[:60]}")
            return None
        if kind_of is not None:
            kind = kind_of(answer.status)
        if counted:
            self.samples[kind].append(took)
            timed = server_timing(answer.headers.get("server-timing", ""))
            if timed is not None:
                self.timing[kind].append(timed)
        else:
            self.outside += 1
        return answer

    def fail(self, kind: str, counted: bool, message: str) -> None:
        if counted:
            self.errors[kind] += 1
            self.first_error.setdefault(kind, message)

    async def sleep_until(self, moment: float) -> bool:
        """Wait for ``moment``; False when the evening is over by then."""
        moment = min(moment, self.end)
        delay = moment - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        return time.monotonic() < self.end


LIVE_LANG = re.compile(r'id="table-bar"[^>]*data-live-lang="([^"]+)"')
POLL_URL = re.compile(r'class="poll" hx-get="([^"]+)"[^>]*data-version="(\d+)"')
DEAL_NEW_URL = re.compile(r'<a class="button big" href="([^"]+/deals/new/)"')
# The next deal's form the editor's sheet holds: table.js opens it on the phone, online too.
HELD_FORM = re.compile(r'<template id="offline-deal"[^>]*>(.*?)</template>', re.S)
# The CSRF token htmx sends in its header (the page's body, hx-headers).
CSRF_HEADER = re.compile(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'')
# A deal's correction link, and whether it carries its stored values (data-values): the
# sheet's own form opens that correction without a connection, so table.js fetches only
# the forms of the others.
EDIT_URL = re.compile(
    r'<th scope="row" class="num"><a href="([^"]+/deals/\d+/edit/)" hx-get="[^"]*"'
    r"( data-values=)?"
)


def hidden_field(body: str, name: str) -> str | None:
    match = re.search(rf'name="{name}" value="([^"]*)"', body)
    return match.group(1) if match else None


async def read_events(reader: asyncio.StreamReader, end: float, heard) -> float | None:
    """Read a live stream until ``end`` or its close, an event at a time (one search of the
    buffer, not a Python call per line: a tournament's event is some 500 lines, to 400
    phones): each ``version`` event's data lines handed to ``heard`` (a beat only says the
    stream is alive); the ``retry:`` it named, in seconds (None: none). The connection is
    opened with a limit of ``STREAM_LIMIT`` bytes an event."""
    retry = None
    while time.monotonic() < end:
        try:
            block = await asyncio.wait_for(
                reader.readuntil(b"\n\n"), max(0.1, end - time.monotonic())
            )
        except asyncio.IncompleteReadError:
            break
        kind, data = b"message", []
        for line in block.split(b"\n"):
            if line.startswith(b"retry: "):
                retry = int(line[7:]) / 1000
            elif line.startswith(b"event: "):
                kind = line[7:].strip()
            elif line.startswith(b"data: "):
                data.append(line[6:].rstrip(b"\r"))
        if data and kind == b"version":
            await heard(data)
    return retry


STREAM_LIMIT = 1 << 22


class Phone:
    """One phone at a table, as its browser, htmx and static/js/table.js behave."""

    def __init__(self, evening: Evening, table: dict, link: str, rng: random.Random, visible):
        self.evening = evening
        self.table = table
        self.link = link  # the game page's path (viewer or editor link)
        self.editor = link == table["editor"]
        self.rng = rng
        self.visible = visible  # fraction of the time the screen is on
        self.jar: dict[str, str] = {}
        self.location = link  # what the address bar shows (htmx pushes partials' URLs)
        self.poll_url: str | None = None
        self.version = 0
        self.sheet = ""  # the last sheet HTML shown
        self.csrf = ""  # the CSRF token of the page's body (htmx sends it in its header)
        self.prefetched: set[str] = set()
        self.tasks: list[asyncio.Task] = []
        self.live_lang = ""  # the page's data-live-lang: its stream carries the new sheets
        self.saving = False  # the editor's POST in flight
        self.waiting = 0  # the newest version an event named meanwhile

    def headers(self, htmx_target: str | None = None, **extra: str) -> dict[str, str]:
        headers = {"Accept": "text/html", **extra}
        if htmx_target is not None:
            headers["HX-Request"] = "true"
            headers["HX-Target"] = htmx_target
            headers["HX-Current-URL"] = f"http://{HOST}:{self.evening.port}{self.location}"
        if self.jar:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.jar.items())
        return headers

    def keep_cookies(self, answer: Answer) -> None:
        for header in answer.cookies:
            name, _, rest = header.partition("=")
            self.jar[name.strip()] = rest.split(";", 1)[0]

    def shown(self, html: str) -> None:
        """A sheet was swapped in: its poll element says the version; the editor's phone
        fetches its forms once per version a moment later."""
        match = POLL_URL.search(html)
        if match:
            self.poll_url = match.group(1).replace("&amp;", "&")
            before, self.version = self.version, int(match.group(2))
            self.sheet = html
            made = (self.table["editor"], self.version)
            sent = self.evening.sent.get(made)
            now = time.monotonic()
            # A version this phone shows for the first time (a reload of the page it already
            # showed is no update: counted, it gave the age of the sheet as a latency).
            if (
                sent is not None
                and self.version > before
                and not self.editor
                and self.evening.start <= now < self.evening.end
            ):
                self.evening.samples[FROM_SAVE].append(now - sent)
                # Shown before the editor's own phone had its answer (the viewers' answer
                # is kept with the change, and the stream tells them at its commit): 0.
                saved = self.evening.saved.get(made)
                self.evening.samples[LATENCY].append(0.0 if saved is None else now - saved)
        if self.editor and match:
            self.later(FORM_PREFETCH_DELAY, self.prefetch_forms(self.version, html))

    def later(self, delay: float, coro) -> None:
        async def run():
            if await self.evening.sleep_until(time.monotonic() + delay):
                await coro
            else:
                coro.close()

        self.tasks.append(asyncio.ensure_future(run()))

    def screen_on(self, now: float) -> bool:
        if self.visible >= 1:
            return True
        slot = int(now // 30)  # the screen is on or off for stretches of 30 s
        return random.Random(hash((id(self), slot))).random() < self.visible

    async def open_page(self, kind: str) -> None:
        answer = await self.evening.call(kind, "GET", self.link, self.headers())
        if answer is not None:
            self.keep_cookies(answer)
            self.location = self.link
            token = CSRF_HEADER.search(answer.body)
            self.csrf = token.group(1) if token else self.csrf
            lang = LIVE_LANG.search(answer.body)
            self.live_lang = lang.group(1) if lang else ""
            self.shown(answer.body)
            if self.editor:
                self.prefetched.clear()  # a reloaded page forgets what it fetched

    async def poll(self) -> None:
        if self.poll_url is None:
            return
        answer = await self.evening.call(
            "live update, unchanged",
            "GET",
            self.poll_url,
            self.headers("sheet"),
            expect=(204, 200),
            kind_of=lambda status: (
                "live update, new sheet" if status == 200 else "live update, unchanged"
            ),
        )
        if answer is not None and answer.status == 200:
            self.shown(answer.body)

    async def prefetch_forms(self, version: int, html: str) -> None:
        # As table.js: the last three deals' corrections the sheet cannot open itself (the
        # next deal's form is in the sheet too).
        urls = [url for url, values in EDIT_URL.findall(html)[-3:] if not values]
        for url in urls:  # one after the other, as table.js fetches them
            key = f"{version} {url}"
            if key in self.prefetched:
                continue
            self.prefetched.add(key)
            await self.evening.call("forms prefetch", "GET", url, self.headers("game"))

    async def run(self, join_at: float) -> None:
        ev = self.evening
        if not await ev.sleep_until(join_at):
            return
        await self.open_page("game page (reload)")
        if ev.live_port:
            self.tasks.append(asyncio.ensure_future(self.follow()))
        every = 1e9 if ev.live_port else POLL_SECONDS  # no poll while a stream is held
        next_poll = time.monotonic() + self.rng.uniform(0, every)
        next_reload = time.monotonic() + self.rng.expovariate(1 / ev.reload_mean)
        for _ in range(1_000_000):  # bounded; the evening's end stops it first
            if not await ev.sleep_until(min(next_poll, next_reload)):
                break
            now = time.monotonic()
            if now >= next_reload:
                await self.open_page("game page (reload)")
                next_reload = now + self.rng.expovariate(1 / ev.reload_mean)
                continue
            if self.screen_on(now):
                await self.poll()
            next_poll += every
            if next_poll < time.monotonic():  # an answer slower than the poll: no burst
                next_poll = time.monotonic() + every

    async def follow(self) -> None:
        """Hold the game's stream (static/js/live.js): on a newer version, fetch the sheet
        with the sheet's own request at once; reconnect after the server's ``retry:``."""
        ev = self.evening
        token = self.link.rstrip("/").rsplit("/", 1)[-1]
        for _ in range(10_000):
            if time.monotonic() >= ev.end:
                return
            retry = 2.0
            writer = None
            try:
                reader, writer = await asyncio.open_connection(
                    HOST, ev.live_port, limit=STREAM_LIMIT
                )
                lang = f"&l={self.live_lang}" if self.live_lang else ""
                writer.write(
                    f"GET /live/games/{token}?v={self.version}{lang} HTTP/1.1\r\n"
                    f"Host: {HOST}\r\nAccept: text/event-stream\r\n\r\n".encode()
                )
                await writer.drain()
                status = await asyncio.wait_for(reader.readline(), REQUEST_TIMEOUT)
                if b" 200 " not in status:
                    ev.stream_errors += 1
                    retry = 30.0
                    raise ConnectionError(status.decode(errors="replace"))
                ev.streams += 1
                ev.most_streams = max(ev.most_streams, ev.streams)
                try:
                    retry = await read_events(reader, ev.end, self.heard) or retry
                finally:
                    ev.streams -= 1
            except (TimeoutError, OSError, ConnectionError, ValueError):
                pass
            finally:
                if writer is not None:
                    writer.close()
            if not await ev.sleep_until(time.monotonic() + retry):
                return

    async def heard(self, data: list[bytes]) -> None:
        """An event's data: the version, and on the lines after it the new sheet itself
        (live.js swaps it in without a request); else the sheet is fetched."""
        if not data[0].isdigit() or int(data[0]) <= self.version:
            return
        if not self.screen_on(time.monotonic()):
            return
        if self.saving and len(data) == 1:  # its own save's answer will show it
            self.waiting = max(self.waiting, int(data[0]))
            return
        if len(data) > 1:
            self.evening.pushed += 1
            self.shown(b"\n".join(data[1:]).decode())
        else:
            await self.poll()

    async def record_deals(self, first: float, every: float) -> None:
        """The editor's phone: a deal through the form about every ``every`` seconds."""
        ev = self.evening
        moment = first
        for _ in range(10_000):
            if not await ev.sleep_until(moment):
                break
            await self.record_one()
            moment += self.rng.uniform(0.75 * every, 1.25 * every)

    async def record_one(self) -> None:
        ev = self.evening
        url = next(iter(DEAL_NEW_URL.findall(self.sheet)), None)
        if url is None:
            return
        held = HELD_FORM.search(self.sheet)
        if held is not None and self.csrf and not ev.server_form:
            # table.js opens the form the sheet holds: its version, a one-time token made on
            # the phone, the CSRF token in htmx's header; no request.
            fields = {
                "version": hidden_field(held.group(1), "version") or "",
                "once": "p" + secrets.token_hex(16),
            }
            csrf = {"X-CSRFToken": self.csrf}
        else:  # a sheet without it (none of the app's now): the server's form
            form = await ev.call("deal form", "GET", url, self.headers("game"))
            if form is None:
                return
            fields = {
                name: hidden_field(form.body, name) or ""
                for name in ("csrfmiddlewaretoken", "version", "once")
            }
            csrf = {}
        self.location = url
        seats = self.table["phones"]
        entry = {
            "went_out": str(self.rng.randrange(seats)),
            "mode": "rows",
            "wild_twos": str(self.rng.randint(0, 1)),
            "jokers": str(self.rng.randint(0, 1)),
        }
        for step in range(2):  # the preview follows the taps
            await asyncio.sleep(2.5)
            query = urlencode({"version": fields["version"], "once": fields["once"], **entry})
            await ev.call("deal preview", "GET", f"{url}?{query}", self.headers("preview"))
            if step == 0:
                entry["jokers"] = str(self.rng.randint(0, 1))
        await asyncio.sleep(2.0)
        body = urlencode({**fields, **entry}).encode()
        made = (
            (self.table["editor"], int(fields["version"]) + 1)
            if fields["version"].isdigit()
            else None
        )
        if made is not None:  # before the answer: another phone may show it first
            ev.sent[made] = time.monotonic()
        self.saving = True  # an event of this change waits for the answer (live.js)
        try:
            saved = await ev.call(
                "deal saved (POST)",
                "POST",
                url,
                self.headers(
                    "game", **{"Content-Type": "application/x-www-form-urlencoded"}, **csrf
                ),
                body,
                expect=(200, 302),
            )
        finally:
            self.saving = False
        await self.after_saving(saved, made)

    async def after_saving(self, saved: Answer | None, made: tuple[str, int] | None) -> None:
        ev = self.evening
        if saved is None:
            self.location = self.link
            await self.heard_while_saving()
            return
        self.keep_cookies(saved)
        if made is not None:
            ev.saved[made] = time.monotonic()
        if saved.status == 200:  # the sheet itself (scorepad/views/common.sheet_after_saving)
            self.location = saved.headers.get("hx-push-url", self.link)
            self.shown(saved.body)
        else:
            target = saved.headers.get("location", self.link)
            sheet = await ev.call("sheet after saving", "GET", target, self.headers("game"))
            if sheet is not None:
                self.keep_cookies(sheet)
                self.location = target
                self.shown(sheet.body)
        await self.heard_while_saving()

    async def heard_while_saving(self) -> None:
        """An event heard while the save was in flight: fetched only if the answer did not
        show that version (another phone's change, or the save refused)."""
        waiting, self.waiting = self.waiting, 0
        if waiting > self.version:
            await self.poll()

    async def check_hands(self, every: float) -> None:
        ev = self.evening
        moment = ev.start + self.rng.expovariate(1 / every)
        for _ in range(10_000):
            if not await ev.sleep_until(moment):
                break
            query = urlencode({"variant": "classic", "cards": self.rng.choice(CHECK_HANDS)})
            await ev.call(
                "hand checker",
                "GET",
                f"{self.table['check']}?{query}",
                self.headers("check-result"),
            )
            moment += self.rng.expovariate(1 / every)


async def bare_probe(evening: Evening) -> None:
    moment = evening.start
    for _ in range(1_000_000):
        if not await evening.sleep_until(moment):
            break
        await evening.call("bare page (side by side)", "GET", "/bench/bare", {})
        moment = max(moment + 0.1, time.monotonic())


async def loop_probe(evening: Evening) -> None:
    """How late the clients' event loop wakes from a 10 ms sleep, and how long the garbage
    collector of this process pauses it, in the window: a delay the phones measure that
    no server caused."""
    began: list[float] = []

    def collected(phase: str, info: dict) -> None:
        if phase == "start":
            began.append(time.perf_counter())
        elif began and evening.start <= time.monotonic() < evening.end:
            evening.gc_pauses.append(time.perf_counter() - began.pop())
        else:
            began.clear()

    gc.callbacks.append(collected)
    try:
        await evening.sleep_until(evening.start)
        while time.monotonic() < evening.end:
            asked = time.monotonic()
            await asyncio.sleep(0.01)
            evening.loop_late.append(time.monotonic() - asked - 0.01)
    finally:
        gc.callbacks.remove(collected)


async def run_evening(
    port: int, tables: list[dict], args, seed: int, live_port: int | None = None
) -> Evening:
    rng = random.Random(seed)
    # The phones open their pages, staggered; with streams, no faster than the stream
    # process opens them (bench/streams.py: about 240 a second), or the first seconds
    # measured would be phones still waiting for their stream, not the evening.
    phones_count = sum(table["phones"] for table in tables)
    join = 4.0 + len(tables) / 100
    if live_port:
        join = max(join, phones_count / STREAM_OPENS)
    t0 = time.monotonic()
    evening = Evening(port, t0 + join + args.settle, args.seconds, live_port)
    evening.server_form = args.server_form
    evening.reload_mean = RELOAD_MEAN / getattr(args, "more_often", 1)
    phones, coros = [], []
    for table in tables:
        links = [table["editor"]] + [table["viewer"]] * (table["phones"] - 1)
        at_table = [
            Phone(evening, table, link, random.Random(rng.random()), args.visible) for link in links
        ]
        phones += at_table
        for phone in at_table:
            coros.append(phone.run(t0 + rng.uniform(0, join)))
        first_deal = evening.start + rng.uniform(0, args.deal_every)
        coros.append(at_table[0].record_deals(first_deal, args.deal_every))
        coros.append(rng.choice(at_table).check_hands(args.checker_every))
    coros.append(bare_probe(evening))
    coros.append(loop_probe(evening))

    async def backlog() -> None:
        await asyncio.sleep(max(0.0, evening.start - time.monotonic()))
        evening.in_flight_at_start = evening.in_flight

    coros.append(backlog())
    tasks = [asyncio.ensure_future(c) for c in coros]
    await asyncio.wait(tasks, timeout=join + args.seconds + REQUEST_TIMEOUT + 15)
    late = [t for phone in phones for t in phone.tasks if not t.done()]
    if late:
        await asyncio.wait(late, timeout=REQUEST_TIMEOUT + 5)
    for task in tasks + late:
        task.cancel()
    return evening


def server_cpu(pid: int) -> float:
    """CPU seconds of gunicorn: the master, its reaped workers and its live workers."""
    tick = os.sysconf("SC_CLK_TCK")

    def stat(p: int) -> list[str]:
        text = Path(f"/proc/{p}/stat").read_text()
        return text[text.rindex(")") + 2 :].split()

    fields = stat(pid)
    total = sum(int(fields[i]) for i in (11, 12, 13, 14))  # utime stime cutime cstime
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                child = stat(int(entry.name))
            except (OSError, ValueError):
                continue
            if child[1] == str(pid):
                total += int(child[11]) + int(child[12])
    return total / tick


def named_cpu(name: str) -> float:
    """CPU seconds of the processes called ``name`` (PostgreSQL's: "postgres"), with those of
    its processes that ended (a connection's backend): the eldest's reaped children's."""
    tick = os.sysconf("SC_CLK_TCK")
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                text = (entry / "stat").read_text()
            except OSError:
                continue
            if text[text.index("(") + 1 : text.rindex(")")] == name:
                stats[int(entry.name)] = text[text.rindex(")") + 2 :].split()
    total = 0
    for fields in stats.values():
        total += int(fields[11]) + int(fields[12])  # utime stime
        if int(fields[1]) not in stats:  # the eldest: its ended children's too
            total += int(fields[13]) + int(fields[14])
    return total / tick


def conf_threads(env: dict[str, str]) -> int:
    """The threads of each gunicorn worker that continental/gunicorn_conf.py gives ``env``."""
    return int(conf_setting(env, "threads"))


def conf_setting(env: dict[str, str], name: str, default: object = None) -> object:
    """A setting that continental/gunicorn_conf.py gives ``env``."""
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        return runpy.run_path(str(ROOT / "continental" / "gunicorn_conf.py")).get(name, default)
    finally:
        os.environ.clear()
        os.environ.update(saved)


def machine_busy() -> float:
    """CPU seconds the whole machine spent busy (every process and the kernel): /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


BACKGROUND = ("forms prefetch",)  # fetched for later by table.js: nobody waits for it


def print_evening(
    k: int, evening: Evening, reference: float, cpu: dict, idle: dict[str, float] | None = None
) -> tuple[bool, bool]:
    """The table of one evening; whether it holds the target, and whether it does for the
    kinds a player waits for (all but the background prefetch). With ``idle`` (the push
    scenario: each kind's p95 at the first, smallest step) the target is the issue's: no
    error, the update latency's p95 within 300 ms, every kind's p95 within 3 x its own
    idle p95."""
    budget = 3 * reference
    bare = percentile(evening.samples["bare page (side by side)"], 95)
    print(
        f"  {k} tables, {cpu['phones']} phones, {args_seconds(evening):.0f} s measured:"
        f" server {cpu['server']:.2f} cores, clients {cpu['clients']:.2f} cores,"
        + (f" PostgreSQL {cpu['database']:.2f} cores," if "database" in cpu else "")
        + f" the machine {cpu['busy']:.2f} of {os.cpu_count()} cores busy,"
        f" load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(
        f"    {'kind':26} {'count':>6} {'req/s':>6} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7}"
        f" {'errors':>6} {'p95/ref':>8} {'p95/bare':>9}"
    )
    holds = waited = True
    for kind in KINDS:
        values, errors = evening.samples[kind], evening.errors[kind]
        if not values and not errors:
            continue
        p95 = percentile(values, 95)
        if kind == FROM_SAVE:
            over = False
        elif kind == LATENCY:
            over = idle is not None and not p95 <= 300.0
        elif idle is not None:
            own = idle.get(kind)
            over = kind != "bare page (side by side)" and (
                errors > 0 or (own is not None and not p95 <= 3 * own)
            )
        else:
            over = kind != "bare page (side by side)" and (errors > 0 or not p95 <= budget)
        holds = holds and not over
        waited = waited and (not over or kind in BACKGROUND)
        print(
            f"    {kind:26} {len(values):6d} {len(values) / args_seconds(evening):6.1f}"
            f" {percentile(values, 50):7.1f} {p95:7.1f} {percentile(values, 99):7.1f}"
            f" {errors:6d} {p95 / reference:7.2f}x {p95 / bare:8.2f}x{'  OVER' if over else ''}"
        )
        if kind in evening.first_error:
            print(f"      first error: {evening.first_error[kind]}")
    if idle is not None:
        print(
            f"    streams held at most: {evening.most_streams}, refused: {evening.stream_errors};"
            f" stream process {cpu.get('live', 0):.2f} cores, {cpu.get('live_rss', 0):.0f} MB;"
            f" requests unanswered when the window opened: {evening.in_flight_at_start};"
            f" new sheets shown from their event (no request): {evening.pushed}"
        )
        late, pauses = evening.loop_late, evening.gc_pauses
        if late:
            print(
                f"    the clients' loop woke late by p50 {percentile(late, 50):.1f}"
                f" p95 {percentile(late, 95):.1f} max {max(late) * 1000:.1f} ms;"
                f" their garbage collector paused it {len(pauses)} times,"
                f" {sum(pauses) * 1000:.0f} ms in all, at most"
                f" {max(pauses, default=0) * 1000:.1f} ms (it is off in the evening);"
                f" the clients' memory at most"
                f" {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
            )
        print(
            "    target: no error, update latency p95 <= 300 ms, every kind's p95 <= 3 x its"
            f" p95 at the first step: {'holds' if holds else 'missed'}"
            f" (without the background prefetch: {'holds' if waited else 'missed'})"
        )
        return holds, waited
    print(
        f"    target: every kind's p95 <= 3 x bare reference = {budget:.1f} ms, no error:"
        f" {'holds' if holds else 'missed'}"
        f" (without the background prefetch: {'holds' if waited else 'missed'})"
    )
    return holds, waited


def args_seconds(evening: Evening) -> float:
    return evening.end - evening.start


def bare_reference(port: int, clients: int = 20, seconds: float = 5.0) -> float:
    """The bare page's p95 under ``clients`` concurrent clients back to back, in ms."""
    target = Target("bare page", "/bench/bare", 200)
    drive(port, target, 1.0, clients)
    return percentile(drive(port, target, seconds, clients).latencies, 95)


class StreamProcess:
    """continental/liveserver.py (the live streams, as serve runs them) on a free loopback port."""

    def __init__(self, env: dict[str, str], log_path: Path):
        self.port = free_port()
        # Every phone of the bench comes from 127.0.0.1: no limit per address here.
        self.env = {**env, "LIVE_STREAMS": "true", "LIVE_PER_ADDRESS": "1000000"}
        self.log_path = log_path
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> StreamProcess:
        self.log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "continental.liveserver"),
                *("--host", HOST, "--port", str(self.port)),
                *("--log-level", "warning", "--timeout-graceful-shutdown", "2"),
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((HOST, self.port), timeout=1):
                    return self
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"the stream process never listened; see {self.log_path}")

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def __exit__(self, *exc) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def run_evenings(label: str, env: dict[str, str], args, log_path: Path) -> None:
    push = args.scenario == "push"
    print(f"\n== {label}: evenings{' with live push' if push else ''} ==")
    t0 = time.perf_counter()
    prepare(env, static=False)
    steps = sorted(set(args.tables))
    tables = make_tables(env, steps[-1], args.seed)
    print(
        f"  {len(tables)} tables (classic, 4-6 phones, 0-10 deals played) ready in"
        f" {time.perf_counter() - t0:.1f} s"
    )
    passed: list[int] = []
    passed_waited: list[int] = []
    live = StreamProcess(env, log_path.with_suffix(".live.log")) if push else None
    idle: dict[str, float] | None = None
    with (
        Gunicorn(env, args.workers, log_path, args.threads) as server,
        live or contextlib.nullcontext(),
    ):
        workers = server.env.get("GUNICORN_WORKERS") or f"{2 * os.cpu_count() + 1} (its default)"
        threads = conf_threads(server.env)
        worker_class = conf_setting(server.env, "worker_class", "gthread")
        kind = f"{worker_class} workers of {threads} threads" if threads > 1 else "sync workers"
        reference = bare_reference(server.port)
        print(
            f"  gunicorn on {HOST}:{server.port} (continental/gunicorn_conf.py), {workers} {kind};"
            f" bare reference (p95, 20 clients back to back): {reference:.1f} ms"
        )
        for k in steps:
            cpu_server = server_cpu(server.proc.pid)
            cpu_clients = time.process_time()
            wall = time.monotonic()
            cpu_live = server_cpu(live.proc.pid) if live else 0.0
            on_postgres = env.get("DATABASE_URL", "").startswith("postgres")
            cpu_database = named_cpu("postgres") if on_postgres else 0.0
            busy = machine_busy()
            log_at = server.log_path.stat().st_size
            access_at = server.log_offset()
            # The idle step is the reference of every kind: long enough for a p95 of each.
            step_args = args
            if push and idle is None:
                step_args = argparse.Namespace(
                    **{
                        **vars(args),
                        "seconds": args.idle_seconds,
                        "checker_every": args.checker_every / IDLE_MORE,
                        "more_often": IDLE_MORE,
                    }
                )
            # The clients' own garbage collector is off while they drive the evening: at 1,500
            # tables (7,500 phones in one loop) it paused the loop up to 360 ms at a time,
            # which every kind measured then counted as the server's (loop_probe).
            gc.collect()
            gc.disable()
            try:
                evening = asyncio.run(
                    run_evening(
                        server.port,
                        tables[:k],
                        step_args,
                        args.seed + k,
                        live.port if live else None,
                    )
                )
            finally:
                gc.enable()
            wall = time.monotonic() - wall
            cpu = {
                "server": (server_cpu(server.proc.pid) - cpu_server) / wall,
                "clients": (time.process_time() - cpu_clients) / wall,
                "phones": sum(t["phones"] for t in tables[:k]),
                "busy": (machine_busy() - busy) / wall,
            }
            if on_postgres:
                cpu["database"] = (named_cpu("postgres") - cpu_database) / wall
            if live:
                cpu["live"] = (server_cpu(live.proc.pid) - cpu_live) / wall
                cpu["live_rss"] = live.rss_mb()
            if push and idle is None:
                # The first, smallest step is the idle server each kind is judged against.
                idle = {
                    kind: percentile(values, 95)
                    for kind, values in evening.samples.items()
                    if values and kind != LATENCY
                }
            holds, waited = print_evening(k, evening, reference, cpu, idle)
            print_where_time_went(evening)
            print_own_time(server, access_at)
            print_refused(server.log_path, log_at)
            if holds and len(passed) == steps.index(k):
                passed.append(k)
            if waited and len(passed_waited) == steps.index(k):
                passed_waited.append(k)
    cores = os.cpu_count() or 1
    for name, found in (("capacity", passed), ("without the prefetch", passed_waited)):
        if found:
            best = found[-1]
            more = " (the largest step tried: it may hold more)" if best == steps[-1] else ""
            print(f"  {name}: {best} tables on {cores} cores = {best / cores:g} per core{more}")
        else:
            print(f"  {name}: below {steps[0]} tables (the smallest step missed the target)")


SERVER_TIMING = re.compile(r"(\w+);dur=([\d.]+)")


def server_timing(
    header: str,
) -> tuple[float, float, float, float, float, float, float] | None:
    """(cpu, gc, app, writer, commit, queued) in seconds from an answer's Server-Timing
    header (writer and commit on SQLite: waiting for the writer lock, committing; queued:
    from the request sent to the worker's middleware taking it; 0 where not said), and the
    requests the other workers were in when it began (a count)."""
    found = {name: float(value) / 1000 for name, value in SERVER_TIMING.findall(header)}
    if "cpu" not in found or "app" not in found:
        return None
    return (
        found["cpu"],
        found.get("gc", 0.0),
        found["app"],
        found.get("writer", 0.0),
        found.get("commit", 0.0),
        found.get("queued", 0.0),
        round(found.get("others", 0.0) * 1000),
    )


def print_where_time_went(evening: Evening) -> None:
    """Per kind, from the answers' Server-Timing: the worker's whole time for the request,
    its CPU, and the rest (waiting for a core or for SQLite's writer), p50 and p95; of that
    rest, on SQLite, the wait for the writer lock and the commits (where any request of the
    kind waited or committed); and the garbage collector's time in all. A phone's p95 far
    above the worker's whole time was spent before a worker took the request (or in the
    clients)."""
    lines = []
    for kind, values in evening.timing.items():
        if not values:
            continue
        cpu = [v[0] for v in values]
        app = [v[2] for v in values]
        wait = [v[2] - v[0] for v in values]
        collected = sum(v[1] for v in values)
        line = (
            f"      {kind:26} in the worker p50 {percentile(app, 50):6.1f} p95 {percentile(app, 95):6.1f};"
            f" CPU p50 {percentile(cpu, 50):5.1f} p95 {percentile(cpu, 95):5.1f};"
            f" waiting p50 {percentile(wait, 50):5.1f} p95 {percentile(wait, 95):6.1f};"
            f" garbage collector {collected * 1000:.0f} ms in all"
        )
        queued = [v[5] for v in values]
        # The requests the others were in when it began, for those that waited over 20 ms
        # before a worker took them: as many as there are workers less one, and they waited
        # for a free worker.
        waited = sorted(int(v[6]) for v in values if v[5] > 0.020)
        line += (
            f"\n      {'':26}   before it, from the phone's request sent to the worker taking"
            f" it: p50 {percentile(queued, 50):5.1f} p95 {percentile(queued, 95):6.1f}"
            + (
                f"; {len(waited)} waited over 20 ms, the others then in p50"
                f" {waited[len(waited) // 2]} (fewest {waited[0]}, most {waited[-1]}) requests"
                if waited
                else ""
            )
        )
        writer = [v[3] for v in values]
        commit = [v[4] for v in values]
        if any(writer) or any(commit):
            line += (
                f"\n      {'':26}   of the waiting: for the writer lock p50"
                f" {percentile(writer, 50):5.1f} p95 {percentile(writer, 95):6.1f};"
                f" committing p50 {percentile(commit, 50):5.1f} p95 {percentile(commit, 95):6.1f}"
            )
        lines.append(line)
    if lines:
        print("    where the answers' time went in the workers (Server-Timing, ms):")
        print("\n".join(lines))


def print_own_time(server: Gunicorn, offset: int) -> None:
    """The workers' own time on the step's requests (gunicorn's access log, %(D)s: from the
    request read to the answer written), the POSTs apart: a p95 the phones see far above it
    is time spent before a worker took the request (or in the clients), not in the workers."""
    posts: list[float] = []
    others: list[float] = []
    by_kind: dict[str, list[float]] = {}  # the window's requests, by the kind they were sent as
    for method, _path, took, kind in server.logged_kinds(offset):
        (posts if method == "POST" else others).append(took)
        if kind:
            by_kind.setdefault(kind, []).append(took)
    figures = []
    for name, values in (("POSTs", posts), ("other requests", others)):
        if values:
            figures.append(
                f"{name} {len(values)}: p50 {percentile(values, 50):.1f} p95"
                f" {percentile(values, 95):.1f} p99 {percentile(values, 99):.1f} ms"
            )
    slow = sum(1 for v in posts + others if v > 0.1)
    print(
        "    the workers' own time (access log, the whole step with the joining): "
        + "; ".join(figures)
        + f"; above 100 ms: {slow}"
    )
    # In the window, by kind: gunicorn's time from the request read to the answer written,
    # beside the phones' p95 and Server-Timing's (the middleware's): what the phones see above
    # gunicorn's is before a worker took the request; gunicorn's above Server-Timing's is in
    # the worker around Django's middleware (reading, writing, closing).
    if by_kind:
        print("    the workers' own time in the window, by kind (access log, ms):")
        for kind in KINDS:
            values = by_kind.get(kind)
            if values:
                print(
                    f"      {kind:26} {len(values):5d} p50 {percentile(values, 50):6.1f}"
                    f" p95 {percentile(values, 95):6.1f} p99 {percentile(values, 99):6.1f}"
                )


# scorepad/board.py's warnings when the cache refused a write at once (on SQLite: the write
# lock was held by another writer): a sheet or a viewers' answer not kept is rendered again.
REFUSED = b"the cache could not take it now"


def print_refused(log_path: Path, offset: int) -> None:
    """The cache writes refused during the step, and the errors the server logged."""
    with open(log_path, "rb") as log:
        log.seek(offset)
        lines = log.read().splitlines()
    refused = sum(REFUSED in line for line in lines)
    tracebacks = sum(line.startswith(b"Traceback") for line in lines)
    print(
        f"    cache writes refused at once (a sheet or answer not kept): {refused};"
        f" tracebacks in the server's log: {tracebacks}"
    )


def postgres_answers() -> str | None:
    """The server's version, or None (with the reason printed) when it does not answer."""
    try:
        import psycopg

        with psycopg.connect(PG_ADMIN, connect_timeout=3, autocommit=True) as conn:
            return conn.execute("SHOW server_version").fetchone()[0]
    except Exception as exc:
        print(f"\n== PostgreSQL: skipped, no answer on {HOST}:5432 ({exc}) ==")
        return None


def pg_admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN, connect_timeout=5, autocommit=True) as conn:
        conn.execute(sql)


def step_list(text: str) -> list[int]:
    steps = sorted({int(part) for part in text.split(",") if part.strip()})
    if not steps or steps[0] < 1 or steps[-1] > 2000:
        raise argparse.ArgumentTypeError("tables: numbers from 1 to 2000, e.g. 50,200")
    return steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--scenario",
        choices=["evening", "push", "one-game", "both", "tournament"],
        default="evening",
    )
    parser.add_argument(
        "--tables",
        type=step_list,
        default=step_list("50,100,200,300,400"),
        help="evening: the numbers of tables to step through (default 50,100,200,300,400)",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=2.0,
        help="evening: seconds between the last phone's joining and the measured window (2)",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="evening: measured seconds per step (default 30); one game: per target (10)",
    )
    parser.add_argument("--deal-every", type=float, default=60.0, help="evening: seconds (60)")
    parser.add_argument(
        "--idle-seconds",
        type=float,
        default=120.0,
        help="push: measured seconds of the first, idle step, every kind's reference (120)",
    )
    parser.add_argument(
        "--checker-every", type=float, default=300.0, help="evening: seconds per table (300)"
    )
    parser.add_argument(
        "--visible", type=float, default=1.0, help="evening: share of the time a screen is on (1)"
    )
    parser.add_argument(
        "--server-form",
        action="store_true",
        help="evening: the editor fetches the deal form (as table.js did before it opened the"
        " form the sheet holds)",
    )
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--clients", type=int, default=20, help="one game: concurrent clients")
    parser.add_argument("--warmup", type=float, default=1.0, help="one game: unmeasured seconds")
    parser.add_argument(
        "--workers",
        type=int,
        default=int(os.environ["GUNICORN_WORKERS"]) if os.environ.get("GUNICORN_WORKERS") else None,
        help="gunicorn workers (default: continental/gunicorn_conf.py's; one game: 2)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=int(os.environ["GUNICORN_THREADS"]) if os.environ.get("GUNICORN_THREADS") else None,
        help="evening: threads per gunicorn worker (default: continental/gunicorn_conf.py's)",
    )
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--pg-db", default=PG_DB, help=f"the database made and dropped ({PG_DB})")
    args = parser.parse_args(argv)
    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", args.pg_db):
        parser.error("--pg-db: a plain lower-case name")
    args.clients = min(max(args.clients, 1), 200)
    args.visible = min(max(args.visible, 0.0), 1.0)
    args.deal_every = min(max(args.deal_every, 10.0), 600.0)
    args.checker_every = min(max(args.checker_every, 10.0), 3600.0)
    one_game = argparse.Namespace(**vars(args))
    one_game.seconds = min(max(args.seconds or 10.0, 0.5), 300.0)
    one_game.workers = args.workers or 2
    if args.scenario == "tournament":  # 100 tables, five minutes (bench/tournament_load.py)
        given = sys.argv[1:] if argv is None else argv
        args.tables = args.tables if any(a.startswith("--tables") for a in given) else [100]
        args.seconds = args.seconds or 300.0
    args.seconds = min(max(args.seconds or 30.0, 5.0), 300.0)
    # A terminated bench stops its gunicorn and drops its database too (the finally blocks).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    # Every phone waits on a connection of its own when the server is slow.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))

    import django
    import gunicorn

    print(
        f"Python {platform.python_version()}, Django {django.get_version()},"
        f" gunicorn {gunicorn.__version__}, {os.cpu_count()} CPUs (shared by server and clients),"
        f" load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )

    def run(label: str, env: dict[str, str], log: Path) -> None:
        if args.scenario in ("one-game", "both"):
            run_database(label, env, one_game, log.with_suffix(".one-game.log"))
        if args.scenario in ("evening", "both", "push"):
            run_evenings(label, env, args, log.with_suffix(".evening.log"))
        if args.scenario == "tournament":  # bench/tournament_load.py, with this module's parts
            from tournament_load import run_tournament

            run_tournament(sys.modules[__name__], label, env, args, log.with_suffix(".tour.log"))

    tmp = Path(tempfile.mkdtemp(prefix="scorepad-load-"))
    try:
        static_root = tmp / "static"
        sqlite_env = bench_env(tmp / "sqlite", static_root)
        t0 = time.perf_counter()
        manage(sqlite_env, "collectstatic", "--noinput", "-v", "0")
        print(f"collectstatic into {static_root}: {time.perf_counter() - t0:.1f} s")
        if args.db in ("sqlite", "both"):
            run("SQLite (WAL)", sqlite_env, tmp / "gunicorn-sqlite")
        if args.db in ("postgres", "both") and (version := postgres_answers()):
            pg_admin(f"DROP DATABASE IF EXISTS {args.pg_db} WITH (FORCE)")
            pg_admin(f"CREATE DATABASE {args.pg_db}")
            try:
                url = f"postgres://postgres@{HOST}:5432/{args.pg_db}"
                env = bench_env(tmp / "pg-data", static_root, url)
                run(f"PostgreSQL {version}", env, tmp / "gunicorn-pg")
            finally:
                pg_admin(f"DROP DATABASE IF EXISTS {args.pg_db} WITH (FORCE)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
