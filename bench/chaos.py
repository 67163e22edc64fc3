"""Six phones, one game, a server that keeps failing: nothing acknowledged is lost or doubled.

    .venv/bin/python bench/chaos.py                          # SQLite, then PostgreSQL
    .venv/bin/python bench/chaos.py --database postgres --writes 60 --seconds 120

A real server is started as bench/load.py starts it (its environment, set-up and gunicorn
runner: gunicorn -c continental/gunicorn_conf.py, production settings, on a free loopback
port; SQLite in a temporary DATA_DIR, or a PostgreSQL database of its own, ``--pg-db``, made
and dropped here). One classic game of four players; ``--phones`` simulated phones (plain
Python HTTP clients, each with its own cookies and CSRF token) hold its editor link and
send writes as the app's forms post them (record a deal, correct one, undo, delete, bring
one back from the history), each with the version it was made on, a one-time token and
``X-Scorepad-Outbox: 1``, following the outbox protocol of static/js/table.js:

- a write goes to the phone's outbox; the outbox is sent in order, the version of each
  write being the phone's known version plus the writes before it in the outbox;
- 200 ``saved`` or ``already``: acknowledged, taken out; the answer's version is learnt
  (only ever upwards, so answers read out of order never move a phone back);
- 409 ``conflict``, 422 ``invalid``, 410 ``gone``: shown to the player, who discards it here
  (the later writes of the outbox then have one version less, as table.js does);
- 429, any 5xx (503 ``retry`` when the database did not answer) or no answer at all: the
  outbox stops and sends it again later, with the same token.

And the chaos: random offline windows (writes kept in the outbox, sent later in order);
replays (an acknowledged write sent again with its token: it must answer ``already``);
reads of the sheet answered out of order; stale versions (a write made on an older version:
it must never be saved); a gunicorn worker killed with SIGKILL every ``--kill-every``
seconds or so; on PostgreSQL every backend of the database ended (``pg_terminate_backend``)
every ``--drop-every`` seconds or so.

At the end the chaos stops, every phone sends what its outbox still holds, and then:
every acknowledged write is in the game's history exactly once (lost: 0, doubled: 0), no
write was saved that no phone had acknowledged, no stale write was saved, and the sheet
every phone fetches (its export.json) equals the server's (read from the database) and a
plain-Python model of the acknowledged writes applied in the order the server made them.
It prints its figures. Bounded in writes (``--writes`` per phone) and time (``--seconds``);
loopback only; it kills only the workers of the gunicorn it started and ends only the
connections to its own database. tests/continental/test_chaos.py runs a short version.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import secrets
import shutil
import signal
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load

ROOT = load.ROOT
HOST = load.HOST
PG_DB = "scorepad_chaos"
PLAYERS = ["Anna", "Ben", "Cleo", "Dan"]
OUTBOX = {"X-Scorepad-Outbox": "1"}
REQUEST_TIMEOUT = 15.0
DRAIN_SECONDS = 60.0  # after the chaos, the longest the phones try to empty their outboxes
OPS = (("record", 45), ("edit", 20), ("undo", 12), ("delete", 10), ("restore", 13))

SETUP_CODE = r"""
import json, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "continental.settings")
import django
django.setup()
from tests.factories import GameFactory
game = GameFactory(variant_id="classic", players=%r)
print("CHAOS-SETUP " + json.dumps({"game": game.pk, "editor": game.editor_token}))
"""

TRUTH_CODE = r"""
import json, os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "continental.settings")
import django
django.setup()
from scorepad.models import Game
game = Game.objects.get(pk=int(sys.argv[1]))
events = list(game.events.order_by("pk").values("pk", "kind", "form_token", "deal_number"))
print("CHAOS-TRUTH " + json.dumps({
    "events": events,
    "deals": [d.went_out for d in game.deals.order_by("number")],
    "totals": [s.total for s in game.seats.order_by("position")],
    "version": game.version,
}))
"""


class Offline(Exception):
    """No answer: the connection failed (a killed worker, a refused connection)."""


class Http:
    """One phone's browser: its own cookies (session, CSRF), a new connection per request."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, fields: dict | None = None, headers: dict | None = None
    ) -> tuple[int, bytes]:
        head = {"Host": f"{HOST}:{self.port}", **(headers or {})}
        if self.cookies:
            head["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if fields is not None:
            body = urlencode(fields)
            head["Content-Type"] = "application/x-www-form-urlencoded"
            head["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        conn = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
        try:
            conn.request(method, path, body=body, headers=head)
            response = conn.getresponse()
            data = response.read()
            for value in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(value).items():
                    self.cookies[name] = morsel.value
            return response.status, data
        except (OSError, http.client.HTTPException) as exc:
            raise Offline(str(exc)) from None
        finally:
            conn.close()


@dataclass
class Entry:
    """A write in a phone's outbox, as table.js keeps it."""

    op: str
    path: str
    fields: dict[str, str]
    once: str
    version: int
    stale: bool = False
    params: dict = field(default_factory=dict)


@dataclass
class Figures:
    writes: int = 0
    sent: int = 0
    acks: int = 0
    already: int = 0
    replays: int = 0
    replays_not_already: int = 0
    conflicts: int = 0
    invalid: int = 0
    gone: int = 0
    refused_other: int = 0  # an answer the protocol does not know (a 4xx page, a 500)
    server_errors: int = 0  # 500 answers
    retry_503: int = 0
    no_answer: int = 0
    stale_sent: int = 0
    stale_saved: int = 0
    offline_windows: int = 0
    reordered_reads: int = 0
    kills: int = 0
    drops: int = 0
    duration: float = 0.0
    setup: float = 0.0
    deals: int = 0
    lost: int = 0
    doubled: int = 0
    unacknowledged_saved: int = 0
    left_in_outboxes: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


EDIT_LINK = re.compile(r'/deals/(\d+)/edit/"')
VERSION = re.compile(r'class="poll"[^>]*data-version="(\d+)"')
RESTORE_EVENT = re.compile(r'name="event" value="(\d+)"')


class Phone:
    def __init__(self, number: int, port: int, token: str, rng: random.Random, fig: Figures):
        self.number = number
        self.http = Http(port)
        self.base = f"/en/games/{token}/"
        self.rng = rng
        self.fig = fig
        self.known = 0
        self.deals = 0
        self.restorable: list[int] = []
        self.outbox: list[Entry] = []
        self.acked: dict[str, Entry] = {}
        self.offline_left = 0

    def count(self, name: str, n: int = 1) -> None:
        with FIG_LOCK:
            setattr(self.fig, name, getattr(self.fig, name) + n)

    def learn(self, version) -> None:
        if isinstance(version, int) and version > self.known:
            self.known = version

    # --- reads ---------------------------------------------------------------------------

    def read(self) -> tuple[int, int] | None:
        try:
            status, body = self.http.request("GET", self.base)
        except Offline:
            return None
        if status != 200:
            return None
        page = body.decode(errors="replace")
        found = VERSION.search(page)
        if not found:
            return None
        numbers = [int(n) for n in EDIT_LINK.findall(page)]
        return int(found.group(1)), max(numbers, default=0)

    def read_reordered(self) -> None:
        """Two reads of the sheet whose answers arrive in the other order."""
        first, second = self.read(), self.read()
        self.count("reordered_reads")
        for answer in (second, first):
            if answer is not None:
                version, deals = answer
                if version >= self.known:
                    self.deals = deals
                self.learn(version)

    def read_history(self) -> None:
        try:
            status, body = self.http.request("GET", self.base + "history/")
        except Offline:
            return
        if status == 200:
            self.restorable = [int(e) for e in RESTORE_EVENT.findall(body.decode())]

    # --- writes --------------------------------------------------------------------------

    def make(self) -> Entry:
        ops, weights = zip(*OPS, strict=True)
        op = self.rng.choices(ops, weights)[0]
        if op in ("edit", "delete") and not self.deals:
            op = "record"
        if op == "restore" and not self.restorable:
            op = "record"
        version = self.known + len(self.outbox)
        stale = version > 1 and self.rng.random() < STALE_SHARE
        if stale:
            version -= self.rng.randint(1, min(3, version - 1))
        once = secrets.token_urlsafe(16)
        fields = {"version": str(version), "once": once}
        params: dict = {}
        if op == "record":
            params["went_out"] = self.rng.randrange(len(PLAYERS))
            number = self.deals + 1 + sum(e.op == "record" for e in self.outbox)
            fields.update(went_out=str(params["went_out"]), mode="rows", number=str(number))
            path = self.base + "deals/new/"
        elif op == "edit":
            params["number"] = self.rng.randint(1, self.deals)
            params["went_out"] = self.rng.randrange(len(PLAYERS))
            fields.update(
                went_out=str(params["went_out"]), mode="rows", number=str(params["number"])
            )
            path = self.base + f"deals/{params['number']}/edit/"
        elif op == "delete":
            params["number"] = self.rng.randint(1, self.deals)
            path = self.base + f"deals/{params['number']}/delete/"
        elif op == "undo":
            path = self.base + "deals/undo/"
        else:
            params["event"] = self.rng.choice(self.restorable)
            fields["event"] = str(params["event"])
            path = self.base + "deals/restore/"
        self.count("writes")
        if stale:
            self.count("stale_sent")
        return Entry(op, path, fields, once, version, stale, params)

    def post(self, entry: Entry) -> tuple[int, dict]:
        fields = {**entry.fields, "csrfmiddlewaretoken": self.http.cookies.get("csrftoken", "")}
        status, body = self.http.request("POST", entry.path, fields, OUTBOX)
        try:
            answer = json.loads(body)
        except ValueError:
            answer = {}
        return status, answer if isinstance(answer, dict) else {}

    def flush(self) -> bool:
        """Send the outbox in order (table.js's ``send``); True when it is empty."""
        while self.outbox:
            entry = self.outbox[0]
            try:
                status, answer = self.post(entry)
            except Offline:
                self.count("no_answer")
                return False
            self.count("sent")
            outcome = answer.get("outcome")
            self.learn(answer.get("version"))
            if status == 200 and outcome in ("saved", "already"):
                self.acknowledged(entry, outcome)
                self.outbox.pop(0)
                if self.rng.random() < REPLAY_SHARE:
                    self.replay(entry)
                continue
            if status == 429 or status >= 500:
                if status == 503 and outcome == "retry":
                    self.count("retry_503")
                elif status == 500:
                    self.count("server_errors")
                    self.problem(f"{entry.op} answered 500")
                return False  # later, with the same token
            name = {409: "conflicts", 422: "invalid", 410: "gone"}.get(status)
            expected = {409: "conflict", 422: "invalid", 410: "gone"}.get(status)
            if name is None or outcome != expected:
                self.count("refused_other")
                self.problem(f"{entry.op} answered {status} {outcome!r}")
            else:
                self.count(name)
            self.discard(entry)
        return True

    def acknowledged(self, entry: Entry, outcome: str) -> None:
        self.count("acks")
        if outcome == "already":
            self.count("already")
        if entry.stale and outcome == "saved":
            self.count("stale_saved")
            self.problem(f"a stale {entry.op} (version {entry.version}) was saved")
        with FIG_LOCK:
            earlier = ACKED.get(entry.once)
            ACKED[entry.once] = entry
        if earlier is not None and outcome == "saved":
            self.count("doubled")
            self.problem(f"{entry.op} {entry.once} was saved twice")
        if entry.op == "record":
            self.deals += 1
        elif entry.op in ("undo", "delete"):
            self.deals = max(self.deals - 1, 0)
        elif entry.op == "restore":
            self.restorable = [e for e in self.restorable if e != entry.params["event"]]
            self.deals += 1

    def replay(self, entry: Entry) -> None:
        """The acknowledged write sent again (its answer was lost, say): once only."""
        try:
            status, answer = self.post(entry)
        except Offline:
            return
        self.count("replays")
        if status == 200 and answer.get("outcome") == "saved":
            self.count("doubled")
            self.problem(f"the replay of {entry.op} {entry.once} was saved again")
        elif status < 500 and not (status == 200 and answer.get("outcome") == "already"):
            self.count("replays_not_already")
            self.problem(f"the replay of {entry.op} answered {status} {answer}")

    def discard(self, entry: Entry) -> None:
        """The player discards a write that needs attention; the later ones shift down."""
        self.outbox.pop(0)
        for later in self.outbox:
            later.version -= 1
            later.fields["version"] = str(later.version)

    def problem(self, text: str) -> None:
        with FIG_LOCK:
            if len(self.fig.problems) < 50:
                self.fig.problems.append(f"phone {self.number}: {text}")

    # --- a phone at the table ----------------------------------------------------------------

    def open(self) -> None:
        for _attempt in range(50):
            answer = self.read()
            if answer is not None and "csrftoken" in self.http.cookies:
                self.learn(answer[0])
                self.deals = answer[1]
                return
            time.sleep(0.1)
        raise RuntimeError(f"phone {self.number} could not open the game")

    def play(self, writes: int, stop: threading.Event) -> None:
        for _n in range(writes):
            if stop.is_set():
                break
            if self.offline_left == 0 and self.rng.random() < OFFLINE_SHARE:
                self.offline_left = self.rng.randint(1, 4)
                self.count("offline_windows")
            if self.offline_left == 0 and self.rng.random() < READ_SHARE:
                self.read_reordered()  # the live update, answered out of order
            if self.offline_left == 0 and self.rng.random() < 0.15:
                self.read_history()
            self.outbox.append(self.make())
            if self.offline_left:
                self.offline_left -= 1
            else:
                self.flush()
            time.sleep(self.rng.random() * 0.03)

    def drain(self, deadline: float) -> None:
        self.offline_left = 0
        while self.outbox and time.monotonic() < deadline:
            if not self.flush():
                time.sleep(0.2)

    def sheet(self) -> dict | None:
        for _attempt in range(20):
            try:
                status, body = self.http.request("GET", self.base + "export.json")
            except Offline:
                time.sleep(0.2)
                continue
            if status == 200:
                return json.loads(body)
            time.sleep(0.2)
        return None


FIG_LOCK = threading.Lock()
ACKED: dict[str, Entry] = {}
STALE_SHARE = 0.08
REPLAY_SHARE = 0.12
OFFLINE_SHARE = 0.12
READ_SHARE = 0.5


# --- the chaos -------------------------------------------------------------------------------


def workers_of(master: int) -> list[int]:
    """The pids whose parent is ``master`` (the gunicorn this run started)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == master:
            pids.append(int(entry.name))
    return pids


def pauses(every: float, rng: random.Random, fig: Figures, stop: threading.Event):
    """Seconds between two blows: about ``every``; the first one as soon as the phones have
    sent their first write (a short run ends before a blow that waits its turn)."""
    while not fig.sent and not stop.wait(0.005):
        pass
    yield rng.uniform(0.01, 0.05) * every
    while True:
        yield rng.uniform(0.5, 1.5) * every


def killer(master: int, every: float, rng: random.Random, stop: threading.Event, fig: Figures):
    for pause in pauses(every, rng, fig, stop):
        if stop.wait(pause):
            return
        pids = workers_of(master)
        if pids:
            try:
                os.kill(rng.choice(pids), signal.SIGKILL)
            except ProcessLookupError:
                continue
            with FIG_LOCK:
                fig.kills += 1


def dropper(db: str, every: float, rng: random.Random, stop: threading.Event, fig: Figures):
    import psycopg

    for pause in pauses(every, rng, fig, stop):
        if stop.wait(pause):
            return
        try:
            with psycopg.connect(load.PG_ADMIN, connect_timeout=3, autocommit=True) as conn:
                ended = conn.execute(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                    " WHERE datname = %s AND pid <> pg_backend_pid()",
                    [db],
                ).fetchone()[0]
        except Exception:
            continue
        with FIG_LOCK:
            fig.drops += ended


# --- the model and the checks ----------------------------------------------------------------


def model_sheet(truth: dict, fig: Figures) -> tuple[list[int], list[int]]:
    """The acknowledged writes applied in the server's order to plain Python: the deals
    (who went out of each) and the totals (a classic deal entered by its rows with none
    ticked: every other player pays the one who went out for going out with no wild card)."""
    from rules.engine.variants import CLASSIC_PAYMENTS

    deals: list[int] = []
    taken: dict[int, tuple[int, int]] = {}  # event pk -> (number, went_out) it took away
    seen: dict[str, int] = {}
    for event in truth["events"]:
        token = event["form_token"]
        if not token:
            continue
        seen[token] = seen.get(token, 0) + 1
        entry = ACKED.get(token)
        if entry is None:
            fig.unacknowledged_saved += 1
            fig.problems.append(f"the server saved a {event['kind']} no phone had acknowledged")
            continue
        p = entry.params
        if entry.op == "record":
            deals.append(p["went_out"])
        elif entry.op == "edit":
            deals[p["number"] - 1] = p["went_out"]
        elif entry.op == "undo":
            taken[event["pk"]] = (len(deals), deals.pop())
        elif entry.op == "delete":
            taken[event["pk"]] = (p["number"], deals.pop(p["number"] - 1))
        elif entry.op == "restore":
            number, went_out = taken.pop(p["event"])
            deals.insert(min(number, len(deals) + 1) - 1, went_out)
    fig.lost = sum(1 for token in ACKED if token not in seen)
    fig.doubled += sum(n - 1 for n in seen.values() if n > 1)
    pay = CLASSIC_PAYMENTS["going_out"] + CLASSIC_PAYMENTS["no_wild"]
    totals = [0] * len(PLAYERS)
    for went_out in deals:
        for position in range(len(PLAYERS)):
            totals[position] += pay * (len(PLAYERS) - 1) if position == went_out else -pay
    return deals, totals


def check(truth: dict, sheets: list[dict | None], fig: Figures) -> None:
    deals, totals = model_sheet(truth, fig)
    if fig.lost:
        fig.problems.append(f"{fig.lost} acknowledged writes are not in the history")
    if (deals, totals) != (truth["deals"], truth["totals"]):
        fig.problems.append(
            f"the model {deals} {totals} differs from the server {truth['deals']} {truth['totals']}"
        )
    for n, sheet in enumerate(sheets):
        if sheet is None:
            fig.problems.append(f"phone {n}: its sheet could not be fetched")
            continue
        shown = ([d["went_out"] for d in sheet["deals"]], sheet["totals"])
        if shown != (truth["deals"], truth["totals"]):
            fig.problems.append(f"phone {n}: its sheet {shown} differs from the server's")


# --- one run ---------------------------------------------------------------------------------


def run(
    database: str = "sqlite",
    *,
    phones: int = 6,
    writes: int = 40,
    seconds: float = 90.0,
    kill_every: float = 4.0,
    drop_every: float = 3.0,
    workers: int = 2,
    seed: int = 21,
    pg_db: str = PG_DB,
    collectstatic: bool = True,
    quiet: bool = False,
) -> Figures:
    """One chaos run on ``database`` ("sqlite" or "postgres"); its figures and problems."""
    ACKED.clear()
    fig = Figures()
    rng = random.Random(seed)
    tmp = Path(tempfile.mkdtemp(prefix="scorepad-chaos-"))
    url = ""
    try:
        if database == "postgres":
            if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", pg_db):
                raise ValueError("pg_db: a plain lower-case name")
            load.pg_admin(f"DROP DATABASE IF EXISTS {pg_db} WITH (FORCE)")
            load.pg_admin(f"CREATE DATABASE {pg_db}")
            url = f"postgres://postgres@{HOST}:5432/{pg_db}"
        env = load.bench_env(tmp / "data", tmp / "static", url)
        if not collectstatic:
            env["PLAIN_STATIC"] = "true"  # no page's static file is fetched here
        t0 = time.monotonic()
        load.prepare(env, static=collectstatic)
        game = load.run_setup(env, SETUP_CODE % (PLAYERS,), "CHAOS-SETUP")
        fig.setup = time.monotonic() - t0
        with load.Gunicorn(env, workers, tmp / "gunicorn.log") as server:
            started = time.monotonic()
            table = [
                Phone(n, server.port, game["editor"], random.Random(rng.random()), fig)
                for n in range(phones)
            ]
            for phone in table:
                phone.open()
            stop, chaos_stop = threading.Event(), threading.Event()
            chaos = [
                threading.Thread(
                    target=killer,
                    args=(server.proc.pid, kill_every, random.Random(seed + 1), chaos_stop, fig),
                    daemon=True,
                )
            ]
            if database == "postgres" and drop_every > 0:
                chaos.append(
                    threading.Thread(
                        target=dropper,
                        args=(pg_db, drop_every, random.Random(seed + 2), chaos_stop, fig),
                        daemon=True,
                    )
                )
            if kill_every <= 0:
                chaos.pop(0)
            players = [
                threading.Thread(target=p.play, args=(writes, stop), daemon=True) for p in table
            ]
            for thread in chaos + players:
                thread.start()
            for thread in players:
                thread.join(max(seconds - (time.monotonic() - started), 0.1))
            stop.set()
            for thread in players:
                thread.join(REQUEST_TIMEOUT * 2)
            chaos_stop.set()
            for thread in chaos:
                thread.join(10)
            # The connection is back for everybody: every outbox is sent.
            deadline = time.monotonic() + DRAIN_SECONDS
            for phone in table:
                phone.drain(deadline)
            fig.left_in_outboxes = sum(len(p.outbox) for p in table)
            sheets = [p.sheet() for p in table]
            fig.duration = time.monotonic() - started
        truth = load.run_setup(env, TRUTH_CODE, "CHAOS-TRUTH", str(game["game"]))
        if fig.left_in_outboxes:
            fig.problems.append(f"{fig.left_in_outboxes} writes were never answered")
        check(truth, sheets, fig)
        fig.deals = len(truth["deals"])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if url:
            load.pg_admin(f"DROP DATABASE IF EXISTS {pg_db} WITH (FORCE)")
    if not quiet:
        report(database, fig)
    return fig


def report(database: str, fig: Figures) -> None:
    print(f"\n== chaos on {database}: {fig.duration:.1f} s (set-up {fig.setup:.1f} s) ==")
    print(
        f"  writes {fig.writes} (stale {fig.stale_sent}), sent {fig.sent}, acks {fig.acks}"
        f" (already {fig.already}), replays {fig.replays}, conflicts {fig.conflicts},"
        f" invalid {fig.invalid}, gone {fig.gone}"
    )
    print(
        f"  offline windows {fig.offline_windows}, reordered reads {fig.reordered_reads},"
        f" no answer {fig.no_answer}, 503 retry {fig.retry_503}, 500 {fig.server_errors},"
        f" kills {fig.kills}, drops {fig.drops}"
    )
    print(
        f"  deals at the end {fig.deals}; acknowledged writes lost:"
        f" {fig.lost}; doubled: {fig.doubled}; saved without acknowledgement:"
        f" {fig.unacknowledged_saved}; stale saved: {fig.stale_saved}"
    )
    print("  OK: every phone's sheet equals the server's and the model" if fig.ok else "  FAILED:")
    for problem in fig.problems:
        print("   -", problem)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--phones", type=int, default=6)
    parser.add_argument("--writes", type=int, default=40, help="writes per phone (40)")
    parser.add_argument("--seconds", type=float, default=90.0, help="the longest the chaos lasts")
    parser.add_argument("--kill-every", type=float, default=4.0, help="seconds; 0: no kills")
    parser.add_argument("--drop-every", type=float, default=3.0, help="seconds; 0: no drops")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--pg-db", default=PG_DB)
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # the finally blocks clean up
    kwargs = {
        "phones": min(max(args.phones, 1), 12),
        "writes": min(max(args.writes, 1), 500),
        "seconds": min(max(args.seconds, 5.0), 600.0),
        "kill_every": args.kill_every,
        "drop_every": args.drop_every,
        "workers": min(max(args.workers, 1), 8),
        "seed": args.seed,
        "pg_db": args.pg_db,
    }
    ok = True
    if args.database in ("sqlite", "both"):
        ok &= run("sqlite", **kwargs).ok
    if args.database in ("postgres", "both"):
        if load.postgres_answers() is None:
            return 0 if ok else 1
        ok &= run("postgres", **kwargs).ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
